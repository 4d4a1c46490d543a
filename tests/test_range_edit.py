"""The explorer's range model: edits, undo, and the canonical text, which must read back (by the
engine) to exactly the weights it was written from."""

from __future__ import annotations

import random

import pytest

import pql_repl as pql
from pql_repl.editors.range_edit import FULL, RangeEdit, canonical_text, pio_text


def classes_of(edit: RangeEdit, *names: str) -> list[int]:
    return [edit.classes.class_index(n) for n in names]


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QQ+, AKs, AQs+, KQo", "QQ+, AQs+, KQo"),
        ("AKs, AKo", "AK"),
        ("22-66, TT, AJs-A8s, A5s", "TT, 66-22, AJs-A8s, A5s"),
        ("AA@50, KK@50", "KK+@50"),
        ("AA@50, KK@100", "KK@100, AA@50"),
        ("AhKh, AsKs", "AhKh, AsKs"),
        ("**", "**"),
        ("AK!AhKd", "AKs, " + ", ".join(sorted(set(pql.parse_range("AKo").combos) - {"AhKd"}))),
    ],
)
def test_canonical_texts(text: str, canonical: str) -> None:
    edit = RangeEdit()
    edit.load(text)
    if canonical.startswith("AKs, ") and "AhKd" not in canonical:
        # The order of single hands is the engine's: compare as sets of parts.
        assert set(edit.text().split(", ")) == set(canonical.split(", "))
    else:
        assert edit.text() == canonical


@pytest.mark.parametrize("game", ["holdem", "shortdeck"])
def test_random_ranges_read_back_to_their_weights(game: str) -> None:
    rng = random.Random(11)
    edit = RangeEdit(game)
    n = len(edit.weights)
    for trial in range(60):
        weights = [0] * n
        for cls in rng.sample(range(len(edit.classes.names)), rng.randint(1, 60)):
            w = rng.choice([FULL, FULL, 50, 7]) if trial % 2 else FULL
            for h in edit.classes.combos[cls]:
                weights[h] = w if rng.random() < 0.85 else 0
        if not any(weights):
            continue
        text = canonical_text(edit.classes, weights)
        back = RangeEdit(game)
        back.load(text)
        assert back.weights == weights, text


def test_edits_undo_and_redo() -> None:
    e = RangeEdit()
    assert e.toggle(classes_of(e, "AA", "KK"))
    assert e.text() == "KK+"
    assert e.toggle(classes_of(e, "AA"))
    assert e.text() == "KK"
    assert e.set_weight(classes_of(e, "AKs"), 40)
    assert e.text() == "KK@100, AKs@40"
    assert e.set_weight(classes_of(e, "KK"), 0)
    assert e.text() == "AKs@40"  # a weight kept as written (weights are relative)
    assert e.undo()
    assert e.text() == "KK@100, AKs@40"
    assert e.undo()
    assert e.undo()
    assert e.text() == "KK+"
    assert e.redo()
    assert e.text() == "KK"
    assert e.clear()
    assert e.text() == ""
    assert not e.clear()  # nothing changed: no undo step
    assert e.undo()
    assert e.text() == "KK"
    assert e.invert()
    assert e.totals().combos == 1326 - 6
    assert e.invert()
    assert e.text() == "KK"


def test_widen_and_narrow_follow_the_percent_ordering() -> None:
    e = RangeEdit()
    while e.percent() < 15.0:
        assert e.widen()
    want = RangeEdit()
    want.load("15%")
    # `+` adds whole classes in the order `N%` reads: the range holds `15%` and at most one more class.
    assert e.weights == [max(a, b) for a, b in zip(e.weights, want.weights, strict=True)]
    assert e.totals().combos - want.totals().combos <= 12
    before = e.totals().combos
    assert e.narrow()
    assert e.totals().combos < before
    while e.narrow():
        pass
    assert e.text() == ""
    assert not e.narrow()
    assert e.widen()
    assert e.text() == "AA"


