"""Do the potentials' errors cover the truth? (issue 38 item 1.) Positive and negative potential
sampled inside each deal (two to five random opponents on the flop or turn, one before the
flop) are compared with an independent estimate (eval7, a ratio of transition counts with its
delta-method error) on random spots: z = (pql - reference) / both errors combined. Honest
errors put about 95% of |z| under 1.96, and the z-scores' standard deviation near 1.

    nice -n 19 python -m benchmarks.potential_coverage --spots 100

The functions are tests/test_inner_sampling.py's, whose CI-sized test runs twelve spots.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tests.test_inner_sampling import potential_spots, potential_z_scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spots", type=int, default=100)
    parser.add_argument("--trials", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=20_000, help="the reference's samples a spot")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    start = time.perf_counter()
    spots = potential_spots(args.spots, args.seed)
    z: list[float] = []
    # Ten spots at a time, each with seeds of its own, a summary after each (a long run on a
    # shared machine can be read before it ends).
    for first in range(0, len(spots), 10):
        z += potential_z_scores(spots[first : first + 10], args.trials, args.samples, args.seed + 1 + first)
        inside = sum(abs(x) < 1.96 for x in z)
        print(
            f"{min(first + 10, len(spots))} spots, {len(z)} potentials: |z| < 1.96 in {inside}"
            f" ({inside / len(z):.1%}), mean {statistics.fmean(z):+.3f}, sd {statistics.stdev(z):.3f},"
            f" largest |z| {max(map(abs, z)):.2f} ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
