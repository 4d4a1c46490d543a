"""Differential testing of exact runs (issue 38, "In the suite, so it stays honest"): random cases
in every game, each run through pql with ``exact=True`` and through an independent brute force
that enumerates every deal itself, hand values from pokerkit's lookup tables (eval7 in hold'em).

A case is players' ranges (fixed hands, or a few hands with or without weights; stud hands with
``*``), a board of 0 to 5 known cards (written plainly or as a pattern), dead cards, and the
selectors ``avg(riverEquity(p))``, ``count(winsHi(p))``, ``count(tiesHi(p))``,
``count(scoops(p))``, ``count(winsLo(p))`` and ``count(tiesLo(p))`` (hi/lo games and razz) and
``histogram(handType(p, <last street>))``. Case ``i`` of seed ``s`` is always the same
(``make_case(s, i)``), so any disagreement is reproduced by its query alone.

How pql counts deals (docs/computation.md, "What is counted"): the cards still to come of
one player or of the board are one set; the boards a pattern matches are counted one by one (the
flop's cards as a set, then the turn and the river); a stud range stands for the hands it deals,
so a stud hand with one down card written and the other ``*``, and the parts of a range of
several shapes, are counted hand by hand (`stud_hands`). The reference writes those hands out,
enumerates the rest of every deal as sets and multiplies by the factor a board pattern gives
(the same for every deal of a case).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import eval7
from pokerkit import (
    EightOrBetterLowHand,
    Label,
    RegularLowHand,
    ShortDeckHoldemHand,
    StandardHighHand,
)
from pokerkit.lookups import Lookup
from reference import (
    DECK,
    EVAL7_TYPE,
    HILO,
    OMAHA,
    PK_TYPE,
    RANKS,
    SHORT_DECK,
    STUD,
    SUITS,
    TYPE_ORDER,
)

import pql_repl as pql

#: Every game, with the names pql also accepts for it (the query picks one at random).
GAMES: dict[str, tuple[str, ...]] = {
    "holdem": ("holdem",),
    "shortdeck": ("shortdeck", "6plus"),
    "shortdeck_triton": ("shortdeck_triton",),
    "omahahi": ("omahahi", "omaha", "plo"),
    "omaha8": ("omaha8", "omahahilo", "o8"),
    "omahahi5": ("omahahi5", "omaha5", "plo5"),
    "omaha85": ("omaha85", "omaha5hilo"),
    "studhi": ("studhi", "stud"),
    "stud8": ("stud8", "studhilo"),
    "razz": ("razz",),
}
HOLE = {
    "holdem": 2,
    "shortdeck": 2,
    "shortdeck_triton": 2,
    "omahahi": 4,
    "omaha8": 4,
    "omahahi5": 5,
    "omaha85": 5,
}
LO_GAMES = (*HILO, "razz")

#: pql's hand types by pokerkit's labels.
TYPE_NAME = {label: PK_TYPE[label.name] for label in Label}
#: Triton short deck: trips beat a straight (pokerkit's short deck has the straight above).
TRITON_TYPES = TYPE_ORDER["triton"]


# ---------------------------------------------------------------------------------------------
# Hand values. Five cards are rated by pokerkit's own lookup tables (the tables its hand classes
# read: an entry per rank multiset and suitedness), cached by that same key; the best hand of a
# player is the best of its legal fives (any five of seven; two hole cards and three of the
# board in Omaha). `tests/test_differential.py` checks these against pokerkit's hand classes.

PRIME = dict(zip(RANKS, (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), strict=True))

#: A value: greater is better; None is no qualifying low.
Value = int | None


class FiveCards:
    """The strength of five cards in one of pokerkit's lookups, and the hand type."""

    def __init__(self, lookup: Lookup, *, low: bool, types: Sequence[str] | None = None) -> None:
        self.lookup = lookup
        self.low = low
        self.types = types
        self.cache: dict[int, tuple[Value, str]] = {}

    def rate(self, key: int, cards: Sequence[str]) -> tuple[Value, str]:
        """`key` is the product of the rank primes, times 2, plus 1 when one suit."""
        got = self.cache.get(key)
        if got is None:
            entry = self.lookup.get_entry_or_none("".join(cards))
            if entry is None:
                got = (None, "")
            else:
                name = TYPE_NAME[entry.label]
                index = -entry.index if self.low else entry.index
                if self.types is not None:  # re-ordered types, pokerkit's order within a type
                    index += 100_000 * self.types.index(name)
                got = (index, name)
            self.cache[key] = got
        return got


