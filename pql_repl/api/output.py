"""Results as text: the table, a tidy CSV, JSON and markdown (numbers as ``numbers`` writes them).

``table_rows`` gives the cells of the table so a REPL can lay them out its own way;
``ResultWriter`` streams results of a whole session to one destination in one format;
``Destination`` keeps that writer in step with ``.output`` and ``.format`` (CLI and line REPL);
``render`` formats a list of results at once; ``render_history`` a results history with sweeps
in it (the app's export) as one document.
"""

from __future__ import annotations

import io
import math
import time

from pql_repl.api import html
from pql_repl.api.numbers import (
    Z95,
    bucket_stderr,
    enumeration_reason,
    enumeration_share,
    format_count,
    format_estimate,
    format_margin,
    format_number,
    format_percent,
    format_percent_estimate,
    format_trials,
    kept_note,
)
from pql_repl.api.result_fields import Column, ResultFields
from pql_repl.api.tidy import STATEMENT_COLUMNS, csv_cell, statement_records
from pql_repl.base.records import record
from pql_repl.files.storage import open_output

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any, Protocol, TextIO

FORMATS = ("table", "csv", "json", "markdown", "html")
BAR_WIDTH = 30
BAR_CHAR = "█"


# ---------------------------------------------------------------------------------------------
# Table


@record(frozen=True)
class TableRow:
    """One line of the table. ``cells`` follow the name: the value, then for ``count`` the raw
    count, for a histogram bucket the count and a bar. A histogram's own row has no cells and
    its buckets come after it with ``bucket`` set (their ``name`` is the bucket's label)."""

    name: str
    cells: tuple[str, ...] = ()
    bucket: bool = False


def column_rows(column: Column, bar_char: str = BAR_CHAR, bar_width: int = BAR_WIDTH) -> list[TableRow]:
    """The rows of one selector's result (histogram bars ``bar_width`` wide at most; 0: none)."""
    if column.selector == "histogram":
        rows = [TableRow(column.name)]
        top = max((b.fraction for b in column.buckets), default=0.0)
        for b in column.buckets:
            width = round(b.fraction / top * bar_width) if top > 0 else 0
            bar = bar_char * max(width, 1 if b.fraction > 0 and bar_width > 0 else 0)
            cells = (format_percent(b.fraction), format_count(b.count))
            rows.append(TableRow(b.label, (*cells, bar) if bar_width > 0 else cells, bucket=True))
        return rows
    if column.selector == "count":
        value = column.value if isinstance(column.value, int | float) else None
        estimate = format_percent_estimate(value, column.stderr)
        return [TableRow(column.name, (estimate, format_count(column.count)))]
    if column.selector == "avg":
        return [TableRow(column.name, (format_estimate(column.value, column.stderr),))]
    return [TableRow(column.name, (format_number(column.value),))]


def table_rows(result: ResultFields, bar_char: str = BAR_CHAR, bar_width: int = BAR_WIDTH) -> list[TableRow]:
    """Every row of one statement's table, selector after selector."""
    return [row for column in result.columns for row in column_rows(column, bar_char, bar_width)]


def truncation_note(result: ResultFields) -> str:
    """What an exhaustive run cut short computed: ``estimate from 72% of 1,712,304 deals (cut
    short: a random sample of the enumeration)``; '' for any other result."""
    if not result.truncated:
        return ""
    reason = enumeration_reason(result)
    return (
        f"estimate from {enumeration_share(result)}{reason} (cut short: a random sample of the enumeration)"
    )


def worst_error(result: ResultFields) -> float | None:
    """The largest standard error among the selectors, as the target judges them (see
    ``pql_repl.api.precision``); None when no selector has one."""
    errors = [c.stderr for c in result.columns if c.stderr is not None]
    n = result.accepted
    for c in result.columns:
        if c.selector == "histogram" and n > 0 and c.buckets:
            errors.append(max(math.sqrt(b.fraction * (1 - b.fraction) / n) for b in c.buckets))
    return max(errors, default=None)


