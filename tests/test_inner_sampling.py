"""Values sampled inside a deal show their error (issue 38): hand strength against three or more
random hands cannot be enumerated, so a Monte Carlo run draws it afresh in every deal from the
deal's own stream (a few joint deals each); the run's trials drive that sampling, so the value
moves with the seed, its standard error shrinks with the trials and covers an independent
estimate made here with eval7."""

from __future__ import annotations

import random

import eval7
import pytest

import pql_repl as pql

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def hand_strength_reference(
    hero: str, board: str, opponents: int, samples: int, seed: int
) -> tuple[float, float]:
    """Hero's share of the pot now against ``opponents`` random hands dealt together (no card
    twice): 1 when it beats them all, 1/(k+1) when it ties k of them at the top, else 0; with
    its standard error. Independent of pql: eval7's evaluator and Python's random."""
    rng = random.Random(seed)
    known = {hero[i : i + 2] for i in range(0, len(hero), 2)} | {
        board[i : i + 2] for i in range(0, len(board), 2)
    }
    unseen = [eval7.Card(c) for c in DECK if c not in known]
    mine_cards = [eval7.Card(hero[i : i + 2]) for i in range(0, len(hero), 2)]
    table = [eval7.Card(board[i : i + 2]) for i in range(0, len(board), 2)]
    mine = eval7.evaluate(mine_cards + table)
    total = total_sq = 0.0
    for _ in range(samples):
        cards = rng.sample(unseen, 2 * opponents)
        share = 1.0
        ties = 0
        for j in range(opponents):
            theirs = eval7.evaluate(cards[2 * j : 2 * j + 2] + table)
            if theirs > mine:
                share = 0.0
                break
            if theirs == mine:
                ties += 1
        if share:
            share = 1.0 / (ties + 1)
        total += share
        total_sq += share * share
    mean = total / samples
    # No share seen (or every one) says little of a rare one: at least that of one in `samples`.
    floor = max(min(mean, 1 - mean), 1 / samples)
    var = max(total_sq / samples - mean * mean, floor * (1 - floor))
    return mean, (var / samples) ** 0.5


def hand_strength(hero: str, board: str, opponents: int, trials: int, seed: int) -> tuple[float, float]:
    seats = ", ".join(f"v{i}='**'" for i in range(1, opponents + 1))
    (r,) = pql.run(
        f"select avg(handStrength(hero, flop)) from game='holdem', hero='{hero}', {seats}, board='{board}'",
        trials=trials,
        seed=seed,
    )
    column = r.columns[0]
    assert column.stderr is not None
    return float(column.value), column.stderr  # type: ignore[arg-type]


def test_the_value_moves_with_the_seed_and_its_error_shrinks_with_the_trials() -> None:
    values = {hand_strength("Js7s", "4d7d6d", 3, 20_000, seed)[0] for seed in range(4)}
    assert len(values) == 4, "one fixed sample whatever the seed"
    _, few = hand_strength("Js7s", "4d7d6d", 3, 10_000, 1)
    _, many = hand_strength("Js7s", "4d7d6d", 3, 160_000, 1)
    assert few > 0
    assert many == pytest.approx(few / 4, rel=0.25)


def test_the_error_covers_an_independent_estimate_on_random_spots() -> None:
    rng = random.Random(38)
    z_scores = []
    for _ in range(6):
        cards = rng.sample(DECK, 5)
        hero, board = "".join(cards[:2]), "".join(cards[2:])
        opponents = rng.choice([3, 4, 6])
        value, stderr = hand_strength(hero, board, opponents, 100_000, rng.randrange(2**32))
        reference, ref_stderr = hand_strength_reference(hero, board, opponents, 40_000, rng.randrange(2**32))
        spread = (stderr**2 + ref_stderr**2) ** 0.5
        if spread == 0:  # a hand that always wins (or loses): both see it
            assert value == reference
            continue
        z_scores.append((value - reference) / spread)
    assert all(abs(z) < 4 for z in z_scores), z_scores
    assert sum(abs(z) < 1.96 for z in z_scores) >= len(z_scores) - 2, z_scores


def test_the_seed_example_against_three_random_hands() -> None:
    """The issue's spot: J♠7♠ on 4♦7♦6♦ against three random hands, about 0.5984 ± 0.0006 by an
    independent estimate (pql showed 0.587517 ± 0, one fixed sample)."""
    value, stderr = hand_strength("Js7s", "4d7d6d", 3, 200_000, 9)
    reference, ref_stderr = hand_strength_reference("Js7s", "4d7d6d", 3, 60_000, 9)
    assert abs(value - reference) < 4 * (stderr**2 + ref_stderr**2) ** 0.5
    assert abs(value - 0.5984) < 4 * (stderr**2 + 0.0006**2) ** 0.5
