"""How often the simulate statement's early stop picks another action than a long run (issue 38
item 5).

Random everyday fixed-limit hold'em spots (any street; one or two opponents holding typical
ranges or any hand; facing a bet, or first to act) are each run:

- once with every one of 200,000 trials played (``stop='none'``): the reference choice;
- with the default 10,000 trials and one seed of their own under each stop rule: ``'loki'``
  (Loki-2's: the best EV beats the second by more than the sum of their standard errors),
  ``'paired'`` (the default: the best beats every other by three standard errors of the paired
  difference) and ``'none'`` (no early stop: the floor that 10,000 trials leave). The three
  share their seed, so a stopped run is a prefix of the unstopped one and any difference in
  choice is the stop's doing.

For each rule it prints the share of spots whose choice differs from the reference's, the share
of stopped runs, the share where the run stopped and chose otherwise, and the EV lost (the
reference's EV of its choice less that of the run's, in small bets). Spots where even the
reference cannot tell the two best apart (their gap within 1.96 of its standard errors) are
counted apart: there any choice is a coin flip.

    nice -n 19 python benchmarks/simulate_stop.py --spots 300 --out /tmp/stop.jsonl

``--out`` keeps one JSON line a spot (a rerun with ``--resume`` skips spots found in it or in
the ``--also`` files); ``--shard K/N`` plays only spots K, K + N, … (N processes share the work,
each with its own ``--out``); ``--report`` only summarises ``--out`` and ``--also``.
tests/test_simulate.py holds the CI-sized check.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

import pql_repl as pql

RANKS = "23456789TJQKA"
DECK = [r + s for r in RANKS for s in "cdhs"]
RANGES = [
    "*",
    "QQ+@90, 22-JJ@40, AK@80, AQ-AT@60, *@5",
    "22+, A2s+, KTo+",
    "55+, A9s+, KTs+, QJs, ATo+, KJo+",
    "TT+, AQs+, AKo",
    "22+, A2+, K9+, Q9+, J9+, T8+, 98, 87, 76s, 65s",
]
RULES = ("loki", "paired", "none")
BET = 2
REFERENCE_TRIALS = 200_000
RUN_TRIALS = 10_000


def random_spot(rng: random.Random) -> str:
    """One simulate statement: a hold'em spot as players meet it every day."""
    street = rng.choices(["preflop", "flop", "turn", "river"], weights=[2, 4, 3, 3])[0]
    shown = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}[street]
    cards = rng.sample(DECK, 2 + shown)
    hero, board = "".join(cards[:2]), "".join(cards[2:])
    opponents = rng.choices([1, 2], weights=[3, 1])[0]
    seats = ", ".join(f"v{i + 1}='{rng.choice(RANGES)}'" for i in range(opponents))
    size = BET if street in {"preflop", "flop"} else 2 * BET
    facing = street == "preflop" or rng.random() < 0.6
    if facing:
        raises = rng.choice([0, 0, 1]) if street != "preflop" else rng.choice([0, 1])
        tocall = size
        pot = size * (1 + raises) + rng.randrange(2, 16) * BET // 2
        actions = "fold, call, raise"
        state = f"pot={pot}, tocall={tocall}, bet={BET}, raises={raises}"
    else:
        pot = rng.randrange(2, 16) * BET // 2
        actions = "check, bet"
        state = f"pot={pot}, tocall=0, bet={BET}"
    board_item = f", board='{board}'" if board else ""
    return f"simulate {actions} from game='holdem', hero='{hero}', {seats}{board_item}, {state}"


def run(spot: str, rule: str, trials: int, seed: int) -> dict[str, Any]:
    # The long reference runs on both cores (a seed's answer is the same on any thread count).
    threads = 2 if trials > RUN_TRIALS else 1
    (r,) = pql.run(f"{spot}, stop='{rule}'", trials=trials, seed=seed, threads=threads)
    return {
        "chosen": r.chosen,
        "stopped_after": r.stopped_after,
        "trials": r.trials,
        "evs": {c.name: c.value for c in r.columns},
        "stderrs": {c.name: c.stderr for c in r.columns},
        "gap": r.gap,
        "gap_stderr": r.gap_stderr,
    }


def measure(spot: str, rng: random.Random) -> dict[str, Any]:
    reference = run(spot, "none", REFERENCE_TRIALS, rng.randrange(1, 2**63))
    seed = rng.randrange(1, 2**63)
    runs = {rule: run(spot, rule, RUN_TRIALS, seed) for rule in RULES}
    return {"spot": spot, "reference": reference, "runs": runs}


def report(rows: list[dict[str, Any]]) -> None:
    n = len(rows)
    clear = [r for r in rows if abs(r["reference"]["gap"] or 0) > 1.96 * (r["reference"]["gap_stderr"] or 0)]
    print(f"{n} spots ({n - len(clear)} where the 200,000-trial reference cannot tell its two best apart)")
    for rule in RULES:
        differ = [r for r in rows if r["runs"][rule]["chosen"] != r["reference"]["chosen"]]
        stopped = [r for r in rows if r["runs"][rule]["stopped_after"] is not None]
        stop_differ = [r for r in differ if r["runs"][rule]["stopped_after"] is not None]
        clear_differ = [r for r in clear if r["runs"][rule]["chosen"] != r["reference"]["chosen"]]
        evs = [r["reference"]["evs"] for r in rows]
        loss = [
            (ev[r["reference"]["chosen"]] - ev[r["runs"][rule]["chosen"]]) / BET
            for ev, r in zip(evs, rows, strict=True)
        ]
        close = [r for r in rows if abs(r["reference"]["gap"] or 0) < BET / 2]
        close_differ = [r for r in close if r["runs"][rule]["chosen"] != r["reference"]["chosen"]]
        trials = statistics.median(r["runs"][rule]["trials"] for r in rows)
        print(
            f"  stop='{rule}': differs {len(differ) / n:.1%} ({len(differ)}), stopped {len(stopped) / n:.1%},"
            f" stopped and differs {len(stop_differ) / n:.1%} ({len(stop_differ)}),"
            f" differs where the reference is clear {len(clear_differ) / max(len(clear), 1):.1%},"
            f" where its gap is under half a small bet {len(close_differ)} of {len(close)},"
            f" EV lost {statistics.fmean(loss):.4f} small bets a spot (worst {max(loss):.3f}),"
            f" median trials {trials:,.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spots", type=int, default=300)
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--also", type=Path, nargs="*", default=[], help="more result files")
    parser.add_argument("--shard", default="0/1", help="K/N: spots K, K + N, ...")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--report", action="store_true", help="only summarise --out")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for path in [*([args.out] if args.out else []), *args.also]:
        if (args.resume or args.report) and path.exists():
            rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    done = {r["spot"] for r in rows}
    shard, shards = map(int, args.shard.split("/"))
    if not args.report:
        rng = random.Random(args.seed)
        start = time.perf_counter()
        for i in range(args.spots):
            spot = random_spot(rng)
            spot_rng = random.Random(rng.randrange(2**63))
            if spot in done or i % shards != shard:
                continue
            row = measure(spot, spot_rng)
            rows.append(row)
            if args.out:
                with args.out.open("a") as f:
                    f.write(json.dumps(row) + "\n")
            if (i + 1) % 10 == 0:
                print(f"{i + 1} spots in {time.perf_counter() - start:.0f} s", flush=True)
    report(rows)


if __name__ == "__main__":
    main()
