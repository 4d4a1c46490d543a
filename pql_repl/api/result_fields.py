"""The fields of what a run returns: ``ResultFields`` per statement, its ``Column`` per selector
and histogram ``Bucket`` rows, and what checking found in a statement (``StatementInfo``).

The engine returns plain dicts in the JSON shape that ``to_dict`` writes; this module gives them
types. The class a run returns, ``StatementResult`` (``results``), adds the views of a result
(a pandas frame, HTML) to these fields. The writers of tables, CSV and HTML (``numbers``,
``output``, ``tidy``, ``html``) read only the fields, so ``results`` can use them without an
import circle.
"""

from __future__ import annotations

import math
from collections import namedtuple

from pql_repl.base.records import field, record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from typing import Any, NamedTuple, Self

DEFAULT_TRIALS = 600_000
#: Trials of a ``simulate`` statement when none are asked for (docs/language/simulate.md).
SIMULATE_TRIALS = 10_000


if TYPE_CHECKING:

    class Bucket(NamedTuple):
        """One histogram row: the value's label, how many accepted trials had it, and their share.

        A named tuple, so both ``b.label`` and ``label, count, fraction = b`` (docs/python.md) work."""

        label: str
        # Shadows tuple.count on purpose: the field's name is the contract (docs/python.md).
        count: float  # type: ignore[assignment]
        fraction: float

else:  # the same named tuple without loading typing, which costs the command a tenth of its start
    Bucket = namedtuple("Bucket", ["label", "count", "fraction"])
    Bucket.__doc__ = "One histogram row: the value's label, how many accepted trials had it, and their share."


@record(frozen=True)
class Column:
    """One selector's result. ``value`` is the average (``avg``), the fraction of accepted trials
    (``count``), the extreme (``max``/``min``) or None (``histogram``, see ``buckets``)."""

    name: str
    selector: str
    value: float | str | None
    stderr: float | None = None
    count: float | None = None
    buckets: list[Bucket] = field(default_factory=list)
    #: Standard errors of the buckets' shares by label, when the engine knows them (an
    #: enumeration so far or cut short: see ``StatementResult.truncated``).
    bucket_stderrs: dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Column:
        return cls(
            name=d["name"],
            selector=d["selector"],
            value=d.get("value"),
            stderr=d.get("stderr"),
            count=d.get("count"),
            buckets=[Bucket(b["label"], b["count"], b["fraction"]) for b in d.get("buckets", [])],
            bucket_stderrs={
                b["label"]: b["stderr"] for b in d.get("buckets", []) if b.get("stderr") is not None
            },
        )

    def to_dict(self, result: ResultFields | None = None) -> dict[str, Any]:
        """The column's JSON; a histogram's buckets with their standard errors when ``result``
        (the column's) is given (``ResultFields.bucket_stderr``: null for an exact run)."""
        d: dict[str, Any] = {"name": self.name, "selector": self.selector}
        if self.selector == "histogram":
            known = self.bucket_stderrs.get
            d["buckets"] = [
                _bucket_dict(b, known(b.label) if result is None else result.bucket_stderr(self, b))
                for b in self.buckets
            ]
            return d
        d["value"] = self.value
        if self.selector == "count":
            d["count"] = None if self.count is None else _whole(self.count)
        if self.selector in ("avg", "count"):
            d["stderr"] = self.stderr
        return d


def _bucket_dict(bucket: Bucket, stderr: float | None) -> dict[str, Any]:
    count = _whole(bucket.count)
    return {"label": bucket.label, "count": count, "fraction": bucket.fraction, "stderr": stderr}


def _whole(count: float) -> float | int:
    """A count as an int when it is whole (the engine counts in floats: weights can make counts
    fractional), so JSON shows ``818`` rather than ``818.0``."""
    return int(count) if math.isfinite(count) and count == int(count) else count