HI_TABLES = {
    "standard": FiveCards(StandardHighHand.lookup, low=False),
    "short": FiveCards(ShortDeckHoldemHand.lookup, low=False),
    "triton": FiveCards(ShortDeckHoldemHand.lookup, low=False, types=TRITON_TYPES),
}
EIGHT = FiveCards(EightOrBetterLowHand.lookup, low=True)
RAZZ = FiveCards(RegularLowHand.lookup, low=True)
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
FIVE_OF_SEVEN = tuple(itertools.combinations(range(7), 5))
EVAL7_CARD = {c: eval7.Card(c) for c in DECK}


def _key(cards: Sequence[str]) -> int:
    p = 1
    for c in cards:
        p *= PRIME[c[0]]
    return 2 * p + (len({c[1] for c in cards}) == 1)


def best_of_seven(table: FiveCards, cards: Sequence[str]) -> tuple[Value, str]:
    """The best five of seven cards (stud, and hold'em rules with pokerkit's tables)."""
    primes = [PRIME[c[0]] for c in cards]
    suits = [c[1] for c in cards]
    best: tuple[Value, str] = (None, "")
    cache_ = table.cache
    for a, b, c, d, e in FIVE_OF_SEVEN:
        key = 2 * primes[a] * primes[b] * primes[c] * primes[d] * primes[e] + (
            suits[a] == suits[b] == suits[c] == suits[d] == suits[e]
        )
        got = cache_.get(key)
        if got is None:
            got = table.rate(key, (cards[a], cards[b], cards[c], cards[d], cards[e]))
        if got[0] is not None and (best[0] is None or got[0] > best[0]):
            best = got
    return best


class OmahaHand:
    """A player's two-card parts, rated with every three of a board."""

    def __init__(self, hole: Sequence[str]) -> None:
        self.pairs = [
            (PRIME[a[0]] * PRIME[b[0]], a[1] if a[1] == b[1] else "", (a, b))
            for a, b in itertools.combinations(hole, 2)
        ]

    def best(
        self, table: FiveCards, triples: Sequence[tuple[int, str, tuple[str, ...]]]
    ) -> tuple[Value, str]:
        best: tuple[Value, str] = (None, "")
        cache_ = table.cache
        for pp, ps, pc in self.pairs:
            for tp, ts, tc in triples:
                key = 2 * pp * tp + (ps != "" and ps == ts)
                got = cache_.get(key)
                if got is None:
                    got = table.rate(key, pc + tc)
                if got[0] is not None and (best[0] is None or got[0] > best[0]):
                    best = got
        return best


def board_triples(board: Sequence[str]) -> list[tuple[int, str, tuple[str, ...]]]:
    out = []
    for a, b, c in itertools.combinations(board, 3):
        suit = a[1] if a[1] == b[1] == c[1] else ""
        out.append((PRIME[a[0]] * PRIME[b[0]] * PRIME[c[0]], suit, (a, b, c)))
    return out


# ---------------------------------------------------------------------------------------------
# Cases.


@dataclass(frozen=True)
class Part:
    """One part of a range: its cards by position (None: `*`, a card of the range's choosing in
    Omaha or stud) and its weight (None: unweighted)."""

    cards: tuple[str | None, ...]
    weight: int | None = None
    #: hold'em and short deck: a class ('QQ', 'AKs', 'AKo') instead of cards
    klass: str | None = None

    def text(self) -> str:
        body = self.klass or "".join(c or "*" for c in self.cards)
        return body if self.weight is None else f"{body}@{self.weight}"


