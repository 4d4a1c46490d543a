"""The explorer's scan of from clauses: each player's range and where it stands in the text."""

from __future__ import annotations

from pql_repl.session.from_clause import clause_at, from_clauses, player_at

TEXT = (
    "select avg(riverEquity(hero)) from game='holdem', hero='QQ+, AKs', villain = \"KK\", board='Kh7c2d'\n"
    "where inRange(hero, 'AA');\n"
    "-- a comment: from x='y'\n"
    "select count(winsHi(p1)) from p1='AA' /* q='z' */, p2='KK' -- the end\n"
    ", p3='TT';"
)


def test_every_setting_with_its_place() -> None:
    first, second = from_clauses(TEXT)
    assert [(s.key, s.value) for s in first.settings] == [
        ("game", "holdem"),
        ("hero", "QQ+, AKs"),
        ("villain", "KK"),
        ("board", "Kh7c2d"),
    ]
    for s in (*first.settings, *second.settings):
        assert TEXT[s.start : s.end] == s.value
    assert [p.key for p in first.players] == ["hero", "villain"]
    assert (first.game, first.value("board"), first.value("dead")) == ("holdem", "Kh7c2d", None)
    assert [(p.key, p.value) for p in second.players] == [("p1", "AA"), ("p2", "KK"), ("p3", "TT")]
    assert second.game == "holdem"


def test_the_clause_and_player_at_the_cursor() -> None:
    at_kk = TEXT.index('"KK"')
    clause = clause_at(TEXT, at_kk)
    assert clause is not None
    assert clause.index == 0
    assert player_at(clause, at_kk) == clause.player("villain")
    # Elsewhere in the statement: its first player.
    assert player_at(clause, 3) == clause.player("hero")
    at_tt = TEXT.index("TT")
    second = clause_at(TEXT, at_tt)
    assert second is not None
    assert second.index == 1
    assert player_at(second, at_tt) == second.player("p3")
    assert from_clauses("select avg(6) from game='holdem'")[0].players == []


def test_a_simulate_statements_keys_are_not_players() -> None:
    text = (
        "simulate call, raise from game='holdem', hero='Jh9h', pot=10, tocall=2, bet=2, "
        "villain='QQ+, 22-JJ@40', villain.raise_threshold=0.8, history='villain:raise@flop', board='Jd7c2h'"
    )
    (clause,) = from_clauses(text)
    assert [(p.key, p.value) for p in clause.players] == [("hero", "Jh9h"), ("villain", "QQ+, 22-JJ@40")]
    assert (clause.value("pot"), clause.value("history"), clause.value("board")) == (
        "10",
        "villain:raise@flop",
        "Jd7c2h",
    )
    for s in clause.settings:
        assert text[s.start : s.end] == s.value
