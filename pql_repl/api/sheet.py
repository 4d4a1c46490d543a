"""The Odds Oracle's spreadsheet mode: a statement template with ``#NAME#`` placeholders, run once
for every row of a CSV file whose header names them; each row comes back with every selector's
value and standard error appended as columns.

    sheet = spreadsheet("select avg(riverEquity(p1)) as eq from p1='#HAND#', p2='QQ'", rows)

Every row's statement is checked before any runs, so a bad row is reported (with its line in
the CSV file) before an hour of work, not after it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pql_repl.api import frames, html
from pql_repl.api.options import shown, text_argument
from pql_repl.api.output import csv_line
from pql_repl.api.results import DEFAULT_TRIALS, StatementResult
from pql_repl.api.run import Query
from pql_repl.api.tidy import (
    RUN_COLUMNS,
    Cell,
    csv_cell,
    number_value,
    run_values,
    selector_stderr,
    stderr_column,
)
from pql_repl.base.errors import PqlArgumentTypeError, PqlCancelled, PqlError, excerpt
from pql_repl.base.limits import FILLED_MAX_CHARS, ROWS_MAX_CELL, SCRIPT_MAX_BYTES, SHEET_MAX_ROWS
from pql_repl.base.records import field, record
from pql_repl.files.storage import FileProblem, decode_text, read_bounded

#: ``#NAME#``: letters, digits and ``_``, as the Oracle's templates wrote them.
PLACEHOLDER = re.compile(r"#([A-Za-z_][A-Za-z0-9_]*)#")
#: Comments, to see whether a template holds anything else.
_COMMENT = re.compile(r"--[^\n]*|/\*.*?(?:\*/|\Z)", re.S)
#: What would end the quoted string a value is put in (``TT', p3='QQ`` would seat a third
#: player): a value is a range, a board or a name, never statement text.
QUOTES = "'\""
#: A value put where no quotes surround it (``#SELECTORS#``, ``> #X#``) is part of the
#: statement, an expression or a number; it may not end the statement (``;``) or hide the rest of
#: the template in a comment (``--``, ``/*``), which would run what the row says instead.
BARE_VALUE_ENDS = re.compile(r";|--|/\*")


def _names(names: list[str], wrap: str = "") -> str:
    """Names as a message lists them: each as an excerpt (``wrap`` around it), the first ten."""
    shown = ", ".join(f"{wrap}{excerpt(n)}{wrap}" for n in names[:10])
    return shown + (f", … ({len(names):,} in all)" if len(names) > 10 else "")


class SpreadsheetError(PqlError):
    """A template or rows file that cannot be run: says what and where."""


class SheetFileError(SpreadsheetError):
    """A template or rows file that cannot be used at all (empty, past a bound, not CSV): the
    command's exit code 2, as for a file it cannot read."""


def placeholders(template: str) -> list[str]:
    """The placeholder names of ``template``, in order of first appearance."""
    return list(dict.fromkeys(m.group(1) for m in PLACEHOLDER.finditer(template)))


def bare_placeholders(template: str) -> set[str]:
    """The names of the placeholders that stand outside every quoted string and comment of
    ``template`` (strings run to the next same quote, with no escapes, as the lexer reads them)."""
    bare: set[str] = set()
    i, n = 0, len(template)
    while i < n:
        c = template[i]
        if c in QUOTES:
            end = template.find(c, i + 1)
            i = n if end < 0 else end + 1
        elif template.startswith("--", i):
            end = template.find("\n", i)
            i = n if end < 0 else end
        elif template.startswith("/*", i):
            end = template.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif (m := PLACEHOLDER.match(template, i)) is not None:
            bare.add(m.group(1))
            i = m.end()
        else:
            i += 1
    return bare


def fill(template: str, row: Mapping[str, str]) -> str:
    """``template`` with every ``#NAME#`` replaced by the row's value for ``NAME``."""
    return PLACEHOLDER.sub(lambda m: row[m.group(1)], template)


