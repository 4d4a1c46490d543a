"""Reading and writing the user's files so that nothing hostile hangs pql and nothing is lost.

- ``read_bounded`` reads at most a given number of bytes (``/dev/zero`` ends with an error,
  not with the memory gone), and on request refuses FIFOs and sockets instead of waiting on them;
- ``decode_text`` decodes UTF-8 and names the first bad byte by line and column;
- ``write_text_atomic`` and ``ReplacingFile`` write a temporary file beside the target and
  rename it over the target, so the old file stays whole until the new one is complete;
- ``append_locked`` appends a record with one ``write`` under an exclusive lock, so concurrent
  sessions cannot interleave their records.

Every failure is an ``OSError`` (``FileProblem`` for what the system would not call one), whose
message a front end can print as it is.
"""

from __future__ import annotations

import contextlib
import os
import stat

# Loaded where a file is written: reading statements needs neither pathlib nor tempfile, and
# scripts start on every run.
TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import BinaryIO, TextIO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: appends are still single writes
    fcntl = None  # type: ignore[assignment]

#: Bytes read at a time.
_CHUNK = 1 << 16


class FileProblem(OSError):
    """A file that can be opened but not used: too large, not text, not a regular file."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def _umask() -> int:
    # Read once, at import (on the main thread): setting it to read it is not thread-safe.
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _umask()


def read_bounded(path: Path | str, limit: int, *, regular_only: bool = False) -> bytes:
    """The bytes of the file at ``path``; ``FileProblem`` when it holds more than ``limit``
    bytes. With ``regular_only``, a FIFO or a socket is refused at once (opening a FIFO would
    wait for a writer); character devices are read like files, within the limit."""
    flags = os.O_RDONLY | (os.O_NONBLOCK if regular_only else 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(21, "Is a directory")
        if regular_only:
            if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
                raise FileProblem("not a regular file")
            os.set_blocking(fd, True)
        if stat.S_ISREG(mode) and os.fstat(fd).st_size > limit:
            raise FileProblem(f"larger than {_size(limit)}")
        parts: list[bytes] = []
        total = 0
        while True:
            part = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not part:
                return b"".join(parts)
            parts.append(part)
            total += len(part)
            if total > limit:
                raise FileProblem(f"larger than {_size(limit)}")
    finally:
        os.close(fd)


def read_stream_bounded(stream: object, limit: int) -> bytes:
    """At most ``limit`` bytes of a binary stream (stdin's buffer), ``FileProblem`` past it."""
    read = getattr(stream, "read")  # noqa: B009 - any object with read(n)
    parts: list[bytes] = []
    total = 0
    while True:
        part = read(min(_CHUNK, limit + 1 - total))
        if not part:
            return b"".join(parts)
        parts.append(part)
        total += len(part)
        if total > limit:
            raise FileProblem(f"larger than {_size(limit)}")


def _size(n: int) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n} bytes"


def decode_text(data: bytes) -> str:
    """``data`` as UTF-8 (a leading byte-order mark dropped); ``FileProblem`` naming the first
    byte that is not UTF-8 by line and column."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise FileProblem(f"not UTF-8 text ({bad_byte(data, e.start)})") from None


def bad_byte(data: bytes, at: int) -> str:
    """``byte 0xff at line 3, column 7`` for the byte at offset ``at`` (columns in characters)."""
    line_start = data.rfind(b"\n", 0, at) + 1
    line = data.count(b"\n", 0, at) + 1
    column = len(data[line_start:at].decode("utf-8", "replace")) + 1
    return f"byte {data[at]:#04x} at line {line}, column {column}"


def surrogate_bytes(text: str) -> bytes | None:
    """The bytes a text decoded with ``surrogateescape`` (as Python decodes command-line
    arguments and a C locale's stdin) came from, when it holds bytes that are not UTF-8; None
    for a text that is all Unicode."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape")
    return None


# ---------------------------------------------------------------------------------------------
# Writing


def _replaceable(path: Path | str) -> Path | None:
    """The file a rename should replace for ``path`` (symbolic links followed, so the link
    stays), or None when ``path`` names something a rename must not replace: a device such
    as ``/dev/full``, a FIFO, a terminal."""
    from pathlib import Path  # noqa: PLC0415 (see the imports)

    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target
    return target if stat.S_ISREG(mode) else None


