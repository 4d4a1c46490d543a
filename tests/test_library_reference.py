"""The function library against slow, obviously-correct references, game by game (issue 6).

Every deal here is fully specified (each player's exact cards, the whole board), so a run has
exactly one deal: `count(f)` is 0 or 1, `avg(f)` is f's value and `histogram(f)` has one label.
The references use only independent code: eval7 (standard hi ranks), pokerkit (short-deck order,
showdown shares) and the few lines of A-5 low rules in `reference.py`, checked here against
pokerkit too. Deals are drawn from fixed seeds, so a failure names a deal that can be replayed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest
from reference import (
    DECK,
    HI_RULE,
    RANKS,
    SHORT_DECK,
    STUD,
    TYPE_ORDER,
    best_hi,
    best_lo,
    five_card_numbers,
    five_hi,
    hi_fives,
    hi_type,
    shares,
)

import pql_repl as pql

FLOP_GAMES = ["holdem", "shortdeck", "shortdeck_triton", "omahahi", "omaha8", "omahahi5", "omaha85"]
STUD_GAMES = ["studhi", "stud8", "razz"]
ALL_GAMES = FLOP_GAMES + STUD_GAMES
HI_GAMES = [g for g in ALL_GAMES if g != "razz"]
LO_GAMES = ["omaha8", "omaha85", "stud8", "razz"]
HOLE = {
    "holdem": 2,
    "shortdeck": 2,
    "shortdeck_triton": 2,
    "omahahi": 4,
    "omaha8": 4,
    "omahahi5": 5,
    "omaha85": 5,
}
FLOP_STREETS = {"flop": 3, "turn": 4, "river": 5}
STUD_STREETS = {"third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}

Hand = list[str]


def deck_of(game: str) -> list[str]:
    return SHORT_DECK if game.startswith("shortdeck") else DECK


class Deal:
    """One fully specified deal: every player's cards (stud: in dealing order) and the board."""

    def __init__(
        self, game: str, hands: Sequence[Hand], board: Sequence[str], dead: Sequence[str] = ()
    ) -> None:
        self.game = game
        self.hands = [list(h) for h in hands]
        self.board = list(board)
        self.dead = list(dead)

    def __repr__(self) -> str:
        return f"Deal({self.game!r}, {self.hands!r}, {self.board!r}, {self.dead!r})"

    @property
    def players(self) -> range:
        return range(len(self.hands))

    def own(self, p: int, street: str) -> Hand:
        """p's cards as of `street` (stud: the cards dealt by then)."""
        if self.game in STUD:
            return self.hands[p][: STUD_STREETS[street]]
        return self.hands[p]

    def board_at(self, street: str) -> Hand:
        return [] if self.game in STUD or street == "preflop" else self.board[: FLOP_STREETS[street]]

    def up_cards(self, p: int, street: str) -> Hand:
        """Stud: p's face-up cards as of `street` (third to sixth street cards)."""
        return self.hands[p][2 : min(STUD_STREETS[street], 6)]

    def query(self, selectors: dict[str, str]) -> str:
        select = ", ".join(f"{expr} as {name}" for name, expr in selectors.items())
        players = ", ".join(f"p{i + 1}='{''.join(h)}'" for i, h in enumerate(self.hands))
        board = f", board='{''.join(self.board)}'" if self.board else ""
        dead = f", dead='{''.join(self.dead)}'" if self.dead else ""
        return f"select {select} from game='{self.game}', syntax='generic', {players}{board}{dead}"

    def ask(self, selectors: dict[str, str]) -> dict[str, object]:
        """Runs the selectors on this one deal: count and avg give their value, histogram its
        only label."""
        try:
            (r,) = pql.run(self.query(selectors), trials=1, seed=1, threads=1)
        except pql.PqlRangeError as e:
            if self.game in STUD and "not available yet" in e.message:
                pytest.xfail("stud ranges have not landed yet")
            raise
        assert r.trials == 1, self
        out: dict[str, object] = {}
        for c in r.columns:
            if c.selector == "histogram":
                assert len(c.buckets) == 1, (self, c)
                out[c.name] = c.buckets[0].label
            else:
                out[c.name] = c.value
        return out


