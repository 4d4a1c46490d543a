"""The odds view (issue 19, after HoldemHand's MultiOdds): a hold'em hand (or range) on a board
against one to nine opponents, random or from given ranges. Everything here is two PQL
statements run by the engine (so exact where affordable, sampled otherwise, live and
cancellable like any query); this module only writes them and reads their columns back.

- Statement 1, the showdown: win, tie, equity, HoldemHand's own potentials, and the MultiOdds
  tables: the player's final hand type and the best opponent's, each row with its share of the
  deals and the player's win rate in it.
- Statement 2, Loki's analysis: hand strength and positive/negative potential on the board's
  street (joint against several opponents, docs/analysis.md).

The odds view proper is a table of those values against 1, 2, … 9 random opponents, one row (one
:class:`Odds`, its two statements) per count, filled row by row (:class:`OddsTableRun`).

HoldemHand's potentials (its ``HandPotential``) are shares of *all* deals, ties counted by
halves: with HP[now][river] the share of deals in each state now (on the board's street) and at
the river — ahead (better than every opponent), tied (sharing the best hand) or behind —

    positive = HP[behind][ahead] + HP[behind][tied]/2 + HP[tied][ahead]/2
    negative = HP[ahead][behind] + HP[ahead][tied]/2 + HP[tied][behind]/2

Loki's (ours) are the same sums divided by the share of deals behind (ties halved) or ahead
(ties halved): conditional on where the hand stands now.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import Any, TypeVar

from pql_repl.api import frames, html
from pql_repl.api.options import check_batch, checked_options, shown, text_argument
from pql_repl.api.results import DEFAULT_TRIALS, Column, StatementResult
from pql_repl.api.run import prepare
from pql_repl.api.tidy import snapshot_status
from pql_repl.base.errors import PqlArgumentError, PqlArgumentTypeError, PqlCancelled
from pql_repl.base.records import record

#: Trials of the analysis statement at most (hand strength and potentials): against several
#: opponents each deal samples the field's joint deals, so these trials set its error.
ANALYSIS_TRIALS = 20_000

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
#: The odds view's rows: 1 to 9 random opponents.
ALL_COUNTS = range(1, MAX_OPPONENTS + 1)


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
    #: Standard errors of hand strength and the two potentials (None: exact, or not known yet).
    #: Against several opponents hand strength is sampled inside each deal, so it has one.
    hand_strength_stderr: float | None = None
    positive_potential_stderr: float | None = None
    negative_potential_stderr: float | None = None
    #: Standard errors of the showdown's values (None: exact, or not known).
    win_stderr: float | None = None
    tie_stderr: float | None = None
    equity_stderr: float | None = None
    hh_positive_potential_stderr: float | None = None
    hh_negative_potential_stderr: float | None = None
    #: The analysis statement's trials (0 before it ran) and the showdown's seed (None: exact).
    analysis_trials: int = 0
    seed: int | None = None

    def to_pandas(self) -> Any:
        """The odds as a tidy DataFrame (``ODDS_COLUMNS``): a row per measure (``table``
        ``odds``: win, tie, equity, hand strength and the potentials), then a row per hand type
        and measure of the two MultiOdds tables (``player_hand``, ``opponent_hand``: share,
        win, tie), each with its ``value``, ``stderr`` (0 when exact, NaN when unknown),
        ``trials``, ``exact``, ``status`` and ``seed``. Needs pandas
        (``pip install 'pql-repl[pandas]'``)."""
        return frames.frame(odds_records(self), ODDS_COLUMNS, ODDS_DTYPES)

    def _repr_html_(self) -> str:
        """What a notebook shows: ``format_odds``'s report as tables, each value with its 95%
        margin when sampled."""
        return odds_html(self)


def _ranges(opponents: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(opponents, int) and not isinstance(opponents, bool):
        if not 1 <= opponents <= MAX_OPPONENTS:
            raise PqlArgumentError(f"opponents must be 1 to {MAX_OPPONENTS}, not {shown(opponents)}")
        return ("*",) * opponents
    if isinstance(opponents, Sequence) and not isinstance(opponents, str | bytes):
        ranges = tuple(opponents)
        if all(isinstance(r, str) for r in ranges):
            if not 1 <= len(ranges) <= MAX_OPPONENTS:
                raise PqlArgumentError(f"give 1 to {MAX_OPPONENTS} opponent ranges, not {len(ranges)}")
            return ranges
    raise PqlArgumentTypeError(
        f"opponents must be a number of random hands (1 to {MAX_OPPONENTS}) or a sequence of "
        f"ranges such as ['QQ+', '*'], not {shown(opponents)}"
    )


def _street(board: str) -> str:
    compact = "".join(board.split())
    if len(compact) % 2 or not all(
        compact[i].upper() in "AKQJT98765432" and compact[i + 1].lower() in "shdc"
        for i in range(0, len(compact), 2)
    ):
        raise PqlArgumentError(f"a board is hold'em cards such as '3h4cJh', not {shown(board)}")
    cards = len(compact) // 2
    if cards not in STREET_OF_BOARD:
        raise PqlArgumentError(f"a hold'em board has 0, 3, 4 or 5 cards, not {cards}: {shown(board)}")
    return STREET_OF_BOARD[cards]


def _quote(text: str) -> str:
    if "'" in text:
        raise PqlArgumentError(f"a range or board may not hold a quote: {shown(text)}")
    return f"'{text}'"


def odds_queries(hand: str, board: str = "", opponents: int | Sequence[str] = 1) -> tuple[str, str]:
    """The two PQL statements behind :func:`odds` (the showdown, then Loki's analysis);
    ``PqlArgumentError`` (or ``PqlArgumentTypeError``) for arguments that cannot make them."""
    text_argument("hand", hand)
    text_argument("board", board)
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
    # HoldemHand's potentials (the module's doc): behind now, or tied now (best, and level with
    # some opponent), then the river's outcome, ties by halves.
    tied_now = " or ".join(f"hiRating(hero, {street}) = hiRating({s}, {street})" for s in seats)
    behind_now = f"not bestHiRating(hero, {street})"
    hh_positive = (
        f"avg(case when {behind_now}"
        " then (case when winsHi(hero) then 1 when tiesHi(hero) then 0.5 else 0 end)"
        f" when {tied_now} then (case when winsHi(hero) then 0.5 else 0 end) else 0 end)"
    )
    hh_negative = (
        f"avg(case when {behind_now} then 0"
        f" when {tied_now} then (case when winsHi(hero) or tiesHi(hero) then 0 else 0.5 end)"
        " else (case when winsHi(hero) then 0 when tiesHi(hero) then 0.5 else 1 end) end)"
    )
    showdown = (
        "select count(winsHi(hero)), count(tiesHi(hero)), avg(riverEquity(hero)), "
        f"{hh_positive}, {hh_negative}, "
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


def _stderr(analysis: StatementResult | None, column: int) -> float | None:
    """A sampled analysis column's standard error (None when exact or not computed)."""
    if analysis is None or analysis.exact:
        return None
    se = analysis.columns[column].stderr
    return None if se is None or se < 1e-9 else se


#: The showdown statement's values, in its columns' order (the first five).
SHOWDOWN_MEASURES = ("win", "tie", "equity", "hh_positive_potential", "hh_negative_potential")
#: The analysis statement's, in its columns' order.
ANALYSIS_MEASURES = ("hand_strength", "positive_potential", "negative_potential")


def _showdown_stderr(showdown: StatementResult, column: int) -> float | None:
    """A sampled showdown column's standard error (None when exact)."""
    return None if showdown.exact else showdown.columns[column].stderr


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
        hand_strength_stderr=_stderr(analysis, 0),
        positive_potential_stderr=_stderr(analysis, 1),
        negative_potential_stderr=_stderr(analysis, 2),
        **{f"{name}_stderr": _showdown_stderr(showdown, i) for i, name in enumerate(SHOWDOWN_MEASURES)},
        analysis_trials=0 if analysis is None else analysis.trials,
        seed=showdown.seed,
        trials=showdown.trials,
        queries=queries,
        done=showdown.done and analysis is not None and analysis.done,
        progress=showdown.progress * (0.9 if analysis is None else 1.0),
    )


