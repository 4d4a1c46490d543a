"""The explorer's engine calls against independent answers: the heatmap per class against
`pql.run` of that class, the board breakdown against counts made here, the classes' grid."""

from __future__ import annotations

from collections import Counter

import pytest
from reference import best_hi, hi_type, split

import pql_repl as pql
from pql_repl.api.exploration import Distribution, Heatmap, breakdown, hand_classes, range_summary
from pql_repl.base.errors import PqlError


def test_the_grid_holds_every_class_once() -> None:
    c = hand_classes("holdem")
    assert c.size == 13
    assert len(c.names) == 169
    assert len(c.hands) == 1326
    assert [c.names[c.cell(0, j)] for j in range(3)] == ["AA", "AKs", "AQs"]
    assert c.names[c.cell(1, 0)] == "AKo"
    assert c.names[c.cell(12, 12)] == "22"
    assert sorted(c.cell(r, k) for r in range(13) for k in range(13)) == list(range(169))
    for cls in range(169):
        assert c.cell(*c.position(cls)) == cls
    # The ordering is the one `N%` reads: the classes of `15%` are the first ones.
    fifteen = set(pql.parse_range("15%").combos)
    held = {c.names[c.class_of[c.hand_index(h) or 0]] for h in fifteen}
    first = [c.names[k] for k, p in c.ordering if p <= 15.0]
    assert held == set(first)
    s = hand_classes("shortdeck")
    assert s.ranks == "AKQJT9876"
    assert len(s.names) == 81
    with pytest.raises(PqlError):
        hand_classes("omahahi")


def river_equity(hero: str, villain: str, board: str, **options: object) -> pql.Column:
    query = f"select avg(riverEquity(hero)) from hero='{hero}', villain='{villain}', board='{board}'"
    return pql.run(query, **options)[0].columns[0]  # type: ignore[arg-type]


def test_an_exact_heatmap_equals_each_class_run_on_its_own() -> None:
    heatmap = Heatmap("holdem", ["QQ+, AK"], board="Kh7c2d")
    snap = heatmap.wait()
    assert snap.exact
    assert snap.done
    c = hand_classes("holdem")
    for name in ["AA", "AKs", "KQo", "72o", "T9s"]:
        got = snap.classes[c.class_index(name)]
        assert got is not None
        want = river_equity(name, "QQ+, AK", "Kh7c2d", exact=True)
        assert got[0] == pytest.approx(want.value, abs=1e-9), name
        assert got[1] == 0
    # Classes the board leaves no hand of have no equity.
    assert snap.classes[c.class_index("KK")] is not None
    assert all(snap.hands[h] is None for h in c.combos[c.class_index("77")] if "7c" in c.hands[h])


def test_a_monte_carlo_heatmap_agrees_with_each_class_within_its_error() -> None:
    heatmap = Heatmap("holdem", ["QQ+, AK"], trials=60_000, seed=3)
    snap = heatmap.wait()
    assert not snap.exact
    assert snap.done
    c = hand_classes("holdem")
    for name in ["AA", "AKs", "JTs", "72o"]:
        got = snap.classes[c.class_index(name)]
        assert got is not None
        want = river_equity(name, "QQ+, AK", "", trials=200_000, seed=5)
        assert want.stderr is not None
        bound = 4 * (got[1] ** 2 + want.stderr**2) ** 0.5
        assert abs(got[0] - float(want.value or 0)) < bound, (name, got, want.value)
    # The same seed gives the same heatmap, whatever the threads.
    again = Heatmap("holdem", ["QQ+, AK"], trials=60_000, seed=3, threads=1).wait()
    assert again.classes == snap.classes


def test_the_focus_range_gets_its_weighted_equity() -> None:
    c = hand_classes("holdem")
    heatmap = Heatmap("holdem", ["**"], board="Ah8d3c2s")
    weights = [0] * len(c.hands)
    for h in c.combos[c.class_index("AA")]:
        weights[h] = 100
    for h in c.combos[c.class_index("KK")]:
        weights[h] = 50
    heatmap.set_focus(weights)
    snap = heatmap.wait()
    aa, kk = snap.classes[c.class_index("AA")], snap.classes[c.class_index("KK")]
    assert snap.focus is not None
    assert aa is not None
    assert kk is not None
    # AA has 3 hands left on this board, KK 6 at half weight: the same weight each.
    assert snap.focus[0] == pytest.approx((aa[0] + kk[0]) / 2, abs=1e-12)


def test_a_heatmap_refuses_what_it_cannot_do() -> None:
    with pytest.raises(PqlError, match="13x13"):
        Heatmap("omahahi", ["AA**"])
    with pytest.raises(PqlError):
        Heatmap("holdem", ["AAA"])
    with pytest.raises(PqlError, match="exact"):
        Heatmap("holdem", ["QQ+", "KK"], board="Kh7c2d", exact=True)


