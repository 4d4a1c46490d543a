"""The range explorer's engine, typed: the classes of a two-card game, the equity heatmap and
the equity distribution (computing in the background, polled for snapshots), the board
breakdown and range summaries. Like ``api.py`` this module calls the extension; the explorer's
screens (``tui/explorer*``) and the benchmarks use it.

Each result shows itself as data: ``to_pandas()`` (a tidy frame in ``tidy``'s vocabulary:
``value``, ``stderr``, ``trials``, ``exact``, ``status``) and ``_repr_html_()`` (what the explorer
shows, as ``html.figure_table``s: the grid, the chart, the breakdown). The live runs (``Heatmap``,
``Distribution``) have neither: their snapshots do.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pql_repl import _core
from pql_repl.api import frames, html
from pql_repl.api.catalogue import PERCENT_DECIMALS
from pql_repl.api.numbers import format_weight
from pql_repl.api.options import resolve_macros
from pql_repl.api.run import Query
from pql_repl.api.tidy import snapshot_status
from pql_repl.base.errors import PqlError


@dataclass(frozen=True)
class HandClasses:
    """The starting hands of a two-card game and their classes (``AKs``), in the grid's order."""

    game: str
    #: Class names row by row of the grid (``AA``, ``AKs``, ... ``22``).
    names: list[str]
    #: Every starting hand (``AsKs``), in the engine's order: weights and heatmap values are
    #: lists parallel to it.
    hands: list[str]
    #: The class (an index into ``names``) of each hand.
    class_of: list[int]
    #: Class indices best first in the game's starting-hand ordering, with the percentile at
    #: which ``N%`` first holds each.
    ordering: list[tuple[int, float]]
    #: The grid's ranks, high to low (``AKQJT98765432``).
    ranks: str
    #: The hands of each class (indices into ``hands``).
    combos: list[list[int]] = field(default_factory=list)
    #: Hand string -> its index, for any card order.
    index: dict[str, int] = field(default_factory=dict)

    def hand_index(self, hand: str) -> int | None:
        """The index of ``AsKs`` (or ``KsAs``) in ``hands``."""
        return self.index.get(hand) if hand in self.index else self.index.get(hand[2:4] + hand[0:2])

    def class_index(self, name: str) -> int:
        return self.names.index(name)

    def cell(self, row: int, col: int) -> int:
        """The class at a grid cell."""
        return self._cells[row][col]

    @property
    def size(self) -> int:
        """Rows (and columns) of the grid."""
        return len(self.ranks)

    @property
    def _cells(self) -> list[list[int]]:
        return _grid(self.game)

    def position(self, cls: int) -> tuple[int, int]:
        """The grid cell (row, column) of class ``cls``."""
        return _positions(self.game)[cls]

    def _records(self) -> list[tuple[Any, ...]]:
        rank = {cls: (n, percentile) for n, (cls, percentile) in enumerate(self.ordering, start=1)}
        return [
            (name, *self.position(cls), len(self.combos[cls]), *rank.get(cls, (None, None)))
            for cls, name in enumerate(self.names)
        ]

    def to_pandas(self) -> Any:
        """A row per class in the grid's order: ``hand_class``, its ``grid_row`` and
        ``grid_col`` (from 0), ``combos`` (its hands), its ``rank`` in the ordering (1 is the
        best) and ``percentile`` (in percent: where ``N%`` first holds it). Needs pandas."""
        return frames.frame(self._records(), CLASS_COLUMNS, CLASS_DTYPES)

    def _repr_html_(self) -> str:
        """What a notebook shows: the explorer's grid, each class with its percentile."""
        records = {r[0]: r for r in self._records()}
        rows = [
            [
                html.Figure(records[name][5] / 100, exact=True, label=name)
                for name in (self.names[self.cell(r, c)] for c in range(self.size))
            ]
            for r in range(self.size)
        ]
        caption = f"{self.game}: the hand classes, each with the percentile where N% first holds it"
        return html.figure_table((), rows, kind="pql-classes", caption=caption)


#: ``HandClasses.to_pandas``'s columns and their dtypes.
CLASS_COLUMNS = ("hand_class", "grid_row", "grid_col", "combos", "rank", "percentile")
CLASS_DTYPES = {
    "hand_class": "str",
    "grid_row": "int64",
    "grid_col": "int64",
    "combos": "int64",
    "rank": "Int64",
    "percentile": "float64",
}