def read_rows(text: str, source: str = "rows") -> tuple[list[str], list[dict[str, str]]]:
    """The header and the rows of CSV ``text`` (a row shorter than the header is an error).
    ``SheetFileError`` for a file that cannot be used: empty, a cell over ``ROWS_MAX_CELL``
    characters (named by line and column), more than ``SHEET_MAX_ROWS`` rows."""
    import csv  # noqa: PLC0415 (loaded when needed: the command starts faster without it)

    # The csv module's own bound on a cell (a process-wide setting) would end in its error
    # without a place: lifted while reading, and every cell measured here instead.
    bound = csv.field_size_limit()
    csv.field_size_limit(max(bound, len(text) + 1))
    records: list[list[str]] = []
    count = blank = 0  # records after the header; blank ones at the end so far
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        for line, cells in enumerate(reader, start=1):
            for column, cell in enumerate(cells):
                if len(cell) > ROWS_MAX_CELL:
                    name = (
                        excerpt(records[0][column].strip())
                        if records and column < len(records[0])
                        else column + 1
                    )
                    raise SheetFileError(
                        f"{source}: line {line}, column {name}: a cell of {len(cell):,} characters; "
                        f"a cell holds at most 128 KiB ({ROWS_MAX_CELL:,} characters)"
                    )
            blank = blank + 1 if not any(cell.strip() for cell in cells) else 0
            if line > 1:
                count += 1
            if line <= SHEET_MAX_ROWS + 1 or not records:
                records.append(cells)
    except csv.Error as e:
        raise SheetFileError(f"{source}: line {reader.line_num}: {e}") from None
    finally:
        csv.field_size_limit(bound)
    count = max(0, count - blank)  # trailing blank lines
    if count > SHEET_MAX_ROWS:
        raise SheetFileError(f"{source}: {count:,} rows; spreadsheet mode runs at most {SHEET_MAX_ROWS:,}")
    del records[count + 1 :]
    if not records or not any(cell.strip() for cell in records[0]):
        raise SheetFileError(f"{source}: empty: the first line must name the columns")
    header = [name.strip() for name in records[0]]
    if len(set(header)) != len(header):
        repeated = sorted({n for n in header if header.count(n) > 1})
        raise SheetFileError(f"{source}: line 1: column names repeat: {_names(repeated)}")
    rows = []
    for line, cells in enumerate(records[1:], start=2):
        if len(cells) != len(header):
            raise SheetFileError(f"{source}: line {line}: {len(cells)} cells; the header has {len(header)}")
        rows.append(dict(zip(header, cells, strict=True)))
    return header, rows


@record
class Sheet:
    """The rows that were run, each with its results: the input columns, then for every
    selector its value and standard error (``name`` and ``name_stderr``), then how each row was
    computed (``tidy.RUN_COLUMNS``: ``result_header``)."""

    header: list[str]
    rows: list[list[str]] = field(default_factory=list)
    #: The results of each row's statements, in row order.
    results: list[list[StatementResult]] = field(default_factory=list)

    def to_csv(self) -> str:
        """The sheet as CSV: the header, then a line per row (what ``pql --rows`` writes)."""
        return "".join(csv_line(r) for r in [self.header, *self.rows])

    def to_html(self) -> str:
        """The sheet's CSV as an HTML table (``html.text_table``)."""
        return html.text_table(self.header, self.rows)

    def _repr_html_(self) -> str:
        """What a notebook shows: ``to_html``."""
        return self.to_html()

    def to_pandas(self) -> Any:
        """The sheet's CSV as a pandas DataFrame (the input columns as text, the results with
        the dtypes of ``tidy``). Needs pandas (``pip install 'pql-repl[pandas]'``)."""
        inputs = len(self.header) - (len(result_header(self.results[0])) if self.results else 0)
        records = [
            [*cells[:inputs], *result_values(results)]
            for cells, results in zip(self.rows, self.results, strict=True)
        ]
        return frames.frame(records, self.header)


def result_header(results: list[StatementResult]) -> list[str]:
    """The appended columns for one row's results: ``name`` and ``name_stderr`` per selector (a
    name that repeats across statements gets the statement's number: ``eq_2``), then
    ``tidy.RUN_COLUMNS`` (for a template of several statements, each statement's:
    ``trials_1``, ``exact_1``, ...)."""
    names = [c.name for r in results for c in r.columns]
    columns = []
    for r in results:
        for c in r.columns:
            name = c.name if names.count(c.name) == 1 else f"{c.name}_{r.index + 1}"
            columns += [name, stderr_column(name)]
    if len(results) == 1:
        return [*columns, *RUN_COLUMNS]
    return columns + [f"{column}_{r.index + 1}" for r in results for column in RUN_COLUMNS]