class OddsRun:
    """A live, cancellable odds computation: iterate it for snapshots (the last one done), or
    call :meth:`cancel` from any thread. A run, not a table: its snapshots (``Odds``) have
    ``to_pandas`` and ``_repr_html_``."""

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
        time_limit: float | None = None,
    ) -> None:
        """``time_limit``: seconds for the whole computation (None: no limit): the showdown's
        run gets half, the analysis what is left."""
        self.hand, self.board = text_argument("hand", hand).strip(), text_argument("board", board).strip()
        self.ranges = _ranges(opponents)
        checked = checked_options(trials=trials, seed=seed, threads=threads, time_limit=time_limit)
        trials = checked["trials"] or DEFAULT_TRIALS
        self.time_limit: float | None = checked["time_limit"]
        check_batch(batch)
        self.queries = odds_queries(self.hand, self.board, self.ranges)
        #: The two statements, prepared: a front end may stream them itself (its own progress).
        self.showdown = prepare(self.queries[0])
        self.analysis = prepare(self.queries[1])
        self._options = {"trials": trials, "seed": seed, "threads": threads, "batch": batch}
        # A single hand on a fixed flop or turn against one opponent: the analysis is one exact
        # value, the same in every deal. Otherwise deals differ, or the values are sampled inside
        # each deal (the field's joint deals against several opponents, the potentials before
        # the flop): the run's trials drive that sampling.
        one_value = _is_one_hand(self.hand) and len(self.ranges) == 1 and bool(self.board)
        self.analysis_trials = 1 if one_value else min(trials, ANALYSIS_TRIALS)

    def combine(self, showdown: StatementResult, analysis: StatementResult | None) -> Odds:
        """The odds from (snapshots of) the two statements' results."""
        return _combine(self.hand, self.board, self.ranges, self.queries, showdown, analysis)

    def __iter__(self) -> Generator[Odds, None, None]:
        return self.until(None if self.time_limit is None else time.monotonic() + self.time_limit)

    def until(self, deadline: float | None) -> Generator[Odds, None, None]:
        """The snapshots, the runs stopped at ``deadline`` (``time.monotonic()``; None: none)."""
        final: StatementResult | None = None
        showdown = {**self._options, "time_limit": _share(deadline, 0.5)}
        for snap in self.showdown.stream(**showdown):  # type: ignore[arg-type]
            final = snap
            yield self.combine(snap, None)
        assert final is not None
        options = {**self._options, "trials": self.analysis_trials, "time_limit": _share(deadline, 1.0)}
        for snap in self.analysis.stream(**options):  # type: ignore[arg-type]
            yield self.combine(final, snap)

    def cancel(self) -> None:
        """Stop the computation from any thread: the iteration raises ``PqlCancelled``."""
        self.showdown.cancel()
        self.analysis.cancel()


