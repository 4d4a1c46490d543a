"""How long pql takes to check (and refuse) large and hostile input, and whether that grows
linearly (issue 24). Nothing here is compared with a peer: the ratios are pql's own, a text
four times as large against the smaller one, which is about 4 where the cost is linear.

    python benchmarks/bench_hostile.py [--repeats 3] [--quick]

1. The Python API runs a text of many statements (one trial each): time per statement at N and
   4N statements.
2. Checking statements that share a board pattern ('[2-9]****', read once for the process: the
   warm-up reads it, so the figures are what every further statement costs): N and 4N of them.
3. Reading ranges of many parts: 25,000 and 100,000 hands written out (hold'em with repeats,
   5-card Omaha all different).
4. Refusals, which must come within about a second: a million selectors, a million players,
   a range nested 100,000 deep, a 1,000,000-part range, a range whose parts cost too much.

CPU time of the process (single-threaded work), medians of the repeats after a warm-up.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable

from timing import machine, median_seconds, table

import pql_repl as pql

STATEMENT = "select count(winsHi(hero)) from hero='AA', villain='KK'"
BOARD_STATEMENT = "select count(winsHi(hero)) from hero='AA', villain='KK', board='[2-9]****'"


def refused(text: str) -> Callable[[], object]:
    def run() -> object:
        try:
            pql.prepare(text)
        except pql.PqlError as e:
            return e
        raise AssertionError("accepted")

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="small sizes, to check the script runs")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    print(machine())

    rows = []

    def growth(what: str, make: Callable[[int], Callable[[], object]], n: int) -> None:
        small = median_seconds(make(n), args.repeats, cpu=True)
        large = median_seconds(make(4 * n), args.repeats, cpu=True)
        rows.append(
            [what, f"{n:,}", f"{small:.3f} s", f"{4 * n:,}", f"{large:.3f} s", f"{large / small:.1f}"]
        )

    growth(
        "API: statements run (1 trial)",
        lambda n: lambda: pql.run(";".join([STATEMENT] * n), trials=1, exact=False, threads=1),
        2_500 // scale,
    )
    growth(
        "check: statements sharing a board pattern",
        lambda n: lambda: pql.prepare(";".join([BOARD_STATEMENT] * n)),
        250 // scale,
    )
    growth(
        "range: hold'em parts (AKs repeated)",
        lambda n: lambda: pql.parse_range(", ".join(["AKs"] * n)),
        25_000 // scale,
    )
    cards = [r + s for r in "AKQJT98765432" for s in "shdc"]
    hands = ["".join(c) for c in itertools.islice(itertools.combinations(cards, 5), 100_000)]
    growth(
        "range: 5-card Omaha hands written out",
        lambda n: lambda: pql.parse_range(",".join(hands[:n]), "omaha5"),
        25_000 // scale,
    )
    print(table(["what", "n", "time", "4n", "time", "ratio"], rows))
    print()

    n = 1_000_000 // scale
    refusals = [
        ("a million selectors", "select " + ", ".join(["count(winsHi(hero))"] * n) + " from hero='AA'"),
        ("a million players", "select count(winsHi(p0)) from " + ", ".join(f"p{i}='AA'" for i in range(n))),
        (
            "a range nested 100,000 deep",
            f"select count(winsHi(h)) from h='{'(' * (n // 10)}AA{')' * (n // 10)}'",
        ),
        (
            "a 1,000,000-part range",
            f"select count(winsHi(h)) from h='{', '.join(['AKs'] * max(n, 100_001))}'",
        ),
        (
            "a range whose parts cost too much",
            "select count(winsHi(h)) from game='omaha5', syntax='generic', h='"
            + ",".join(f"{a}{b}Rx*" for a, b in itertools.combinations("AKQJT98765432", 2))
            + "'",
        ),
    ]
    refusal_rows = []
    for what, text in refusals:
        seconds = median_seconds(refused(text), args.repeats, cpu=True)
        message = str(refused(text)()).splitlines()[0]
        refusal_rows.append([what, f"{len(text) / 2**20:.1f} MiB", f"{seconds:.3f} s", message[:70]])
    print(table(["refused", "text", "time", "message"], refusal_rows))


if __name__ == "__main__":
    main()
