"""Sweeps: one statement run once per value of its placeholders, as one table.

    select avg(riverEquity(hero)) as eq from game='holdem', hero='QQ+, AK', villain='22+',
      board=$flop
    sweep $flop over flops('canonical')

A placeholder (``$flop``) stands where a quoted value would (``board=$flop``); each row puts
one value in its place, quoted. ``sweep`` names one or more placeholders, each ``over`` a list
(``flops('canonical')``, ``flops('all')``, ``turns('Kh9h7d')``, ``rivers('Kh9h7d2c')``,
``classes('holdem')``, ``ranks``, or ``('AKs', 'QQ', '76s')``); with several, every
combination is a row. Every row is checked before any runs. The result has a row per
substitution with every selector's value and error, and their aggregate weighted by what each
row stands for (a canonical flop weighs the flops it stands for).
"""

from __future__ import annotations

import importlib
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import islice, product
from typing import Any

from pql_repl.api import frames, html, sweep_values
from pql_repl.api.numbers import format_estimate, format_weight
from pql_repl.api.options import shown, text_argument
from pql_repl.api.output import csv_line, csv_rows, md_row
from pql_repl.api.results import Column, StatementResult
from pql_repl.api.run import Query
from pql_repl.api.sweep_values import SweepValue
from pql_repl.api.tidy import (
    RUN_COLUMNS,
    STATEMENT_COLUMNS,
    Cell,
    csv_cell,
    csv_number,
    number_value,
    run_values,
    selector_stderr,
    stderr_column,
)
from pql_repl.base.errors import (
    PqlArgumentTypeError,
    PqlError,
    PqlRuntimeError,
    PqlSyntaxError,
    caret_window,
    excerpt,
)
from pql_repl.base.limits import FILLED_MAX_CHARS, SWEEP_MAX_ROWS
from pql_repl.base.records import field, record

#: The lists a sweep may run over, by name: (function, how many text arguments it takes).
SOURCES: dict[str, tuple[Callable[..., list[SweepValue]], tuple[int, int]]] = {
    "flops": (sweep_values.flops, (0, 1)),
    "turns": (sweep_values.turns, (1, 1)),
    "rivers": (sweep_values.rivers, (1, 1)),
    "classes": (sweep_values.classes, (0, 1)),
    "ranks": (sweep_values.ranks, (0, 0)),
}

#: Words of the sweep clause, for highlighting and completion.
SWEEP_KEYWORDS = ("sweep", "over", *SOURCES)

#: Strings and comments, whichever starts first (as the lexer reads them); a comment left open
#: runs to the end (so an open ``/*`` is read once, not once per later ``/*``).
_SKIPPED = re.compile(r"""'[^']*'|"[^"]*"|--[^\n]*|/\*.*?(?:\*/|\Z)""", re.S)
_SWEEP = re.compile(r"(?i)\bsweep\b")
_PLACEHOLDER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
#: What stands between the parentheses of a list: quoted values (which may hold parentheses and
#: commas) and anything else but parentheses.
_INSIDE = r"""(?:'[^']*'|"[^"]*"|[^()'"])*"""
_CLAUSE = re.compile(
    rf"""\s*\$(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s+(?i:over)\s+
    (?:(?P<source>[A-Za-z_]+)\s*(?:\((?P<args>{_INSIDE})\))?|\((?P<list>{_INSIDE})\))\s*(?P<comma>,?)""",
    re.X,
)
#: One quoted value of a list and the comma after it.
_ITEM = re.compile(r"""\s*('[^']*'|"[^"]*")\s*(?:(,)|\Z)""")
#: What would end the quoted string a value is put in: a value holding one would rewrite the
#: statement (``TT', p3='QQ`` seats a third player).
QUOTES = "'\""


def _blank(text: str) -> str:
    """``text`` with its comments and the insides of its strings blanked (offsets kept), to
    find keywords and placeholders in it."""

    def blank(m: re.Match[str]) -> str:
        skipped = m.group()
        spaces = re.sub(r"[^\n]", " ", skipped)
        return skipped[0] + spaces[1:-1] + skipped[-1] if skipped[0] in QUOTES else spaces

    return _SKIPPED.sub(blank, text)


