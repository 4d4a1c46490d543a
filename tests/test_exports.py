"""Exports a data person can use without cleaning (issue 39, part 2): the statement CSV, the sweep
and spreadsheet CSVs, JSON, ``to_pandas()`` and markdown carry the same facts (trials, exact,
status, seed, standard errors) under the same snake_case names (``pql_repl.api.tidy``), each read
back through pandas with the right dtypes and the values the run returned."""

from __future__ import annotations

import io
import json
import math
import re
import subprocess
import sys

import pytest

import pql_repl as pql
from pql_repl.api.output import CSV_HEADER, render
from pql_repl.api.results import Results, StatementResult
from pql_repl.api.tidy import RUN_COLUMNS, STATEMENT_COLUMNS, STATUSES

pandas = pytest.importorskip("pandas")

#: A sampled statement with every kind of selector, and an exact one (an enumeration).
TEXT = (
    "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins, "
    "histogram(handType(hero, river)) as made, max(riverEquity(hero)) as best "
    "from game='holdem', hero='AA', villain='KK';\n"
    "select avg(riverEquity(hero)) as eq from game='holdem', hero='AA', villain='KK', board='2c3d4h'"
)
SEED = 11


@pytest.fixture(scope="module")
def results() -> Results:
    return pql.run(TEXT, trials=3000, seed=SEED)


def expected_rows(results: list[StatementResult]) -> list[dict[str, object]]:
    """The tidy rows, as the run returned them (not as any writer wrote them)."""
    rows: list[dict[str, object]] = []
    for n, r in enumerate(results, start=1):
        run = {"trials": r.trials, "exact": r.exact, "status": "done", "seed": r.seed}
        for c in r.columns:
            if c.selector == "histogram":
                for b in c.buckets:
                    stderr = 0.0 if r.exact else math.sqrt(b.fraction * (1 - b.fraction) / r.accepted)
                    rows.append({"statement": n, "selector": c.name, "label": b.label, "value": b.fraction,
                                 "stderr": stderr, "count": b.count, **run})  # fmt: skip
                continue
            stderr = (0.0 if r.exact else c.stderr) if c.selector in ("avg", "count") else None
            rows.append({"statement": n, "selector": c.name, "label": None, "value": c.value,
                         "stderr": stderr, "count": c.count, **run})  # fmt: skip
    return rows


def assert_frame_holds(frame: object, results: list[StatementResult]) -> None:
    """``frame`` (from read_csv, to_pandas...) holds the run's facts, row by row, with NaN where
    a row has no standard error, no count or no seed."""
    assert list(frame.columns) == list(STATEMENT_COLUMNS)  # type: ignore[attr-defined]
    records = frame.to_dict("records")  # type: ignore[attr-defined]
    expected = expected_rows(results)
    assert len(records) == len(expected)
    for got, want in zip(records, expected, strict=True):
        for key, value in want.items():
            if value is None:
                assert pandas.isna(got[key]), (key, got)
            elif isinstance(value, float):
                assert got[key] == pytest.approx(value, rel=1e-12), (key, got)
            else:
                assert got[key] == value, (key, got)
        assert got["status"] in STATUSES


def assert_dtypes(frame: object) -> None:
    types = pandas.api.types
    for column in ("statement", "trials"):
        assert types.is_integer_dtype(frame[column]), column  # type: ignore[index]
    for column in ("value", "stderr", "count"):
        assert types.is_float_dtype(frame[column]), column  # type: ignore[index]
    assert types.is_bool_dtype(frame["exact"])  # type: ignore[index]
    assert types.is_string_dtype(frame["status"])  # type: ignore[index]


def test_the_statement_csv_reads_into_pandas_with_every_fact(results: Results) -> None:
    text = render(results, "csv")
    assert text.splitlines()[0] == ",".join(CSV_HEADER)
    assert CSV_HEADER[-4:] == RUN_COLUMNS == ("trials", "exact", "status", "seed")
    frame = pandas.read_csv(io.StringIO(text))
    assert_frame_holds(frame, results)
    assert_dtypes(frame)
    # The sampled statement's seed reproduces it; the exact one draws nothing and has none.
    assert list(frame["seed"].isna()) == [False] * (len(frame) - 1) + [True]
    (again,) = pql.run(TEXT.split(";", maxsplit=1)[0], trials=3000, seed=int(frame["seed"].iloc[0]))
    assert again.columns[0].value == results[0].columns[0].value


def test_a_seed_pql_chose_reads_back_exact_beside_an_exact_run() -> None:
    # The exact statement has no seed: pandas reads the column, gaps and all, as floats, which
    # hold the 53 bits of a seed pql chooses (a 64-bit one would come back rounded).
    unseeded = pql.run(TEXT, trials=200)
    frame = pandas.read_csv(io.StringIO(render(unseeded, "csv")))
    assert str(frame["seed"].dtype) == "float64"
    seed = unseeded[0].seed
    assert seed is not None
    assert seed < 2**53
    assert int(frame["seed"].iloc[0]) == seed
    assert json.loads(render(unseeded, "json"))["statements"][0]["seed"] == seed


