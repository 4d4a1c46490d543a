"""Command palette (Ctrl+P) entries: the app's actions and a ``describe`` for every function."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Provider

from pql_repl.session.vocabulary import vocabulary


@runtime_checkable
class PaletteActions(Protocol):
    """What the palette calls on the app (``PqlApp`` has them; the app imports this module, so
    the palette names what it needs instead of importing the app)."""

    def action_run(self) -> None: ...
    def action_run_statement(self) -> None: ...
    def action_cancel(self) -> None: ...
    def action_export(self) -> None: ...
    def action_focus_results(self) -> None: ...
    def action_full_screen(self) -> None: ...
    def action_history_search(self) -> None: ...
    def action_copy_result(self) -> None: ...
    def action_clear_results(self) -> None: ...
    def action_help(self) -> None: ...
    def run_command(self, line: str) -> object: ...


class PqlCommands(Provider):
    """Actions by name, and ``describe NAME`` for each catalogue function."""

    def _entries(self) -> list[tuple[str, Callable[[], object], str]]:
        app = self.app
        assert isinstance(app, PaletteActions), "the palette serves an app with the actions above"
        entries: list[tuple[str, Callable[[], object], str]] = [
            ("Run the editor", app.action_run, "F5: every statement and dot-command in order"),
            (
                "Run the statement at the cursor",
                app.action_run_statement,
                "F4 / Ctrl+Enter (Enter after its ; runs it once)",
            ),
            ("Cancel the run", app.action_cancel, "Escape / Ctrl+C"),
            ("Export the results", app.action_export, "Ctrl+S: asks for a .csv, .json, .md or .html file"),
            ("Focus the results", app.action_focus_results, "F6; Escape or F2 back to the editor"),
            ("Results full screen", app.action_full_screen, "F10"),
            ("Search the history", app.action_history_search, "Ctrl+R"),
            ("Help", app.action_help, "F1"),
            ("Copy the latest result", app.action_copy_result, "F8 (Ctrl+C copies a selection)"),
            ("Clear the results", app.action_clear_results, "Ctrl+L"),
        ]
        for f in vocabulary().functions:
            entries.append((f"describe {f.name}", partial(app.run_command, f".describe {f.name}"), f.doc))
        return entries

    async def discover(self) -> Hits:
        for name, callback, help_text in self._entries()[:8]:
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._entries():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
