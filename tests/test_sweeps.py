"""Sweeps (issue 17): one statement run once per value of its placeholders, the lists it runs
over (canonical flops with their weights, turns, rivers, classes, ranks, explicit lists), the
weighted aggregate, the command's table/CSV/JSON, and positioned errors."""

from __future__ import annotations

import csv
import io
import json
import math
import subprocess
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

import pql_repl as pql
from pql_repl.api.sweep_values import DECK, SweepValue
from pql_repl.base.errors import PqlError

RUN = {"trials": 4000, "seed": 3, "threads": 1}


def suit_patterns(flop: tuple[str, ...]) -> int:
    """How many flops are ``flop`` with its suits renamed: counted here by building every
    renaming's image, not by the module's canonical keys."""
    from itertools import permutations  # noqa: PLC0415

    images = set()
    for p in permutations("shdc"):
        rename = dict(zip("shdc", p, strict=True))
        images.add(frozenset(c[0] + rename[c[1]] for c in flop))
    return len(images)


def test_canonical_flops_stand_for_every_flop_once() -> None:
    canonical = pql.flops("canonical")
    assert len(canonical) == 1755
    assert sum(v.weight for v in canonical) == len(list(combinations(DECK, 3))) == 22100
    # Each weighs the flops its suits can be renamed into; no two are renamings of each other.
    seen: set[frozenset[str]] = set()
    for v in canonical:
        cards = tuple(v.text[i : i + 2] for i in range(0, 6, 2))
        assert v.weight == suit_patterns(cards)
        assert frozenset(cards) not in seen
        seen.add(frozenset(cards))
    weights = {v.text: v.weight for v in canonical}
    assert weights["AsAhAd"] == 4  # trips: four ways
    assert weights["AsKsQs"] == 4  # monotone
    assert len(pql.flops("all")) == 22100


def test_turns_rivers_classes_ranks() -> None:
    turns = pql.turns("Kh9h7d")
    assert len(turns) == 49
    assert all(t.text.startswith("Kh") or "Kh" in t.text for t in turns)
    assert "Kh9h7d" not in {t.text for t in turns}
    assert len(pql.rivers("Kh9h7d2c")) == 48
    classes = pql.classes("holdem")
    assert len(classes) == 169
    assert sum(c.weight for c in classes) == 1326
    assert {c.weight for c in classes} == {4.0, 6.0, 12.0}
    assert len(pql.classes("shortdeck")) == 81
    assert [r.text for r in pql.ranks()] == list("AKQJT98765432")
    with pytest.raises(ValueError, match="needs a board of 3 cards"):
        pql.turns("AsKs")


def test_each_row_is_its_own_statement_and_the_aggregate_weighs_them() -> None:
    text = (
        "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins "
        "from game='holdem', hero='QQ+, AK', villain='22+, A2s+', board=$flop"
    )
    flops = [SweepValue("Kh9h7d", 12.0), SweepValue("AsKd2c", 24.0), SweepValue("2c2d2h", 4.0)]
    result = pql.sweep(text, flop=flops, exact=False, **RUN)  # sampled rows: errors to combine
    assert result.done
    assert [r.values for r in result.rows] == [["Kh9h7d"], ["AsKd2c"], ["2c2d2h"]]
    for row, value in zip(result.rows, flops, strict=True):
        (alone,) = pql.run(text.replace("$flop", f"'{value.text}'"), exact=False, **RUN)
        assert [c.value for c in row.result.columns] == [c.value for c in alone.columns]
        assert row.weight == value.weight
    # The aggregate: the weighted mean of the rows, its error from theirs.
    for i, (value, stderr) in enumerate(result.aggregate()):
        cols = [r.result.columns[i] for r in result.rows]
        total = sum(v.weight for v in flops)
        assert value == pytest.approx(
            sum(v.weight * c.value for v, c in zip(flops, cols, strict=True)) / total
        )
        expected = math.sqrt(
            sum((v.weight * (c.stderr or 0.0)) ** 2 for v, c in zip(flops, cols, strict=True))
        )
        assert stderr == pytest.approx(expected / total)
    # CSV: a row per value, then the aggregate (first cell `all`).
    rows = list(csv.reader(io.StringIO(result.to_csv())))
    assert rows[0] == [
        "flop",
        "weight",
        "eq",
        "eq_stderr",
        "wins",
        "wins_stderr",
        "trials",
        "exact",
        "status",
        "seed",
    ]
    assert [r[0] for r in rows[1:]] == ["Kh9h7d", "AsKd2c", "2c2d2h", "all"]
    assert float(rows[-1][1]) == 40.0


