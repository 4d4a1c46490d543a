"""The views of the results that are not a statement's: the odds view (``Odds``, ``OddsTable``),
a hand's value (``Evaluation``, ``HandValue``) and the explorers' results (``HandClasses``,
``HeatmapSnapshot``, ``RangeSummary``, ``DistributionSnapshot``, ``Breakdown``). Each gives
``to_pandas()`` (tidy, snake_case, typed: its numbers are the object's own) and ``_repr_html_()``
(read back with html.parser: the values and their margins, escaped, nothing that runs)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from html_tables import Page, Table

import pql_repl as pql
from pql_repl.api.exploration import (
    Distribution,
    DistributionSnapshot,
    Heatmap,
    RangeSummary,
    breakdown,
    hand_classes,
    range_summary,
)
from pql_repl.api.multi_odds import ANALYSIS_MEASURES, SHOWDOWN_MEASURES
from pql_repl.base.records import replace

pytest.importorskip("pandas")

Z95 = 1.96
MEASURES = (*SHOWDOWN_MEASURES[:3], *ANALYSIS_MEASURES, *SHOWDOWN_MEASURES[3:])


def dtypes(frame: Any) -> dict[str, str]:
    return {name: str(t) for name, t in frame.dtypes.items()}


def parsed(view: str) -> Page:
    page = Page(view)
    assert page.active == []  # no script, handler, fetch or comment
    return page


def cells(table: Table) -> list[list[str]]:
    return [[c.text for c in row] for row in table.rows]


def margin(stderr: float) -> str:
    """The 95% margin of a share as the tables show it."""
    return f"± {100 * Z95 * stderr:.2f}%"


ODDS_DTYPES = {
    "opponents": "int64",
    "table": "str",
    "hand_type": "str",
    "measure": "str",
    "value": "float64",
    "stderr": "float64",
    "count": "float64",
    "trials": "int64",
    "exact": "bool",
    "status": "str",
    "seed": "UInt64",
}


# ---------------------------------------------------------------------------------------------
# The odds view


@pytest.fixture(scope="module")
def exact_odds() -> pql.Odds:
    return pql.odds("AdQc", "3h4cJh", 1)


@pytest.fixture(scope="module")
def sampled_odds() -> pql.Odds:
    return pql.odds("AdQc", "3h4cJh", 3, trials=20_000, seed=1)


def test_exact_odds_as_a_frame_hold_its_own_numbers(exact_odds: pql.Odds) -> None:
    o = exact_odds
    df = o.to_pandas()
    assert dtypes(df) == ODDS_DTYPES
    head = df[df["table"] == "odds"]
    assert list(head["measure"]) == list(MEASURES)
    assert list(head["value"]) == [getattr(o, m) for m in MEASURES]
    assert (head["stderr"] == 0).all()  # exact
    assert head["exact"].all()
    assert set(df["status"]) == {"done"}
    assert df["seed"].isna().all()  # an exact run draws nothing
    assert set(df["opponents"]) == {1}
    player = df[df["table"] == "player_hand"]
    for row in o.player_types:
        mine = player[player["hand_type"] == row.hand_type].set_index("measure")
        assert (mine.loc["share", "value"], mine.loc["win", "value"], mine.loc["tie", "value"]) == (
            row.share,
            row.win,
            row.tie,
        )
        assert mine.loc["share", "count"] == row.count
    assert len(df[df["table"] == "opponent_hand"]) == 3 * len(o.opponent_types)


def test_exact_odds_html_is_the_report_as_tables(exact_odds: pql.Odds) -> None:
    o = exact_odds
    page = parsed(o._repr_html_())
    values, player, opponent = page.tables
    assert "AdQc on 3h4cJh against 1 random" in values.caption
    assert "exact" in values.caption
    rows = {r[0].text: r[1] for r in values.rows[1:]}
    assert rows["win"].text == f"{100 * o.win:.2f}%"
    assert float(rows["win"].data("value") or "nan") == o.win
    assert rows["win"].data("stderr") == "0.0"
    assert float(rows["hand strength"].data("value") or "nan") == o.hand_strength
    assert "±" not in "".join(c.text for c in rows.values())  # exact: no margins
    assert cells(player)[0] == ["player's hand", "share", "win", "tie"]
    assert [r[0] for r in cells(player)[1:]] == [r.hand_type for r in o.player_types]
    assert [r[0] for r in cells(opponent)[1:]] == [r.hand_type for r in o.opponent_types]


def test_sampled_odds_carry_their_errors_seed_and_margins(sampled_odds: pql.Odds) -> None:
    o = sampled_odds
    assert not o.exact
    assert o.win_stderr is not None
    assert o.win_stderr > 0
    df = o.to_pandas()
    head = df[df["table"] == "odds"].set_index("measure")
    for m in ("win", "tie", "equity", "hh_positive_potential"):
        assert head.loc[m, "stderr"] == getattr(o, f"{m}_stderr")
        assert head.loc[m, "trials"] == 20_000
    assert head.loc["positive_potential", "stderr"] == o.positive_potential_stderr
    assert head.loc["positive_potential", "trials"] == o.analysis_trials > 0
    assert not head["exact"].any()
    assert set(df["seed"]) == {1}
    # A MultiOdds row's share: binomial of the deals drawn.
    player = df[df["table"] == "player_hand"].set_index(["hand_type", "measure"])
    first = o.player_types[0]
    expected = math.sqrt(first.share * (1 - first.share) / o.trials)
    assert player.loc[(first.hand_type, "share"), "stderr"] == pytest.approx(expected)

    values, player_table, _ = parsed(o._repr_html_()).tables
    assert "sampled" in values.caption
    rows = {r[0].text: r[1] for r in values.rows[1:]}
    assert o.win_stderr is not None
    assert rows["win"].text == f"{100 * o.win:.2f}% {margin(o.win_stderr)}"
    assert float(rows["win"].data("stderr") or "nan") == o.win_stderr
    assert player_table.rows[1][1].text == f"{100 * first.share:.2f}% {margin(expected)}"


def test_a_live_odds_snapshot_is_partial() -> None:
    o = pql.odds("AdQc", "3h4cJh", 1)
    live = replace(o, done=False, hand_strength=float("nan"), analysis_trials=0)
    df = live.to_pandas()
    assert set(df["status"]) == {"partial"}
    strength = df[df["measure"] == "hand_strength"].iloc[0]
    assert math.isnan(strength["value"])
    assert math.isnan(strength["stderr"])
    rows = {r[0].text: r[1] for r in parsed(live._repr_html_()).tables[0].rows[1:]}
    assert rows["hand strength"].text == ""  # not computed yet: no "nan%"


def test_the_odds_table_is_one_row_per_count() -> None:
    t = pql.odds_table("AdQc", "3h4cJh", [1, 2], trials=20_000, seed=1)
    df = t.to_pandas()
    assert dtypes(df) == ODDS_DTYPES
    assert list(df["opponents"].unique()) == [1, 2]
    two = df[(df["opponents"] == 2) & (df["table"] == "odds")].set_index("measure")
    assert two.loc["equity", "value"] == t.rows[1].equity
    assert two.loc["equity", "stderr"] == t.rows[1].equity_stderr
    (table,) = parsed(t._repr_html_()).tables
    assert "AdQc on 3h4cJh against 1 to 2 random opponents" in table.caption
    head, one, second, legend = cells(table)
    assert head[:4] == ["opponents", "win", "tie", "equity"]
    assert one[0] == "1"
    assert one[-2:] == ["exact", "exact"]
    assert one[1] == f"{100 * t.rows[0].win:.2f}%"
    assert second[0] == "2"
    assert second[-2] == "20,000 trials"
    se = t.rows[1].win_stderr
    assert se is not None
    assert second[1] == f"{100 * t.rows[1].win:.2f}% {margin(se)}"
    assert "HoldemHand's potentials" in legend[0]


# ---------------------------------------------------------------------------------------------
# A hand's value


def test_an_evaluation_is_a_row_per_half() -> None:
    e = pql.evaluate("As2d7c8h", "3s4d5cKhKd", game="omaha8")
    assert e.hi is not None
    assert e.lo is not None
    df = e.to_pandas()
    assert dtypes(df) == {"side": "str", "category": "str", "rating": "int64", "cards": "str"}
    assert df.to_dict("records") == [
        {"side": "hi", "category": e.hi.category, "rating": e.hi.rating, "cards": e.hi.cards},
        {"side": "lo", "category": e.lo.category, "rating": e.lo.rating, "cards": e.lo.cards},
    ]
    (table,) = parsed(e._repr_html_()).tables
    assert cells(table) == [
        ["side", "category", "rating", "cards"],
        ["hi", e.hi.category, str(e.hi.rating), e.hi.cards],
        ["lo", "5-4-3-2-A", str(e.lo.rating), e.lo.cards],
    ]
    assert list(e.hi.to_pandas()["rating"]) == [e.hi.rating]
    assert cells(parsed(e.hi._repr_html_()).tables[0])[1] == [e.hi.category, str(e.hi.rating), e.hi.cards]
    razz = pql.evaluate("As2d3c4h5sKsKd", game="razz")
    assert list(razz.to_pandas()["side"]) == ["lo"]  # razz has no hi


# ---------------------------------------------------------------------------------------------
# The explorers' results


def test_hand_classes_are_the_grid() -> None:
    c = hand_classes("holdem")
    df = c.to_pandas()
    assert dtypes(df) == {
        "hand_class": "str",
        "grid_row": "int64",
        "grid_col": "int64",
        "combos": "int64",
        "rank": "Int64",
        "percentile": "float64",
    }
    assert len(df) == 169
    assert df["combos"].sum() == 1326
    aa = df.set_index("hand_class").loc["AA"]
    assert (aa["grid_row"], aa["grid_col"], aa["combos"], aa["rank"]) == (0, 0, 6, 1)
    assert aa["percentile"] == c.ordering[0][1]
    (table,) = parsed(c._repr_html_()).tables
    assert len(table.rows) == 13
    assert all(len(r) == 13 for r in table.rows)
    corner = table.rows[0][0]
    assert corner.data("label") == "AA"
    assert corner.text == f"AA{100 * c.ordering[0][1] / 100:.2f}%"
    assert table.rows[12][12].data("label") == "22"


@pytest.mark.parametrize("exact", [True, False])
def test_a_heatmap_snapshot_is_a_row_per_class(exact: bool) -> None:
    board = "3h4cJh" if exact else None
    snap = Heatmap("holdem", ["*"], board=board, trials=4_000, seed=3).wait()
    assert snap.exact is exact
    assert snap.done
    df = snap.to_pandas()
    assert dtypes(df) == {
        "hand_class": "str",
        "value": "float64",
        "stderr": "float64",
        "combos": "int64",
        "trials": "int64",
        "exact": "bool",
        "status": "str",
    }
    names = hand_classes("holdem").names
    assert list(df["hand_class"]) == names
    for cls, row in enumerate(df.itertuples()):
        est = snap.classes[cls]
        if est is None:
            assert math.isnan(row.value)
        else:
            assert (row.value, row.stderr) == est
    assert set(df["trials"]) == {snap.trials}
    assert set(df["status"]) == {"done"}

    (table,) = parsed(snap._repr_html_()).tables
    assert ("exact" if exact else "sampled") in table.caption
    aa = table.rows[0][0]
    value, stderr = snap.classes[0] or (0.0, 0.0)
    assert aa.data("label") == "AA"
    assert float(aa.data("value") or "nan") == value
    shown = f"AA{100 * value:.2f}%" + ("" if exact else f" {margin(stderr)}")
    assert aa.text == shown
    # Tinted by the equity, as the explorer's grid: red (0), yellow (0.5), green (1).
    assert f"background:hsl({120 * value:.0f}," in (aa.attrs.get("style") or "")


def test_a_range_summary_is_one_row() -> None:
    s = range_summary("QQ+, AKs", sample=3, seed=1)
    df = s.to_pandas()
    assert dtypes(df) == {
        "range": "str",
        "game": "str",
        "hands": "int64",
        "total": "Int64",
        "share": "float64",
        "weighted": "float64",
        "weighted_range": "bool",
        "sample": "str",
    }
    assert df.iloc[0].to_dict() == {
        "range": "QQ+, AKs",
        "game": "holdem",
        "hands": 22,
        "total": 1326,
        "share": 22 / 1326,
        "weighted": 22.0,
        "weighted_range": False,
        "sample": " ".join(s.sample),
    }
    (table,) = parsed(s._repr_html_()).tables
    _head, row, sample = cells(table)
    assert row == ["QQ+, AKs", "22", "1,326", "1.66%", "22"]
    assert sample == [f"sample: {' '.join(s.sample)}"]
    stud = range_summary("AsAhKd", "studhi").to_pandas()
    assert stud["total"].isna().all()


def test_html_escapes_what_a_range_says() -> None:
    s = RangeSummary("holdem", 1, 1326, 1.0, False, ["<b>"], text="<script>alert('x')</script> & AA")
    view = s._repr_html_()
    assert "<script>" not in view
    assert "<b>" not in view
    (table,) = parsed(view).tables
    assert table.rows[1][0].text == "<script>alert('x')</script> & AA"


def test_a_distribution_snapshot_is_its_tenths_and_mean() -> None:
    snap = Distribution("holdem", "QQ+", ["*"], hands=200, deals=50, seed=2).wait()
    df = snap.to_pandas()
    assert dtypes(df) == {
        "kind": "str",
        "label": "str",
        "low": "float64",
        "high": "float64",
        "value": "float64",
        "stderr": "float64",
        "count": "float64",
        "trials": "int64",
        "exact": "bool",
        "status": "str",
    }
    tenths = df[df["kind"] == "share"]
    assert list(tenths["value"]) == snap.shares
    assert list(tenths["label"])[:2] == ["0-10%", "10-20%"]
    assert list(tenths["stderr"]) == [math.sqrt(p * (1 - p) / snap.hands) for p in snap.shares]
    assert df.iloc[-1]["kind"] == "mean"
    assert df.iloc[-1]["value"] == snap.mean
    assert set(df["trials"]) == {snap.hands}
    assert not df["exact"].any()

    (table,) = parsed(snap._repr_html_()).tables
    assert snap.mean is not None
    assert f"mean {100 * snap.mean:.1f}%" in table.caption
    top = max(range(10), key=lambda i: snap.shares[i])
    row = table.rows[1 + top]
    assert row[1].text == f"{100 * snap.shares[top]:.2f}% {margin(snap.stderr(snap.shares[top]) or 0)}"
    assert table.rows[1 + top][2].tag == "td"
    assert "width:100.0%" in snap._repr_html_()  # the longest bar is full


def test_a_live_distribution_snapshot_says_so() -> None:
    live = DistributionSnapshot([0.5, 0.5] + [0.0] * 8, 0.2, 10, False, False, 0.25)
    assert set(live.to_pandas()["status"]) == {"partial"}
    assert "partial, 25%" in parsed(live._repr_html_()).tables[0].caption


def test_a_breakdown_is_a_row_per_possible_hand() -> None:
    b = breakdown("holdem", "3h4cJh")
    df = b.to_pandas()
    possible = [f for f in b.hands if f is not None]
    assert len(df) == len(possible) == 1176
    assert dtypes(df) == dict.fromkeys(("hand", "hand_class", "hand_type", "flop_category", "draws"), "str")
    assert (df["hand_type"] == "pair").sum() == sum(f.hand_type == "pair" for f in possible)
    assert df["draws"].str.contains("flushdraw", na=False).sum() == sum(
        "flushdraw" in f.draws for f in possible
    )
    (table,) = parsed(b._repr_html_()).tables
    rows = {(r[0], r[1]): r for r in cells(table)[1:]}
    pairs = sum(f.hand_type == "pair" for f in possible)
    assert rows["hand type", "pair"][2:] == [str(pairs), f"{100 * pairs / 1176:.2f}%"]
    assert ("draw", "flushdraw") in rows


def test_a_range_is_a_row_per_hand() -> None:
    rg = pql.parse_range("QQ+@50, AKs")
    df = rg.to_pandas()
    assert dtypes(df) == {"hand": "str", "weight": "float64"}
    assert list(df["hand"]) == rg.combos
    assert list(df["weight"]) == rg.percents
    assert sorted(set(df["weight"])) == [50.0, 100.0]
    (table,) = parsed(rg._repr_html_()).tables
    assert "QQ+@50, AKs (holdem): 22 hands" in table.caption
    assert cells(table)[1] == ["AsAh", "50.00%"]
    assert cells(table)[1 + rg.combos.index("AsKs")] == ["AsKs", "100.00%"]
    assert len(table.rows) == 1 + 22
    everything = pql.parse_range("*")
    (table,) = parsed(everything._repr_html_()).tables
    assert len(table.rows) == 1 + 60 + 1  # the head, 60 hands, how many more
    assert table.rows[-1][0].text == "… and 1,266 more (to_pandas() has them all)"