def _share(deadline: float | None, fraction: float) -> float | None:
    """A run's time limit: ``fraction`` of the time left before ``deadline`` (a run always gets
    a moment, to give its first snapshot)."""
    if deadline is None:
        return None
    return max((deadline - time.monotonic()) * fraction, 0.02)


_Snap = TypeVar("_Snap")


def _run_to_end(run: Iterable[_Snap], on_update: Callable[[_Snap], object] | None) -> _Snap:
    """The last snapshot of a live run, each one handed to ``on_update`` on the way."""
    last: _Snap | None = None
    for snap in run:
        last = snap
        if on_update is not None:
            on_update(snap)
    assert last is not None
    return last


def odds(
    hand: str,
    board: str = "",
    opponents: int | Sequence[str] = 1,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = None,
    threads: int | None = None,
    on_update: Callable[[Odds], None] | None = None,
    time_limit: float | None = None,
) -> Odds:
    """Win, tie, equity, hand strength and potentials (ours and HoldemHand's) and the MultiOdds
    tables of hold'em ``hand`` (cards or a range) on ``board`` against ``opponents``: a number of
    random hands (1 to 9) or their ranges. ``on_update`` receives live snapshots;
    ``time_limit`` bounds the whole computation in seconds."""
    _check_callback(on_update)
    run = OddsRun(hand, board, opponents, trials=trials, seed=seed, threads=threads, time_limit=time_limit)
    return _run_to_end(run, on_update)