@cache
def hand_classes(game: str = "holdem", ordering: str | None = None) -> HandClasses:
    """The classes of ``game`` (hold'em, short deck), in ``ordering`` (of ``N%``; None: the
    default); raises ``PqlError`` for other games."""
    raw = _core.hand_classes(game, ordering)
    combos: list[list[int]] = [[] for _ in raw["names"]]
    for hand, cls in enumerate(raw["class_of"]):
        combos[cls].append(hand)
    return HandClasses(
        game=raw["game"],
        names=list(raw["names"]),
        hands=list(raw["hands"]),
        class_of=list(raw["class_of"]),
        ordering=[(int(c), float(p)) for c, p in raw["ordering"]],
        ranks=raw["ranks"],
        combos=combos,
        index={h: i for i, h in enumerate(raw["hands"])},
    )


def _cell_name(ranks: str, row: int, col: int) -> str:
    if row == col:
        return ranks[row] * 2
    if col > row:
        return ranks[row] + ranks[col] + "s"
    return ranks[col] + ranks[row] + "o"


@cache
def _grid(game: str) -> list[list[int]]:
    classes = hand_classes(game)
    n = classes.size
    return [[classes.names.index(_cell_name(classes.ranks, r, c)) for c in range(n)] for r in range(n)]


@cache
def _positions(game: str) -> dict[int, tuple[int, int]]:
    return {cls: (r, c) for r, row in enumerate(_grid(game)) for c, cls in enumerate(row)}


@dataclass(frozen=True)
class HeatmapSnapshot:
    """The heatmap so far: every class's equity (``None``: no deal fitted it yet) with its
    standard error (0 when exact), every hand's equity, and the focus range's own."""

    exact: bool
    trials: int
    done: bool
    cancelled: bool
    progress: float
    elapsed: float
    classes: list[tuple[float, float] | None]
    hands: list[float | None]
    #: The equity of the range last given to ``Heatmap.set_focus`` (weighted by its weights and
    #: by how often each of its hands can be dealt against the others, as a query deals them)
    #: and its standard error: 0 when exact, infinite when not measured yet (see
    #: ``range_equity``).
    focus: tuple[float, float] | None
    #: The weights ``focus`` is of (None: no focus was given).
    focus_of: tuple[float, ...] | None = None
    #: The heatmap's game (None: the two-card game whose classes the snapshot has).
    game: str | None = None

    @classmethod
    def from_dict(
        cls, d: dict[str, Any], focus_of: tuple[float, ...] | None = None, game: str | None = None
    ) -> HeatmapSnapshot:
        return cls(
            exact=d["exact"],
            trials=d["trials"],
            done=d["done"],
            cancelled=d["cancelled"],
            progress=d["progress"],
            elapsed=d["elapsed_s"],
            classes=[None if c is None else (c[0], c[1]) for c in d["classes"]],
            hands=list(d["hands"]),
            focus=None if d["focus"] is None else (d["focus"][0], d["focus"][1]),
            focus_of=focus_of,
            game=game,
        )

    def hand_classes(self) -> HandClasses:
        """The classes the snapshot's equities are of."""
        if self.game is not None:
            return hand_classes(self.game)
        return next(
            c for c in map(hand_classes, ("holdem", "shortdeck")) if len(c.names) == len(self.classes)
        )

    @property
    def status(self) -> str:
        """``done``, ``cancelled`` or ``partial`` (``tidy.STATUSES``)."""
        return snapshot_status(self.done, self.cancelled)

    def to_pandas(self) -> Any:
        """A row per hand class in the grid's order: ``hand_class``, ``value`` (its equity; NaN
        when no deal fitted it yet), ``stderr`` (0 when exact), ``combos``, and the snapshot's
        ``trials``, ``exact`` and ``status``. The focus range's equity is ``focus``. Needs
        pandas."""
        classes = self.hand_classes()
        status = self.status
        records = [
            (
                name,
                *(self.classes[cls] or (None, None)),
                len(classes.combos[cls]),
                self.trials,
                self.exact,
                status,
            )
            for cls, name in enumerate(classes.names)
        ]
        return frames.frame(records, HEATMAP_COLUMNS, CLASS_DTYPES)

    def _repr_html_(self) -> str:
        """What a notebook shows: the explorer's grid, each class's equity with its 95% margin
        when sampled, tinted from red (0) through yellow (0.5) to green (1), as in the explorer."""
        classes = self.hand_classes()
        rows = []
        for r in range(classes.size):
            row = []
            for c in range(classes.size):
                cls = classes.cell(r, c)
                value, stderr = self.classes[cls] or (None, None)
                # Tinted by the equity itself, red (0) through yellow (0.5) to green (1), as the
                # explorer's grid is: the same hand looks the same against any range.
                shade = value
                label = classes.names[cls]
                row.append(html.Figure(value, stderr, exact=self.exact, label=label, shade=shade))
            rows.append(row)
        how = "exact" if self.exact else "sampled"
        state = "" if self.done else f", {self.status} at {self.progress * 100:.0f}%"
        caption = f"equity of each hand class ({self.trials:,} {'deals' if self.exact else 'trials'}{state})"
        focus = ""
        if self.focus is not None:
            value, stderr = self.focus
            shown = html.Figure(value, stderr if math.isfinite(stderr) else None, exact=self.exact).text()
            focus = f"the focus range's equity: {shown}"
        return html.figure_table((), rows, kind="pql-heatmap", caption=caption, how=how, footer=focus)