def test_placeholders_inside_strings_are_named_ranges_and_two_sweeps_combine() -> None:
    text = (
        "select avg(riverEquity(hero)) as eq from game='omahahi', syntax='generic', "
        "hero=$hand, villain='KK**$ds', board=$flop "
        "sweep $hand over ('AA**', 'QQ**'), $flop over ('Kh9h7d', '2c3d4h')"
    )
    result = pql.sweep(text, **RUN)
    # Every combination, the first list varying slowest; `$ds` in the string is left alone.
    assert [r.values for r in result.rows] == [
        ["AA**", "Kh9h7d"],
        ["AA**", "2c3d4h"],
        ["QQ**", "Kh9h7d"],
        ["QQ**", "2c3d4h"],
    ]
    assert result.rows[0].result.query.count("$ds") == 1


def test_exact_rows_have_an_exact_aggregate() -> None:
    text = (
        "select avg(riverEquity(hero)) as eq from hero='AsAh', villain='KsKd', board=$b "
        "sweep $b over turns('2c7d9h')"
    )
    result = pql.sweep(text)
    # The four turns that are a hole card leave no legal deal: said in the row, left out of the
    # aggregate; the other 45 are exact.
    missing = [r for r in result.rows if r.result is None]
    assert sorted(r.values[0] for r in missing) == sorted(
        pql.turns("2c7d9h")[i].text
        for i in range(49)
        if any(c in pql.turns("2c7d9h")[i].text for c in ("As", "Ah", "Ks", "Kd"))
    )
    assert {r.error for r in missing} == {"no legal deal"}
    answered = [result for _, result in result.answered]
    assert len(answered) == 45
    assert all(r.exact for r in answered)
    ((value, stderr),) = result.aggregate()
    assert stderr is None
    # Every turn weighs the same: the aggregate is the flop's equity, which averages its turns.
    (flop,) = pql.run("select avg(riverEquity(hero)) from hero='AsAh', villain='KsKd', board='2c7d9h'")
    assert value == pytest.approx(float(flop.columns[0].value))
    assert "no legal deal" in result.to_table()
    assert result.to_csv().count("\n") == 1 + 49 + 1


HEAD = "select avg(riverEquity(hero)) from hero=$h, villain="


@pytest.mark.parametrize(
    ("tail", "message", "at"),
    [
        ("'QQ' sweep $h over flop()", "unknown list 'flop'", "flop()"),
        ("'QQ' sweep $h over (AK)", "a list of quoted values", "AK)"),
        ("'QQ' sweep $h", "expected '$name over LIST'", "$h"),
        ("$v sweep $h over ('AK')", "$v is not swept", "$v"),
        ("'QQ' sweep $h over turns('AsKs')", "needs a board of 3", "turns"),
    ],
)
def test_problems_are_named_where_they_are(tail: str, message: str, at: str) -> None:
    text = HEAD + tail
    with pytest.raises(PqlError) as e:
        pql.sweep(text, trials=100)
    assert message in e.value.message
    assert (e.value.line, e.value.col) == (1, text.rindex(at) + 1)


def test_a_bad_row_says_which_values_made_it() -> None:
    with pytest.raises(PqlError, match=r"with \$h='AKX'"):
        pql.sweep("select avg(riverEquity(hero)) from hero=$h, villain='QQ' sweep $h over ('AK', 'AKX')")


def pql_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pql_repl.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        check=False,
    )


