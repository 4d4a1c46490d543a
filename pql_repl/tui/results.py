"""The results panel: a live table updated in place while a run streams, a status line, and the
scrollable history of finished runs."""

from __future__ import annotations

import math

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from pql_repl.api import Column, StatementResult
from pql_repl.records import replace
from pql_repl.repl.progress import status_text

BAR_WIDTH = 24
_EIGHTHS = " ▏▎▍▌▋▊▉"
COLUMNS = (("name", "selector"), ("value", "value"), ("ci", "± 95%"), ("bar", "distribution"))
#: Fixed widths: live updates do not make the table jitter as numbers grow.
WIDTHS = {"name": 28, "value": 20, "ci": 10, "bar": BAR_WIDTH}


def bar(fraction: float, width: int = BAR_WIDTH) -> str:
    """A horizontal bar of ``fraction`` (0..1) of ``width`` cells, in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[part] if part else "")).ljust(width)


def ci(result: StatementResult, stderr: float | None, percent: bool = False) -> str:
    """``± 1.96·stderr`` (the 95% half-width), or '' for exact results."""
    # An enumeration (finished or cut short) is not a sample: no margin.
    if result.exact or result.total_deals is not None or stderr is None:
        return ""
    half = 1.96 * stderr
    return f"± {half * 100:.2f}%" if percent else f"± {half:.4f}"


def format_value(value: float | str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else f"{value:.4f}"
    return str(value)


def result_rows(result: StatementResult) -> list[tuple[str, tuple[str, str, str, str]]]:
    """(row key, cells) for every selector, and one row per histogram bucket."""
    rows: list[tuple[str, tuple[str, str, str, str]]] = []
    for column in result.columns:
        rows.extend(_column_rows(result, column))
    return rows


def _column_rows(result: StatementResult, column: Column) -> list[tuple[str, tuple[str, str, str, str]]]:
    key = column.name
    if column.selector == "histogram":
        rows = [(key, (column.name, "", "", ""))]
        for b in column.buckets:
            # A bucket's share is a proportion: its standard error is sqrt(p(1-p)/n).
            stderr = math.sqrt(b.fraction * (1 - b.fraction) / result.accepted) if result.accepted else None
            cells = (
                f"  {b.label}",
                f"{b.fraction * 100:.2f}%",
                ci(result, stderr, percent=True),
                bar(b.fraction),
            )
            rows.append((f"{key}\x00{b.label}", cells))
        return rows
    if column.selector == "count":
        fraction = float(column.value) if isinstance(column.value, float | int) else 0.0
        count = f" ({int(column.count):,})" if column.count is not None else ""
        cells = (column.name, f"{fraction * 100:.2f}%{count}", ci(result, column.stderr, True), bar(fraction))
        return [(key, cells)]
    return [(key, (column.name, format_value(column.value), ci(result, column.stderr), ""))]


def result_table(result: StatementResult, timing: bool = True) -> Table:
    """A finished result as a rich table for the history."""
    table = Table(title=result.query.strip(), title_justify="left", expand=False, show_edge=False)
    for _, label in COLUMNS:
        table.add_column(label)
    for _, cells in result_rows(result):
        table.add_row(*cells)
    table.caption = status_text(result, timing)
    table.caption_justify = "left"
    return table


class ResultsPanel(Vertical):
    """Live table of the run in progress, its status line, and finished runs above it."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._row_keys: list[str] = []
        self.last: StatementResult | None = None
        self.finished: list[StatementResult] = []
        #: Show elapsed time and speed (off for reproducible screenshots).
        self.timing = True

    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="history")
        yield Static("ready", id="status")
        table: DataTable[str] = DataTable(id="live", cursor_type="row", zebra_stripes=True)
        for key, label in COLUMNS:
            table.add_column(label, key=key, width=WIDTHS[key])
        yield table

    @property
    def table(self) -> DataTable[str]:
        return self.query_one("#live", DataTable)

    def show_status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def start(self, query: str, selectors: list[str]) -> None:
        """A new statement starts: the previous one moves to the history, and the live table shows
        a row per selector at once, filled in by the first snapshot."""
        if self.last is not None:
            self.add_history(result_table(self.last, self.timing))
        table = self.table
        table.clear()
        for name in selectors:
            table.add_row(name, "…", "", "", key=name)
        self._row_keys = list(selectors)
        self.last = None
        self.show_status(f"running · {query.strip().splitlines()[0] if query.strip() else ''}")

    def update_result(self, result: StatementResult) -> None:
        """Show a snapshot: cells change in place; rows are rebuilt only when new ones appear."""
        self.last = result
        rows = result_rows(result)
        keys = [k for k, _ in rows]
        table = self.table
        with self.app.batch_update():
            if keys != self._row_keys:
                table.clear()
                for key, cells in rows:
                    table.add_row(*cells, key=key)
                self._row_keys = keys
            else:
                for key, cells in rows:
                    for (column_key, _), cell in zip(COLUMNS, cells, strict=True):
                        if table.get_cell(key, column_key) != cell:
                            table.update_cell(key, column_key, cell)
            self.show_status(status_text(result, self.timing))

    def finish(self, result: StatementResult) -> None:
        """The statement ended (done or cancelled); it stays in the live table until the next run."""
        self.update_result(result)
        self.finished.append(result)

    def cancel_unfinished(self) -> StatementResult | None:
        """The statement in the live table stops before its end because a new run replaces it:
        its last snapshot becomes a cancelled result, as if Escape had stopped it. That result,
        or None when the live table holds no unfinished statement."""
        last = self.last
        if last is None or last.done or last.cancelled:
            return None
        result = replace(last, cancelled=True)
        self.finish(result)
        return result

    def drop_unfinished(self) -> None:
        """The statement in the live table failed: its partial rows go, so that they are neither
        taken for a result nor moved to the history as one still running."""
        if self.last is None or not (self.last.done or self.last.cancelled):
            self.table.clear()
            self._row_keys = []
            self.last = None

    def add_history(self, renderable: Table | Text | str) -> None:
        """Add a finished result, a command's output or a range grid to the history."""
        history = self.query_one("#history", VerticalScroll)
        history.add_class("has-entries")
        history.mount(Static(renderable, classes="history-entry"))
        history.scroll_end(animate=False)
