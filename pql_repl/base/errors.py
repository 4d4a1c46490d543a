"""The exceptions pql raises. Every error that belongs to a place in the query carries it, and
every failure of the API is a ``PqlError``: a wrong argument is a ``PqlArgumentError`` (also a
``ValueError``, or a ``TypeError`` as ``PqlArgumentTypeError``)."""

from __future__ import annotations


class PqlError(Exception):
    """Base class: ``message``, 1-based ``line``/``col``, byte ``span``, optional ``hint``."""

    # Positional, because the Rust boundary builds these from a tuple.
    def __init__(  # noqa: PLR0917
        self,
        message: str,
        line: int | None = None,
        col: int | None = None,
        span: tuple[int, int] | None = None,
        hint: str | None = None,
        rendered: str | None = None,
    ) -> None:
        super().__init__(rendered or message)
        self.message = message
        self.line = line
        self.col = col
        self.span = span
        self.hint = hint
        self.rendered = rendered or message
        # Several errors found in one pass; the first is this one.
        self.errors: list[PqlError] = [self]

    def __str__(self) -> str:
        return self.rendered


class PqlSyntaxError(PqlError):
    """The text is not valid PQL."""


class PqlTypeError(PqlError):
    """Valid PQL that does not make sense: unknown names, wrong argument types, bad streets."""


class PqlRangeError(PqlError):
    """A range, board or dead-card text that cannot be read."""


class PqlRuntimeError(PqlError):
    """The query cannot be run: no legal deal, a where clause that never holds, an internal error."""


class PqlCancelled(PqlError):
    """The run was cancelled."""


class PqlArgumentError(PqlError, ValueError):
    """A value the API cannot take (``trials=0``, ``cluster=''``, a named range called ``a``):
    a ``ValueError`` too, naming the argument."""


class PqlArgumentTypeError(PqlArgumentError, TypeError):
    """An argument of the wrong type (``run(None)``, ``cluster=5``): a ``TypeError`` too,
    naming the argument and the type it must be."""


class PqlMissingDependency(PqlError, ImportError):
    """A feature needs a library pql does not install (``to_pandas`` needs pandas): the message
    says what to install. An ``ImportError`` too."""


class ClusterError(PqlError):
    """The cluster cannot be used: Dask missing, an address pql cannot use, no scheduler
    answering there, or workers that run another pql version (``pql_repl.api.cluster``)."""


#: Source text quoted in a message is cut to this many characters (the engine's
#: ``error::EXCERPT_CHARS``), so a megabyte-long word cannot make a megabyte-long message.
EXCERPT_CHARS = 40
#: A source line longer than this (in characters) is shown as a window around the caret (the
#: engine's ``WINDOW_CHARS``).
WINDOW_CHARS = 100


def excerpt(text: str) -> str:
    """``text`` as quoted in a message: at most ``EXCERPT_CHARS`` characters, with ``…`` when cut."""
    return text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS] + "…"


def caret_window(line: str, col: int, width: int) -> tuple[str, str]:
    """The source line and the caret line under ``width`` characters from 1-based column
    ``col``, as the engine shows them: a long line cut to ``WINDOW_CHARS`` around the caret
    (``…`` where cut), control characters as spaces, tabs kept in the caret line."""
    at = max(0, min(col - 1, len(line)))
    if len(line) <= WINDOW_CHARS:
        start, end = 0, len(line)
    else:
        start = min(max(0, at - WINDOW_CHARS // 3), len(line) - WINDOW_CHARS)
        end = min(start + WINDOW_CHARS, len(line))
    shown = "".join(c if c.isprintable() or c == "\t" else " " for c in line[start:end])
    caret = "".join("\t" if c == "\t" else " " for c in line[start : min(at, end)])
    if start > 0:
        shown, caret = "…" + shown, " " + caret
    if end < len(line):
        shown += "…"
    caret += "^" * max(1, min(width, end - at))
    return shown, caret


__all__ = [
    "ClusterError",
    "PqlArgumentError",
    "PqlArgumentTypeError",
    "PqlCancelled",
    "PqlError",
    "PqlRangeError",
    "PqlRuntimeError",
    "PqlSyntaxError",
    "PqlTypeError",
]
