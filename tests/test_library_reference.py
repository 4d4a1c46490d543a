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
    FLOP_CATEGORIES,
    HI_RULE,
    OMAHA,
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
    lo_value,
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
        (r,) = pql.run(self.query(selectors), trials=1, seed=1, threads=1)
        assert r.trials == 1, self
        out: dict[str, object] = {}
        for c in r.columns:
            if c.selector == "histogram":
                assert len(c.buckets) == 1, (self, c)
                out[c.name] = c.buckets[0].label
            else:
                out[c.name] = c.value
        return out


def random_deal(rng: random.Random, game: str, players: int | None = None, dead: int = 0) -> Deal:
    """A random deal of 2 or 3 players (or `players`), with up to `dead` dead cards."""
    n = players if players is not None else rng.choice([2, 3])
    cards = rng.sample(deck_of(game), n * (7 if game in STUD else HOLE[game]) + (0 if game in STUD else 5))
    size = 7 if game in STUD else HOLE[game]
    hands = [cards[i * size : (i + 1) * size] for i in range(n)]
    removed: list[str] = []
    if dead:
        removed = rng.sample([x for x in deck_of(game) if x not in cards], rng.randint(0, dead))
    return Deal(game, hands, cards[n * size :], removed)


def deals(game: str, count: int, seed: int, players: int | None = None, dead: int = 0) -> list[Deal]:
    rng = random.Random(f"{seed}-{game}")
    return [random_deal(rng, game, players, dead) for _ in range(count)]


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
    game: str,
    count: int,
    seed: int,
    fill: Callable[[Checker], None],
    *,
    players: int | None = None,
    dead: int = 0,
) -> None:
    if HOLE.get(game) == 5:
        # Five-card Omaha hands cost pql ~15 ms each to read as ranges; fewer deals keep the
        # file fast.
        count = max(5, count * 2 // 5)
    for deal in deals(game, count, seed, players, dead):
        c = Checker(deal)
        fill(c)
        c.check()


# --- ranks and rank sets, as pql prints them ---------------------------------------------------


def rank_set(cards: Sequence[str]) -> set[int]:
    return {RANKS.index(c[0]) for c in cards}


def rank_label(ranks: set[int]) -> str:
    """A rank set as pql prints it: ranks high to low (ace high), 'none' when empty."""
    return "".join(RANKS[r] for r in sorted(ranks, reverse=True)) or "none"


def rank_order(game: str, rank: int) -> int:
    """Where a rank stands low to high: razz plays the ace as the lowest rank."""
    return (rank + 1) % 13 if game == "razz" else rank


# --- showdown outcomes -------------------------------------------------------------------------


def pot_shares(his: Sequence[object], los: Sequence[object | None]) -> list[Fraction]:
    """Pot shares from hi values (greater is better; empty in razz) and low keys (smaller is
    better, None when not qualifying; empty without a low half), as docs/language/statements.md
    splits the pot."""
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


# --- flush cards, pocket pairs -----------------------------------------------------------------


def flush_cards(game: str, own: Sequence[str], board: Sequence[str]) -> int:
    """The most cards of one suit p can use toward a flush: Omaha at most two hole and three
    board cards; only suits p holds a card of count (a four-flush board alone is not p's)."""
    best = 0
    for suit in "cdhs":
        h = sum(c[1] == suit for c in own)
        b = sum(c[1] == suit for c in board)
        if h:
            best = max(best, min(h, 2) + min(b, 3) if game in OMAHA else h + b)
    return best


@pytest.mark.parametrize("game", HI_GAMES)
def test_flush_cards_pocket_pairs_and_overpairs(game: str) -> None:
    def fill(c: Checker) -> None:
        d = c.deal
        for p in d.players:
            name = f"p{p + 1}"
            pocket = d.hands[p][:2] if game in STUD else d.hands[p]
            c.count(f"pocketPair({name})", len(rank_set(pocket)) < len(pocket))
            for street in streets_of(game):
                own, board = d.own(p, street), d.board_at(street)
                n = flush_cards(game, own, board)
                c.count(f"fourFlush({name}, {street})", n == 4)
                c.count(f"threeFlush({name}, {street})", n == 3)
                if game not in STUD:
                    pairs = {r for r in rank_set(own) if sum(RANKS.index(x[0]) == r for x in own) >= 2}
                    over = any(r > max(rank_set(board)) for r in pairs)
                    c.count(f"overpair({name}, {street})", over)

    check_deals(game, 100, 3, fill)


# --- board texture -----------------------------------------------------------------------------


def straight_possible(board: Sequence[str], game: str) -> bool:
    """Three board ranks inside one straight's five ranks (A-2-3-4-5 counts; short deck's
    lowest straight is A-6-7-8-9 and it has no ranks below six)."""
    ranks = rank_set(board)
    low = 4 if game.startswith("shortdeck") else 0
    windows = [set(range(lo, lo + 5)) for lo in range(low, 9)]
    windows.append({12, *range(low, low + 4)})
    return any(len(ranks & w) >= 3 for w in windows)


@pytest.mark.parametrize("game", FLOP_GAMES)
def test_board_texture(game: str) -> None:
    def fill(c: Checker) -> None:
        d = c.deal
        c.label("turnCard()", d.board[3])
        c.label("riverCard()", d.board[4])
        for street in FLOP_STREETS:
            board = d.board_at(street)
            suits = {x[1] for x in board}
            ranks = [RANKS.index(x[0]) for x in board]
            most = max(sum(x[1] == s for x in board) for s in suits)
            c.label(f"boardRanks({street})", rank_label(set(ranks)))
            c.label(f"duplicatedBoardRanks({street})", rank_label({r for r in ranks if ranks.count(r) > 1}))
            c.avg(f"boardSuitCount({street})", len(suits))
            c.count(f"rainbowBoard({street})", len(suits) == len(board))
            c.count(f"twoToneBoard({street})", len(suits) == 2)
            c.count(f"monotoneBoard({street})", len(suits) == 1)
            c.count(f"flushingBoard({street})", most >= 3)
            c.count(f"pairedBoard({street})", len(set(ranks)) < len(ranks))
            c.count(f"straightBoard({street})", straight_possible(board, game))

    check_deals(game, 100, 4, fill)


# --- rank sets ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ALL_GAMES)
def test_rank_sets(game: str) -> None:
    """handRanks and friends, and maxRank/minRank/nthRank/rankCount on the sets they give;
    stud: upCard on third to sixth street."""
    rng = random.Random(f"ranks-{game}")

    def fill(c: Checker) -> None:
        d = c.deal
        for p in d.players:
            name = f"p{p + 1}"
            for street in streets_of(game):
                own, board = d.own(p, street), d.board_at(street)
                mine = rank_set(own)
                ranks = [RANKS.index(x[0]) for x in own]
                c.label(f"handRanks({name}, {street})", rank_label(mine))
                c.label(
                    f"duplicatedHandRanks({name}, {street})",
                    rank_label({r for r in ranks if ranks.count(r) > 1}),
                )
                ordered = sorted(mine, key=lambda r: rank_order(game, r), reverse=True)
                n = rng.randint(1, 5)
                c.label(f"maxRank(handRanks({name}, {street}))", RANKS[ordered[0]])
                c.label(f"minRank(handRanks({name}, {street}))", RANKS[ordered[-1]])
                c.label(
                    f"nthRank({n}, handRanks({name}, {street}))",
                    RANKS[ordered[n - 1]] if n <= len(ordered) else "none",
                )
                c.count(
                    f"maxRank(handRanks({name}, {street})) > minRank(handRanks({name}, {street}))",
                    len(ordered) > 1,
                )
                c.avg(f"rankCount(handRanks({name}, {street}))", len(mine))
                if game in STUD:
                    if street != "seventh":
                        c.label(f"upCard({name}, {street})", d.hands[p][STUD_STREETS[street] - 1])
                    continue
                on_board = rank_set(board)
                distinct = sorted(on_board, reverse=True)
                c.label(f"intersectingHandRanks({name}, {street})", rank_label(mine & on_board))
                c.label(f"nonIntersectingHandRanks({name}, {street})", rank_label(mine - on_board))
                c.avg(f"handBoardIntersections({name}, {street})", sum(r in on_board for r in ranks))
                c.count(f"hasTopBoardRank({name}, {street})", distinct[0] in mine)
                c.count(f"hasSecondBoardRank({name}, {street})", len(distinct) > 1 and distinct[1] in mine)
                c.label(
                    f"nthRank(2, boardRanks({street}))", RANKS[distinct[1]] if len(distinct) > 1 else "none"
                )

    check_deals(game, 60, 5, fill)


# --- lows --------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", LO_GAMES)
def test_low_functions(game: str) -> None:
    """loRating comparisons, madeLo, bestLoRating on every street (razz rates the first three
    and four cards as they are; 8-or-better needs five); the board's low cards are checked in
    every board game below."""

    def fill(c: Checker) -> None:
        d = c.deal
        for street in streets_of(game):
            board = d.board_at(street)
            los = [best_lo(game, d.own(p, street), board) for p in d.players]
            qualified = [x for x in los if x is not None]
            for p in d.players:
                name = f"p{p + 1}"
                c.count(f"madeLo({name}, {street})", los[p] is not None)
                c.count(f"bestLoRating({name}, {street})", los[p] is not None and los[p] == min(qualified))
            for a, b in itertools.permutations(d.players, 2):
                x, y = los[a], los[b]
                better = x is not None and (y is None or x < y)
                c.count(f"loRating(p{a + 1}, {street}) > loRating(p{b + 1}, {street})", better)
            c.count(f"loRating(p1, {street}) = loRating(p2, {street})", los[0] == los[1])

    check_deals(game, 100, 6, fill)


@pytest.mark.parametrize("game", FLOP_GAMES)
def test_board_low_cards_in_every_board_game(game: str) -> None:
    """The board's low cards are a plain fact about the board in every board game (issue 15):
    distinct ranks 8 or lower, the ace included (in short deck: A, 6, 7, 8)."""

    def fill(c: Checker) -> None:
        for street in FLOP_STREETS:
            low = {x[0] for x in c.deal.board_at(street) if x[0] in "A2345678"}
            c.avg(f"boardLoCardCount({street})", len(low))
            c.count(f"boardAllowsMadeLo({street})", len(low) >= 3)
            c.count(f"boardHasOneDistinctLoCard({street})", len(low) == 1)
            c.count(f"boardHasTwoDistinctLoCards({street})", len(low) == 2)

    check_deals(game, 40, 15, fill)


def test_low_reference_agrees_with_pokerkit() -> None:
    """The A-5 low rules of reference.py order hands as pokerkit does (8-or-better and razz)."""
    rng = random.Random(7)
    for game in ("omaha8", "stud8", "razz"):
        hands = []
        for _ in range(150):
            cards = rng.sample(DECK, 9 if game in OMAHA else 7)
            own, board = (cards[:4], cards[4:]) if game in OMAHA else (cards, [])
            hands.append((best_lo(game, own, board), lo_value(game, "".join(own), "".join(board))))
        for (mine_a, pk_a), (mine_b, pk_b) in itertools.combinations(hands, 2):
            assert (mine_a is None) == (pk_a is None)
            if mine_a is not None and mine_b is not None:
                assert (mine_a < mine_b) == (pk_a > pk_b)
                assert (mine_a == mine_b) == (pk_a == pk_b)


# --- flop hand categories ----------------------------------------------------------------------


def flop_category(game: str, two: Sequence[str], flop: Sequence[str]) -> str:
    """Two hole cards on a flop, by the names' plain meaning. Made hands of five cards first;
    then pocket pairs by how many flop cards are above them (0 over, 1 between the first and
    second card, 2 between the second and third, 3 under) or a set; then hole cards pairing
    flop cards: trips when the flop pairs that rank, otherwise by the position of the paired
    card among the flop's cards high to low (top, second, third; two of them: top two, top and
    bottom, bottom two)."""
    kind = hi_type(
        game, best_hi(game, two, flop) if game not in OMAHA else five_hi([*two, *flop], HI_RULE[game])
    )
    if kind in ("straightflush", "quads", "fullhouse", "flush", "straight"):
        return "flop" + kind
    cards = sorted((RANKS.index(x[0]) for x in flop), reverse=True)
    a, b = (RANKS.index(x[0]) for x in two)
    if a == b:
        if a in cards:
            return "flopset"
        return ["flopoverpair", "floppocket12", "floppocket23", "flopunderpair"][sum(r > a for r in cards)]
    hits = sorted({cards.index(r) for r in (a, b) if r in cards})
    if len(hits) == 1 and cards.count(cards[hits[0]]) >= 2:
        return "floptrips"
    names = {
        (): "flopnothing",
        (0,): "floptoppair",
        (1,): "flopsecondpair",
        (2,): "flopthirdpair",
        (0, 1): "floptoptwo",
        (0, 2): "floptopandbottom",
        (1, 2): "flopbottomtwo",
    }
    return names[tuple(hits)]


@pytest.mark.parametrize("game", FLOP_GAMES)
def test_flop_hand_category(game: str) -> None:
    """flopHandCategory (Omaha: the best over the hand's two-card holdings) and its exact/min
    forms."""
    rng = random.Random(f"flopcat-{game}")

    def fill(c: Checker) -> None:
        d = c.deal
        flop = d.board_at("flop")
        for p in d.players:
            name = f"p{p + 1}"
            want = max(
                (flop_category(game, two, flop) for two in itertools.combinations(d.hands[p], 2)),
                key=FLOP_CATEGORIES.index,
            )
            c.label(f"flopHandCategory({name})", want)
            other = rng.choice(FLOP_CATEGORIES)
            c.count(f"exactFlopHandCategory({name}, {other})", want == other)
            c.count(
                f"minFlopHandCategory({name}, {other})",
                FLOP_CATEGORIES.index(want) >= FLOP_CATEGORIES.index(other),
            )

    check_deals(game, 120 if HOLE[game] == 2 else 60, 8, fill)


# --- nuts and outs -----------------------------------------------------------------------------


def beaten_by_some_holding(
    game: str, unseen: Sequence[str], board: Sequence[str], mine: object, kind: str | None = None
) -> bool:
    """Whether any hand an opponent could hold from `unseen` beats `mine` (only hands of type
    `kind` when given). Omaha: any two unseen cards can be completed to a whole hand and its
    best hi uses two of its cards, so two-card holdings are every hand that matters."""
    for two in itertools.combinations(unseen, 2):
        v = best_hi(game, two, board)
        if v > mine and (kind is None or hi_type(game, v) == kind):  # type: ignore[operator]
            return True
    return False


def beaten_lo(game: str, unseen: Sequence[str], board: Sequence[str], mine: tuple[int, ...]) -> bool:
    for two in itertools.combinations(unseen, 2):
        v = best_lo(game, two, board)
        if v is not None and v < mine:
            return True
    return False


def stud_opponent_values(d: Deal, p: int, street: str, rate: Callable[[list[str]], object]) -> list[object]:
    """Stud, from p's side: every hand another player could hold on `street` (its up cards and
    any down cards p cannot see; p sees every up card)."""
    seen = set(d.own(p, street)) | set(d.dead)
    for q in d.players:
        seen |= set(d.up_cards(q, street))
    unseen = [x for x in DECK if x not in seen]
    out = []
    for q in d.players:
        if q == p:
            continue
        up = d.up_cards(q, street)
        for down in itertools.combinations(unseen, STUD_STREETS[street] - len(up)):
            out.append(rate([*down, *up]))
    return out


def unseen_by(d: Deal, p: int, street: str, extra: Sequence[str] = ()) -> list[str]:
    known = set(d.own(p, street)) | set(d.board_at(street)) | set(d.dead) | set(extra)
    return [x for x in deck_of(d.game) if x not in known]


def undealt(d: Deal, street: str) -> list[str]:
    """Cards that can still come after `street`: no player's cards, no board card, no dead card."""
    known = set(d.board_at(street)) | set(d.dead)
    for q in d.players:
        known |= set(d.own(q, street))
    return [x for x in deck_of(d.game) if x not in known]


NUT_DEALS = {
    "holdem": 40,
    "shortdeck": 15,
    "shortdeck_triton": 15,
    "omahahi": 12,
    "omaha8": 12,
    "omahahi5": 6,
    "omaha85": 6,
}


@pytest.mark.parametrize("game", FLOP_GAMES)
def test_nut_hi_and_outs_flop_games(game: str) -> None:
    """nutHi, nutHiForHandType (every opponent holding enumerated), nutHiOuts and
    outsToHandType (every next card) on the flop, turn and river."""
    order = TYPE_ORDER[HI_RULE[game]]
    rng = random.Random(f"nuts-{game}")

    def fill(c: Checker) -> None:
        d = c.deal
        for street in FLOP_STREETS:
            board = d.board_at(street)
            for p in list(d.players)[:2]:
                name = f"p{p + 1}"
                mine = best_hi(game, d.hands[p], board)
                unseen = unseen_by(d, p, street)
                c.count(f"nutHi({name}, {street})", not beaten_by_some_holding(game, unseen, board, mine))
                c.count(
                    f"nutHiForHandType({name}, {street})",
                    not beaten_by_some_holding(game, unseen, board, mine, hi_type(game, mine)),
                )
            if street == "river":
                c.avg(f"nutHiOuts(p1, {street})", 0)
                continue
            mine = best_hi(game, d.hands[0], board)
            nut_outs = 0
            by_type = dict.fromkeys(order, 0)
            for card in undealt(d, street):
                nxt = [*board, card]
                value = best_hi(game, d.hands[0], nxt)
                if value > mine:
                    by_type[hi_type(game, value)] += 1
                if not beaten_by_some_holding(game, unseen_by(d, 0, street, [card]), nxt, value):
                    nut_outs += 1
            c.avg(f"nutHiOuts(p1, {street})", nut_outs)
            for kind in {rng.choice(order), max(by_type, key=by_type.__getitem__)}:
                c.avg(f"outsToHandType(p1, {street}, {kind})", by_type[kind])
                n = rng.randint(0, 9)
                c.count(f"minOutsToHandType(p1, {street}, {kind}, {n})", by_type[kind] >= n)

    check_deals(game, NUT_DEALS[game], 9, fill, dead=2)


@pytest.mark.parametrize("game", ["omaha8", "omaha85"])
def test_nut_lo_and_outs_omaha(game: str) -> None:
    def fill(c: Checker) -> None:
        d = c.deal
        for street in FLOP_STREETS:
            board = d.board_at(street)
            for p in list(d.players)[:2]:
                mine = best_lo(game, d.hands[p], board)
                nut = mine is not None and not beaten_lo(game, unseen_by(d, p, street), board, mine)
                c.count(f"nutLo(p{p + 1}, {street})", nut)
            if street == "river":
                continue
            outs = 0
            for card in undealt(d, street):
                nxt = [*board, card]
                mine = best_lo(game, d.hands[0], nxt)
                if mine is not None and not beaten_lo(game, unseen_by(d, 0, street, [card]), nxt, mine):
                    outs += 1
            c.avg(f"nutLoOuts(p1, {street})", outs)

    check_deals(game, 15 if game == "omaha8" else 8, 10, fill, dead=2)


@pytest.mark.parametrize("game", STUD_GAMES)
def test_nuts_and_outs_stud(game: str) -> None:
    """Stud: nutHi/nutHiForHandType/nutLo given every up card, outsToHandType on third to sixth
    street."""
    rng = random.Random(f"studnuts-{game}")

    def fill(c: Checker) -> None:
        d = c.deal
        for street in rng.sample(list(STUD_STREETS), 2):
            own = d.own(0, street)
            if game != "razz":
                mine = best_hi(game, own)
                others = stud_opponent_values(d, 0, street, lambda h: best_hi(game, h))
                c.count(f"nutHi(p1, {street})", all(v <= mine for v in others))  # type: ignore[operator]
                same = [v for v in others if hi_type(game, v) == hi_type(game, mine)]  # type: ignore[arg-type]
                c.count(f"nutHiForHandType(p1, {street})", all(v <= mine for v in same))  # type: ignore[operator]
                if street != "seventh":
                    # Below five cards a hand is its rank groups; whether a fifth card "improves"
                    # a four-card hand of the same type is moot, so early streets ask only for
                    # types above the current one.
                    order = TYPE_ORDER["standard"]
                    now = order.index(hi_type(game, mine))
                    early = len(own) < 5
                    kind = rng.choice(order[now + 1 :] if early and now < len(order) - 1 else order)
                    count = 0
                    for card in undealt(d, street):
                        v = best_hi(game, [*own, card])
                        if hi_type(game, v) == kind and (order.index(kind) > now if early else v > mine):  # type: ignore[operator]
                            count += 1
                    if not early or order.index(kind) > now:
                        c.avg(f"outsToHandType(p1, {street}, {kind})", count)
            if game == "razz" or (game == "stud8" and STUD_STREETS[street] >= 5):
                lo = best_lo(game, own)
                others = stud_opponent_values(d, 0, street, lambda h: best_lo(game, h))
                c.count(f"nutLo(p1, {street})", lo is not None and all(v is None or v >= lo for v in others))  # type: ignore[operator]

    check_deals(game, 8 if game == "razz" else 15, 11, fill, players=2, dead=2)


# --- analysis functions (docs/analysis.md) ----------------------------------------------------------

DRAW_GAMES = ["holdem", "shortdeck", "shortdeck_triton"]


def best_five(game: str, own: Sequence[str], board: Sequence[str]) -> list[str]:
    cards = [*own, *board]
    if len(cards) < 5:
        return cards
    return list(max(itertools.combinations(cards, 5), key=lambda f: five_hi(f, HI_RULE[game])))


def hand_class(game: str, own: Sequence[str], board: Sequence[str]) -> tuple[int, int]:
    """(type, leading rank) as outs compare hands: the pair, the higher pair, the trips, the
    straight's top (five in a wheel), the flush's or high card's top card, the full house's
    trips, the quads."""
    value = best_hi(game, own, board)
    kind = hi_type(game, value)
    five = best_five(game, own, board)
    ranks = sorted((RANKS.index(x[0]) for x in five), reverse=True)
    groups = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
    lead = groups[0][1]
    if kind in ("straight", "straightflush"):
        wheel = {12, 0, 1, 2, 3} if not game.startswith("shortdeck") else {12, 4, 5, 6, 7}
        lead = max(r for r in ranks if r != 12) if set(ranks) == wheel else ranks[0]
    return (TYPE_ORDER[HI_RULE[game]].index(kind), lead)


@pytest.mark.parametrize("game", DRAW_GAMES)
def test_outs_and_draw_counts(game: str) -> None:
    """outs, straightDrawCount, flushDrawCount (and the booleans built on them) and
    backdoorFlushDraw on the flop and turn. Unseen cards are the deck less every player's cards,
    the board and the dead cards (docs/analysis.md)."""
    order = TYPE_ORDER[HI_RULE[game]]

    def fill(c: Checker) -> None:
        d = c.deal
        for street in ("flop", "turn"):
            board = d.board_at(street)
            for p in d.players:
                name = f"p{p + 1}"
                own = d.hands[p]
                others = [d.hands[q] for q in d.players if q != p]
                now_value = best_hi(game, own, board)
                now_class = hand_class(game, own, board)
                outs = straight = flush = 0
                for card in undealt(d, street):
                    nxt = [*board, card]
                    value = best_hi(game, own, nxt)
                    kind = hi_type(game, value)
                    # On the flop the board and the card are four cards: they never make a
                    # straight or a flush, so for those the types decide.
                    alone = best_hi(game, [], nxt)
                    beats_board = value[0] > alone[0] or (
                        value[0] == alone[0] and len(nxt) == 5 and value > alone
                    )  # type: ignore[operator]
                    cls = hand_class(game, own, nxt)
                    if (
                        cls > now_class
                        and cls > hand_class(game, [], nxt)
                        and all(value > best_hi(game, o, nxt) for o in others)  # type: ignore[operator]
                    ):
                        outs += 1
                    if beats_board and kind == "straight" and now_value[0] < order.index("straight"):
                        straight += 1
                    if (
                        beats_board
                        and kind in ("flush", "straightflush")
                        and now_value[0] < order.index("flush")
                    ):
                        flush += 1
                c.avg(f"outs({name}, {street})", outs)
                c.avg(f"straightDrawCount({name}, {street})", straight)
                c.avg(f"flushDrawCount({name}, {street})", flush)
                c.count(f"flushDraw({name}, {street})", flush > 0)
                c.count(f"openEndedStraightDraw({name}, {street})", straight > 4)
                c.count(f"gutshotStraightDraw({name}, {street})", 1 <= straight <= 4)
                backdoor = street == "flop" and any(
                    (h := sum(x[1] == s for x in own)) >= 1 and h + sum(x[1] == s for x in board) == 3
                    for s in "cdhs"
                )
                c.count(f"backdoorFlushDraw({name}, {street})", backdoor)

    check_deals(game, 80 if game == "holdem" else 40, 12, fill, dead=2)


def random_range(
    rng: random.Random, cards: Sequence[str], size: int, k: int = 2
) -> dict[tuple[str, ...], int]:
    """A weighted range of `size` explicit `k`-card hands drawn from `cards`."""
    # Cards in a fixed order, so a hand drawn twice is one entry (pql keeps one weight per hand).
    return {tuple(sorted(rng.sample(list(cards), k))): rng.randint(1, 5) for _ in range(size)}


def range_text(hands: dict[tuple[str, ...], int]) -> str:
    return ",".join(f"{''.join(h)}@{w}" for h, w in hands.items())


def strength_and_potential(
    game: str, own: Sequence[str], board: Sequence[str], holdings: dict[tuple[str, ...], int], ahead: int
) -> tuple[float, float, float]:
    """HS1, PPOT and NPOT by docs/analysis.md's formulas, every holding and board completion
    enumerated (`ahead` cards to come)."""
    deck = deck_of(game)
    known = set(own) | set(board)
    tally = {"a": 0.0, "t": 0.0, "b": 0.0}
    hp = {(x, y): 0.0 for x in "atb" for y in "atb"}

    def state(mine: object, theirs: object) -> str:
        return "a" if mine > theirs else "t" if mine == theirs else "b"  # type: ignore[operator]

    for hand, w in holdings.items():
        if known & set(hand):
            continue
        now = state(best_hi(game, own, board), best_hi(game, hand, board))
        tally[now] += w
        rest = [x for x in deck if x not in known and x not in hand]
        for extra in itertools.combinations(rest, ahead):
            final_board = [*board, *extra]
            hp[now, state(best_hi(game, own, final_board), best_hi(game, hand, final_board))] += w
    total = sum(tally.values())
    hs = (tally["a"] + tally["t"] / 2) / total
    rows = {x: sum(hp[x, y] for y in "atb") for x in "atb"}
    ppot_den = rows["b"] + rows["t"] / 2
    npot_den = rows["a"] + rows["t"] / 2
    ppot = (hp["b", "a"] + hp["b", "t"] / 2 + hp["t", "a"] / 2) / ppot_den if ppot_den else 0.0
    npot = (hp["a", "b"] + hp["t", "b"] / 2 + hp["a", "t"] / 2) / npot_den if npot_den else 0.0
    return hs, ppot, npot


@pytest.mark.parametrize("game", [*DRAW_GAMES, "omahahi", "omaha8", "omahahi5"])
def test_hand_strength_and_potential_against_weighted_ranges(game: str) -> None:
    """handStrength, positive/negativePotential (two cards ahead from the flop, one from the
    turn), their one-card forms, effective and showdown hand strength, heads-up against a weighted
    range of explicit hands (the opponent's actual hand does not matter, so the answer is the
    same in every deal of the run)."""
    rng = random.Random(f"hs-{game}")
    size = HOLE[game]
    for _ in range({"holdem": 4, "omahahi": 1, "omaha8": 1, "omahahi5": 1}.get(game, 2)):
        cards = rng.sample(deck_of(game), size + 5)
        own, board = cards[:size], cards[size:]
        rest = [x for x in deck_of(game) if x not in cards]
        villain = random_range(rng, rest, {2: 12, 4: 6}.get(size, 3), size)
        deal = Deal(game, [own, ["*"]], board)
        selectors: dict[str, str] = {}
        expected: dict[str, float] = {}
        for street, look in (("flop", 2), ("turn", 1), ("river", 0)):
            b = board[: FLOP_STREETS[street]]
            hs, ppot, npot = strength_and_potential(game, own, b, villain, look)
            _, ppot1, npot1 = strength_and_potential(game, own, b, villain, min(look, 1))
            for name, value in {
                "handStrength": hs,
                "positivePotential": ppot,
                "negativePotential": npot,
                "positivePotential1": ppot1,
                "negativePotential1": npot1,
                "effectiveHandStrength": hs + (1 - hs) * ppot,
                "showdownHandStrength": hs * (1 - npot) + (1 - hs) * ppot,
            }.items():
                key = f"s{len(selectors)}"
                selectors[key] = f"avg({name}(p1, {street}))"
                expected[key] = value
        text = deal.query(selectors).replace("p2='*'", f"p2='{range_text(villain)}'")
        (r,) = pql.run(text, seed=1, threads=1, exact=True)
        for c in r.columns:
            assert c.value == pytest.approx(expected[c.name], abs=1e-9), (deal, villain, selectors[c.name])


def joint_strength_and_potential(
    own: Sequence[str], board: Sequence[str], ranges: list[dict[tuple[str, ...], int]], ahead: int
) -> tuple[float, float, float]:
    """Hold'em HS, PPOT and NPOT against several opponents dealt together (docs/analysis.md): every
    joint deal of their weighted holdings sharing no card, p's pot share now, and the now/final
    states against the whole field over every completion of the board."""
    known = set(own) | set(board)
    hp = {(x, y): 0.0 for x in "atb" for y in "atb"}
    share_sum = weight_sum = 0.0

    def field(mine: object, theirs: list[object]) -> tuple[str, float]:
        best = max(theirs)  # type: ignore[type-var]
        if mine < best:  # type: ignore[operator]
            return "b", 0.0
        ties = sum(1 for t in theirs if t == mine)
        return ("t", 1 / (ties + 1)) if ties else ("a", 1.0)

    for joint in itertools.product(*(r.items() for r in ranges)):
        cards = [c for hand, _ in joint for c in hand]
        if len(set(cards)) < len(cards) or known & set(cards):
            continue
        w = 1.0
        for _, weight in joint:
            w *= weight
        now, share = field(best_hi("holdem", own, board), [best_hi("holdem", h, board) for h, _ in joint])
        share_sum += w * share
        weight_sum += w
        rest = [x for x in DECK if x not in known and x not in cards]
        for extra in itertools.combinations(rest, ahead):
            final = [*board, *extra]
            end, _ = field(best_hi("holdem", own, final), [best_hi("holdem", h, final) for h, _ in joint])
            hp[now, end] += w
    rows = {x: sum(hp[x, y] for y in "atb") for x in "atb"}
    ppot_den = rows["b"] + rows["t"] / 2
    npot_den = rows["a"] + rows["t"] / 2
    ppot = (hp["b", "a"] + hp["b", "t"] / 2 + hp["t", "a"] / 2) / ppot_den if ppot_den else 0.0
    npot = (hp["a", "b"] + hp["t", "b"] / 2 + hp["a", "t"] / 2) / npot_den if npot_den else 0.0
    return share_sum / weight_sum, ppot, npot


def test_hand_strength_and_potential_against_several_ranges_are_joint() -> None:
    """With several opponents, HS and the potentials are over their joint deals (issue 19),
    exact here (small ranges) and equal to a brute force written independently."""
    rng = random.Random("hs-joint")
    for _ in range(3):
        cards = rng.sample(DECK, 6)
        own, board = cards[:2], cards[2:]
        rest = [x for x in DECK if x not in cards]
        ranges = [random_range(rng, rest, 6), random_range(rng, rest, 6)]
        hs, ppot, npot = joint_strength_and_potential(own, board, ranges, 1)
        text = (
            "select avg(handStrength(p1, turn)), avg(positivePotential(p1, turn)),"
            " avg(negativePotential(p1, turn))"
            f" from game='holdem', syntax='generic', p1='{''.join(own)}', "
            f"p2='{range_text(ranges[0])}', p3='{range_text(ranges[1])}', board='{''.join(board)}'"
        )
        (r,) = pql.run(text, seed=1, threads=1, exact=True)
        assert [c.value for c in r.columns] == pytest.approx([hs, ppot, npot], abs=1e-9), (own, board, ranges)
        assert not r.inner_sampled


def test_hand_strength_against_nine_random_opponents() -> None:
    """Issue 19's example: A♦Q♣ on 3♥4♣J♥ is best now against nine random hands about 0.28%
    of the time (not the product of heads-up values, 0.5851⁹ ≈ 0.0080); sampled, and said so."""
    players = ", ".join(f"v{i}='*'" for i in range(9))
    (r,) = pql.run(
        f"select avg(handStrength(hero, flop)) from game='holdem', hero='AdQc', {players}, board='3h4cJh'",
        trials=20_000,
        seed=1,
    )
    # Each trial draws its own joint deals (issue 38): the error shown covers them.
    se = r.columns[0].stderr
    assert se is not None
    assert 0 < se < 0.0003
    assert r.columns[0].value == pytest.approx(0.0028, abs=4 * se + 0.0002)
    assert r.inner_sampled


def test_analysis_example_of_the_spec() -> None:
    """docs/analysis.md: A♦Q♣ on 3♥4♣J♥ against a uniform range."""
    (r,) = pql.run(
        "select avg(handStrength(p1, flop)), avg(positivePotential(p1, flop)),"
        " avg(negativePotential(p1, flop)), avg(positivePotential1(p1, flop))"
        " from game='holdem', p1='AdQc', p2='**', board='3h4cJh'",
        trials=4,
        exact=False,
        seed=1,
    )
    values = [c.value for c in r.columns]
    assert values == pytest.approx([0.5851, 0.2083, 0.2737, 0.1083], abs=5e-5)


# --- the original PQL's published examples (issue 6) ----------------------------------


def one_value(query: str) -> object:
    (r,) = pql.run(query, trials=1000, seed=1, threads=1)
    (c,) = r.columns
    return c.value


@pytest.mark.parametrize(
    ("hand", "board", "dead", "nut"),
    [("Qs5s", "JsKsAs", "", True), ("As2s", "KsQsJs", "", False), ("As2s", "KsQsJs", "Ts", True)],
)
def test_nut_hi_examples(hand: str, board: str, dead: str, nut: bool) -> None:
    dead_key = f", dead='{dead}'" if dead else ""
    query = (
        f"select count(nutHi(p1, flop)) from game='holdem', p1='{hand}', p2='**', board='{board}'{dead_key}"
    )
    assert one_value(query) == (1.0 if nut else 0.0)


@pytest.mark.parametrize(
    ("hand", "board", "dead", "outs"),
    [("JsTh", "9h8s2c", "", 8), ("JsTh", "9h8s2c", "7s", 7), ("Th9h", "8h7h2c3c", "", 6)],
)
def test_outs_to_straight_examples(hand: str, board: str, dead: str, outs: int) -> None:
    street = "flop" if len(board) == 6 else "turn"
    dead_key = f", dead='{dead}'" if dead else ""
    query = (
        f"select avg(outsToHandType(p1, {street}, straight)) from game='holdem', p1='{hand}',"
        f" board='{board}'{dead_key}"
    )
    assert one_value(query) == outs


def test_nut_hi_for_hand_type_example() -> None:
    assert (
        one_value("select count(nutHiForHandType(p1, flop)) from game='holdem', p1='AsKh', board='AdTd2d'")
        == 1.0
    )


@pytest.mark.parametrize(("pattern", "matches"), [("AKK", False), ("AKJ3K", False), ("KJAK3", True)])
def test_board_in_range_examples(pattern: str, matches: bool) -> None:
    query = f"select count(boardInRange('{pattern}')) from game='holdem', p1='QhQd', board='AsKdJhKc3s'"
    assert one_value(query) == (1.0 if matches else 0.0)


@pytest.mark.parametrize(("street", "best"), [("fifth", True), ("sixth", True), ("seventh", False)])
def test_stud8_best_lo_rating_example(street: str, best: bool) -> None:
    query = f"select count(bestLoRating(p1, {street})) from game='stud8', p1='2356798', p2='23568qa'"
    assert one_value(query) == (1.0 if best else 0.0)


# --- thresholds from rateHiHand / rateLoHand ---------------------------------------------------


@pytest.mark.parametrize("game", HI_GAMES)
def test_rate_hi_hand_thresholds(game: str) -> None:
    """minHiRating(p, street, rateHiHand(five)) and hiRating compared with rateHiHand, for random
    fives of the game's deck; also handType before the flop in hold'em games."""
    rng = random.Random(f"rate-{game}")
    rule = HI_RULE[game]

    def fill(c: Checker) -> None:
        d = c.deal
        if game in HOLE and HOLE[game] == 2:
            c.label("handType(p1, preflop)", "pair" if d.hands[0][0][0] == d.hands[0][1][0] else "highcard")
        for street, known in streets_of(game).items():
            if known < 5:
                continue
            mine = best_hi(game, d.own(0, street), d.board_at(street))
            five = rng.sample(deck_of(game), 5)
            bar = five_hi(five, rule)
            c.count(f"minHiRating(p1, {street}, rateHiHand('{''.join(five)}'))", mine >= bar)  # type: ignore[operator]
            c.count(f"hiRating(p1, {street}) = rateHiHand('{''.join(five)}')", mine == bar)
            # A five of the player's own best hand rates the same.
            best = next(
                f for f in hi_fives(game, d.own(0, street), d.board_at(street)) if five_hi(f, rule) == mine
            )
            c.count(f"hiRating(p1, {street}) = rateHiHand('{''.join(best)}')", True)

    check_deals(game, 60, 13, fill)


@pytest.mark.parametrize("game", LO_GAMES)
def test_rate_lo_hand_thresholds(game: str) -> None:
    rng = random.Random(f"ratelo-{game}")
    low_cards = [x for x in DECK if x[0] in "A2345678"]

    def fill(c: Checker) -> None:
        d = c.deal
        for street, known in streets_of(game).items():
            if known < 5:
                continue
            mine = best_lo(game, d.own(0, street), d.board_at(street))
            while True:  # a five that is a low under the game's rules
                five = rng.sample(low_cards if game != "razz" else DECK, 5)
                bar = best_lo(game, five[:2], five[2:]) if game in OMAHA else best_lo(game, five)
                if bar is not None:
                    break
            c.count(
                f"minLoRating(p1, {street}, rateLoHand('{''.join(five)}'))", mine is not None and mine <= bar
            )

    check_deals(game, 60, 14, fill)


# --- equity on a street ------------------------------------------------------------------------


def exact_street_equity(d: Deal, p: int, street: str) -> float:
    """p's share averaged over every way to deal the rest (board cards, or stud cards for every
    player), with our hi/lo references."""
    game = d.game
    known = set(d.dead)
    for q in d.players:
        known |= set(d.own(q, street))
    known |= set(d.board_at(street))
    rest = [x for x in deck_of(game) if x not in known]
    total, n = Fraction(0), 0
    if game in STUD:
        need = 7 - STUD_STREETS[street]
        completions: list[list[Hand]] = []
        firsts = list(itertools.combinations(rest, need))
        for first in firsts:
            left = [x for x in rest if x not in first]
            for second in itertools.combinations(left, need):
                completions.append([[*d.own(0, street), *first], [*d.own(1, street), *second]])
        for hands in completions:
            his = [best_hi(game, h) for h in hands] if game != "razz" else []
            los = [best_lo(game, h) for h in hands] if game in LO_GAMES else []
            total += pot_shares(his, los)[p]
            n += 1
        return float(total / n)
    board = d.board_at(street)
    for extra in itertools.combinations(rest, 5 - len(board)):
        b = [*board, *extra]
        his = [best_hi(game, h, b) for h in d.hands]
        los = [best_lo(game, h, b) for h in d.hands] if game in LO_GAMES else []
        total += pot_shares(his, los)[p]
        n += 1
    return float(total / n)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_hvh_equity(game: str) -> None:
    """HvHEquity and its alias equity from the turn (hold'em games also the flop; stud from
    sixth street, where pql enumerates exactly), heads-up."""
    streets = ["sixth"] if game in STUD else ["turn", "flop"] if HOLE[game] == 2 else ["turn"]

    def fill(c: Checker) -> None:
        for street in streets:
            for p in c.deal.players:
                value = exact_street_equity(c.deal, p, street)
                c.avg(f"HvHEquity(p{p + 1}, {street})", value)
                c.avg(f"equity(p{p + 1}, {street})", value)
                c.count(f"minHvHEquity(p{p + 1}, {street}, 0.5)", value >= 0.5)

    check_deals(game, 4 if game in STUD else 10, 15, fill, players=2, dead=2)


@pytest.mark.parametrize("game", ["holdem", "shortdeck", "omahahi", "omaha8", "omahahi5", "omaha85"])
def test_hvr_and_perceived_range_equity(game: str) -> None:
    """HvREquity against the other player's whole (weighted, explicit) range and
    HvPerceivedRangeEquity against a given one, on the river and the turn, heads-up."""
    rng = random.Random(f"hvr-{game}")
    size = HOLE[game]
    for _ in range(3 if size < 5 else 1):
        cards = rng.sample(deck_of(game), size + 5)
        own, board = cards[:size], cards[size:]
        rest = [x for x in deck_of(game) if x not in cards]
        villain = random_range(rng, rest, 8, size)
        perceived = random_range(rng, rest, 6, size)
        selectors: dict[str, str] = {}
        expected: dict[str, float] = {}
        for street in ("river", "turn"):
            b = board[: FLOP_STREETS[street]]
            for kind, holdings in (
                ("HvREquity(p1, {s})", villain),
                ("HvPerceivedRangeEquity(p1, {s}, '{r}')", perceived),
            ):
                total = weight = Fraction(0)
                for hand, w in holdings.items():
                    if set(hand) & set(b):
                        continue
                    d = Deal(game, [own, list(hand)], board)
                    total += w * Fraction(exact_street_equity(d, 0, street))
                    weight += w
                text = "".join(f"{''.join(h)}@{w}," for h, w in holdings.items()).rstrip(",")
                key = f"s{len(selectors)}"
                selectors[key] = "avg(" + kind.format(s=street, r=text) + ")"
                expected[key] = float(total / weight)
                # The threshold forms, at a bar just below or above the value (an equity
                # threshold outside 0..1 is a type error, so the bar stays inside).
                bar = min(1.0, max(0.0, round(float(total / weight) + rng.choice([-0.01, 0.01]), 4)))
                key = f"s{len(selectors)}"
                selectors[key] = "count(min" + kind.format(s=street, r=text).replace(")", f", {bar})") + ")"
                expected[key] = float(total / weight >= Fraction(str(bar)))
        text = Deal(game, [own, ["*"]], board).query(selectors)
        vtext = "".join(f"{''.join(h)}@{w}," for h, w in villain.items()).rstrip(",")
        (r,) = pql.run(text.replace("p2='*'", f"p2='{vtext}'"), seed=1, threads=1, exact=True)
        for c in r.columns:
            assert c.value == pytest.approx(expected[c.name], abs=1e-9), (game, own, board, selectors[c.name])


def test_five_card_hand_numbers_are_for_standard_hands_only() -> None:
    """Short deck orders hands differently from the 7462 standard numbers: a type error there."""
    with pytest.raises(pql.PqlTypeError, match="fiveCardHiHandNumber does not apply to shortdeck"):
        pql.prepare("select avg(fiveCardHiHandNumber(p1, river)) from game='shortdeck', p1='AsKs'")


# --- audit of issue 6: equities against ranges, stud equities, helpers -------------------------


def weighted_equity(
    game: str, own: Hand, holdings: dict[tuple[str, ...], int], board: Hand, street: str
) -> float:
    """p's exact equity against a weighted range of explicit hands (heads-up), the board known up to
    `street`: the weighted average over the holdings that fit of every completion."""
    b = board[: FLOP_STREETS[street]] if street != "preflop" else []
    total = weight = Fraction(0)
    for hand, w in holdings.items():
        if set(hand) & (set(b) | set(own)):
            continue
        d = Deal(game, [own, list(hand)], board)
        total += w * Fraction(exact_street_equity(d, 0, street))
        weight += w
    return float(total / weight)


def test_hvr_on_the_flop_multiway_and_before_the_flop() -> None:
    """HvREquity on a fixed flop (hold'em), against two ranges at once on the turn, and before
    the flop against a narrow range (eval7's exact hand-versus-range enumeration)."""
    rng = random.Random("hvr-more")
    cards = rng.sample(DECK, 7)
    own, board = cards[:2], cards[2:]
    rest = [x for x in DECK if x not in cards]
    villain = random_range(rng, rest, 6)
    text = Deal("holdem", [own, ["*"]], board).query({"e": "avg(HvREquity(p1, flop))"})
    (r,) = pql.run(text.replace("p2='*'", f"p2='{range_text(villain)}'"), trials=50, seed=1)
    assert r.columns[0].value == pytest.approx(
        weighted_equity("holdem", own, villain, board, "flop"), abs=1e-9
    )
    assert r.columns[0].stderr in (None, 0.0)

    # Two opponents: every joint holding (no card twice), every river, three-way pot shares.
    a, b = random_range(rng, rest, 4), random_range(rng, rest, 4)
    total = weight = Fraction(0)
    turn = board[:4]
    for (ha, wa), (hb, wb) in itertools.product(a.items(), b.items()):
        if len({*ha, *hb, *own, *turn}) < 10:
            continue
        for river in [x for x in DECK if x not in {*ha, *hb, *own, *turn}]:
            full = [*turn, river]
            his = [best_hi("holdem", h, full) for h in (own, ha, hb)]
            total += wa * wb * pot_shares(his, [])[0]
            weight += wa * wb
    text = (
        f"select avg(HvREquity(p1, turn)) from game='holdem', syntax='generic', p1='{''.join(own)}',"
        f" p2='{range_text(a)}', p3='{range_text(b)}', board='{''.join(board)}'"
    )
    (r,) = pql.run(text, trials=50, seed=1)
    assert r.columns[0].value == pytest.approx(float(total / weight), abs=1e-9)

    # Before the flop: aces against kings, every board of every kings combo. The reference is
    # the exhaustive riverEquity run (itself checked against independent enumeration in
    # test_engine.py).
    (exact,) = pql.run("select avg(riverEquity(p1)) from game='holdem', p1='AsAh', p2='KK'", exact=True)
    (r,) = pql.run(
        "select avg(HvREquity(p1, preflop)), avg(HvPerceivedRangeEquity(p1, preflop, 'KK'))"
        " from game='holdem', p1='AsAh', p2='KK'",
        trials=20,
        seed=1,
        exact=False,
    )
    assert [c.value for c in r.columns] == pytest.approx([exact.columns[0].value] * 2, abs=1e-9)


def test_hvr_preflop_against_any_hand_is_sampled_honestly() -> None:
    """Aces against any hand before the flop are sampled; the run's standard error says so and
    covers the published 85.20%."""
    (r,) = pql.run(
        "select avg(HvREquity(p1, preflop)) from game='holdem', p1='AsAh', p2='*'", trials=400, seed=3
    )
    c = r.columns[0]
    assert c.stderr is not None
    assert c.stderr > 0
    assert abs(c.value - 0.8520) < 5 * c.stderr + 1e-4


def test_hvr_in_stud_reads_the_range_given_the_up_cards() -> None:
    """Seventh street: the villain's range of whole hands, of which only those showing the
    villain's up cards count (the others are ruled out by what is seen)."""
    hero = ["Ks", "Kd", "9c", "8h", "4d", "2s", "3c"]
    up = ["Qh", "7c", "5s", "Jd"]
    showing = [["Ah", "Ad", *up, "6c"], ["Qs", "Qd", *up, "Tc"], ["9s", "8s", *up, "2h"]]
    hidden = [["Ac", "As", "Kh", "7d", "5d", "Jc", "6d"]]  # other up cards: not possible
    weights = [3, 1, 2, 5]
    rng_text = ",".join(f"{''.join(h)}@{w}" for h, w in zip([*showing, *hidden], weights, strict=True))
    total = weight = Fraction(0)
    for h, w in zip(showing, weights[:3], strict=True):
        total += w * pot_shares([best_hi("studhi", hero), best_hi("studhi", h)], [])[0]
        weight += w
    text = (
        f"select avg(HvREquity(p1, seventh)), avg(HvREquity(p1, sixth)) from game='studhi', syntax='generic',"
        f" p1='{''.join(hero)}', p2='{rng_text}' where upCard(p2, third) = toCard('Qh')"
    )
    (r,) = pql.run(text, trials=30, seed=1, exact=False)
    assert r.columns[0].value == pytest.approx(float(total / weight), abs=1e-9)
    # Sixth street: the range fixes the seventh cards, so it is sampled, with a standard error.
    c = r.columns[1]
    assert c.stderr is not None
    assert c.stderr > 0


def stud_fifth_street_equity(game: str, hands: list[Hand], dead: Hand) -> float:
    """Heads-up stud equity on fifth street: each player's seven-card hand rated once per pair of
    new cards, then every pair of disjoint pairs settled."""
    rest = [x for x in DECK if x not in {*hands[0][:5], *hands[1][:5], *dead}]
    pairs = list(itertools.combinations(rest, 2))

    def rate(h: Hand) -> tuple[object, object]:
        hi = best_hi(game, h) if game != "razz" else 0
        lo = best_lo(game, h) if game in LO_GAMES else None
        return hi, lo

    tables = [[rate([*hands[p][:5], *pair]) for pair in pairs] for p in (0, 1)]
    total, n = Fraction(0), 0
    for i, a in enumerate(pairs):
        hi0, lo0 = tables[0][i]
        for j, b in enumerate(pairs):
            if a[0] in b or a[1] in b:
                continue
            hi1, lo1 = tables[1][j]
            his = [hi0, hi1] if game != "razz" else []
            los = [lo0, lo1] if game in LO_GAMES else []
            total += pot_shares(his, los)[0]
            n += 1
    return float(total / n)


@pytest.mark.parametrize("game", STUD_GAMES)
def test_stud_hvh_equity_on_fifth_street_is_exact(game: str) -> None:
    (d,) = deals(game, 1, 16, players=2)
    # Sixteen dead cards keep the Python reference short (325 pairs each instead of 861).
    rng = random.Random(f"fifth-{game}")
    d.dead = rng.sample([x for x in DECK if x not in {*d.hands[0], *d.hands[1]}], 16)
    value = stud_fifth_street_equity(game, d.hands, d.dead)
    c = Checker(d)
    c.avg("HvHEquity(p1, fifth)", value)
    c.avg("equity(p2, fifth)", 1 - value)
    c.count("minEquity(p1, fifth, 0.5)", value >= 0.5)
    c.check()


def test_helpers_against_the_dealt_cards() -> None:
    """inRange, toCard, toRank, toString and minEquity on fixed hold'em deals."""
    rng = random.Random("helpers")

    def fill(c: Checker) -> None:
        d = c.deal
        own = d.hands[0]
        others = [h for h in itertools.combinations(DECK, 2) if not set(h) & set(own)]
        listed = rng.sample(others, 5) + ([tuple(own)] if rng.random() < 0.5 else [])
        c.count(f"inRange(p1, '{','.join(''.join(h) for h in listed)}')", tuple(own) in listed)
        card = rng.choice([d.board[4], rng.choice(DECK)])
        c.count(f"riverCard() = toCard('{card}')", d.board[4] == card)
        rank = rng.choice(RANKS)
        top = max(RANKS.index(x[0]) for x in d.board[:3])
        c.count(f"maxRank(boardRanks(flop)) = toRank('{rank}')", RANKS.index(rank) == top)
        c.count(f"maxRank(boardRanks(flop)) >= toRank('{rank}')", top >= RANKS.index(rank))
        c.label("toString(handType(p1, river))", hi_type("holdem", best_hi("holdem", own, d.board)))
        c.label("toString(rankCount(handRanks(p1, flop)))", str(len(rank_set(own))))
        value = exact_street_equity(d, 0, "turn")
        # An equity threshold outside 0..1 is a type error: the bar stays inside.
        x = min(1.0, max(0.0, round(value + rng.choice([-0.02, 0.02]), 3)))
        c.count(f"minEquity(p1, turn, {x})", value >= x)

    check_deals("holdem", 15, 17, fill, players=2)