#: ``HeatmapSnapshot.to_pandas``'s columns.
HEATMAP_COLUMNS = ("hand_class", "value", "stderr", "combos", "trials", "exact", "status")


class Heatmap:
    """Every class's equity against ``villains`` (their range texts) with ``board`` and
    ``dead`` as a query's from clause has them; computing in background threads from the start.
    A live run, not a table: its snapshots (``poll``, ``wait``) have ``to_pandas`` and
    ``_repr_html_``.

    Exact (every runout) with one opponent and a fixed board of three or more cards, otherwise
    Monte Carlo: up to ``trials`` deals, stopping early once every class's 95% margin is at most
    ``precision``. ``poll`` returns snapshots; ``cancel`` stops it."""

    def __init__(
        self,
        game: str,
        villains: Sequence[str],
        *,
        board: str | None = None,
        dead: str | None = None,
        syntax: str | None = None,
        macros: Mapping[str, str] | None = None,
        trials: int = 2_000_000,
        seed: int = 0,
        threads: int | None = None,
        precision: float | None = None,
        exact: bool | None = None,
        ordering: str | None = None,
    ) -> None:
        self.game = game
        #: The weights last given to ``set_focus``.
        self._focus: tuple[float, ...] | None = None
        self._run = _core.HeatmapRun(
            game,
            list(villains),
            board,
            dead,
            syntax,
            resolve_macros(macros, *villains, board or "", dead or ""),
            trials,
            seed,
            threads,
            precision,
            exact,
            ordering,
        )

    def poll(self, timeout: float) -> HeatmapSnapshot | None:
        """Waits up to ``timeout`` seconds for news; raises ``PqlError`` when the run failed.
        Once the heatmap is done, every poll returns its final snapshot at once, with the focus
        range's equity worked out again for the focus given last."""
        # Read before the run reads its own copy, which ``set_focus`` changes first: the
        # snapshot's focus is of these weights, or of newer ones (then it only looks stale).
        focus = self._focus
        d = self._run.poll(timeout)
        return None if d is None else HeatmapSnapshot.from_dict(d, focus, self.game)

    def wait(self) -> HeatmapSnapshot:
        """Blocks until the heatmap is done (or cancelled); the final snapshot."""
        while True:
            snap = self.poll(0.5)
            if snap is not None and snap.done:
                return snap

    def set_focus(self, weights: Sequence[float]) -> None:
        """The range being explored, one weight per hand of ``hand_classes(game).hands`` (0
        outside it; relative, as the explorer's percents: ``33.3`` and ``100``): later snapshots
        give its equity (``focus``). The same weights again change nothing (a Monte Carlo
        heatmap measures the focus's standard error anew after each change)."""
        focus = tuple(weights)
        if focus == self._focus:
            return
        # The engine takes whole numbers: the percents' four decimals, when some are not whole.
        scale = 1 if all(float(w).is_integer() for w in focus) else 10**PERCENT_DECIMALS
        self._run.set_focus([round(w * scale) for w in focus])
        self._focus = focus

    def cancel(self) -> None:
        self._run.cancel()


