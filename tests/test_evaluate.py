"""evaluate(): the Python face of the evaluators."""

from __future__ import annotations

import pytest

import pql_repl as pql


def test_hi_category_rating_and_cards() -> None:
    e = pql.evaluate("AsKs", "QsJsTs2d")
    assert e.hi is not None
    assert e.hi.category == "straightflush"
    assert e.hi.cards == "AsKsQsJsTs"
    assert e.lo is None
    weaker = pql.evaluate("AsKd", "QsJsTs2d").hi
    assert weaker is not None
    assert weaker.category == "straight"
    assert weaker.rating < e.hi.rating


def test_omaha8_has_hi_and_lo() -> None:
    e = pql.evaluate("As2d7c8h", "3s4d5cKhKd", game="omaha8")
    assert e.lo is not None
    assert e.lo.category == "5-4-3-2-A"
    assert e.hi is not None
    assert e.hi.category == "straight"


def test_lo_is_none_without_a_qualifier() -> None:
    assert pql.evaluate("AsKd9c9h", "QsQdTcJhKc", game="omaha8").lo is None


def test_razz_uses_all_cards_in_hole() -> None:
    e = pql.evaluate("As2d3c4h5sKsKd", game="razz")
    assert e.hi is None
    assert e.lo is not None
    assert e.lo.cards == "As5s4h3c2d"
    better = pql.evaluate("As2d3c4h6sKsKd", game="razz").lo
    assert better is not None
    assert better.rating < e.lo.rating


@pytest.mark.parametrize(
    ("hole", "board", "game", "needle"),
    [
        ("10h", "", "holdem", "'10' is not a rank"),
        ("ZzAs", "2c3c4c", "holdem", "'Z' is not a rank"),
        ("AhKh", "2c3c4c", "holdme", "unknown game 'holdme'"),
        ("AhKh", "2c3c", "holdem", "board of 3 to 5"),
        ("AhKh", "Ah3c4c", "holdem", "same card"),
        ("AhKh2c", "3c4c5c", "omaha", "expected 4 hole cards"),
        ("Ah2h", "3c4c5c", "shortdeck", "sixes to aces"),
    ],
)
def test_bad_input_is_a_clear_error(hole: str, board: str, game: str, needle: str) -> None:
    with pytest.raises(pql.PqlError) as info:
        pql.evaluate(hole, board, game)
    assert needle in info.value.message


def test_did_you_mean_for_games() -> None:
    with pytest.raises(pql.PqlRangeError) as info:
        pql.evaluate("AhKh", "2c3c4c", "holdme")
    assert info.value.hint == "did you mean 'holdem'?"
