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


# ---------------------------------------------------------------------------------------------
# Fast references for the function library tests (test_library_reference.py). Hi hands are
# eval7 (standard rules) or pokerkit's short-deck five-card order; lows follow the A-5 rules
# written out below and are checked against pokerkit in the tests.

#: Hand types weakest first under standard rules (docs/language/statements.md, expressions).
HAND_TYPES = (
    "highcard",
    "pair",
    "twopair",
    "trips",
    "straight",
    "flush",
    "fullhouse",
    "quads",
    "straightflush",
)
#: Flop hand categories weakest first (docs/language/statements.md, expressions).
FLOP_CATEGORIES = (
    "flopnothing",
    "flopunderpair",
    "flopthirdpair",
    "floppocket23",
    "flopsecondpair",
    "floppocket12",
    "floptoppair",
    "flopoverpair",
    "flopbottomtwo",
    "floptopandbottom",
    "floptoptwo",
    "floptrips",
    "flopset",
    "flopstraight",
    "flopflush",
    "flopfullhouse",
    "flopquads",
    "flopstraightflush",
)
#: Hand types weakest first under each rule (docs/language/statements.md, expressions).
TYPE_ORDER = {
    "standard": HAND_TYPES,
    "short": (
        "highcard",
        "pair",
        "twopair",
        "trips",
        "straight",
        "fullhouse",
        "flush",
        "quads",
        "straightflush",
    ),
    "triton": (
        "highcard",
        "pair",
        "twopair",
        "straight",
        "trips",
        "fullhouse",
        "flush",
        "quads",
        "straightflush",
    ),
}
HI_RULE = {
    "holdem": "standard",
    "shortdeck": "short",
    "shortdeck_triton": "triton",
    "omahahi": "standard",
    "omaha8": "standard",
    "omahahi5": "standard",
    "omaha85": "standard",
    "studhi": "standard",
    "stud8": "standard",
}
OMAHA = {"omahahi", "omaha8", "omahahi5", "omaha85"}
STUD = {"studhi", "stud8", "razz"}
EVAL7_TYPE = {
    "High Card": "highcard",
    "Pair": "pair",
    "Two Pair": "twopair",
    "Trips": "trips",
    "Straight": "straight",
    "Flush": "flush",
    "Full House": "fullhouse",
    "Quads": "quads",
    "Straight Flush": "straightflush",
}
PK_TYPE = {
    "HIGH_CARD": "highcard",
    "ONE_PAIR": "pair",
    "TWO_PAIR": "twopair",
    "THREE_OF_A_KIND": "trips",
    "STRAIGHT": "straight",
    "FLUSH": "flush",
    "FULL_HOUSE": "fullhouse",
    "FOUR_OF_A_KIND": "quads",
    "STRAIGHT_FLUSH": "straightflush",
}

#: A hi strength: (the type's position under the rule, a strength within the type). Hands of
#: fewer than five cards (stud's early streets, hold'em before the flop) are rated by their rank
#: groups only, as (type position, ranks by group size then rank).
HiValue = tuple[int, object]


def rank_value(card: str) -> int:
    return RANKS.index(card[0])


def _groups(cards: Sequence[str]) -> list[tuple[int, int]]:
    """(count, rank) of each rank present, largest group first, then highest rank."""
    ranks = [rank_value(c) for c in cards]
    return sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)


def _partial_type(cards: Sequence[str]) -> str:
    counts = [n for n, _ in _groups(cards)]
    if counts[0] == 4:
        return "quads"
    if counts[0] == 3:
        return "fullhouse" if len(counts) > 1 and counts[1] >= 2 else "trips"
    if counts[0] == 2:
        return "twopair" if len(counts) > 1 and counts[1] == 2 else "pair"
    return "highcard"


@cache
def _short_deck_table() -> dict[tuple[tuple[int, ...], bool], tuple[str, int]]:
    """Every distinct short-deck five (ranks, one suit or not) -> (type, strength), in
    pokerkit's own order."""
    hands = []
    for multiset in itertools.combinations_with_replacement(range(4, 13), 5):
        if any(multiset.count(r) > 4 for r in multiset):
            continue
        variants = [False, True] if len(set(multiset)) == 5 else [False]
        for suited in variants:
            cards = "".join(RANKS[r] + (SUITS[0] if suited else SUITS[i % 4]) for i, r in enumerate(multiset))
            hands.append(((multiset, suited), ShortDeckHoldemHand(cards)))
    hands.sort(key=lambda h: h[1].entry.index)
    table: dict[tuple[tuple[int, ...], bool], tuple[str, int]] = {}
    level = 0
    for i, (key, hand) in enumerate(hands):
        if i > 0 and hands[i - 1][1] < hand:
            level += 1
        assert i == 0 or not hand < hands[i - 1][1]
        table[key] = (PK_TYPE[hand.entry.label.name], level)
    return table


