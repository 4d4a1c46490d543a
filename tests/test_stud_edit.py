"""The stud picker's hand model: slots read from a stud hand and written back, and what each
typed key does to a slot."""

from __future__ import annotations

import pytest

from pql_repl.api.exploration import range_summary
from pql_repl.editors.stud_edit import Slot, parse_stud_hand, stud_text, typed


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("(3-2-)45678", "(3-2-)45678"),
        ("KsJhTd", "KsJhTd"),
        ("A * T+", "A*T+"),
        ("[A,2,3]K", "[A,2,3]K"),
        ("[A, 2]K", "[A,2]K"),
        ("(7-7-7)", "(7-7-7)"),
        ("Ks Jh", "KsJh"),
        ("**As", "**As"),
        ("", ""),
    ],
)
def test_a_hand_reads_back_as_it_is_written(written: str, canonical: str) -> None:
    slots = parse_stud_hand(written)
    assert slots is not None
    assert len(slots) == 7
    assert stud_text(slots) == canonical
    if canonical:  # the engine reads both the same
        assert range_summary(written, "razz").hands == range_summary(canonical, "razz").hands


@pytest.mark.parametrize("text", ["AA, KK", "(3-(2-))", "(3-)(2-)", "A2345678", "AK@50", "(3-2-"])
def test_what_is_not_one_hand_is_not_shown(text: str) -> None:
    assert parse_stud_hand(text) is None


def test_typed_keys() -> None:
    assert typed(Slot(), "k") == Slot("K")
    assert typed(Slot("K"), "s") == Slot("Ks")
    assert typed(Slot("Ks"), "h") == Slot("Kh")
    assert typed(Slot("7"), "-") == Slot("7-")
    assert typed(Slot("T", grouped=True), "+") == Slot("T+", grouped=True)
    assert typed(Slot("7-"), "*") == Slot()
    assert typed(Slot(), "s") is None  # a suit needs a rank
    assert typed(Slot("[A,2]"), "-") is None
    # A grouped slot alone still writes its parenthesis; trailing any cards are dropped.
    assert stud_text([Slot("A", grouped=True), Slot(), Slot("5")]) == "(A)*5"
    assert stud_text([Slot("A"), Slot(), Slot()]) == "A"
