"""The engine through the public API: exact runs equal independent enumeration, Monte Carlo runs
fall within a few standard errors of the exact answer, and the guards explain themselves."""

from __future__ import annotations

import _thread
import itertools
import threading
import time
from collections.abc import Callable
from fractions import Fraction

import eval7
import pytest
from reference import DECK, exact_equities, split

import pql_repl as pql


def equities(query: str, **options: object) -> tuple[pql.StatementResult, list[float]]:
    (r,) = pql.run(query, **options)  # type: ignore[arg-type]
    return r, [float(c.value) for c in r.columns]  # type: ignore[arg-type]


EXACT_CASES = [
    # (game, holes, board, dead)
    ("holdem", ["AsAh", "KsKd"], "Kh7c2d", ""),
    ("holdem", ["AsKs", "QdQc", "7h6h"], "Js8h2h", ""),
    ("holdem", ["AsKs", "QdQc", "7h6h", "2c2d"], "Js8h2h9c", ""),
    ("holdem", ["AhKh", "QdQc"], "Jh8h2c", "Th9h"),
    ("shortdeck", ["AsKs", "QdQc"], "JsTh7d", ""),
    ("omahahi", ["AsAhKsKh", "QdJdTc9c"], "Qh8c2d", ""),
    ("omaha8", ["As2s9h9d", "Ad3dKcQc"], "4c5h8s", ""),
    ("omahahi5", ["AsAhKsKhQc", "QdJdTc9c8h"], "Qh8c2d", ""),
    ("omaha85", ["As2s9h9dKc", "Ad3dKdQcJh"], "4c5h8s", ""),
    ("studhi", ["AsAhKd9c8c7d", "QsQdJh2c3c4d"], "", ""),
    ("stud8", ["As2h3d9c8cKd", "QsQdJh4c5c6d"], "", ""),
    ("razz", ["As2h3dKcQcJd", "4s5d6h7c8cTd"], "", ""),
]


def pql_query(game: str, holes: list[str], board: str, dead: str) -> str:
    players = ", ".join(f"p{i + 1}='{h}'" for i, h in enumerate(holes))
    selectors = ", ".join(f"avg(riverEquity(p{i + 1}))" for i in range(len(holes)))
    extra = (f", board='{board}'" if board else "") + (f", dead='{dead}'" if dead else "")
    syntax = ", syntax='generic'" if game.startswith(("stud", "razz")) else ""
    return f"select {selectors} from game='{game}'{syntax}, {players}{extra}"


@pytest.mark.parametrize(("game", "holes", "board", "dead"), EXACT_CASES)
def test_exact_runs_equal_independent_enumeration(game: str, holes: list[str], board: str, dead: str) -> None:
    r, values = equities(pql_query(game, holes, board, dead), exact=True)
    expected = exact_equities(game, holes, board, dead)
    assert r.exact
    assert all(c.stderr is None for c in r.columns)
    for got, want in zip(values, expected, strict=True):
        assert got == pytest.approx(float(want), abs=1e-9)
    assert sum(values) == pytest.approx(1.0, abs=1e-9)


RANGE_CASES = [
    # (game, ranges as explicit combo lists, the same ranges in PQL, board)
    (
        "holdem",
        [["AsAh", "AsAd", "AhAd"], ["KsKh", "AsKs", "QdQc"]],
        ["AsAh,AsAd,AhAd", "KsKh,AsKs,QdQc"],
        "Kd7c2s",
    ),
    ("holdem", [["AhKh", "AdKd"], ["QsQh", "QcQd"], ["7h6h"]], ["AhKh,AdKd", "QsQh,QcQd", "7h6h"], "Jh8h2c"),
    ("omahahi", [["AsAhKsKh", "AcAdKcKd"], ["QdJdTc9c"]], ["AsAhKsKh,AcAdKcKd", "QdJdTc9c"], "Qh8c2d"),
]


