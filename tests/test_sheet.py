"""The Odds Oracle's spreadsheet mode (issue 23): a template with #NAME# placeholders run once
per row of a CSV file, from Python and from the `pql` command."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

import pql_repl as pql
from pql_repl.api.sheet import SpreadsheetError, check_rows, fill, placeholders, read_rows

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
    return out


def test_three_rows_in_three_rows_out_each_as_its_own_statement() -> None:
    sheet = pql.spreadsheet(TEMPLATE, ROWS, **RUN)
    assert sheet.header == ["PLAYER1HAND", "PLAYER2HAND", "BOARD", "eq", "eq stderr", "wins", "wins stderr"]
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