def stop_note(result: ResultFields) -> str:
    """``stopped at ±0.0041 after 41,000 trials: target ±0.0049 (.precision 0.0025)`` for a run
    that stopped on its target before its trials; '' otherwise. The ± are 95% margins, as in
    the table; the precision setting itself is a standard error."""
    target = result.stopped_at_precision
    if target is None:
        return ""
    worst = worst_error(result)
    at = "" if worst is None else f" at {format_margin(worst)}"
    return (
        f"stopped{at} after {format_trials(result)}: target {format_margin(target)} (.precision {target:g})"
    )


def summary_line(result: ResultFields, timer: bool = False) -> str:
    """The last line: ``600,000 trials`` (``990 deals, exact`` for an enumeration), the share of
    deals a ``where`` clause kept when it threw some away (or those dropped because two hands
    drew one card: ``kept_note``), and the run time when the timer is on. An exhaustive run cut
    short says how much of the enumeration it covered instead."""
    parts = [format_trials(result)]
    if result.truncated:
        parts = [truncation_note(result)]
    elif result.exact:
        reason = enumeration_reason(result)
        parts.append(f"exact: all {result.total_deals:,} deals{reason}" if reason else "exact")
    elif result.inner_sampled and result.total_deals is not None:
        parts.append("every deal enumerated, inner values sampled")
    if kept_note(result):
        parts.append(kept_note(result))
    if result.stopped_at_precision is not None:
        parts.append(stop_note(result))
    if result.kind == "simulate":
        parts.append(simulation_note(result))
    if result.cancelled:
        parts.append("cancelled (partial result)")
    line = ", ".join(parts)
    if timer:
        line += f" in {result.elapsed:.3f} s"
    return line


def simulation_note(result: ResultFields) -> str:
    """A simulate statement's verdict: ``choose raise (by 1.2 ± 0.3 over call), stopped early
    on an obvious move after 200 trials``. The gap's margin is the paired difference's 95%."""
    if result.chosen is None:
        return "no trial yet"
    note = f"choose {result.chosen}"
    if result.gap is not None and len(result.columns) >= 2:
        ranked = sorted(result.columns, key=lambda c: -(c.value if isinstance(c.value, int | float) else 0.0))
        runner_up = next((c.name for c in ranked if c.name != result.chosen), "")
        note += f" (by {format_estimate(result.gap, result.gap_stderr)} over {runner_up})"
    if result.stopped_early:
        note += f", stopped early on an obvious move after {result.stopped_after or 0:,} trials"
    return note


def format_table(
    result: ResultFields, timer: bool = False, bar_char: str = BAR_CHAR, width: int | None = None
) -> str:
    """One statement as the aligned table (docs/cli.md, output formats), ending with the summary line. With a
    terminal ``width``, histogram bars shrink (and go, when fewer than 4 cells are left) so
    that no line is wider; names and values are never cut."""
    bar_width = BAR_WIDTH
    if width is not None:
        rows = table_rows(result, bar_char, 0)
        lines = _layout(result, rows)
        widest = max((len(line) for line, row in zip(lines, rows, strict=False) if row.bucket), default=0)
        room = width - 1 - widest - len(" | ")
        bar_width = min(BAR_WIDTH, room) if room >= 4 else 0
    return "\n".join(_layout(result, table_rows(result, bar_char, bar_width), timer))