@pytest.mark.parametrize(("game", "combos", "ranges", "board"), RANGE_CASES)
def test_exact_runs_over_ranges_average_every_compatible_combination(
    game: str, combos: list[list[str]], ranges: list[str], board: str
) -> None:
    expected = [Fraction(0)] * len(combos)
    pairs = 0
    for holes in itertools.product(*combos):
        cards = split("".join(holes) + board)
        if len(set(cards)) < len(cards):
            continue  # a collision: the deal is not legal
        for i, e in enumerate(exact_equities(game, list(holes), board)):
            expected[i] += e
        pairs += 1
    r, values = equities(pql_query(game, ranges, board, ""), exact=True)
    assert r.exact
    for v, e in zip(values, expected, strict=True):
        assert v == pytest.approx(float(e / pairs), abs=1e-9)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("game", "holes", "board", "dead"), EXACT_CASES[:9])
def test_monte_carlo_within_four_standard_errors(
    game: str, holes: list[str], board: str, dead: str, seed: int
) -> None:
    query = pql_query(game, holes, board, dead)
    r, _ = equities(query, exact=False, trials=100_000, seed=seed)
    (exact,) = pql.run(query, exact=True)
    assert not r.exact
    assert r.trials == 100_000
    for mc, ex in zip(r.columns, exact.columns, strict=True):
        assert mc.stderr is not None
        # A player who can never win (or never lose) has no spread at all.
        assert (mc.stderr > 0) == (0 < float(ex.value) < 1)  # type: ignore[arg-type]
        assert abs(float(mc.value) - float(ex.value)) < 4 * mc.stderr + 1e-12  # type: ignore[arg-type]


def test_same_seed_same_answer() -> None:
    q = "select avg(riverEquity(hero)) from hero='AKs', villain='QQ'"
    a = pql.run(q, exact=False, trials=50_000, seed=9)[0].columns[0].value
    b = pql.run(q, exact=False, trials=50_000, seed=9)[0].columns[0].value
    c = pql.run(q, exact=False, trials=50_000, seed=9, threads=1)[0].columns[0].value
    assert a == pytest.approx(b, abs=1e-12)
    assert a == pytest.approx(c, abs=1e-12)


@pytest.mark.parametrize(
    ("query", "expected", "selector"),
    [
        # Published results of the original PQL.
        ("select count(winsHi(p1)) from p1='TT', p2='AK'", 0.5588, 0),
        ("select count(winsHi(p1)) from p1='99', p2='QQ'", 0.1855, 0),
        ("select count(winsHi(p1)) from p1='22', p2='A2'", 0.6403, 0),
    ],
)
def test_published_results(query: str, expected: float, selector: int) -> None:
    (r,) = pql.run(query, exact=False, trials=200_000, seed=5)
    col = r.columns[selector]
    assert col.stderr is not None
    assert abs(float(col.value) - expected) < 4 * col.stderr + 0.00005  # type: ignore[arg-type]


def test_where_is_conditional_probability() -> None:
    # P(hero wins | flop makes hero a set) computed exactly both ways.
    base = "from hero='7s7h', villain='AsKd', board='7d2c9s'"
    (r,) = pql.run(f"select avg(riverEquity(hero)) {base} where handType(hero, turn) = trips", exact=True)
    assert r.exact
    assert 0.0 < float(r.columns[0].value) <= 1.0  # type: ignore[arg-type]
    # Independent: condition on turn cards that keep hero at exactly trips.
    used = set(split("7s7h" + "AsKd" + "7d2c9s"))
    turns = [c for c in DECK if c not in used]
    total, count = Fraction(0), 0
    for turn in turns:
        hand = [eval7.Card(c) for c in split("7s7h7d2c9s" + turn)]
        if eval7.handtype(eval7.evaluate(hand)) != "Trips":
            continue
        eq = exact_equities("holdem", ["7s7h", "AsKd"], "7d2c9s" + turn)[0]
        total += eq
        count += 1
    assert float(r.columns[0].value) == pytest.approx(float(total / count), abs=1e-9)  # type: ignore[arg-type]