_EVAL7_CARD = {c: eval7.Card(c) for c in DECK}


def five_hi(cards: Sequence[str], rule: str) -> HiValue:
    """The hi strength of exactly five cards under `rule` ('standard', 'short', 'triton')."""
    if rule == "standard":
        v = eval7.evaluate([_EVAL7_CARD[c] for c in cards])
        return (TYPE_ORDER[rule].index(EVAL7_TYPE[eval7.handtype(v)]), v)
    key = (tuple(sorted(rank_value(c) for c in cards)), len({c[1] for c in cards}) == 1)
    name, level = _short_deck_table()[key]
    return (TYPE_ORDER[rule].index(name), level)


def best_hi(game: str, own: Sequence[str], board: Sequence[str] = ()) -> HiValue:
    """p's best hi with `own` cards and `board`: any five (two hole and three board in Omaha)."""
    rule = HI_RULE[game]
    if game in OMAHA and len(board) >= 3:
        return max(
            five_hi([*two, *three], rule)
            for two in itertools.combinations(own, 2)
            for three in itertools.combinations(board, 3)
        )
    cards = [*own] if game in OMAHA else [*own, *board]
    if len(cards) < 5:
        return (TYPE_ORDER[rule].index(_partial_type(cards)), tuple(_groups(cards)))
    if rule == "standard":
        return (
            five_hi(cards, rule)
            if len(cards) <= 7
            else max(five_hi(f, rule) for f in itertools.combinations(cards, 5))
        )
    return max(five_hi(f, rule) for f in itertools.combinations(cards, 5))


def hi_type(game: str, value: HiValue) -> str:
    return TYPE_ORDER[HI_RULE[game]][value[0]]


def hi_fives(game: str, own: Sequence[str], board: Sequence[str]) -> Iterable[tuple[str, ...]]:
    """Every legal five-card hi hand of p."""
    if game in OMAHA:
        for two in itertools.combinations(own, 2):
            for three in itertools.combinations(board, 3):
                yield (*two, *three)
    else:
        yield from itertools.combinations([*own, *board], 5)


@cache
def five_card_numbers() -> dict[int, int]:
    """eval7 value -> its number among the 7462 distinct five-card hands (1 = royal flush)."""
    values = set()
    for multiset in itertools.combinations_with_replacement(range(13), 5):
        if any(multiset.count(r) > 4 for r in multiset):
            continue
        values.add(eval7.evaluate([eval7.Card(RANKS[r] + SUITS[i % 4]) for i, r in enumerate(multiset)]))
        if len(set(multiset)) == 5:
            values.add(eval7.evaluate([eval7.Card(RANKS[r] + "s") for r in multiset]))
    assert len(values) == 7462
    return {v: i + 1 for i, v in enumerate(sorted(values, reverse=True))}


ACE_LOW = "A23456789TJQK"


def _lo_rank(card: str) -> int:
    return ACE_LOW.index(card[0]) + 1


def lo_key(cards: Sequence[str], *, eight: bool) -> tuple[int, ...] | None:
    """A-5 low of five cards as a key where smaller is better: the shape (pairs and worse are
    worse), then the ranks from the top, ace low; None when 8-or-better is asked and the five
    are not five distinct ranks 8 or lower. Straights and flushes do not count."""
    ranks = [_lo_rank(c) for c in cards]
    groups = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
    if eight and (len(groups) < 5 or max(ranks) > 8):
        return None
    return (*[n for n, _ in groups], *[r for _, r in groups])


def best_lo(game: str, own: Sequence[str], board: Sequence[str] = ()) -> tuple[int, ...] | None:
    """p's best low (smaller key is better), None without a qualifying one. Razz rates fewer
    than five cards as they are (stud's early streets); 8-or-better needs five. Lows ignore
    suits, so the answer is cached by ranks."""
    ranks = "".join(sorted(c[0] for c in own)), "".join(sorted(c[0] for c in board))
    return _best_lo_of_ranks(game, *ranks)


@cache
def _best_lo_of_ranks(game: str, own: str, board: str) -> tuple[int, ...] | None:
    eight = game != "razz"
    if not eight and len(own) < 5:
        return lo_key(own, eight=False)
    if game in OMAHA:
        fives: Iterable[tuple[str, ...]] = (
            (*two, *three)
            for two in itertools.combinations(own, 2)
            for three in itertools.combinations(board, 3)
        )
    else:
        fives = itertools.combinations(own, 5)
    keys = [k for k in (lo_key(f, eight=eight) for f in fives) if k is not None]
    return min(keys) if keys else None
