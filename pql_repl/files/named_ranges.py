"""The user's named ranges (``.define $open 'QQ+, AKs'``), kept in the data directory.

Every range string may use them as ``$open`` (the engine reads them in the game and syntax of the
range that uses them). They live in ``ranges.json`` (name without the ``$`` -> range text) so
that the ``pql`` command, both REPLs and ``pql_repl.run`` all see the same ones. ``session.py``
checks a name and a range through the engine before storing them.

The file is the user's and may be damaged or hostile. It is read only for a statement that uses a
``$name`` (``used_by``), and a statement is given only the ranges it uses, so a file of many
names costs only the statements that use one. An entry that cannot be used (a name the engine
refuses, a value that is not Unicode text) is skipped, a file that cannot be read (not JSON, not
an object, nested too deep, a directory) is taken as empty, and either is said once a process in
one line naming the file: on stderr, or kept for a front end that shows warnings itself
(``claim_warnings``, then ``take_warnings``).
"""

from __future__ import annotations

import contextlib
import os
import sys

from pql_repl.base.limits import RANGES_MAX_BYTES
from pql_repl.files import config
from pql_repl.files.storage import FileProblem, decode_text, locked, read_bounded, write_text_atomic

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    from pathlib import Path

RANGES_FILE = "ranges.json"

#: The usable ranges of the file by lower-case name (-> name as written, text), by (path,
#: mtime, size), so a query checked on every key press costs a ``stat``, not a read.
_cache: dict[tuple[str, int, int], dict[str, tuple[str, str]]] = {}

#: The warnings said in this process (each is said once), those not yet taken by a front end,
#: and whether a front end takes them (else they go to stderr).
_said: set[str] = set()
_warnings: list[str] = []
_claimed = False

#: The characters of a name after its ``$``, and the built-in suffix macros a name may not be
#: (``rust_core/src/range/macros.rs``, ``check_name``; a test holds the two rules together).
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_BUILT_IN = frozenset({"ds", "ss", "np", "op", "tp", "nt"})


def ranges_path() -> Path:
    return config.data_dir() / RANGES_FILE


def _ranges_file() -> str:
    """``ranges_path()`` as text: pathlib costs the command's start a tenth."""
    return os.path.join(config.data_dir_name(), RANGES_FILE)


def claim_warnings() -> None:
    """A front end shows the warnings itself (``take_warnings``): none go to stderr."""
    global _claimed  # noqa: PLW0603 (one switch for the process)
    _claimed = True


def take_warnings() -> list[str]:
    """The warnings about the named-ranges file found since the last call (one line each)."""
    taken = _warnings[:]
    _warnings.clear()
    return taken


def _warn(message: str) -> None:
    if message in _said:
        return
    _said.add(message)
    if _claimed:
        _warnings.append(message)
        return
    with contextlib.suppress(OSError, ValueError):  # no stderr to write to
        sys.stderr.write(f"pql: warning: {message}\n")
        sys.stderr.flush()


def name_problem(name: str) -> str | None:
    """Why ``name`` (without its ``$``) cannot name a range, or None: the engine's rule (a
    letter, then letters, digits or ``_``, two characters at least; not a built-in macro)."""
    if not (
        len(name) >= 2 and name[0].isascii() and name[0].isalpha() and all(c in _NAME_CHARS for c in name)
    ):
        return (
            f"{_quoted('$' + name)} is not a range name: use a letter, then letters, digits or '_' "
            "(two characters at least)"
        )
    if name.lower() in _BUILT_IN:
        return f"'${name}' is a built-in macro"
    return None


def _quoted(text: str, most: int = 40) -> str:
    cut = text if len(text) <= most else text[: most - 1] + "…"
    return f"'{cut}'" if cut.isprintable() and cut.isascii() else ascii(cut)


