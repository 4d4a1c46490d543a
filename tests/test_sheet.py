"""The Odds Oracle's spreadsheet mode (issue 23): a template with #NAME# placeholders run once
per row of a CSV file, from Python and from the `pql` command."""

from __future__ import annotations

import csv
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import pql_repl as pql
from pql_repl.api.output import csv_line
from pql_repl.api.sheet import SpreadsheetError, bare_placeholders, check_rows, fill, placeholders, read_rows

TEMPLATE = (
    "select avg(riverEquity(player1)) as eq, count(winsHi(player1)) as wins\n"
    "from game='holdem', player1='#PLAYER1HAND#', player2='#PLAYER2HAND#', board='#BOARD#'\n"
)
ROWS = "PLAYER1HAND,PLAYER2HAND,BOARD\nTT,AK,\n99,QQ,2c7d9s\nAhKh,QQ,2h7h9s\n"
RUN = {"trials": 2000, "seed": 5, "threads": 1}


def expected_cells(row: dict[str, str]) -> list[str]:
    """What running the filled statement on its own says, as the sheet writes it."""
    (r,) = pql.run(fill(TEMPLATE, row), exact=None, **RUN)
    out = []
    for c in r.columns:
        out += [repr(float(c.value)), repr(float(c.stderr)) if c.stderr is not None else "0.0"]
    return [
        *out,
        str(r.trials),
        "true" if r.exact else "false",
        "done",
        "" if r.seed is None else str(r.seed),
    ]


def test_three_rows_in_three_rows_out_each_as_its_own_statement() -> None:
    sheet = pql.spreadsheet(TEMPLATE, ROWS, **RUN)
    assert sheet.header == [
        *("PLAYER1HAND", "PLAYER2HAND", "BOARD"),
        *("eq", "eq_stderr", "wins", "wins_stderr"),
        *("trials", "exact", "status", "seed"),
    ]
    _, rows = read_rows(ROWS)
    assert [r[:3] for r in sheet.rows] == [list(r.values()) for r in rows]
    for row, out in zip(rows, sheet.rows, strict=True):
        assert out[3:] == expected_cells(row)
    # The exact row (two given hands on a flop: enumerated) says so with a zero error.
    assert sheet.results[2][0].exact
    assert sheet.rows[2][4] == "0.0"
    # The CSV reads back as the same table.
    assert list(csv.reader(io.StringIO(sheet.to_csv()))) == [sheet.header, *sheet.rows]