@dataclass
class Case:
    seed: int
    index: int
    game: str
    game_name: str  # as written in the query
    players: list[list[Part]]
    board: tuple[str | None, ...] | None  # None: no board; a tuple with None for `*` positions
    board_text: str | None  # as written (None: no board= at all)
    dead: tuple[str, ...]
    histograms: bool = True

    @property
    def deck(self) -> tuple[str, ...]:
        return SHORT_DECK if self.game.startswith("shortdeck") else DECK

    @property
    def last_street(self) -> str:
        return "seventh" if self.game in STUD else "river"

    def query(self) -> str:
        n = len(self.players)
        ps = [f"p{i + 1}" for i in range(n)]
        sel = [f"avg(riverEquity({p}))" for p in ps]
        if self.game != "razz":
            sel += [f"count(winsHi({p}))" for p in ps] + [f"count(tiesHi({p}))" for p in ps]
        if self.game in LO_GAMES:
            sel += [f"count(winsLo({p}))" for p in ps] + [f"count(tiesLo({p}))" for p in ps]
        sel += [f"count(scoops({p}))" for p in ps]
        if self.game != "razz" and self.histograms:
            sel += [f"histogram(handType({p}, {self.last_street}))" for p in ps]
        frm = [f"game='{self.game_name}'"]
        frm += [
            f"{p}='{', '.join(part.text() for part in parts)}'"
            for p, parts in zip(ps, self.players, strict=True)
        ]
        if self.board_text is not None:
            frm.append(f"board='{self.board_text}'")
        if self.dead:
            frm.append(f"dead='{' '.join(self.dead)}'")
        return f"select {', '.join(sel)} from {', '.join(frm)}"


def class_combos(klass: str, deck: Sequence[str]) -> list[tuple[str, str]]:
    a, b = klass[0], klass[1]
    if a == b:
        return [(a + s, a + t) for s, t in itertools.combinations(SUITS, 2) if a + s in deck]
    suited = klass.endswith("s")
    return [
        (a + s, b + t) for s in SUITS for t in SUITS if (s == t) == suited and a + s in deck and b + t in deck
    ]


# ---------------------------------------------------------------------------------------------
# The reference.


@dataclass
class Reference:
    """What an exact run must report: every total over the deals as sets, weighted, and the
    factor by which pql's count of deals exceeds the count of sets (a board pattern's boards are
    counted one by one)."""

    sets: int = 0  # deals as sets, unweighted
    factor: int = 1
    weight: int = 0  # total weight over the sets
    equity: list[int] = field(default_factory=list)  # weighted shares, in 120ths of a pot
    counts: dict[str, list[int]] = field(default_factory=dict)
    types: list[Counter[str]] = field(default_factory=list)

    @property
    def deals(self) -> int:
        return self.sets * self.factor


#: A pot share in 120ths: 120 is divisible by 2 * k for every k of up to six players.
POT = 120


def expand(case: Case, parts: Sequence[Part], used: set[str]) -> list[tuple[tuple[str, ...], int, int]]:
    """A range's hands as (cards, unknown cards to deal, weight): Omaha `*` and hold'em classes
    are expanded to their hands, stud parts to the hands `stud_hands` says."""
    out = []
    if case.game in STUD:
        every, unknown = stud_hands(parts, case.deck, used)
        for part, hands in zip(parts, every, strict=True):
            out += [(hand, unknown, part.weight or 1) for hand in hands]
        return out
    for part in parts:
        w = part.weight or 1
        if part.klass is not None:
            out += [(combo, 0, w) for combo in class_combos(part.klass, case.deck)]
        else:
            known = tuple(c for c in part.cards if c is not None)
            stars = len(part.cards) - len(known)
            free = [c for c in case.deck if c not in known and c not in used]
            out += [(known + extra, 0, w) for extra in itertools.combinations(free, stars)]
    return out


def stud_hands(
    parts: Sequence[Part], deck: Sequence[str], used: set[str]
) -> tuple[list[list[tuple[str, ...]]], int]:
    """The hands of a stud range, each part's, and how many cards each still gets.

    A stud range stands for the dealt hands it allows, sampled uniformly over them, and parts
    that fix different cards are completed to the same cards (docs/language/ranges.md). So the
    streets any part writes a card on are dealt as hands, every card left in each place the part
    leaves open (`*` or beyond its length), the up cards in their streets' order and the two down
    cards together (one written makes both dealt, as a set); every other card is still to come,
    and those are one set (docs/computation.md, "What is counted"). With one shape and no down
    card alone, nothing is written out: a `*` is a card to come."""
    fixed = {i for p in parts for i, c in enumerate(p.cards) if c is not None}
    if fixed & {0, 1}:
        fixed |= {0, 1}
    out = []
    for part in parts:
        cards = list(part.cards) + [None] * (7 - len(part.cards))
        open_ = [i for i in sorted(fixed) if cards[i] is None]
        free = [c for c in deck if c not in used and c not in cards]
        hands = []
        for fill in itertools.permutations(free, len(open_)):
            if 0 in open_ and 1 in open_ and fill[0] > fill[1]:
                continue  # the down cards are a set
            hand = list(cards)
            for i, c in zip(open_, fill, strict=True):
                hand[i] = c
            hands.append(tuple(c for c in hand if c is not None))
        out.append(hands)
    return out, 7 - len(fixed)


