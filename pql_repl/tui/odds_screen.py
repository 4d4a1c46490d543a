"""The `.odds` screens (issue 19), computed live by the engine in a worker thread: HoldemHand's
odds view (a table row per number of random opponents, filled row by row; Escape cancels the run,
keeping the rows done, and Escape again closes), and the MultiOdds report of one count or of
given ranges (Escape cancels the run and closes)."""

from __future__ import annotations

from typing import Generic, TypeVar

from rich.markup import escape
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from pql_repl.api.multi_odds import (
    TABLE_COLUMNS,
    TABLE_LEGEND,
    Odds,
    OddsRun,
    OddsTable,
    OddsTableRun,
    format_odds,
    table_cells,
    table_title,
)
from pql_repl.base.errors import PqlCancelled, PqlError

Run = TypeVar("Run", OddsRun, OddsTableRun)
Snap = TypeVar("Snap", Odds, OddsTable)


class _LiveOdds(ModalScreen[None], Generic[Run, Snap]):
    """A screen fed by an odds run in a worker thread: ``show`` gets each snapshot, ``finish``
    the words that end it (done, cancelled, or the error)."""

    #: What the status line says when the run is cancelled.
    CANCELLED = "cancelled"

    def __init__(self, run: Run) -> None:
        super().__init__()
        self.odds_run: Run = run
        #: The latest snapshot shown (None before the first).
        self.latest: Snap | None = None
        self.finished = False

    @work(thread=True, exclusive=True, group="odds")
    def compute(self) -> None:
        try:
            for snap in self.odds_run:
                self.app.call_from_thread(self.show, snap)
            self.app.call_from_thread(self.finish, self.done_words())
        except PqlCancelled:
            self.app.call_from_thread(self.finish, self.CANCELLED)
        except PqlError as e:
            self.app.call_from_thread(self.finish, f"[red]{escape(str(e))}[/red]")

    def done_words(self) -> str:
        return "done"

    def show(self, snap: Snap) -> None:
        raise NotImplementedError

    def finish(self, message: str) -> None:
        raise NotImplementedError


class OddsScreen(_LiveOdds[OddsRun, Odds]):
    """Win, tie, hand strength and potentials (ours and HoldemHand's) and both MultiOdds
    tables, updated as the run goes."""

    BINDINGS = [  # noqa: RUF012 - Textual reads the class attribute
        Binding("escape", "close", "Close (cancels the run)", id="odds.close"),
    ]
    CANCELLED = "cancelled: showing what was computed"

    def compose(self) -> ComposeResult:
        with Vertical(id="odds"):
            yield Static("starting…", id="odds-status")
            with VerticalScroll(id="odds-scroll"):
                yield Static("", id="odds-report")

    def on_mount(self) -> None:
        self.compute()

    def done_words(self) -> str:
        return "done" if self.latest is None or self.latest.done else ""

    def show(self, snap: Odds) -> None:
        self.latest = snap
        self.query_one("#odds-report", Static).update(escape(format_odds(snap)))
        state = "done" if snap.done else f"running: {100 * snap.progress:.0f}%"
        self.query_one("#odds-status", Static).update(f"{state} — Escape closes")

    def finish(self, message: str) -> None:
        self.finished = True
        if message:
            self.query_one("#odds-status", Static).update(f"{message} — Escape closes")

    def action_close(self) -> None:
        self.odds_run.cancel()
        self.dismiss()


class OddsTableScreen(_LiveOdds[OddsTableRun, OddsTable]):
    """HoldemHand's odds view: win, tie, equity, hand strength and potentials (ours and
    HoldemHand's) against each number of random opponents, a row each, filled as the run goes."""

    BINDINGS = [  # noqa: RUF012 - Textual reads the class attribute
        Binding("escape", "close", "Cancel / close", id="odds.close"),
    ]
    CANCELLED = "cancelled: the rows done are shown"

    def compose(self) -> ComposeResult:
        with Vertical(id="odds"):
            yield Static(escape(table_title(self.odds_run.hand, self.odds_run.board, self.odds_run.counts)))
            yield Static("starting…", id="odds-status")
            table: DataTable[str] = DataTable(id="odds-table", cursor_type="row", zebra_stripes=True)
            yield table
            yield Static(escape(TABLE_LEGEND), id="odds-legend")

    def on_mount(self) -> None:
        table = self.query_one("#odds-table", DataTable)
        for name, _ in TABLE_COLUMNS:
            table.add_column(name, key=name)
        self.compute()

    def show(self, snap: OddsTable) -> None:
        """The snapshot's rows: the finished ones as they are, the running one updated."""
        self.latest = snap
        table = self.query_one("#odds-table", DataTable)
        for odds in snap.rows:
            key = str(len(odds.opponents))
            cells = table_cells(odds)
            if key in table.rows:
                for (name, _), cell in zip(TABLE_COLUMNS, cells, strict=True):
                    table.update_cell(key, name, cell)
            else:
                table.add_row(*cells, key=key)
        self.query_one("#odds-status", Static).update(
            f"running: {100 * snap.progress:.0f}% — Escape cancels"
            if not snap.done
            else "done — Escape closes"
        )

    def finish(self, message: str) -> None:
        self.finished = True
        table = self.query_one("#odds-table", DataTable)
        latest = self.latest
        if latest is not None and not latest.rows[-1].done:
            # The row cut short by a cancel: not a result.
            table.remove_row(str(len(latest.rows[-1].opponents)))
        self.query_one("#odds-status", Static).update(f"{message} — Escape closes")

    def action_close(self) -> None:
        if self.finished:
            self.dismiss()
        else:
            self.odds_run.cancel()
