"""Typed text cut into statements and dot-commands (``split_statements``), whether it is complete
(``is_complete``), and scripts read from files (``read_script``)."""

from __future__ import annotations

import importlib

from pql_repl.base.limits import MAX_READ_DEPTH, SCRIPT_MAX_BYTES
from pql_repl.base.records import record
from pql_repl.files.storage import FileProblem, decode_text, read_bounded
from pql_repl.session.settings import SessionError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


def sweep_clause(text: str) -> bool:
    """Whether statement ``text`` has a sweep clause (``pql_repl.api.sweeps``, loaded only then)."""
    return bool(importlib.import_module("pql_repl.api.sweeps").is_sweep(text))


def read_script(path: Path | str, depth: int = 0) -> str:
    """The text of the script at ``path``, asked for by a script ``depth`` `.read`s deep (0: a
    script given on the command line or typed in a REPL). Every front end reads scripts here, so
    all of them stop a script that reads itself and report an unreadable file the same way;
    raises ``SessionError``."""
    if depth >= MAX_READ_DEPTH:
        raise SessionError(f".read nested more than {MAX_READ_DEPTH} deep", "does a script read itself?")
    try:
        return decode_script(read_bounded(path, SCRIPT_MAX_BYTES), str(path))
    except FileProblem as e:
        raise SessionError(f"cannot read '{path}': {e}") from None
    except OSError as e:
        raise SessionError(f"cannot read '{path}': {e.strerror or e}") from None


def decode_script(data: bytes, name: str) -> str:
    """The text of a script's bytes; ``SessionError`` naming ``name`` and the first byte that
    is not UTF-8 (by line and column)."""
    try:
        return decode_text(data)
    except FileProblem as e:
        raise SessionError(f"cannot read '{name}': {e}", "save it as UTF-8") from None


@record(frozen=True)
class Statement:
    """One PQL statement of a text, without its ``;``. ``line``/``col`` (1-based) and ``offset``
    (characters) locate its first character in the text it was split from."""

    text: str
    line: int
    col: int
    offset: int


@record(frozen=True)
class DotCommand:
    """A line that starts with ``.``, for ``Session.handle``; ``line`` is 1-based."""

    text: str
    line: int


def _dot_command_at(text: str, i: int) -> int | None:
    """Where the dot-command on the line starting at ``i`` begins (its ``.``): the line's first
    characters other than spaces and tabs are ``.`` and an ASCII letter or ``_``. None when the
    line holds no dot-command."""
    n = len(text)
    while i < n and text[i] in " \t":
        i += 1
    if i + 1 >= n or text[i] != ".":
        return None
    first = text[i + 1]
    return i if first == "_" or (first.isascii() and first.isalpha()) else None


#: What may end a run of ordinary characters: a line break, a quote, a `;`, a comment's start
#: (`/` and `-` are looked at again). Found with ``str.find``, not ``re``: ``pql -c`` does
#: without the re module (a fifth of its start).
_SPECIAL = "\n'\";/-"


def _scan(text: str, open_tail: list[bool] | None = None) -> Iterator[Statement | DotCommand]:
    """The items of ``text``, each as soon as it is read; at the end ``open_tail`` (if given)
    holds whether the last statement is still open (no ``;`` or blank line after it yet, or an
    unterminated string or comment)."""
    items: list[Statement | DotCommand] = []
    start: int | None = None  # where the statement being read begins
    has_code = False  # it holds more than comments
    i, n = 0, len(text)
    line_start = 0
    # Line and column are counted on from the last position asked for (positions only grow),
    # so a long script costs one pass, not one pass per statement.
    counted = [0, 1, 0]  # position, its line, where that line starts

    def position(at: int) -> tuple[int, int]:
        pos, line, starts = counted
        breaks = text.count("\n", pos, at)
        if breaks:
            line += breaks
            starts = text.rfind("\n", pos, at) + 1
        counted[:] = [at, line, starts]
        return line, at - starts + 1

    def close(end: int) -> None:
        nonlocal start, has_code
        if start is not None and has_code:
            body = text[start:end].rstrip()
            line, col = position(start)
            items.append(Statement(body, line, col, start))
        start, has_code = None, False

    # Where each special character next occurs at or after i (n: nowhere): each is searched
    # for again only once passed, so all the searches together read the text once per character.
    following = dict.fromkeys(_SPECIAL, -1)

    def next_special(i: int) -> int:
        for c, at in following.items():
            if at < i:
                found = text.find(c, i)
                following[c] = n if found < 0 else found
        return min(following.values())

    while i < n:
        if items:
            yield from items
            items.clear()
        if i == line_start and (dot := _dot_command_at(text, i)) is not None:
            # A dot-command is never PQL (nothing in PQL starts with `.` and a letter), so it
            # also ends a statement someone forgot to terminate.
            close(i)
            end = text.find("\n", i)
            end = n if end < 0 else end
            items.append(DotCommand(text[dot:end].strip(), position(i)[0]))
            i = line_start = end + 1
            continue
        # Runs of ordinary characters are passed over at once: a script is read in time linear
        # in its length, however it is written (16 MiB of '(' took 4.5 s one by one).
        stop = next_special(i)
        if stop > i:
            run = text[i:stop]
            code = run.lstrip()
            if code:
                if start is None:
                    start = stop - len(code)
                has_code = True
            i = stop
            continue
        c = text[i]
        if c == "\n":
            if start is not None and text[line_start:i].strip() == "":
                close(i)  # a blank line ends a statement
            line_start = i + 1
            i += 1
            continue
        if start is None:
            start = i
        if c in "'\"":
            # Strings have no escapes (a double quote reads like a single one): scan to the
            # next quote of the same kind.
            end = text.find(c, i + 1)
            if end < 0:
                has_code = True
                break
            line_start = max(line_start, text.rfind("\n", i, end) + 1)
            i, has_code = end + 1, True
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                has_code = True  # let the parser report the unterminated comment
                break
            line_start = max(line_start, text.rfind("\n", i, end) + 1)
            i = end + 2
            continue
        if text.startswith("--", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c == ";":
            close(i)
        else:
            has_code = True  # a `/` or `-` that starts no comment
        i += 1
    if open_tail is not None:
        open_tail.append(start is not None and has_code)
    close(n)
    yield from items


def split_statements(text: str) -> list[Statement | DotCommand]:
    """The statements and dot-commands of ``text`` in order. A statement ends with ``;``, a blank
    line, a dot-command line or the end of the text; ``;`` and blank lines inside strings and
    ``/* */`` comments do not count; parts that hold only comments are dropped."""
    return list(_scan(text))


def iter_statements(text: str) -> Iterator[Statement | DotCommand]:
    """As ``split_statements``, each item as soon as it is read: a reader that stops early
    (after too many errors) does not read the rest of a long text."""
    return _scan(text)


def is_complete(text: str) -> bool:
    """Whether ``text`` can be run as it is: every statement is closed by ``;`` or a blank line
    (so a REPL knows whether Enter runs the input or starts a new line). Dot-commands and empty
    text are complete."""
    open_tail: list[bool] = []
    for _ in _scan(text, open_tail):
        pass
    return not open_tail[0]
