"""Slow, obviously-correct reference computations for the tests, built on pokerkit and eval7.

Nothing here uses pql's own evaluators: every number the engine produces is checked against an
independent implementation.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache

import eval7
from pokerkit import (
    Card,
    EightOrBetterLowHand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    ShortDeckHoldemHand,
    StandardHighHand,
)

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
SHORT_DECK = [r + s for r in RANKS[4:] for s in SUITS]


def split(cards: str) -> list[str]:
    cards = cards.replace(" ", "")
    return [cards[i : i + 2] for i in range(0, len(cards), 2)]


@cache
def pk(cards: str) -> tuple[Card, ...]:
    return tuple(Card.parse(cards))


def _best(hand_type: type, hole: str, board: str) -> object | None:
    try:
        return hand_type.from_game(pk(hole), pk(board))
    except ValueError:
        return None


def hi_value(game: str, hole: str, board: str) -> object:
    """A comparable hi strength (greater is better)."""
    if game == "holdem":
        return eval7.evaluate([eval7.Card(c) for c in split(hole + board)])
    if game in ("omahahi", "omaha8", "omahahi5", "omaha85"):
        return _best(OmahaHoldemHand, hole, board)
    if game == "shortdeck":
        return _best(ShortDeckHoldemHand, hole, board)
    if game in ("studhi", "stud8"):
        return _best(StandardHighHand, hole, "")
    raise ValueError(game)


def lo_value(game: str, hole: str, board: str) -> object | None:
    """A comparable low strength (greater is better in pokerkit's ordering), None if none."""
    if game in ("omaha8", "omaha85"):
        return _best(OmahaEightOrBetterLowHand, hole, board)
    if game == "stud8":
        return _best(EightOrBetterLowHand, hole, "")
    if game == "razz":
        return _best(RegularLowHand, hole, "")
    raise ValueError(game)


HILO = {"omaha8", "omaha85", "stud8"}


def shares(game: str, holes: Sequence[str], board: str) -> list[Fraction]:
    """Each player's pot share at showdown: ties split, hi/lo halves, quartering."""
    n = len(holes)
    out = [Fraction(0)] * n
    if game == "razz":
        los = [lo_value(game, h, board) for h in holes]
        best = max(los)  # type: ignore[type-var]
        winners = [i for i in range(n) if los[i] == best]
        for i in winners:
            out[i] += Fraction(1, len(winners))
        return out
    his = [hi_value(game, h, board) for h in holes]
    best_hi = max(his)  # type: ignore[type-var]
    hi_winners = [i for i in range(n) if his[i] == best_hi]
    lo_winners: list[int] = []
    if game in HILO:
        los = [lo_value(game, h, board) for h in holes]
        qualified = [x for x in los if x is not None]
        if qualified:
            best_lo = max(qualified)  # type: ignore[type-var]
            lo_winners = [i for i in range(n) if los[i] == best_lo]
    hi_pot = Fraction(1, 2) if lo_winners else Fraction(1)
    for i in hi_winners:
        out[i] += hi_pot / len(hi_winners)
    for i in lo_winners:
        out[i] += Fraction(1, 2) / len(lo_winners)
    return out


def exact_equities(
    game: str, holes: Sequence[str], board: str = "", dead: str = "", deck: Iterable[str] | None = None
) -> list[Fraction]:
    """Average pot shares over every completion of the board (flop games) or of every stud hand
    (stud games: `holes` may be partial; the rest is dealt)."""
    cards = list(deck if deck is not None else (SHORT_DECK if game.startswith("shortdeck") else DECK))
    known = set(split("".join(holes) + board + dead))
    rest = [c for c in cards if c not in known]
    totals = [Fraction(0)] * len(holes)
    count = 0
    if game in ("studhi", "stud8", "razz"):
        need = [7 - len(split(h)) for h in holes]
        for deal in _stud_completions(rest, need):
            full = [h + "".join(extra) for h, extra in zip(holes, deal, strict=True)]
            for i, s in enumerate(shares(game, full, "")):
                totals[i] += s
            count += 1
    else:
        for extra in itertools.combinations(rest, 5 - len(split(board))):
            b = board + "".join(extra)
            for i, s in enumerate(shares(game, holes, b)):
                totals[i] += s
            count += 1
    return [t / count for t in totals]


def _stud_completions(rest: list[str], need: list[int]) -> Iterable[list[tuple[str, ...]]]:
    if not need:
        yield []
        return
    for first in itertools.combinations(rest, need[0]):
        left = [c for c in rest if c not in first]
        for others in _stud_completions(left, need[1:]):
            yield [first, *others]