@record(frozen=True)
class ResultFields:
    """The result of one statement, final or (while streaming) so far: its fields (a run returns
    them as ``StatementResult``, which adds its views)."""

    query: str
    game: str
    trials: int
    accepted: int
    attempted: int
    exact: bool
    seed: int | None
    elapsed: float
    columns: list[Column]
    index: int = 0
    done: bool = True
    cancelled: bool = False
    #: Share of the work done (0..1), for progress bars.
    progress: float = 1.0
    #: An exhaustive run cut short (time limit or cancel): ``exact`` is False, and the columns
    #: are estimates from the work items it finished, a random sample of them (the items go in
    #: a seeded random order), with standard errors.
    truncated: bool = False
    #: How many deals the whole enumeration has, for exhaustive runs (None for Monte Carlo).
    total_deals: int | None = None
    #: A function sampled inside some deal (an inner enumeration too large to do exactly,
    #: such as ``HvREquity`` against a wide range before the flop): an exhaustive run is then
    #: not ``exact``.
    inner_sampled: bool = False
    #: Why an exhaustive run enumerates: "asked", "small" or "fewer deals than trials" (None
    #: for Monte Carlo).
    enumerated_because: str | None = None
    #: Work items of an exhaustive run in its sample so far, and in the whole enumeration.
    items_done: int | None = None
    items_total: int | None = None
    #: "select", or "simulate" for a ``simulate`` statement, whose columns are its actions (the
    #: value an EV in chips, with its standard error).
    kind: str = "select"
    #: simulate: the action with the greatest EV (ties to the more aggressive).
    chosen: str | None = None
    #: simulate: the run stopped on an obvious move, after ``stopped_after`` trials.
    stopped_early: bool = False
    stopped_after: int | None = None
    #: simulate: the EV of the best action less the second best's, and that paired
    #: difference's standard error.
    gap: float | None = None
    gap_stderr: float | None = None
    #: The precision target a Monte Carlo run stopped at before its trials (every selector's
    #: standard error below it, see ``pql_repl.api.precision``); None when it ran them all.
    stopped_at_precision: float | None = None

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Self:
        return cls(
            query=d["query"],
            game=d["game"],
            trials=d["trials"],
            accepted=d["accepted"],
            attempted=d.get("attempted", d["trials"]),
            exact=d["exact"],
            seed=d.get("seed"),
            elapsed=d["elapsed_s"],
            columns=[Column.from_dict(c) for c in d["columns"]],
            index=d.get("index", 0),
            done=d.get("done", True),
            cancelled=d.get("cancelled", False),
            progress=d.get("progress", 1.0),
            truncated=d.get("truncated", False),
            total_deals=d.get("total_deals"),
            inner_sampled=d.get("inner_sampled", False),
            enumerated_because=d.get("enumerated_because"),
            items_done=d.get("items_done"),
            items_total=d.get("items_total"),
            kind=d.get("kind", "select"),
            chosen=d.get("chosen"),
            stopped_early=d.get("stopped_early", False),
            stopped_after=d.get("stopped_after"),
            gap=d.get("gap"),
            gap_stderr=d.get("gap_stderr"),
            stopped_at_precision=d.get("stopped_at_precision"),
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape for one statement (docs/cli.md, output formats), with ``truncated`` (an exhaustive
        run cut short), ``cancelled`` (a partial result: the run was stopped), ``inner_sampled``
        and, for exhaustive runs, ``total_deals``, ``enumerated_because``, ``items_done`` and
        ``items_total``."""
        d: dict[str, Any] = {
            "query": self.query,
            "game": self.game,
            "trials": self.trials,
            "accepted": self.accepted,
            "attempted": self.attempted,
            "exact": self.exact,
            "truncated": self.truncated,
            "cancelled": self.cancelled,
            "inner_sampled": self.inner_sampled,
            "seed": self.seed,
            "elapsed_s": round(self.elapsed, 6),
            "columns": [c.to_dict(self) for c in self.columns],
        }
        if self.kind == "simulate":
            d["kind"] = self.kind
            d["chosen"] = self.chosen
            d["stopped_early"] = self.stopped_early
            d["stopped_after"] = self.stopped_after
            d["gap"] = self.gap
            d["gap_stderr"] = self.gap_stderr
        if self.stopped_at_precision is not None:
            d["stopped_at_precision"] = self.stopped_at_precision
        if self.total_deals is not None:
            d["total_deals"] = self.total_deals
            d["enumerated_because"] = self.enumerated_because
            d["items_done"] = self.items_done
            d["items_total"] = self.items_total
        return d

    def bucket_stderr(self, column: Column, bucket: Bucket) -> float | None:
        """The standard error of a histogram bucket's share: the engine's for an enumeration so
        far or cut short (from the spread of its work items), sqrt(p(1-p)/n) of the accepted
        trials for Monte Carlo; None for a finished enumeration (no error) or when unknown."""
        if bucket.label in column.bucket_stderrs:
            return column.bucket_stderrs[bucket.label]
        if self.exact or self.total_deals is not None or self.accepted <= 0:
            return None
        return math.sqrt(bucket.fraction * (1 - bucket.fraction) / self.accepted)

    def column(self, name: str) -> Column:
        """The column called ``name`` (case-insensitive)."""
        for c in self.columns:
            if c.name.lower() == name.lower():
                return c
        raise KeyError(name)


@record(frozen=True)
class StatementInfo:
    """What checking found in one statement: its text, game, players and selector names."""

    query: str
    game: str
    players: list[str]
    #: A simulate statement's actions.
    selectors: list[str]
    span: tuple[int, int]
    kind: str = "select"
