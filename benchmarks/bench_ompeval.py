"""pql beside OMPEval (the fastest open hold'em equity calculator, C++), in turn on one core (issue 22).

    OMPEVAL_DIR=/path/to/OMPEval python benchmarks/bench_ompeval.py [--repeats 5] [--quick]

OMPEval is not part of pql: this script compiles a small driver (`ompeval_driver.cpp`, ours)
against a local checkout of https://github.com/zekyll/OMPEval named by `OMPEVAL_DIR`, in a
temporary directory (a copy of its sources, patched where gcc 12 needs it: `Random.h`'s `min()`
and `max()` made `constexpr`), with `-O3 -march=native`. Without `OMPEVAL_DIR` the peer is
skipped with a line saying so, and pql's figures are printed alone.

Every row runs on one core with one thread: this process pins itself (and so the drivers it
starts) to one CPU, pql runs with `threads=1` and OMPEval with one thread. pql's queries run in
this process (`pql_repl.run`, parsing included) and are timed by the process's CPU time;
OMPEval's driver times its `start()`-to-`wait()` by its own process CPU time (its worker thread
included). The 7-card evaluator row times a loop over the same random hands, dealt before
timing, in pql's Rust driver (`rust_core/examples/peer_eval.rs`, built here with cargo) and in
OMPEval's, each reading the hands as card bytes, a fresh process of each for every repeat (see
`evaluator_run`; `--repeats 7` or more for that row). Within each repeat the two engines run one
after the other (pql, OMPEval, pql, ...), so that the machine's drift slows both alike; figures
are medians. Ratios above 1 mean pql is faster.

1. exact `AsAh` v `KsKd`, exact `QQ+, AKs, AKo` v `22+`, exact `AhKh` v `QQ` v `JTs`: time.
2. Monte Carlo `random` v `random` and `QQ+, AKs, AKo` v `22+`, the same number of trials on both
   sides: trials per second.
3. 7-card evaluation from card bytes, random hands: evaluations per second.

The same number of trials is not the same standard error: pql's deals are independent, while
OMPEval's Monte Carlo is a random walk (each hand after the first moves one player to the next
hand of its range), whose trials are not. So each Monte Carlo row is also run `--spread` times
(200 by default; 0 skips it) at a twentieth of its trials, pql with seeds 1, 2, ... and OMPEval
with its own random seeds, and the spread of the answers gives each engine's variance per trial
(the answers' variance times the trials): the rate ratio times OMPEval's variance over pql's is
the ratio at the same standard error (the issue's own measure). From 200 runs a variance is
known to about 10% (one standard deviation), the ratio of two to about 14%. OMPEval's variance
a trial depends on the run's length (its walk starts afresh every 4,096 trials and sweeps the
ranges in order), so it holds for runs of that length.

Both engines' answers are printed for player 1; they must agree (exactly for exact rows, within
sampling error otherwise).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from timing import machine, table

import pql_repl as pql

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DRIVER_SOURCE = HERE / "ompeval_driver.cpp"
CXXFLAGS = ["-O3", "-march=native", "-std=c++11", "-pthread", "-include", "functional"]


@dataclass(frozen=True)
class Row:
    """One line of the table: pql's query and OMPEval's request for the same question."""

    what: str
    ranges: list[str]
    exact: bool
    trials: int = 0  # Monte Carlo rows: trials on both sides
    evaluations: int = 0  # the evaluator row: hands rated on both sides


class Driver:
    """A driver process answering one line per request (see ompeval_driver.cpp)."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ask(self, request: str) -> list[str]:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(request + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().split()
        if not answer or answer[0] == "error":
            raise RuntimeError(f"driver failed on {request!r}: {' '.join(answer)}")
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("quit\n")
        self.process.stdin.close()
        self.process.wait(timeout=10)


def build_ompeval(checkout: Path) -> Path:
    """The driver binary, compiled once per source version into the temporary directory."""
    sources = sorted((checkout / "omp").glob("*.cpp")) + sorted((checkout / "omp").glob("*.h*"))
    digest = hashlib.sha256()
    for path in [DRIVER_SOURCE, *sources]:
        digest.update(path.read_bytes())
    digest.update(" ".join(CXXFLAGS).encode())
    work = Path(tempfile.gettempdir()) / f"pql-bench-ompeval-{digest.hexdigest()[:16]}"
    binary = work / "driver"
    if binary.exists():
        return binary
    work.mkdir(parents=True, exist_ok=True)
    for folder in ("omp", "libdivide"):
        shutil.copytree(checkout / folder, work / folder, dirs_exist_ok=True)
    random_h = work / "omp" / "Random.h"
    text = random_h.read_text()
    # gcc 12 wants the generator's bounds as constant expressions (std::uniform_int_distribution).
    text = text.replace("static uint64_t min()", "static constexpr uint64_t min()")
    text = text.replace("static uint64_t max()", "static constexpr uint64_t max()")
    random_h.write_text(text)
    print(f"compiling OMPEval and its driver in {work} ...", file=sys.stderr, flush=True)
    command = [
        os.environ.get("CXX", "g++"),
        *CXXFLAGS,
        f"-I{work}",
        "-o",
        str(binary),
        str(DRIVER_SOURCE),
        *sorted(str(p) for p in (work / "omp").glob("*.cpp")),
    ]
    subprocess.run(command, check=True)
    return binary


