"""``pql --plain``: the prompt_toolkit line REPL.

The same lexer (through ``PygmentsLexer``, coloured by the pygments style of the ``theme``) and
completion engine as the full-screen app, the shared history file, suggestions from history,
input until ``;`` (or a blank line), the checker's first error marked in the input and named in
the bottom toolbar as you type, a status line with each selector's running estimate while a
statement runs (Ctrl+C cancels it and keeps the session), output that does not fit the terminal
through a pager, and emacs or vi keys (``editing_mode``, ``.mode``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import Application
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.enums import DEFAULT_BUFFER, EditingMode
from prompt_toolkit.filters import has_focus
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.input import Input
from prompt_toolkit.input.typeahead import store_typeahead
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.processors import Processor, Transformation, TransformationInput
from prompt_toolkit.layout.utils import explode_text_fragments
from prompt_toolkit.lexers import PygmentsLexer
from prompt_toolkit.output import Output
from prompt_toolkit.styles import BaseStyle, Style, merge_styles, style_from_pygments_cls

from pql_repl.api.numbers import format_trials
from pql_repl.api.output import Destination, OutputError, render
from pql_repl.api.results import DEFAULT_TRIALS, StatementResult
from pql_repl.api.run import Query
from pql_repl.base.errors import PqlCancelled, PqlError
from pql_repl.files import named_ranges
from pql_repl.files.history import History, take_warnings
from pql_repl.repl.shared_history import SharedHistory
from pql_repl.session.command_result import OddsRequest
from pql_repl.session.completion import complete, opens_by_itself
from pql_repl.session.lexer import PqlLexer
from pql_repl.session.progress import estimates_text, status_text
from pql_repl.session.session import Session
from pql_repl.session.settings import SessionError
from pql_repl.session.statements import DotCommand, is_complete, read_script, split_statements
from pql_repl.session.themes import THEMES, plain_style

if TYPE_CHECKING:
    from pql_repl.api.multi_odds import Odds, OddsRun

PROMPT = "pql> "
CONTINUATION = "...> "
#: The input is checked this long after the last key (as in the app), not at every key.
CHECK_DELAY = 0.25

#: Styles beside the theme's colours for PQL: the error marker and the toolbar's error.
EXTRA_STYLE = Style.from_dict(
    {
        "pql-error": "bg:ansired ansiwhite underline",
        "bottom-toolbar.error": "bg:ansired ansiwhite",
    }
)


def repl_style(theme: str | None) -> BaseStyle:
    """The prompt's colours under ``theme``: its pygments style for PQL, and ours."""
    return merge_styles([style_from_pygments_cls(plain_style(theme)), EXTRA_STYLE])


class LiveCheck:
    """Checks the input in a background thread shortly after it changes (the newest text wins;
    reading a big range takes a moment) and keeps the first error for the toolbar and the
    marker. ``on_done`` is called from that thread when a verdict is in."""

    def __init__(self, session: Session, on_done: Callable[[], object]) -> None:
        self.session = session
        self.on_done = on_done
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._checked: tuple[str, PqlError | None] = ("", None)

    def submit(self, text: str) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(CHECK_DELAY, self._check, (text,))
            self._timer.daemon = True
            self._timer.start()

    def _check(self, text: str) -> None:
        error = self.session.first_error(text) if text.strip() else None
        with self._lock:
            self._checked = (text, error)
        self.on_done()

    def error_for(self, text: str) -> PqlError | None:
        """The error found in ``text``; None when it has none or was not checked yet."""
        checked, error = self._checked
        return error if checked == text else None


class ErrorMarker(Processor):
    """Marks the checked error's characters in the input, as the app does."""

    def __init__(self, check: LiveCheck) -> None:
        self.check = check

    def apply_transformation(self, ti: TransformationInput) -> Transformation:
        error = self.check.error_for(ti.document.text)
        if error is None or error.line is None or error.col is None or ti.lineno != error.line - 1:
            return Transformation(ti.fragments)
        fragments = explode_text_fragments(ti.fragments)
        start = error.col - 1
        length = max(1, (error.span[1] - error.span[0]) if error.span else 1)
        if start >= len(fragments):  # at the end of the line: mark where the text is missing
            fragments.append(("class:pql-error", " "))
        for i in range(start, min(start + length, len(fragments))):
            style, text, *_ = fragments[i]
            fragments[i] = (f"{style} class:pql-error", text)
        return Transformation(fragments)


class PqlCompleter(Completer):
    """prompt_toolkit face of ``pql_repl.session.completion.complete``."""

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        cursor = document.cursor_position
        # While typing, as in the app: no menu by itself after a closing quote, `;` or `)`.
        if not complete_event.completion_requested and not opens_by_itself(document.text, cursor):
            return
        for c in complete(document.text, cursor)[:100]:
            # A function shows its signature in the menu and its doc beside it, as in the app.
            yield Completion(
                c.text,
                start_position=c.start - cursor,
                display=c.display if c.kind == "function" else None,
                display_meta=c.doc or c.kind,
            )


