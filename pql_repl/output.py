"""Results as text: the table of PQL-SPEC §7, CSV, and the JSON of DESIGN.md §5.

``table_rows`` gives the cells of the table so a REPL can lay them out its own way;
``ResultWriter`` streams results of a whole session to one destination in one format;
``Destination`` keeps that writer in step with ``.output`` and ``.format`` (CLI and line REPL);
``render`` formats a list of results at once.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable
from typing import TextIO

from pql_repl.api import Column, StatementResult
from pql_repl.records import record

FORMATS = ("table", "csv", "json")
BAR_WIDTH = 30
BAR_CHAR = "█"


# ---------------------------------------------------------------------------------------------
# Numbers


def format_number(value: float | str | bool | None) -> str:
    """A value as a person reads it: whole numbers without decimals, up to six decimals else."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int) or (math.isfinite(value) and value == int(value) and abs(value) < 1e15):
        return str(int(value))
    if value != 0 and abs(value) < 1e-4:
        return f"{value:.6g}"
    return f"{value:.6f}".rstrip("0").rstrip(".")


def format_estimate(value: float | str | None, stderr: float | None) -> str:
    """``value ± 1.96·stderr`` with two significant digits of the margin; the value alone when
    exact (no stderr)."""
    if stderr is None or not isinstance(value, int | float) or isinstance(value, bool):
        return format_number(value)
    half = 1.96 * stderr
    if half <= 0 or not math.isfinite(half):
        return f"{format_number(value)} ± 0"
    # Two significant digits of the margin, but no more than six decimals.
    decimals = min(6, max(0, 1 - math.floor(math.log10(half))))
    return f"{value:.{decimals}f} ± {half:.{decimals}f}"


def format_percent(fraction: float | None) -> str:
    return "—" if fraction is None else f"{100 * fraction:.2f}%"


def format_count(count: float | None) -> str:
    # Weighted ranges make counts fractional.
    if count is None:
        return "—"
    return str(int(count)) if count == int(count) else f"{count:.2f}"


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


def column_rows(column: Column, bar_char: str = BAR_CHAR) -> list[TableRow]:
    """The rows of one selector's result."""
    if column.selector == "histogram":
        rows = [TableRow(column.name)]
        top = max((b.fraction for b in column.buckets), default=0.0)
        for b in column.buckets:
            width = round(b.fraction / top * BAR_WIDTH) if top > 0 else 0
            bar = bar_char * max(width, 1 if b.fraction > 0 else 0)
            rows.append(
                TableRow(b.label, (format_percent(b.fraction), format_count(b.count), bar), bucket=True)
            )
        return rows
    if column.selector == "count":
        value = column.value if isinstance(column.value, int | float) else None
        return [TableRow(column.name, (format_percent(value), format_count(column.count)))]
    if column.selector == "avg":
        return [TableRow(column.name, (format_estimate(column.value, column.stderr),))]
    return [TableRow(column.name, (format_number(column.value),))]


def table_rows(result: StatementResult, bar_char: str = BAR_CHAR) -> list[TableRow]:
    """Every row of one statement's table, selector after selector."""
    return [row for column in result.columns for row in column_rows(column, bar_char)]


def truncation_note(result: StatementResult) -> str:
    """What an exhaustive run cut short computed: ``1234567 of 1712304 deals enumerated (cut
    short: not a random sample)``; '' for any other result."""
    if not result.truncated:
        return ""
    total = "" if result.total_deals is None else f" of {result.total_deals}"
    return f"{result.attempted}{total} deals enumerated (cut short: not a random sample)"


def summary_line(result: StatementResult, timer: bool = False) -> str:
    """The last line: ``600000 trials``, with ``exact`` for exhaustive runs, the share of deals a
    ``where`` kept when it threw some away, and the run time when the timer is on. An exhaustive
    run cut short says how much of the enumeration it covered instead."""
    parts = [f"{result.trials} trials"]
    if result.truncated:
        parts = [truncation_note(result)]
        if result.attempted > result.accepted:
            parts.append(f"{result.trials} kept by the where clause")
    elif result.exact:
        parts.append("exact")
    elif result.inner_sampled and result.total_deals is not None:
        parts.append("every deal enumerated, inner values sampled")
    if result.attempted > result.accepted and not result.truncated:
        kept = result.accepted / result.attempted
        parts.append(f"{100 * kept:.3g}% of deals kept")
    if result.cancelled:
        parts.append("cancelled")
    line = ", ".join(parts)
    if timer:
        line += f" in {result.elapsed:.3f} s"
    return line


