"""Omaha ``HvREquity`` against a wide range (issue 16): the time until every selector is within
±0.005 at 95% (the engine stopping on a standard error of 0.00255), trials a second, and the
default run of 600,000 trials, on all cores.

Each figure is measured in a new process (so every build starts as cold as a user's first
query), and with ``--before DIR`` another build is measured in turn with it (A, B, A, B, ...),
so a machine whose load drifts slows both alike. DIR is a directory holding a ``pql_repl``
package with its extension built (a checkout such as /work/main). The figures are medians of
the repeats and of the seeds 1 to 3; the load average is printed before and after.

    python benchmarks/bench_hvr.py [--repeats 3] [--before /work/main] [--default]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

from timing import machine, table

QUERY = "select avg(HvREquity(hero, flop)) from game='omahahi', hero='AA**', villain='20%'"
TARGET = 0.00255

# Runs in the build's directory: `import pql_repl` finds that build first.
PROBE = """
import json, sys, time, pql_repl
kwargs = json.loads(sys.argv[1])
start = time.perf_counter()
r = pql_repl.run({query!r}, exact=False, **kwargs)[0]
print(json.dumps({{"wall": time.perf_counter() - start, "trials": r.trials, "value": r.columns[0].value,
                  "stderr": r.columns[0].stderr}}))
"""


def measure(build: str, **kwargs: object) -> dict[str, float]:
    """One run of the query in a new process of `build`'s package."""
    code = PROBE.format(query=QUERY)
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(kwargs)],
        cwd=build,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=3, help="rounds per figure (median shown)")
    parser.add_argument("--before", help="another build's directory, measured in turn")
    parser.add_argument("--default", action="store_true", help="also time the default run (600,000 trials)")
    parser.add_argument("--rate-trials", type=int, default=20_000, help="trials of the trials-a-second row")
    args = parser.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    builds = {"this build": here}
    if args.before:
        builds = {"before": args.before, **builds}
    print(f"{QUERY}\n{machine()}\n{load()} at the start\n")

    rows = []
    figures: dict[str, dict[str, list[float]]] = {name: {} for name in builds}
    for _ in range(args.repeats):
        for seed in (1, 2, 3):
            for name, build in builds.items():
                r = measure(build, seed=seed, threads=os.cpu_count(), precision=TARGET)
                f = figures[name]
                f.setdefault("precision_wall", []).append(r["wall"])
                f.setdefault("precision_trials", []).append(r["trials"])
                # The trials the target needed: the error falls as 1/sqrt(n).
                f.setdefault("needed", []).append(r["trials"] * (r["stderr"] / TARGET) ** 2)
        for name, build in builds.items():
            r = measure(build, seed=1, threads=os.cpu_count(), trials=args.rate_trials)
            figures[name].setdefault("rate", []).append(r["trials"] / r["wall"])
            figures[name].setdefault("value", []).append(r["value"])
    for name, f in figures.items():
        med = statistics.median
        rows.append(
            [
                name,
                f"{med(f['precision_wall']):.2f} s ({med(f['precision_trials']):,.0f} trials run)",
                f"{med(f['needed']):,.0f}",
                f"{med(f['rate']):,.0f}",
                f"{med(f['value']):.4f}",
            ]
        )
    header = ["build", "to ±0.005 (median, seeds 1-3)", "trials needed", "trials/s", "avg (seed 1)"]
    print(table(header, rows))
    if args.default:
        r = measure(here, seed=1, threads=os.cpu_count())
        print(
            f"\ndefault run (this build): {r['trials']:,} trials in {r['wall']:.2f} s, "
            f"{r['value']:.4f} ± {r['stderr']:.5f}"
        )
    print(f"\n{load()} at the end")


if __name__ == "__main__":
    main()