def _error(
    text: str,
    at: int,
    length: int,
    message: str,
    *,
    hint: str | None = None,
    origin: tuple[int, int] = (1, 1),
) -> PqlSyntaxError:
    """An error at ``at`` of ``text`` (which starts at line and column ``origin`` of a script);
    a long line is shown as a window around the caret, as the engine shows its errors."""
    line = text.count("\n", 0, at) + 1
    start = text.rfind("\n", 0, at) + 1
    col = at - start + 1
    end = text.find("\n", at)
    source_line = text[start : end if end >= 0 else len(text)]
    shown, caret = caret_window(source_line, col, length)
    if line == 1:
        col += origin[1] - 1
    line += origin[0] - 1
    rendered = f"line {line}, col {col}: {message}\n  {shown}\n  {caret}"
    if hint:
        rendered += f"\n  hint: {hint}"
    return PqlSyntaxError(message, line, col, (at, at + length), hint, rendered)


def _strings(args: str) -> list[tuple[int, str]] | None:
    """The quoted items of an argument list (``'a', "b, c"``), each with the offset of its
    opening quote in ``args``; None when it holds anything else."""
    items: list[tuple[int, str]] = []
    at = 0
    while args[at:].strip():
        m = _ITEM.match(args, at)
        if m is None:
            return None
        items.append((m.start(1), m.group(1)[1:-1]))
        at = m.end()
        if m.group(2) is None:
            break
    return items


@record
class Sweep:
    """A statement with placeholders and the lists they run over (``parse``)."""

    template: str
    #: Each placeholder's name and values, in the order the sweep names them.
    axes: list[tuple[str, list[SweepValue]]]

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.axes]

    def rows(self) -> Iterator[tuple[list[str], float, str]]:
        """Each combination's values, weight and filled statement (placeholders outside strings
        replaced by the quoted value; a `$name` inside a string is a named range)."""
        spots = [(m.start(), m.end(), m.group(1)) for m in _PLACEHOLDER.finditer(_blank(self.template))]
        for combo in product(*(values for _, values in self.axes)):
            by_name = {name: v.text for (name, _), v in zip(self.axes, combo, strict=True)}
            parts, at = [], 0
            for start, end, name in spots:
                parts += [self.template[at:start], "'" + by_name[name] + "'"]
                at = end
            parts.append(self.template[at:])
            yield [v.text for v in combo], math.prod(v.weight for v in combo), "".join(parts)

    def __len__(self) -> int:
        return math.prod(len(values) for _, values in self.axes)


def is_sweep(text: str) -> bool:
    """Whether ``text`` (one statement) has a ``sweep`` clause."""
    return _SWEEP.search(_blank(text)) is not None


def parse(
    text: str,
    values: Mapping[str, Sequence[str | SweepValue]] | None = None,
    origin: tuple[int, int] = (1, 1),
) -> Sweep:
    """The sweep of ``text``: its statement and clause, or (``values``, from Python) the lists
    of its placeholders by name. Raises ``PqlError`` naming the place of a problem (lines and
    columns counted from ``origin``, where ``text`` starts in a script)."""

    def error(at: int, length: int, message: str, hint: str | None = None) -> PqlSyntaxError:
        return _error(text, at, length, message, hint=hint, origin=origin)

    blank = _blank(text)
    found = _SWEEP.search(blank)
    axes: list[tuple[str, list[SweepValue]]] = []
    template = text
    if found is not None:
        template = text[: found.start()]
        at = found.end()
        while True:
            m = _CLAUSE.match(text, at)
            if m is None:
                rest = text[at:].strip()
                where = at + (len(text[at:]) - len(text[at:].lstrip()))
                raise error(
                    where,
                    max(1, len(rest.split()[0]) if rest else 1),
                    "expected '$name over LIST' after sweep",
                    "sweep $flop over flops('canonical'); the lists: "
                    + ", ".join(SOURCES)
                    + ", ('AKs', 'QQ')",
                )
            axes.append((m.group("name"), _values(text, m, origin)))
            at = m.end()
            if not m.group("comma"):
                break
        if text[at:].strip().rstrip(";").strip():
            raise error(at + len(text[at:]) - len(text[at:].lstrip()), 1, "unexpected text after the sweep")
    for name, given in (values or {}).items():
        listed = [v if isinstance(v, SweepValue) else SweepValue(str(v)) for v in given]
        quoted = next((v.text for v in listed if any(q in v.text for q in QUOTES)), None)
        if quoted is not None:
            raise PqlSyntaxError(f"${excerpt(name)}: {_QUOTED} ({excerpt(quoted)})", hint=_QUOTED_HINT)
        axes.append((name, listed))
    names = [n for n, _ in axes]
    for n in names:
        if names.count(n) > 1:
            raise PqlSyntaxError(f"${excerpt(n)} is swept twice")
    used = {m.group(1): m.start() for m in _PLACEHOLDER.finditer(_blank(template))}
    for name, at in used.items():
        if name not in names:
            shown = excerpt(name)
            raise error(at, len(name) + 1, f"${shown} is not swept", f"add: sweep ${shown} over ...")
    for name in names:
        if name not in used:
            raise PqlSyntaxError(
                f"${excerpt(name)} is swept but the statement does not use it",
                hint=f"write board=${excerpt(name)}",
            )
    if not axes:
        raise PqlSyntaxError("a sweep needs a placeholder", hint="sweep $flop over flops('canonical')")
    for name, vals in axes:
        if not vals:
            raise PqlSyntaxError(f"${excerpt(name)} runs over an empty list")
    _bounded(template, axes, None if found is None else (found.start(), len(text) - found.start()), error)
    return Sweep(template.rstrip(), axes)


