"""The range explorer's engine, typed: the classes of a two-card game, the equity heatmap and
the equity distribution (computing in the background, polled for snapshots), the board
breakdown and range summaries. Like ``api.py`` this module calls the extension; the explorer's
screens (``tui/explorer*``) and the benchmarks use it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pql_repl import _core
from pql_repl.api.catalogue import PERCENT_DECIMALS
from pql_repl.api.options import resolve_macros
from pql_repl.api.run import Query
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

    @classmethod
    def from_dict(cls, d: dict[str, Any], focus_of: tuple[float, ...] | None = None) -> HeatmapSnapshot:
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
        )


class Heatmap:
    """Every class's equity against ``villains`` (their range texts) with ``board`` and
    ``dead`` as a query's from clause has them; computing in background threads from the start.

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
        return None if d is None else HeatmapSnapshot.from_dict(d, focus)

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
    return Breakdown(hands, list(types), list(flops), list(draws))


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

    @property
    def share(self) -> float | None:
        return None if not self.total else self.hands / self.total


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
        raw["game"], raw["hands"], raw["total"], raw["weighted"], raw["weighted_range"], list(raw["sample"])
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


class Distribution:
    """The equity distribution of ``hero`` (a range text) against ``villains``: ``hands`` hands
    drawn by weight, each one's equity from ``deals`` deals of the others and the board."""

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