def test_count_histogram_max_min_and_names() -> None:
    (r,) = pql.run(
        "select count(winsHi(hero)), histogram(handType(hero, river)) as ht, max(riverEquity(hero)), "
        "min(riverEquity(hero)), avg(6) from hero='AsAd', villain='KK', board='2c7d9h'",
        exact=True,
    )
    names = [c.name for c in r.columns]
    assert names == [
        "count(winsHi(hero))",
        "ht",
        "max(riverEquity(hero))",
        "min(riverEquity(hero))",
        "avg(6)",
    ]
    ht = r.column("ht")
    labels = [b.label for b in ht.buckets]
    assert labels == sorted(labels, key=["pair", "twopair", "trips", "fullhouse", "quads"].index)
    assert sum(b.fraction for b in ht.buckets) == pytest.approx(1.0)
    # docs/python.md: buckets are (label, count, fraction), with attributes as well.
    label, count, fraction = ht.buckets[0]
    assert (label, count, fraction) == (ht.buckets[0].label, ht.buckets[0].count, ht.buckets[0].fraction)
    assert ht.buckets[0][0] == labels[0]
    assert sum(b[1] for b in ht.buckets) == r.trials
    assert r.column("max(riverEquity(hero))").value == 1
    assert r.column("min(riverEquity(hero))").value == 0
    assert r.column("avg(6)").value == 6


def test_equities_of_all_players_sum_to_one_in_monte_carlo() -> None:
    (r,) = pql.run(
        "select avg(riverEquity(a)), avg(riverEquity(b)), avg(riverEquity(c)) from game='omaha8', "
        "a='A2**', b='KK**', c='*'",
        trials=60_000,
        seed=2,
    )
    assert sum(float(c.value) for c in r.columns) == pytest.approx(1.0, abs=1e-9)  # type: ignore[arg-type]


def test_conflicting_ranges_are_an_error_before_any_trial() -> None:
    with pytest.raises(pql.PqlRuntimeError, match="no legal deal"):
        pql.run("select avg(riverEquity(a)) from a='AsAh', b='AsKd'")


def test_where_that_never_holds_explains_itself() -> None:
    with pytest.raises(pql.PqlRuntimeError, match="accepted"):
        pql.run(
            "select avg(riverEquity(a)) from a='AA', b='KK' where handType(a, flop) = straightflush "
            "and handType(b, flop) = straightflush",
            exact=False,
        )


def when_started(q: pql.Query, action: Callable[[], object]) -> threading.Thread:
    """A thread that does ``action`` once ``q``'s run has started (its handle exists): an event,
    not a clock, whatever the machine's speed."""

    def wait_then_act() -> None:
        while q._handle is None:
            time.sleep(0.01)
        action()

    thread = threading.Thread(target=wait_then_act)
    thread.start()
    return thread


def cancel_from_another_thread(q: pql.Query, trials: int) -> pql.StatementResult:
    """Stream ``q``, cancelled from another thread once it runs; the last (cancelled) snapshot."""
    snaps: list[pql.StatementResult] = []
    canceller = when_started(q, q.cancel)
    with pytest.raises(pql.PqlCancelled):
        snaps.extend(q.stream(trials=trials, exact=False, batch=0.01))
    canceller.join()
    return snaps[-1]


def test_cancel_from_another_thread_stops_the_run() -> None:
    q = pql.prepare("select avg(riverEquity(a)) from game='omahahi', a='*', b='*', c='*'")
    last = cancel_from_another_thread(q, 100_000_000)
    assert last.done
    assert last.cancelled
    assert last.trials < 100_000_000


def test_time_limit_bounds_the_run() -> None:
    # Only what holds at any speed: the limit, not the trials, ended the run, and not before it.
    (r,) = pql.run(
        "select avg(riverEquity(a)) from game='omahahi', a='*', b='*'", trials=10**9, time_limit=0.5
    )
    assert r.trials < 10**9
    assert r.elapsed >= 0.5
    assert not r.cancelled


# Hand potential enumerates about a million (holding, completion) pairs per deal: a chunk of
# such trials lasts minutes, so cancel and the time limit must be looked at within chunks.
EXPENSIVE = "select avg(positivePotential(hero, flop)) from game='holdem', hero='**', villain='**'"


def test_time_limit_bounds_expensive_trials() -> None:
    (r,) = pql.run(EXPENSIVE, trials=100_000, exact=False, time_limit=0.5)
    assert r.elapsed >= 0.5
    # Fewer trials than one chunk of work (4,096) takes: the limit was looked at within it.
    assert r.trials < 4096


def test_cancel_stops_expensive_trials() -> None:
    # A chunk of these trials lasts minutes: the cancel is looked at within it.
    last = cancel_from_another_thread(pql.prepare(EXPENSIVE), 100_000)
    assert last.cancelled
    assert last.trials < 4096