def range_equity(
    snapshot: HeatmapSnapshot, weights: Sequence[float], classes: HandClasses
) -> tuple[float, float] | None:
    """The equity of the range ``weights`` (one per hand of ``classes``) and its standard error
    (0: exact; infinite: not known yet) from ``snapshot``; None when the snapshot's focus is of
    other weights (give them to ``Heatmap.set_focus`` and poll) or the range has no hand the
    heatmap could deal.

    The value is the snapshot's ``focus``, from every deal so far. Its standard error is the
    engine's, measured on the deals since the focus was set; when there are none (a Monte Carlo
    heatmap that finished before the range changed) it is bounded by the classes' errors
    instead: the range's equity is the mean of its classes' weighted by their share of its deals,
    and the standard error of such a mean is at most the same mean of the classes' standard
    errors, whatever their correlation. The shares are taken as the classes' shares of the
    range's hands the board leaves (their blockers shift the deals' shares by a little), and a
    class only partly in the range counts its error times the root of its hands over the
    range's hands in it (as if its hands' results were independent)."""
    if snapshot.focus is None or snapshot.focus_of is None or snapshot.focus_of != tuple(weights):
        return None
    value, stderr = snapshot.focus
    if snapshot.exact or math.isfinite(stderr):
        return value, stderr
    total = 0.0
    bound = 0.0
    for cls, combos in enumerate(classes.combos):
        alive = [h for h in combos if snapshot.hands[h] is not None]
        held = [weights[h] for h in alive if weights[h]]
        if not held:
            continue
        estimate = snapshot.classes[cls]
        if estimate is None:
            return value, math.inf
        share = float(sum(held))
        effective = share * share / sum(w * w for w in held)  # the hands it counts, by weight
        total += share
        bound += share * estimate[1] * math.sqrt(len(alive) / effective)
    return (value, bound / total) if total else None


@dataclass(frozen=True)
class HandFacts:
    """What one hand has on the board."""

    hand_type: str
    #: On a flop only.
    flop_category: str | None
    #: ``flushdraw``, ``openended``, ``gutshot``, ``backdoorflush`` (flop and turn).
    draws: tuple[str, ...]


@dataclass(frozen=True)
class Breakdown:
    """Every hand's facts on a board (None: the board or the dead cards make it impossible),
    parallel to ``hand_classes(game).hands``, and the category names worst first."""

    hands: list[HandFacts | None]
    hand_types: list[str]
    flop_categories: list[str]
    draws: list[str]
    game: str = "holdem"

    def to_pandas(self) -> Any:
        """A row per hand the board leaves possible, in the engine's order: ``hand``,
        ``hand_class``, ``hand_type``, ``flop_category`` (on a flop; NaN else) and ``draws``
        (comma-separated; NaN for none). Needs pandas."""
        classes = hand_classes(self.game)
        records = [
            (
                classes.hands[h],
                classes.names[classes.class_of[h]],
                f.hand_type,
                f.flop_category,
                ",".join(f.draws) or None,
            )
            for h, f in enumerate(self.hands)
            if f is not None
        ]
        return frames.frame(
            records, ("hand", "hand_class", "hand_type", "flop_category", "draws"), CLASS_DTYPES
        )

    def counts(self) -> list[tuple[str, str, int]]:
        """The explorer's breakdown of every possible hand: (what: ``hand type``, ``flop`` or
        ``draw``; the category; its hands), each kind worst first, empty categories left out."""
        possible = [f for f in self.hands if f is not None]
        out: list[tuple[str, str, int]] = []
        for what, names, has in (
            ("hand type", self.hand_types, lambda f, n: f.hand_type == n),
            ("flop", self.flop_categories, lambda f, n: f.flop_category == n),
            ("draw", self.draws, lambda f, n: n in f.draws),
        ):
            out += [(what, n, k) for n in names if (k := sum(1 for f in possible if has(f, n)))]
        return out

    def _repr_html_(self) -> str:
        """What a notebook shows: the explorer's breakdown of every possible hand (``counts``):
        each category's hands and their share of the possible hands."""
        possible = sum(1 for f in self.hands if f is not None)
        rows = [
            (what, name, str(k), html.Figure(k / possible, exact=True)) for what, name, k in self.counts()
        ]
        caption = f"{self.game}: {possible:,} possible hands on the board"
        return html.figure_table(
            ("", "category", "hands", "share"), rows, kind="pql-breakdown", caption=caption
        )