_QUOTED = "a value may not hold a quote (' or \")"
_QUOTED_HINT = "values are ranges, boards or cards, which the sweep puts in quotes: ('AKs', 'QQ+, AK')"


def _bounded(
    template: str,
    axes: list[tuple[str, list[SweepValue]]],
    clause: tuple[int, int] | None,
    error: Callable[..., PqlSyntaxError],
) -> None:
    """Refuses a sweep of more than ``SWEEP_MAX_ROWS`` rows, or whose filled statements hold
    more than ``FILLED_MAX_CHARS`` characters together, before any row is built (the error at
    ``clause``, its offset and length, when the sweep is written in the text)."""
    rows = math.prod(len(values) for _, values in axes)
    spots = [m.group(1) for m in _PLACEHOLDER.finditer(_blank(template))]
    fixed = len(template) - sum(len(name) + 1 for name in spots)
    chars = rows * fixed + sum(
        spots.count(name) * (rows // len(values)) * sum(len(v.text) + 2 for v in values)
        for name, values in axes
    )
    if rows > SWEEP_MAX_ROWS:
        message = f"the sweep has {rows:,} rows; a sweep runs at most {SWEEP_MAX_ROWS:,}"
        hint = "sweep fewer values (flops('canonical') stands for all 22,100 flops), or split the sweep"
    elif chars > FILLED_MAX_CHARS:
        message = (
            f"the sweep's {rows:,} statements hold {chars:,} characters together; "
            f"at most {FILLED_MAX_CHARS:,}"
        )
        hint = "a shorter statement, or fewer rows"
    else:
        return
    if clause is None:
        raise PqlSyntaxError(message, hint=hint)
    raise error(clause[0], clause[1], message, hint)


def _values(text: str, m: re.Match[str], origin: tuple[int, int]) -> list[SweepValue]:
    def error(at: int, length: int, message: str, hint: str | None = None) -> PqlSyntaxError:
        return _error(text, at, length, message, hint=hint, origin=origin)

    if m.group("list") is not None:
        items = _strings(m.group("list"))
        if items is None:
            raise error(
                m.start("list"), len(m.group("list")), "a list of quoted values, such as ('AKs', 'QQ')"
            )
        for at, item in items:
            if any(q in item for q in QUOTES):
                raise error(m.start("list") + at, len(item) + 2, _QUOTED, _QUOTED_HINT)
        return sweep_values.listed(item for _, item in items)
    source = m.group("source")
    if source.lower() not in SOURCES:
        import difflib  # noqa: PLC0415 (only for a misspelt list: the command starts faster)

        close = difflib.get_close_matches(source.lower()[:40], list(SOURCES), n=1)
        hint = f"did you mean '{close[0]}'?" if close else "the lists: " + ", ".join(SOURCES)
        raise error(m.start("source"), len(source), f"unknown list '{excerpt(source)}'", hint)
    make, (least, most) = SOURCES[source.lower()]
    found = _strings(m.group("args") or "")
    args = None if found is None else [arg for _, arg in found]
    if args is None or not least <= len(args) <= most:
        raise error(
            m.start("source"),
            m.end() - m.start("source"),
            f"{source} takes {least if least == most else f'{least} to {most}'} quoted argument"
            f"{'' if most == 1 else 's'}",
        )
    try:
        return make(*args)
    except (ValueError, PqlError) as e:
        message = str(e).splitlines()[0] if str(e) else type(e).__name__
        message = message if len(message) <= 200 else message[:200] + "…"
        raise error(m.start("source"), m.end() - m.start("source"), message) from None


# ---------------------------------------------------------------------------------------------
# Running


@record
class SweepRow:
    """One substitution's values, weight and result; a row whose values leave no legal deal
    (the flop holds a card of a given hand) has no result, only ``error``, and is left out of
    the aggregate."""

    values: list[str]
    weight: float
    result: StatementResult | None
    error: str | None = None


@record
class SweepResult:
    """The rows run so far (all of them once ``done``), each with its statement's result, and
    the weighted aggregate of every selector."""

    names: list[str]
    selectors: list[str]
    rows: list[SweepRow] = field(default_factory=list)
    total: int = 0
    done: bool = False
    #: The statement with its placeholders (``$flop``), without the sweep clause.
    query: str = ""

    @property
    def answered(self) -> list[tuple[SweepRow, StatementResult]]:
        """The rows that have a result, with it."""
        return [(r, r.result) for r in self.rows if r.result is not None]

    def aggregate(self) -> list[tuple[float | None, float | None]]:
        """Each selector's weighted mean over the rows with a result and its standard error
        (None for a histogram or a value that is not a number; the error is None when every
        row is exact)."""
        answered = self.answered
        exact = all(result.exact for _, result in answered)
        out: list[tuple[float | None, float | None]] = []
        for i in range(len(self.selectors)):
            num = den = var = 0.0
            ok = bool(answered)
            for row, result in answered:
                c = result.columns[i]
                if (
                    c.selector == "histogram"
                    or not isinstance(c.value, int | float)
                    or isinstance(c.value, bool)
                ):
                    ok = False
                    break
                num += row.weight * float(c.value)
                den += row.weight
                var += (row.weight * float(c.stderr or 0.0)) ** 2
            out.append(
                (num / den, None if exact else math.sqrt(var) / den) if ok and den > 0 else (None, None)
            )
        return out

    # -- tables ------------------------------------------------------------------------------

    def header(self) -> list[str]:
        """The sweep CSV's columns: each placeholder, ``weight``, each selector and its
        ``_stderr`` (``tidy.stderr_column``), then ``tidy.RUN_COLUMNS``."""
        cols = [*self.names, "weight"]
        for s in self.selectors:
            cols += [s, stderr_column(s)]
        return [*cols, *RUN_COLUMNS]

    def _values(self, row: SweepRow) -> list[Cell]:
        """A row's cells in ``header``'s order, typed (a histogram as ``label: share`` pairs
        separated by ``; ``; a row without a result: its status, no values)."""
        cells: list[Cell] = [*row.values, row.weight]
        if row.result is None:
            return [*cells, *[None] * (2 * len(self.selectors)), 0, False, row.error or "no legal deal", None]
        for c in row.result.columns:
            if c.selector == "histogram":
                cells += ["; ".join(f"{b.label}: {b.fraction:.6g}" for b in c.buckets), None]
                continue
            value = number_value(c.value)
            shown = value if value is not None else (None if c.value is None else str(c.value))
            cells += [shown, selector_stderr(row.result, c)]
        return [*cells, *run_values(row.result)]

    def _aggregate_values(self) -> list[Cell]:
        """The aggregate's cells: ``all`` in the first placeholder's column, the summed weight of
        the rows with a result, each selector's weighted mean and its error, their trials
        summed, whether all were exact, the sweep's status (done, or cancelled while rows are
        left), and the seed when every sampled row had the same one."""
        answered = self.answered
        exact = bool(answered) and all(result.exact for _, result in answered)
        cells: list[Cell] = ["all", *[None] * (len(self.names) - 1), sum(r.weight for r, _ in answered)]
        for value, stderr in self.aggregate():
            cells += [value, stderr if stderr is not None else (0.0 if exact and value is not None else None)]
        seeds = {result.seed for _, result in answered if result.seed is not None}
        seed = seeds.pop() if len(seeds) == 1 else None
        trials = sum(result.trials for _, result in answered)
        return [*cells, trials, exact, "done" if self.done else "cancelled", seed]

    def _records(self) -> list[list[Cell]]:
        return [*(self._values(r) for r in self.rows), self._aggregate_values()]

    def _cells(self, row: SweepRow) -> list[str]:
        return [csv_cell(v) for v in self._values(row)]

    def _aggregate_cells(self) -> list[str]:
        return [csv_cell(v) for v in self._aggregate_values()]

    def to_csv(self) -> str:
        """A header, a line per row, and the aggregate last (its first cell ``all``)."""
        lines = [self.header(), *(self._cells(r) for r in self.rows), self._aggregate_cells()]
        return "".join(csv_line(line) for line in lines)

    def history_csv_rows(self, statement: int, placeholders: Sequence[str]) -> list[list[str]]:
        """The sweep in the tidy CSV of a results history (``output.render_history``), as its
        ``statement``-th entry: each row's statement as the rows ``output.csv_rows`` gives
        it (its filled query; ``no legal deal`` as the status of a row without a result),
        then the aggregate (``all``, the query with its placeholders, the trials summed); each
        ends in the row's number in the sweep (``all`` for the aggregate), its weight and its
        value of each of ``placeholders`` (names with ``$``; '' for a name not swept here)."""
        answered = self.answered
        game = answered[0][1].game if answered else ""
        found = [c.selector for c in answered[0][1].columns] if answered else []
        kinds = [*found, *[""] * len(self.selectors)][: len(self.selectors)]

        def tail(number: str, weight: float, values: Mapping[str, str]) -> list[str]:
            return [number, csv_number(weight), *(values.get(p, "") for p in placeholders)]

        def cells(selector: str, kind: str, value: Cell, stderr: Cell, run: Sequence[Cell]) -> list[str]:
            record = (statement, self.query, game, selector, kind, None, value, stderr, None, *run)
            return [csv_cell(v, c) for v, c in zip(record, STATEMENT_COLUMNS, strict=True)]

        rows: list[list[str]] = []
        for number, row in enumerate(self.rows, start=1):
            values = {f"${n}": v for n, v in zip(self.names, row.values, strict=True)}
            end = tail(str(number), row.weight, values)
            if row.result is not None:
                rows += [[*cells, *end] for cells in csv_rows(row.result, statement)]
                continue
            run = (0, False, row.error or "no legal deal", None)
            rows += [
                [*cells(s, kind, None, None, run), *end]
                for s, kind in zip(self.selectors, kinds, strict=True)
            ]
        aggregate = self._aggregate_values()
        totals = aggregate[-len(RUN_COLUMNS) :]
        end = tail("all", sum(r.weight for r, _ in answered), {})
        means = aggregate[len(self.names) + 1 : -len(RUN_COLUMNS)]
        for i, (selector, kind) in enumerate(zip(self.selectors, kinds, strict=True)):
            value, stderr = means[2 * i], means[2 * i + 1]
            if value is None:
                continue  # a histogram, or a value that is not a number: no mean
            rows.append([*cells(selector, kind, value, stderr, totals), *end])
        return rows

    def to_json(self) -> dict[str, Any]:
        """The sweep as ``pql --format json`` writes it: its placeholders and selectors, each row
        (its values, weight, how it was run and each selector's value and standard error, a
        histogram's buckets), the aggregate, and how many rows are done."""

        def number(x: object) -> object:
            return x if isinstance(x, int | float | str | bool) or x is None else str(x)

        def column(result: StatementResult | None, c: Column) -> dict[str, Any]:
            shown: dict[str, Any] = {"value": number(c.value), "stderr": c.stderr}
            if c.selector == "histogram":
                shown["buckets"] = c.to_dict(result)["buckets"]  # each with its standard error
            return shown

        def row(r: SweepRow) -> dict[str, Any]:
            trials, exact, status, seed = (
                run_values(r.result) if r.result else (0, None, r.error or "no legal deal", None)
            )
            return {
                "values": dict(zip(self.names, r.values, strict=True)),
                "weight": r.weight,
                "trials": trials,
                "exact": exact,
                "status": status,
                "seed": seed,
                "error": r.error,
                "columns": {c.name: column(r.result, c) for c in (r.result.columns if r.result else [])},
            }

        return {
            "placeholders": self.names,
            "selectors": self.selectors,
            "rows": [row(r) for r in self.rows],
            "aggregate": {
                s: {"value": v, "stderr": e}
                for s, (v, e) in zip(self.selectors, self.aggregate(), strict=True)
            },
            "rows_done": len(self.rows),
            "rows_total": self.total,
            "done": self.done,
        }

    def shown_cells(self, row: SweepRow) -> list[str]:
        """A row as people read it: its values, weight, and each selector as value ± error
        (``no legal deal`` in the first selector's place when it has no result)."""
        cells = [*row.values, format_weight(row.weight)]
        if row.result is None:
            return [*cells, row.error or "", *[""] * (len(self.selectors) - 1)]
        for c in row.result.columns:
            shown = (
                f"{len(c.buckets)} values"
                if c.selector == "histogram"
                else format_estimate(c.value, c.stderr)
            )
            cells.append(shown)
        return cells

    def to_table(self) -> str:
        """A plain text table: a row per substitution (value ± error), the aggregate last."""
        head = [*self.names, "weight", *self.selectors]
        body = [self.shown_cells(r) for r in self.rows]
        agg = ["all", *[""] * (len(self.names) - 1), format_weight(sum(r.weight for r, _ in self.answered))]
        agg += [format_estimate(v, e) if v is not None else "" for v, e in self.aggregate()]
        widths = [max(len(row[i]) for row in [head, *body, agg]) for i in range(len(head))]

        def line(cells: list[str]) -> str:
            return "  ".join(
                c.ljust(w) if i < len(self.names) else c.rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()

        rule = "  ".join("-" * w for w in widths)
        state = "" if self.done else f"  ({len(self.rows)} of {self.total} rows)"
        return "\n".join([line(head), rule, *map(line, body), rule, line(agg)]) + state + "\n"

    def to_markdown(self) -> str:
        """The CSV's table as a plain pipe table."""
        head = self.header()
        lines = [md_row(head), "| " + " | ".join("---" for _ in head) + " |"]
        lines += [md_row(self._cells(r)) for r in self.rows]
        lines.append(md_row(self._aggregate_cells()))
        return "\n".join(lines) + "\n"

    def to_html(self) -> str:
        """The sweep's table as HTML (``html.sweep_table``)."""
        return html.sweep_table(self)

    def _repr_html_(self) -> str:
        """What a notebook shows: ``to_html``."""
        return self.to_html()

    def to_records(self) -> list[dict[str, Any]]:
        """One mapping per row of the CSV (the aggregate last), under its columns
        (``header``), its values typed."""
        header = self.header()
        return [dict(zip(header, values, strict=True)) for values in self._records()]

    def to_pandas(self) -> Any:
        """The sweep CSV as a pandas DataFrame: its columns (``header``) and rows (the
        aggregate last), with the dtypes of ``tidy`` (pandas is optional:
        ``pip install 'pql-repl[pandas]'``)."""
        return frames.frame(self._records(), self.header())

    def to_polars(self) -> Any:
        """The rows as a polars DataFrame (polars is not a dependency: install it to use this)."""
        return frames.optional("polars", "polars").DataFrame(self.to_records())

    def __str__(self) -> str:
        return self.to_table()


@record
class CheckedSweep:
    """A sweep whose every row's statement is checked: (values, weight, filled statement) per
    row, and the statement's selectors. A row is compiled again when it runs: nothing compiled
    is kept, so a sweep's memory is its statements' text (bounded: ``FILLED_MAX_CHARS``)."""

    sweep: Sweep
    rows: list[tuple[list[str], float, str]]
    selectors: list[str] = field(default_factory=list)


def check(sweep: Sweep, limit: int | None = None) -> CheckedSweep:
    """Every row's statement (the first ``limit`` ones), filled and checked; the first problem
    raises ``PqlError`` saying which values made it."""
    rows = []
    selectors: list[str] | None = None
    for values, weight, filled in islice(sweep.rows(), limit):
        try:
            query = Query(filled)
        except PqlError as e:
            shown = ", ".join(
                f"${excerpt(n)}={excerpt(v)!r}" for n, v in zip(sweep.names, values, strict=True)
            )
            raise type(e)(
                f"with {shown}: {e.message}", hint=e.hint, rendered=f"with {shown}: {e.rendered}"
            ) from None
        if len(query.statements) != 1:
            raise PqlSyntaxError("a sweep runs one statement")
        if selectors is None:
            selectors = list(query.statements[0].selectors)
        rows.append((values, weight, filled))
    return CheckedSweep(sweep, rows, selectors or [])


def stream(
    checked: CheckedSweep,
    *,
    run: Callable[[Query], list[StatementResult]] | None = None,
    cluster: Any = None,
    **options: Any,
) -> Iterator[SweepResult]:
    """Runs the checked rows: yields the result after each row (the last one ``done``).
    ``run`` runs one row's statement (default ``query.run(**options)``); with ``cluster`` (a
    Dask scheduler address or client) the rows run there as tasks, ending in any order (the
    table keeps the sweep's order)."""
    rows = checked.rows
    result = SweepResult(
        checked.sweep.names, list(checked.selectors), total=len(rows), query=checked.sweep.template
    )
    if cluster is not None:
        dask_layer = importlib.import_module("pql_repl.api.cluster")  # Dask only when asked for
        client = dask_layer.connect(cluster)
        done: dict[int, SweepRow] = {}
        for i, answer in dask_layer.run_rows(client, [text for _, _, text in rows], options):
            values, weight, _ = rows[i]
            done[i] = (
                SweepRow(values, weight, None, answer)
                if isinstance(answer, str)
                else SweepRow(values, weight, answer)
            )
            result.rows = [done[k] for k in sorted(done)]
            result.done = len(done) == result.total
            yield result
        return
    run_one = run or (lambda q: q.run(**options))
    for values, weight, text in rows:
        try:
            (r,) = run_one(Query(text))
            result.rows.append(SweepRow(values, weight, r))
        except PqlRuntimeError as e:
            if not e.message.startswith("no legal deal"):
                raise
            result.rows.append(SweepRow(values, weight, None, "no legal deal"))
        result.done = len(result.rows) == result.total
        yield result


def _value_list(name: str, given: object) -> list[str | SweepValue]:
    """A placeholder's values given from Python: a list or tuple of texts or ``SweepValue``s;
    ``PqlArgumentTypeError`` naming it otherwise (a str would be swept letter by letter)."""
    if not isinstance(given, list | tuple) or not all(isinstance(v, str | SweepValue) for v in given):
        raise PqlArgumentTypeError(
            f"{name} must be a list of values (str or SweepValue), such as {name}=pql_repl.flops(), "
            f"not {type(given).__name__} {shown(given)}"
        )
    return list(given)


def sweep(text: str, *, trials: int = 600_000, **kwargs: Any) -> SweepResult:
    """Runs the sweep statement ``text``; keyword arguments that are lists give placeholders
    their values (``flop=pql_repl.flops('canonical')``), the others are run options (``seed``,
    ``exact``, ``threads``, ``time_limit``, ``precision``) and ``cluster``: a Dask scheduler
    address or client to run the rows on (``pql_repl.api.cluster``)."""
    text = text_argument("text", text)
    run_keys = {"seed", "exact", "threads", "time_limit", "precision", "cluster"}
    values = {k: _value_list(k, v) for k, v in kwargs.items() if k not in run_keys}
    options = {k: v for k, v in kwargs.items() if k in run_keys}
    last: SweepResult | None = None
    for last in stream(check(parse(text, values)), trials=trials, **options):  # noqa: B007 (the last one)
        pass
    assert last is not None
    return last
