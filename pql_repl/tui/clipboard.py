"""Copying and clearing: Ctrl+C copies the editor's selection (``QueryEditor.action_copy``, in
the order of the keys typed before it, such as Ctrl+A) or, in the results, the row under the
cursor or the latest result; F8 the latest result's table; Ctrl+L clears the results on screen.
Copies reach the user's clipboard through the terminal (OSC 52, ``copy_to_clipboard``), so they
work over SSH too."""

from __future__ import annotations

from pql_repl.api.output import format_table
from pql_repl.tui.app_core import AppCore
from pql_repl.tui.editor import copied_note


class Clipboard(AppCore):
    """The clipboard's keys and Ctrl+L."""

    def copy_source(self) -> str | None:
        """What the app's Ctrl+C would copy now: ``"mouse"`` (text selected with the mouse),
        ``"row"`` (the live table's row under the cursor, the table focused) or ``"result"``
        (the latest result, the history focused); None: nothing, and Ctrl+C goes on to the
        focused widget (the editor copies its selection itself)."""
        if self.screen.get_selected_text():
            return "mouse"
        focused = self.focused
        if focused is None:
            return None
        if focused is self.results.table:
            return "row" if self.results.table.row_count else None
        if focused is self.results.history and self.results.finished:
            return "result"
        return None

    def action_copy(self) -> None:
        """Ctrl+C when nothing runs: copy what ``copy_source`` says."""
        source = self.copy_source()
        if source == "mouse":
            self.copy_text(self.screen.get_selected_text() or "", "the selected text")
        elif source == "row":
            table = self.results.table
            # Name, value and margin; not the bar, which is only a picture of the value.
            cells = [str(c) for c in table.get_row_at(table.cursor_row)[:3]]
            self.copy_text("\t".join(c for c in cells if c), "the row")
        elif source == "result":
            self.action_copy_result()

    def action_copy_result(self) -> None:
        """F8: the latest finished result as the table ``pql -c`` prints (with its summary)."""
        finished = self.results.finished
        if not finished:
            self.notify("no result to copy yet", severity="warning")
            return
        self.copy_text(format_table(finished[-1]) + "\n", "the latest result")

    def copy_text(self, text: str, what: str) -> None:
        """Put ``text`` on the clipboard (the terminal's, by OSC 52) and say so."""
        self.copy_to_clipboard(text)
        self.notify(copied_note(what, text), timeout=3)

    def action_clear_results(self) -> None:
        """Ctrl+L: clear the results on screen (exports still hold every result)."""
        self.results.clear()
