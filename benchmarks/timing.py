"""Shared helpers of the benchmark scripts: medians of repeated timings and a plain table."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence


def median_seconds(run: Callable[[], object], repeats: int, *, cpu: bool = False) -> float:
    """The median time of `repeats` calls of `run` (one untimed warm-up call first): wall-clock, or
    with `cpu` the CPU time of the whole process, which on a shared machine does not count the
    time spent waiting for a core. CPU time is right for single-threaded work only."""
    clock = time.process_time if cpu else time.perf_counter
    run()
    times = []
    for _ in range(repeats):
        start = clock()
        run()
        times.append(clock() - start)
    return statistics.median(times)


def cpu_with_children() -> float:
    """CPU time of this process and of its finished child processes (a peer run as a command)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def median_seconds_side_by_side(
    runs: Sequence[Callable[[], object]],
    repeats: int,
    *,
    cpu: bool = False,
    clock: Callable[[], float] | None = None,
) -> list[float]:
    """`median_seconds` of several calls timed in turn within each repeat (A, B, A, B, ...), so
    that a machine whose speed drifts over seconds slows them alike and their ratio holds.
    `clock` replaces the clock `cpu` chooses (`cpu_with_children` for a peer command)."""
    clock = clock or (time.process_time if cpu else time.perf_counter)
    for run in runs:
        run()
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(repeats):
        for run, spent in zip(runs, times, strict=True):
            start = clock()
            run()
            spent.append(clock() - start)
    return [statistics.median(spent) for spent in times]


def rate(count: float, seconds: float) -> str:
    """A rate per second with a unit that keeps three significant figures."""
    per_second = count / seconds
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if per_second >= scale:
            return f"{per_second / scale:.3g} {unit}/s"
    return f"{per_second:.3g} /s"


def ratio(ours: float | None, theirs: float | None) -> str:
    """How many times faster `ours` is (rates), or '-' when either is missing."""
    if ours is None or theirs is None:
        return "-"
    return f"{ours / theirs:.1f}x"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def machine() -> str:
    """A one-line note on the machine and its load, printed with every run."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{os.cpu_count()} logical cores, load average {load:.2f} (meaningful only on a quiet machine)"