@record(frozen=True)
class OddsTable:
    """HoldemHand's odds view: one hand against 1, 2, … random opponents, one :class:`Odds` per
    count. Rows fill in order; while a run goes the last row is a live snapshot."""

    hand: str
    board: str
    counts: tuple[int, ...]
    rows: tuple[Odds, ...]

    @property
    def done(self) -> bool:
        """Whether every row is computed to the end."""
        return len(self.rows) == len(self.counts) and self.rows[-1].done

    @property
    def progress(self) -> float:
        """The share of the rows computed (the running row by its own progress)."""
        if not self.rows:
            return 0.0
        finished = len(self.rows) - 1 + (self.rows[-1].progress if not self.rows[-1].done else 1.0)
        return finished / len(self.counts)

    def to_pandas(self) -> Any:
        """Every row's ``Odds.to_pandas``, one after the other (``opponents`` tells them
        apart). Needs pandas (``pip install 'pql-repl[pandas]'``)."""
        return frames.frame([r for o in self.rows for r in odds_records(o)], ODDS_COLUMNS, ODDS_DTYPES)

    def _repr_html_(self) -> str:
        """What a notebook shows: ``format_odds_table``'s table, each value with its 95% margin
        when sampled, the legend under it."""
        return odds_table_html(self)


def _check_callback(on_update: object) -> None:
    if on_update is not None and not callable(on_update):
        raise PqlArgumentTypeError(
            f"on_update must be a function of one snapshot, or None, not {shown(on_update)}"
        )


def _counts(counts: Sequence[int]) -> tuple[int, ...]:
    if not isinstance(counts, Sequence | range) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in counts
    ):
        raise PqlArgumentTypeError(
            f"counts must be a sequence of numbers of random opponents (1 to {MAX_OPPONENTS}), "
            f"not {shown(counts)}"
        )
    chosen = tuple(counts)
    if not chosen or any(not 1 <= n <= MAX_OPPONENTS for n in chosen):
        raise PqlArgumentError(
            f"the odds view's opponents are 1 to {MAX_OPPONENTS} random hands, not {shown(chosen)}"
        )
    return chosen


class OddsTableRun:
    """The odds view computed live: an :class:`OddsRun` per number of opponents, in turn (each
    row what :func:`odds` gives for that count with the same options). Iterate it for
    snapshots (the last one done), or call :meth:`cancel` from any thread. A run, not a table:
    its snapshots (``OddsTable``) have ``to_pandas`` and ``_repr_html_``."""

    def __init__(
        self,
        hand: str,
        board: str = "",
        counts: Sequence[int] = ALL_COUNTS,
        *,
        trials: int = DEFAULT_TRIALS,
        seed: int | None = None,
        threads: int | None = None,
        batch: float = 0.2,
        time_limit: float | None = None,
    ) -> None:
        """``time_limit``: seconds for the whole table (None: no limit), each row given an equal
        share of the time left when it starts."""
        self.hand, self.board = text_argument("hand", hand).strip(), text_argument("board", board).strip()
        self.counts = _counts(counts)
        #: One run per row, prepared now: a wrong hand or board is said before anything runs.
        self.runs = [
            OddsRun(
                hand, board, n, trials=trials, seed=seed, threads=threads, batch=batch, time_limit=time_limit
            )
            for n in self.counts
        ]
        self.time_limit = self.runs[0].time_limit if self.runs else None
        self._cancelled = False

    def table(self, rows: Sequence[Odds]) -> OddsTable:
        """The table of this run with ``rows`` computed so far."""
        return OddsTable(self.hand, self.board, self.counts, tuple(rows))

    def __iter__(self) -> Generator[OddsTable, None, None]:
        rows: list[Odds] = []
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        for k, run in enumerate(self.runs):
            if self._cancelled:  # between two rows
                raise PqlCancelled("cancelled")
            last: Odds | None = None
            now = time.monotonic()
            row_deadline = None if deadline is None else now + (deadline - now) / (len(self.runs) - k)
            for snap in run.until(row_deadline):
                last = snap
                yield self.table([*rows, snap])
            assert last is not None
            rows.append(last)

    def cancel(self) -> None:
        """Stop the computation from any thread: the iteration raises ``PqlCancelled``."""
        self._cancelled = True
        for run in self.runs:
            run.cancel()