def board_factor(case: Case) -> int:
    """A pattern's boards are counted one by one, the flop's cards as a set: the u unknown cards
    fill f flop places, the turn and the river if open and c cards to come in u!/(f! c!) ways."""
    board = case.board
    if board is None or None not in board:
        return 1
    u = 5 - sum(c is not None for c in board)
    f = sum(c is None for c in board[:3])
    c = 5 - len(board)
    return math.factorial(u) // (math.factorial(f) * math.factorial(c))


def reference(case: Case) -> Reference:
    game = case.game
    n = len(case.players)
    board_known = tuple(c for c in (case.board or ()) if c is not None)
    fixed = set(board_known) | set(case.dead)
    ranges = [expand(case, parts, fixed) for parts in case.players]
    for r in ranges:
        # a range whose parts all weigh the same is unweighted: its deals count 1 each
        if len({w for _, _, w in r}) == 1:
            r[:] = [(known, m, 1) for known, m, _ in r]
    ref = Reference(
        equity=[0] * n,
        counts={k: [0] * n for k in ("winsHi", "tiesHi", "winsLo", "tiesLo", "scoops")},
        types=[Counter() for _ in range(n)],
    )
    ref.factor = board_factor(case)
    hi = HI_TABLES.get(HI_RULE.get(game, ""))
    lo = EIGHT if game in HILO else RAZZ if game == "razz" else None
    want_types = case.histograms and game != "razz"
    for combo in itertools.product(*ranges):
        cards = [c for known, _, _ in combo for c in known]
        if len(set(cards)) < len(cards) or fixed.intersection(cards):
            continue
        w = math.prod(x[2] for x in combo)
        rest = [c for c in case.deck if c not in fixed and c not in cards]
        if game in STUD:
            deals: Iterator[list[tuple[str, ...]]] = (
                [known + extra for (known, _, _), extra in zip(combo, fills, strict=True)]
                for fills in _stud_fills(rest, [m for _, m, _ in combo])
            )
            for hands in deals:
                _showdown(ref, game, hands, (), w, hi=hi, lo=lo, want_types=want_types)
        else:
            holes = [known for known, _, _ in combo]
            omaha = [OmahaHand(h) for h in holes] if game in OMAHA else None
            for extra in itertools.combinations(rest, 5 - len(board_known)):
                board = board_known + extra
                _showdown(ref, game, holes, board, w, hi=hi, lo=lo, want_types=want_types, omaha=omaha)
    return ref


def _stud_fills(rest: list[str], need: list[int]) -> Iterator[list[tuple[str, ...]]]:
    if not need:
        yield []
        return
    for first in itertools.combinations(rest, need[0]):
        left = [c for c in rest if c not in first]
        for others in _stud_fills(left, need[1:]):
            yield [first, *others]