def test_partial_snapshots_report_elapsed_time() -> None:
    q = pql.prepare("select avg(riverEquity(a)) from game='omahahi', a='*', b='*'")
    # A run far too long to end by itself, closed after three partial snapshots: no snapshot
    # count depends on how fast the machine is.
    stream = q.stream(trials=10**12, seed=1, exact=False, batch=0.02)
    partial = list(itertools.islice(stream, 3))
    stream.close()
    assert len(partial) == 3
    assert not any(s.done for s in partial)
    assert all(s.elapsed > 0 for s in partial)
    elapsed = [s.elapsed for s in partial]
    assert elapsed == sorted(elapsed)


def test_stream_yields_growing_snapshots() -> None:
    q = pql.prepare("select avg(riverEquity(a)) from a='AA', b='*', c='*'")
    snaps = list(q.stream(trials=400_000, seed=1, exact=False, batch=0.01))
    assert snaps[-1].done
    assert snaps[-1].trials == 400_000
    trials = [s.trials for s in snaps]
    assert trials == sorted(trials)


def test_a_time_limit_too_long_for_a_duration_is_no_limit() -> None:
    # 1e300 seconds does not fit a Duration: the run must not fail on it, it has no limit.
    (r,) = pql.run(
        "select count(true) from hero='AA', villain='KK'", trials=1000, exact=False, time_limit=1e300
    )
    assert r.trials == 1000


def test_a_nan_batch_interval_still_runs() -> None:
    q = pql.prepare("select count(true) from hero='AA', villain='KK'")
    snaps = list(q.stream(trials=1000, exact=False, batch=float("nan")))
    assert snaps[-1].done
    assert snaps[-1].trials == 1000


ELEVEN_PLAYERS = (
    "select count(winsHi(a)) from a='AsAh', b='KsKd', c='QsQd', d='JsJd', e='TsTd', f='9s9d', "
    "g='8s8d', h='7s7d', i='6s6d', j='5s5d', k='4s4d', board='2c3c4c'"
)


def test_an_eleventh_player_is_a_type_error_naming_the_limit() -> None:
    # It used to pass the checker and panic in the sampler (a PanicException in Python).
    with pytest.raises(pql.PqlTypeError, match="at most 10") as e:
        pql.prepare(ELEVEN_PLAYERS)
    assert (e.value.line, e.value.col) == (1, ELEVEN_PLAYERS.index("k='4s4d'") + 1)
    (r,) = pql.run(ELEVEN_PLAYERS.replace(", k='4s4d'", ""), trials=1000)
    assert r.trials > 0


AA_KK = "select avg(riverEquity(a)) as eq, count(winsHi(a)) from game='holdem', a='AsAh', b='KsKd'"
# 658,008 Omaha deals with a histogram (no shortcut by outcome): well over 10 ms of work.
LONG_ENUMERATION = (
    "select avg(riverEquity(a)), histogram(handType(a, river)) from game='omahahi', "
    "a='AsAhKsKh', b='QdJdTc9c', c='8h8d7c6c'"
)


def test_a_short_time_limit_samples_instead_of_enumerating() -> None:
    # It used to enumerate and stop after the first deals in order: 0.8477 ± 0.0010 for a true
    # 0.819461, reported as a sample. The choice is made from the size of the work, not from a
    # clock, so it is the same at any speed (how many trials fit in 0.05 s is not).
    (r,) = pql.run(AA_KK, time_limit=0.05, seed=1)
    assert not r.exact
    assert not r.truncated
    assert r.total_deals is None
    assert r.seed == 1
    # With room to spare the answer is exact.
    (r,) = pql.run(AA_KK, time_limit=60)
    assert r.exact
    assert r.total_deals == r.trials == 1_712_304


#: 566,544,888 Omaha deals: minutes of enumeration, so a short limit or a cancel always cuts it.
HUGE_ENUMERATION = (
    "select avg(riverEquity(a)), histogram(handType(a, river)) from game='omahahi', "
    "a='AsAhKsKh', b='QdJdTc9c', c='8h8d**'"
)
HUGE_DEALS = 566_544_888


#: Fewer work items than this in a sample give no standard errors (rust_core run/cluster.rs).
MIN_ITEMS = 30