def independent_breakdown(hands: list[str], board: str) -> dict[str, int]:
    """Hand types by the reference evaluator, flop categories and draws by `pql.run` per hand."""
    counts: Counter[str] = Counter()
    cards = split(board)
    for hand in hands:
        counts[hi_type("holdem", best_hi("holdem", split(hand), cards))] += 1
    return dict(counts)


def test_the_breakdown_equals_counts_made_here() -> None:
    board = "Kh9h7d"
    facts = breakdown("holdem", board)
    c = hand_classes("holdem")
    text = "QQ+, AK, T8s, 86s, QhJh"
    rng = pql.parse_range(text)
    idx = [c.hand_index(h) for h in rng.combos]
    alive = [h for h in idx if h is not None and facts.hands[h] is not None]
    assert len(alive) == len(rng.combos) - sum(1 for h in rng.combos if "Kh" in h)
    types = Counter(facts.hands[h].hand_type for h in alive)  # type: ignore[union-attr]
    assert dict(types) == independent_breakdown([c.hands[h] for h in alive], board)
    # Draws and flop categories: what the query functions say, hand by hand, exactly.
    for h in alive:
        hand = c.hands[h]
        f = facts.hands[h]
        assert f is not None
        q = (
            "select count(flushDraw(hero, flop)) as fd, count(openEndedStraightDraw(hero, flop)) as oe, "
            "count(gutshotStraightDraw(hero, flop)) as gs, count(backdoorFlushDraw(hero, flop)) as bd, "
            f"histogram(flopHandCategory(hero)) as cat from hero='{hand}', board='{board}'"
        )
        r = pql.run(q, exact=True)[0]
        got = {
            name
            for name, col in zip(
                ("flushdraw", "openended", "gutshot", "backdoorflush"), ["fd", "oe", "gs", "bd"], strict=True
            )
            if r.column(col).value == 1
        }
        assert set(f.draws) == got, hand
        (bucket,) = [b for b in r.column("cat").buckets if b.fraction == 1]
        assert bucket.label.lower() == f.flop_category, hand


def test_summaries_and_distributions() -> None:
    s = range_summary("QQ+, AKs", sample=5, seed=1)
    assert (s.hands, s.total, s.weighted) == (22, 1326, 22)
    assert len(s.sample) == 5
    assert all(h in pql.parse_range("QQ+, AKs").combos for h in s.sample)
    w = range_summary("AA@50, KK@100")
    assert w.weighted == pytest.approx(6 * 0.5 + 6 * 1.0)
    o = range_summary("AA**$ds", "omahahi", "generic")
    assert o.total == 270725
    assert o.hands > 0
    d = Distribution("omahahi", "AA**", ["**"], syntax="generic", hands=64, deals=50, seed=2).wait()
    assert sum(d.shares) == pytest.approx(1.0)
    assert d.mean is not None
    assert 0.5 < d.mean < 0.8


def test_distribution_on_a_river_puts_each_hand_at_its_exact_equity() -> None:
    # On a full board every hand's equity against one given hand is exact: AsAdKsKd wins (1),
    # 2c3c4d5d loses (0). The shares are the sampled proportions of the two hands (half each).
    board, villain = "AhKh7c8d9s", "QhQdJhJc"
    d = Distribution(
        "omahahi", "AsAdKsKd, 2c3c4d5d", [villain], board=board, hands=2000, deals=4, seed=3
    ).wait()
    assert d.shares[1:9] == [0.0] * 8
    # Two hands drawn 2,000 times: each share within 4 standard errors of a half.
    assert abs(d.shares[9] - 0.5) < 4 * (0.25 / 2000) ** 0.5
    assert d.shares[0] + d.shares[9] == pytest.approx(1.0)
    assert d.mean == pytest.approx(d.shares[9])


def test_distribution_mean_agrees_with_the_query_it_summarises() -> None:
    flop = "Kh7c2d"
    d = Distribution(
        "omahahi", "AA**", ["KK**"], board=flop, syntax="generic", hands=2000, deals=40, seed=4
    ).wait()
    (r,) = pql.run(
        f"select avg(riverEquity(hero)) from game='omahahi', syntax='generic', hero='AA**', villain='KK**', "
        f"board='{flop}'",
        trials=200_000,
        seed=4,
    )
    (col,) = r.columns
    assert d.mean is not None
    # The distribution's mean is a two-stage sample (hands, then deals per hand): its error is
    # at most sqrt(0.25 / 2000) = 0.011 from the hands; 4 of those, plus the query's own.
    assert abs(d.mean - float(col.value)) < 4 * (0.011 + float(col.stderr or 0.0))