def format_table(result: StatementResult, timer: bool = False, bar_char: str = BAR_CHAR) -> str:
    """One statement as the aligned table of PQL-SPEC §7, ending with the summary line."""
    rows = table_rows(result, bar_char)
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
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# CSV and JSON


def csv_header(result: StatementResult) -> list[str]:
    """``query``, ``trials``, one column per selector, and a last ``note`` column when an
    exhaustive run was cut short."""
    note = ["note"] if result.truncated else []
    return ["query", "trials", *(c.name for c in result.columns), *note]


def csv_cell(column: Column) -> str:
    """A selector's value in one CSV cell; a histogram is ``label:fraction;label:fraction``."""
    if column.selector == "histogram":
        return ";".join(f"{b.label}:{b.fraction!r}" for b in column.buckets)
    value = column.value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def csv_row(result: StatementResult) -> list[str]:
    note = [truncation_note(result)] if result.truncated else []
    return [result.query, str(result.trials), *(csv_cell(c) for c in result.columns), *note]


def json_document(results: Iterable[StatementResult]) -> dict[str, object]:
    """The ``{"statements": [...]}`` document of DESIGN.md §5."""
    return {"statements": [r.to_dict() for r in results]}


# ---------------------------------------------------------------------------------------------
# Writers


class ResultWriter:
    """Writes the results of a session to ``stream`` in one format. Tables and CSV rows go out
    as each statement finishes; JSON is one document, written by ``close``, or (``keep_complete``,
    for a file) rewritten in place after every statement so the file is always a whole document.
    CSV repeats its header when a statement's columns differ from the previous one's."""

    def __init__(
        self, stream: TextIO, fmt: str = "table", timer: bool = False, keep_complete: bool = False
    ) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}")
        self.stream = stream
        self.format = fmt
        self.timer = timer
        self.keep_complete = keep_complete
        # Where this writer's output begins: what a file held before (in another format) stays.
        self._start = stream.tell() if keep_complete else 0
        self._results: list[StatementResult] = []
        self._header: list[str] | None = None
        self._written = 0
        self._closed = False
        self._bar_char = BAR_CHAR if _can_encode(stream, BAR_CHAR) else "#"

    def write(self, result: StatementResult) -> None:
        if self.format == "json":
            self._results.append(result)
            if self.keep_complete:
                self._write_document()
            return
        if self.format == "table":
            if self._written:
                self.stream.write("\n")
            self.stream.write(format_table(result, self.timer, self._bar_char) + "\n")
        else:
            import csv  # noqa: PLC0415 (loaded when needed: the command starts faster without it)

            writer = csv.writer(self.stream, lineterminator="\n")
            header = csv_header(result)
            if header != self._header:
                if self._header is not None:
                    self.stream.write("\n")
                writer.writerow(header)
                self._header = header
            writer.writerow(csv_row(result))
        self._written += 1
        self.stream.flush()

    def close(self) -> None:
        """Finish the output (the JSON document); the stream itself stays open."""
        if self._closed:
            return
        self._closed = True
        if self.format == "json":
            self._write_document()

    def _write_document(self) -> None:
        if self.keep_complete:
            self.stream.seek(self._start)
            self.stream.truncate()
        import json  # noqa: PLC0415 (loaded when needed: the command starts faster without it)

        json.dump(json_document(self._results), self.stream, indent=2)
        self.stream.write("\n")
        self.stream.flush()


class OutputError(Exception):
    """The file results should go to cannot be written; the message says which and why."""


class Destination:
    """Where a session's results go, as ``.output`` and ``.format`` say: ``stdout`` or a file.
    A file is truncated when it becomes the destination and holds a complete document after
    every result; a new format on the same file goes on writing to it after what is there."""

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
                        self.file = open(output, "w", encoding="utf-8")  # noqa: SIM115 (closed in close)
                    except OSError as e:
                        raise OutputError(f"cannot write to '{output}': {e.strerror or e}") from None
            self._writer = ResultWriter(self.stream, fmt, timer, keep_complete=self.file is not None)
            self._target = target
        self._writer.timer = timer
        return self._writer

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


def render(results: Iterable[StatementResult], fmt: str = "table", timer: bool = False) -> str:
    """Several results in one format, as one string."""
    buffer = io.StringIO()
    writer = ResultWriter(buffer, fmt, timer)
    for r in results:
        writer.write(r)
    writer.close()
    return buffer.getvalue()


def _can_encode(stream: TextIO, text: str) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True