def build_pql_driver() -> Path:
    print("building pql's evaluator driver (cargo, release) ...", file=sys.stderr, flush=True)
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "pql_core", "--example", "peer_eval"],
        check=True,
        cwd=ROOT,
    )
    return ROOT / "target" / "release" / "examples" / "peer_eval"


def pin_to_one_core() -> int:
    """Runs this process (and the drivers it starts) on one CPU: the last one it may use."""
    cpu = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def pql_query(row: Row) -> str:
    players = ", ".join(f"p{i + 1}='{r}'" for i, r in enumerate(row.ranges))
    return f"select avg(riverEquity(p1)) from game='holdem', {players}"


def pql_answer(
    text: str, exact: bool, trials: int | None = None, seed: int | None = None
) -> tuple[float, int]:
    """Player 1's equity and the number of trials of one single-threaded run of `text`."""
    result = pql.run(text, threads=1, exact=exact, trials=trials, seed=seed)[0]
    value = result.columns[0].value
    assert isinstance(value, float)
    return value, result.trials


def pql_run(row: Row) -> Callable[[], tuple[float, float, int]]:
    text = pql_query(row)

    def run() -> tuple[float, float, int]:
        start = time.process_time()
        value, trials = pql_answer(text, True) if row.exact else pql_answer(text, False, row.trials, 1)
        return time.process_time() - start, value, trials

    return run


def omp_ranges(row: Row) -> str:
    """The row's ranges as the peer's driver reads them."""
    return "|".join("random" if r == "*" else r.replace(" ", "") for r in row.ranges)


def peer_run(driver: Driver, row: Row) -> Callable[[], tuple[float, float, int]]:
    ranges = omp_ranges(row)
    request = f"exact {ranges}" if row.exact else f"mc {row.trials} {ranges}"

    def run() -> tuple[float, float, int]:
        seconds, equity, hands, _stdev = driver.ask(request)
        return float(seconds), float(equity), int(hands)

    return run


def evaluator_run(binary: Path, count: int, seed: int) -> Callable[[], tuple[float, float, int]]:
    """Each call in a fresh driver process: on a shared VM one process can run at half the next
    one's speed for its whole life (placement, neighbours), so a figure from one process per
    engine says more about that luck than about the evaluator."""

    def run() -> tuple[float, float, int]:
        driver = Driver([str(binary)])
        try:
            seconds, _checksum = driver.ask(f"eval {count} {seed}")
        finally:
            driver.close()
        return float(seconds), float("nan"), count

    return run


def side_by_side(
    runs: list[Callable[[], tuple[float, float, int]] | None], repeats: int
) -> list[tuple[float, float, int] | None]:
    """Each run's median seconds, with its last answer and count, timed in turn (A, B, A, B, ...)
    after one untimed warm-up call each."""
    for run in runs:
        if run is not None:
            run()
    seconds: list[list[float]] = [[] for _ in runs]
    last: list[tuple[float, float, int] | None] = [None for _ in runs]
    for _ in range(repeats):
        for i, run in enumerate(runs):
            if run is not None:
                last[i] = run()
                seconds[i].append(last[i][0])  # type: ignore[index]
    out: list[tuple[float, float, int] | None] = []
    for spent, answer in zip(seconds, last, strict=True):
        out.append(None if answer is None else (statistics.median(spent), answer[1], answer[2]))
    return out


def variance_per_trial(answers: list[tuple[float, int]]) -> float:
    """The variance of one trial, from repeated runs' (answer, trials): the answers' variance
    times the trials (the mean of each run's count)."""
    return statistics.variance([a for a, _ in answers]) * statistics.mean(t for _, t in answers)


def pql_spread(row: Row, runs: int, trials: int) -> float:
    text = pql_query(row)
    answers = [pql_answer(text, exact=False, trials=trials, seed=seed) for seed in range(1, runs + 1)]
    return variance_per_trial(answers)


def peer_spread(driver: Driver, row: Row, runs: int, trials: int) -> float:
    ranges = omp_ranges(row)
    answers = []
    for _ in range(runs):
        _seconds, equity, hands, _stdev = driver.ask(f"mc {trials} {ranges}")
        answers.append((float(equity), int(hands)))
    return variance_per_trial(answers)


