"""Ranges, boards and dead cards as a query sees them (docs/language/ranges.md): what a range text means,
checked through whole statements and `parse_range`."""

from __future__ import annotations

import pytest

import pql_repl as pql
from pql_repl.session.session import Session


def one(query: str, **options: object) -> pql.StatementResult:
    (r,) = pql.run(query, **options)  # type: ignore[arg-type]
    return r


def test_board_patterns_with_many_boards() -> None:
    r = one(
        "select count(boardInRange('****Ks')), count(boardInRange('***[2-7]')), "
        "count(boardInRange('[2-9]')) from game='holdem', p1='AsAh', board='[2-9]****'",
        trials=200_000,
        seed=1,
    )
    assert r.columns[0].value == pytest.approx(1 / 50, abs=0.002)
    # The turn is a card 2..7 as often as among the 47 cards left after a flop with one 2..9.
    assert 0.35 < r.columns[1].value < 0.55
    assert r.columns[2].value == 1


def test_a_board_of_wild_cards_is_no_board() -> None:
    q = "select avg(riverEquity(p1)) from game='holdem', p1='AsAh', p2='KsKh'"
    assert one(q + ", board='*****'").columns[0].value == one(q).columns[0].value


@pytest.mark.parametrize("board", ["Ks", "KsKd"])
def test_a_board_has_three_to_five_cards(board: str) -> None:
    q = f"select count(winsHi(p1)) from game='holdem', p1='AsAh', board='{board}'"
    with pytest.raises(pql.PqlRangeError, match="3, 4 or 5 cards") as e:
        pql.prepare(q)
    assert e.value.col == q.index(board) + 1


def test_range_string_form_counts_and_weights() -> None:
    assert str(pql.parse_range("AsAh")) == "1 hand: AsAh"
    assert str(pql.parse_range("AA")).startswith("6 hands: ")
    r = pql.parse_range("AA@10, KsKh@5")
    assert r.weighted
    assert str(r).startswith("7 hands: ")
    assert {c.split("@")[1] for c in str(r).split(": ")[1].split()} == {"10", "5"}
    assert "KsKh@5" in str(r)
    # Equal weights are still weights.
    assert "@5" in str(pql.parse_range("AA@5, KK@5"))
    assert not pql.parse_range("AA, KK").weighted


def test_range_command_shows_weights() -> None:
    out = Session().handle(".range holdem 'AsAh@5, KsKh@5'").output
    assert out.splitlines() == ["2 hands (holdem)", "AsAh@5 KsKh@5"]  # in rank order (issue 39)


@pytest.mark.parametrize("dead", ["Kw", "[K-Q]", "K"])
def test_dead_cards_take_generic_patterns(dead: str) -> None:
    # One of the pattern's cards is dead in each deal: p2 sees fewer of them than without it.
    q = "select count(inRange(p2, 'K*')) from game='holdem', p1='AsAh', p2='*', board='2c3c4c5c6d'"
    with_dead = one(q + f", dead='{dead}'").columns[0].value
    without = one(q).columns[0].value
    assert with_dead < without


def test_dead_card_lists_are_all_dead() -> None:
    r = one("select count(inRange(p2, 'K*')) from game='holdem', p1='AsAh', p2='*', dead='Ks, Kh Kd'")
    assert r.columns[0].value == pytest.approx(1 - 46 * 45 / (47 * 46), abs=0.01)
