"""The full-screen pql app: editor on top, live results below, help on F1.

Keys: F5 runs the editor, F4 (Ctrl+Enter) the statement at the cursor or the selection; F6 focuses
the results (F2 or Escape comes back), F10 shows them full screen; Ctrl+S exports them. F2 in the
editor opens the range explorer on the player at the cursor (``tui/explorer.py``)."""

from __future__ import annotations

import re
import threading
import time
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
from textual.widget import Widget
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from pql_repl.api.catalogue import game_streets
from pql_repl.api.exploration import hand_classes
from pql_repl.api.output import render
from pql_repl.api.results import DEFAULT_TRIALS, StatementResult
from pql_repl.api.run import Query
from pql_repl.api.sweeps import SweepResult, is_sweep
from pql_repl.api.sweeps import check as check_sweep
from pql_repl.api.sweeps import parse as parse_sweep
from pql_repl.api.sweeps import stream as stream_sweep
from pql_repl.base.errors import ClusterError, PqlCancelled, PqlError
from pql_repl.base.records import replace
from pql_repl.files.history import History, load_buffer, save_buffer, take_warnings
from pql_repl.files.storage import write_text_atomic
from pql_repl.session.from_clause import clause_at, from_clauses, player_at
from pql_repl.session.session import CommandResult, OddsRequest, Session
from pql_repl.session.settings import SessionError
from pql_repl.session.statements import Statement, read_script, split_statements
from pql_repl.tui.editor import CompletionList, QueryEditor, pql_theme
from pql_repl.tui.explorer import ExplorerClosed, ExplorerPanel, RangeEdited
from pql_repl.tui.palette import PqlCommands
from pql_repl.tui.range_grid import grid_for_command
from pql_repl.tui.results import FittedResult, ResultsPanel
from pql_repl.tui.screens import ExportDialog, HelpScreen, HistorySearch, export_format
from pql_repl.tui.stud_explorer import StudExplorer
from pql_repl.tui.sweep_table import SweepTable
from pql_repl.tui.term_explorer import TermExplorer
from pql_repl.tui.welcome import EXAMPLES, ExampleList, Welcome

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


class SweepUpdate(Message):
    """A sweep's table after another row, posted from the worker thread."""

    def __init__(self, run_id: int, result: SweepResult, seconds_left: float) -> None:
        super().__init__()
        self.run_id = run_id
        self.result = result
        self.seconds_left = seconds_left


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
    #: The editor text the statement's error positions refer to.
    marks: str


