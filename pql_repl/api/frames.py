"""Results as pandas DataFrames, in the shapes and under the names of the CSV exports (``tidy``),
each column with its dtype: whole numbers as ints, values and errors as floats (NaN where there
is none), ``exact`` as bools, the seed as a nullable unsigned int (a seed is 64 bits, more than
a float holds). pandas is optional (``pip install 'pql-repl[pandas]'``): it is imported here,
when a frame is asked for, and its absence is a ``PqlMissingDependency`` saying what to install.
"""

from __future__ import annotations

import importlib

from pql_repl.api.tidy import DTYPES, STATEMENT_COLUMNS, statement_records
from pql_repl.base.errors import PqlMissingDependency

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from typing import Any

    from pql_repl.api.result_fields import ResultFields
    from pql_repl.api.tidy import Cell


def optional(module: str, extra: str) -> Any:
    """The optional library ``module``; ``PqlMissingDependency`` naming the extra that installs
    it when it is missing."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise PqlMissingDependency(
            f"this needs {module}, which pql does not install: pip install 'pql-repl[{extra}]' "
            f"(or pip install {module})"
        ) from None


def frame(
    records: Sequence[Sequence[Cell]], columns: Sequence[str], dtypes: Mapping[str, str] | None = None
) -> Any:
    """A DataFrame of ``records`` under ``columns``: a column named in ``dtypes`` or
    ``tidy.DTYPES`` of its dtype, another (a selector's value or error) of its values' type:
    floats when they are all numbers, text otherwise; missing values NaN (``<NA>`` for a seed)."""
    pandas = optional("pandas", "pandas")
    table = pandas.DataFrame({name: [r[i] for r in records] for i, name in enumerate(columns)})
    own = dtypes or {}
    for i, name in enumerate(columns):
        known = [r[i] for r in records if r[i] is not None]
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in known)
        dtype = own.get(name) or DTYPES.get(_unsuffixed(name)) or ("float64" if numbers else "str")
        try:
            column = table.iloc[:, i].astype(dtype)
        except (TypeError, ValueError):  # a rows file's own column called like one of ours
            dtype = "str"
            column = table.iloc[:, i].astype(dtype)
        table.isetitem(i, column.where(column.notna(), None) if dtype == "str" else column)
    return table


def _unsuffixed(name: str) -> str:
    """A run column's name without the statement's number (``trials_2``: ``trials``)."""
    base, _, number = name.rpartition("_")
    return base if number.isdigit() and base in DTYPES else name


def statements_frame(results: Iterable[ResultFields], numbered: bool = True) -> Any:
    """The statement CSV's table of ``results`` (``tidy.STATEMENT_COLUMNS``): statements
    numbered from 1 in the order given, or (``numbered`` False) each by its place in its
    program (``index + 1``)."""
    records: list[tuple[Cell, ...]] = []
    for n, result in enumerate(results, start=1):
        records += statement_records(result, n if numbered else result.index + 1)
    return frame(records, STATEMENT_COLUMNS)
