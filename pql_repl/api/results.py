"""What a run returns: one ``StatementResult`` per statement (its fields are ``ResultFields``: a
``Column`` per selector, histogram ``Bucket`` rows), in a ``Results`` list, and what checking
found in a statement (``StatementInfo``).

A result and a list of them show themselves as a data person wants them: ``to_pandas()`` (the
statement CSV's tidy table, ``frames``), ``to_csv()``, and ``to_html()`` (the terminal's table in
HTML, ``html``), which is their ``_repr_html_()``: what a notebook shows.
"""

from __future__ import annotations

from pql_repl.api import frames, html
from pql_repl.api.output import csv_line, csv_rows, summary_line
from pql_repl.api.result_fields import (
    DEFAULT_TRIALS,
    SIMULATE_TRIALS,
    Bucket,
    Column,
    ResultFields,
    StatementInfo,
)
from pql_repl.api.tidy import STATEMENT_COLUMNS
from pql_repl.base.records import fields

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

__all__ = [
    "DEFAULT_TRIALS",
    "SIMULATE_TRIALS",
    "Bucket",
    "Column",
    "Results",
    "StatementInfo",
    "StatementResult",
    "to_pandas",
]


class StatementResult(ResultFields):
    """The result of one statement, final or (while streaming) so far: its fields
    (``ResultFields``) and its views."""

    def to_pandas(self) -> Any:
        """The statement's rows of the statement CSV as a pandas DataFrame (``tidy``'s columns
        and dtypes: ``statement``, ``selector``, ``kind``, ``label``, ``value``, ``stderr``,
        ``count``, ``trials``, ``exact``, ``status``, ``seed``...), the statement numbered by its
        place in its program. Needs pandas (``pip install 'pql-repl[pandas]'``)."""
        return frames.statements_frame([self], numbered=False)

    def to_csv(self) -> str:
        """The statement CSV of this result alone: its header and rows."""
        return csv_line(STATEMENT_COLUMNS) + "".join(csv_line(r) for r in csv_rows(self, self.index + 1))

    def to_html(self) -> str:
        """The terminal's table as HTML (``html.result_table``): the value's ± 95% margins,
        exact or sampled, histogram bars; an element to put in a page."""
        return html.result_table(self, summary_line(self))

    def _repr_html_(self) -> str:
        """What a notebook shows: ``to_html``."""
        return self.to_html()

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in fields(self))
        return f"StatementResult({inner})"


class Results(list[StatementResult]):
    """The results of a run, one per statement: a list, that also gives them all as one
    DataFrame (``to_pandas``), one CSV (``to_csv``) and one HTML view (``_repr_html_``)."""

    def to_pandas(self) -> Any:
        """Every statement's rows of the statement CSV, numbered from 1 in the list's order, as
        one pandas DataFrame (see ``StatementResult.to_pandas``)."""
        return frames.statements_frame(self)

    def to_csv(self) -> str:
        """The statement CSV of the list, as ``pql --format csv`` writes it."""
        lines = [csv_line(STATEMENT_COLUMNS)]
        for n, result in enumerate(self, start=1):
            lines += [csv_line(r) for r in csv_rows(result, n)]
        return "".join(lines)

    def to_html(self) -> str:
        """Every result's table (``StatementResult.to_html``), one after the other."""
        return "".join(r.to_html() for r in self)

    def _repr_html_(self) -> str:
        """What a notebook shows: ``to_html``."""
        return self.to_html()


def to_pandas(results: Iterable[ResultFields]) -> Any:
    """Any results (a run's, a stream's final snapshots, several runs' together) as one pandas
    DataFrame in the statement CSV's shape, numbered from 1 in the order given."""
    return frames.statements_frame(results)
