"""The HTML of results (issue 40, items 2 and 3): ``_repr_html_`` on every result, and the ``html``
format (``pql --format html``, ``.format html``): one self-contained page with a table per
statement and per sweep, read back here with ``html.parser`` (tests/html_tables.py): the values
and margins the CSV has, histogram bars as inline CSS widths, everything escaped, no script and
nothing fetched."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from html_tables import Page, Table, style_blocks
from terminal import Terminal, all_of

import pql_repl as pql
from pql_repl.api.numbers import Z95, estimate_parts
from pql_repl.api.output import render, render_history, summary_line
from pql_repl.api.results import Bucket, Column, StatementResult

TEXT = (
    "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins, "
    "histogram(handType(hero, river)) as made, max(riverEquity(hero)) as best "
    "/* <script>alert('x')</script> */ from game='holdem', hero='AA', villain='KK';\n"
    "select avg(riverEquity(hero)) as eq, histogram(handType(hero, river)) as made "
    "from game='holdem', hero='AA', villain='KK', board='2c3d4h'"
)
SWEEP = (
    "select avg(riverEquity(hero)) as eq from game='holdem', hero=$h, villain='KK' "
    "sweep $h over ('AA', 'QQ', 'KhKd')"
)


@pytest.fixture(scope="module")
def results() -> pql.Results:
    return pql.run(TEXT, trials=3000, seed=5)


def csv_facts(results: list[StatementResult]) -> dict[tuple[int, str, str], dict[str, str]]:
    """The CSV's rows by (statement, selector, label)."""
    rows = csv.DictReader(io.StringIO(render(results, "csv"), newline=""))
    return {(int(r["statement"]), r["selector"], r["label"]): r for r in rows}


def table_facts(table: Table) -> dict[tuple[str, str], tuple[str, str, str, str]]:
    """A table's value rows by (selector, bucket label): (shown value, data-value, data-stderr,
    margin text); a bucket's selector is the histogram row's above it."""
    facts = {}
    histogram = ""
    for cells, kind in zip(table.rows, table.row_classes, strict=True):
        if kind == "histogram":
            histogram = cells[0].text
        elif kind == "bucket":
            value = cells[1]
            facts[histogram, cells[0].text] = (
                value.text,
                value.data("value"),
                value.data("stderr"),
                cells[2].text,
            )
        elif kind in ("avg", "count", "max", "min"):
            value = cells[1]
            facts[cells[0].text, ""] = (value.text, value.data("value"), value.data("stderr"), cells[2].text)
    return facts


def assert_tables_hold_the_csv(page: Page, results: list[StatementResult]) -> None:
    facts = csv_facts(results)
    assert len(page.tables) == len(results)
    for n, (table, result) in enumerate(zip(page.tables, results, strict=True), start=1):
        assert result.query in table.caption  # the query, unescaped by the parser: it was text
        assert ("exact" if result.exact else "sampled") in table.caption
        assert table.rows[-1][0].text == summary_line(result)
        shown = table_facts(table)
        expected = {(s, label) for (st, s, label) in facts if st == n}
        assert set(shown) == expected
        for (selector, label), (text, value, stderr, margin) in shown.items():
            row = facts[n, selector, label]
            assert (value or "") == row["value"], (selector, label)
            if result.exact:
                assert stderr in (None, "")
                assert margin == ("exact" if row["kind"] in ("avg", "count", "histogram") else "")
                continue
            assert (stderr or "") == row["stderr"], (selector, label)
            if row["kind"] == "avg":
                parts = estimate_parts(float(row["value"]), float(row["stderr"]))
                assert parts is not None
                assert (text, margin) == (parts[0], f"± {parts[1]}")
            elif row["kind"] in ("count", "histogram"):
                assert text == f"{100 * float(row['value']):.2f}%"
                assert margin == f"± {100 * Z95 * float(row['stderr']):.2f}%"
            else:
                assert margin == ""


def test_a_page_has_a_table_per_statement_with_the_csvs_values_and_margins(results: pql.Results) -> None:
    text = render(results, "html")
    assert text.startswith("<!DOCTYPE html>")
    assert text.rstrip().endswith("</html>")
    page = Page(text)
    assert_tables_hold_the_csv(page, results)
    assert page.active == []


def test_histogram_bars_are_inline_css_widths(results: pql.Results) -> None:
    page = Page(results[0]._repr_html_())
    made = results[0].column("made").buckets
    buckets = [
        row
        for row, kind in zip(page.tables[0].rows, page.tables[0].row_classes, strict=True)
        if kind == "bucket"
    ]
    assert [row[0].text for row in buckets] == [b.label for b in made]
    raw = results[0]._repr_html_()
    shares = [float(w.split("width:")[1].split("%")[0]) for w in raw.split('class="bar"')[1:]]
    top = max(b.fraction for b in made)
    assert shares == pytest.approx([100 * b.fraction / top for b in made], abs=0.06)
    assert max(shares) == 100.0


def test_repr_html_on_every_result_and_list_and_sweep(results: pql.Results) -> None:
    for result in results:
        page = Page(result._repr_html_())
        assert_tables_hold_the_csv(page, [result])
        assert page.active == []
    assert len(Page(results._repr_html_()).tables) == 2
    sweep = pql.sweep(SWEEP, trials=1000, seed=5)
    (table,) = Page(sweep._repr_html_()).tables
    assert [row[0].text for row in table.rows] == ["h", "AA", "QQ", "KhKd", "all"]
    eq = [row[2] for row in table.rows[1:-1]]
    for cell, row in zip(eq, sweep.rows, strict=True):
        assert row.result is not None
        assert cell.data("value") == repr(row.result.columns[0].value)
        parts = estimate_parts(row.result.columns[0].value, row.result.columns[0].stderr)
        assert cell.text == (f"{parts[0]} ± {parts[1]}" if parts else "0.5")