@cache
def breakdown(game: str, board: str, dead: str | None = None) -> Breakdown:
    """How every hand of ``game`` stands on ``board`` (3 to 5 known cards)."""
    raw = _core.breakdown(game, board, dead)
    types, flops, draws = raw["hand_types"], raw["flop_categories"], raw["draws"]
    hands: list[HandFacts | None] = []
    for h in raw["hands"]:
        if h is None:
            hands.append(None)
            continue
        t, f, bits = h
        names = tuple(name for i, name in enumerate(draws) if bits & (1 << i))
        hands.append(HandFacts(types[t], None if f < 0 else flops[f], names))
    return Breakdown(hands, list(types), list(flops), list(draws), game)


@dataclass(frozen=True)
class RangeSummary:
    """A range in brief: how many hands, of how many in the game (None in stud), the hands
    counted by weight / 100, and a sample of them."""

    game: str
    hands: int
    total: int | None
    weighted: float
    weighted_range: bool
    sample: list[str]
    #: The range as it was written.
    text: str = ""

    @property
    def share(self) -> float | None:
        return None if not self.total else self.hands / self.total

    def to_pandas(self) -> Any:
        """One row: ``range`` (its text), ``game``, ``hands``, ``total`` (the game's; ``<NA>``
        in stud), ``share``, ``weighted`` (hands counted by weight / 100), ``weighted_range`` and
        ``sample`` (the hands drawn, space-separated). Needs pandas."""
        record = (
            self.text,
            self.game,
            self.hands,
            self.total,
            self.share,
            self.weighted,
            self.weighted_range,
            " ".join(self.sample) or None,
        )
        return frames.frame([record], SUMMARY_COLUMNS, SUMMARY_DTYPES)

    def _repr_html_(self) -> str:
        """What a notebook shows: the explorer's count of the range, its sample under it."""
        share = html.Figure(self.share, exact=True) if self.share is not None else ""
        total = f"{self.total:,}" if self.total else ""
        row = (self.text, f"{self.hands:,}", total, share, format_weight(self.weighted))
        sample = f"sample: {' '.join(self.sample)}" if self.sample else ""
        return html.figure_table(
            ("range", "hands", "of", "share", "weighted"),
            [row],
            kind="pql-range",
            caption=self.game,
            footer=sample,
        )


#: ``RangeSummary.to_pandas``'s columns and their dtypes.
SUMMARY_COLUMNS = ("range", "game", "hands", "total", "share", "weighted", "weighted_range", "sample")
SUMMARY_DTYPES = {
    "range": "str",
    "game": "str",
    "hands": "int64",
    "total": "Int64",
    "share": "float64",
    "weighted": "float64",
    "weighted_range": "bool",
    "sample": "str",
}


def range_summary(
    text: str,
    game: str = "holdem",
    syntax: str | None = None,
    *,
    macros: Mapping[str, str] | None = None,
    sample: int = 0,
    seed: int = 0,
    ordering: str | None = None,
) -> RangeSummary:
    """Count the hands of a range (and draw ``sample`` of them by weight; ``N%`` read in
    ``ordering``); raises ``PqlRangeError`` with positions in ``text``."""
    raw = _core.range_summary(text, game, syntax, resolve_macros(macros, text), sample, seed, ordering)
    return RangeSummary(
        raw["game"],
        raw["hands"],
        raw["total"],
        raw["weighted"],
        raw["weighted_range"],
        list(raw["sample"]),
        text,
    )


