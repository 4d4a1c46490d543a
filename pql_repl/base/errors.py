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


class ClusterError(PqlError):
    """The cluster cannot be used: Dask missing, an address pql cannot use, no scheduler
    answering there, or workers that run another pql version (``pql_repl.api.cluster``)."""


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