def random_deal(rng: random.Random, game: str, players: int | None = None) -> Deal:
    n = players if players is not None else rng.choice([2, 3])
    cards = rng.sample(deck_of(game), n * (7 if game in STUD else HOLE[game]) + (0 if game in STUD else 5))
    size = 7 if game in STUD else HOLE[game]
    hands = [cards[i * size : (i + 1) * size] for i in range(n)]
    return Deal(game, hands, cards[n * size :])


def deals(game: str, count: int, seed: int, players: int | None = None) -> list[Deal]:
    rng = random.Random(f"{seed}-{game}")
    return [random_deal(rng, game, players) for _ in range(count)]


def streets_of(game: str) -> dict[str, int]:
    return STUD_STREETS if game in STUD else FLOP_STREETS


class Checker:
    """Collects selectors and the values the reference expects for one deal, asks pql once and
    compares."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.selectors: dict[str, str] = {}
        self.expected: dict[str, object] = {}

    def count(self, expr: str, expected: bool) -> None:
        self._add(f"count({expr})", 1.0 if expected else 0.0)

    def avg(self, expr: str, expected: float) -> None:
        self._add(f"avg({expr})", expected)

    def label(self, expr: str, expected: str) -> None:
        self._add(f"histogram({expr})", expected)

    def _add(self, selector: str, expected: object) -> None:
        name = f"s{len(self.selectors)}"
        self.selectors[name] = selector
        self.expected[name] = expected

    def check(self) -> None:
        if not self.selectors:
            return
        got = self.deal.ask(self.selectors)
        wrong = []
        for name, selector in self.selectors.items():
            want, have = self.expected[name], got[name]
            same = abs(float(have) - float(want)) < 1e-9 if isinstance(want, float) else have == want  # type: ignore[arg-type]
            if not same:
                wrong.append(f"{selector}: pql {have!r}, reference {want!r}")
        assert not wrong, f"{self.deal}\n" + "\n".join(wrong)


def check_deals(
    game: str, count: int, seed: int, fill: Callable[[Checker], None], players: int | None = None
) -> None:
    for deal in deals(game, count, seed, players):
        c = Checker(deal)
        fill(c)
        c.check()


# --- ranks and rank sets, as pql prints them ---------------------------------------------------


def rank_set(cards: Sequence[str]) -> set[int]:
    return {RANKS.index(c[0]) for c in cards}


def rank_label(ranks: set[int]) -> str:
    """A rank set as pql prints it: ranks high to low (ace high), '' when empty."""
    return "".join(RANKS[r] for r in sorted(ranks, reverse=True))


# --- showdown outcomes -------------------------------------------------------------------------


def pot_shares(his: Sequence[object], los: Sequence[object | None]) -> list[Fraction]:
    """Pot shares from hi values (greater is better; empty in razz) and low keys (smaller is
    better, None when not qualifying; empty without a low half): PQL-SPEC section 6."""
    n = max(len(his), len(los))
    qualified = [x for x in los if x is not None]
    lowest = min(qualified) if qualified else None  # type: ignore[type-var]
    lo_winners = [p for p in range(len(los)) if lowest is not None and los[p] == lowest]
    hi_winners = [p for p in range(len(his)) if his[p] == max(his)]  # type: ignore[type-var]
    hi_half = Fraction(1, 2) if lo_winners and hi_winners else Fraction(1)
    out = [Fraction(0)] * n
    for p in hi_winners:
        out[p] += hi_half / len(hi_winners)
    for p in lo_winners:
        out[p] += (1 - hi_half if hi_winners else Fraction(1)) / len(lo_winners)
    return out


@pytest.mark.parametrize("game", ALL_GAMES)
def test_showdown_outcomes_match_pot_shares(game: str) -> None:
    """riverEquity, fractionalRiverEquity, winsHi/tiesHi, winsLo/tiesLo, scoops and
    winningHandType against pokerkit's pot shares and the hi/lo values."""

    def fill(c: Checker) -> None:
        d = c.deal
        full = [d.own(p, "seventh" if game in STUD else "river") for p in d.players]
        board = d.board_at("seventh" if game in STUD else "river")
        his = [best_hi(game, h, board) for h in full] if game != "razz" else []
        los = [best_lo(game, h, board) for h in full] if game in LO_GAMES else []
        qualified = [x for x in los if x is not None]
        share = pot_shares(his, los)
        assert sum(share) == 1
        # Our hi and lo references agree with pokerkit's showdown on the first deals (pokerkit
        # is too slow for all of them; it has no Triton rules).
        if game != "shortdeck_triton" and next(checked) < (10 if HOLE.get(game) == 5 else 25):
            assert share == shares(game, ["".join(h) for h in full], "".join(board)), d
        for p in d.players:
            name = f"p{p + 1}"
            c.avg(f"riverEquity({name})", float(share[p]))
            c.label(f"fractionalRiverEquity({name})", str(share[p]))
            c.count(f"scoops({name})", share[p] == 1)
            if his:
                c.count(f"winsHi({name})", his.count(max(his)) == 1 and his[p] == max(his))
                c.count(f"tiesHi({name})", his.count(max(his)) > 1 and his[p] == max(his))
            if los:
                best = min(qualified) if qualified else None
                c.count(f"winsLo({name})", best is not None and los[p] == best and los.count(best) == 1)
                c.count(f"tiesLo({name})", best is not None and los[p] == best and los.count(best) > 1)
        if his:
            c.label("winningHandType()", hi_type(game, max(his)))

    checked = itertools.count()
    check_deals(game, 100, 1, fill)


