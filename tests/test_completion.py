"""Completion as a pure function of (text, cursor): context, ranking, replacement ranges."""

from __future__ import annotations

import pytest

from pql_repl.session.completion import Candidate, complete, fuzzy_score, opens_by_itself
from pql_repl.session.session import COMMANDS
from pql_repl.session.vocabulary import vocabulary


def texts(text: str, cursor: int | None = None) -> list[str]:
    return [c.text for c in complete(text, cursor)]


def kinds(text: str, cursor: int | None = None) -> set[str]:
    return {c.kind for c in complete(text, cursor)}


def test_selectors_after_select() -> None:
    vocab = vocabulary()
    assert texts("select ") == list(vocab.selectors)
    assert texts("select avg(x), ") == list(vocab.selectors)
    assert texts("select cou")[0] == "count"


def test_functions_with_signatures_in_expressions() -> None:
    found = complete("select avg(riverEq")
    assert found[0].text == "riverEquity"
    assert found[0].kind == "function"
    info = vocabulary().function("riverEquity")
    assert info is not None
    assert found[0].display == info.signature
    assert found[0].doc == info.doc
    assert found[0].start == len("select avg(")


def test_every_function_is_offered_in_an_expression() -> None:
    offered = {c.text for c in complete("select avg(") if c.kind == "function"}
    assert offered == {f.name for f in vocabulary().functions}


def test_ranking_exact_then_prefix_then_fuzzy() -> None:
    found = complete("select count(handType(hero, river) = pair")
    matches = [c.match for c in found]
    assert found[0].text == "pair"
    assert matches[0] == "exact"
    assert matches == sorted(matches, key=["exact", "prefix", "fuzzy"].index)
    assert "twopair" in [c.text for c in found if c.match == "fuzzy"]


def test_fuzzy_matches_letters_in_order() -> None:
    assert fuzzy_score("rve", "riverEquity") is not None
    assert fuzzy_score("zq", "riverEquity") is None
    assert texts("select avg(rvrEqt")[0] == "riverEquity"
    assert fuzzy_score("abc", "abc") == 0
    tight = fuzzy_score("hvh", "HvHEquity")
    loose = fuzzy_score("hvh", "HvPerceivedRangeEquity")
    assert tight is not None
    assert loose is None or tight < loose


def test_players_declared_in_the_from_clause_even_after_the_cursor() -> None:
    text = "select avg(riverEquity(h)) from hero='AA', villain='KK'"
    cursor = text.index("h)") + 1
    found = complete(text, cursor)
    assert found[0].text == "hero"
    assert found[0].kind == "player"
    assert found[0].start == cursor - 1


def test_player_parameter_offers_only_players() -> None:
    text = "select avg(riverEquity() from hero='AA', villain='KK'"
    cursor = text.index("()") + 1
    assert texts(text, cursor) == ["hero", "villain"]


def test_street_parameter_offers_the_streets_of_the_game() -> None:
    vocab = vocabulary()
    holdem = "select count(pairedBoard() from hero='AA'"
    cursor = holdem.index("()") + 1
    assert texts(holdem, cursor) == list(vocab.streets_for("holdem"))
    assert "flop" in texts(holdem, cursor)
    razz = "select count(handType(p, )) from game='razz', p='A2345'"
    cursor = razz.index(", )") + 2
    assert texts(razz, cursor) == list(vocab.streets_for("razz"))
    assert "flop" not in texts(razz, cursor)
    assert "seventh" in texts(razz, cursor)


def test_hand_type_and_flop_category_parameters() -> None:
    vocab = vocabulary()
    text = "select count(minHandType(hero, river, )) from hero='AA'"
    cursor = text.index(", )") + 2
    assert texts(text, cursor) == list(vocab.hand_types)
    text = "select count(exactFlopHandCategory(hero, )) from hero='AA'"
    cursor = text.index(", )") + 2
    assert texts(text, cursor) == list(vocab.flop_categories)


def test_hand_types_and_flop_categories_in_comparisons() -> None:
    assert "straightflush" in texts("select count(handType(hero, river) >= straightf")
    assert texts("select count(flopHandCategory(hero) = flopse")[0] == "flopset"


def test_game_names_inside_game_quotes() -> None:
    vocab = vocabulary()
    assert texts("select avg(1) from game='") == list(vocab.games)
    assert texts("select avg(1) from game='om")[0].startswith("om")
    assert texts("select avg(1) from game='razz")[0] == "razz"
    found = complete("select avg(1) from game='om', hero='AA'", len("select avg(1) from game='om"))
    assert found[0].start == len("select avg(1) from game='")


def test_orderings_inside_ordering_quotes() -> None:
    assert texts("select avg(1) from ordering='") == ["oracle", "equity"]
    assert texts("select avg(1) from hero='15%', ordering='eq")[0] == "equity"
    assert kinds("select avg(1) from ordering='") == {"ordering"}