def _mode_for(target: Path) -> int:
    """The permissions the new file takes: the old file's, or the usual ones for a new file."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        return 0o666 & ~_UMASK


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _temporary(target: Path) -> tuple[int, Path]:
    import tempfile  # noqa: PLC0415 (see the imports)

    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    return fd, target.parent / name


def write_text_atomic(path: Path, text: str) -> None:
    """Replaces the file at ``path`` with ``text`` (UTF-8) in one step: the text goes to a
    temporary file beside it, which is then renamed over it. On any failure the old file is
    untouched and the temporary file is removed. A path that is not a regular file (a device)
    is written in place."""
    data = text.encode("utf-8")
    target = _replaceable(path)
    if target is None:
        with open(path, "wb") as f:
            f.write(data)
        return
    fd, temp = _temporary(target)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temp, _mode_for(target))
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


class ReplacingFile:
    """A text file (UTF-8) that replaces ``path`` atomically, for results written as a run goes.

    What is written goes to a temporary file beside the target, which takes the target's name at
    the first ``flush`` after a write: until then the old file stays as it was (a run that fails
    or is killed before its first result loses nothing). The temporary file is made by the first
    write (that one can be made is tried at once, so a folder that cannot take it fails here):
    a run killed before it leaves nothing beside the target. Later writes go on in place. Going back
    (``seek`` to an earlier position, then ``truncate``, as a JSON document is rewritten) starts
    a new temporary file holding what came before that position, which replaces the file at the
    next ``flush``: a rewrite cut short leaves the previous version whole."""

    encoding = "utf-8"

    def __init__(self, path: Path | str, target: Path) -> None:
        self.name = str(path)
        self._target = target
        self._mode = _mode_for(target)
        fd, probe = _temporary(target)
        os.close(fd)
        probe.unlink()
        #: The temporary file not yet renamed over the target (None before the first write, and
        #: once it has been renamed).
        self._pending: Path | None = None
        #: What is written to: the temporary file, or the target once renamed (None before the
        #: first write).
        self._file: BinaryIO | None = None
        self._position = 0
        self._dirty = False
        self.closed = False

    def write(self, text: str) -> int:
        data = text.encode("utf-8")
        if self._file is None:
            fd, self._pending = _temporary(self._target)
            self._file = os.fdopen(fd, "wb")
        self._file.write(data)
        self._position += len(data)
        self._dirty = True
        return len(text)

    def tell(self) -> int:
        return self._position

    def seek(self, position: int) -> int:
        """Back to ``position`` (bytes): what follows it is replaced by what is written next."""
        if self._file is None:  # nothing written yet: nothing to go back over
            return self._position
        if position == self._position:
            return position
        if self._pending is not None:
            # Not yet visible: rewrite the temporary file itself.
            self._file.seek(position)
        else:
            self._file.flush()
            with open(self._target, "rb") as old:
                head = old.read(position)
            fd, temp = _temporary(self._target)
            new = os.fdopen(fd, "wb")
            try:
                new.write(head)
            except BaseException:
                new.close()
                temp.unlink()
                raise
            self._file.close()
            self._file, self._pending = new, temp
        self._position = position
        return position

    def truncate(self) -> int:
        if self._file is not None:
            self._file.truncate(self._position)
        return self._position

    def flush(self) -> None:
        if self._file is None:
            return
        self._file.flush()
        if self._pending is not None and self._dirty:
            os.fsync(self._file.fileno())
            os.chmod(self._pending, self._mode)
            os.replace(self._pending, self._target)
            self._pending = None

    def close(self) -> None:
        """Finishes the file: what was written replaces the target; if nothing was, the target
        is left as it was."""
        if self.closed:
            return
        self.closed = True
        try:
            if self._dirty:
                self.flush()
        finally:
            if self._file is not None:
                self._file.close()
            if self._pending is not None:
                with contextlib.suppress(OSError):
                    self._pending.unlink()
                self._pending = None

    def isatty(self) -> bool:
        return False


def open_replacing(path: Path | str) -> ReplacingFile | None:
    """A ``ReplacingFile`` for ``path``, or None when ``path`` is no regular file to replace
    (a device such as ``/dev/full``, a FIFO): the caller then writes to it directly."""
    target = _replaceable(path)
    return None if target is None else ReplacingFile(path, target)


def open_output(path: Path | str) -> TextIO:
    """``path`` opened for results: a ``ReplacingFile`` (the old file stays until the first
    result replaces it), or the path itself for what cannot be replaced (a device, a FIFO)."""
    replacing = open_replacing(path)
    if replacing is None:
        return open(path, "w", encoding="utf-8")
    # It has every method a result writer uses (write, flush, tell, seek, truncate, close).
    return replacing  # type: ignore[return-value]


def append_locked(path: Path, data: bytes) -> None:
    """Appends ``data`` to the file at ``path`` (made if missing) with one ``write`` under an
    exclusive lock, so records of concurrent writers never interleave. When the file was
    replaced while waiting for the lock (history trimmed by another session), the record goes
    to the new file."""
    for _ in range(8):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                current = os.stat(path).st_ino
            except FileNotFoundError:
                current = None
            if current != os.fstat(fd).st_ino:
                continue  # replaced meanwhile: open the new one
            _write_all(fd, data)
            return
        finally:
            os.close(fd)  # releases the lock
    raise FileProblem(f"{path} keeps being replaced; the entry was not saved")


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Holds an exclusive lock on the file at ``path`` (made if missing) for a rewrite."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
