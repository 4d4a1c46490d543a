"""The full-screen pql app: editor on top, live results below, help on F1.

Keys: Enter after a statement's `;` (or at the end of a dot-command line) runs it and opens a new
line, F5 runs the whole editor, F4 (Ctrl+Enter) the statement at the cursor or the selection; F6
focuses the results (F2 or Escape comes back), F10 shows them full screen; Ctrl+S exports them,
Ctrl+C and F8 copy (``tui/clipboard.py``), Ctrl+L clears them. F2 in the editor opens the range
explorer on the player at the cursor (``tui/explorer.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.command import Provider
from textual.widget import Widget
from textual.widgets import Footer, Static

from pql_repl.files.history import take_warnings
from pql_repl.tui.clipboard import Clipboard
from pql_repl.tui.editor import CompletionList, QueryEditor, pql_theme
from pql_repl.tui.explorer import ExplorerPanel
from pql_repl.tui.key_table import APP_BINDINGS, ON_MAIN_SCREEN
from pql_repl.tui.palette import PqlCommands
from pql_repl.tui.results import ResultsPanel
from pql_repl.tui.run_control import RunControl
from pql_repl.tui.stud_explorer import StudExplorer
from pql_repl.tui.term_explorer import TermExplorer
from pql_repl.tui.welcome import EXAMPLES, ExampleList, Welcome


class PqlApp(RunControl, Clipboard):
    """pql's full-screen REPL."""

    TITLE = "pql"
    CSS_PATH = "app.tcss"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = App.COMMANDS | {PqlCommands}
    BINDINGS: ClassVar[list[BindingType]] = APP_BINDINGS

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
        restored = bool(editor.text.strip())
        await self.results.show_welcome(Welcome(restored))
        # While the start screen shows, 1, 2 or 3 typed in an empty editor runs an example (no
        # PQL starts with a digit); not when the editor starts with the last session's text,
        # where the welcome says F6 then 1, 2 or 3 (the keys of the examples list).
        editor.examples = 0 if restored else len(EXAMPLES)
        editor.focus()
        for warning in take_warnings():  # damaged data moved aside: say so, then carry on
            self.notify(warning, title="pql: warning", severity="warning", timeout=30, markup=False)
        self.check_now()

    def on_welcome_closed(self, _: Welcome.Closed) -> None:
        if self.query("#editor"):
            self.editor.examples = 0  # digits are text once the welcome has gone

    def action_leave_results(self) -> None:
        """Escape in the results, when there is nothing to cancel: back to the editor."""
        self.action_focus_editor()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Escape and Ctrl+C cancel only while running or completing; otherwise Ctrl+C copies
        # (when there is something to copy) and Escape, in the results, goes back to the editor.
        if action in ON_MAIN_SCREEN and len(self.screen_stack) > 1:
            return False  # a dialog or the help is open: these keys are for the main screen
        if action not in ("cancel", "leave_results", "copy") or not self.query("#editor"):
            return True
        busy = self.running or self.editor.completing
        if action == "cancel":
            return busy
        if action == "copy":
            return not busy and self.copy_source() is not None
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

    def action_full_screen(self) -> None:
        """F10: the results fill the screen (the editor hides), or come back to their place."""
        self.screen.toggle_class("results-full")
        if self.screen.has_class("results-full") and self.editor.has_focus:
            self.action_focus_results()
        elif not self.screen.has_class("results-full"):
            self.editor.focus()
