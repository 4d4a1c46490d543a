"""The full-screen pql app: editor on top, live results below, help on F1."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.markup import escape
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.command import Provider
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from pql_repl.api import Query, StatementResult
from pql_repl.errors import PqlCancelled, PqlError
from pql_repl.files import write_text_atomic
from pql_repl.history import History, load_buffer, save_buffer, take_warnings
from pql_repl.output import render
from pql_repl.session import (
    CommandResult,
    Session,
    SessionError,
    Statement,
    read_script,
    split_statements,
)
from pql_repl.tui.editor import CompletionList, QueryEditor, pql_theme
from pql_repl.tui.palette import PqlCommands
from pql_repl.tui.range_grid import grid_for_command
from pql_repl.tui.results import ResultsPanel
from pql_repl.tui.screens import HelpScreen, HistorySearch

# How often the worker hands a snapshot to the UI: several times a second.
SNAPSHOT_INTERVAL = 0.1
CHECK_DELAY = 0.25


class RunProgress(Message):
    """A snapshot of the running statement, posted from the worker thread."""

    def __init__(self, run_id: int, result: StatementResult) -> None:
        super().__init__()
        self.run_id = run_id
        self.result = result

    def can_replace(self, message: Message) -> bool:
        # A backlog of partial snapshots collapses to the newest; a final one is never dropped.
        return (
            isinstance(message, RunProgress)
            and message.run_id == self.run_id
            and message.result.index == self.result.index
            and not message.result.done
        )


class RunStarted(Message):
    """A statement starts: its text and its selectors' names (rows to show before any snapshot)."""

    def __init__(self, run_id: int, query: str, selectors: list[str]) -> None:
        super().__init__()
        self.run_id = run_id
        self.query = query
        self.selectors = selectors


class RunEnded(Message):
    """The run is over: finished, cancelled (``cancelled``) or failed (``error``)."""

    def __init__(self, run_id: int, cancelled: bool = False, error: str | None = None) -> None:
        super().__init__()
        self.run_id = run_id
        self.cancelled = cancelled
        self.error = error


class CheckDone(Message):
    """The checker's verdict on ``text`` (None: no error)."""

    def __init__(self, text: str, error: PqlError | None) -> None:
        super().__init__()
        self.text = text
        self.error = error


@dataclass(frozen=True)
class PendingRun:
    """A statement to run, the text it comes from (for error positions) and its run options."""

    statement: Statement
    source: str
    options: dict[str, Any]


def first_error(session: Session, text: str) -> PqlError | None:
    """The first error the checker finds in the statements of ``text``."""
    for item in split_statements(text):
        if isinstance(item, Statement):
            try:
                session.prepare(item, text)
            except PqlError as e:
                return e
    return None