def odds_table(
    hand: str,
    board: str = "",
    counts: Sequence[int] = ALL_COUNTS,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = None,
    threads: int | None = None,
    on_update: Callable[[OddsTable], None] | None = None,
    time_limit: float | None = None,
) -> OddsTable:
    """HoldemHand's odds view of ``hand`` on ``board``: a row of :func:`odds` against each
    number of random opponents in ``counts`` (1 to 9 by default). ``on_update`` receives live
    snapshots; ``time_limit`` bounds the whole table in seconds."""
    _check_callback(on_update)
    run = OddsTableRun(hand, board, counts, trials=trials, seed=seed, threads=threads, time_limit=time_limit)
    return _run_to_end(run, on_update)


def odds_by_opponents(
    hand: str, board: str = "", *, most: int = MAX_OPPONENTS, trials: int = 100_000, seed: int | None = None
) -> list[Odds]:
    """:func:`odds` against 1, 2, … ``most`` random opponents (HoldemHand's MultiOdds graph)."""
    return list(odds_table(hand, board, range(1, most + 1), trials=trials, seed=seed).rows)


def format_odds(o: Odds) -> str:
    """A plain-text report of one :class:`Odds`: the summary and both MultiOdds tables."""

    def pct(x: float) -> str:
        return f"{100 * x:6.2f}%"

    def margin(se: float | None) -> str:
        """The 95% margin of a sampled value, in percentage points."""
        return "" if se is None else f" ± {100 * 1.96 * se:.2f}"

    who = ", ".join(o.opponents) if any(r != "*" for r in o.opponents) else f"{len(o.opponents)} random"
    how = "exact" if o.exact else f"{o.trials:,} trials"
    lines = [
        f"{o.hand} on {o.board or '(no board)'} against {who} ({how})",
        f"  win {pct(o.win)}{margin(o.win_stderr)}  tie {pct(o.tie)}{margin(o.tie_stderr)}"
        f"  equity {pct(o.equity)}{margin(o.equity_stderr)}",
        f"  hand strength {pct(o.hand_strength)}{margin(o.hand_strength_stderr)}"
        f"   positive potential {pct(o.positive_potential)}{margin(o.positive_potential_stderr)}"
        f"   negative potential {pct(o.negative_potential)}{margin(o.negative_potential_stderr)}"
        + ("" if o.analysis_exact else "  (sampled)"),
        f"  HoldemHand's potentials (shares of all deals): positive {pct(o.hh_positive_potential)}"
        f"{margin(o.hh_positive_potential_stderr)}"
        f"   negative {pct(o.hh_negative_potential)}{margin(o.hh_negative_potential_stderr)}",
    ]
    for title, rows in (("player's hand", o.player_types), ("best opponent's hand", o.opponent_types)):
        lines += ["", f"  {title:<22} {'share':>8} {'win':>8} {'tie':>8}"]
        lines += [f"  {r.hand_type:<22} {pct(r.share)} {pct(r.win)} {pct(r.tie)}" for r in rows]
    return "\n".join(lines)


def _pct(x: float) -> str:
    return f"{100 * x:6.2f}%"


#: The odds view's columns: header, width.
TABLE_COLUMNS = (
    ("opponents", 9),
    ("win", 7),
    ("tie", 7),
    ("equity", 7),
    ("strength", 8),
    ("+pot", 7),
    ("-pot", 7),
    ("HH +pot", 7),
    ("HH -pot", 7),
    ("± 95%", 6),
    ("showdown", 15),
    ("strength, pot", 13),
)