def result_values(results: list[StatementResult]) -> list[Cell]:
    """One row's appended cells, typed, in the order of ``result_header``: each selector's value
    (a histogram as ``label: fraction`` pairs separated by ``; ``) and standard error, then how
    each statement was computed."""
    cells: list[Cell] = []
    for r in results:
        for c in r.columns:
            if c.selector == "histogram":
                cells += ["; ".join(f"{b.label}: {b.fraction:.6g}" for b in c.buckets), None]
                continue
            number = number_value(c.value)
            cells += [number if number is not None else (None if c.value is None else str(c.value))]
            cells += [selector_stderr(r, c)]
    for r in results:
        cells += run_values(r)
    return cells


def result_cells(results: list[StatementResult]) -> list[str]:
    """One row's appended cells as CSV text (``result_values``)."""
    return [csv_cell(v) for v in result_values(results)]


def check_template(template: str, source: str = "template") -> list[str]:
    """The placeholders of ``template``; ``SheetFileError`` when it holds no statement, or no
    placeholder (every row would run the same statement)."""
    if not _COMMENT.sub("", template).strip():
        raise SheetFileError(f"{source}: empty: write a statement with #NAME# placeholders")
    names = placeholders(template)
    if not names:
        raise SheetFileError(f"{source}: no #NAME# placeholder: every row would run the same statement")
    return names


def check_rows(
    template: str,
    header: list[str],
    rows: list[dict[str, str]],
    source: str = "rows",
    template_source: str = "template",
) -> list[str]:
    """Every row's statement, filled and checked (compiled, then let go: a row is compiled
    again when it runs); the filled statements. The first problem raises ``SpreadsheetError``
    naming the placeholder, or the row's line in the CSV file (and the column) and the error;
    ``SheetFileError`` for a template that cannot vary (``check_template``) or statements
    past ``FILLED_MAX_CHARS`` characters together."""
    names = check_template(template, template_source)
    missing = [p for p in names if p not in header]
    if missing:
        shown = _names(missing, "#")
        raise SpreadsheetError(
            f"the template's {shown} {'is' if len(missing) == 1 else 'are'} not a column of {source} "
            f"(its columns: {_names(header)})"
        )
    spots = [m.group(1) for m in PLACEHOLDER.finditer(template)]
    fixed = len(template) - sum(len(name) + 2 for name in spots)
    bare = bare_placeholders(template)
    chars = 0
    for line, row in enumerate(rows, start=2):
        for name in names:
            if any(q in row[name] for q in QUOTES):
                raise SpreadsheetError(
                    f"{source}: line {line}, column {excerpt(name)}: a value may not hold a quote (' or \"): "
                    "values are ranges, boards or names, which the template puts in quotes"
                )
            if name in bare and (end := BARE_VALUE_ENDS.search(row[name])) is not None:
                raise SpreadsheetError(
                    f"{source}: line {line}, column {excerpt(name)}: a value may not hold "
                    f"'{end.group()}' where the template puts #{excerpt(name)}# outside quotes: it would end "
                    "the statement or hide the rest of the template"
                )
        chars += fixed + sum(len(row[name]) for name in spots)
    if chars > FILLED_MAX_CHARS:
        raise SheetFileError(
            f"{source}: the {len(rows):,} rows' statements hold {chars:,} characters together; "
            f"at most {FILLED_MAX_CHARS:,}"
        )
    filled = []
    for line, row in enumerate(rows, start=2):
        text = fill(template, row)
        try:
            Query(text)
        except PqlError as e:
            raise SpreadsheetError(f"{source}: line {line}: {e}") from None
        filled.append(text)
    return filled


