"""The `.odds` screen (issue 19): HoldemHand's MultiOdds view of one hand, computed live by the
engine (its two statements streamed in a worker thread); Escape cancels the run and closes."""

from __future__ import annotations

from rich.markup import escape
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from pql_repl.errors import PqlCancelled, PqlError
from pql_repl.multi_odds import Odds, OddsRun, format_odds


class OddsScreen(ModalScreen[None]):
    """Win, tie, hand strength and potentials (ours and HoldemHand's) and both MultiOdds
    tables, updated as the run goes."""

    BINDINGS = [  # noqa: RUF012 - Textual reads the class attribute
        Binding("escape", "close", "Close (cancels the run)", id="odds.close"),
    ]

    def __init__(self, run: OddsRun) -> None:
        super().__init__()
        self.odds_run = run
        #: The latest snapshot shown (None before the first).
        self.latest: Odds | None = None
        self.finished = False

    def compose(self) -> ComposeResult:
        with Vertical(id="odds"):
            yield Static("starting…", id="odds-status")
            with VerticalScroll(id="odds-scroll"):
                yield Static("", id="odds-report")

    def on_mount(self) -> None:
        self.compute()

    @work(thread=True, exclusive=True, group="odds")
    def compute(self) -> None:
        try:
            for snap in self.odds_run:
                self.app.call_from_thread(self.show, snap)
            self.app.call_from_thread(self.finish, "done" if self.latest is None or self.latest.done else "")
        except PqlCancelled:
            self.app.call_from_thread(self.finish, "cancelled: showing what was computed")
        except PqlError as e:
            self.app.call_from_thread(self.finish, f"[red]{escape(str(e))}[/red]")

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