def figure(row: Row, result: tuple[float, float, int] | None) -> str:
    if result is None:
        return "-"
    seconds, _, count = result
    if row.evaluations:
        return f"{count / seconds / 1e6:.0f} M/s"
    if not row.exact:
        return f"{count / seconds / 1e6:.1f} M/s"
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def ratio(row: Row, ours: tuple[float, float, int] | None, theirs: tuple[float, float, int] | None) -> str:
    if ours is None or theirs is None:
        return "-"
    if row.exact:
        return f"{theirs[0] / ours[0]:.2f}"
    # Rates: trials (or hands) per second.
    return f"{(ours[2] / ours[0]) / (theirs[2] / theirs[0]):.2f}"


def rows(quick: bool) -> list[Row]:
    trials = 400_000 if quick else 20_000_000
    evaluations = 200_000 if quick else 10_000_000
    wide = ["QQ+, AKs, AKo", "22+"]
    out = [
        Row("exact AsAh v KsKd (1,712,304 boards)", ["AsAh", "KsKd"], exact=True),
        Row("exact QQ+, AKs, AKo v 22+", wide, exact=True),
        Row("exact AhKh v QQ v JTs", ["AhKh", "QQ", "JTs"], exact=True),
        Row(
            f"Monte Carlo random v random, {trials / 1e6:g} M trials", ["*", "*"], exact=False, trials=trials
        ),
        Row(f"Monte Carlo QQ+, AKs, AKo v 22+, {trials / 1e6:g} M trials", wide, exact=False, trials=trials),
        Row("7-card evaluation from card bytes, random hands", [], exact=False, evaluations=evaluations),
    ]
    if quick:
        # The wide exact row takes seconds before issue 22's engine; a quick run skips it.
        out = [r for r in out if r.ranges != wide or not r.exact]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats per figure (median shown)")
    parser.add_argument("--quick", action="store_true", help="small inputs, to check the script runs")
    parser.add_argument("--only", default="", help="only the rows whose label contains this text")
    parser.add_argument(
        "--spread", type=int, default=200, help="runs per engine for a Monte Carlo row's variance (0: none)"
    )
    args = parser.parse_args()

    checkout = os.environ.get("OMPEVAL_DIR")
    peer_binary = None
    if not checkout or not (Path(checkout) / "omp" / "EquityCalculator.cpp").exists():
        print("OMPEval skipped: set OMPEVAL_DIR to a checkout of https://github.com/zekyll/OMPEval\n")
    else:
        peer_binary = build_ompeval(Path(checkout))
    ours_binary = build_pql_driver()
    # Pinned before the drivers start: they inherit the one CPU.
    cpu = pin_to_one_core()
    peer = Driver([str(peer_binary)]) if peer_binary else None

    print(f"pql beside OMPEval on CPU {cpu}, one thread each, median of {args.repeats} repeats (CPU time)")
    print(f"{machine()}\n")
    lines = []
    spreads = []
    for row in rows(args.quick):
        if args.only not in row.what:
            continue
        if row.evaluations:
            runs = [
                evaluator_run(ours_binary, row.evaluations, 1),
                evaluator_run(peer_binary, row.evaluations, 1) if peer_binary else None,
            ]
        else:
            runs = [pql_run(row), peer_run(peer, row) if peer else None]
        ours, theirs = side_by_side(runs, args.repeats)

        def answer(result: tuple[float, float, int] | None) -> str:
            return "-" if result is None or result[1] != result[1] else f"{result[1]:.6f}"

        lines.append(
            [
                row.what,
                figure(row, ours),
                figure(row, theirs),
                ratio(row, ours, theirs),
                answer(ours),
                answer(theirs),
            ]
        )
        if row.trials and args.spread > 1 and ours is not None and theirs is not None and peer is not None:
            few = max(row.trials // 20, 10_000)
            mine, its = pql_spread(row, args.spread, few), peer_spread(peer, row, args.spread, few)
            rates = (ours[2] / ours[0]) / (theirs[2] / theirs[0])
            same_error = rates * its / mine
            spreads.append([row.what, f"{mine:.4f}", f"{its:.4f}", f"{rates:.2f}", f"{same_error:.2f}"])
        print(f"  {row.what}: done", file=sys.stderr, flush=True)
    print(table(["work", "pql", "OMPEval", "pql / OMPEval", "p1 pql", "p1 OMPEval"], lines))
    print("\nRatios: OMPEval's time over pql's for exact rows, pql's rate over OMPEval's otherwise.")
    if spreads:
        print(f"\nMonte Carlo at the same standard error ({args.spread} runs each, at 1/20 of the trials):")
        header = ["work", "variance a trial: pql", "OMPEval", "rate ratio", "same-error ratio"]
        print(table(header, spreads))
    if peer is not None:
        peer.close()


if __name__ == "__main__":
    main()