def table_cells(o: Odds) -> tuple[str, ...]:
    """One row of the odds view: the numbers in percent, then how each statement was computed."""
    how = "exact" if o.exact else f"{o.trials:,} trials"
    if not o.done:
        how = f"running {100 * o.progress:.0f}%"
    return (
        str(len(o.opponents)),
        *(
            _pct(x).strip()
            for x in (
                o.win,
                o.tie,
                o.equity,
                o.hand_strength,
                o.positive_potential,
                o.negative_potential,
                o.hh_positive_potential,
                o.hh_negative_potential,
            )
        ),
        row_margin(o),
        how,
        "exact" if o.analysis_exact else "sampled",
    )


def row_margin(o: Odds) -> str:
    """The largest 95% margin among a row's sampled numbers, in percentage points: every number
    of the row is within it (``exact`` when none is sampled; ``…`` while the row runs)."""
    errors = [
        o.win_stderr,
        o.tie_stderr,
        o.equity_stderr,
        o.hand_strength_stderr,
        o.positive_potential_stderr,
        o.negative_potential_stderr,
        o.hh_positive_potential_stderr,
        o.hh_negative_potential_stderr,
    ]
    if not o.done:
        return "…"
    known = [e for e in errors if e is not None and math.isfinite(e)]
    if not known:
        return "exact"
    return f"{100 * 1.96 * max(known):.2f}"


def _line(cells: Sequence[str]) -> str:
    return "  ".join(c.rjust(w) for c, (_, w) in zip(cells, TABLE_COLUMNS, strict=True))


def table_title(hand: str, board: str, counts: Sequence[int]) -> str:
    span = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    return f"{hand} on {board or '(no board)'} against {span} random opponents"


#: What the odds view's columns mean (printed under it).
TABLE_LEGEND = (
    "strength, +pot, -pot: Loki's hand strength and potentials on the board's street, joint against\n"
    "the whole field. HH +pot, HH -pot: HoldemHand's potentials, shares of all deals, ties by\n"
    "halves (behind or tied now and ahead or tied at the river; ahead or tied now and behind or\n"
    "tied at the river). ± 95%: the largest margin of the row's sampled numbers, in points."
)


def table_header() -> str:
    return _line([name for name, _ in TABLE_COLUMNS])


def table_row(o: Odds) -> str:
    return _line(table_cells(o))


def format_odds_table(t: OddsTable) -> str:
    """A plain-text odds view: the title, one line per number of opponents, the legend."""
    lines = [table_title(t.hand, t.board, t.counts), table_header()]
    lines += [table_row(o) for o in t.rows]
    return "\n".join([*lines, TABLE_LEGEND])


# -- the odds as data: a tidy frame and HTML tables ----------------------------------------------

#: ``Odds.to_pandas``'s columns (``tidy``'s vocabulary): the number of opponents, which table
#: (``odds``, ``player_hand``, ``opponent_hand``), the hand type of a MultiOdds row, the measure,
#: then the value and how it was computed.
ODDS_COLUMNS = (
    "opponents",
    "table",
    "hand_type",
    "measure",
    "value",
    "stderr",
    "count",
    "trials",
    "exact",
    "status",
    "seed",
)
ODDS_DTYPES = {"opponents": "int64", "table": "str", "hand_type": "str", "measure": "str"}
#: The MultiOdds tables: their name in a frame and their title.
TYPE_TABLES = (("player_hand", "player's hand"), ("opponent_hand", "best opponent's hand"))


def _number(x: float) -> float | None:
    """A value, None when not computed yet (NaN)."""
    return None if x != x else x  # noqa: PLR0124 - NaN is the one value unequal to itself


def _binomial(share: float, n: float) -> float:
    """The standard error of a share of ``n`` sampled deals (the project's Monte Carlo rule)."""
    return math.sqrt(share * (1 - share) / n) if n > 0 else math.nan


def _figures(o: Odds) -> list[tuple[str, str, float | None, float | None, bool, int]]:
    """The report's values: measure, its words, value, standard error (None: exact or unknown),
    exact, trials (the showdown's or the analysis')."""
    out: list[tuple[str, str, float | None, float | None, bool, int]] = []
    for name in (*SHOWDOWN_MEASURES[:3], *ANALYSIS_MEASURES, *SHOWDOWN_MEASURES[3:]):
        analysis = name in ANALYSIS_MEASURES
        words = name.replace("hh_", "HoldemHand's ").replace("_", " ")
        out.append(
            (
                name,
                words,
                _number(getattr(o, name)),
                getattr(o, f"{name}_stderr"),
                o.analysis_exact if analysis else o.exact,
                o.analysis_trials if analysis else o.trials,
            )
        )
    return out