def assert_estimated_from_items(r: pql.StatementResult) -> None:
    """An enumeration so far or cut short: its averages carry standard errors once enough
    work items are in (how many are depends on the machine's speed, so both cases pass)."""
    assert r.items_done is not None
    assert r.items_total is not None
    assert r.items_done < r.items_total
    avg = r.columns[0]
    if r.items_done >= MIN_ITEMS:
        assert avg.stderr is not None, r
        assert avg.stderr > 0, r
    else:
        assert avg.stderr is None, r


def test_an_exhaustive_run_cut_short_is_reported_as_such() -> None:
    (r,) = pql.run(HUGE_ENUMERATION, exact=True, time_limit=0.5, seed=3)
    assert r.truncated
    assert not r.exact
    assert r.total_deals == HUGE_DEALS
    assert r.attempted < HUGE_DEALS
    assert r.seed == 3
    assert_estimated_from_items(r)
    d = r.to_dict()
    assert d["truncated"] is True
    assert d["exact"] is False
    assert d["items_total"] == r.items_total


def test_an_exhaustive_run_cancelled_after_some_work_is_cut_short() -> None:
    q = pql.prepare(HUGE_ENUMERATION)
    snaps: list[pql.StatementResult] = []

    def follow() -> None:
        for snap in q.stream(exact=True, batch=0.01):
            snaps.append(snap)
            if snap.attempted > 0 and not snap.done:
                q.cancel()  # once some deals are done, whenever that is

    with pytest.raises(pql.PqlCancelled):
        follow()
    last = snaps[-1]
    assert last.cancelled
    assert last.truncated
    assert 0 < last.attempted < HUGE_DEALS
    assert_estimated_from_items(last)


def test_partial_snapshots_of_an_exhaustive_run_are_estimates_and_the_last_is_exact() -> None:
    snaps = list(pql.prepare(LONG_ENUMERATION).stream(exact=True, batch=0.001))
    assert snaps[-1].exact
    assert not snaps[-1].truncated
    assert snaps[-1].trials == snaps[-1].total_deals == 658_008
    assert all(c.stderr is None for c in snaps[-1].columns)
    for s in snaps[:-1]:
        assert s.total_deals == 658_008
        assert_estimated_from_items(s)


RARE_WHERE = (
    "select count(winsHi(hero)) from hero='*', villain='*' where handType(hero, river) = straightflush"
)


def test_a_rare_where_clause_stops_early_naming_its_rate_and_the_time_it_would_take() -> None:
    # 0.03% of deals kept: above the low-rate guard, and about 330 s for 600,000 trials here,
    # which used to run with no message. (More trials keep the projection far above a minute
    # on a faster machine too.)
    with pytest.raises(pql.PqlRuntimeError, match=r"keep only 0\.0\d+% of deals") as e:
        pql.run(RARE_WHERE, trials=6_000_000, seed=1)
    assert "6000000 trials would take about" in e.value.message
    assert e.value.hint is not None
    assert "--time-limit" in e.value.hint
    # With a time limit the run goes on (here until it has kept 50 deals; then it is stopped).
    stream = pql.prepare(RARE_WHERE).stream(trials=6_000_000, seed=1, time_limit=3600, batch=0.05)
    snap = next(s for s in stream if s.trials >= 50 or s.done)
    stream.close()
    assert not snap.done
    assert 50 <= snap.trials < 6_000_000
    assert snap.attempted > 1000 * snap.trials


