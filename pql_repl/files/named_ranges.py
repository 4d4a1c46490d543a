"""The user's named ranges (``.define $open 'QQ+, AKs'``), kept in the data directory.

Every range string may use them as ``$open`` (the engine reads them in the game and syntax of the
range that uses them). They live in ``ranges.json`` (name without the ``$`` -> range text) so
that the ``pql`` command, both REPLs and ``pql_repl.run`` all see the same ones. Nothing here
checks a name or a range: ``session.py`` does that through the engine before storing.
"""

from __future__ import annotations

import contextlib
import os

from pql_repl.base.limits import RANGES_MAX_BYTES
from pql_repl.files import config
from pql_repl.files.storage import FileProblem, decode_text, locked, read_bounded, write_text_atomic

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    from pathlib import Path

RANGES_FILE = "ranges.json"

#: The file's contents by (path, mtime, size), so a query checked on every key press costs a
#: ``stat``, not a read.
_cache: dict[tuple[str, int, int], dict[str, str]] = {}


def ranges_path() -> Path:
    return config.data_dir() / RANGES_FILE


def _ranges_file() -> str:
    """``ranges_path()`` as text: every query reads the file, and pathlib costs the command's
    start a tenth."""
    return os.path.join(config.data_dir_name(), RANGES_FILE)


def load() -> dict[str, str]:
    """The stored named ranges (name without ``$`` -> text); ``{}`` when there are none or the
    file cannot be read (a broken file must not stop every query)."""
    path = _ranges_file()
    try:
        st = os.stat(path)
    except OSError:
        return {}
    key = (path, st.st_mtime_ns, st.st_size)
    if key in _cache:
        return dict(_cache[key])
    try:
        ranges = _read(path)
    except OSError:
        return {}
    _cache.clear()  # only the newest version is worth keeping
    _cache[key] = ranges
    return dict(ranges)


def _read(path: Path | str) -> dict[str, str]:
    """The ranges in the file; ``FileProblem`` when it is not a JSON object of texts."""
    import json  # noqa: PLC0415 - only when there is a file: queries start without it

    try:
        data = json.loads(decode_text(read_bounded(path, RANGES_MAX_BYTES, regular_only=True)))
    except ValueError as e:
        raise FileProblem(f"{path} is not a named-ranges file ({e})") from None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise FileProblem(f"{path} is not a named-ranges file (a JSON object of range texts)")
    return {str(k): v for k, v in data.items()}


def _read_for_change() -> dict[str, str]:
    """The stored ranges before a change; a damaged file is an error (rewriting it would lose
    what it holds), a missing one is empty."""
    path = ranges_path()
    if not path.exists():
        return {}
    return _read(path)


def _write(ranges: dict[str, str]) -> None:
    import json  # noqa: PLC0415 - only `.define` writes

    path = ranges_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(dict(sorted(ranges.items())), indent=2) + "\n")  # never half a file


def store(name: str, text: str) -> None:
    """Save (or replace) ``$name``; the name is stored without its ``$``. Raises ``OSError``
    when the file cannot be read or written."""
    with _locked():
        _store(name, text)


def _store(name: str, text: str) -> None:
    ranges = _read_for_change()
    bare = name.removeprefix("$")
    # Names are case-insensitive: a new spelling replaces the old one.
    for old in [k for k in ranges if k.lower() == bare.lower()]:
        del ranges[old]
    ranges[bare] = text
    _write(ranges)


def remove(name: str) -> bool:
    """Forget ``$name``; False when there was no such range."""
    with _locked():
        return _remove(name)


def _remove(name: str) -> bool:
    ranges = _read_for_change()
    bare = name.removeprefix("$").lower()
    kept = {k: v for k, v in ranges.items() if k.lower() != bare}
    if len(kept) == len(ranges):
        return False
    _write(kept)
    return True


def _locked() -> contextlib.AbstractContextManager[None]:
    """Two sessions defining ranges at once: each reads, changes and writes under the lock."""
    path = ranges_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return locked(path.with_suffix(".lock"))