def _type_figures(o: Odds, rows: Sequence[OddsRow]) -> list[tuple[OddsRow, dict[str, float | None]]]:
    """Each MultiOdds row with the standard errors of its share, win and tie (None when exact):
    binomial, of the deals sampled and of the deals of its type."""
    if o.exact:
        return [(r, dict.fromkeys(("share", "win", "tie"))) for r in rows]
    return [
        (
            r,
            {
                "share": _binomial(r.share, o.trials),
                "win": _binomial(r.win, r.count),
                "tie": _binomial(r.tie, r.count),
            },
        )
        for r in rows
    ]


def odds_records(o: Odds) -> list[tuple[Any, ...]]:
    """The rows of ``Odds.to_pandas``, typed."""
    status = snapshot_status(o.done)
    seed = None if o.exact else o.seed
    n = len(o.opponents)
    out: list[tuple[Any, ...]] = []
    for name, _, value, stderr, exact, trials in _figures(o):
        # No error known of a computed value: exact, or the same in every deal (its error 0).
        error = 0.0 if stderr is None and value is not None else stderr
        out.append((n, "odds", None, name, value, error, None, trials, exact, status, seed))
    for table, _ in TYPE_TABLES:
        rows = o.player_types if table == "player_hand" else o.opponent_types
        for r, errors in _type_figures(o, rows):
            for measure in ("share", "win", "tie"):
                error = 0.0 if o.exact else errors[measure]
                value = getattr(r, measure)
                out.append(
                    (n, table, r.hand_type, measure, value, error, r.count, o.trials, o.exact, status, seed)
                )
    return out


def _how(o: Odds) -> str:
    return "exact" if o.exact and o.analysis_exact else "sampled"


def odds_html(o: Odds) -> str:
    """``format_odds`` as HTML tables: the values, then the two MultiOdds tables."""
    title = format_odds(o).split("\n", 1)[0]
    values = [
        (words, html.Figure(value, stderr, exact=exact)) for _, words, value, stderr, exact, _ in _figures(o)
    ]
    parts = [html.figure_table(("measure", "value"), values, kind="pql-odds", caption=title, how=_how(o))]
    for table, words in TYPE_TABLES:
        rows = o.player_types if table == "player_hand" else o.opponent_types
        cells: list[Sequence[str | html.Figure]] = [
            (r.hand_type, *(html.Figure(getattr(r, m), e[m], exact=o.exact) for m in ("share", "win", "tie")))
            for r, e in _type_figures(o, rows)
        ]
        parts.append(html.figure_table((words, "share", "win", "tie"), cells, kind=f"pql-odds-{table}"))
    return html.tables(parts)


def odds_table_html(t: OddsTable) -> str:
    """``format_odds_table`` as an HTML table: a row per number of opponents, the legend under."""
    rows: list[Sequence[str | html.Figure]] = []
    for o in t.rows:
        figures = {
            name: html.Figure(value, stderr, exact=exact) for name, _, value, stderr, exact, _ in _figures(o)
        }
        cells = table_cells(o)
        rows.append(
            (
                cells[0],
                *(
                    figures[name]
                    for name in (*SHOWDOWN_MEASURES[:3], *ANALYSIS_MEASURES, *SHOWDOWN_MEASURES[3:])
                ),
                cells[-2],
                cells[-1],
            )
        )
    how = "exact" if t.rows and all(o.exact and o.analysis_exact for o in t.rows) else "sampled"
    return html.figure_table(
        [name for name, _ in TABLE_COLUMNS],
        rows,
        kind="pql-odds-table",
        caption=table_title(t.hand, t.board, t.counts),
        how=how,
        footer=TABLE_LEGEND.replace("\n", " "),
    )
