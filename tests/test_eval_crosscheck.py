"""Our evaluators against independent ones on random hands: pokerkit for every rule, eval7 for hold'em.

pokerkit takes about half a millisecond to find the best of seven cards, far too slow for 100,000
hands a game. So its rules enter through its five-card hands: every distinct five-card hand of a
rule (one representative per rank multiset and suitedness, the key pokerkit itself looks hands up
by) is built as a pokerkit hand and ordered by pokerkit's own comparison. The best hand of a deal is
then the maximum over its legal five-card choices (any five, or two hole and three board cards in
Omaha), done here by brute force; a few hundred deals per game also go through pokerkit's own
`from_game` to show that this composition agrees with it.

An ordering check compares every pair at once: the map from our rating to the reference strength
must be strictly increasing on the distinct values seen, so two hands compare the same way under
both evaluators. Hands are checked through `evaluate` (rating, category, the five cards used) and
through the batch API `_core.rate_batch`, which must give the same ratings.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, combinations, combinations_with_replacement, pairwise
from math import prod

import eval7  # type: ignore[import-untyped]
import pokerkit as pk
import pytest
from reference import EVAL7_TYPE

import pql_repl as pql
from pql_repl import _core

RANKS = "23456789TJQKA"
SUITS = "cdhs"
# Dense card numbers, as `rate_batch` takes them: rank * 4 + suit.
NAMES = [r + s for r in RANKS for s in SUITS]
DENSE = {name: i for i, name in enumerate(NAMES)}
# A five-card hand's lookup key is the product of its rank primes (unique per rank multiset),
# doubled, plus one when all five share a suit.
PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
PRIME = [PRIMES[c >> 2] for c in range(52)]
SUIT_BIT = [1 << (c & 3) for c in range(52)]
NONE = -1  # the strength of "no hand" (no qualifying low) on both sides

HANDS_PER_GAME = 100_000
EVAL7_HANDS = 1_000_000
FROM_GAME_HANDS = 300
EVALUATE_SAMPLE = 10_000

HI_CATEGORY = {
    pk.Label.HIGH_CARD: "highcard",
    pk.Label.ONE_PAIR: "pair",
    pk.Label.TWO_PAIR: "twopair",
    pk.Label.THREE_OF_A_KIND: "trips",
    pk.Label.STRAIGHT: "straight",
    pk.Label.FLUSH: "flush",
    pk.Label.FULL_HOUSE: "fullhouse",
    pk.Label.FOUR_OF_A_KIND: "quads",
    pk.Label.STRAIGHT_FLUSH: "straightflush",
}
# Short deck, Triton rules: trips beat a straight (flush over full house as in short deck).
TRITON_ORDER = {
    "highcard": 0,
    "pair": 1,
    "twopair": 2,
    "straight": 3,
    "trips": 4,
    "fullhouse": 5,
    "flush": 6,
    "quads": 7,
    "straightflush": 8,
}
LO_SHAPE = {
    pk.Label.ONE_PAIR: "pair",
    pk.Label.TWO_PAIR: "twopair",
    pk.Label.THREE_OF_A_KIND: "trips",
    pk.Label.FULL_HOUSE: "fullhouse",
    pk.Label.FOUR_OF_A_KIND: "quads",
}
ACE_LOW_ORDER = "A23456789TJQK"
# The cards a five leaves out of a hand of 5, 6 or 7.
LEFT_OUT = {n: list(combinations(range(n), n - 5)) for n in (5, 6, 7)}


def five_key(cards: Sequence[int]) -> int:
    a, b, c, d, e = cards
    product = PRIME[a] * PRIME[b] * PRIME[c] * PRIME[d] * PRIME[e]
    suited = SUIT_BIT[a] & SUIT_BIT[b] & SUIT_BIT[c] & SUIT_BIT[d] & SUIT_BIT[e]
    return product << 1 | (suited != 0)


@dataclass(frozen=True)
class Reference:
    """A rule's five-card hands as pokerkit orders them."""

    # five_key -> strength (greater is stronger, equal when pokerkit ties, NONE when the five
    # cards make no hand under the rule), for every five cards of the rule's ranks.
    strength: dict[int, int]
    category: dict[int, str]  # strength -> our category name (hi) or low description
    # Best unsuited strength by the hand's rank prime product: it depends on the ranks only.
    unsuited_best: dict[int, int] = field(default_factory=dict)

    def best_any_five(self, cards: Sequence[int]) -> int:
        """The strongest five of `cards` (stud, hold'em hole + board)."""
        primes = [PRIME[c] for c in cards]
        total = prod(primes)
        best = self.unsuited_best.get(total)
        if best is None:
            # Each five is the hand less some cards, so its prime product is a quotient.
            keys = [(total // prod(primes[i] for i in out)) << 1 for out in LEFT_OUT[len(cards)]]
            best = self.unsuited_best[total] = max(map(self.strength.__getitem__, keys))
        # Under every rule here a one-suit five is worth at least as much as its ranks unsuited,
        # so adding the suited fives of a five-card suit gives the maximum.
        suits = [c & 3 for c in cards]
        for suit in [s for s in range(4) if suits.count(s) >= 5]:
            same = [p for p, s in zip(primes, suits, strict=True) if s == suit]
            best = max([best, *(self.strength[prod(five) << 1 | 1] for five in combinations(same, 5))])
        return best

    def best_omaha(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """The strongest hand of exactly two hole and three board cards."""
        pairs = [PRIME[a] * PRIME[b] for a, b in combinations(hole, 2)]
        triples = [PRIME[a] * PRIME[b] * PRIME[c] for a, b, c in combinations(board, 3)]
        best = max(map(self.strength.__getitem__, [(p * t) << 1 for p in pairs for t in triples]))
        # Suited fives, as in `best_any_five`: two hole and three board cards of one suit.
        board_suits = [c & 3 for c in board]
        for suit in [s for s in range(4) if board_suits.count(s) >= 3]:
            in_hole = [PRIME[c] for c in hole if c & 3 == suit]
            on_board = [PRIME[c] for c in board if c & 3 == suit]
            suited = [
                prod(two) * prod(three) << 1 | 1
                for two in combinations(in_hole, 2)
                for three in combinations(on_board, 3)
            ]
            best = max([best, *map(self.strength.__getitem__, suited)])
        return best


def representatives(ranks: Sequence[int]) -> Iterator[list[int]]:
    """One hand per rank multiset (at most four of a rank, never five of a suit), and a one-suit
    hand per set of five distinct ranks."""
    for multiset in combinations_with_replacement(ranks, 5):
        if any(multiset.count(r) > 4 for r in multiset):
            continue
        # Equal ranks are adjacent, so cycling the suits keeps them apart, and five cards never
        # share a suit.
        yield [r * 4 + i % 4 for i, r in enumerate(multiset)]
        if len(set(multiset)) == 5:
            yield [r * 4 for r in multiset]


def describe_low(label: pk.Label, cards: Sequence[int]) -> str:
    """Our name of a low: its ranks high to low (`8-5-4-2-A`), or the paired shape."""
    if label != pk.Label.HIGH_CARD:
        return LO_SHAPE[label]
    ranks = sorted((RANKS[c >> 2] for c in cards), key=ACE_LOW_ORDER.index, reverse=True)
    return "-".join(ranks)


def build_reference(hand_class: type[pk.Hand], ranks: Sequence[int], *, low: bool) -> Reference:
    hands: list[tuple[pk.Hand, list[int]]] = []
    invalid: list[list[int]] = []
    for cards in representatives(ranks):
        try:
            hands.append((hand_class("".join(NAMES[c] for c in cards)), cards))
        except ValueError:  # no such hand under this rule (e.g. not an eight-or-better low)
            invalid.append(cards)
    # Sorted by the lookup index, then every neighbour checked with pokerkit's own comparison, so
    # the order is pokerkit's even if the index convention were not what we think.
    hands.sort(key=lambda h: -h[0].entry.index if hand_class.low else h[0].entry.index)
    strength: dict[int, int] = {}
    category: dict[int, str] = {}
    level = 0
    for i, (hand, cards) in enumerate(hands):
        if i > 0:
            previous = hands[i - 1][0]
            assert not hand < previous, f"pokerkit orders {previous!r} above {hand!r}"
            level += previous < hand
        label = hand.entry.label
        strength[five_key(cards)] = level
        category[level] = describe_low(label, cards) if low else HI_CATEGORY[label]
    strength.update((five_key(cards), NONE) for cards in invalid)
    return Reference(strength, category)


@pytest.fixture(scope="module")
def standard() -> Reference:
    return build_reference(pk.StandardHighHand, range(13), low=False)


@pytest.fixture(scope="module")
def short_deck() -> Reference:
    return build_reference(pk.ShortDeckHoldemHand, range(4, 13), low=False)


@pytest.fixture(scope="module")
def triton(short_deck: Reference) -> Reference:
    """Triton has no pokerkit class: short-deck hands, re-ranked by category with trips above a
    straight; within a category the short-deck order stands."""
    span = len(short_deck.category)
    strength = {
        key: TRITON_ORDER[short_deck.category[s]] * span + s if s != NONE else NONE
        for key, s in short_deck.strength.items()
    }
    category = {TRITON_ORDER[c] * span + s: c for s, c in short_deck.category.items()}
    return Reference(strength, category)


@pytest.fixture(scope="module")
def razz_low() -> Reference:
    return build_reference(pk.RegularLowHand, range(13), low=True)


@pytest.fixture(scope="module")
def eight_low() -> Reference:
    return build_reference(pk.EightOrBetterLowHand, range(13), low=True)


def test_reference_tables_have_the_known_sizes(
    standard: Reference, short_deck: Reference, razz_low: Reference, eight_low: Reference
) -> None:
    assert len(standard.category) == 7462
    assert len(eight_low.category) == 56
    # A-5 low ignores straights and flushes: one low per rank multiset.
    assert len(razz_low.category) == 6175
    assert len(set(short_deck.category.values())) == 9


def test_every_five_card_hi_hand_class_orders_as_pokerkit(standard: Reference) -> None:
    """All 7,462 five-card classes, not a sample: one representative each, rated in one batch."""
    reps = list(representatives(range(13)))
    assert len(reps) == len(standard.strength) == 7462
    ratings = _core.rate_batch(bytes(chain.from_iterable(reps)), 5, 0, "holdem")
    assert_same_order(ratings, [standard.strength[five_key(h)] for h in reps], reps, 5)


def deals(seed: int, deck: Sequence[int], size: int, count: int) -> list[list[int]]:
    """`count` random hands of `size` cards: every window of a shuffled deck is a uniformly random
    hand. Neighbouring windows overlap, which costs nothing here (every hand is compared with every
    other) and deals ten times faster than drawing each hand alone."""
    rng = random.Random(seed)
    cards = list(deck)
    out: list[list[int]] = []
    while len(out) < count:
        rng.shuffle(cards)
        out.extend(cards[i : i + size] for i in range(len(cards) - size + 1))
    return out[:count]


def names(cards: Sequence[int]) -> str:
    return "".join(NAMES[c] for c in cards)


def show(cards: Sequence[int], hole: int) -> str:
    return f"{names(cards[:hole])} / {names(cards[hole:])}" if hole < len(cards) else names(cards)


def assert_same_order(
    ours: Sequence[int], theirs: Sequence[int], hands: Sequence[Sequence[int]], hole: int
) -> None:
    """Our ratings and the reference strengths order the hands identically: equal exactly when the
    other is equal, greater exactly when the other is greater (for all pairs at once)."""
    assert len(ours) == len(theirs) == len(hands)
    witness: dict[tuple[int, int], int] = {}
    for i, pair in enumerate(zip(ours, theirs, strict=True)):
        witness.setdefault(pair, i)
    pairs = sorted(witness)
    for (r1, s1), (r2, s2) in pairwise(pairs):
        if s1 >= s2:
            a, b = witness[(r1, s1)], witness[(r2, s2)]
            pytest.fail(
                f"order disagrees: {show(hands[a], hole)} (ours {r1}, reference {s1}) versus "
                f"{show(hands[b], hole)} (ours {r2}, reference {s2})"
            )


def parse(text: str) -> list[int]:
    return [DENSE[text[i : i + 2]] for i in range(0, len(text), 2)]


@dataclass(frozen=True)
class Case:
    name: str
    game: str
    hole: int
    board: int
    reference: str  # fixture name
    side: str  # "hi" or "lo"
    omaha: bool = False
    short: bool = False
    batch: bool = True  # rate_batch rates this side (it gives hi ratings, lo only for razz)
    seed: int = 0


CASES = [
    Case("holdem hi, 5 cards", "holdem", 2, 3, "standard", "hi", seed=11),
    Case("holdem hi, 6 cards", "holdem", 2, 4, "standard", "hi", seed=12),
    Case("holdem hi, 7 cards", "holdem", 2, 5, "standard", "hi", seed=13),
    Case("stud hi, 7 cards", "studhi", 7, 0, "standard", "hi", seed=14),
    Case("short deck, 7 cards", "shortdeck", 2, 5, "short_deck", "hi", short=True, seed=15),
    Case("short deck Triton, 7 cards", "shortdeck_triton", 2, 5, "triton", "hi", short=True, seed=16),
    Case("omaha hi, 4 hole", "omahahi", 4, 5, "standard", "hi", omaha=True, seed=17),
    Case("omaha hi, 5 hole", "omahahi5", 5, 5, "standard", "hi", omaha=True, seed=18),
    Case("razz, 7 cards", "razz", 7, 0, "razz_low", "lo", seed=19),
    Case("stud 8-or-better low, 7 cards", "stud8", 7, 0, "eight_low", "lo", batch=False, seed=20),
    Case(
        "omaha 8-or-better low, 4 hole", "omaha8", 4, 5, "eight_low", "lo", omaha=True, batch=False, seed=21
    ),
    Case(
        "omaha 8-or-better low, 5 hole", "omaha85", 5, 5, "eight_low", "lo", omaha=True, batch=False, seed=22
    ),
]

SHORT_DECK = [c for c in range(52) if c >> 2 >= 4]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_random_hands_agree_with_pokerkit(case: Case, request: pytest.FixtureRequest) -> None:
    ref: Reference = request.getfixturevalue(case.reference)
    hole = case.hole
    hands = deals(case.seed, SHORT_DECK if case.short else range(52), hole + case.board, HANDS_PER_GAME)
    if case.omaha:
        theirs = [ref.best_omaha(h[:hole], h[hole:]) for h in hands]
    else:
        theirs = list(map(ref.best_any_five, hands))

    def evaluate(i: int) -> pql.HandValue | None:
        h = hands[i]
        e = pql.evaluate(names(h[:hole]), names(h[hole:]), case.game)
        return e.hi if case.side == "hi" else e.lo

    if case.batch:
        ours = _core.rate_batch(bytes(chain.from_iterable(hands)), hole, case.board, case.game)
        assert_same_order(ours, theirs, hands, hole)
        # `evaluate` on a sample and on one hand of every rating seen: the ratings must be the
        # batch's, and the order check carries its categories and cards over to every hand.
        first: dict[int, int] = {}
        for i, r in enumerate(ours):
            first.setdefault(r, i)
        chosen = sorted({*range(EVALUATE_SAMPLE), *first.values()})
        values = {i: evaluate(i) for i in chosen}
        for i, v in values.items():
            assert v is not None
            assert v.rating == ours[i], f"{show(hands[i], hole)}: evaluate and rate_batch disagree"
    else:
        values = {i: evaluate(i) for i in range(len(hands))}
        assert_same_order([NONE if v is None else v.rating for v in values.values()], theirs, hands, hole)
        # Every hand checked, so the order check compared which hands qualify as well.
        assert NONE in theirs

    for i, v in values.items():
        if v is None:
            continue
        h, t, where = hands[i], theirs[i], show(hands[i], hole)
        assert v.category == ref.category[t], f"{where}: {v.category} but pokerkit says {ref.category[t]}"
        five = parse(v.cards)
        assert len(five) == 5
        assert set(five) <= set(h), f"{where}: uses {v.cards}"
        if case.omaha:
            assert len(set(five) & set(h[:hole])) == 2, (
                f"{where}: {v.cards} is not two hole and three board cards"
            )
        assert ref.strength.get(five_key(five)) == t, f"{where}: {v.cards} is not the best five"


# pokerkit's own best-hand search on a few hundred deals per rule: the brute force above composes
# its five-card hands the same way it does.
@dataclass(frozen=True)
class FromGame:
    hand_class: type[pk.Hand]
    reference: str  # fixture name
    hole: int
    board: int
    omaha: bool = False
    short: bool = False


FROM_GAME = [
    FromGame(pk.StandardHighHand, "standard", 2, 5),
    FromGame(pk.StandardHighHand, "standard", 2, 4),
    FromGame(pk.ShortDeckHoldemHand, "short_deck", 2, 5, short=True),
    FromGame(pk.OmahaHoldemHand, "standard", 4, 5, omaha=True),
    FromGame(pk.OmahaHoldemHand, "standard", 5, 5, omaha=True),
    FromGame(pk.RegularLowHand, "razz_low", 7, 0),
    FromGame(pk.EightOrBetterLowHand, "eight_low", 7, 0),
    FromGame(pk.OmahaEightOrBetterLowHand, "eight_low", 4, 5, omaha=True),
]


@pytest.mark.parametrize(
    "case", FROM_GAME, ids=[f"{f.hand_class.__name__}-{f.hole}+{f.board}" for f in FROM_GAME]
)
def test_reference_composition_matches_pokerkit_from_game(
    case: FromGame, request: pytest.FixtureRequest
) -> None:
    ref: Reference = request.getfixturevalue(case.reference)
    hole = case.hole
    for h in deals(99, SHORT_DECK if case.short else range(52), hole + case.board, FROM_GAME_HANDS):
        best = ref.best_omaha(h[:hole], h[hole:]) if case.omaha else ref.best_any_five(h)
        hand = case.hand_class.from_game_or_none(names(h[:hole]), names(h[hole:]))
        if hand is None:
            assert best == NONE, show(h, hole)
        else:
            assert ref.strength[five_key([DENSE[repr(c)] for c in hand.cards])] == best, show(h, hole)


def test_a_million_holdem_hands_agree_with_eval7() -> None:
    hands = deals(7, range(52), 7, EVAL7_HANDS)
    deck = [eval7.Card(name) for name in NAMES]
    evaluate: Callable[[list[eval7.Card]], int] = eval7.evaluate
    theirs = [evaluate(list(map(deck.__getitem__, h))) for h in hands]
    ours = _core.rate_batch(bytes(chain.from_iterable(hands)), 2, 5, "holdem")
    assert_same_order(ours, theirs, hands, 2)
    # The order matches, so one hand per distinct value shows the categories match too.
    first: dict[int, int] = {}
    for i, v in enumerate(theirs):
        first.setdefault(v, i)
    for v, i in first.items():
        h = hands[i]
        e = pql.evaluate(names(h[:2]), names(h[2:]))
        assert e.hi is not None
        assert e.hi.category == EVAL7_TYPE[eval7.handtype(v)], show(h, 2)


@pytest.mark.parametrize(("hole", "board"), [(2**64 - 1, 3), (2, 2**64 - 2)])
def test_rate_batch_refuses_counts_that_overflow(hole: int, board: int) -> None:
    # hole + board wraps to 2 in 64 bits: the two cards must not be read as a hand.
    with pytest.raises(ValueError, match="hole \\+ board per hand"):
        _core.rate_batch(bytes([0, 1]), hole, board, "holdem")