def test_to_pandas_is_the_statement_csv_with_its_dtypes(results: Results) -> None:
    frame = results.to_pandas()
    assert_frame_holds(frame, results)
    assert_dtypes(frame)
    assert str(frame["seed"].dtype) == "UInt64"  # 64 bits: a float would round a seed
    assert frame["seed"].iloc[0] == SEED
    # The same table as the CSV, value for value.
    read = pandas.read_csv(io.StringIO(render(results, "csv")), dtype={"seed": "UInt64"})
    pandas.testing.assert_frame_equal(frame, read, check_dtype=False)
    # One result, and any list of them (pql_repl.to_pandas).
    single = results[1].to_pandas()
    assert list(single["statement"]) == [2]
    assert bool(single["exact"].iloc[0]) is True
    assert single["stderr"].iloc[0] == 0.0
    together = pql.to_pandas([results[0], results[1]])
    pandas.testing.assert_frame_equal(together, frame)
    # A results list is still a list.
    assert isinstance(results, list)
    assert results == list(results)


def test_json_carries_what_the_csv_carries(results: Results) -> None:
    doc = json.loads(render(results, "json"))
    statements = pandas.read_json(io.StringIO(json.dumps(doc["statements"])))
    assert list(statements["trials"]) == [r.trials for r in results]
    assert list(statements["exact"]) == [False, True]
    assert statements["seed"].iloc[0] == SEED
    buckets = pandas.json_normalize(doc["statements"][0]["columns"][2], record_path="buckets")
    csv_frame = pandas.read_csv(io.StringIO(render(results, "csv")))
    made = csv_frame[csv_frame["kind"] == "histogram"]
    # Every bucket's standard error, as the CSV has it (sqrt(p(1-p)/n) for a sample).
    assert list(buckets["label"]) == list(made["label"])
    assert list(buckets["stderr"]) == pytest.approx(list(made["stderr"]), rel=1e-12)
    assert list(buckets["fraction"]) == pytest.approx(list(made["value"]), rel=1e-12)


SWEEP = (
    "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins from game='holdem', "
    "hero=$h, villain='KK' sweep $h over ('AA', 'QQ', 'KhKd')"
)


def test_the_sweep_csv_and_to_pandas_have_the_same_names_and_facts() -> None:
    result = pql.sweep(SWEEP, trials=2000, seed=SEED)
    frame = pandas.read_csv(io.StringIO(result.to_csv()))
    assert list(frame.columns) == ["h", "weight", "eq", "eq_stderr", "wins", "wins_stderr", *RUN_COLUMNS]
    assert list(frame["h"]) == ["AA", "QQ", "KhKd", "all"]
    for (_, got), row in zip(frame.iterrows(), result.rows, strict=False):
        assert row.result is not None
        assert got["eq"] == row.result.columns[0].value
        assert got["eq_stderr"] == (row.result.columns[0].stderr or 0.0)
        assert got["trials"] == row.result.trials
        assert got["exact"] == row.result.exact
        assert got["status"] == "done"
    # KhKd against KK is enumerated: exact, no seed; the sampled rows keep theirs.
    assert list(frame["exact"]) == [False, False, True, False]
    assert list(frame["seed"].fillna(-1)) == [SEED, SEED, -1, SEED]
    assert pandas.api.types.is_bool_dtype(frame["exact"])
    assert pandas.api.types.is_integer_dtype(frame["trials"])
    mine = result.to_pandas()
    assert list(mine.columns) == list(frame.columns)
    assert str(mine["seed"].dtype) == "UInt64"
    pandas.testing.assert_frame_equal(mine, frame, check_dtype=False)
    # The JSON's rows carry the same facts.
    rows = result.to_json()["rows"]
    assert [(r["trials"], r["exact"], r["status"], r["seed"]) for r in rows] == [
        (row.result.trials, row.result.exact, "done", row.result.seed) for row in result.rows if row.result
    ]


def test_a_sweep_row_without_a_legal_deal_says_so_in_its_status() -> None:
    result = pql.sweep(
        "select avg(riverEquity(hero)) as eq from game='holdem', hero='AhAd', villain='KK', board=$f "
        "sweep $f over ('2c3d4h', 'Ah2c3d')",
        trials=500,
        seed=1,
    )
    frame = result.to_pandas()
    assert list(frame["status"]) == ["done", "no legal deal", "done"]
    assert set(frame["status"]) <= set(STATUSES)
    assert pandas.isna(frame["eq"].iloc[1])