def _showdown(
    ref: Reference,
    game: str,
    holes: Sequence[tuple[str, ...]],
    board: tuple[str, ...],
    w: int,
    *,
    hi: FiveCards | None,
    lo: FiveCards | None,
    want_types: bool,
    omaha: Sequence[OmahaHand] | None = None,
) -> None:
    n = len(holes)
    his: list[Value] = []
    types: list[str] = []
    los: list[Value] = []
    if omaha is not None:
        triples = board_triples(board)
        for h in omaha:
            assert hi is not None
            v, t = h.best(hi, triples)
            his.append(v)
            types.append(t)
            if lo is not None:
                los.append(h.best(lo, triples)[0])
    elif game == "holdem":
        b = [EVAL7_CARD[c] for c in board]
        for h in holes:
            v = eval7.evaluate([EVAL7_CARD[c] for c in h] + b)
            his.append(v)
            if want_types:
                types.append(EVAL7_TYPE[eval7.handtype(v)])
    else:
        for h in holes:
            seven = h + board
            if hi is not None:
                v, t = best_of_seven(hi, seven)
                his.append(v)
                types.append(t)
            if lo is not None:
                los.append(best_of_seven(lo, seven)[0])
    shares = [0] * n
    counts = ref.counts
    lo_winners: list[int] = []
    if lo is not None:
        qualified = [v for v in los if v is not None]
        if qualified:
            best_lo = max(qualified)
            lo_winners = [i for i in range(n) if los[i] == best_lo]
            if len(lo_winners) == 1:
                counts["winsLo"][lo_winners[0]] += w
            else:
                for i in lo_winners:
                    counts["tiesLo"][i] += w
    if his:
        best_hi = max(v for v in his if v is not None)
        hi_winners = [i for i in range(n) if his[i] == best_hi]
        if len(hi_winners) == 1:
            counts["winsHi"][hi_winners[0]] += w
        else:
            for i in hi_winners:
                counts["tiesHi"][i] += w
        hi_pot = POT // 2 if lo_winners else POT
        for i in hi_winners:
            shares[i] += hi_pot // len(hi_winners)
    else:
        hi_pot = 0  # razz: the whole pot is the low
    for i in lo_winners:
        shares[i] += (POT - hi_pot) // len(lo_winners)
    for i in range(n):
        ref.equity[i] += w * shares[i]
        if shares[i] == POT:
            counts["scoops"][i] += w
        if want_types:
            ref.types[i][types[i]] += w
    ref.sets += 1
    ref.weight += w


# ---------------------------------------------------------------------------------------------
# Random cases.

#: Work the reference may do for one case, in five-card ratings (eval7 calls count 4).
BUDGET = 150_000
COST = {
    "holdem": 4,
    "shortdeck": 21,
    "shortdeck_triton": 21,
    "omahahi": 60,
    "omaha8": 120,
    "omahahi5": 100,
    "omaha85": 200,
    "studhi": 21,
    "stud8": 42,
    "razz": 21,
}


class OutOfCards(Exception):
    pass


def make_case(seed: int, index: int, budget: int = BUDGET) -> Case:
    """Case `index` of `seed`: the same case every time, whatever else runs."""
    rng = random.Random(f"pql-differential:{seed}:{index}")
    game = rng.choice(list(GAMES))  # kept when a draw is redone: every game as often
    for _attempt in range(200):
        try:
            case = _draw(rng, seed, index, game)
        except OutOfCards:  # more cards than the deck has
            continue
        size = _size(case)
        if size is None:
            continue
        case = _fit(rng, case, size, budget)
        if case is not None:
            return case
    raise AssertionError(f"no case fits the budget (seed {seed}, index {index})")