class PqlApp(App[None]):
    """pql's full-screen REPL."""

    TITLE = "pql"
    CSS_PATH = "app.tcss"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = App.COMMANDS | {PqlCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f5", "run", "Run", id="run"),
        Binding("f4,ctrl+enter,ctrl+j", "run_statement", "Stmt", id="run_statement"),
        Binding("escape", "cancel", "Cancel", id="cancel"),
        Binding("escape", "leave_results", "Editor", show=False, id="leave_results"),
        Binding("ctrl+c", "cancel", "Cancel", show=False, priority=True, id="cancel.ctrl_c"),
        Binding("f1", "help", "Help", id="help"),
        # Priority: the editor binds F6 and F7 (select line, select all) itself.
        Binding("f6", "focus_results", "Results", priority=True, id="focus_results"),
        # F2: in the editor, explore the range at the cursor; elsewhere, back to the editor.
        Binding("f2", "explore", "Explore", priority=True, id="explore"),
        Binding("f10", "full_screen", "Full", priority=True, id="full_screen"),
        Binding("ctrl+r", "history_search", "History", show=False, id="history_search"),
        Binding("ctrl+s", "export", "Export", id="export"),
        Binding("f7", "chart", "Chart", show=False, priority=True, id="chart"),
        Binding("ctrl+q", "quit", "Quit", id="quit"),
    ]

    #: A run is in progress; the footer offers Cancel only then (``check_action``).
    running: reactive[bool] = reactive(False, repaint=False, bindings=True)

    def __init__(self, session: Session | None = None, history: History | None = None) -> None:
        super().__init__()
        self.session = session or Session.from_config()
        self.session.interactive = True
        self.history = history or History(size=self.session.settings.history_size)
        self._run_id = 0
        #: `.plot`: open the chart when the run it started ends, titled so (None: no chart).
        self._chart_when_done: str | None = None
        self._query: Query | None = None
        self._check_timer: Timer | None = None
        #: The editor's text, kept as it changes, to be saved when the app ends.
        self._buffer = load_buffer()
        #: Saves of the buffer happen in the checker's threads: the newest text must win.
        self._buffer_lock = threading.Lock()
        self._buffer_saves = 0
        self._buffer_saved = 0
        self.session.themes = tuple(self.available_themes)
        if self.session.settings.theme and self.session.settings.theme in self.available_themes:
            self.theme = self.session.settings.theme

    def compose(self) -> ComposeResult:
        editor = QueryEditor(self.history, self._buffer, id="editor")
        editor.register_theme(pql_theme())
        editor.theme = pql_theme().name
        yield editor
        yield Static("", id="error")
        yield ResultsPanel(id="results")
        seed, threads = self.session.settings.seed or 0, self.session.settings.threads
        yield ExplorerPanel(
            seed=seed, threads=threads, observations=lambda: self.session.observations, id="explorer"
        )
        yield TermExplorer(seed=seed, threads=threads, id="terms")
        yield StudExplorer(seed=seed, id="stud")
        yield CompletionList(id="completion")
        yield Footer(compact=True, show_command_palette=False)

    async def on_mount(self) -> None:
        editor = self.editor
        completion = self.query_one(CompletionList)
        completion.display = False
        editor.attach_completion(completion)
        editor.move_cursor(editor.document.end)
        await self.results.show_welcome(Welcome())
        # While the start screen shows, 1, 2 or 3 typed in an empty editor runs an example (no
        # PQL starts with a digit).
        editor.examples = len(EXAMPLES)
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
        self._buffer = self.editor.text
        # The explorers follow the editor (they are mounted after it: none yet at the start).
        for explorer in [*self.query(ExplorerPanel), *self.query(TermExplorer), *self.query(StudExplorer)]:
            if explorer.display:
                explorer.sync(self.editor.text)
        if self._check_timer is not None:
            self._check_timer.stop()
        self._check_timer = self.set_timer(CHECK_DELAY, self.check_now)

    def check_now(self) -> None:
        """Check the editor's text in the background (reading a big range takes a moment)."""
        if not self.is_running or not self.query("#editor"):
            return  # the timer fired while the app is closing
        text = self.editor.text
        self._buffer_saves += 1
        self._check_worker(text, self._buffer_saves)

    @work(thread=True, exclusive=True, group="check")
    def _check_worker(self, text: str, save: int) -> None:
        self._save_buffer(text, save)  # the buffer survives a crash or a killed terminal too
        self.post_message(CheckDone(text, self.session.first_error(text)))

    def _save_buffer(self, text: str, save: int) -> None:
        """Keep ``text`` as the buffer unless a newer one is kept already (the disk's fsync
        takes milliseconds: off the thread that draws)."""
        with self._buffer_lock:
            if save > self._buffer_saved:
                save_buffer(text)
                self._buffer_saved = save

    def on_check_done(self, message: CheckDone) -> None:
        # A check may end while the app closes, its widgets already gone.
        if self.query("#editor") and self.query("#error") and message.text == self.editor.text:
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

    def action_run_statement(self) -> None:
        """Run the selection, or else the statement (or dot-command line) at the cursor, with the
        settings in force now. Its errors are marked where it stands in the editor."""
        editor = self.editor
        editor.hide_completions()
        text = editor.text
        selection = editor.selection
        if selection.start != selection.end:
            start, end = sorted((editor.offset_of(selection.start), editor.offset_of(selection.end)))
        else:
            found = statement_at(text, editor.cursor_offset)
            if found is None:
                return
            start, end = found
        if not text[start:end].strip():
            return
        self.history.append(text[start:end])
        self.run_text(only(text, start, end), marks=text)

    def run_example(self, index: int) -> None:
        """Put example ``index`` of the start screen in the editor and run it."""
        self.editor.examples = 0  # the start screen goes
        self.editor.load_text(EXAMPLES[index])
        self.editor.move_cursor(self.editor.document.end)
        self.editor.focus()
        self.action_run()

    def on_example_list_chosen(self, message: ExampleList.Chosen) -> None:
        self.run_example(message.index)

    def on_query_editor_example_chosen(self, message: QueryEditor.ExampleChosen) -> None:
        self.run_example(message.index)

    def run_text(self, text: str, marks: str | None = None, options: dict[str, Any] | None = None) -> None:
        """Dot-commands apply at once, in order; each statement runs with the settings in force
        where it stands (``options`` override them), one after the other in a worker. An error
        found while running is marked in the editor when it still holds ``marks`` (default
        ``text``)."""
        runs: list[PendingRun] = []
        if not self._collect(text, runs, marks=marks or text) or not runs:
            return
        if options:
            runs = [PendingRun(r.statement, r.source, {**r.options, **options}, r.marks) for r in runs]
        # A run being replaced ends as Escape would end it: what it computed is kept, in the
        # history and in exports, captioned as cancelled.
        if self.running and self.results.cancel_unfinished() is not None:
            self._follow_output()
        self.cancel_run()
        self._run_id += 1
        self.running = True
        self.results.show_status("checking…")
        self._run_worker(self._run_id, runs)

    def _collect(self, text: str, runs: list[PendingRun], depth: int = 0, marks: str = "") -> bool:
        """Apply the dot-commands of ``text`` (and of the scripts it `.read`s, ``depth`` deep)
        and gather its statements into ``runs``; False when a command failed or quit."""
        for item in split_statements(text):
            if isinstance(item, Statement):
                runs.append(PendingRun(item, text, self.session.run_options(), marks or text))
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
        if self.explorer.display:
            self.explorer.sync(self.editor.text)  # `.observe` reweights the range it may show
        if "theme" in result.changed and self.session.settings.theme:
            self.theme = self.session.settings.theme  # one of ours: `.theme` checked it
        if "output" in result.changed and self.session.settings.output and self.results.finished:
            self._write_output(quiet=False)
        if result.output:
            self.results.add_history(result.output)
        if result.explore:
            self.open_explorer(result.explore)
            return result
        if result.odds is not None:
            self.open_odds(result.odds)
            return result
        if result.plot is not None:
            self.plot_equity(*result.plot)
            return result
        if line.strip().lower().startswith(".range"):
            try:
                grid = grid_for_command(line)
            except PqlError:
                grid = None  # the session already said what is wrong
            if grid is not None:
                self.results.add_history(grid)
            if result.note is None:
                self.results.show_status(_escape(line) + "  (F2 on the line explores the range)")
                return result
        note = result.note or line
        if "editing_mode" in result.changed:
            note += " (the keys of pql --plain; this editor keeps its own)"
        self.results.show_status(_escape(note))
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
            if is_sweep(run.statement.text):
                if not self._run_sweep(run_id, run):
                    return
                continue
            try:
                query = self.session.prepare(run.statement, run.source)
            except PqlError as e:
                self.post_message(CheckDone(run.marks, e))  # marked if the editor still holds it
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
            except ClusterError as e:
                self.post_message(RunEnded(run_id, error=str(e)))
                return
            except PqlError as e:
                self.post_message(RunEnded(run_id, error=str(e)))
                return
        self.post_message(RunEnded(run_id))

    def _run_sweep(self, run_id: int, run: PendingRun) -> bool:
        """A sweep statement's rows in turn, its table growing in the results after each row;
        False when the run must stop here (an error or a cancel, already reported)."""
        worker = get_current_worker()
        statement = run.statement
        try:
            checked = check_sweep(parse_sweep(statement.text, origin=(statement.line, statement.col)))
        except PqlError as e:
            self.post_message(CheckDone(run.marks, e))
            self.post_message(RunEnded(run_id, error=str(e)))
            return False

        def run_row(query: Query) -> list[StatementResult]:
            self._query = query
            if worker.is_cancelled:
                raise PqlCancelled("cancelled")
            return query.run(**run.options)

        started = time.monotonic()
        cluster = self.session.settings.cluster
        where: dict[str, Any] = {"cluster": cluster, **run.options} if cluster else {"run": run_row}
        try:
            for result in stream_sweep(checked, **where):
                if worker.is_cancelled:  # between rows (on a cluster: its rows not run are cancelled)
                    raise PqlCancelled("cancelled")
                done = len(result.rows)
                left = (time.monotonic() - started) / done * (result.total - done)
                snapshot = replace(result, rows=list(result.rows))  # the worker goes on adding rows
                self.post_message(SweepUpdate(run_id, snapshot, left))
        except PqlCancelled:
            self.post_message(RunEnded(run_id, cancelled=True))
            return False
        except (PqlError, ClusterError) as e:
            self.post_message(RunEnded(run_id, error=str(e)))
            return False
        return True

    def on_sweep_update(self, message: SweepUpdate) -> None:
        if message.run_id == self._run_id:
            self.results.show_sweep(message.result, message.seconds_left)

    def on_sweep_table_open_row(self, message: SweepTable.OpenRow) -> None:
        """Enter on a sweep's row: its full result joins the history."""
        self.results.add_history(FittedResult(message.result, self.results.timing))

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
            self._write_output(quiet=True)

    def on_run_ended(self, message: RunEnded) -> None:
        if message.run_id != self._run_id:
            return
        self.running = False
        self._query = None
        if self._chart_when_done is not None:
            title, self._chart_when_done = self._chart_when_done, None
            if not message.error and not message.cancelled:
                self.open_chart(title)
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
        """Escape / Ctrl+C: stop the run, keeping what was computed (or close the menu)."""
        if self.editor.completing:
            self.editor.hide_completions()
        elif self.running:
            self.cancel_run()

    def action_leave_results(self) -> None:
        """Escape in the results, when there is nothing to cancel: back to the editor."""
        self.action_focus_editor()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Escape and Ctrl+C cancel only while running or completing; otherwise Ctrl+C copies and
        # Escape, in the results, goes back to the editor.
        if action in ON_MAIN_SCREEN and len(self.screen_stack) > 1:
            return False  # a dialog or the help is open: these keys are for the main screen
        if action not in ("cancel", "leave_results") or not self.query("#editor"):
            return True
        busy = self.running or self.editor.completing
        if action == "cancel":
            return busy
        focused = self.focused
        return not busy and focused is not None and self.results in focused.ancestors_with_self

    # -- the results: focus, full screen --------------------------------------------------------

    def action_focus_results(self) -> None:
        """F6: the results history takes the keys (arrows, PageUp/PageDown, Home/End scroll it);
        again, the live table."""
        history, table = self.results.history, self.results.table
        targets: list[Widget] = []
        if self.query(".welcome"):
            targets.append(self.query_one(ExampleList))
        elif history.has_class("has-entries"):
            targets.append(history)
        if table.row_count:
            targets.append(table)
        if not targets:
            return
        at = targets.index(self.focused) + 1 if self.focused in targets else 0
        targets[at % len(targets)].focus()

    def action_focus_editor(self) -> None:
        self.editor.focus()

    # -- the range explorer ------------------------------------------------------------------

    @property
    def explorer(self) -> ExplorerPanel:
        """The grid explorer (hold'em, short deck)."""
        return self.query_one("#explorer", ExplorerPanel)

    @property
    def term_explorer(self) -> TermExplorer:
        """The term-list explorer (Omaha)."""
        return self.query_one("#terms", TermExplorer)

    @property
    def stud_explorer(self) -> StudExplorer:
        """The stud picker (stud, stud8, razz)."""
        return self.query_one("#stud", StudExplorer)

    def action_explore(self) -> None:
        """F2: in the editor, explore the range of the player at the cursor; elsewhere (the
        results, the explorer), back to the editor."""
        if self.editor.has_focus:
            self.open_explorer()
        else:
            self.editor.focus()

    def open_explorer(self, player: str | None = None) -> bool:
        """Open the explorer on ``player`` (None: the player at the editor's cursor) of the
        statement at the cursor (else the first statement that has the player)."""
        text, at = self.editor.text, self.editor.cursor_offset
        clause = clause_at(text, at)
        if player is not None and (clause is None or clause.player(player) is None):
            clause = next((c for c in from_clauses(text) if c.player(player)), None)
        setting = None
        if clause is not None:
            setting = clause.player(player) if player is not None else player_at(clause, at)
        if clause is None or setting is None:
            where = f"no player '{player}' in the editor's queries" if player else "no player at the cursor"
            self.notify(f"{where}: the explorer opens on a player's range (hero='AKs')", severity="warning")
            return False
        self.close_explorers()
        if _is_stud(clause.game):
            self.stud_explorer.display = True
            self.stud_explorer.bind(setting.key, clause.index, text)
            self.stud_explorer.slot_row.focus()
            return True
        try:
            hand_classes(clause.game)
        except PqlError:  # not a two-card game: Omaha's list of terms
            self.term_explorer.display = True
            self.term_explorer.bind(setting.key, clause.index, text)
            self.term_explorer.term_list.focus()
            return True
        self.explorer.display = True
        self.explorer.bind(setting.key, clause.index, text)
        self.explorer.grid.focus()
        return True

    def close_explorers(self) -> None:
        self.explorer.stop_heatmap()
        self.explorer.display = False
        self.term_explorer.stop_distribution()
        self.term_explorer.display = False
        self.stud_explorer.display = False

    def on_range_edited(self, message: RangeEdited) -> None:
        """The grid changed the range: it replaces the player's range in the editor."""
        editor = self.editor
        editor.replace(message.text, editor.location_of(message.start), editor.location_of(message.end))

    def on_explorer_closed(self, _: ExplorerClosed) -> None:
        self.close_explorers()
        self.editor.focus()

    def action_full_screen(self) -> None:
        """F10: the results fill the screen (the editor hides), or come back to their place."""
        self.screen.toggle_class("results-full")
        if self.screen.has_class("results-full") and self.editor.has_focus:
            self.action_focus_results()
        elif not self.screen.has_class("results-full"):
            self.editor.focus()

    # -- help, history, export ----------------------------------------------------------------

    def key_bindings(self) -> list[tuple[str, str]]:
        """(keys, what they do) for the help screen: one row per action, keys as people write them."""
        keys: dict[str, list[str]] = {}
        described: dict[str, str] = {}
        for b in self._bindings_list():
            if b.description:
                names = [_readable_key(k) for k in b.key.split(",") if k != "ctrl+j"]
                keys.setdefault(b.action, []).extend(names)
                described.setdefault(b.action, KEY_HELP.get(b.action, b.description))
        return [
            *((", ".join(names), described[action]) for action, names in keys.items()),
            ("Enter after ;", "Run the editor"),
            ("Escape (in the results)", "Back to the editor"),
            ("Up, Down", "History, from the first/last screen line"),
            ("Tab, Ctrl+Space", "Complete; Tab takes the entry, Enter only one chosen with Up/Down"),
            ("1, 2, 3 (start screen)", "Run an example"),
            ("Ctrl+P", "Command palette"),
            *EXPLORER_KEYS,
        ]

    def _bindings_list(self) -> list[Binding]:
        return [b for b in self.BINDINGS if isinstance(b, Binding)]

    def open_odds(self, request: OddsRequest) -> None:
        """`.odds`: the odds view (a span of opponents) or the MultiOdds screen, computing live."""
        from pql_repl.api.multi_odds import OddsRun, OddsTableRun  # noqa: PLC0415
        from pql_repl.tui.odds_screen import OddsScreen, OddsTableScreen  # noqa: PLC0415

        options = self.session.run_options()
        how = {
            "trials": options["trials"] or DEFAULT_TRIALS,
            "seed": options["seed"],
            "threads": options["threads"],
        }
        if isinstance(request.opponents, range):
            self.push_screen(
                OddsTableScreen(OddsTableRun(request.hand, request.board, request.opponents, **how))
            )
        else:
            self.push_screen(OddsScreen(OddsRun(request.hand, request.board, request.opponents, **how)))

    def action_chart(self) -> None:
        """F7: the latest result's histograms as charts (F7 again: the table)."""
        from pql_repl.tui.chart import ChartScreen  # noqa: PLC0415

        if isinstance(self.screen, ChartScreen):
            self.screen.dismiss()
            return
        self.open_chart()

    def open_chart(self, title: str | None = None) -> None:
        """The latest result's histograms as charts (``title``: the first one's, else its name)."""
        from pql_repl.tui.chart import ChartScreen, histogram_columns  # noqa: PLC0415

        result = self.results.last
        if result is None or not histogram_columns(result):
            self.results.show_status("no histogram to chart: run a statement with histogram(…)")
            return
        self.push_screen(ChartScreen(result, title))

    def plot_equity(self, player: str, street: str) -> None:
        """`.plot equity PLAYER [STREET]`: the Odds Oracle's "Equity Stats" graph, the distribution
        over the deals of the editor's first statement with PLAYER of the player's equity against
        the other players' ranges on STREET (HvREquity), sampled with a small budget of deals
        (:func:`plot_options`), then drawn (F7 shows it again)."""
        from pql_repl.session.from_clause import from_clauses  # noqa: PLC0415
        from pql_repl.tui.chart import equity_plot_query, equity_plot_title, plot_options  # noqa: PLC0415

        clauses = [c for c in from_clauses(self.editor.text) if c.player(player) is not None]
        if not clauses:
            self.results.show_status(
                f"[red]no statement in the editor has a player '{_escape(player)}'[/red]"
            )
            return
        if len(clauses[0].players) < 2:
            self.results.show_status(
                "[red]equity against ranges needs another player in the from clause[/red]"
            )
            return
        options = plot_options(self.session.run_options())
        self._chart_when_done = equity_plot_title(player, street, options["trials"])
        # After the command that asked for it is done with.
        self.call_later(self.run_text, equity_plot_query(player, street, clauses[0]), None, options)

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.key_bindings()))

    def action_history_search(self) -> None:
        def chosen(entry: str | None) -> None:
            if entry:
                self.editor.load_text(entry)
                self.editor.move_cursor(self.editor.document.end)

        self.push_screen(HistorySearch(self.history.search("")), chosen)

    def action_export(self) -> None:
        """Ctrl+S: ask where to write the finished results (prefilled; the extension says the
        format: .csv, .json or .md), then write them."""
        results = self.results.finished
        if not results:
            self.notify("nothing to export yet", severity="warning")
            return

        def chosen(path: Path | None) -> None:
            if path is not None:
                self._write(path, render(results, export_format(path) or "csv"), len(results))

        self.push_screen(ExportDialog(self._suggested_export(), len(results)), chosen)

    def _suggested_export(self) -> Path:
        """The `.output` file, or pql-results.<format> in the current directory (shown whole,
        so the user sees where it goes)."""
        if self.session.settings.output:
            return Path(self.session.settings.output).resolve()
        extension = {"json": ".json", "markdown": ".md"}.get(self.session.settings.format, ".csv")
        return Path.cwd() / f"pql-results{extension}"

    def _write_output(self, quiet: bool) -> None:
        """`.output FILE` is in force: the file holds every finished result (its format from
        the extension, else from `.format`)."""
        output = self.session.settings.output
        results = self.results.finished
        if not output or not results:
            return
        path = Path(output)
        fmt = export_format(path) or _file_format(self.session.settings.format)
        self._write(path, render(results, fmt), len(results), quiet)

    def _write(self, path: Path, text: str, count: int, quiet: bool = False) -> None:
        try:
            write_text_atomic(path, text)
        except OSError as e:
            self.notify(f"cannot write {path}: {e.strerror}", severity="error")
            return
        if not quiet:
            self.notify(f"wrote {count} result{'s' if count != 1 else ''} to {path}")

    async def action_quit(self) -> None:
        self.leave()

    def leave(self) -> None:
        """Quit, keeping the editor's text for the next session."""
        self._buffer_saves += 1
        self._save_buffer(self.editor.text, self._buffer_saves)
        self.cancel_run()
        self.exit()

    def on_unmount(self) -> None:
        if self._check_timer is not None:
            self._check_timer.stop()
        self._buffer_saves += 1
        self._save_buffer(self._buffer, self._buffer_saves)  # however the app ends, not only after a check
        self.cancel_run()