def test_from_keys_and_range_keywords() -> None:
    vocab = vocabulary()
    assert set(texts("select avg(1) from ")) == set(vocab.reserved_keys)
    assert "game" not in texts("select avg(1) from game='razz', ")
    assert texts("select avg(1) from hero='AA' ") == ["where"]
    assert vocab.range_keywords
    word = vocab.range_keywords[0]
    assert word in texts(f"select avg(1) from hero='{word[:2]}")
    # Inside a range, the word being typed starts after the last separator.
    found = complete(f"select avg(1) from hero='AA, {word[:2]}")
    assert found[0].start == len("select avg(1) from hero='AA, ")


def test_dot_commands_at_line_start() -> None:
    assert set(texts(".")) == {f".{name}" for name in COMMANDS}
    assert texts(".tri")[0] == ".trials"
    assert texts("select avg(1) from h='AA';\n.desc")[0] == ".describe"
    assert texts(".describe riverEq")[0] == "riverEquity"
    assert texts(".format j") == ["json"]


def test_nothing_in_comments_and_board_strings() -> None:
    assert complete("select /* riv") == []
    assert complete("select avg(1) -- riv") == []
    assert complete("select avg(1) from board='A") == []


def test_second_statement_uses_its_own_players_and_game() -> None:
    text = "select avg(1) from game='razz', a='A2345';\nselect count(handType(b, ))) from b='AA'"
    cursor = text.index(", )))") + 2
    found = texts(text, cursor)
    assert "flop" in found
    assert "seventh" not in found
    text = "select avg(riverEquity()) from x='AA'; select 1 from y='KK'"
    assert texts(text, text.index("()") + 1) == ["x"]


def test_case_insensitive_and_replacement_range() -> None:
    found = complete("SELECT AVG(RIVEREQ")
    assert found[0].text == "riverEquity"
    assert found[0].start == len("SELECT AVG(")
    assert all(isinstance(c, Candidate) for c in found)


@pytest.mark.parametrize(
    "text",
    ["", "select", "select avg((((", "from from from", "'", "select avg(1) from game='", ";;;", "\n\n."],
)
def test_never_fails_on_odd_input(text: str) -> None:
    for cursor in range(len(text) + 1):
        complete(text, cursor)


def test_values_of_the_compared_type_come_first() -> None:
    vocab = vocabulary()
    assert texts("select count(handType(hero, river) = fl")[0] == "flush"
    assert texts("select count(handType(hero, river) >= straightf")[0] == "straightflush"
    found = texts("select avg(1) from hero='AA' where flopHandCategory(hero) = ")
    assert found[: len(vocab.flop_categories)] == list(vocab.flop_categories)
    # Other values can still be compared: they follow.
    assert "hero" in found
    # A comparison of something else ranks as before.
    assert texts("select count(riverEquity(hero) > fl")[0] != "flush"


def test_no_keywords_for_a_column_name_or_clause_keywords_in_expressions() -> None:
    assert texts("select avg(riverEquity(hero)) as ") == []
    assert texts("select avg(riverEquity(hero)) as e") == []
    assert texts("select avg(riverEquity(hero)) as eq ") == ["as", "from"]
    for text in ["select count(w", "select avg(1) from h='AA' where w", "select avg(f"]:
        keywords = {c.text for c in complete(text) if c.kind == "keyword"}
        assert not keywords & {"select", "as", "from", "where"}, text
    assert "when" in texts("select count(w")


def test_range_keywords_and_syntaxes_in_the_range_command() -> None:
    vocab = vocabulary()
    word = vocab.range_keywords[0]
    text = f".range holdem 'QQ+, {word[:3]}"
    found = complete(text)
    assert found[0].text == word
    assert found[0].start == len(".range holdem 'QQ+, ")
    assert texts(".range holdem '") == list(vocab.range_keywords)
    assert texts(".range holdem 'AK' ") == list(vocab.syntaxes)
    assert texts(".range hol")[0] == "holdem"


@pytest.mark.parametrize(
    ("text", "opens"),
    [
        ("select avg(riverEq", True),
        ("select avg(", True),
        (".tr", True),
        ("select avg(1) from game='", True),
        (".range holdem '", True),
        ("select avg(1) from villain='KK'", False),
        (".range holdem 'QQ+, AKs'", False),
        ("select avg(1)", False),
        ("select avg(1) from h='AA';", False),
        ("select avg(1) ", False),
        ("select avg(1) from a='x', b='it''", True),
        ("", False),
    ],
)
def test_the_menu_opens_by_itself_only_on_a_word_being_typed(text: str, opens: bool) -> None:
    assert opens_by_itself(text) is opens