def _layout(result: ResultFields, rows: list[TableRow], timer: bool = False) -> list[str]:
    """The lines of the table of ``rows``, and the summary line."""
    names = [("  " + r.name) if r.bucket else r.name for r in rows]
    # A histogram's title row has no cells, so it does not widen the name column.
    name_width = max((len(n) for n, r in zip(names, rows, strict=True) if r.cells), default=0)
    # Percentages and counts (count rows and histogram buckets) are right-aligned in their
    # columns; lone values (avg, max, min) stay left, next to their names.
    widths = [max((len(r.cells[i]) for r in rows if len(r.cells) > 1), default=0) for i in range(2)]
    lines = []
    for r, name in zip(rows, names, strict=True):
        if not r.cells:
            lines.append(name)
            continue
        cells = [c.rjust(widths[i]) if i < 2 and len(r.cells) > 1 else c for i, c in enumerate(r.cells)]
        lines.append(" | ".join([name.ljust(name_width), *cells]).rstrip())
    lines.append(summary_line(result, timer))
    return lines


# ---------------------------------------------------------------------------------------------
# CSV, JSON and markdown

#: The one header of every CSV pql writes: a tidy table, one row per statement and selector and
#: per histogram bucket, that pandas and duckdb read as it is (``tidy`` names its columns; a
#: results history with sweeps adds ``SWEEP_CSV_COLUMNS`` after it: ``render_history``).
CSV_HEADER = STATEMENT_COLUMNS


def csv_rows(result: ResultFields, statement: int) -> list[list[str]]:
    """The CSV rows of one statement, numbered ``statement`` in its file (``tidy``'s records as
    text)."""
    return [
        [csv_cell(value, column) for value, column in zip(record, STATEMENT_COLUMNS, strict=True)]
        for record in statement_records(result, statement)
    ]


def csv_line(cells: Sequence[str]) -> str:
    """One CSV record ending in ``\n``. Written with a ``\r\n`` terminator, so that the csv
    module quotes a cell holding a lone ``\r`` too (with ``\n`` it does not, and the cell
    would read back as two lines); the terminator is then made ``\n``."""
    import csv  # noqa: PLC0415 (loaded when needed: the command starts faster without it)

    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerow(cells)
    return buffer.getvalue()[:-2] + "\n"


def json_document(results: Iterable[ResultFields], sweeps: Sequence[object] = ()) -> dict[str, object]:
    """The ``{"statements": [...]}`` document (docs/cli.md, output formats; and ``"sweeps"`` when a script
    ran any: see ``SweepResult.to_json``)."""
    document: dict[str, object] = {"statements": [r.to_dict() for r in results]}
    if sweeps:
        document["sweeps"] = list(sweeps)
    return document


if TYPE_CHECKING:

    class SweepTable(Protocol):
        """What the writer needs of a sweep's result (``pql_repl.api.sweeps.SweepResult``)."""

        def to_table(self) -> str: ...
        def to_csv(self) -> str: ...
        def to_markdown(self) -> str: ...
        def to_html(self) -> str: ...
        def to_json(self) -> dict[str, Any]: ...

    class HistorySweep(SweepTable, Protocol):
        """What ``render_history`` needs of a sweep's result (``SweepResult``)."""

        @property
        def names(self) -> list[str]: ...
        def history_csv_rows(self, statement: int, placeholders: Sequence[str]) -> list[list[str]]: ...


