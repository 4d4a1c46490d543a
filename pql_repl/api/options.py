"""What callers pass to the engine, checked before it runs: run options (trials, seed, threads,
time limit, exact, batch), text the engine can read, and the named ranges a statement may use (the
user's file is read only for a text that names one). A wrong argument is a ``PqlArgumentError``
(a ``ValueError`` too), one of the wrong type a ``PqlArgumentTypeError`` (a ``TypeError`` too),
each naming the argument."""

from __future__ import annotations

import operator

from pql_repl.base.errors import PqlArgumentError, PqlArgumentTypeError, PqlError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def shown(value: object, most: int = 40) -> str:
    """``value`` as a message names it: its repr, cut to ``most`` characters."""
    text = repr(value)
    return text if len(text) <= most else text[: most - 1] + "…"


def text_argument(name: str, value: object) -> str:
    """``value``, which must be a str; ``PqlArgumentTypeError`` naming ``name`` otherwise."""
    if not isinstance(value, str):
        raise PqlArgumentTypeError(f"{name} must be a str, not {type(value).__name__} {shown(value)}")
    return value


def optional_text(name: str, value: object) -> str | None:
    """``value``, which must be a str or None; ``PqlArgumentTypeError`` naming ``name`` otherwise."""
    return None if value is None else text_argument(name, value)


def resolve_macros(macros: Mapping[str, str] | None, *texts: str) -> dict[str, str]:
    """The named ranges ``texts`` may use: those given (checked: ``checked_macros``), or else
    those of the user's stored ones that the texts use (``files.named_ranges.used_by``; the file
    is not even looked at when no text holds a ``$``)."""
    if macros is not None:
        return checked_macros(macros)
    if not any("$" in t for t in texts):
        return {}
    from pql_repl.files import named_ranges  # noqa: PLC0415 (only for a text with a $name)

    return named_ranges.used_by(*texts)


def checked_macros(macros: object) -> dict[str, str]:
    """Named ranges a caller gives (``macros=``): a mapping of names (with or without their
    ``$``) to range texts, each name one the engine takes and each text Unicode text."""
    from collections.abc import Mapping  # noqa: PLC0415 (only when a caller gives ranges)

    from pql_repl.files.named_ranges import name_problem  # noqa: PLC0415 (idem)

    if not isinstance(macros, Mapping):
        raise PqlArgumentTypeError(
            f"macros must be a mapping of range names to range texts, or None, not {shown(macros)}"
        )
    checked: dict[str, str] = {}
    for name, text in macros.items():
        if not isinstance(name, str) or not isinstance(text, str):
            raise PqlArgumentTypeError(
                f"macros must map names (str) to range texts (str), not {shown(name)} to {shown(text)}"
            )
        problem = name_problem(name.removeprefix("$"))
        if problem:
            raise PqlArgumentError(f"macros: {problem}")
        if not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                raise PqlArgumentError(
                    f"macros: the range of ${name.removeprefix('$')} is not Unicode text"
                ) from None
        checked[name] = text
    return checked


def check_exact(exact: object) -> None:
    """``exact``: True (enumerate every deal), False (sample) or None (the planner decides)."""
    if exact is not None and not isinstance(exact, bool):
        raise PqlArgumentTypeError(f"exact must be True, False or None, not {shown(exact)}")


def check_batch(batch: object) -> None:
    """``batch``: the seconds between two snapshots, a number (0 or less: every snapshot)."""
    if isinstance(batch, bool) or not isinstance(batch, int | float):
        raise PqlArgumentTypeError(f"batch must be a number of seconds, not {shown(batch)}")


_MAX_WHOLE = 2**64 - 1


def _whole_number(name: str, value: object, minimum: int) -> int:
    """``value`` as an int in ``minimum .. 2**64 - 1``; a ``PqlArgumentError`` (or
    ``PqlArgumentTypeError``) naming ``name`` otherwise."""
    if isinstance(value, bool):
        raise PqlArgumentTypeError(f"{name} must be a whole number, not {shown(value)}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise PqlArgumentTypeError(f"{name} must be a whole number, not {shown(value)}") from None
    if not minimum <= number <= _MAX_WHOLE:
        raise PqlArgumentError(
            f"{name} must be a whole number from {minimum} to {_MAX_WHOLE}, not {shown(number)}"
        )
    return number


def checked_options(*, trials: object, seed: object, threads: object, time_limit: object) -> dict[str, Any]:
    """The numeric run options checked as ``Query.stream`` documents (None stays None)."""
    return {
        "trials": None if trials is None else _whole_number("trials", trials, 1),
        "seed": None if seed is None else _whole_number("seed", seed, 0),
        "threads": None if threads is None else _whole_number("threads", threads, 1),
        "time_limit": _time_limit(time_limit),
    }


def _time_limit(value: object) -> float | None:
    """A time limit in seconds: None (no limit) or a positive number; zero is refused rather
    than read as no limit (as ``--time-limit 0`` is)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PqlArgumentTypeError(f"time_limit must be a number of seconds or None, not {shown(value)}")
    if not value > 0:
        raise PqlArgumentError(
            f"time_limit must be a positive number of seconds (None for no limit), not {shown(value)}"
        )
    return float(value)


def unicode_checked(text: str, error: type[PqlError], origin: tuple[int, int] = (1, 1)) -> None:
    """Raises ``error`` at the first character of ``text`` that is not Unicode text: a lone
    surrogate, which is how Python carries bytes that were not UTF-8 (command-line arguments, a
    C locale's stdin) and which the engine cannot read."""
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        before = text[: e.start]
        line = before.count("\n") + 1
        col = e.start - (before.rfind("\n") + 1) + 1
        if line == 1:
            col += origin[1] - 1
        line += origin[0] - 1
        start = len(before.encode("utf-8", "surrogatepass"))
        message = (
            f"the text holds {text[e.start]!r}, which is not a character: "
            "bytes that are not UTF-8 text, read as if they were?"
        )
        raise error(
            message, line, col, (start, start + 3), "pass UTF-8 text", f"line {line}, col {col}: {message}"
        ) from None