def _draw(rng: random.Random, seed: int, index: int, game: str) -> Case:
    deck = list(SHORT_DECK if game.startswith("shortdeck") else DECK)
    rng.shuffle(deck)
    pool = iter(deck)
    drawn: list[str] = []

    def fresh() -> str:
        for c in pool:
            return c
        raise OutOfCards

    def card(avoid: Sequence[str | None] = ()) -> str:
        """A fresh card, now and then one another part holds (ranges may collide)."""
        if drawn and rng.random() < 0.08:
            shared = rng.choice(drawn)
            if shared not in avoid:
                return shared
        c = fresh()
        drawn.append(c)
        return c

    stud = game in STUD
    most = 4 if game in ("omahahi5", "omaha85") else 6
    n = rng.choices(range(2, most + 1), weights=[6, 4, 2, 1, 1][: most - 1])[0]
    players: list[list[Part]] = []
    shape: tuple[int, ...] = ()
    length = 0
    for _ in range(n):
        k = rng.choices([1, 2, 3], weights=[6, 3, 1])[0]
        weighted = k > 1 and rng.random() < 0.6
        mixed = k > 1 and rng.random() < 0.3  # stud: parts of different shapes
        if stud:
            top = rng.choices([3, 4, 5, 6, 7], weights=[2, 2, 3, 5, 3])[0]
            stars = rng.choices([0, 1, 2], weights=[5, 4, 1])[0]
        parts = []
        for j in range(k):
            w = rng.randint(1, 100) if weighted else None
            if stud:
                if j == 0 or mixed:
                    # mixed parts: one card shorter, or one `*` (fewer hands to write out)
                    length = top - 1 if mixed and j > 0 and top > 3 and rng.random() < 0.4 else top
                    many = rng.choice([0, 1]) if mixed else stars
                    shape = tuple(sorted(rng.sample(range(length), many)))
                cards: list[str | None] = []
                for i in range(length):
                    cards.append(None if i in shape else card(cards))
                parts.append(Part(tuple(cards), w))
            elif game in OMAHA:
                size = HOLE[game]
                stars = 1 if rng.random() < 0.12 else 0
                hole: list[str | None] = []
                for _ in range(size - stars):
                    hole.append(card(hole))
                parts.append(Part((*hole, *[None] * stars), w))
            elif rng.random() < 0.25:
                parts.append(Part((), w, _draw_class(rng, game)))
            else:
                first = card()
                parts.append(Part((first, card([first])), w))
        players.append(_disjoint(parts, game))
    board: tuple[str | None, ...] | None = None
    board_text: str | None = None
    if not stud:
        known = rng.choices([0, 1, 2, 3, 4, 5], weights=[2, 1, 2, 6, 6, 3])[0]
        if known == 0:
            board_text = rng.choice([None, "", "*****"])
        elif known in (1, 2) or rng.random() < 0.15:
            length = rng.choice([n for n in (3, 4, 5) if n >= known])
            places = set(rng.sample(range(length), known))
            board = tuple(fresh() if i in places else None for i in range(length))
        else:
            board = tuple(fresh() for _ in range(known))
        if board is not None:
            board_text = "".join(c or "*" for c in board)
            if rng.random() < 0.2 and None not in board:
                board_text = " ".join(board)
    dead = tuple([fresh() for _ in range(rng.choices([0, 1, 2, 3], weights=[5, 2, 1, 1])[0])])
    name = rng.choice(GAMES[game])
    return Case(seed, index, game, name, players, board, board_text, dead, histograms=rng.random() < 0.7)


def _hands(part: Part, game: str) -> set[frozenset[str]]:
    """The hands a part of a hold'em or Omaha range stands for."""
    deck = SHORT_DECK if game.startswith("shortdeck") else DECK
    if part.klass is not None:
        return {frozenset(h) for h in class_combos(part.klass, deck)}
    known = [c for c in part.cards if c is not None]
    stars = len(part.cards) - len(known)
    rest = [c for c in deck if c not in known]
    return {frozenset(known + list(extra)) for extra in itertools.combinations(rest, stars)}


def _disjoint(parts: list[Part], game: str) -> list[Part]:
    """The parts that share no hand with an earlier part: pql reads a hand named twice once (and
    its weight would be ambiguous)."""
    expanded: list[set[object]]
    if game in STUD:
        # the dealt hands, the down cards as a set
        every, _ = stud_hands(parts, DECK, set())
        expanded = [{(frozenset(h[:2]), h[2:]) for h in hands} for hands in every]
    else:
        expanded = [set(_hands(part, game)) for part in parts]
    kept: list[Part] = []
    seen: set[object] = set()
    for part, hands in zip(parts, expanded, strict=True):
        if not hands & seen:
            kept.append(part)
            seen |= hands
    return kept


def _draw_class(rng: random.Random, game: str) -> str:
    ranks = RANKS[4:] if game.startswith("shortdeck") else RANKS
    a, b = sorted(rng.sample(ranks, 2), key=ranks.index, reverse=True)
    kind = rng.choice(["pair", "s", "o"])
    return a + a if kind == "pair" else a + b + kind


def _size(case: Case) -> int | None:
    """The reference's work for `case` (five-card ratings), None when no legal deal."""
    board_known = [c for c in (case.board or ()) if c is not None]
    fixed = set(board_known) | set(case.dead)
    ranges = [expand(case, parts, fixed) for parts in case.players]
    if math.prod(len(r) for r in ranges) > 2_000:
        return None
    deals = 0
    for combo in itertools.product(*ranges):
        cards = [c for known, _, _ in combo for c in known]
        if len(set(cards)) < len(cards) or fixed.intersection(cards):
            continue
        left = len(case.deck) - len(fixed) - len(cards)
        if case.game in STUD:
            ways = 1
            for _, m, _ in combo:
                ways *= math.comb(max(left, 0), m)
                left -= m
        else:
            ways = math.comb(max(left, 0), 5 - len(board_known))
        deals += ways
    if deals == 0:
        return None
    return deals * len(case.players) * COST[case.game]


