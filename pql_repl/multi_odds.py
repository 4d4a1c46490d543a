"""The odds view (issue 19, after HoldemHand's MultiOdds): a hold'em hand (or range) on a board
against one to nine opponents, random or from given ranges. Everything here is two PQL
statements run by the engine (so exact where affordable, sampled otherwise, live and
cancellable like any query); this module only writes them and reads their columns back.

- Statement 1, the showdown: win, tie, equity, HoldemHand's own potentials, and the MultiOdds
  tables: the player's final hand type and the best opponent's, each row with its share of the
  deals and the player's win rate in it.
- Statement 2, Loki's analysis: hand strength and positive/negative potential on the board's
  street (joint against several opponents, ANALYSIS.md).

HoldemHand's potentials are shares of *all* deals: positive, behind now (an opponent's hand is
better on the board now) and winning at the river; negative, best now (ties included) and losing
at the river. Loki's (ours) are conditional on being behind or ahead and count ties by halves.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence

from pql_repl.api import DEFAULT_TRIALS, Column, StatementResult, prepare
from pql_repl.records import record

#: Hand types from best to worst, as ``handType`` prints them.
HAND_TYPES = (
    "straightflush",
    "quads",
    "fullhouse",
    "flush",
    "straight",
    "trips",
    "twopair",
    "pair",
    "highcard",
)
OUTCOMES = ("win", "tie", "lose")
#: The street whose board has this many cards.
STREET_OF_BOARD = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}
MAX_OPPONENTS = 9


@record(frozen=True)
class OddsRow:
    """One row of a MultiOdds table: a hand type, its share of the deals, and the player's
    win and tie rates among those deals."""

    hand_type: str
    share: float
    win: float
    tie: float
    count: float


@record(frozen=True)
class Odds:
    """The odds of one hand against a number of opponents."""

    hand: str
    board: str
    opponents: tuple[str, ...]
    win: float
    tie: float
    equity: float
    hand_strength: float
    positive_potential: float
    negative_potential: float
    #: HoldemHand's potentials: shares of all deals (see the module's doc).
    hh_positive_potential: float
    hh_negative_potential: float
    player_types: tuple[OddsRow, ...]
    opponent_types: tuple[OddsRow, ...]
    #: The showdown statement was enumerated exactly / the analysis statement's inner values.
    exact: bool
    analysis_exact: bool
    trials: int
    #: The two statements this was computed from.
    queries: tuple[str, str]
    #: False while a run is still going (a live snapshot).
    done: bool = True
    progress: float = 1.0


def _ranges(opponents: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(opponents, int):
        if not 1 <= opponents <= MAX_OPPONENTS:
            raise ValueError(f"opponents must be 1 to {MAX_OPPONENTS}, not {opponents}")
        return ("*",) * opponents
    ranges = tuple(opponents)
    if not 1 <= len(ranges) <= MAX_OPPONENTS:
        raise ValueError(f"give 1 to {MAX_OPPONENTS} opponent ranges, not {len(ranges)}")
    return ranges


def _street(board: str) -> str:
    cards = len(board.replace(" ", "")) // 2
    if cards not in STREET_OF_BOARD:
        raise ValueError(f"a hold'em board has 0, 3, 4 or 5 cards, not {cards}: {board!r}")
    return STREET_OF_BOARD[cards]


def _quote(text: str) -> str:
    if "'" in text:
        raise ValueError(f"a range or board may not hold a quote: {text!r}")
    return f"'{text}'"


def odds_queries(hand: str, board: str = "", opponents: int | Sequence[str] = 1) -> tuple[str, str]:
    """The two PQL statements behind :func:`odds` (the showdown, then Loki's analysis)."""
    ranges = _ranges(opponents)
    street = _street(board)
    seats = [f"v{i + 1}" for i in range(len(ranges))]
    players = ", ".join(
        [f"hero={_quote(hand)}", *(f"{s}={_quote(r)}" for s, r in zip(seats, ranges, strict=True))]
    )
    source = f"from game='holdem', {players}" + (f", board={_quote(board)}" if board.strip() else "")
    outcome = "case when winsHi(hero) then 'win' when tiesHi(hero) then 'tie' else 'lose' end"
    best = " ".join(
        "when " + " or ".join(f"handType({s}, river) = {t}" for s in seats) + f" then '{t}'"
        for t in HAND_TYPES[:-1]
    )
    best_opponent = f"case {best} else 'highcard' end"
    showdown = (
        "select count(winsHi(hero)), count(tiesHi(hero)), avg(riverEquity(hero)), "
        f"count(not bestHiRating(hero, {street}) and winsHi(hero)), "
        f"count(bestHiRating(hero, {street}) and not winsHi(hero) and not tiesHi(hero)), "
        f"histogram(toString(handType(hero, river)) || ':' || {outcome}), "
        f"histogram({best_opponent} || ':' || {outcome}) {source}"
    )
    analysis = (
        f"select avg(handStrength(hero, {street})), avg(positivePotential(hero, {street})), "
        f"avg(negativePotential(hero, {street})) {source}"
    )
    return showdown, analysis


def _table(column: Column) -> tuple[OddsRow, ...]:
    """Rows by hand type (best first) from a histogram of ``type:outcome``."""
    counts: dict[tuple[str, str], float] = {}
    for b in column.buckets:
        kind, _, outcome = b.label.rpartition(":")
        counts[kind, outcome] = counts.get((kind, outcome), 0.0) + b.count
    total = sum(counts.values())
    rows = []
    for t in HAND_TYPES:
        n = sum(counts.get((t, o), 0.0) for o in OUTCOMES)
        if n > 0:
            rows.append(
                OddsRow(t, n / total, counts.get((t, "win"), 0.0) / n, counts.get((t, "tie"), 0.0) / n, n)
            )
    return tuple(rows)


def _is_one_hand(hand: str) -> bool:
    text = hand.replace(" ", "")
    return (
        len(text) == 4
        and all(c in "23456789TJQKAtjqka" for c in text[::2])
        and all(c in "cdhs" for c in text[1::2])
    )


def _combine(  # noqa: PLR0917 - the run's parts, each once
    hand: str,
    board: str,
    ranges: tuple[str, ...],
    queries: tuple[str, str],
    showdown: StatementResult,
    analysis: StatementResult | None,
) -> Odds:
    c = [col.value for col in showdown.columns]
    a = [col.value for col in analysis.columns] if analysis is not None else [float("nan")] * 3
    return Odds(
        hand=hand,
        board=board,
        opponents=ranges,
        win=float(c[0] or 0.0),
        tie=float(c[1] or 0.0),
        equity=float(c[2] or 0.0),
        hand_strength=float(a[0] if a[0] is not None else float("nan")),
        positive_potential=float(a[1] if a[1] is not None else float("nan")),
        negative_potential=float(a[2] if a[2] is not None else float("nan")),
        hh_positive_potential=float(c[3] or 0.0),
        hh_negative_potential=float(c[4] or 0.0),
        player_types=_table(showdown.columns[5]),
        opponent_types=_table(showdown.columns[6]),
        exact=showdown.exact,
        analysis_exact=analysis is not None and not analysis.inner_sampled,
        trials=showdown.trials,
        queries=queries,
        done=showdown.done and analysis is not None and analysis.done,
        progress=showdown.progress * (0.9 if analysis is None else 1.0),
    )


class OddsRun:
    """A live, cancellable odds computation: iterate it for snapshots (the last one done), or
    call :meth:`cancel` from any thread."""

    def __init__(
        self,
        hand: str,
        board: str = "",
        opponents: int | Sequence[str] = 1,
        *,
        trials: int = DEFAULT_TRIALS,
        seed: int | None = None,
        threads: int | None = None,
        batch: float = 0.2,
    ) -> None:
        self.hand, self.board = hand.strip(), board.strip()
        self.ranges = _ranges(opponents)
        self.queries = odds_queries(self.hand, self.board, self.ranges)
        #: The two statements, prepared: a front end may stream them itself (its own progress).
        self.showdown = prepare(self.queries[0])
        self.analysis = prepare(self.queries[1])
        self._options = {"trials": trials, "seed": seed, "threads": threads, "batch": batch}
        # A single hand on a fixed board: the analysis is one value, the same in every deal.
        self.analysis_trials = 1 if _is_one_hand(self.hand) else min(trials, 2_000)

    def combine(self, showdown: StatementResult, analysis: StatementResult | None) -> Odds:
        """The odds from (snapshots of) the two statements' results."""
        return _combine(self.hand, self.board, self.ranges, self.queries, showdown, analysis)

    def __iter__(self) -> Generator[Odds, None, None]:
        final: StatementResult | None = None
        for snap in self.showdown.stream(**self._options):  # type: ignore[arg-type]
            final = snap
            yield self.combine(snap, None)
        assert final is not None
        options = {**self._options, "trials": self.analysis_trials}
        for snap in self.analysis.stream(**options):  # type: ignore[arg-type]
            yield self.combine(final, snap)

    def cancel(self) -> None:
        self.showdown.cancel()
        self.analysis.cancel()


def odds(
    hand: str,
    board: str = "",
    opponents: int | Sequence[str] = 1,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = None,
    threads: int | None = None,
    on_update: Callable[[Odds], None] | None = None,
) -> Odds:
    """Win, tie, equity, hand strength and potentials (ours and HoldemHand's) and the MultiOdds
    tables of hold'em ``hand`` (cards or a range) on ``board`` against ``opponents``: a number of
    random hands (1 to 9) or their ranges. ``on_update`` receives live snapshots."""
    last: Odds | None = None
    for snap in OddsRun(hand, board, opponents, trials=trials, seed=seed, threads=threads):
        last = snap
        if on_update is not None:
            on_update(snap)
    assert last is not None
    return last


def odds_by_opponents(
    hand: str, board: str = "", *, most: int = MAX_OPPONENTS, trials: int = 100_000, seed: int | None = None
) -> list[Odds]:
    """:func:`odds` against 1, 2, … ``most`` random opponents (HoldemHand's MultiOdds graph)."""
    return [odds(hand, board, n, trials=trials, seed=seed) for n in range(1, most + 1)]


def format_odds(o: Odds) -> str:
    """A plain-text report of one :class:`Odds`: the summary and both MultiOdds tables."""

    def pct(x: float) -> str:
        return f"{100 * x:6.2f}%"

    who = ", ".join(o.opponents) if any(r != "*" for r in o.opponents) else f"{len(o.opponents)} random"
    how = "exact" if o.exact else f"{o.trials:,} trials"
    lines = [
        f"{o.hand} on {o.board or '(no board)'} against {who} ({how})",
        f"  win {pct(o.win)}  tie {pct(o.tie)}  equity {pct(o.equity)}",
        f"  hand strength {pct(o.hand_strength)}   positive potential {pct(o.positive_potential)}"
        f"   negative potential {pct(o.negative_potential)}" + ("" if o.analysis_exact else "  (sampled)"),
        f"  HoldemHand's potentials (shares of all deals): positive {pct(o.hh_positive_potential)}"
        f"   negative {pct(o.hh_negative_potential)}",
    ]
    for title, rows in (("player's hand", o.player_types), ("best opponent's hand", o.opponent_types)):
        lines += ["", f"  {title:<22} {'share':>8} {'win':>8} {'tie':>8}"]
        lines += [f"  {r.hand_type:<22} {pct(r.share)} {pct(r.win)} {pct(r.tie)}" for r in rows]
    return "\n".join(lines)
