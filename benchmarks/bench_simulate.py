"""The simulate statement against the speed goal of issue 18 (2 cores): a flop spot, heads-up,
against one weighted range, reaches ±0.1 small bets (95%) on the EV difference between call and
raise in under 1 s. Compared in the same run with the same spot's showdown-only equity query
(`select avg(riverEquity(hero))`, 600,000 trials, the statement a user wrote before simulate).

The run streams snapshots and stops at the first whose paired call-raise margin (1.96 standard
errors of the paired difference) is at most 0.1 small bets; the time to it and its trials are
the medians of `--repeats` seeds. Nothing here is asserted: correctness is tested in
rust_core/tests/simulate.rs and tests/test_simulate.py."""

from __future__ import annotations

import argparse
import statistics
import time

import pql_repl as pql

BET = 2
SPOT = (
    "simulate call, raise from game='holdem', hero='Jh9h', villain='QQ+@90, 22-JJ@40, AK@80, AQ-AT@60, *@5', "
    f"board='Jd7c2h', pot=10, tocall=2, bet={BET}"
)
EQUITY = "select avg(riverEquity(hero)) from game='holdem', hero='Jh9h', " + (
    "villain='QQ+@90, 22-JJ@40, AK@80, AQ-AT@60, *@5', board='Jd7c2h'"
)


def to_precision(seed: int, threads: int) -> tuple[float, int, bool, float]:
    """Seconds until the call-raise margin is 0.1 small bets, the trials then, whether the run
    stopped on an obvious move first, and the CPU seconds of the process meanwhile (all threads:
    on a machine shared with builds, CPU time / threads is what an idle one would take)."""
    q = pql.prepare(SPOT)
    cpu = time.process_time()
    start = time.perf_counter()
    last = None
    for snap in q.stream(trials=10**7, seed=seed, threads=threads, batch=0.02):
        last = snap
        if snap.trials >= 200 and snap.gap_stderr is not None and 1.96 * snap.gap_stderr <= 0.1 * BET:
            q.cancel()
            break
        if snap.done:
            break
    elapsed = time.perf_counter() - start
    assert last is not None
    return elapsed, last.trials, last.stopped_early, time.process_time() - cpu


def equity_query(threads: int) -> float:
    start = time.perf_counter()
    pql.run(EQUITY, seed=1, threads=threads, exact=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    runs = []
    equity = []
    for seed in range(1, args.repeats + 1):
        runs.append(to_precision(seed, args.threads))
        equity.append(equity_query(args.threads))
    seconds = statistics.median(r[0] for r in runs)
    trials = statistics.median(r[1] for r in runs)
    stopped = sum(r[2] for r in runs)
    cpu = statistics.median(r[3] for r in runs)
    eq = statistics.median(equity)
    print(f"spot: {SPOT}")
    print(
        f"simulate, call-raise to ±0.1 small bets (95%): {seconds:.3f} s median, {trials:.0f} trials median"
    )
    print(f"  runs that stopped on an obvious move first: {stopped} of {len(runs)}")
    print(f"  CPU time (all threads): {cpu:.3f} s median, {cpu / args.threads:.3f} s per thread")
    print(f"showdown-only equity query (600,000 trials): {eq:.3f} s median")
    print(f"ratio simulate / equity query: {seconds / eq:.2f}")


if __name__ == "__main__":
    main()
