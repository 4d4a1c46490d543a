"""Persistent query history and the editor buffer, in the user's data directory.

Both REPLs share one history file in prompt_toolkit's ``FileHistory`` format, so a query run in
``pql --plain`` is found again in the full-screen app and the other way round. ``PQL_DATA_DIR``
overrides the directory (tests use a temporary one).
"""

from __future__ import annotations

import datetime
from pathlib import Path

from pql_repl import config

HISTORY_FILE = "history"
BUFFER_FILE = "buffer.pql"


def data_dir() -> Path:
    """Where history and the last editor buffer live (created on first use)."""
    path = config.data_dir()
    path.mkdir(parents=True, exist_ok=True)
    return path


def history_path() -> Path:
    return data_dir() / HISTORY_FILE


def read_entries(path: Path) -> list[str]:
    """The entries of a ``FileHistory`` file, oldest first (lines of an entry are prefixed ``+``)."""
    if not path.exists():
        return []
    entries: list[str] = []
    lines: list[str] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("+"):
            lines.append(line[1:])
        elif lines:
            entries.append("\n".join(lines))
            lines = []
    if lines:
        entries.append("\n".join(lines))
    return entries


class History:
    """The list of past queries with Up/Down navigation and search."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or history_path()
        self.entries = read_entries(self.path)
        self._position: int | None = None  # index into entries while browsing with Up/Down
        self._draft = ""

    def append(self, entry: str) -> None:
        """Remember ``entry`` (not twice in a row) and write it to the file at once."""
        entry = entry.strip()
        self.reset()
        if not entry or (self.entries and self.entries[-1] == entry):
            return
        self.entries.append(entry)
        stamp = datetime.datetime.now(tz=datetime.UTC).isoformat(sep=" ")
        body = "".join(f"+{line}\n" for line in entry.split("\n"))
        with self.path.open("a", encoding="utf-8") as f:
            f.write(f"\n# {stamp}\n{body}")

    def previous(self, draft: str) -> str | None:
        """The entry before the current one (Up); ``draft`` is kept to come back to."""
        if not self.entries:
            return None
        if self._position is None:
            self._draft = draft
            self._position = len(self.entries)
        if self._position == 0:
            return None
        self._position -= 1
        return self.entries[self._position]

    def next(self) -> str | None:
        """The entry after the current one (Down); past the newest, the draft comes back."""
        if self._position is None:
            return None
        self._position += 1
        if self._position >= len(self.entries):
            self._position = None
            return self._draft
        return self.entries[self._position]

    def reset(self) -> None:
        self._position = None

    def search(self, text: str) -> list[str]:
        """Entries containing ``text`` (case-insensitive), newest first, without repeats."""
        needle = text.lower()
        found = [e for e in reversed(self.entries) if needle in e.lower()]
        return list(dict.fromkeys(found))


def load_buffer() -> str:
    """The editor text of the last session ('' the first time)."""
    path = data_dir() / BUFFER_FILE
    return path.read_text(encoding="utf-8") if path.exists() else ""


def save_buffer(text: str) -> None:
    (data_dir() / BUFFER_FILE).write_text(text, encoding="utf-8")
