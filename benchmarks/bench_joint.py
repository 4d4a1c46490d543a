"""The cost of joint hand strength and potential (issue 19): `handStrength` and
`positivePotential` of A♦Q♣ on random flops against 1, 2, 3, 5 and 9 random opponents, deals a
second of CPU time on one thread (medians), each row saying whether the per-deal value was
enumerated exactly or sampled (the engine chooses: the joint deals fit the budget or not). Then
`handStrength` against opponents holding '55+, AK' each (76 holdings), whose joint deals stay
exact up to three opponents: exact and sampled at similar sizes.

    python benchmarks/bench_joint.py [--repeats 5] [--quick] [--only random|ranges]
"""

from __future__ import annotations

import argparse
import os

from timing import median_seconds, rate

import pql_repl as pql

#: (function, each opponent's range, deals a run, numbers of opponents): each deal's value is
#: itself a whole enumeration or sample.
GROUPS = {
    "random": [("handStrength", "*", 400, (1, 2, 3, 5, 9)), ("positivePotential", "*", 40, (1, 2, 3, 5, 9))],
    "ranges": [("handStrength", "55+, AK", 400, (1, 2, 3, 4, 5))],
}


def statement(function: str, opponents: int, holding: str = "*") -> str:
    seats = ", ".join(f"v{i + 1}='{holding}'" for i in range(opponents))
    # No board: a new flop each deal, so nothing is reused from one deal to the next.
    return f"select avg({function}(hero, flop)) from game='holdem', hero='AdQc', {seats}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="tiny runs: check the script still works")
    parser.add_argument("--only", choices=sorted(GROUPS), help="one group of rows")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; one thread, CPU time, median of {args.repeats}")
    print(f"{'function':<18} {'opponents':<15} {'per deal':>8} {'deals/s':>12} {'ms/deal':>9} {'value':>8}")
    rows = [row for name, group in GROUPS.items() if args.only in {None, name} for row in group]
    for function, holding, full, counts in rows:
        deals = 4 if args.quick else full
        base = None
        for n in counts:
            query = pql.prepare(statement(function, n, holding))
            last: list[pql.StatementResult] = []

            def run(
                query: pql.Query = query, last: list[pql.StatementResult] = last, deals: int = deals
            ) -> None:
                last[:] = query.run(trials=deals, seed=1, threads=1, exact=False)

            seconds = median_seconds(run, args.repeats, cpu=True)
            (result,) = last
            how = "sampled" if result.inner_sampled else "exact"
            per_deal = 1000 * seconds / deals
            base = base or per_deal
            print(
                f"{function:<18} {f'{n} x {holding}':<15} {how:>8} {rate(deals, seconds):>12}"
                f" {per_deal:>9.2f}"
                f" {float(result.columns[0].value or 0.0):>8.4f}   {per_deal / base:5.1f}x heads-up"
            )


if __name__ == "__main__":
    main()
