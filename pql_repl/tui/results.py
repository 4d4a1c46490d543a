"""The results panel: a live table updated in place while a run streams, a status line, and the
scrollable history of finished runs. Tables fit the width they get: the value and its margin are
always whole, histogram bars shrink first, then the distribution column goes, and only then are
long selector names cut."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widget import AwaitMount, Widget
from textual.widgets import DataTable, Static

from pql_repl.api.numbers import Z95, bucket_stderr, estimate_parts, format_count
from pql_repl.api.results import Column, StatementResult
from pql_repl.api.sweeps import SweepResult
from pql_repl.base.records import replace
from pql_repl.session.progress import status_text
from pql_repl.tui.command_output import command_output
from pql_repl.tui.sweep_table import SweepTable

_EIGHTHS = " ▏▎▍▌▋▊▉"
COLUMNS = (("name", "selector"), ("value", "value"), ("ci", "± 95%"), ("bar", "distribution"))
#: Bars are at most this wide, and below the least width the distribution column goes.
BAR_WIDTH = 24
BAR_MIN = 6
CI_WIDTH = 10
VALUE_MIN = 12
NAME_MIN = 8

Cells = tuple[str, str, str, str]


def bar(fraction: float, width: int = BAR_WIDTH) -> str:
    """A horizontal bar of ``fraction`` (0..1) of ``width`` cells, in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[part] if part else "")).ljust(width)


def ci(result: StatementResult, stderr: float | None, percent: bool = False) -> str:
    """``± 1.96·stderr`` (the 95% half-width), or '' for exact results: a share's in percent
    to two decimals, an average's to two significant digits (``estimate_parts``, as the
    command's table and `pql --plain` show it)."""
    # A finished enumeration has no error; one so far or cut short has the engine's.
    if result.exact or stderr is None:
        return ""
    if percent:
        return f"± {Z95 * stderr * 100:.2f}%"
    parts = estimate_parts(0.0, stderr)
    return f"± {parts[1]}" if parts is not None else ""


