"""Persistent query history and the editor buffer, in the user's data directory.

Both REPLs share one history file in prompt_toolkit's ``FileHistory`` format, so a query run in
``pql --plain`` is found again in the full-screen app and the other way round. ``PQL_DATA_DIR``
overrides the directory (tests use a temporary one).

The data is the user's and may be damaged (the directory a file, ``history`` a directory, the
buffer not UTF-8): what cannot be used is moved aside (``NAME.damaged-TIMESTAMP``, never
deleted), a one-line warning is kept for the REPL to show (``take_warnings``), and the REPL
carries on afresh. Each history entry is appended with one write under a lock, so sessions
running at once never interleave entries; the file is trimmed to the newest ``size`` entries
when it is loaded, reading at most ``HISTORY_MAX_READ_BYTES`` from its end.
"""

from __future__ import annotations

import datetime
import os
import stat
from pathlib import Path

from pql_repl.base.limits import BUFFER_MAX_BYTES, HISTORY_MAX_READ_BYTES, HISTORY_SIZE
from pql_repl.files import config
from pql_repl.files.storage import (
    FileProblem,
    append_locked,
    decode_text,
    locked,
    read_bounded,
    write_text_atomic,
)

HISTORY_FILE = "history"
BUFFER_FILE = "buffer.pql"
#: Held while a window compares ``BUFFER_FILE`` with what it knows and replaces it.
BUFFER_LOCK_FILE = "buffer.lock"

_warnings: list[str] = []


def take_warnings() -> list[str]:
    """The warnings about damaged data found since the last call (one line each)."""
    taken = _warnings[:]
    _warnings.clear()
    return taken


def _move_aside(path: Path, what: str) -> bool:
    """Renames the damaged ``path`` to ``path.damaged-TIMESTAMP`` and records a warning; False
    (with a warning) when even that fails."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while aside.exists() or aside.is_symlink():
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    try:
        path.rename(aside)
    except OSError as e:
        _warnings.append(f"{path} {what} and cannot be moved aside ({e.strerror or e}); it is not used")
        return False
    _warnings.append(f"{path} {what}: moved it to {aside} and started afresh")
    return True


def data_dir() -> Path:
    """Where history and the last editor buffer live (created on first use). A file where the
    directory should be is moved aside; raises ``OSError`` when no directory can be made."""
    path = config.data_dir()
    if (path.exists() or path.is_symlink()) and not path.is_dir():
        _move_aside(path, "was not a directory")
    path.mkdir(parents=True, exist_ok=True)
    return path


def history_path() -> Path:
    return data_dir() / HISTORY_FILE


def _usable_file(path: Path, what: str) -> bool:
    """Whether ``path`` is a regular file or absent; anything else there is moved aside."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return not path.is_symlink() or _move_aside(path, f"({what}) was a broken link")
    if stat.S_ISREG(mode):
        return True
    return _move_aside(path, f"({what}) was not a regular file")


def _entries_of(text: str) -> list[str]:
    """The entries of ``FileHistory`` text, oldest first (lines of an entry are prefixed ``+``)."""
    entries: list[str] = []
    lines: list[str] = []
    # Lines end with "\n" only (splitlines would also split an entry at \x85 or \u2028).
    for line in text.split("\n"):
        if line.startswith("+"):
            lines.append(line[1:])
        elif lines:
            entries.append("\n".join(lines))
            lines = []
    if lines:
        entries.append("\n".join(lines))
    return entries