@dataclass(frozen=True)
class DistributionSnapshot:
    """The share of the range in each equity tenth (0-10% ... 90-100%), its mean equity, the
    hands drawn so far."""

    shares: list[float]
    mean: float | None
    hands: int
    done: bool
    cancelled: bool
    progress: float

    def stderr(self, share: float) -> float | None:
        """The standard error of a tenth's share: binomial, of the hands drawn (each hand's own
        equity, from its deals, is taken as it is)."""
        return math.sqrt(share * (1 - share) / self.hands) if self.hands > 0 else None

    def to_pandas(self) -> Any:
        """A row per equity tenth (``kind`` ``share``, ``label`` ``0-10%``, its ``low`` and
        ``high`` equity, ``value``: the range's share in it, ``stderr``, ``count``: the hands
        drawn in it), then the mean equity (``kind`` ``mean``); each with ``trials`` (the hands
        drawn), ``exact`` (false: hands are drawn) and ``status``. Needs pandas."""
        status = snapshot_status(self.done, self.cancelled)
        records: list[tuple[Any, ...]] = [
            ("share", _tenth(i), i / 10, (i + 1) / 10, share, self.stderr(share), share * self.hands)
            for i, share in enumerate(self.shares)
        ]
        records.append(("mean", None, None, None, self.mean, None, None))
        full = [(*r, self.hands, False, status) for r in records]
        return frames.frame(full, DISTRIBUTION_COLUMNS, {"kind": "str", "low": "float64", "high": "float64"})

    def _repr_html_(self) -> str:
        """What a notebook shows: the explorer's chart, a bar per equity tenth with its share
        and 95% margin, the mean in the caption."""
        top = max(self.shares, default=0.0)
        rows = [
            (_tenth(i), html.Figure(share, self.stderr(share)), html.Bar(share, top))
            for i, share in enumerate(self.shares)
        ]
        mean = f", mean {self.mean * 100:.1f}%" if self.mean is not None else ""
        state = (
            ""
            if self.done
            else f" ({snapshot_status(self.done, self.cancelled)}, {self.progress * 100:.0f}%)"
        )
        caption = f"equity distribution vs the others{mean}, {self.hands:,} hands{state}"
        return html.figure_table(
            ("equity", "share", ""), rows, kind="pql-distribution", caption=caption, how="sampled"
        )


def _tenth(i: int) -> str:
    return f"{i * 10}-{i * 10 + 10}%"


#: ``DistributionSnapshot.to_pandas``'s columns.
DISTRIBUTION_COLUMNS = (
    "kind",
    "label",
    "low",
    "high",
    "value",
    "stderr",
    "count",
    "trials",
    "exact",
    "status",
)


class Distribution:
    """The equity distribution of ``hero`` (a range text) against ``villains``: ``hands`` hands
    drawn by weight, each one's equity from ``deals`` deals of the others and the board. A live
    run, not a table: its snapshots (``poll``, ``wait``) have ``to_pandas`` and
    ``_repr_html_``."""

    def __init__(
        self,
        game: str,
        hero: str,
        villains: Sequence[str],
        *,
        board: str | None = None,
        dead: str | None = None,
        syntax: str | None = None,
        macros: Mapping[str, str] | None = None,
        hands: int = 2000,
        deals: int = 200,
        seed: int = 0,
        threads: int | None = None,
        ordering: str | None = None,
    ) -> None:
        self._run = _core.DistributionRun(
            game,
            hero,
            list(villains),
            board,
            dead,
            syntax,
            resolve_macros(macros, hero, *villains, board or "", dead or ""),
            hands,
            deals,
            seed,
            threads,
            ordering,
        )

    def poll(self, timeout: float) -> DistributionSnapshot | None:
        d = self._run.poll(timeout)
        if d is None:
            return None
        return DistributionSnapshot(
            list(d["shares"]), d["mean"], d["hands"], d["done"], d["cancelled"], d["progress"]
        )

    def wait(self) -> DistributionSnapshot:
        while True:
            snap = self.poll(0.5)
            if snap is not None and snap.done:
                return snap

    def cancel(self) -> None:
        self._run.cancel()


def reweighted_classes(
    statement: str, player: str, observations: Sequence[tuple[str, str, str]] = ()
) -> list[float | None] | None:
    """The weights of ``player``'s hands in simulate statement ``statement`` after the actions of
    its ``history`` and ``observations`` (player, action, street) reweight them
    (docs/language/simulate.md), as each hand class's mean weight over its hands in the range
    (None: none of them is), by class of ``hand_classes``. None when the statement is no simulate
    statement of a two-card game seating ``player``, or does not check."""
    try:
        query = Query(statement, observations=list(observations) or None)
        seated = query.holdings(0)
    except PqlError:
        return None
    if not seated:
        return None
    found = next((name for name in seated if name.lower() == player.lower()), None)
    if found is None:
        return None
    try:
        classes = hand_classes(query.statements[0].game)
    except PqlError:
        return None
    totals = [0.0] * len(classes.names)
    counts = [0] * len(classes.names)
    for hand, weight in seated[found]:
        h = classes.hand_index(hand)
        if h is None:
            continue
        cls = classes.class_of[h]
        totals[cls] += weight
        counts[cls] += 1
    return [t / n if n else None for t, n in zip(totals, counts, strict=True)]