def test_rows_as_mappings_and_a_file(tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    path.write_text(ROWS)
    from_file = pql.spreadsheet(TEMPLATE, path, **RUN)
    from_mappings = pql.spreadsheet(TEMPLATE, read_rows(ROWS)[1], **RUN)
    assert from_file.rows == from_mappings.rows
    # A file that is not text is refused by name, as the command's scripts are.
    path.write_bytes(b"PLAYER1HAND\n\xff\n")
    with pytest.raises(SpreadsheetError, match=r"'.*rows.csv': not UTF-8 text \(byte 0xff at line 2"):
        pql.spreadsheet(TEMPLATE, path, **RUN)


def test_placeholders_and_problems_are_named() -> None:
    assert placeholders(TEMPLATE) == ["PLAYER1HAND", "PLAYER2HAND", "BOARD"]
    with pytest.raises(SpreadsheetError, match=r"#BOARD# is not a column of rows"):
        check_rows(TEMPLATE, *read_rows("PLAYER1HAND,PLAYER2HAND\nAA,KK\n"))
    # A row whose filled statement is wrong: its line in the file and the engine's message.
    with pytest.raises(SpreadsheetError, match=r"rows: line 3: .*A9X"):
        check_rows(TEMPLATE, *read_rows("PLAYER1HAND,PLAYER2HAND,BOARD\nAA,KK,\nA9X,KK,\n"))
    with pytest.raises(SpreadsheetError, match=r"line 2: 2 cells; the header has 3"):
        read_rows("A,B,C\n1,2\n")
    with pytest.raises(SpreadsheetError, match=r"empty"):
        read_rows("\n\n")


def pql_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pql_repl.cli", *args],
        check=False,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


@pytest.mark.parametrize("output", [None, "out.csv"])
def test_the_command_writes_the_sheet(tmp_path: Path, output: str | None) -> None:
    (tmp_path / "q.pql").write_text(TEMPLATE)
    (tmp_path / "rows.csv").write_text(ROWS)
    options = ["--trials", "2000", "--seed", "5", "--threads", "1"] + (["--output", output] if output else [])
    r = pql_cli("--template", "q.pql", "--rows", "rows.csv", *options, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    written = (tmp_path / output).read_text() if output else r.stdout
    assert written == pql.spreadsheet(TEMPLATE, ROWS, **RUN).to_csv()


def test_a_row_with_other_selectors_is_refused_where_it_is(tmp_path: Path) -> None:
    template = "select #SELECTORS# from game='holdem', p1='AA', p2='KK'"
    rows = 'SELECTORS\navg(riverEquity(p1))\n"avg(riverEquity(p1)), count(winsHi(p1))"\n'
    with pytest.raises(SpreadsheetError, match=r"rows: line 3: other selectors than the first row's"):
        pql.spreadsheet(template, rows, **RUN)
    (tmp_path / "q.pql").write_text(template)
    (tmp_path / "rows.csv").write_text(rows)
    r = pql_cli("--template", "q.pql", "--rows", "rows.csv", "--trials", "200", cwd=tmp_path)
    assert r.returncode == 1
    assert "rows.csv: line 3: other selectors than the first row's" in r.stderr
    assert len(list(csv.reader(io.StringIO(r.stdout)))) == 2  # the header and the first row


def test_the_command_refuses_a_bad_sheet_before_running(tmp_path: Path) -> None:
    (tmp_path / "q.pql").write_text(TEMPLATE)
    (tmp_path / "rows.csv").write_text("PLAYER1HAND,PLAYER2HAND,BOARD\nAA,KK,\nA9X,KK,\n")
    r = pql_cli("--template", "q.pql", "--rows", "rows.csv", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stdout == ""  # nothing ran
    assert "rows.csv: line 3:" in r.stderr
    assert "Traceback" not in r.stderr
    r = pql_cli("--template", "q.pql", cwd=tmp_path)
    assert r.returncode == 2
    assert "spreadsheet mode takes --template FILE and --rows CSV" in r.stderr
    r = pql_cli("--template", "missing.pql", "--rows", "rows.csv", cwd=tmp_path)
    assert r.returncode == 2
    assert "missing.pql" in r.stderr
    assert "Traceback" not in r.stderr


# ---------------------------------------------------------------------------------------------
# Issue 41: hostile sheets end with a message naming what and where, never a traceback.

SIMPLE = "select avg(riverEquity(p1)) as eq from game='holdem', p1='#A#', p2='#B#'\n"


def sheet_cli(tmp_path: Path, template: str, rows: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "q.pql").write_text(template)
    (tmp_path / "rows.csv").write_text(rows)
    return pql_cli("--template", "q.pql", "--rows", "rows.csv", "--trials", "500", *args, cwd=tmp_path)


def one_line_error(r: subprocess.CompletedProcess[str], code: int, *needles: str) -> None:
    assert r.returncode == code, r.stderr
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    assert r.stderr.startswith("pql: "), r.stderr[:500]
    assert len(r.stderr) < 400, r.stderr[:500]
    for needle in needles:
        assert needle in r.stderr, r.stderr[:500]


def test_a_cell_past_the_bound_is_named_by_line_and_column(tmp_path: Path) -> None:
    from pql_repl.base.limits import ROWS_MAX_CELL  # noqa: PLC0415

    assert ROWS_MAX_CELL == 128 * 1024
    big = "K" * (ROWS_MAX_CELL + 1)
    r = sheet_cli(tmp_path, SIMPLE, f"A,B\nAA,KK\nAA,{big}\n")
    one_line_error(r, 2, "rows.csv: line 3", "column B", "128 KiB")
    assert r.stdout == ""
    with pytest.raises(SpreadsheetError, match=r"line 3, column B: .*128 KiB"):
        pql.spreadsheet(SIMPLE, f"A,B\nAA,KK\nAA,{big}\n", **RUN)
    # In quotes too, over several lines.
    r = sheet_cli(tmp_path, SIMPLE, f'A,B\n"{big[:70_000]}\n{big[:70_000]}",KK\n')
    one_line_error(r, 2, "rows.csv: line 2", "column A", "128 KiB")


def test_a_full_disk_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    rows = "A,B\nAA,KK\nQQ,JJ\n"
    r = sheet_cli(tmp_path, SIMPLE, rows, "--output", "/dev/full")
    one_line_error(r, 1, "/dev/full", "No space left on device")
    with open("/dev/full", "w") as full:
        r = subprocess.run(
            [sys.executable, "-m", "pql_repl.cli", "--template", "q.pql", "--rows", "rows.csv",
             "--trials", "500"],
            stdout=full, stderr=subprocess.PIPE, text=True, cwd=tmp_path, timeout=300, check=False,
        )  # fmt: skip
    one_line_error(r, 1, "results to stdout", "No space left on device")
    assert "Exception ignored" not in r.stderr
    # A folder that is not there: found before any row runs.
    r = sheet_cli(tmp_path, SIMPLE, rows, "--output", str(tmp_path / "missing" / "out.csv"))
    assert r.returncode == 2, r.stderr
    assert "there is no directory" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(
    ("cell", "column"),
    [("TT', p3='QQ", "A"), ('KK", p3="QQ', "B"), ("AA'--", "A")],
)
def test_a_value_holding_a_quote_is_refused_naming_row_and_column(
    tmp_path: Path, cell: str, column: str
) -> None:
    rows = [{"A": "AA", "B": "KK"}, {"A": "AA", "B": "KK"}]
    rows[1][column] = cell
    text = "A,B\n" + "".join(csv_line([r["A"], r["B"]]) for r in rows)
    with pytest.raises(
        SpreadsheetError, match=rf"rows: line 3, column {column}: a value may not hold a quote"
    ):
        pql.spreadsheet(SIMPLE, text, **RUN)
    r = sheet_cli(tmp_path, SIMPLE, text)
    one_line_error(r, 1, f"rows.csv: line 3, column {column}", "quote")
    assert r.stdout == ""  # nothing ran


def test_a_header_without_rows_says_there_is_nothing_to_run(tmp_path: Path) -> None:
    r = sheet_cli(tmp_path, SIMPLE, "A,B\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""
    assert r.stderr == "pql: rows.csv: no rows under the header: nothing to run\n"


@pytest.mark.parametrize(
    ("template", "needle"),
    [
        ("", "q.pql: empty: write a statement with #NAME# placeholders"),
        ("  \n-- only a comment\n", "q.pql: empty: write a statement with #NAME# placeholders"),
        (
            "select avg(riverEquity(p1)) from p1='AA', p2='KK'",
            "q.pql: no #NAME# placeholder: every row would run the same statement",
        ),
    ],
)
def test_a_template_that_cannot_vary_is_refused(tmp_path: Path, template: str, needle: str) -> None:
    r = sheet_cli(tmp_path, template, "A,B\nAA,KK\n")
    one_line_error(r, 2, needle)
    assert r.stdout == ""
    with pytest.raises(SpreadsheetError, match=needle.split(": ", 1)[1]):
        pql.spreadsheet(template, "A,B\nAA,KK\n", **RUN)


def test_too_many_rows_are_refused_at_once(tmp_path: Path) -> None:
    from pql_repl.base.limits import SHEET_MAX_ROWS  # noqa: PLC0415

    assert SHEET_MAX_ROWS == 100_000
    r = sheet_cli(tmp_path, SIMPLE, "A,B\n" + "AA,KK\n" * 150_000)
    one_line_error(r, 2, "rows.csv: 150,000 rows", "100,000")


def test_the_first_ctrl_c_stops_a_sheet_after_the_rows_done(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    # Exact rows the engine finishes even when cancelled: the first Ctrl-C still stops the sheet.
    template = (
        "select avg(riverEquity(p1)) as eq from game='holdem', p1='QQ+, AK, AQs', "
        "p2='22+, A2s+, KTs+, QJs', board='#FLOP#'"
    )
    (tmp_path / "q.pql").write_text(template)
    flops = [v.text for v in pql.flops("all")]
    (tmp_path / "rows.csv").write_text("FLOP\n" + "\n".join(flops) + "\n")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "pql_repl.cli", "--template", "q.pql", "--rows", "rows.csv", "--exact", "--threads", "1"],
        cwd=str(tmp_path), encoding="utf-8", timeout=60,
    )  # fmt: skip
    child.expect(r"row (\d+) of 22100", timeout=120)
    child.sendintr()
    child.expect(r"pql: interrupted after (\d+) of 22100 rows", timeout=10)
    done = int(child.match.group(1))
    child.expect(pexpect.EOF, timeout=10)
    child.close()
    assert child.exitstatus == 130
    assert 0 < done < 22100


@pytest.mark.parametrize(
    ("template", "rows", "needle"),
    [
        (SIMPLE, "{big},{big}\n", "column names repeat"),
        (SIMPLE, "A,{big}\nAA,KK\n", "is not a column"),
        (SIMPLE, ",".join(f"c{i}" for i in range(5000)) + "\n", "(5,000 in all)"),
        (SIMPLE.replace("#B#", "#{big}#"), "A,B\nAA,KK\n", "is not a column"),
    ],
    ids=["repeated", "missing", "many", "placeholder"],
)
def test_long_column_names_are_cut_in_messages(template: str, rows: str, needle: str) -> None:
    """Found by the fuzz campaign of issue 41: a header of 100,000-character names came back
    whole in the message."""
    big = "K" * 100_000
    with pytest.raises(SpreadsheetError) as e:
        pql.spreadsheet(template.replace("{big}", big), rows.replace("{big}", big), **RUN)
    assert needle in str(e.value)
    assert len(str(e.value)) < 300


def test_a_row_error_in_process_leaves_stdout_alone(tmp_path: Path) -> None:
    """Found by the fuzz campaign of issue 41: a row's error (not a failed write) pointed the
    process's stdout at /dev/null, so what a caller printed after it vanished."""
    # The second row's statement is checked, then fails once run: other selectors.
    (tmp_path / "q.pql").write_text("select #S# from game='holdem', p1='AA', p2='KK'")
    (tmp_path / "rows.csv").write_text('S\navg(riverEquity(p1))\n"avg(riverEquity(p1)), count(winsHi(p1))"\n')
    code = (
        "import io, pathlib\n"
        "from pql_repl.cli.main import run_spreadsheet\n"
        "from pql_repl.session.session import Session\n"
        "here = pathlib.Path('.')\n"
        "code = run_spreadsheet(Session(), here / 'q.pql', here / 'rows.csv', io.StringIO(), io.StringIO())\n"
        "print('after', code)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False
    )
    assert r.stdout == "after 1\n", r.stderr


def test_the_api_refuses_a_template_or_rows_of_another_type() -> None:
    """Found by the API campaign of issue 41: a template or rows of another type were a
    TypeError or an AttributeError, a row without a column of the first a KeyError."""
    rows = [{"A": "AA", "B": "KK"}]
    for call, needle in [
        (lambda: pql.spreadsheet(5, rows), "template must be a str, not int"),
        (lambda: pql.spreadsheet(SIMPLE, 5), "rows must be CSV text"),
        (lambda: pql.spreadsheet(SIMPLE, b"A,B\nAA,KK\n"), "rows must be CSV text"),
        (lambda: pql.spreadsheet(SIMPLE, [5]), "rows must be CSV text"),
        (lambda: pql.spreadsheet(SIMPLE, {"A": "AA"}), "rows must be CSV text"),
    ]:
        with pytest.raises(pql.PqlArgumentTypeError, match=needle):
            call()
    with pytest.raises(SpreadsheetError, match=r"rows: row 2: no column B"):
        pql.spreadsheet(SIMPLE, [*rows, {"A": "QQ"}], **RUN)
    with pytest.raises(SpreadsheetError, match=r"rows: row 2: a column the first has not: C"):
        pql.spreadsheet(SIMPLE, [*rows, {"A": "QQ", "B": "KK", "C": "x"}], **RUN)
    # Any iterable of mappings is rows.
    assert len(pql.spreadsheet(SIMPLE, iter([*rows, {"B": "JJ", "A": "QQ"}]), **RUN).rows) == 2


BARE = "select count(equity(hero, #S#) > #X#) from hero='#H#', villain='KK' -- #Y#"


def test_a_placeholder_outside_quotes_may_not_end_the_statement() -> None:
    # Outside quotes a value is part of the statement (an expression, a number): it may not end
    # the statement or comment out the rest of the template.
    assert bare_placeholders(BARE) == {"S", "X"}
    assert bare_placeholders("select avg(equity(p1)) from p1='#A#', p2=\"#B#\" /* #C# */") == set()
    ok = "S,X,H,Y\nflop,0.5,AA,anything at all; --\nturn,0.25 + 0.25,KK,x\n"
    assert len(check_rows(BARE, *read_rows(ok))) == 2
    for bad, shown in [("0.5); select count(1", ";"), ("1--", "--"), ("1 /* x", "/*")]:
        rows = ok + csv_line(["river", bad, "AA", ""])
        with pytest.raises(SpreadsheetError, match=rf"rows: line 4, column X: .*'{re.escape(shown)}'"):
            check_rows(BARE, *read_rows(rows))


def test_a_long_bare_placeholder_is_cut_in_its_message() -> None:
    # Found by tests/fuzz_surfaces.py (seed 41002, input 381030): the column was cut to an
    # excerpt, the placeholder named beside it came back whole (1,000 characters).
    name = "N" * 1000
    template = f"select avg(riverEquity(p1)) from game='holdem', p1='AA', p2=#{name}#"
    with pytest.raises(SpreadsheetError) as e:
        check_rows(template, *read_rows(f"{name}\n1;2\n"))
    assert "outside quotes" in str(e.value)
    assert len(str(e.value)) < 400