def _wait_until_done(q: pql.Query) -> dict[str, object]:
    """The last snapshot of the query's current run (through its handle). The deadline only
    keeps a run that never stops from hanging the suite; it is far beyond any machine's speed."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        snap = q._handle.poll(0.1)
        if snap is not None and snap["done"]:
            return snap  # type: ignore[no-any-return]
    raise AssertionError("the run goes on")


def test_closing_a_stream_stops_its_run() -> None:
    q = pql.prepare("select avg(riverEquity(a)) from game='omahahi', a='*', b='*'")
    g = q.stream(trials=10**9, exact=False)
    next(g)
    g.close()
    snap = _wait_until_done(q)
    assert snap["cancelled"]
    assert snap["trials"] < 10**9  # type: ignore[operator]


def test_an_interrupted_run_stops_its_workers() -> None:
    q = pql.prepare("select avg(riverEquity(a)) from game='omahahi', a='*', b='*'")
    # Ctrl+C while the run waits for its first snapshot.
    interrupter = when_started(q, _thread.interrupt_main)
    # Only against a hang: were the interrupt lost, the run is cancelled and the test fails
    # (PqlCancelled instead of KeyboardInterrupt) rather than run for hours.
    guard = threading.Timer(120, q.cancel)
    guard.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            q.run(trials=10**9, exact=False)
    finally:
        guard.cancel()
    interrupter.join()
    snap = _wait_until_done(q)
    assert snap["cancelled"]


def test_impossible_ranges_with_many_hands_are_an_error_before_any_trial() -> None:
    # Three players who each need two of the four aces. It used to take 15 s of prefix search
    # and then two million rejected deals before "accepted only 0 of 2031616 deals" (which the
    # message tells apart).
    with pytest.raises(pql.PqlRuntimeError, match="no legal deal"):
        pql.run("select avg(riverEquity(a)) from game='omahahi', a='AA**', b='AA**', c='AA**'")
    with pytest.raises(pql.PqlRuntimeError, match="no legal deal"):
        pql.run("select avg(riverEquity(a)) from game='omahahi', a='AA**', b='AA**', c='AA**'", exact=False)


def test_stream_yields_about_every_batch_seconds_and_the_final_count_once() -> None:
    # It used to yield after every 4,096-trial chunk, and the final count twice (first with
    # done unset). The bound holds at any speed: a partial snapshot needs `batch` seconds.
    q = pql.prepare("select avg(riverEquity(a)) from game='omahahi', a='*', b='*'")
    started = time.monotonic()
    snaps = list(q.stream(trials=3_000_000, seed=1, exact=False, batch=0.2))
    elapsed = time.monotonic() - started
    partial = [s for s in snaps if not s.done]
    assert len(partial) <= elapsed / 0.2 + 2, (len(partial), elapsed)
    assert snaps[-1].done
    assert all(s.trials < snaps[-1].trials for s in partial)


@pytest.mark.parametrize(
    ("option", "value", "error"),
    [
        ("trials", -1, ValueError),
        ("trials", 0, ValueError),
        ("trials", 2**64, ValueError),
        ("trials", 1.5, TypeError),
        ("seed", -1, ValueError),
        ("seed", 2**64, ValueError),
        ("threads", -2, ValueError),
        ("threads", 0, ValueError),
        ("time_limit", 0, ValueError),
        ("time_limit", -1.0, ValueError),
        ("time_limit", float("nan"), ValueError),
        ("time_limit", "1", TypeError),
    ],
)
def test_bad_run_options_name_the_argument(option: str, value: object, error: type[Exception]) -> None:
    # Negative counts used to surface as a bare OverflowError from the extension, and
    # time_limit=0 silently meant no limit.
    query = "select count(true) from hero='AA', villain='KK'"
    with pytest.raises(error, match=option):
        pql.run(query, **{option: value})  # type: ignore[arg-type]
    with pytest.raises(error, match=option):
        pql.prepare(query).stream(**{option: value})  # type: ignore[arg-type]


def test_division_by_zero_is_a_runtime_error_at_the_divisor() -> None:
    # avg(1/0) used to report 0.
    query = "select avg(1/0) from hero='AA', villain='KK'"
    with pytest.raises(pql.PqlRuntimeError, match="division by zero") as e:
        pql.run(query, trials=1000)
    assert (e.value.line, e.value.col) == (1, query.index("0)") + 1)


def test_evaluate_names_the_cards_a_short_deck_lacks() -> None:
    with pytest.raises(pql.PqlError, match="'2s', '3s' are not in the short deck"):
        pql.evaluate("2s3s", game="shortdeck")
    with pytest.raises(pql.PqlError, match="'5d' is not in the short deck"):
        pql.evaluate("AsKs", "QsJs5d", game="shortdeck")


def test_an_enumeration_with_sampled_inner_values_reports_it() -> None:
    # Before the flop, HvREquity against a range has too many boards to enumerate in every deal.
    query = (
        "select avg(HvREquity(hero, {})) from game='holdem', hero='AsAh', villain='15%', board='2c7d9hTsJs'"
    )
    (sampled,) = pql.run(query.format("preflop"), exact=True)
    assert sampled.inner_sampled
    assert not sampled.exact
    assert sampled.total_deals == sampled.attempted
    (enumerated,) = pql.run(query.format("flop"), exact=True)
    assert enumerated.exact
    assert not enumerated.inner_sampled