HOSTILE = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>&amp;"


def test_everything_is_escaped_and_the_page_runs_and_fetches_nothing() -> None:
    hostile = StatementResult(
        query=f"select ... from hero='{HOSTILE}'",
        game="holdem",
        trials=10,
        accepted=10,
        attempted=10,
        exact=False,
        seed=1,
        elapsed=0.1,
        columns=[
            Column(HOSTILE, "avg", 0.5, stderr=0.01),
            Column("max " + HOSTILE, "max", HOSTILE),
            Column("h" + HOSTILE, "histogram", None, buckets=[Bucket(HOSTILE, 10.0, 1.0)]),
        ],
    )
    text = render_history([hostile, pql.sweep(SWEEP, trials=500, seed=1)], "html")
    page = Page(text)
    # Nothing that would run or fetch: no script, handler, external href/src, url() in a style.
    assert page.active == []
    assert "script" not in page.tags
    assert "<script" not in text.lower()
    for block in style_blocks(text):
        assert "url(" not in block
        assert "@import" not in block
    # The hostile text came through as text, whole.
    first = page.tables[0]
    assert HOSTILE in first.caption
    assert first.rows[1][0].text == HOSTILE
    assert first.rows[2][1].text == HOSTILE
    assert first.rows[3][0].text == "h" + HOSTILE
    assert first.rows[4][0].text == HOSTILE
    assert len(page.tables) == 2


def pql_cli(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pql_repl.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PQL_CONFIG": str((cwd or Path.cwd()) / "none.toml")},
        timeout=120,
        check=False,
    )


def test_the_command_writes_one_page_with_a_table_per_statement_and_sweep(tmp_path: Path) -> None:
    options = ["--trials", "3000", "--seed", "5"]
    r = pql_cli("-c", TEXT, *options, "--format", "html", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    page = Page(r.stdout)
    assert_tables_hold_the_csv(page, pql.run(TEXT, trials=3000, seed=5))
    assert page.active == []
    assert r.stdout.count("<html") == 1
    assert r.stdout.count("</html>") == 1
    # The dot-command writes the same page; a script with a sweep adds its table.
    dot = pql_cli(*options, stdin=f".format html\n{TEXT};\n", cwd=tmp_path)
    assert dot.stdout == r.stdout
    script = tmp_path / "s.pql"
    script.write_text(TEXT + ";\n" + SWEEP + ";\n")
    r = pql_cli(str(script), *options, "--format", "html", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    tables = Page(r.stdout).tables
    assert len(tables) == 3
    assert tables[2].attrs.get("class") == "pql-sweep"


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_the_line_repl_writes_a_page_with_format_html(tmp_path: Path, size: tuple[int, int]) -> None:
    out = tmp_path / "page.html"
    args = ["--plain", "--trials", "3000", "--seed", "5"]
    with Terminal(tmp_path, columns=size[0], lines=size[1], args=args, raw_escape=True) as term:
        term.wait_for("pql>")
        term.type(".format html")
        term.send("enter")
        term.type(f".output {out}")
        term.send("enter")
        term.type(TEXT.replace("\n", " ") + ";")
        term.send("enter")
        term.wait_for(lambda screen: out.exists() and out.read_text().count("</table>") == 2)
        term.type(".quit")
        term.send("enter")
        assert term.wait_exit() == 0
    page = Page(out.read_text())
    assert_tables_hold_the_csv(page, pql.run(TEXT.replace("\n", " "), trials=3000, seed=5))
    assert out.read_text().rstrip().endswith("</html>")


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_the_app_exports_a_page_when_the_format_is_html(tmp_path: Path, size: tuple[int, int]) -> None:
    """In the full-screen app `.format html` makes Ctrl+S suggest pql-results.html and write the
    page: a table per result, as the command writes it."""
    statement = "select avg(riverEquity(hero)) as eq from hero='AA', villain='KK';"
    args = ["--trials", "3000", "--seed", "5"]
    with Terminal(tmp_path, columns=size[0], lines=size[1], args=args) as term:
        term.wait_for(all_of("Welcome to pql", "Export"))
        term.type(".format html")
        term.send("enter")
        term.wait_for("format html")
        term.type(statement)
        term.send("enter")
        term.wait_for("done ·")
        term.send("ctrl+s")
        term.wait_for(all_of("pql-results.html", "Enter writes"))
        term.send("enter")
        term.wait_for("wrote 1 result")
    text = (tmp_path / "pql-results.html").read_text()
    page = Page(text)
    assert page.active == []
    assert_tables_hold_the_csv(page, pql.run(statement, trials=3000, seed=5))


def test_a_spreadsheet_and_to_html_show_the_same_tables(results: pql.Results) -> None:
    assert results[0].to_html() == results[0]._repr_html_()
    assert results.to_html() == results[0].to_html() + results[1].to_html()
    sheet = pql.spreadsheet(
        "select avg(riverEquity(p1)) as eq from p1='#HAND#', p2='KK'", "HAND\nAA\nQQ\n", trials=500, seed=1
    )
    page = Page(sheet._repr_html_())
    assert page.active == []
    (table,) = page.tables
    assert [[c.text for c in row] for row in table.rows] == [sheet.header, *sheet.rows]
