"""Hand evaluations per second through Python, per game: pql beside eval7, phevaluator and pokerkit.

    python benchmarks/bench_eval.py [--repeats 5] [--quick]

Every library rates the same random hands in one process, each through its fastest public way in:
pql's batch API (`_core.rate_batch`, one call for many hands, the GIL released) and `evaluate()`
(one hand a call, also finding the five cards used); `eval7.evaluate` on prepared card objects;
phevaluator's C entry points on card numbers; pokerkit's `from_game` on parsed cards. Inputs are
prepared before timing. Each figure is the median of several repeats, per second of CPU time (all
of this runs on one thread, and CPU time does not count waiting for a core on a busy machine); the
ratios are pql's batch rate over the other library's.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain

import eval7  # type: ignore[import-untyped]
import phevaluator._pheval as pheval  # type: ignore[import-untyped]
import pokerkit as pk
from timing import machine, median_seconds, rate, ratio, table

import pql_repl as pql
from pql_repl import _core

NAMES = [r + s for r in "23456789TJQKA" for s in "cdhs"]
SHORT_DECK = [c for c in range(52) if c >> 2 >= 4]


@dataclass(frozen=True)
class Game:
    label: str
    game: str  # pql's game name
    hole: int
    board: int
    short: bool = False
    batch: bool = True  # rate_batch gives the benchmarked side (it rates hi; lo for razz only)
    eval7: bool = False
    phevaluator: Callable[..., int] | None = None
    pokerkit: type[pk.Hand] | None = None
    side: str = "hi"


GAMES = [
    Game(
        "hold'em, 5 cards",
        "holdem",
        2,
        3,
        eval7=True,
        phevaluator=pheval.evaluate_5cards,
        pokerkit=pk.StandardHighHand,
    ),
    Game(
        "hold'em, 6 cards",
        "holdem",
        2,
        4,
        eval7=True,
        phevaluator=pheval.evaluate_6cards,
        pokerkit=pk.StandardHighHand,
    ),
    Game(
        "hold'em, 7 cards",
        "holdem",
        2,
        5,
        eval7=True,
        phevaluator=pheval.evaluate_7cards,
        pokerkit=pk.StandardHighHand,
    ),
    Game("short deck, 7 cards", "shortdeck", 2, 5, short=True, pokerkit=pk.ShortDeckHoldemHand),
    Game("short deck Triton, 7 cards", "shortdeck_triton", 2, 5, short=True),
    # phevaluator's Omaha entry takes the five board cards first, then the four hole cards.
    Game(
        "Omaha hi, 4 + 5",
        "omahahi",
        4,
        5,
        phevaluator=pheval.evaluate_omaha_cards,
        pokerkit=pk.OmahaHoldemHand,
    ),
    Game("Omaha hi, 5 + 5", "omahahi5", 5, 5, pokerkit=pk.OmahaHoldemHand),
    Game("razz, 7 cards", "razz", 7, 0, pokerkit=pk.RegularLowHand, side="lo"),
    Game(
        "stud 8-or-better low, 7 cards",
        "stud8",
        7,
        0,
        batch=False,
        pokerkit=pk.EightOrBetterLowHand,
        side="lo",
    ),
    Game(
        "Omaha 8-or-better low, 4 + 5",
        "omaha8",
        4,
        5,
        batch=False,
        pokerkit=pk.OmahaEightOrBetterLowHand,
        side="lo",
    ),
]


def deal(game: Game, count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    deck = SHORT_DECK if game.short else list(range(52))
    return [rng.sample(deck, game.hole + game.board) for _ in range(count)]


def names(cards: Sequence[int]) -> str:
    return "".join(NAMES[c] for c in cards)


def pql_batch(game: Game, hands: list[list[int]]) -> Callable[[], object]:
    data = bytes(chain.from_iterable(hands))
    return lambda: _core.rate_batch(data, game.hole, game.board, game.game)


def pql_evaluate(game: Game, hands: list[list[int]]) -> Callable[[], object]:
    texts = [(names(h[: game.hole]), names(h[game.hole :])) for h in hands]
    return lambda: [pql.evaluate(hole, board, game.game) for hole, board in texts]


def eval7_run(hands: list[list[int]]) -> Callable[[], object]:
    deck = [eval7.Card(n) for n in NAMES]
    prepared = [[deck[c] for c in h] for h in hands]
    evaluate = eval7.evaluate
    return lambda: [evaluate(h) for h in prepared]


def phevaluator_run(game: Game, hands: list[list[int]]) -> Callable[[], object]:
    f = game.phevaluator
    assert f is not None
    # Board first for Omaha; hold'em takes the cards in any order.
    prepared = [h[game.hole :] + h[: game.hole] for h in hands]
    return lambda: [f(*h) for h in prepared]


def pokerkit_run(game: Game, hands: list[list[int]]) -> Callable[[], object]:
    cls = game.pokerkit
    assert cls is not None
    prepared = [
        (tuple(pk.Card.parse(names(h[: game.hole]))), tuple(pk.Card.parse(names(h[game.hole :]))))
        for h in hands
    ]
    return lambda: [cls.from_game_or_none(hole, board) for hole, board in prepared]


def measure(
    game: Game, repeats: int, *, n_batch: int, n_peer: int, n_evaluate: int, n_pokerkit: int
) -> dict[str, float]:
    """Evaluations per second of each library that plays `game`."""
    hands = deal(game, n_batch, seed=1)
    rates: dict[str, float] = {}

    def timed(key: str, count: int, run: Callable[[], object]) -> None:
        rates[key] = count / median_seconds(run, repeats, cpu=True)

    if game.batch:
        timed("batch", n_batch, pql_batch(game, hands))
    timed("evaluate", n_evaluate, pql_evaluate(game, hands[:n_evaluate]))
    if game.eval7:
        timed("eval7", n_peer, eval7_run(hands[:n_peer]))
    if game.phevaluator is not None:
        timed("phevaluator", n_peer, phevaluator_run(game, hands[:n_peer]))
    if game.pokerkit is not None:
        count = n_pokerkit // 3 if game.hole > 2 else n_pokerkit
        timed("pokerkit", count, pokerkit_run(game, hands[:count]))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats per figure (median shown)")
    parser.add_argument("--quick", action="store_true", help="few hands, to check the script runs")
    args = parser.parse_args()
    scale = 0.02 if args.quick else 1.0
    n_batch, n_peer, n_evaluate, n_pokerkit = (
        max(200, int(n * scale)) for n in (1_000_000, 200_000, 20_000, 1_000)
    )

    print(f"Evaluations per second of CPU time through Python, median of {args.repeats} repeats")
    print(f"{machine()}\n")
    header = [
        "game",
        "pql batch",
        "pql evaluate()",
        "eval7",
        "phevaluator",
        "pokerkit",
        "vs eval7",
        "vs phev.",
        "vs pokerkit",
    ]
    rows = []
    for game in GAMES:
        rates = measure(
            game, args.repeats, n_batch=n_batch, n_peer=n_peer, n_evaluate=n_evaluate, n_pokerkit=n_pokerkit
        )
        ours = rates.get("batch", rates["evaluate"])
        cells = [
            rate(rates[k], 1.0) if k in rates else "-"
            for k in ("batch", "evaluate", "eval7", "phevaluator", "pokerkit")
        ]
        ratios = [ratio(ours, rates.get(k)) for k in ("eval7", "phevaluator", "pokerkit")]
        rows.append([game.label, *cells, *ratios])
        print(f"  {game.label}: done", file=sys.stderr, flush=True)
    print(table(header, rows))
    print(
        "\nRatios compare pql's batch API (its evaluate() where the batch API does not rate that side)."
        "\nThe batch API rates hi hands, and razz lows; the 8-or-better lows go through evaluate()."
    )


if __name__ == "__main__":
    main()
