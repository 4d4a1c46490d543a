"""The names and values of every table pql exports, in one place: the statement CSV's columns
(``STATEMENT_COLUMNS``), the columns that say how a row was computed (``RUN_COLUMNS``: trials,
exact, status, seed) and their words (``STATUSES``), a selector's standard error column
(``stderr_column``), and each statement's rows as typed values (``statement_records``), which the
CSV writes as text (``csv_cell``) and ``frames`` gives pandas with their dtypes. Sweeps
(``sweeps``) and spreadsheet mode (``sheet``) name their columns from here too, so that every
export reads into pandas under the same snake_case names.
"""

from __future__ import annotations

from pql_repl.api.numbers import bucket_stderr, csv_count, format_number

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from pql_repl.api.result_fields import Column, ResultFields

#: How a row was computed: trials run (an enumeration's deals), whether the value is exact,
#: ``STATUSES``, and the seed that reproduces it (empty for an exact run, which draws nothing).
RUN_COLUMNS = ("trials", "exact", "status", "seed")

#: What ``status`` holds: the run finished; it was cancelled (a partial result: a time limit
#: stops a Monte Carlo run with what it computed, so it is ``done`` with fewer trials); an
#: enumeration cut short (estimated from a random part of it); a sweep's row with no legal deal
#: (its values leave none: no result); a snapshot of a run that had not ended (an odds view or an
#: explorer's heatmap caught live, or what an interrupt left of an odds view).
STATUSES = ("done", "cancelled", "cut short", "no legal deal", "partial")

#: The statement CSV (``output.csv_rows``) and ``StatementResult.to_pandas``: a tidy table, one
#: row per statement and selector and per histogram bucket, that pandas and duckdb read as it is.
STATEMENT_COLUMNS = (
    "statement",  # its number in the file, from 1
    "query",
    "game",
    "selector",  # the selector's name: its `as` name or its expression
    "kind",  # avg, count, histogram, max or min
    "label",  # a histogram bucket's label, or a max/min value that is not a number
    "value",  # the average, the share of trials (count, bucket) or the max/min
    "stderr",  # standard error of the value: 0 when exact, empty when unknown
    "count",  # trials counted (count, bucket)
    *RUN_COLUMNS,
)

#: The dtype of each column pql names, as ``frames`` gives pandas: a column named here holds only
#: this type (``str``: text, NaN where none; ``UInt64``: whole numbers, ``<NA>`` where none).
DTYPES = {
    "statement": "int64",
    "query": "str",
    "game": "str",
    "selector": "str",
    "kind": "str",
    "label": "str",
    "status": "str",
    "value": "float64",
    "stderr": "float64",
    "count": "float64",
    "trials": "int64",
    "exact": "bool",
    "seed": "UInt64",
    "weight": "float64",
}

#: One cell of a table: text, a number, a flag, or None (an empty cell).
Cell = str | int | float | bool | None


def stderr_column(name: str) -> str:
    """The name of the column of ``name``'s standard error: ``eq_stderr``."""
    return f"{name}_stderr"


def status_word(result: ResultFields) -> str:
    """The result's ``status`` (``STATUSES``)."""
    if result.truncated:
        return "cut short"
    return "cancelled" if result.cancelled else "done"


def snapshot_status(done: bool, cancelled: bool = False) -> str:
    """The ``status`` of a run's snapshot that says only whether it ended (``STATUSES``)."""
    if cancelled:
        return "cancelled"
    return "done" if done else "partial"


def run_values(result: ResultFields) -> tuple[int, bool, str, int | None]:
    """The ``RUN_COLUMNS`` of a result."""
    return result.trials, result.exact, status_word(result), result.seed


def stderr_value(result: ResultFields, stderr: float | None) -> float | None:
    """A standard error as tables hold it: 0 for an exact value, None when unknown."""
    if stderr is not None:
        return stderr
    return 0.0 if result.exact else None


def selector_stderr(result: ResultFields, column: Column) -> float | None:
    """A selector's standard error as tables hold it: an average's or a count's
    (``stderr_value``); None for a max, a min or a histogram's own row."""
    return stderr_value(result, column.stderr) if column.selector in ("avg", "count") else None


def number_value(value: object) -> float | int | None:
    """A selector's value when it is a number (not a flag, a text or nothing)."""
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def statement_records(result: ResultFields, statement: int) -> list[tuple[Cell, ...]]:
    """The rows of one statement (numbered ``statement`` in its file) in ``STATEMENT_COLUMNS``,
    as typed values."""
    common: tuple[Cell, ...] = (statement, result.query, result.game)
    tail: tuple[Cell, ...] = run_values(result)
    rows: list[tuple[Cell, ...]] = []
    for c in result.columns:
        if c.selector == "histogram":
            for b in c.buckets:
                stderr = stderr_value(result, bucket_stderr(result, c, b))
                rows.append((*common, c.name, c.selector, b.label, b.fraction, stderr, b.count, *tail))
            continue
        number = number_value(c.value)
        label = None if number is not None or c.value is None else format_number(c.value)
        stderr = selector_stderr(result, c)
        count = c.count if c.selector == "count" else None
        rows.append((*common, c.name, c.selector, label, number, stderr, count, *tail))
    if result.kind == "simulate":
        # The verdict as rows of their own: the chosen action (a label), whether the run stopped
        # on an obvious move (1 or 0, with the trials then as the count), the gap between the
        # two best actions with its paired standard error.
        rows.append((*common, "chosen", "choice", result.chosen or None, None, None, None, *tail))
        stopped = int(result.stopped_early)
        rows.append((*common, "stopped_early", "flag", None, stopped, None, result.stopped_after, *tail))
        if result.gap is not None:
            rows.append((*common, "gap", "avg", None, result.gap, result.gap_stderr, None, *tail))
    return rows


def csv_number(value: float | int | None) -> str:
    """A number as CSV holds it: ``repr`` of a float (every digit), an int as it is, a flag as 1
    or 0, '' for None."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    return repr(float(value)) if isinstance(value, float) else str(value)


def csv_cell(value: Cell, column: str = "") -> str:
    """A typed cell as CSV text: a flag as ``true``/``false`` (which pandas and duckdb read as
    booleans), a ``count`` as ``csv_count`` writes it, numbers as ``csv_number``, None as ''."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if column == "count":
        return csv_count(value)
    return csv_number(value)