def run_rows(
    template: str,
    header: list[str],
    rows: list[dict[str, str]],
    *,
    source: str = "rows",
    run: Callable[[Query], list[StatementResult]] | None = None,
    **options: Any,
) -> Iterator[tuple[list[str], list[StatementResult]]]:
    """Checks every row, then runs them in order: yields each row's output cells (input cells,
    then results) and its results. ``run`` runs one row's statement (by default
    ``query.run(**options)``)."""
    filled = check_rows(template, header, rows, source)
    return run_checked(header, rows, filled, source=source, run=run or (lambda query: query.run(**options)))


def run_checked(
    header: list[str],
    rows: list[dict[str, str]],
    filled: list[str],
    *,
    source: str,
    run: Callable[[Query], list[StatementResult]],
) -> Iterator[tuple[list[str], list[StatementResult]]]:
    """Runs the rows' checked statements (``check_rows``) in order (see ``run_rows``). The
    first row's results fix the appended columns; a row whose filled statements have other
    selectors, or whose run fails, is a ``SpreadsheetError`` naming its line (a cancelled run
    propagates as it is)."""
    shape: list[int] | None = None
    for line, (row, text) in enumerate(zip(rows, filled, strict=True), start=2):
        try:
            results = run(Query(text))
        except PqlCancelled:
            raise
        except PqlError as e:
            raise SpreadsheetError(f"{source}: line {line}: {e}") from None
        row_shape = [len(r.columns) for r in results]
        if shape is None:
            shape = row_shape
        elif row_shape != shape:
            raise SpreadsheetError(f"{source}: line {line}: other selectors than the first row's")
        yield [row[name] for name in header] + result_cells(results), results


def read_rows_file(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    """The header and rows of the CSV file at ``path``, read within the bound on scripts and
    as UTF-8; ``SpreadsheetError`` saying why it cannot be read."""
    try:
        text = decode_text(read_bounded(path, SCRIPT_MAX_BYTES, regular_only=True))
    except FileProblem as e:
        raise SheetFileError(f"cannot read '{path}': {e}") from None
    except OSError as e:
        raise SheetFileError(f"cannot read '{path}': {e.strerror or e}") from None
    return read_rows(text, str(path))


def _mappings(rows: object) -> list[dict[str, str]]:
    """Rows given as mappings from column name to value, each with the first one's columns."""
    wrong = PqlArgumentTypeError(
        "rows must be CSV text, a CSV file's Path or a list of mappings from column name to value, "
        f"not {type(rows).__name__} {shown(rows)}"
    )
    if isinstance(rows, bytes | Mapping) or not isinstance(rows, Iterable):
        raise wrong
    table = []
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, Mapping):
            raise wrong
        table.append({str(k): str(v) for k, v in row.items()})
        if table[0].keys() != table[-1].keys():
            missing = [n for n in table[0] if n not in table[-1]]
            other = [n for n in table[-1] if n not in table[0]]
            said = (
                f"no column {_names(missing)}" if missing else f"a column the first has not: {_names(other)}"
            )
            raise SpreadsheetError(f"rows: row {number}: {said}")
    return table


def spreadsheet(
    template: str,
    rows: str | Path | Iterable[Mapping[str, str]],
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = None,
    exact: bool | None = None,
    threads: int | None = None,
    time_limit: float | None = None,
    precision: float | str | None = None,
) -> Sheet:
    """Runs ``template`` once per row: ``rows`` is CSV text, a CSV file's path, or mappings
    from column name to value (the first one's keys are the header, which every row has).
    A template or rows of another type are a ``PqlArgumentTypeError``."""
    template = text_argument("template", template)
    if isinstance(rows, Path):
        header, table = read_rows_file(rows)
    elif isinstance(rows, str):
        header, table = read_rows(rows)
    else:
        table = _mappings(rows)
        header = list(table[0]) if table else []
        if not table:
            check_template(template)
            return Sheet(header=[])
    sheet = Sheet(header=list(header))

    def run(query: Query) -> list[StatementResult]:
        return query.run(
            trials=trials, seed=seed, exact=exact, threads=threads, time_limit=time_limit, precision=precision
        )

    for cells, results in run_rows(template, header, table, run=run):
        if not sheet.results:
            sheet.header += result_header(results)
        sheet.rows.append(cells)
        sheet.results.append(results)
    return sheet
