"""The value of a notebook cell whose statements are not all plain statements: a sweep's report
or an ``.odds`` view among them. A ``CellResults`` is the list of its parts in the cell's order,
shown as one HTML view (each part's own table, one after the other) and given to pandas as a
frame per part; a cell of statements only stays a ``Results`` (one frame of them all)."""

from __future__ import annotations

from typing import Any

from pql_repl.api import html


class CellResults(list[Any]):
    """A cell's results in order: ``StatementResult``s, ``SweepResult``s, ``Odds`` and
    ``OddsTable``s, each with its own views (``cell[1].to_pandas()``)."""

    def to_pandas(self) -> list[Any]:
        """A pandas DataFrame per part, in order (their shapes differ: a statement's is the
        statement CSV's, a sweep's the sweep CSV's, an odds view's ``Odds.to_pandas``'s)."""
        return [part.to_pandas() for part in self]

    def to_html(self) -> str:
        """Every part's table (its ``_repr_html_``), one after the other, as one element."""
        return html.tables(_part_html(part) for part in self)

    def _repr_html_(self) -> str:
        """What a notebook shows: ``to_html``."""
        return self.to_html()


def _part_html(part: Any) -> str:
    """A part's HTML; a part without a view of its own (none is today) as its escaped text."""
    show = getattr(part, "_repr_html_", None)
    return str(show()) if callable(show) else f"<pre>{html.esc(repr(part))}</pre>"