def _fit(rng: random.Random, case: Case, size: int, budget: int) -> Case | None:
    """More dead cards until the reference's work fits the budget (None: it cannot)."""
    while size > budget:
        used = {c for parts in case.players for p in parts for c in p.cards if c}
        used |= {c for c in case.board or () if c}
        used |= set(case.dead)
        # a class in a range keeps its cards alive: a dead card could take all its hands
        ranks = {p.klass[i] for parts in case.players for p in parts if p.klass for i in (0, 1)}
        free = [c for c in case.deck if c not in used and c[0] not in ranks]
        if len(case.dead) >= 40 or not free:
            return None
        case.dead = (*case.dead, rng.choice(free))
        got = _size(case)
        if got is None:
            return None
        size = got
    return case


# ---------------------------------------------------------------------------------------------
# Comparison.


@dataclass
class Outcome:
    """What one case compared (each number pql reported against the reference)."""

    values: int = 0  # averages and shares compared (equities, counts, histogram shares)
    raw_counts: int = 0  # weighted counts compared
    deal_counts: int = 0  # trials and total_deals compared
    problems: list[str] = field(default_factory=list)


TOLERANCE = 1e-9


def compare(case: Case, result: pql.StatementResult, ref: Reference) -> Outcome:
    out = Outcome()
    n = len(case.players)

    def close(what: str, got: float | None, want: float, tol: float = TOLERANCE) -> None:
        out.values += 1
        if got is None or not abs(got - want) <= tol:
            out.problems.append(f"{what}: pql {got!r}, reference {want!r}")

    def raw(what: str, got: float | None, want: int) -> None:
        out.raw_counts += 1
        if got is None or not abs(got - want) <= TOLERANCE * max(1, abs(want)):
            out.problems.append(f"{what} (weighted count): pql {got!r}, reference {want}")

    if not result.exact:
        out.problems.append(f"not exact: {result}")
    out.deal_counts += 2
    if result.trials != ref.deals:
        out.problems.append(
            f"trials: pql {result.trials}, reference {ref.deals} (sets {ref.sets} x {ref.factor})"
        )
    if case.board is not None and None in case.board:
        # A pattern that lists too many boards is enumerated over all boards and filtered: the
        # size of that enumeration is reported, not the boards it kept.
        out.deal_counts -= 1
        if result.total_deals is None or result.total_deals < result.trials:
            out.problems.append(f"total_deals: pql {result.total_deals} < trials {result.trials}")
    elif result.total_deals != ref.deals:
        out.problems.append(f"total_deals: pql {result.total_deals}, reference {ref.deals}")
    col = {c.name: c for c in result.columns}
    scale = ref.factor
    for i in range(n):
        p = f"p{i + 1}"
        eq = col[f"avg(riverEquity({p}))"]
        close(f"avg(riverEquity({p}))", _f(eq.value), float(Fraction(ref.equity[i], POT * ref.weight)))
        for fn in ("winsHi", "tiesHi", "winsLo", "tiesLo", "scoops"):
            name = f"count({fn}({p}))"
            if name not in col:
                continue
            c = col[name]
            close(name, _f(c.value), float(Fraction(ref.counts[fn][i], ref.weight)))
            raw(name, c.count, ref.counts[fn][i] * scale)
        name = f"histogram(handType({p}, {case.last_street}))"
        if name in col:
            buckets = {b.label: b for b in col[name].buckets}
            want = ref.types[i]
            if set(buckets) != {k for k, v in want.items() if v}:
                out.problems.append(f"{name} labels: pql {sorted(buckets)}, reference {sorted(want)}")
            for label, count in want.items():
                b = buckets.get(label)
                close(f"{name}[{label}]", b.fraction if b else None, count / ref.weight)
                raw(f"{name}[{label}]", b.count if b else None, count * scale)
    return out


def _f(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None  # type: ignore[arg-type]


def run_case(case: Case) -> tuple[pql.StatementResult, Reference, Outcome]:
    (result,) = pql.run(case.query(), exact=True)
    ref = reference(case)
    return result, ref, compare(case, result, ref)