def _md_cell(text: str) -> str:
    """A cell's text: a pipe escaped (it would end the cell), a line break as a space."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _longest_run(text: str, char: str) -> int:
    """The length of the longest run of ``char`` in ``text`` (no ``re``: the command's start
    path does not load it)."""
    longest = run = 0
    for c in text:
        run = run + 1 if c == char else 0
        longest = max(longest, run)
    return longest


def format_markdown(result: ResultFields, timer: bool = False) -> str:
    """One statement as a plain pipe table for forums and notes (no HTML in it, so it renders
    wherever markdown does): the query, then a row per selector and per histogram bucket (the
    bucket's label in its own column, as in the CSV) with the value, its 95% margin and the
    count, then the summary line."""
    if "\n" in result.query or "\r" in result.query or "`" in result.query:
        # A fence longer than any run of backticks in the query, which would end a shorter one.
        fence = "`" * max(3, 1 + _longest_run(result.query, "`"))
        lines = [f"{fence}sql", result.query, fence, ""]
    else:
        lines = [f"`{result.query}`", ""]
    lines += ["| selector | label | value | ± 95% | count |", "| --- | --- | ---: | ---: | ---: |"]
    for c in result.columns:
        if c.selector == "histogram":
            for b in c.buckets:
                margin = bucket_stderr(result, c, b)
                ci = "" if margin is None else f"{100 * Z95 * margin:.2f}%"
                cells = [c.name, b.label, format_percent(b.fraction), ci, format_count(b.count)]
                lines.append(md_row(cells))
            continue
        if c.selector == "count":
            value = c.value if isinstance(c.value, int | float) else None
            ci = "" if c.stderr is None else f"{100 * Z95 * c.stderr:.2f}%"
            cells = [format_percent(value), ci, format_count(c.count)]
        elif c.selector == "avg":
            text = format_estimate(c.value, c.stderr)
            value_text, _, ci = text.partition(" ± ")
            cells = [value_text, ci, ""]
        else:
            cells = [format_number(c.value), "", ""]
        lines.append(md_row([c.name, "", *cells]))
    lines += ["", f"_{_md_text(summary_line(result, timer))}_"]
    return "\n".join(lines)


def md_row(cells: Sequence[str]) -> str:
    """One row of a pipe table, each cell escaped (``_md_cell``)."""
    return "| " + " | ".join(_md_cell(c) for c in cells) + " |"


def _md_text(text: str) -> str:
    """Text outside a table with markdown's own characters taken literally."""
    return "".join("\\" + ch if ch in "\\`*_[]<>|" else ch for ch in text)


# ---------------------------------------------------------------------------------------------
# Writers


class ResultWriter:
    """Writes the results of a session to ``stream`` in one format. Tables, markdown and CSV rows
    go out as each statement finishes (CSV under one header for the whole output); JSON is one
    document, written by ``close``, or (``keep_complete``, for a file) rewritten whole so the
    file is always a whole document: after the 1st, 2nd, 4th, 8th… result, after any result
    ``REWRITE_AFTER`` seconds after the last rewrite, on ``settle`` and at ``close``, so that
    n results cost writing linear in n (not n rewrites of a growing document). HTML is one page
    (``html``): its head before the first table, each table as its statement finishes, its end
    at ``close``. ``width``: a terminal's width, that tables fit."""

    #: Seconds after which a result waiting to go into a JSON file is written with the next one.
    REWRITE_AFTER = 5.0

    def __init__(
        self,
        stream: TextIO,
        fmt: str = "table",
        timer: bool = False,
        keep_complete: bool = False,
        width: int | None = None,
    ) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}")
        self.stream = stream
        self.format = fmt
        self.timer = timer
        self.keep_complete = keep_complete
        # Where this writer's output begins: what a file held before (in another format) stays.
        self._start = stream.tell() if keep_complete else 0
        self.width = width
        self._results: list[ResultFields] = []
        self._sweeps: list[dict[str, Any]] = []
        self._written = 0
        self._closed = False
        self._page_open = False
        self._bar_char = BAR_CHAR if _can_encode(stream, BAR_CHAR) else "#"
        #: The results and sweeps the JSON file's document holds, and when it was written.
        self._in_file = 0
        self._rewritten = 0.0

    def write(self, result: ResultFields) -> None:
        if self.format == "json":
            self._results.append(result)
            self._keep_up()
            return
        if self.format == "table":
            if self._written:
                self.stream.write("\n")
            self.stream.write(format_table(result, self.timer, self._bar_char, self.width) + "\n")
        elif self.format == "markdown":
            if self._written:
                self.stream.write("\n")
            self.stream.write(format_markdown(result, self.timer) + "\n")
        elif self.format == "html":
            self._open_page()
            self.stream.write(html.result_table(result, summary_line(result, self.timer)) + "\n")
        else:
            if not self._written:
                self.stream.write(csv_line(CSV_HEADER))
            for row in csv_rows(result, self._written + 1):
                self.stream.write(csv_line(row))
        self._written += 1
        self.stream.flush()

    def write_sweep(self, result: SweepTable) -> None:
        """A sweep's table, in the writer's format (a CSV block with its own header)."""
        if self.format == "json":
            self._sweeps.append(result.to_json())
            self._keep_up()
            return
        if self.format == "html":
            self._open_page()
        elif self._written:
            self.stream.write("\n")
        views = {"table": result.to_table, "markdown": result.to_markdown, "html": result.to_html}
        text = views.get(self.format, result.to_csv)()
        self.stream.write(text)
        self._written += 1
        self.stream.flush()

    def close(self) -> None:
        """Finish the output (the JSON document); the stream itself stays open."""
        if self._closed:
            return
        self._closed = True
        if self.format == "json" and not (self.keep_complete and 0 < self._in_file == self._entries):
            self._write_document()
        if self.format == "html":
            self._open_page()  # a page even when nothing ran
            self.stream.write(html.PAGE_TAIL)
            self.stream.flush()

    def _open_page(self) -> None:
        """An HTML page's head, before its first table."""
        if not self._page_open:
            self._page_open = True
            self.stream.write(html.page_head())

    def settle(self) -> None:
        """A JSON file brought up to date now (the line REPL's, once a run is over)."""
        if self.format == "json" and self.keep_complete and self._in_file != self._entries:
            self._write_document()

    @property
    def _entries(self) -> int:
        return len(self._results) + len(self._sweeps)

    def _keep_up(self) -> None:
        """A JSON file rewritten when it holds half the results or fewer, or an old version."""
        if not self.keep_complete:
            return
        if self._entries >= 2 * self._in_file or time.monotonic() - self._rewritten >= self.REWRITE_AFTER:
            self._write_document()

    def _write_document(self) -> None:
        if self.keep_complete:
            self.stream.seek(self._start)
            self.stream.truncate()
        import json  # noqa: PLC0415 (loaded when needed: the command starts faster without it)

        json.dump(json_document(self._results, self._sweeps), self.stream, indent=2)
        self.stream.write("\n")
        self.stream.flush()
        self._in_file = self._entries
        self._rewritten = time.monotonic()


