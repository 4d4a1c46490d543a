"""The user's named ranges (``.define $open 'QQ+, AKs'``), kept in the data directory.

Every range string may use them as ``$open`` (the engine reads them in the game and syntax of the
range that uses them). They live in ``ranges.json`` (name without the ``$`` -> range text) so
that the ``pql`` command, both REPLs and ``pql_repl.run`` all see the same ones. Nothing here
checks a name or a range: ``session.py`` does that through the engine before storing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pql_repl import config

RANGES_FILE = "ranges.json"

#: The file's contents by (path, mtime, size), so a query checked on every key press costs a
#: ``stat``, not a read.
_cache: dict[tuple[str, int, int], dict[str, str]] = {}


def ranges_path() -> Path:
    return config.data_dir() / RANGES_FILE


def load() -> dict[str, str]:
    """The stored named ranges (name without ``$`` -> text); ``{}`` when there are none or the
    file cannot be read (a broken file must not stop every query)."""
    path = ranges_path()
    try:
        st = path.stat()
    except OSError:
        return {}
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key in _cache:
        return dict(_cache[key])
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    ranges = {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
    _cache.clear()  # only the newest version is worth keeping
    _cache[key] = ranges
    return dict(ranges)


def _write(ranges: dict[str, str]) -> None:
    path = ranges_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(dict(sorted(ranges.items())), indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)  # readers never see half a file


def store(name: str, text: str) -> None:
    """Save (or replace) ``$name``; the name is stored without its ``$``."""
    ranges = load()
    bare = name.removeprefix("$")
    # Names are case-insensitive: a new spelling replaces the old one.
    for old in [k for k in ranges if k.lower() == bare.lower()]:
        del ranges[old]
    ranges[bare] = text
    _write(ranges)


def remove(name: str) -> bool:
    """Forget ``$name``; False when there was no such range."""
    ranges = load()
    bare = name.removeprefix("$").lower()
    kept = {k: v for k, v in ranges.items() if k.lower() != bare}
    if len(kept) == len(ranges):
        return False
    _write(kept)
    return True