def names_in(text: str) -> set[str]:
    """The lower-case names of the ``$name``s in ``text`` (a built-in macro such as ``$ds`` is
    not one): each ``$`` and the name characters after it."""
    names: set[str] = set()
    at = text.find("$")
    while at >= 0:
        end = at + 1
        while end < len(text) and text[end] in _NAME_CHARS:
            end += 1
        word = text[at + 1 : end]
        if len(word) >= 2 and word[0].isalpha() and word.lower() not in _BUILT_IN:
            names.add(word.lower())
        at = text.find("$", end)
    return names


def used_by(*texts: str) -> dict[str, str]:
    """The stored ranges ``texts`` use (name -> text), directly or through the ranges they use;
    the file is not read when no text holds a ``$``."""
    wanted = set().union(*(names_in(t) for t in texts if "$" in t))
    if not wanted:
        return {}
    stored = _usable()
    found: dict[str, tuple[str, str]] = {}
    while wanted:
        name = wanted.pop()
        if name in found or name not in stored:
            continue
        found[name] = stored[name]
        wanted |= names_in(found[name][1]) - found.keys()
    return dict(found.values())


def load() -> dict[str, str]:
    """The stored named ranges that can be used (name without ``$`` -> text); ``{}`` when
    there are none or the file cannot be read (a broken file must not stop every query; it is
    said once)."""
    return dict(_usable().values())


def _usable() -> dict[str, tuple[str, str]]:
    path = _ranges_file()
    try:
        st = os.stat(path)
    except OSError:
        return {}  # none defined yet
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in _cache:
        _cache.clear()  # only the newest version is worth keeping
        _cache[key] = _read_usable(path)
    return _cache[key]


def _read_usable(path: str) -> dict[str, tuple[str, str]]:
    try:
        data = _read(path)
    except OSError as e:
        reason = str(e) if isinstance(e, FileProblem) else e.strerror or str(e)
        _warn(f"cannot read the named ranges in {path}: {reason}; no $name is defined until it is fixed")
        return {}
    usable: dict[str, tuple[str, str]] = {}
    skipped: list[str] = []
    for name, text in data.items():
        problem = name_problem(name) or _text_problem(name, text)
        if problem is None and isinstance(text, str):
            usable[name.lower()] = (name, text)  # names are case-insensitive: the last counts
        else:
            skipped.append(problem or _quoted(name))
    if skipped:
        first = skipped[0] if len(skipped) == 1 else f"the first: {skipped[0]}"
        noun = "named range" if len(skipped) == 1 else "named ranges"
        _warn(f"{path}: skipped {len(skipped)} {noun} that cannot be used: {first}")
    return usable


def _text_problem(name: str, text: object) -> str | None:
    if not isinstance(text, str):
        return f"the value of {_quoted('$' + name)} is not a range text but {type(text).__name__}"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return f"the range of {_quoted('$' + name)} is not Unicode text (it holds a lone surrogate)"
    return None


def _read(path: Path | str) -> dict[str, object]:
    """The entries of the file, as they are; ``FileProblem`` saying why when it is not a JSON
    object (``OSError`` when it cannot be read at all)."""
    import json  # noqa: PLC0415 - only when there is a file: queries start without it

    try:
        data = json.loads(decode_text(read_bounded(path, RANGES_MAX_BYTES, regular_only=True)))
    except RecursionError:
        raise FileProblem("nested too deep") from None
    except ValueError as e:
        raise FileProblem(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise FileProblem("not a JSON object of range texts")
    return data


def _read_for_change() -> dict[str, object]:
    """The stored entries before a change, usable or not (a change keeps what it does not
    touch); a damaged file is an error (rewriting it would lose what it holds), a missing one is
    empty."""
    path = ranges_path()
    if not path.exists():
        return {}
    try:
        return _read(path)
    except FileProblem as e:
        raise FileProblem(f"{path} is not a named-ranges file ({e})") from None


def _write(ranges: dict[str, object]) -> None:
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