def read_entries(path: Path, max_bytes: int = HISTORY_MAX_READ_BYTES) -> list[str]:
    """The entries of a ``FileHistory`` file, oldest first: those in its last ``max_bytes``
    bytes (an entry cut by that boundary is left out)."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            cut = size > max_bytes
            if cut:
                f.seek(size - max_bytes)
            data = f.read(max_bytes)
    except FileNotFoundError:
        return []
    if cut:
        # Start at the first entry that begins inside what was read.
        start = data.find(b"\n#")
        data = b"" if start < 0 else data[start:]
    return _entries_of(data.decode("utf-8", errors="replace"))


def _entry_record(entry: str) -> str:
    stamp = datetime.datetime.now(tz=datetime.UTC).isoformat(sep=" ")
    body = "".join(f"+{line}\n" for line in entry.split("\n"))
    return f"\n# {stamp}\n{body}"


class History:
    """The list of past queries with Up/Down navigation and search. ``path`` None keeps it in
    memory only (no usable data directory); ``size`` entries are kept, the newest."""

    def __init__(self, path: Path | None = None, size: int = HISTORY_SIZE) -> None:
        self.size = max(1, size)
        self.path = path if path is not None else _default_history_path()
        if self.path is not None and not _usable_file(self.path, "the history"):
            self.path = None
        self.entries = self._load()
        self._position: int | None = None  # index into _walk while browsing with Up/Down
        self._walk: list[str] = []  # what Up and Down go through: the entries, then _ran_from
        self._draft = ""
        #: The editor's text when it last ran something (``ran_from``), not saved.
        self._ran_from = ""

    def _load(self) -> list[str]:
        if self.path is None:
            return []
        try:
            entries = read_entries(self.path)
            if len(entries) > self.size or _file_size(self.path) > HISTORY_MAX_READ_BYTES:
                entries = self._trim()
        except OSError as e:
            _warnings.append(f"cannot read the history {self.path}: {e.strerror or e}; it is not kept")
            self.path = None
            return []
        return entries

    def _trim(self) -> list[str]:
        """Replaces the file with its newest ``size`` entries, under the lock appends take (so an
        entry another session appends meanwhile is not lost); those entries."""
        assert self.path is not None
        with locked(self.path):
            entries = read_entries(self.path)[-self.size :]
            write_text_atomic(self.path, "".join(_entry_record(e) for e in entries))
        return entries

    def append(self, entry: str) -> None:
        """Remember ``entry`` (not twice in a row) and write it to the file at once, in one
        write under a lock (other sessions may append at the same time)."""
        entry = entry.strip()
        self.reset()
        if not entry or (self.entries and self.entries[-1] == entry):
            return
        self.entries.append(entry)
        if len(self.entries) > 2 * self.size:
            del self.entries[: -self.size]
        if self.path is None:
            return
        try:
            append_locked(self.path, _entry_record(entry).encode("utf-8"))
        except OSError as e:
            _warnings.append(f"cannot save history to {self.path}: {e.strerror or e}")

    def ran_from(self, text: str) -> None:
        """The editor held ``text`` when it ran something (a statement of it, or all of it): the
        first Up brings ``text`` back, before the entries (which hold only what ran)."""
        self._ran_from = text

    def previous(self, draft: str) -> str | None:
        """The entry before the current one (Up); ``draft`` is kept to come back to. The first
        is the editor's text of the last run (``ran_from``), then the entries, newest first;
        what the editor holds already (``draft``) is passed over."""
        if self._position is None:
            self._draft = draft
            ran_from = self._ran_from
            newest = self.entries[-1] if self.entries else None
            fresh = ran_from.strip() and ran_from.strip() != newest
            self._walk = [*self.entries, ran_from] if fresh else self.entries[:]
            self._position = len(self._walk)
        at = self._position
        while at > 0:
            at -= 1
            if not self._is_draft(self._walk[at]):
                self._position = at
                return self._walk[at]
        if self._position == len(self._walk):
            self._position = None  # nothing to walk to: Down has nothing to come back from
        return None

    def next(self) -> str | None:
        """The entry after the current one (Down); past the newest, the draft comes back."""
        if self._position is None:
            return None
        at = self._position + 1
        while at < len(self._walk) and self._is_draft(self._walk[at]):
            at += 1
        if at >= len(self._walk):
            self._position = None
            return self._draft
        self._position = at
        return self._walk[at]

    def _is_draft(self, entry: str) -> bool:
        """``entry`` is what the editor held when Up was first pressed: not worth a key press."""
        return entry.strip() == self._draft.strip()

    def reset(self) -> None:
        self._position = None

    def search(self, text: str) -> list[str]:
        """Entries containing ``text`` (case-insensitive), newest first, without repeats."""
        needle = text.lower()
        found = [e for e in reversed(self.entries) if needle in e.lower()]
        return list(dict.fromkeys(found))


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _default_history_path() -> Path | None:
    try:
        return history_path()
    except OSError as e:
        _warnings.append(
            f"cannot use the data directory {config.data_dir()}: {e.strerror or e}; history is not kept"
        )
        return None


def load_buffer() -> str:
    """The editor text of the last session ('' the first time, or when it cannot be read: a
    buffer that is not UTF-8 text is moved aside)."""
    try:
        path = data_dir() / BUFFER_FILE
    except OSError:
        return ""  # said by whoever uses the data directory first
    if not path.exists() or not _usable_file(path, "the editor buffer"):
        return ""
    try:
        return decode_text(read_bounded(path, BUFFER_MAX_BYTES))
    except FileProblem as e:
        _move_aside(path, f"(the editor buffer) is {e}")
    except OSError as e:
        _warnings.append(f"cannot read the editor buffer {path}: {e.strerror or e}")
    return ""


class SavedBuffer:
    """The editor's text kept for the next start (``buffer.pql``), safe with several windows.

    Each window of the app loads the file when it starts and then writes it only while the file
    still holds what this window loaded or last wrote there. Once another window has written
    it, this window keeps its text in a file of its own beside it (``buffer-TIMESTAMP.pql``,
    ``aside``) from then on: no window overwrites another's text, and the next start shows the
    text of the window that wrote ``buffer.pql`` first. A window that changed nothing writes
    nothing. ``save`` is called from several threads of one window (the caller orders them)."""

    def __init__(self) -> None:
        #: The text the editor starts with.
        self.text = load_buffer()
        #: What this window knows ``buffer.pql`` to hold: what it loaded or last wrote there.
        self._known = self.text
        #: What this window last wrote (to ``buffer.pql`` or ``aside``).
        self._written = self.text
        #: This window's own file, once another window wrote ``buffer.pql``.
        self.aside: Path | None = None

    def save(self, text: str) -> Path | None:
        """Keep ``text``; the file of this window's own when this save is the one that had to
        go there (to say so once), else None. A save that fails is let go (the editor goes on;
        the text is only not kept)."""
        if text == self._written:
            return None
        try:
            directory = data_dir()
            path = directory / BUFFER_FILE
            with locked(directory / BUFFER_LOCK_FILE):
                moved = self.aside is None and _buffer_on_disk(path) not in (None, self._known)
                if moved:
                    self.aside = _new_aside(path)
                write_text_atomic(self.aside or path, text)
        except OSError:
            return None
        self._written = text
        if self.aside is None:
            self._known = text
        return self.aside if moved else None


def _buffer_on_disk(path: Path) -> str | None:
    """What ``path`` holds (None: no file); its bytes escaped when they are not text."""
    try:
        data = read_bounded(path, BUFFER_MAX_BYTES)
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"unreadable: {e}"  # not what this window wrote
    try:
        return decode_text(data)
    except FileProblem:
        return data.decode("utf-8", errors="backslashreplace")


def _new_aside(path: Path) -> Path:
    """A name beside ``path`` for one window's text: ``buffer-20250101-120000.pql``."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.stem}-{stamp}{path.suffix}")
    n = 1
    while aside.exists() or aside.is_symlink():
        n += 1
        aside = path.with_name(f"{path.stem}-{stamp}-{n}{path.suffix}")
    return aside


def save_buffer(text: str) -> bool:
    """Keeps the editor text for the next session, replacing the old one in one step; False
    when it cannot be written (the editor goes on; the text is only not kept)."""
    try:
        write_text_atomic(data_dir() / BUFFER_FILE, text)
    except OSError:
        return False
    return True
