"""The run controller: the editor's text checked as it is typed, statements and dot-commands run
in a worker with live snapshots posted to the results, cancelled by Escape or Ctrl+C, and the
editor's text saved when the app ends."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.markup import escape
from textual import work
from textual.message import Message
from textual.widgets import Static
from textual.worker import get_current_worker

from pql_repl.api.results import StatementResult
from pql_repl.api.run import Query
from pql_repl.api.sweeps import SweepResult, is_sweep
from pql_repl.api.sweeps import check as check_sweep
from pql_repl.api.sweeps import parse as parse_sweep
from pql_repl.api.sweeps import stream as stream_sweep
from pql_repl.base.errors import ClusterError, PqlCancelled, PqlError
from pql_repl.base.records import replace
from pql_repl.session.command_result import CommandResult
from pql_repl.session.settings import SessionError
from pql_repl.session.statements import Statement, read_script, split_statements
from pql_repl.tui.editor import QueryEditor
from pql_repl.tui.explorer import ExplorerPanel
from pql_repl.tui.explorer_host import ExplorerHost
from pql_repl.tui.export import Exporting
from pql_repl.tui.range_grid import grid_for_command
from pql_repl.tui.results import FittedResult, ResultsPanel
from pql_repl.tui.statement_spans import statement_at
from pql_repl.tui.stud_explorer import StudExplorer
from pql_repl.tui.sweep_table import SweepTable
from pql_repl.tui.term_explorer import TermExplorer
from pql_repl.tui.views import Views
from pql_repl.tui.welcome import EXAMPLES, ExampleList

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


class BufferAside(Message):
    """Another window of the app wrote the saved editor text: this one's went to ``path``."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path


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