class OutputError(Exception):
    """The file results should go to cannot be written; the message says which and why."""


class Destination:
    """Where a session's results go, as ``.output`` and ``.format`` say: ``stdout`` or a file.
    A file is replaced when the first result reaches it (until then the old one stays whole) and
    is a complete document whenever it is looked at (JSON's holds at least half the results so
    far, and all of them once ``settle``d or closed: ``ResultWriter``); a new format on the same
    file goes on writing to it after what is there."""

    def __init__(self, stdout: TextIO) -> None:
        self.stdout = stdout
        self.file: TextIO | None = None
        self._writer: ResultWriter | None = None
        self._target: tuple[str | None, str] | None = None

    @property
    def stream(self) -> TextIO:
        """The file, or stdout when results go there."""
        return self.file or self.stdout

    def writer(self, output: str | None, fmt: str, timer: bool = False) -> ResultWriter:
        """The writer for the file ``output`` (None: stdout) in ``fmt``, opening the file when it
        changed; raises ``OutputError`` when it cannot be written."""
        target = (output, fmt)
        if self._writer is None or target != self._target:
            if self._writer is not None:
                self._writer.close()
            if self._target is None or output != self._target[0]:
                self._close_file()
                self._writer, self._target = None, None
                if output is not None:
                    try:
                        # The old file stays until the first result replaces it.
                        self.file = open_output(output)
                    except OSError as e:
                        raise OutputError(f"cannot write to '{output}': {e.strerror or e}") from None
            self._writer = ResultWriter(self.stream, fmt, timer, keep_complete=self.file is not None)
            self._target = target
        self._writer.timer = timer
        return self._writer

    def settle(self) -> None:
        """A JSON file brought up to date with every result so far (``ResultWriter.settle``)."""
        if self._writer is not None:
            self._writer.settle()

    def close(self) -> None:
        """Finish the output (the JSON document) and close the file, if any."""
        if self._writer is not None:
            self._writer.close()
        self._close_file()
        self._writer, self._target = None, None

    def _close_file(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


def render(
    results: Iterable[ResultFields], fmt: str = "table", timer: bool = False, width: int | None = None
) -> str:
    """Several results in one format, as one string (tables fit ``width`` when given)."""
    buffer = io.StringIO()
    writer = ResultWriter(buffer, fmt, timer, width=width)
    for r in results:
        writer.write(r)
    writer.close()
    return buffer.getvalue()


#: The columns a results history with sweeps adds to ``CSV_HEADER``; after them, a column per
#: placeholder of the history's sweeps (``$flop``), in the order they first appear.
SWEEP_CSV_COLUMNS = (
    "sweep_row",  # a sweep's row (its number in the sweep, from 1) or `all` (its weighted mean)
    "weight",  # what the row stands for (a canonical flop: the flops it stands for); the sum for `all`
)


def render_history(
    entries: Iterable[ResultFields | HistorySweep],
    fmt: str = "csv",
    timer: bool = False,
    width: int | None = None,
) -> str:
    """A results history (the app's export) as one document: statements' results and sweeps'
    (``SweepResult``), in the order given. Without sweeps it is what ``render`` writes. With
    them, CSV is one tidy table: ``CSV_HEADER``, ``SWEEP_CSV_COLUMNS`` and a ``$name`` column
    per placeholder; each entry numbered in the ``statement`` column, a sweep's rows as the
    rows of their statements (the filled query) with the row's number, weight and values, and
    its aggregate with ``all`` in ``sweep_row`` (statements leave these cells empty). JSON is
    one document: ``"statements"``, and ``"sweeps"`` (``SweepResult.to_json``) each with
    ``"statement"``, its number among the entries. Tables and markdown: each entry in turn;
    HTML: one page with a table per entry."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    entries = list(entries)
    sweeps = [e for e in entries if not isinstance(e, ResultFields)]
    if not sweeps:
        return render([e for e in entries if isinstance(e, ResultFields)], fmt, timer, width)
    if fmt == "json":
        import json  # noqa: PLC0415 (loaded when needed: the command starts faster without it)

        statements = [e for e in entries if isinstance(e, ResultFields)]
        placed = [
            {**e.to_json(), "statement": n}
            for n, e in enumerate(entries, start=1)
            if not isinstance(e, ResultFields)
        ]
        return json.dumps(json_document(statements, placed), indent=2) + "\n"
    if fmt == "csv":
        placeholders = list(dict.fromkeys(f"${name}" for sweep in sweeps for name in sweep.names))
        blank = [""] * (len(SWEEP_CSV_COLUMNS) + len(placeholders))
        lines = [csv_line((*CSV_HEADER, *SWEEP_CSV_COLUMNS, *placeholders))]
        for n, e in enumerate(entries, start=1):
            rows = (
                [[*cells, *blank] for cells in csv_rows(e, n)]
                if isinstance(e, ResultFields)
                else e.history_csv_rows(n, placeholders)
            )
            lines += [csv_line(row) for row in rows]
        return "".join(lines)
    if fmt == "html":
        tables = [
            html.result_table(e, summary_line(e, timer)) if isinstance(e, ResultFields) else e.to_html()
            for e in entries
        ]
        return html.page(tables)
    parts = []
    for e in entries:
        if isinstance(e, ResultFields):
            parts.append(render([e], fmt, timer, width))
        else:
            parts.append(e.to_table() if fmt == "table" else e.to_markdown())
    return "\n".join(parts)


def _can_encode(stream: TextIO, text: str) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True
