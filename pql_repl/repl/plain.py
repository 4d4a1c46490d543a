"""``pql --plain``: the prompt_toolkit line REPL.

The same lexer (through ``PygmentsLexer``) and completion engine as the full-screen app, the shared
history file, suggestions from history, input until ``;`` (or a blank line), and a live progress
bar at the bottom while a statement runs; Ctrl+C cancels the run and keeps the session.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import Application
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.enums import DEFAULT_BUFFER
from prompt_toolkit.filters import has_focus
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.input import Input
from prompt_toolkit.input.typeahead import store_typeahead
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.lexers import PygmentsLexer
from prompt_toolkit.output import Output

from pql_repl.api import Query, StatementResult
from pql_repl.completion import complete
from pql_repl.errors import PqlCancelled, PqlError
from pql_repl.history import History, take_warnings
from pql_repl.lexer import PqlLexer
from pql_repl.output import Destination, OutputError, render
from pql_repl.repl.progress import status_text
from pql_repl.repl.shared_history import SharedHistory
from pql_repl.session import (
    DotCommand,
    Session,
    SessionError,
    is_complete,
    read_script,
    split_statements,
)

PROMPT = "pql> "
CONTINUATION = "...> "


class PqlCompleter(Completer):
    """prompt_toolkit face of ``pql_repl.completion.complete``."""

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        cursor = document.cursor_position
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
    ) -> None:
        self.session = session or Session.from_config()
        self.input = input
        self.output = output
        self.write = write or sys.stdout.write
        self.last: StatementResult | None = None
        #: Where results go while `.output FILE` is in force (on stdout they are printed).
        self.destination = Destination(sys.stdout)
        #: The run in progress (or the last one).
        self.progress: _Progress | None = None
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
            input=input,
            output=output,
        )

    def _toolbar(self) -> FormattedText:
        s = self.session.settings
        seed = "off" if s.seed is None else str(s.seed)
        parts = f" trials {s.trials:,} · seed {seed} · exact {s.exact} · format {s.format}"
        if self.last is not None:
            parts += f" │ last: {self.last.trials:,} trials in {self.last.elapsed:.2f} s"
        return FormattedText([("class:bottom-toolbar", parts + "  · .help")])

    def run(self) -> int:
        """The loop; returns the exit code."""
        for warning in take_warnings():  # damaged data moved aside: say so, then carry on
            self._error(f"pql: warning: {warning}")
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
        finally:
            self.destination.close()

    def execute(self, text: str) -> bool:
        """Run the statements and dot-commands of ``text``; True when the user asked to quit. The
        first error stops the rest, including what the scripts that `.read` it hold after it."""
        try:
            return self._execute(text, 0)
        except _Stopped:
            return False

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
                if result.output:
                    self.write(result.output + "\n")
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
            self.write(render([result], s.format, s.timer))
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

    def run_query(self, query: Query) -> StatementResult | None:
        """Stream one statement with a progress line at the bottom; Ctrl+C cancels. The final or,
        when cancelled, the last partial result; None after an error."""
        progress = self.progress = _Progress(query, self.session.run_options(), self.input, self.output)
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
            layout=Layout(Window(FormattedTextControl(self._line), height=1, style="class:bottom-toolbar")),
            key_bindings=kb,
            input=input,
            output=output,
            erase_when_done=True,
        )
        self._input = self.app.input

    def _line(self) -> FormattedText:
        r = self.result
        text = " starting…" if r is None else " " + status_text(r)
        return FormattedText([("reverse", text.ljust(60) + "  Ctrl+C cancels ")])

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
            self.query.cancel()
        if self._typeahead:
            store_typeahead(self._input, self._typeahead)


def main(session: Session | None = None) -> int:
    """Run the line REPL on the terminal."""
    return PlainRepl(session).run()