#: Actions of the main screen, which do nothing while a dialog or the help is open.
ON_MAIN_SCREEN = frozenset(
    {"run", "run_statement", "focus_results", "explore", "full_screen", "leave_results", "export"}
)

#: How the help names an action when its footer label is too short to say it.
KEY_HELP = {
    "run": "Run the editor",
    "run_statement": "Run the statement at the cursor (or the selection)",
    "focus_results": "Focus the results (again: the live table); arrows scroll",
    "full_screen": "Results full screen, or back",
    "explore": "Explore the range of the player at the cursor; elsewhere, back to the editor",
    "history_search": "Search the history",
    "export": "Export the results (asks for a file: .csv, .json or .md)",
}


#: The range explorer's keys, for the help screen (the README lists them too).
EXPLORER_KEYS = [
    ("Explorer: arrows, hjkl", "Move the cursor in the grid"),
    ("Explorer: Shift+arrows, HJKL", "Select a rectangle"),
    ("Explorer: Space", "Toggle the class (or the selection)"),
    ("Explorer: +, -", "Widen or narrow along the game's hand ordering (the % it reaches is shown)"),
    ("Explorer: 1-9, 0", "Weight the selection @10..@90; 0 takes it out"),
    ("Explorer: @", "Weight the selection with any weight from 1 to 100"),
    ("Explorer: s", "Suit picker: single hands of the class under the cursor"),
    ("Explorer: u, r (Ctrl+Z, Ctrl+Y)", "Undo, redo"),
    ("Explorer: c, i", "Clear, invert"),
    ("Explorer: [, ]", "Highlight the classes of a board breakdown line"),
    ("Explorer: n, o", "Save the range as a named range ($name), open one"),
    ("Explorer: w", "Simulate statements: weights after the observed actions, or equities"),
    ("Explorer: Escape", "Close the explorer"),
    ("Omaha explorer: a, Enter, x", "Add, edit, remove a term"),
    ("Omaha explorer: !, 1-9, 0", "Negate a term, weight it @10..@90, no weight"),
    ("Stud picker: Left, Right", "Move between the down and up cards"),
    ("Stud picker: A-2, c d h s", "A rank, then its suit for one card"),
    ("Stud picker: -, +, *, (", "Rank ceiling (7-), floor (T+), any card, ranks apart ((3-2-))"),
    ("Stud picker: Space, x", "Any card here, clear the hand"),
]