class RunControl(ExplorerHost, Views, Exporting):
    """Checking and running what is typed."""

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
        worker = get_current_worker()
        try:
            # A newer check cancels this one (exclusive): the engine stops where it is.
            error = self.session.first_error(text, stop=lambda: worker.is_cancelled)
        except PqlCancelled:
            return
        self.post_message(CheckDone(text, error))

    def _save_buffer(self, text: str, save: int) -> None:
        """Keep ``text`` as the buffer unless a newer one is kept already (the disk's fsync
        takes milliseconds: off the thread that draws)."""
        with self._buffer_lock:
            if save > self._buffer_saved:
                aside = self.saved_buffer.save(text)
                self._buffer_saved = save
                if aside is not None:
                    self.post_message(BufferAside(aside))

    def on_buffer_aside(self, message: BufferAside) -> None:
        self.notify(
            f"Another pql window saved its editor text since this one started: this window's "
            f"text is kept in {message.path} from now on.",
            title="pql: two windows",
            severity="warning",
            timeout=20,
            markup=False,
        )

    #: The editor's text when the status line last said what went wrong.
    _failed_text: str | None = None

    def on_results_panel_error_shown(self, _: ResultsPanel.ErrorShown) -> None:
        if self.query("#editor"):
            self._failed_text = self.editor.text

    def on_check_done(self, message: CheckDone) -> None:
        # A check may end while the app closes, its widgets already gone.
        if self.query("#editor") and self.query("#error") and message.text == self.editor.text:
            self.show_error(message.error)
            # The text changed since a run or a command failed and checks clean: the status
            # line's error goes, as the checker's mark in the editor does.
            if message.error is None and message.text != self._failed_text:
                self.results.clear_error()

    def show_error(self, error: PqlError | None) -> None:
        """Mark the checker's first error in place (before any run) and explain it below."""
        message = self.query_one("#error", Static)
        if error is None or error.line is None or error.col is None:
            self.editor.mark_error(None)
            message.update(f"[red]{escape(str(error))}[/red]" if error else "")
            return
        length = (error.span[1] - error.span[0]) if error.span else 1
        self.editor.mark_error((error.line - 1, error.col - 1, max(1, length)))
        hint = f" — {error.hint}" if error.hint else ""
        message.update(f"[red]{error.line}:{error.col} {escape(error.message)}{escape(hint)}[/red]")

    # -- running ----------------------------------------------------------------------------

    def on_query_editor_run_requested(self, message: QueryEditor.RunRequested) -> None:
        """Enter after a statement's `;` or at the end of a dot-command line: that one runs."""
        self.run_span(message.start, message.end)

    def action_run(self) -> None:
        """Run the editor's statements and dot-commands in order (a new run replaces the old)."""
        self.editor.hide_completions()
        text = self.editor.text
        if not text.strip():
            return
        self.history.append(text)
        self._run_editor_text(text, self.editor.mark_ran(text), text, None)

    def action_run_statement(self) -> None:
        """Run the selection, or else the statement (or dot-command line) at the cursor, with the
        settings in force now. Its errors are marked where it stands in the editor."""
        editor = self.editor
        selection = editor.selection
        if selection.start != selection.end:
            start, end = sorted((editor.offset_of(selection.start), editor.offset_of(selection.end)))
        else:
            found = statement_at(editor.text, editor.cursor_offset)
            if found is None:
                return
            start, end = found
        self.run_span(start, end)

    def run_span(self, start: int, end: int) -> None:
        """Run ``start:end`` of the editor's text (a statement, a dot-command line, a selection)
        with the settings in force now; its errors are marked where it stands in the editor."""
        editor = self.editor
        editor.hide_completions()
        text = editor.text
        if not text[start:end].strip():
            return
        self.history.append(text[start:end])
        self._run_editor_text(text, editor.mark_ran(text, start, end), only(text, start, end), text)

    def _run_editor_text(self, text: str, keys: set[tuple[str, int]], to_run: str, marks: str | None) -> None:
        """Run ``to_run``, from the editor's ``text``, whose statements and dot-command lines
        ``keys`` are marked as run: they are forgotten if a dot-command fails now or the run
        fails later (``on_run_ended``), so that Enter runs them again. The first Up then brings
        ``text`` back (the history holds only what ran)."""
        self.history.ran_from(text)
        run_id = self._run_id
        if not self.run_text(to_run, marks=marks):
            self.editor.ran -= keys
        elif self._run_id != run_id:
            self._run_keys = keys

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

    def run_text(self, text: str, marks: str | None = None, options: dict[str, Any] | None = None) -> bool:
        """Dot-commands apply at once, in order; each statement runs with the settings in force
        where it stands (``options`` override them), one after the other in a worker. An error
        found while running is marked in the editor when it still holds ``marks`` (default
        ``text``). False when a dot-command failed (nothing ran after it)."""
        runs: list[PendingRun] = []
        if not self._collect(text, runs, marks=marks or text):
            return False
        if not runs:
            return True
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
        return True

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
                    self.results.show_status(f"[red]{escape(str(e))}[/red]")
                    return False
                if not self._collect(script, runs, depth + 1):
                    return False
        return True

    def run_command(self, line: str) -> CommandResult | None:
        """A dot-command from the editor; None when it failed or quit."""
        try:
            result = self.session.handle(line)
        except (SessionError, PqlError) as e:
            self.results.show_status(f"[red]{escape(str(e))}[/red]")
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
                self.results.show_status(escape(line) + "  (F2 on the line explores the range)")
                return result
        note = result.note or line
        if "editing_mode" in result.changed:
            note += " (the keys of pql --plain; this editor keeps its own)"
        self.results.show_status(escape(note))
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
                query = self.session.prepare(run.statement, run.source, stop=lambda: worker.is_cancelled)
            except PqlCancelled:
                self.post_message(RunEnded(run_id, cancelled=True))
                return
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
            self.editor.ran -= self._run_keys  # Enter runs them again
            # A failed statement has no result (the CLI prints none either): its partial rows go.
            self.results.drop_unfinished()
            self.results.show_status(f"[red]error: {escape(message.error)}[/red]")

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

    def plot_equity(self, player: str, street: str) -> None:
        """`.plot equity PLAYER [STREET]`: the Odds Oracle's "Equity Stats" graph, the distribution
        over the deals of the editor's first statement with PLAYER of the player's equity against
        the other players' ranges on STREET (HvREquity), sampled with a small budget of deals
        (:func:`plot_options`), then drawn (F7 shows it again)."""
        from pql_repl.session.from_clause import from_clauses  # noqa: PLC0415
        from pql_repl.tui.chart import equity_plot_query, equity_plot_title, plot_options  # noqa: PLC0415

        clauses = [c for c in from_clauses(self.editor.text) if c.player(player) is not None]
        if not clauses:
            self.results.show_status(f"[red]no statement in the editor has a player '{escape(player)}'[/red]")
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

    async def action_quit(self) -> None:
        self.leave()

    def leave(self) -> None:
        """Quit, keeping the editor's text for the next session."""
        self._buffer_saves += 1
        self._save_buffer(self.editor.text, self._buffer_saves)
        self.cancel_run()
        aside = self.saved_buffer.aside
        # Said after the screen is gone too (another window keeps buffer.pql).
        self.exit(message=f"pql: this window's editor text is kept in {aside}" if aside else None)

    def on_unmount(self) -> None:
        if self._check_timer is not None:
            self._check_timer.stop()
        self._buffer_saves += 1
        self._save_buffer(self._buffer, self._buffer_saves)  # however the app ends, not only after a check
        self.cancel_run()


def only(text: str, start: int, end: int) -> str:
    """``text`` with everything outside ``start:end`` blanked (line breaks kept), so that what is
    run keeps the lines and columns it has in the editor."""

    def blank(part: str) -> str:
        return "".join(c if c == "\n" else " " for c in part)

    return blank(text[:start]) + text[start:end] + blank(text[end:])