# --- hi hand strength ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", HI_GAMES)
def test_hi_strength_functions(game: str) -> None:
    """handType, exactHandType, minHandType, hiRating comparisons, bestHiRating, maxHiRating,
    cardsPlay and fiveCardHiHandNumber on every street."""
    order = TYPE_ORDER[HI_RULE[game]]
    rng = random.Random(f"types-{game}")

    def fill(c: Checker) -> None:
        d = c.deal
        for street in streets_of(game):
            board = d.board_at(street)
            his = [best_hi(game, d.own(p, street), board) for p in d.players]
            for p in d.players:
                name = f"p{p + 1}"
                kind = hi_type(game, his[p])
                c.label(f"handType({name}, {street})", kind)
                c.count(f"bestHiRating({name}, {street})", his[p] == max(his))
                c.count(f"maxHiRating({name}, {street})", his[p] == max(his))
                other = rng.choice(order)
                c.count(f"exactHandType({name}, {street}, {other})", kind == other)
                c.count(f"minHandType({name}, {street}, {other})", order.index(kind) >= order.index(other))
                c.count(f"exactHandType({name}, {street}, {kind})", True)
                own = d.own(p, street)
                if len(own) + len(board) >= 5:
                    fewest = min(
                        len(set(five) & set(own))
                        for five in hi_fives(game, own, board)
                        if five_hi(five, HI_RULE[game]) == his[p]
                    )
                    c.avg(f"cardsPlay({name}, {street})", fewest)
                    if HI_RULE[game] == "standard":
                        c.avg(f"fiveCardHiHandNumber({name}, {street})", five_card_numbers()[his[p][1]])  # type: ignore[index]
            for a, b in itertools.permutations(d.players, 2):
                c.count(f"hiRating(p{a + 1}, {street}) > hiRating(p{b + 1}, {street})", his[a] > his[b])
            c.count(f"hiRating(p1, {street}) = hiRating(p2, {street})", his[0] == his[1])

    check_deals(game, 60 if HOLE.get(game) == 5 else 100, 2, fill)