def _is_stud(game: str) -> bool:
    """Stud games have no board: their ranges are pickers of down and up cards."""
    return "third" in game_streets().get(game.lower(), [])


def _file_format(fmt: str) -> str:
    """A file's format when its name does not say: the table is for screens, so CSV."""
    return "csv" if fmt == "table" else fmt


def statement_at(text: str, cursor: int) -> tuple[int, int] | None:
    """The (start, end) offsets of the statement or dot-command line at ``cursor``: the one that
    holds it, else the last one before it (the cursor after its `;`), else the next one."""
    spans: list[tuple[int, int]] = []
    for item in split_statements(text):
        if isinstance(item, Statement):
            end = item.offset + len(item.text)
            if text.startswith(";", end):
                end += 1
            spans.append((item.offset, end))
        else:
            start = sum(len(line) + 1 for line in text.split("\n")[: item.line - 1])
            line_end = text.find("\n", start)
            spans.append((start, len(text) if line_end < 0 else line_end))
    if not spans:
        return None
    before = [s for s in spans if s[0] <= cursor]
    return before[-1] if before else spans[0]


def only(text: str, start: int, end: int) -> str:
    """``text`` with everything outside ``start:end`` blanked (line breaks kept), so that what is
    run keeps the lines and columns it has in the editor."""

    def blank(part: str) -> str:
        return "".join(c if c == "\n" else " " for c in part)

    return blank(text[:start]) + text[start:end] + blank(text[end:])


def _readable_key(key: str) -> str:
    """``ctrl+enter`` -> ``Ctrl+Enter``, ``f5`` -> ``F5``."""
    return "+".join(
        p.upper() if len(p) == 1 or re.fullmatch(r"f\d+", p) else p.capitalize() for p in key.split("+")
    )


def _escape(text: str) -> str:
    return escape(text)