def test_an_ordering_is_read_and_followed() -> None:
    e = RangeEdit(ordering="equity")
    e.load("10%")
    want = pql.parse_range("10%", ordering="equity")
    held = {pql.parse_range(e.classes.hands[h]).combos[0] for h, w in enumerate(e.weights) if w}
    assert held == set(want.combos)
    assert set(want.combos) != set(pql.parse_range("10%").combos)
    while e.narrow():
        pass
    assert e.widen()
    first = e.classes.names[e.classes.ordering[0][0]]
    assert e.text() == first
    default = RangeEdit()
    assert [c for c, _ in default.classes.ordering] != [c for c, _ in e.classes.ordering]


def test_totals_count_weights() -> None:
    e = RangeEdit()
    e.load("AA@50, KK@100")
    t = e.totals()
    assert (t.combos, t.weighted) == (12, 9.0)
    assert t.share == pytest.approx(12 / 1326)
    e.set_hands({e.classes.hand_index("AsAh") or 0: 0})
    assert e.totals().combos == 11


@pytest.mark.parametrize("game", ["holdem", "shortdeck"])
def test_fractional_weights_read_back_in_both_forms(game: str) -> None:
    """Issue 39: weights of a fraction of a percent, as solvers export them, written in pql's form
    (``@33.3``) and in Pio's (``:0.333``), read back to exactly the weights written."""
    rng = random.Random(39)
    edit = RangeEdit(game)
    n = len(edit.weights)
    for _ in range(40):
        weights: list[float] = [0] * n
        for cls in rng.sample(range(len(edit.classes.names)), rng.randint(1, 40)):
            w = rng.choice([FULL, 50, 33.3, 6.25, 86.42, 0.0001, 12.3456, 99.99])
            for h in edit.classes.combos[cls]:
                weights[h] = w if rng.random() < 0.85 else 0
        if not any(weights):
            continue
        for text in (canonical_text(edit.classes, weights), pio_text(edit.classes, weights)):
            back = RangeEdit(game)
            back.load(text)
            assert back.weights == weights, text


@pytest.mark.parametrize(
    ("pasted", "canonical", "pio"),
    [
        ("[75]AA,KK[/75],QQ", "QQ@100, KK+@75", "AA:0.75,KK:0.75,QQ"),
        ("AA:0.75,KK:1,AKs:0.5", "KK@100, AA@75, AKs@50", "AA:0.75,KK,AKs:0.5"),
        ("AcAd:0.5,KsKh,QsQd:0.25", "KsKh@100, AdAc@50, QsQd@25", "AdAc:0.5,KsKh,QsQd:0.25"),
        ("QQ+, AKs, A5s@50", "QQ+@100, AKs@100, A5s@50", "AA,KK,QQ,AKs,A5s:0.5"),
        ("AA@33.3, KK:0.0625", "AA@33.3, KK@6.25", "AA:0.333,KK:0.0625"),
        ("QQ+, AKs", "QQ+, AKs", "AA,KK,QQ,AKs"),
    ],
)
def test_ranges_of_other_tools_load_and_write_in_both_forms(pasted: str, canonical: str, pio: str) -> None:
    e = RangeEdit()
    e.load(pasted)
    assert e.text() == canonical
    assert e.pio_text() == pio
    assert pql.parse_range(pio).percents == pql.parse_range(canonical).percents


def test_weights_take_decimals() -> None:
    e = RangeEdit()
    assert e.set_weight(classes_of(e, "AKs"), 33.3)
    assert e.text() == "AKs@33.3"
    assert e.set_weight(classes_of(e, "AA"), 12.34567)  # the engine holds four decimals
    assert e.class_weights(classes_of(e, "AA")[0]) == [12.3457] * 6
    assert e.pio_text() == "AA:0.123457,AKs:0.333"
    assert e.totals().weighted == pytest.approx(6 * 0.123457 + 4 * 0.333)