def input_complete(text: str) -> bool:
    """Enter runs the input when it is a dot-command, ends with `;`, or ends with a blank line."""
    stripped = text.strip()
    if not stripped:
        return True
    if stripped.startswith(".") and "\n" not in stripped:
        return True
    if text.endswith("\n"):
        # Enter on an empty last line: that blank line ends the statement.
        return is_complete(text + "\n")
    return stripped.endswith(";") and is_complete(text)


def _key_bindings() -> KeyBindings:
    kb = KeyBindings()

    # Only in the query itself: in Ctrl+R search, Enter keeps its meaning (take the match).
    @kb.add("enter", filter=has_focus(DEFAULT_BUFFER))
    def _enter(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        state = buffer.complete_state
        if state is not None and state.current_completion is not None:
            buffer.apply_completion(state.current_completion)
            return
        if input_complete(buffer.text):
            buffer.validate_and_handle()
        else:
            buffer.insert_text("\n")

    @kb.add("escape", "enter", filter=has_focus(DEFAULT_BUFFER))
    def _run_now(event: KeyPressEvent) -> None:
        event.current_buffer.validate_and_handle()

    return kb


class _Stopped(Exception):
    """A statement or dot-command failed (and said so): the rest of the input does not run."""


class PlainRepl:
    """One line-mode session: read, run with live progress, print, repeat."""

    def __init__(
        self,
        session: Session | None = None,
        input: Input | None = None,
        output: Output | None = None,
        write: Callable[[str], Any] | None = None,
        pager: Callable[[str], bool] | None = None,
    ) -> None:
        self.session = session or Session.from_config()
        self.session.themes = THEMES
        self.session.interactive = True
        self.input = input
        self.output = output
        self.write = write or sys.stdout.write
        #: Shows text too long for the terminal; False when it could not (then it is printed).
        self.pager = pager if pager is not None or write is not None else _default_pager()
        self.last: StatementResult | None = None
        #: Where results go while `.output FILE` is in force (on stdout they are printed).
        self.destination = Destination(sys.stdout)
        #: The run in progress (or the last one).
        self.progress: _Progress | None = None
        self.check = LiveCheck(self.session, self._checked)
        self.prompt = PromptSession[str](
            PROMPT,
            multiline=True,
            prompt_continuation=CONTINUATION,
            lexer=PygmentsLexer(PqlLexer),
            completer=PqlCompleter(),
            complete_while_typing=True,
            history=SharedHistory(History(size=self.session.settings.history_size)),
            auto_suggest=AutoSuggestFromHistory(),
            key_bindings=_key_bindings(),
            bottom_toolbar=self._toolbar,
            input_processors=[ErrorMarker(self.check)],
            style=repl_style(self.session.settings.theme),
            include_default_pygments_style=False,
            editing_mode=_editing_mode(self.session.settings.editing_mode),
            input=input,
            output=output,
        )
        self.prompt.default_buffer.on_text_changed += lambda buffer: self.check.submit(buffer.text)

    def _checked(self) -> None:
        """The toolbar and the marker show the verdict. It comes from the checking thread: the
        redraw is handed to the prompt's own loop, where the prompt cannot end halfway through
        it (called from here, `invalidate` raced the prompt's exit and could find its loop gone),
        and a verdict that comes after the prompt ended is shown by the next one."""
        app = self.prompt.app
        loop = app.loop
        if loop is None or not app.is_running:
            return
        with contextlib.suppress(RuntimeError):  # the loop closed since: the prompt has ended
            loop.call_soon_threadsafe(app.invalidate)

    def _toolbar(self) -> FormattedText:
        error = self.check.error_for(self.prompt.default_buffer.text)
        if error is not None:
            where = f"{error.line}:{error.col} " if error.line is not None else ""
            hint = f" — {error.hint}" if error.hint else ""
            return FormattedText([("class:bottom-toolbar.error", f" ✗ {where}{error.message}{hint} ")])
        s = self.session.settings
        seed = "off" if s.seed is None else str(s.seed)
        parts = f" trials {s.trials:,} · seed {seed} · exact {s.exact} · format {s.format}"
        if self.last is not None:
            parts += f" │ last: {format_trials(self.last)} in {self.last.elapsed:.2f} s"
        return FormattedText([("class:bottom-toolbar", parts + "  · .help")])

    def _size(self) -> tuple[int, int]:
        """The terminal's (rows, columns)."""
        size = self.prompt.app.output.get_size()
        return size.rows, size.columns

    def show(self, text: str) -> None:
        """Write ``text``; through the pager when it has more lines than the terminal."""
        rows, _ = self._size()
        if self.pager is not None and text.count("\n") >= rows - 1 and self.pager(text):
            return
        self.write(text)

    def run(self) -> int:
        """The loop; returns the exit code."""
        for warning in take_warnings():  # damaged data moved aside: say so, then carry on
            self._error(f"pql: warning: {warning}")
        # Named ranges are read as input is checked, on another thread while the prompt is drawn:
        # what is wrong with their file is said between prompts.
        named_ranges.claim_warnings()
        try:
            while True:
                try:
                    text = self.prompt.prompt()
                except KeyboardInterrupt:
                    continue
                except EOFError:
                    return 0
                if self.execute(text):
                    return 0
                for warning in named_ranges.take_warnings():
                    self._error(f"pql: warning: {warning}")
        finally:
            self.destination.close()

    def execute(self, text: str) -> bool:
        """Run the statements and dot-commands of ``text``; True when the user asked to quit. The
        first error stops the rest, including what the scripts that `.read` it hold after it."""
        try:
            return self._execute(text, 0)
        except _Stopped:
            return False
        except KeyboardInterrupt:
            # Ctrl+C between two runs (no progress line reads keys then): the rest is dropped,
            # the session goes on, as when a progress line takes it.
            self._error("cancelled")
            return False
        finally:
            self._settle_output()

    def _settle_output(self) -> None:
        """The `.output` file holds every result once the input has run (a JSON file is
        rewritten only now and then while many results come at once)."""
        try:
            self.destination.settle()
        except OSError as e:  # a full disk: the session goes on
            self._error(f"cannot write '{self.session.settings.output}': {e.strerror or e}")

    def _execute(self, text: str, depth: int) -> bool:
        """``execute`` for text typed (``depth`` 0) or a script `.read` ``depth`` deep."""
        for item in split_statements(text):
            if isinstance(item, DotCommand):
                try:
                    result = self.session.handle(item.text)
                    script = None if result.read is None else read_script(result.read, depth)
                except (SessionError, PqlError) as e:
                    self._error(str(e))
                    raise _Stopped from None
                if result.changed & {"output", "format"}:
                    self._follow_output()
                if "theme" in result.changed:
                    self.prompt.style = repl_style(self.session.settings.theme)
                if "editing_mode" in result.changed:
                    self.prompt.editing_mode = _editing_mode(self.session.settings.editing_mode)
                if result.output:
                    self.show(result.output + "\n")
                if result.odds is not None:
                    self.show_odds(result.odds)
                if result.note:
                    self._error(result.note)
                if result.quit:
                    return True
                if script is not None and self._execute(script, depth + 1):
                    return True
                continue
            try:
                query = self.session.prepare(item, text)
            except PqlError as e:
                self._error(str(e))
                raise _Stopped from None
            final = self.run_query(query)
            if final is None:
                raise _Stopped
            # Written before it counts as the last result: whoever waits for `last` finds it out.
            self._print_result(final)
            self.last = final
        return False

    def _print_result(self, result: StatementResult) -> None:
        s = self.session.settings
        if s.output is None:
            self.show(render([result], s.format, s.timer, width=self._size()[1]))
            return
        try:
            self.destination.writer(s.output, s.format, s.timer).write(result)
        except OutputError as e:
            self._error(str(e))
        except OSError as e:  # a full disk: the session goes on
            self._error(f"cannot write '{s.output}': {e.strerror or e}")

    def _follow_output(self) -> None:
        """`.output` or `.format` changed: a file is opened (and emptied) now, so a path that
        cannot be written fails here; back to stdout, the file is finished and closed."""
        s = self.session.settings
        if s.output is None:
            self.destination.close()
            return
        try:
            self.destination.writer(s.output, s.format, s.timer)
        except OutputError as e:
            self._error(str(e))
            raise _Stopped from None

    def _error(self, message: str) -> None:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()

    def show_odds(self, request: OddsRequest) -> None:
        """`.odds`: its two statements streamed with the progress line (Ctrl+C cancels), then
        the report; the odds view (a span of opponents) shows each row once its run is done,
        and Ctrl+C stops it there."""
        from pql_repl.api.multi_odds import (  # noqa: PLC0415
            TABLE_LEGEND,
            OddsRun,
            format_odds,
            table_header,
            table_row,
            table_title,
        )

        trials = self.session.run_options()["trials"] or DEFAULT_TRIALS
        if not isinstance(request.opponents, range):
            odds = self._run_odds(OddsRun(request.hand, request.board, request.opponents, trials=trials))
            if odds is not None:
                self.show(format_odds(odds) + "\n")
            return
        counts = tuple(request.opponents)
        self.show(table_title(request.hand, request.board, counts) + "\n" + table_header() + "\n")
        for n in counts:
            odds = self._run_odds(OddsRun(request.hand, request.board, n, trials=trials))
            if odds is None or self.progress_cancelled():
                return
            self.show(table_row(odds) + "\n")
        self.show(TABLE_LEGEND + "\n")

    def _run_odds(self, run: OddsRun) -> Odds | None:
        """One odds run's two statements with the progress line; None after an error."""
        showdown = self.run_query(run.showdown)
        if showdown is None:
            return None
        analysis = None
        if not self.progress_cancelled():
            analysis = self._run_with_trials(run.analysis, run.analysis_trials)
        return run.combine(showdown, analysis)

    def progress_cancelled(self) -> bool:
        return self.progress is not None and self.progress.cancelled

    def _run_with_trials(self, query: Query, trials: int) -> StatementResult | None:
        return self.run_query(query, {**self.session.run_options(), "trials": trials})

    def run_query(self, query: Query, options: dict[str, Any] | None = None) -> StatementResult | None:
        """Stream one statement with a progress line at the bottom; Ctrl+C cancels. The final or,
        when cancelled, the last partial result; None after an error. ``options``: the
        session's run options unless given."""
        run_options = self.session.run_options() if options is None else options
        progress = self.progress = _Progress(query, run_options, self.input, self.output)
        progress.run()
        if progress.error is not None:
            self._error(progress.error)
            return None
        if progress.cancelled:
            self._error("cancelled; showing what was computed")
        return progress.result


class _Progress:
    """A one-line prompt_toolkit application showing a run's progress until it ends."""

    def __init__(self, query: Query, options: dict[str, Any], input: Input | None, output: Output | None):
        self.query = query
        self.options = options
        self.result: StatementResult | None = None
        self.cancelled = False
        self.error: str | None = None
        self._typeahead: list[KeyPress] = []
        kb = KeyBindings()

        @kb.add("c-c")
        def _cancel(event: KeyPressEvent) -> None:
            query.cancel()

        @kb.add(Keys.Any)
        def _keep(event: KeyPressEvent) -> None:
            # What is typed during a run belongs to the next prompt.
            self._typeahead.extend(event.key_sequence)

        self.app: Application[None] = Application(
            layout=Layout(Window(FormattedTextControl(self._line), height=2, style="class:bottom-toolbar")),
            key_bindings=kb,
            input=input,
            output=output,
            erase_when_done=True,
        )
        self._input = self.app.input

    def _line(self) -> FormattedText:
        """The status (trials, speed, share done), then each selector's estimate so far."""
        r = self.result
        width = self.app.output.get_size().columns
        status = (" starting…" if r is None else " " + status_text(r)).ljust(60) + "  Ctrl+C cancels "
        estimates = "" if r is None else " " + estimates_text(r)
        if len(estimates) > width:
            estimates = estimates[: width - 1] + "…"
        return FormattedText([("reverse", status[:width].ljust(width) + "\n" + estimates.ljust(width))])

    def _stream(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            for snapshot in self.query.stream(batch=0.1, **self.options):
                self.result = snapshot
                self.app.invalidate()
        except PqlCancelled:
            self.cancelled = True
        except PqlError as e:
            self.error = str(e)
        except Exception as e:  # the UI must come back whatever happened
            self.error = f"internal error: {e}"
        finally:
            loop.call_soon_threadsafe(self._exit)

    def _exit(self) -> None:
        if self.app.is_running:
            self.app.exit()

    def run(self) -> None:
        def start() -> None:
            loop = asyncio.get_running_loop()
            threading.Thread(target=self._stream, args=(loop,), daemon=True).start()

        try:
            self.app.run(pre_run=start)
        except KeyboardInterrupt:
            # Ctrl+C while the line starts or ends (the terminal not yet, or no longer, read by
            # the app): a cancel all the same, said at once (the run's thread hears it later).
            self.cancelled = True
            self.query.cancel()
        if self._typeahead:
            store_typeahead(self._input, self._typeahead)


def _editing_mode(name: str) -> EditingMode:
    return EditingMode.VI if name == "vi" else EditingMode.EMACS


def _default_pager() -> Callable[[str], bool] | None:
    """A pager for output longer than the terminal, when results go to one."""
    return run_pager if sys.stdout.isatty() else None


def run_pager(text: str) -> bool:
    """Show ``text`` in ``$PAGER`` (default ``less -FRX``: it quits at once when the text fits
    after all); False when there is no such program (the caller prints the text instead)."""
    command = shlex.split(os.environ.get("PAGER") or "less -FRX")
    try:
        subprocess.run(command, input=text, text=True, check=False)
    except OSError:
        return False
    return True


def main(session: Session | None = None) -> int:
    """Run the line REPL on the terminal."""
    return PlainRepl(session).run()