class PqlApp(App[None]):
    """pql's full-screen REPL."""

    TITLE = "pql"
    CSS_PATH = "app.tcss"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = App.COMMANDS | {PqlCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f5,ctrl+enter", "run", "Run", id="run"),
        Binding("escape", "cancel", "Cancel", id="cancel"),
        Binding("ctrl+c", "cancel", "Cancel", show=False, priority=True, id="cancel.ctrl_c"),
        Binding("f1", "help", "Help", id="help"),
        Binding("ctrl+r", "history_search", "History", id="history_search"),
        Binding("ctrl+s", "export", "Export", id="export"),
        Binding("ctrl+q", "quit", "Quit", id="quit"),
    ]

    #: A run is in progress; the footer offers Cancel only then (``check_action``).
    running: reactive[bool] = reactive(False, repaint=False, bindings=True)

    def __init__(self, session: Session | None = None, history: History | None = None) -> None:
        super().__init__()
        self.session = session or Session.from_config()
        self.history = history or History(size=self.session.settings.history_size)
        self._run_id = 0
        self._query: Query | None = None
        self._check_timer: Timer | None = None
        self.session.themes = tuple(self.available_themes)
        if self.session.settings.theme and self.session.settings.theme in self.available_themes:
            self.theme = self.session.settings.theme

    def compose(self) -> ComposeResult:
        editor = QueryEditor(self.history, load_buffer(), id="editor")
        editor.register_theme(pql_theme())
        editor.theme = pql_theme().name
        yield editor
        yield Static("", id="error")
        yield ResultsPanel(id="results")
        yield CompletionList(id="completion")
        yield Footer()

    def on_mount(self) -> None:
        editor = self.editor
        completion = self.query_one(CompletionList)
        completion.display = False
        editor.attach_completion(completion)
        editor.move_cursor(editor.document.end)
        editor.focus()
        for warning in take_warnings():  # damaged data moved aside: say so, then carry on
            self.notify(warning, title="pql: warning", severity="warning", timeout=30, markup=False)
        self.check_now()

    @property
    def editor(self) -> QueryEditor:
        return self.query_one("#editor", QueryEditor)

    @property
    def results(self) -> ResultsPanel:
        return self.query_one("#results", ResultsPanel)

    # -- checking as you type ---------------------------------------------------------------

    def on_query_editor_checked(self, _: QueryEditor.Checked) -> None:
        if self._check_timer is not None:
            self._check_timer.stop()
        self._check_timer = self.set_timer(CHECK_DELAY, self.check_now)

    def check_now(self) -> None:
        """Check the editor's text in the background (reading a big range takes a moment)."""
        if not self.is_running or not self.query("#editor"):
            return  # the timer fired while the app is closing
        text = self.editor.text
        save_buffer(text)  # the buffer survives a crash or a killed terminal too
        self._check_worker(text)

    @work(thread=True, exclusive=True, group="check")
    def _check_worker(self, text: str) -> None:
        self.post_message(CheckDone(text, first_error(self.session, text)))

    def on_check_done(self, message: CheckDone) -> None:
        if self.query("#editor") and message.text == self.editor.text:
            self.show_error(message.error)

    def show_error(self, error: PqlError | None) -> None:
        """Mark the checker's first error in place (before any run) and explain it below."""
        message = self.query_one("#error", Static)
        if error is None or error.line is None or error.col is None:
            self.editor.mark_error(None)
            message.update(f"[red]{_escape(str(error))}[/red]" if error else "")
            return
        length = (error.span[1] - error.span[0]) if error.span else 1
        self.editor.mark_error((error.line - 1, error.col - 1, max(1, length)))
        hint = f" — {error.hint}" if error.hint else ""
        message.update(f"[red]{error.line}:{error.col} {_escape(error.message)}{_escape(hint)}[/red]")

    # -- running ----------------------------------------------------------------------------

    def on_query_editor_run_requested(self, _: QueryEditor.RunRequested) -> None:
        self.action_run()

    def action_run(self) -> None:
        """Run the editor's statements and dot-commands in order (a new run replaces the old)."""
        self.editor.hide_completions()
        text = self.editor.text
        if not text.strip():
            return
        self.history.append(text)
        self.run_text(text)

    def run_text(self, text: str) -> None:
        """Dot-commands apply at once, in order; each statement runs with the settings in force
        where it stands, one after the other in a worker."""
        runs: list[PendingRun] = []
        if not self._collect(text, runs) or not runs:
            return
        # A run being replaced ends as Escape would end it: what it computed is kept, in the
        # history and in exports, captioned as cancelled.
        if self.running and self.results.cancel_unfinished() is not None:
            self._follow_output()
        self.cancel_run()
        self._run_id += 1
        self.running = True
        self.results.show_status("checking…")
        self._run_worker(self._run_id, runs)

    def _collect(self, text: str, runs: list[PendingRun], depth: int = 0) -> bool:
        """Apply the dot-commands of ``text`` (and of the scripts it `.read`s, ``depth`` deep)
        and gather its statements into ``runs``; False when a command failed or quit."""
        for item in split_statements(text):
            if isinstance(item, Statement):
                runs.append(PendingRun(item, text, self.session.run_options()))
                continue
            result = self.run_command(item.text)
            if result is None:
                return False
            if result.read is not None:
                try:
                    script = read_script(result.read, depth)
                except SessionError as e:
                    self.results.show_status(f"[red]{_escape(str(e))}[/red]")
                    return False
                if not self._collect(script, runs, depth + 1):
                    return False
        return True

    def run_command(self, line: str) -> CommandResult | None:
        """A dot-command from the editor; None when it failed or quit."""
        try:
            result = self.session.handle(line)
        except (SessionError, PqlError) as e:
            self.results.show_status(f"[red]{_escape(str(e))}[/red]")
            return None
        if result.quit:
            self.leave()
            return None
        if "theme" in result.changed and self.session.settings.theme:
            self.theme = self.session.settings.theme  # one of ours: `.theme` checked it
        if "output" in result.changed and self.session.settings.output and self.results.finished:
            self.action_export()
        if result.output:
            self.results.add_history(result.output)
        if line.strip().lower().startswith(".range"):
            try:
                grid = grid_for_command(line)
            except PqlError:
                grid = None  # the session already said what is wrong
            if grid is not None:
                self.results.add_history(grid)
        self.results.show_status(result.note or line)
        return result

    @work(thread=True, exclusive=True, group="run")
    def _run_worker(self, run_id: int, runs: list[PendingRun]) -> None:
        try:
            self._run_statements(run_id, runs)
        except Exception as e:  # the UI must hear that the run is over, whatever happened
            self.post_message(RunEnded(run_id, error=f"internal error: {e}"))

    def _run_statements(self, run_id: int, runs: list[PendingRun]) -> None:
        """The worker's body: each statement in turn, its snapshots posted to the UI."""
        worker = get_current_worker()
        for run in runs:
            try:
                query = self.session.prepare(run.statement, run.source)
            except PqlError as e:
                self.post_message(CheckDone(run.source, e))  # marked if the editor still holds it
                self.post_message(RunEnded(run_id, error=str(e)))
                return
            if worker.is_cancelled:  # cancelled between two statements
                self.post_message(RunEnded(run_id, cancelled=True))
                return
            self._query = query
            self.post_message(RunStarted(run_id, run.statement.text, query.statements[0].selectors))
            try:
                for snapshot in query.stream(batch=SNAPSHOT_INTERVAL, **run.options):
                    if worker.is_cancelled:
                        query.cancel()
                    self.post_message(RunProgress(run_id, snapshot))
            except PqlCancelled:
                self.post_message(RunEnded(run_id, cancelled=True))
                return
            except PqlError as e:
                self.post_message(RunEnded(run_id, error=str(e)))
                return
        self.post_message(RunEnded(run_id))

    def on_run_started(self, message: RunStarted) -> None:
        if message.run_id == self._run_id:
            self.results.start(message.query, message.selectors)

    def on_run_progress(self, message: RunProgress) -> None:
        if message.run_id != self._run_id:
            return
        if message.result.done or message.result.cancelled:
            self.results.finish(message.result)
            self._follow_output()
        else:
            self.results.update_result(message.result)

    def _follow_output(self) -> None:
        """A statement finished: while `.output FILE` is in force, the file follows."""
        if self.session.settings.output:
            self.action_export(quiet=True)

    def on_run_ended(self, message: RunEnded) -> None:
        if message.run_id != self._run_id:
            return
        self.running = False
        self._query = None
        if message.error:
            # A failed statement has no result (the CLI prints none either): its partial rows go.
            self.results.drop_unfinished()
            self.results.show_status(f"[red]error: {_escape(message.error)}[/red]")

    def cancel_run(self) -> None:
        query = self._query
        if query is not None:
            query.cancel()
        self.workers.cancel_group(self, "run")

    def action_cancel(self) -> None:
        """Escape / Ctrl+C: stop the run, keeping what was computed."""
        if self.editor.completing:
            self.editor.hide_completions()
            return
        if self.running:
            self.cancel_run()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Ctrl+C cancels only while running or completing; otherwise the editor copies.
        if action != "cancel":
            return True
        return self.running or (bool(self.query("#editor")) and self.editor.completing)

    # -- help, history, export ----------------------------------------------------------------

    def key_bindings(self) -> list[tuple[str, str]]:
        """(keys, what they do) for the help screen: one row per action, keys as people write them."""
        keys: dict[str, list[str]] = {}
        described: dict[str, str] = {}
        for b in self._bindings_list():
            if b.description:
                keys.setdefault(b.action, []).extend(_readable_key(k) for k in b.key.split(","))
                described.setdefault(b.action, b.description)
        return [
            *((", ".join(names), described[action]) for action, names in keys.items()),
            ("Enter after ;", "Run"),
            ("Up, Down", "History, from the first/last screen line"),
            ("Tab, Ctrl+Space", "Complete (Tab or Enter accepts)"),
            ("Ctrl+P", "Command palette"),
        ]

    def _bindings_list(self) -> list[Binding]:
        return [b for b in self.BINDINGS if isinstance(b, Binding)]

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.key_bindings()))

    def action_history_search(self) -> None:
        def chosen(entry: str | None) -> None:
            if entry:
                self.editor.load_text(entry)
                self.editor.move_cursor(self.editor.document.end)

        self.push_screen(HistorySearch(self.history.search("")), chosen)

    def action_export(self, quiet: bool = False) -> None:
        """Write the finished results to ``.output FILE`` (CSV or JSON by extension or ``.format``)."""
        results = self.results.finished
        if not results:
            self.notify("nothing to export yet", severity="warning")
            return
        path = Path(self.session.settings.output or f"pql-results.{_export_format(self.session)}")
        try:
            write_text_atomic(path, render(results, _export_format(self.session, path)))
        except OSError as e:
            self.notify(f"cannot write {path}: {e.strerror}", severity="error")
            return
        if not quiet:
            self.notify(f"wrote {len(results)} result(s) to {path}")

    async def action_quit(self) -> None:
        self.leave()

    def leave(self) -> None:
        """Quit, keeping the editor's text for the next session."""
        save_buffer(self.editor.text)
        self.cancel_run()
        self.exit()

    def on_unmount(self) -> None:
        if self._check_timer is not None:
            self._check_timer.stop()
        self.cancel_run()


def _export_format(session: Session, path: Path | None = None) -> str:
    if path is not None and path.suffix.lower() in (".csv", ".json"):
        return path.suffix.lower()[1:]
    return "csv" if session.settings.format == "csv" else "json"


def _readable_key(key: str) -> str:
    """``ctrl+enter`` -> ``Ctrl+Enter``, ``f5`` -> ``F5``."""
    return "+".join(
        p.upper() if len(p) == 1 or re.fullmatch(r"f\d+", p) else p.capitalize() for p in key.split("+")
    )


def _escape(text: str) -> str:
    return escape(text)
