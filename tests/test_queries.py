"""Whole queries through the public API, checked against independent enumeration (eval7) or
against facts that hold by construction: sugar functions, constants, case without else, board
patterns, histogram labels."""

from __future__ import annotations

import itertools

import eval7
import pytest
from reference import DECK, HAND_TYPES, split

import pql_repl as pql


def one(query: str, **options: object) -> pql.StatementResult:
    (r,) = pql.run(query, **options)  # type: ignore[arg-type]
    return r


def e7(cards: str) -> int:
    return int(eval7.evaluate([eval7.Card(c) for c in split(cards)]))


def test_constants_and_case_without_else() -> None:
    r = one(
        "select avg(6), avg(case when winsHi(p1) then 1 end) as wins_only, "
        "avg(case when winsHi(p1) then 1 else 0 end) as all_deals "
        "from game='holdem', p1='AsKs', p2='AhKh', board='Qd7c2s'"
    )
    assert r.exact
    assert r.column("avg(6)").value == 6
    # Deals no arm matched have no value: the average is over the matched deals only.
    assert r.column("wins_only").value == 1
    all_deals = r.column("all_deals").value
    assert isinstance(all_deals, float)
    assert 0 < all_deals < 1


def test_min_and_exact_hand_type_equal_independent_enumeration() -> None:
    hole, flop = "AsAh", "Kd7c2s"
    rest = [c for c in DECK if c not in split(hole + flop)]
    types = [eval7.handtype(e7(hole + flop + "".join(tr))) for tr in itertools.combinations(rest, 2)]
    full_or_better = sum(t in ("Full House", "Quads", "Straight Flush") for t in types) / len(types)
    two_pair = sum(t == "Two Pair" for t in types) / len(types)
    r = one(
        "select count(minHandType(p1, river, fullhouse)), count(exactHandType(p1, river, twopair)), "
        f"count(handType(p1, river) >= fullhouse) from game='holdem', p1='{hole}', board='{flop}'"
    )
    assert r.exact
    assert r.trials == len(types)
    assert r.columns[0].value == pytest.approx(full_or_better, abs=1e-12)
    assert r.columns[1].value == pytest.approx(two_pair, abs=1e-12)
    assert r.columns[2].value == r.columns[0].value


def test_rate_hi_hand_is_a_threshold_on_hi_rating() -> None:
    hole, flop = "AsAh", "Kd7c2s"
    rest = [c for c in DECK if c not in split(hole + flop)]
    threshold = e7("2s2d2c3h3s")
    boards = list(itertools.combinations(rest, 2))
    expected = sum(e7(hole + flop + "".join(tr)) >= threshold for tr in boards) / len(boards)
    r = one(
        "select count(minHiRating(p1, river, rateHiHand('2s2d2c3h3s'))), "
        "count(hiRating(p1, river) >= rateHiHand('2s2d2c3h3s')) "
        f"from game='holdem', p1='{hole}', board='{flop}'"
    )
    assert r.columns[0].value == pytest.approx(expected, abs=1e-12)
    assert r.columns[1].value == r.columns[0].value


def test_board_pattern_deals_exactly_the_matching_flops() -> None:
    hole = "AsAh"
    firsts, seconds, thirds = "KQJT", "987", "8765"
    flops = {
        frozenset((a, b, c))
        for a, b, c in itertools.product(DECK, DECK, DECK)
        if a[0] in firsts and b[0] in seconds and c[0] in thirds and len({a, b, c}) == 3
    }
    flops = {f for f in flops if not f & set(split(hole))}
    r = one(
        f"select count(pairedBoard(flop)) from game='holdem', p1='{hole}', board='[K-T][9-7][8-5]'",
        exact=True,
    )
    # Each matching flop once (flop cards are unordered), times every turn and river.
    assert r.trials == len(flops) * 47 * 46 // 2
    paired = sum(len({c[0] for c in f}) < 3 for f in flops) / len(flops)
    assert r.columns[0].value == pytest.approx(paired, abs=1e-12)
    # boardInRange deals turn and river by position; every deal matches its own pattern.
    r = one(
        "select count(boardInRange('[K-T][9-7][8-5]')) "
        f"from game='holdem', p1='{hole}', board='[K-T][9-7][8-5]'"
    )
    assert r.exact
    assert r.columns[0].value == 1


def test_histogram_labels_read_naturally() -> None:
    r = one(
        "select histogram(fractionalRiverEquity(p1)), histogram(riverEquity(p1)), "
        "histogram(handType(p1, river)) "
        "from game='holdem', p1='AsKs', p2='AhKh', board='Qd7c2s'"
    )
    assert [b.label for b in r.columns[0].buckets] == ["1/2", "1"]
    assert [b.label for b in r.columns[1].buckets] == ["50-51%", "99-100%"]
    labels = [b.label for b in r.columns[2].buckets]
    assert labels == sorted(labels, key=HAND_TYPES.index)
    assert sum(b.count for b in r.columns[2].buckets) == r.trials


def test_short_deck_orders_flush_above_full_house_in_histograms() -> None:
    r = one("select histogram(handType(p1, river)) from game='shortdeck', p1='QhJh', board='QsJs6h'")
    labels = [b.label for b in r.columns[0].buckets]
    assert labels.index("flush") > labels.index("fullhouse")


@pytest.mark.parametrize(
    ("pattern", "matches"), [("AKK", False), ("AKJ3K", False), ("KJAK3", True), ("AKJ", True)]
)
def test_board_in_range_examples_of_the_spec(pattern: str, matches: bool) -> None:
    r = one(f"select count(boardInRange('{pattern}')) from game='holdem', board='AsKdJhKc3s'")
    assert r.trials == 1
    assert r.columns[0].value == (1 if matches else 0)
