"""What callers pass to the engine, checked before it runs: run options (trials, seed, threads,
time limit), text the engine can read, and the named ranges a statement may use (the user's file
is read only for a text that names one)."""

from __future__ import annotations

import operator

from pql_repl.base.errors import PqlError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def resolve_macros(macros: Mapping[str, str] | None, *texts: str) -> dict[str, str]:
    """The named ranges ``texts`` may use: those given, or else those of the user's stored ones
    that the texts use (``files.named_ranges.used_by``; the file is not even looked at when no
    text holds a ``$``)."""
    if macros is not None:
        return dict(macros)
    if not any("$" in t for t in texts):
        return {}
    from pql_repl.files import named_ranges  # noqa: PLC0415 (only for a text with a $name)

    return named_ranges.used_by(*texts)


_MAX_WHOLE = 2**64 - 1


def _whole_number(name: str, value: object, minimum: int) -> int:
    """``value`` as an int in ``minimum .. 2**64 - 1``; a ValueError or TypeError naming
    ``name`` otherwise."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a whole number, not {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be a whole number, not {value!r}") from None
    if not minimum <= number <= _MAX_WHOLE:
        raise ValueError(f"{name} must be a whole number from {minimum} to {_MAX_WHOLE}, not {number}")
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
        raise TypeError(f"time_limit must be a number of seconds or None, not {value!r}")
    if not value > 0:
        raise ValueError(
            f"time_limit must be a positive number of seconds (None for no limit), not {value!r}"
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
