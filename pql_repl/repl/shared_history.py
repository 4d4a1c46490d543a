"""The line REPL's prompt_toolkit history, kept in the history file the app shares
(``pql_repl.files.history``): trimmed when loaded, and each entry appended in one locked write, so
two sessions at once never interleave entries (prompt_toolkit's ``FileHistory`` writes an entry
in pieces)."""

from __future__ import annotations

from collections.abc import Iterable

from prompt_toolkit.history import History as PromptHistory

from pql_repl.files.history import History


class SharedHistory(PromptHistory):
    def __init__(self, history: History) -> None:
        super().__init__()
        self.history = history

    def load_history_strings(self) -> Iterable[str]:
        # Newest first, as prompt_toolkit asks.
        return list(reversed(self.history.entries))

    def store_string(self, string: str) -> None:
        self.history.append(string)