def format_value(value: float | str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else f"{value:.4f}"
    return str(value)


def result_rows(result: StatementResult, bar_width: int = BAR_WIDTH) -> list[tuple[str, Cells]]:
    """(row key, cells) for every selector, and one row per histogram bucket."""
    rows: list[tuple[str, Cells]] = []
    for column in result.columns:
        rows.extend(_column_rows(result, column, bar_width))
    return rows


def _column_rows(result: StatementResult, column: Column, bar_width: int) -> list[tuple[str, Cells]]:
    key = column.name
    if column.selector == "histogram":
        rows: list[tuple[str, Cells]] = [(key, (column.name, "", "", ""))]
        for b in column.buckets:
            cells = (
                f"  {b.label}",
                f"{b.fraction * 100:.2f}%",
                ci(result, bucket_stderr(result, column, b), percent=True),
                bar(b.fraction, bar_width) if bar_width else "",
            )
            rows.append((f"{key}\x00{b.label}", cells))
        return rows
    if column.selector == "count":
        fraction = float(column.value) if isinstance(column.value, float | int) else 0.0
        count = f" ({format_count(column.count)})" if column.count is not None else ""
        shown = bar(fraction, bar_width) if bar_width else ""
        cells = (column.name, f"{fraction * 100:.2f}%{count}", ci(result, column.stderr, True), shown)
        return [(key, cells)]
    # An estimate's value to the decimals its margin supports (a chip EV ± 0.42: two).
    parts = None if result.exact else estimate_parts(column.value, column.stderr)
    value = format_value(column.value) if parts is None else parts[0]
    return [(key, (column.name, value, ci(result, column.stderr), ""))]


@dataclass(frozen=True)
class Layout:
    """Column widths of a result table; ``bar`` 0: no distribution column."""

    name: int
    value: int
    ci: int
    bar: int


def fit_columns(width: int, names: Iterable[str], values: Iterable[str], padding: int = 1) -> Layout:
    """The widths that fit ``width`` cells (each column also takes ``padding`` cells on each
    side) for rows with these ``names`` and ``values``: value and margin always whole, the names
    what they need, the bars what is left up to ``BAR_WIDTH``; with fewer than ``BAR_MIN`` cells
    left the distribution column goes, and only then are names cut (not below ``NAME_MIN``)."""
    name_need = max([len("selector"), *(len(n) for n in names)])
    value = max([VALUE_MIN, *(len(v) for v in values)])
    left = width - value - CI_WIDTH - 2 * padding * 3  # for the names, and the bars with padding
    bar_room = min(BAR_WIDTH, left - name_need - 2 * padding)
    if bar_room >= BAR_MIN:
        return Layout(name_need, value, CI_WIDTH, bar_room)
    return Layout(max(NAME_MIN, min(name_need, left)), value, CI_WIDTH, 0)


def layout_for(result: StatementResult, width: int, padding: int = 1) -> Layout:
    rows = result_rows(result, 0)
    return fit_columns(width, (c[0] for _, c in rows), (c[1] for _, c in rows), padding)


def result_table(result: StatementResult, timing: bool = True, width: int = 200) -> Table:
    """A finished result as a rich table for the history, fitted to ``width`` cells."""
    layout = layout_for(result, width)
    table = Table(title=result.query.strip(), title_justify="left", expand=False, show_edge=False)
    widths = (layout.name, layout.value, layout.ci, layout.bar)
    for (_, label), w in zip(COLUMNS, widths, strict=True):
        if w:
            table.add_column(label, width=w, no_wrap=True, overflow="ellipsis")
    for _, cells in result_rows(result, layout.bar):
        table.add_row(*(cells if layout.bar else cells[:3]))
    table.caption = status_text(result, timing)
    table.caption_justify = "left"
    return table


class FittedResult:
    """A finished result that lays itself out for the width it is drawn at (the terminal may be
    resized after it was added to the history). Its query and its status line take the whole
    width (a table's own title and caption would wrap at the table's width)."""

    def __init__(self, result: StatementResult, timing: bool = True) -> None:
        self.result = result
        self.timing = timing

    def table(self, width: int) -> Table:
        return result_table(self.result, self.timing, width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.table(options.max_width)
        title, caption = str(table.title or ""), str(table.caption or "")
        table.title = table.caption = None
        yield Group(Text(title, style="table.title"), table, Text(caption, style="table.caption"))


class LiveTable(DataTable[str]):
    """The running statement's table; tells the panel when it scrolls (to say what is hidden)."""

    # Rows, not columns, are what there is more of: Home and End go to the first and last row.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "scroll_top", "Top", show=False),
        Binding("end", "scroll_bottom", "Bottom", show=False),
    ]

    class ViewChanged(Message):
        """The rows in view changed: it scrolled or was resized."""

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.post_message(self.ViewChanged())

    def on_resize(self, _: events.Resize) -> None:
        self.post_message(self.ViewChanged())


class ResultsHistory(VerticalScroll):
    """Finished runs, command output and range grids, newest last; F6 focuses it to scroll."""

    can_focus = True

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.show_position()

    def on_resize(self, _: events.Resize) -> None:
        room = self.scrollable_content_region.height
        for table in self.query(SweepTable):
            table.fit(room)
        self.call_after_refresh(self.show_position)

    def show_position(self) -> None:
        """Say in the border whether there is more above or below the view."""
        above, below = round(self.scroll_y), round(self.max_scroll_y - self.scroll_y)
        marks = [
            f"↑ {above} {'line' if above == 1 else 'lines'} above" if above > 0 else "",
            f"↓ {below} below" if below > 0 else "",
        ]
        self.border_subtitle = " · ".join(m for m in marks if m)


class ResultsPanel(Vertical):
    """Live table of the run in progress, its status line, and finished runs above it."""

    class SweepDone(Message):
        """A sweep's last row is in its table (the history to export has grown)."""

    class ErrorShown(Message):
        """The status line now says what went wrong (a run or a command failed)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._row_keys: list[str] = []
        self._layout: Layout | None = None
        self.last: StatementResult | None = None
        self.finished: list[StatementResult] = []
        #: The selectors of the statement in the live table before its first snapshot.
        self._started: list[str] = []
        #: Show elapsed time and speed (off for reproducible screenshots).
        self.timing = True
        #: The history entry of the sweep being run, updated after each row.
        self._sweep: SweepTable | None = None
        #: Finished statements and sweeps' tables, in the order they ran (``exportable``).
        self._entries: list[StatementResult | SweepTable] = []
        #: The status line says what went wrong (``clear_error``).
        self.showing_error = False

    def compose(self) -> ComposeResult:
        history = ResultsHistory(id="history")
        history.border_title = "results · F6"
        yield history
        yield Static("ready", id="status")
        yield LiveTable(id="live", cursor_type="row", zebra_stripes=True)
        yield Static("", id="more")

    @property
    def table(self) -> LiveTable:
        return self.query_one("#live", LiveTable)

    @property
    def history(self) -> ResultsHistory:
        return self.query_one("#history", ResultsHistory)

    def show_status(self, text: str) -> None:
        """Say ``text`` (markup) on the status line; an error is said in red (``[red]…``)."""
        self.query_one("#status", Static).update(text)
        self.showing_error = text.startswith("[red]")
        if self.showing_error:
            self.post_message(self.ErrorShown())

    def clear_error(self) -> None:
        """What the status line says went wrong was fixed (the editor's text changed and checks
        clean): the error goes."""
        if self.showing_error:
            self.show_status("ready")

    # -- the live table -----------------------------------------------------------------------

    def start(self, query: str, selectors: list[str]) -> None:
        """A new statement starts: the previous one moves to the history, and the live table shows
        a row per selector at once, filled in by the first snapshot."""
        if self.last is not None:
            self.add_history(FittedResult(self.last, self.timing))
        self.remove_welcome()
        self.last = None
        self._started = list(selectors)
        self._fill()
        self.show_status(f"running · {query.strip().splitlines()[0] if query.strip() else ''}")

    def update_result(self, result: StatementResult) -> None:
        """Show a snapshot: cells change in place; the table is rebuilt only when rows appear or
        the columns must be laid out anew."""
        self.last = result
        with self.app.batch_update():
            self._fill()
            self.show_status(status_text(result, self.timing))

    def finish(self, result: StatementResult) -> None:
        """The statement ended (done or cancelled); it stays in the live table until the next run."""
        self.update_result(result)
        self.finished.append(result)
        self._entries.append(result)

    @property
    def exportable(self) -> list[StatementResult | SweepResult]:
        """What an export writes: every finished statement's result and every sweep's (as far
        as it ran), in the order they ran (``pql_repl.api.output.render_history``)."""
        return [e.result if isinstance(e, SweepTable) else e for e in self._entries]

    def _rows(self, bar_width: int) -> list[tuple[str, Cells]]:
        if self.last is not None:
            return result_rows(self.last, bar_width)
        return [(name, (name, "…", "", "")) for name in self._started]

    def _fill(self) -> None:
        table = self.table
        table.display = True
        # The scrollbar takes its cells whether it shows or not: the table never jitters.
        width = max(0, table.size.width - table.styles.scrollbar_size_vertical) or self.app.size.width - 2
        plain = self._rows(0)
        layout = fit_columns(width, (c[0] for _, c in plain), (c[1] for _, c in plain), table.cell_padding)
        if layout != self._layout:
            self._layout = layout
            table.clear(columns=True)
            self._row_keys = []
            widths = {"name": layout.name, "value": layout.value, "ci": layout.ci, "bar": layout.bar}
            for key, label in COLUMNS:
                if widths[key]:
                    table.add_column(label, key=key, width=widths[key])
        rows = self._rows(layout.bar)
        keys = [k for k, _ in rows]
        columns = [key for key, _ in COLUMNS if key != "bar" or layout.bar]
        if keys != self._row_keys:
            table.clear()
            for key, cells in rows:
                table.add_row(*cells[: len(columns)], key=key)
            self._row_keys = keys
        else:
            for key, cells in rows:
                for column_key, cell in zip(columns, cells, strict=False):
                    if table.get_cell(key, column_key) != cell:
                        table.update_cell(key, column_key, cell)
        self.call_after_refresh(self.show_more)

    def on_resize(self, _: events.Resize) -> None:
        if self._row_keys:
            self._fill()

    def on_live_table_view_changed(self, _: LiveTable.ViewChanged) -> None:
        self.show_more()

    def show_more(self) -> None:
        """Under a live table taller than its room: how many rows are out of view below."""
        table = self.table
        in_view = max(0, table.scrollable_content_region.height - 1)  # the header row stays
        hidden = max(0, table.row_count - round(table.scroll_y) - in_view)
        more = self.query_one("#more", Static)
        more.display = hidden > 0
        noun = "row" if hidden == 1 else "rows"
        more.update(f"▼ {hidden} more {noun} · F6 then ↓ scrolls · F10 full screen" if hidden else "")

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
        """A statement failed: the live table shows nothing the error could be taken to be
        about. A statement's partial rows go (neither a result nor one still running in the
        history); a finished result of an earlier statement moves to the history, captioned
        with its own status, so that the error is not said over its table."""
        last = self.last
        if last is not None and (last.done or last.cancelled):
            self.add_history(FittedResult(last, self.timing))
        self._clear_live()

    def _clear_live(self) -> None:
        self.table.clear()
        self.table.display = False  # not an empty header: the room goes to the history
        self._row_keys = []
        self._started = []
        self.last = None
        self.show_more()

    # -- sweeps ---------------------------------------------------------------------------------

    def show_sweep(self, result: SweepResult, seconds_left: float) -> None:
        """A sweep's table so far, in one history entry that grows row by row."""
        if self._sweep is None or self._sweep.result.total != result.total or not self._sweep.is_attached:
            if self.last is not None:
                # The statement before the sweep goes to the history first, as before a
                # statement: the history keeps the order the runs happened in.
                self.add_history(FittedResult(self.last, self.timing))
                self._clear_live()
            self.remove_welcome()
            self._sweep = SweepTable(result)
            self._entries.append(self._sweep)
            history = self.history
            history.add_class("has-entries")
            self.add_class("has-history")
            history.mount(self._sweep)
            history.anchor()
        else:
            self._sweep.show(result)
        self.call_after_refresh(self.history.show_position)
        left = f", about {seconds_left:.0f} s left" if not result.done else ""
        self.show_status(f"sweep · {len(result.rows)} of {result.total} rows{left}")
        if result.done:
            self._sweep = None
            self.post_message(self.SweepDone())

    # -- the history ----------------------------------------------------------------------------

    def add_history(self, renderable: FittedResult | Table | Text | str) -> None:
        """Add a finished result, a command's output or a range grid to the history."""
        self.remove_welcome()
        history = self.history
        history.add_class("has-entries")
        self.add_class("has-history")
        # A command's output is text, not markup (`.help`'s `[BOARD]`), its tables kept in line.
        shown = command_output(renderable) if isinstance(renderable, str) else renderable
        history.mount(Static(shown, classes="history-entry"))
        # The newest shows, and stays in view as the entry gets its height (until the user
        # scrolls away).
        history.anchor()
        self.call_after_refresh(history.show_position)

    def show_welcome(self, welcome: Widget) -> AwaitMount:
        """The start screen, in the history's place until the first run or command."""
        history = self.history
        history.add_class("has-entries")
        self.add_class("has-history")
        return history.mount(welcome)

    def remove_welcome(self) -> None:
        history = self.history
        for welcome in history.query(".welcome"):
            welcome.remove()
        if not history.query(".history-entry"):
            history.remove_class("has-entries")
            self.remove_class("has-history")

    def clear(self) -> None:
        """Ctrl+L: the results on screen go (a sweep or a statement still running stays); what
        Ctrl+S and `.output` write still holds every result of the session."""
        history = self.history
        for child in list(history.children):
            if child is not self._sweep:
                child.remove()
        if self._sweep is None:
            history.remove_class("has-entries")
            self.remove_class("has-history")
        last = self.last
        if (last is None and not self._started) or (last is not None and (last.done or last.cancelled)):
            self.table.clear()
            self._row_keys = []
            self._started = []
            self.last = None
            self.show_more()
            self.show_status("cleared · Ctrl+S still exports every result")
        self.call_after_refresh(history.show_position)