def test_the_spreadsheet_csv_and_to_pandas_have_the_same_names_and_facts() -> None:
    template = "select avg(riverEquity(p1)) as eq, max(riverEquity(p1)) as best from p1='#HAND#', p2='KK'"
    sheet = pql.spreadsheet(template, "HAND\nAA\nQQ\n", trials=2000, seed=SEED)
    frame = pandas.read_csv(io.StringIO(sheet.to_csv()))
    assert list(frame.columns) == ["HAND", "eq", "eq_stderr", "best", "best_stderr", *RUN_COLUMNS]
    for (_, got), (result,) in zip(frame.iterrows(), sheet.results, strict=True):
        assert got["eq"] == result.columns[0].value
        assert got["eq_stderr"] == result.columns[0].stderr
        assert pandas.isna(got["best_stderr"])  # a max has no standard error
        assert (got["trials"], got["exact"], got["status"], got["seed"]) == (2000, False, "done", SEED)
    mine = sheet.to_pandas()
    assert str(mine["seed"].dtype) == "UInt64"
    pandas.testing.assert_frame_equal(mine, frame, check_dtype=False)


def test_a_template_of_two_statements_names_each_statements_run_columns() -> None:
    template = (
        "select avg(riverEquity(p1)) as eq from p1='#HAND#', p2='KK';\n"
        "select avg(riverEquity(p1)) as eq from p1='#HAND#', p2='QQ'"
    )
    sheet = pql.spreadsheet(template, "HAND\nAA\n", trials=500, seed=2)
    assert sheet.header == [
        *("HAND", "eq_1", "eq_1_stderr", "eq_2", "eq_2_stderr"),
        *("trials_1", "exact_1", "status_1", "seed_1", "trials_2", "exact_2", "status_2", "seed_2"),
    ]
    frame = sheet.to_pandas()
    assert pandas.api.types.is_integer_dtype(frame["trials_2"])
    assert pandas.api.types.is_bool_dtype(frame["exact_1"])


def test_pandas_stays_optional() -> None:
    # Importing and running loads no pandas; asking for a frame without it says what to install.
    code = (
        "import sys, pql_repl as pql\n"
        "r = pql.run(\"select avg(riverEquity(h)) from h='AA', v='KK'\", trials=100, seed=1)\n"
        "assert 'pandas' not in sys.modules, 'pandas loaded'\n"
        "sys.modules['pandas'] = None  # as if not installed\n"
        "try:\n"
        "    r.to_pandas()\n"
        "except pql.PqlMissingDependency as e:\n"
        "    assert isinstance(e, (pql.PqlError, ImportError))\n"
        "    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert "pip install 'pql-repl[pandas]'" in out.stdout


# ---------------------------------------------------------------------------------------------
# Markdown


PIPE_ROW = re.compile(r"^\|(?: (?:[^|\\]|\\.)* \|)+$")
DELIMITER_ROW = re.compile(r"^\|(?: :?-{3,}:? \|)+$")


def pipe_tables(text: str) -> list[list[list[str]]]:
    """The pipe tables of ``text`` (GitHub's rules: a header row, a delimiter row of as many
    cells, body rows), each as its rows of cells; fails on a line that starts a row but is not
    one, or on a row with another number of cells."""
    lines = text.splitlines()
    tables: list[list[list[str]]] = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("|"):
            assert PIPE_ROW.match(lines[i]), lines[i]
            assert DELIMITER_ROW.match(lines[i + 1]), lines[i + 1]
            width = len(split_row(lines[i]))
            assert len(split_row(lines[i + 1])) == width
            table = [split_row(lines[i])]
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                assert PIPE_ROW.match(lines[i]), lines[i]
                assert len(split_row(lines[i])) == width, lines[i]
                table.append(split_row(lines[i]))
                i += 1
            tables.append(table)
        i += 1
    return tables


def split_row(line: str) -> list[str]:
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]


def test_markdown_is_plain_pipe_tables(results: Results) -> None:
    text = render(results, "markdown")
    assert "&nbsp;" not in text
    assert "<" not in text
    tables = pipe_tables(text)
    assert len(tables) == 2
    header, *rows = tables[0]
    assert header == ["selector", "label", "value", "± 95%", "count"]
    made = [row for row in rows if row[0] == "made"]
    assert [row[1] for row in made] == [b.label for b in results[0].columns[2].buckets]
    # A pipe in a name or a label stays inside its cell.
    odd = StatementResult.from_dict(
        {**results[0].to_dict(), "columns": [{"name": "a|b", "selector": "max", "value": "x|y"}]}
    )
    (table,) = pipe_tables(render([odd], "markdown"))
    assert table[1][:3] == ["a|b", "", "x|y"]
    sweep = pql.sweep(SWEEP, trials=500, seed=SEED)
    (table,) = pipe_tables(sweep.to_markdown())
    assert table[0][:4] == ["h", "weight", "eq", "eq_stderr"]
    assert [row[0] for row in table[1:]] == ["AA", "QQ", "KhKd", "all"]