SWEEP = "select avg(riverEquity(hero)) as eq from hero=$h, villain='QQ+' sweep $h over ('AKs', 'JJ')"


def test_the_command_writes_a_sweep_as_table_csv_and_json(tmp_path: Path) -> None:
    expected = pql.sweep(SWEEP, trials=4000, seed=3)
    options = ["--trials", "4000", "--seed", "3"]
    r = pql_cli("-c", SWEEP, *options, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == expected.to_table()
    r = pql_cli("-c", SWEEP, *options, "--format", "csv", cwd=tmp_path)
    assert r.stdout == expected.to_csv()
    r = pql_cli("-c", SWEEP, *options, "--format", "json", cwd=tmp_path)
    (doc,) = json.loads(r.stdout)["sweeps"]
    assert [row["values"]["h"] for row in doc["rows"]] == ["AKs", "JJ"]
    assert doc["aggregate"]["eq"]["value"] == pytest.approx(expected.aggregate()[0][0])
    # A script mixing statements and sweeps: each in turn, errors positioned in the script.
    (tmp_path / "s.pql").write_text(
        "select avg(riverEquity(hero)) from hero='AA', villain='KK';\n"
        + SWEEP.replace("flops", "flop")
        + " sweep\n"
    )
    r = pql_cli("s.pql", cwd=tmp_path)
    assert r.returncode == 1
    assert "line 2, col" in r.stderr
    assert "Traceback" not in r.stderr


def test_to_pandas_needs_pandas_and_says_so() -> None:
    result = pql.sweep(SWEEP, trials=200, seed=1)
    records = result.to_records()
    # The CSV's rows, the aggregate last.
    assert [r["h"] for r in records] == ["AKs", "JJ", "all"]
    try:
        import pandas  # noqa: F401, PLC0415
    except ImportError:
        with pytest.raises(pql.PqlMissingDependency, match="pip install pandas"):
            result.to_pandas()
    else:
        frame = result.to_pandas()
        assert list(frame["h"]) == ["AKs", "JJ", "all"]


def test_the_cluster_setting() -> None:
    from pql_repl.session.session import Session  # noqa: PLC0415
    from pql_repl.session.settings import SessionError  # noqa: PLC0415

    session = Session()
    session.handle(".cluster scheduler:8786")
    assert session.settings.cluster == "tcp://scheduler:8786"
    assert "tcp://scheduler:8786" in session.settings.describe()
    session.handle(".cluster off")
    assert session.settings.cluster is None
    with pytest.raises(SessionError, match="not a scheduler address"):
        session.handle(".cluster two words")


#: A sweep with a count, a histogram (no mean) and a row that leaves no legal deal.
MIXED_SWEEP = (
    "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins, histogram(handType(hero, river)) "
    "as hands from hero=$h, villain='QQ+', board='As7d2c' sweep $h over ('AKs', 'JJ', 'AsKd')"
)


def test_a_results_history_with_a_sweep_is_one_csv_and_one_json_document() -> None:
    """The app's export (issue 37): statements' results and a sweep's, in their order, as one
    tidy CSV that pandas reads and one JSON document; without a sweep, what ``render`` wrote."""
    pandas = pytest.importorskip("pandas")
    from pql_repl.api.output import CSV_HEADER, SWEEP_CSV_COLUMNS, render, render_history  # noqa: PLC0415
    from pql_repl.api.results import StatementResult  # noqa: PLC0415
    from pql_repl.api.sweeps import SweepResult  # noqa: PLC0415

    (first,) = pql.run("select avg(riverEquity(hero)) as eq from hero='AA', villain='KK'", **RUN)
    (last,) = pql.run("select count(winsHi(hero)) as wins from hero='QQ', villain='AKs'", **RUN)
    swept = pql.sweep(MIXED_SWEEP, trials=1000, seed=3)
    history: list[StatementResult | SweepResult] = [first, swept, last]
    for fmt in ("csv", "json", "markdown", "table"):
        assert render_history([first, last], fmt) == render([first, last], fmt)

    text = render_history(history, "csv")
    header = next(csv.reader(io.StringIO(text)))
    assert header == [*CSV_HEADER, *SWEEP_CSV_COLUMNS, "$h"]
    frame = pandas.read_csv(io.StringIO(text), keep_default_na=False)
    assert sorted(set(frame["statement"])) == [1, 2, 3]
    assert list(frame[frame["statement"] == 1]["selector"]) == ["eq"]
    assert list(frame[frame["statement"] == 3]["selector"]) == ["wins"]
    assert set(frame[frame["statement"] != 2]["sweep_row"]) == {""}
    rows = frame[frame["statement"] == 2]
    # Each row's statement as its own rows: the filled query, the row's number, weight, value.
    for number, row in enumerate(swept.rows, start=1):
        mine = rows[rows["sweep_row"] == str(number)]
        assert set(mine["$h"]) == {row.values[0]}
        assert set(mine["weight"]) == {"1.0"}
        if row.result is None:
            assert list(mine["selector"]) == ["eq", "wins", "hands"]
            assert set(mine["status"]) == {"no legal deal"}
            assert set(mine["value"]) == {""}
            continue
        assert set(mine["query"]) == {row.result.query}
        eq = mine[mine["selector"] == "eq"]
        assert float(eq["value"].iloc[0]) == pytest.approx(float(row.result.columns[0].value or 0))
        assert list(mine[mine["selector"] == "hands"]["label"]) == [
            b.label for b in row.result.columns[2].buckets
        ]
    # The aggregate: `all`, every selector with a mean (the histogram has none), its weight.
    total = rows[rows["sweep_row"] == "all"]
    assert list(total["selector"]) == ["eq", "wins"]
    assert list(total["kind"]) == ["avg", "count"]
    assert set(total["weight"]) == {"2.0"}
    for (value, _), shown in zip(swept.aggregate()[:2], total["value"], strict=True):
        assert float(shown) == pytest.approx(value)

    document = json.loads(render_history(history, "json"))
    assert [s["query"] for s in document["statements"]] == [first.query, last.query]
    (sweep_doc,) = document["sweeps"]
    assert sweep_doc["statement"] == 2
    assert [r["values"]["h"] for r in sweep_doc["rows"]] == ["AKs", "JJ", "AsKd"]
    markdown = render_history(history, "markdown")
    assert markdown.index("as eq from hero='AA'") < markdown.index("| h | weight |")
    assert markdown.index("| h | weight |") < markdown.index("as wins from hero='QQ'")


# ---------------------------------------------------------------------------------------------
# Issue 41: a sweep's size is bounded, Ctrl-C stops it keeping the rows done, values are range
# texts, errors in the clause are cut around the error.

#: 22,100 flops x 169 classes x 169 classes: 631,198,100 rows.
HUGE_SWEEP = (
    "select avg(riverEquity(hero)) from hero=$h, villain=$v, board=$flop "
    "sweep $flop over flops('all'), $h over classes('holdem'), $v over classes('holdem')"
)


def test_a_sweep_past_the_bound_is_refused_before_any_row_is_built() -> None:
    from pql_repl.api import sweeps  # noqa: PLC0415
    from pql_repl.base.limits import SWEEP_MAX_ROWS  # noqa: PLC0415

    assert SWEEP_MAX_ROWS == 100_000
    with pytest.raises(PqlError) as e:
        sweeps.parse(HUGE_SWEEP)
    assert "631,198,100 rows" in e.value.message
    assert "100,000" in e.value.message
    # Pointed at the clause, in the script's lines and columns.
    assert (e.value.line, e.value.col) == (1, HUGE_SWEEP.index("sweep") + 1)
    # From Python, values given as keyword arguments count the same: 22,100 x 169 rows.
    text = "select avg(riverEquity(hero)) from hero=$h, villain='QQ', board=$flop"
    with pytest.raises(PqlError, match=r"3,734,900 rows; a sweep runs at most 100,000"):
        sweeps.parse(text, {"flop": pql.flops("all"), "h": pql.classes("holdem")})
    with pytest.raises(PqlError, match=r"3,734,900 rows"):
        pql.sweep(text, flop=pql.flops("all"), h=pql.classes("holdem"))
    # Under the bound it is a sweep: 1,755 canonical flops x 56 values.
    few = "select avg(riverEquity(hero)) from hero=$h, villain='QQ', board=$flop"
    assert len(sweeps.parse(few, {"flop": pql.flops(), "h": [f"h{i}" for i in range(56)]})) == 98_280


def test_the_command_refuses_a_huge_sweep_at_once(tmp_path: Path) -> None:
    # (Today's checking takes about a second for 22,100 rows: a refusal is far quicker.)
    r = subprocess.run(
        [sys.executable, "-m", "pql_repl.cli", "-c", HUGE_SWEEP],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert r.returncode == 1, r.stderr
    assert "631,198,100 rows" in r.stderr
    assert "Traceback" not in r.stderr
    assert r.stdout == ""


def spawn(*args: str) -> Any:
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(
        sys.executable, ["-m", "pql_repl.cli", *args], encoding="utf-8", timeout=60, dimensions=(24, 200)
    )


#: Range against range on every flop: each row an exact enumeration of a few dozen milliseconds
#: (the engine finishes such a row even when cancelled), 22,100 rows: minutes in all.
LONG_SWEEP = (
    "select avg(riverEquity(hero)) as eq from game='holdem', hero='QQ+, AK, AQs', "
    "villain='22+, A2s+, KTs+, QJs', board=$flop sweep $flop over flops('all')"
)


@pytest.mark.parametrize("how", [["--exact"], ["--no-exact", "--trials", "20000"]])
def test_the_first_ctrl_c_stops_a_sweep_and_writes_the_rows_done(how: list[str]) -> None:
    pexpect = pytest.importorskip("pexpect")
    child = spawn("-c", LONG_SWEEP, "--threads", "1", "--seed", "1", *how)
    # The progress line counts rows: some are done.
    child.expect(r"row (\d+) of 22100", timeout=120)
    child.sendintr()  # once
    # The table of the rows done, its aggregate, how many of all; then the script stops.
    child.expect(r"flop +weight +eq", timeout=10)
    child.expect(r"all +(\d+) +0\.\d+", timeout=10)
    done = int(child.match.group(1))
    child.expect(rf"\({done} of 22100 rows\)", timeout=10)
    child.expect(rf"pql: interrupted after {done} of 22100 rows", timeout=10)
    child.expect(pexpect.EOF, timeout=10)
    child.close()
    assert child.exitstatus == 130
    assert 0 < done < 22100
    assert "Traceback" not in (child.before or "")


def test_ctrl_c_in_a_sweep_writes_its_rows_in_csv_and_json(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    out = tmp_path / "out.json"
    child = spawn(
        "-c", LONG_SWEEP, "--threads", "1", "--no-exact", "--trials", "20000",
        "--format", "json", "--output", str(out),
    )  # fmt: skip
    child.expect(r"row (\d+) of 22100", timeout=120)
    child.sendintr()
    child.expect(pexpect.EOF, timeout=10)
    child.close()
    assert child.exitstatus == 130
    (doc,) = json.loads(out.read_text())["sweeps"]
    assert doc["done"] is False
    assert 0 < doc["rows_done"] == len(doc["rows"]) < 22100
    assert all(row["columns"]["eq"]["value"] is not None for row in doc["rows"])


@pytest.mark.parametrize(
    "values",
    [
        ["TT', p3='QQ"],
        ['TT", p3="QQ'],
        ["AK", "QQ' , villain2='22"],
    ],
)
def test_a_value_holding_a_quote_is_refused(values: list[str]) -> None:
    text = "select avg(riverEquity(hero)) as eq from hero=$h, villain='KK'"
    with pytest.raises(PqlError, match=r"\$h: a value may not hold a quote"):
        pql.sweep(text, h=values, trials=100)
    # In the clause: a value in double quotes may hold a single one, and would end the string.
    clause = text + """ sweep $h over ("TT', p3='QQ")"""
    with pytest.raises(PqlError, match=r"a value may not hold a quote") as e:
        pql.sweep(clause, trials=100)
    assert e.value.col == clause.index('("') + 2


def test_a_listed_value_may_hold_commas() -> None:
    from pql_repl.api import sweeps  # noqa: PLC0415

    swept = sweeps.parse(
        "select avg(riverEquity(hero)) from hero=$h, villain='KK' sweep $h over ('QQ+, AK', \"JJ-99\")"
    )
    assert [v.text for v in swept.axes[0][1]] == ["QQ+, AK", "JJ-99"]


@pytest.mark.parametrize(
    ("clause", "message"),
    [
        (" sweep $h over (" + "'AK', " * 120_000 + "AK)", "a list of quoted values"),
        (" sweep $h over ('AK') " + "x" * 800_000, "unexpected text after the sweep"),
        (" sweep $h over " + "f" * 800_000 + "()", "unknown list"),
        (" sweep $h over turns('" + "Kh" * 400_000 + "')", "a card twice"),
        (" sweep " + "$" * 800_000, "expected '$name over LIST'"),
    ],
    ids=["list", "after", "source", "board", "clause"],
)
def test_an_error_in_a_long_sweep_clause_is_shown_around_the_error(clause: str, message: str) -> None:
    text = "select avg(riverEquity(hero)) from hero=$h, villain='KK'" + clause
    with pytest.raises(PqlError) as e:
        pql.sweep(text, trials=100)
    assert message in e.value.message
    assert len(e.value.message) < 300
    assert len(e.value.rendered) < 600, e.value.rendered[:600]
    # The caret is under the error in the window shown.
    _, shown, caret = e.value.rendered.splitlines()[:3]
    assert "^" in caret
    assert len(caret) <= len(shown) + 2


@pytest.mark.parametrize(
    "tail",
    [
        "hero=$NAME, villain='KK'",
        "hero='AA', villain='KK' sweep $NAME over ('AK')",
        "hero=$NAME, villain='KK' sweep $NAME over ()",
        "hero=$NAME, villain='KK' sweep $NAME over ('AK'), $NAME over ('QQ')",
    ],
    ids=["not-swept", "not-used", "empty", "twice"],
)
def test_a_long_placeholder_name_is_cut_in_messages(tail: str) -> None:
    """Found by the fuzz campaign of issue 41: a 100,000-letter $name came back whole."""
    text = "select avg(riverEquity(hero)) from " + tail.replace("NAME", "h" * 100_000)
    with pytest.raises(PqlError) as e:
        pql.sweep(text, trials=10)
    assert len(e.value.message) < 200
    assert len(e.value.rendered) < 600
    assert len(e.value.hint or "") < 200


def test_the_api_refuses_a_text_or_values_of_another_type() -> None:
    """Found by the API campaign of issue 41: a text that is not a str, or a placeholder's
    values that are not a list, were a TypeError or an AttributeError (or, for a str, swept
    letter by letter)."""
    text = "select avg(riverEquity(hero)) from hero=$h, villain='KK'"
    for call, needle in [
        (lambda: pql.sweep(5), "text must be a str, not int"),
        (lambda: pql.sweep(None), "text must be a str, not NoneType"),
        (lambda: pql.sweep(text, h="AK"), "h must be a list of values"),
        (lambda: pql.sweep(text, h=[1, 2]), "h must be a list of values"),
        (lambda: pql.sweep(text, h=5), "h must be a list of values"),
    ]:
        with pytest.raises(pql.PqlArgumentTypeError, match=needle):
            call()
    # A tuple of values, or SweepValues, are values.
    assert [r.values for r in pql.sweep(text, h=("AK", SweepValue("QQ", 2.0)), trials=100).rows] == [
        ["AK"],
        ["QQ"],
    ]
