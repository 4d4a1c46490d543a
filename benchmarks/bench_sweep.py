"""A flop report (issue 17): two ranges on the 1,755 canonical flops, rows a second locally and
on a Dask LocalCluster of two worker processes (same machine: the cluster's cost over a local
run, not a speed-up on 2 cores), both with the same seed and trials a flop. Then one statement
of `--statement-trials` Monte Carlo trials, locally (one thread, all threads) and cut into chunk
tasks on the same cluster: trials a second and whether the answer is the one-thread run's. Then
the same statement enumerated exactly (every turn and river of every pair of hands), locally on
two threads and cut into work-item tasks on the cluster: deals a second, the same answer.

    python benchmarks/bench_sweep.py [--trials 2000] [--flops 1755] [--statement-trials 4000000]
"""

from __future__ import annotations

import argparse
import time

import pql_repl as pql

REPORT = (
    "select avg(riverEquity(hero)) as equity, count(handType(hero, flop) >= twopair) as twopair "
    "from game='holdem', hero='QQ+, AK, AQs', villain='22+, A2s+, KTs+, QJs', board=$flop"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--flops", type=int, default=1755)
    parser.add_argument("--statement-trials", type=int, default=4_000_000)
    args = parser.parse_args()
    flops = pql.flops("canonical")[: args.flops]
    options = {"trials": args.trials, "seed": 1, "exact": False}

    start = time.perf_counter()
    local = pql.sweep(REPORT, flop=flops, **options)
    seconds = time.perf_counter() - start
    rate = len(flops) / seconds
    print(f"local, {len(flops)} flops, {args.trials} trials each: {seconds:.1f} s, {rate:.0f} rows/s")
    try:
        import distributed  # noqa: PLC0415
    except ImportError:
        print("Dask is not installed (pip install 'pql-repl[cluster]'): no cluster run")
        return
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as lc,
        distributed.Client(lc) as client,
    ):
        start = time.perf_counter()
        remote = pql.sweep(REPORT, flop=flops, cluster=client, **options)
        seconds = time.perf_counter() - start
        same = "same answers" if remote.to_csv() == local.to_csv() else "DIFFERENT answers"
        print(f"2-worker LocalCluster: {seconds:.1f} s, {len(flops) / seconds:.0f} rows/s ({same})")
        statement(client, args.statement_trials)
        exact_statement(client)


def statement(client: object, trials: int) -> None:
    text = REPORT.replace("board=$flop", "board='Kh9h7d'")
    options = {"trials": trials, "seed": 1, "exact": False}
    answers = {}
    for name, extra in (
        ("local, 1 thread", {"threads": 1}),
        ("local", {}),
        ("LocalCluster", {"cluster": client}),
    ):
        start = time.perf_counter()
        (answers[name],) = pql.run(text, **options, **extra)
        seconds = time.perf_counter() - start
        print(f"one statement, {name}: {seconds:.2f} s, {trials / seconds / 1e6:.1f} M trials/s")
    same = answers["LocalCluster"].columns == answers["local, 1 thread"].columns
    print(
        "cluster answer "
        + ("= the one-thread run's, bit for bit" if same else "DIFFERS from the one-thread run")
    )


def exact_statement(client: object) -> None:
    text = REPORT.replace("board=$flop", "board='Kh9h7d'")
    answers = {}
    for name, extra in (("local, 2 threads", {"threads": 2}), ("LocalCluster", {"cluster": client})):
        start = time.perf_counter()
        (answers[name],) = pql.run(text, exact=True, seed=1, **extra)
        seconds = time.perf_counter() - start
        deals = answers[name].attempted
        print(f"exact statement, {name}: {seconds:.2f} s, {deals / seconds / 1e6:.1f} M deals/s")
    same = answers["LocalCluster"].columns == answers["local, 2 threads"].columns
    print("cluster answer " + ("= the local run's, bit for bit" if same else "DIFFERS from the local run"))


if __name__ == "__main__":
    main()
