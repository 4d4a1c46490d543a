"""The lists a sweep runs over, each value with the weight it stands for: every flop (22,100)
or the 1,755 suit-isomorphic ones (a canonical flop weighs as many flops as it stands for),
the turns or rivers of a board, a game's starting-hand classes (weighted by their hands), the
ranks, or an explicit list."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from itertools import combinations, permutations

from pql_repl.api.options import text_argument, unicode_checked
from pql_repl.base.errors import PqlArgumentError, PqlRangeError, excerpt
from pql_repl.base.records import record

RANKS = "AKQJT98765432"
SUITS = "shdc"
DECK = [r + s for r in RANKS for s in SUITS]


@record(frozen=True)
class SweepValue:
    """One substitution: the text put in the placeholder's place and what it weighs."""

    text: str
    weight: float = 1.0


def _cards(text: str) -> list[str]:
    compact = "".join(text.split())
    if len(compact) % 2 or not all(
        compact[i] in RANKS and compact[i + 1] in SUITS for i in range(0, len(compact), 2)
    ):
        raise PqlArgumentError(f"'{excerpt(text)}' is not a board of known cards such as 'Kh9h7d'")
    cards = [compact[i : i + 2] for i in range(0, len(compact), 2)]
    if len(set(cards)) != len(cards):
        raise PqlArgumentError(f"'{excerpt(text)}' holds a card twice")
    return cards


def _written(cards: Iterable[str]) -> str:
    """Cards highest rank first (suits in a fixed order): ``Kh9h7d``."""
    return "".join(sorted(cards, key=lambda c: (RANKS.index(c[0]), SUITS.index(c[1]))))


@functools.cache
def _canonical_flops() -> tuple[SweepValue, ...]:
    # Each flop's class under the 24 renamings of the suits: its smallest image. The class is
    # written as its first flop in deck order and weighs its members.
    renamings = [dict(zip(SUITS, p, strict=True)) for p in permutations(SUITS)]
    members: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for flop in combinations(DECK, 3):
        key = min(tuple(sorted(c[0] + r[c[1]] for c in flop)) for r in renamings)
        members.setdefault(key, []).append(flop)
    return tuple(SweepValue(_written(group[0]), float(len(group))) for group in members.values())


def flops(kind: str = "canonical") -> list[SweepValue]:
    """Every flop (``'all'``: 22,100, weight 1) or one flop per suit-isomorphism class
    (``'canonical'``: 1,755, each weighing the flops it stands for)."""
    if text_argument("kind", kind) == "all":
        return [SweepValue(_written(f)) for f in combinations(DECK, 3)]
    if kind == "canonical":
        return list(_canonical_flops())
    raise PqlArgumentError(f"flops('{excerpt(kind)}'): the kinds are 'canonical' and 'all'")


def _next_cards(board: str, size: int, street: str) -> list[SweepValue]:
    cards = _cards(text_argument("board", board))
    if len(cards) != size:
        raise PqlArgumentError(
            f"{street}('{excerpt(board)}') needs a board of {size} cards, not {len(cards)}"
        )
    return [SweepValue(_written([*cards, c])) for c in DECK if c not in cards]


def turns(board: str) -> list[SweepValue]:
    """The 49 boards of ``board`` (a flop) and one more card."""
    return _next_cards(board, 3, "turns")


def rivers(board: str) -> list[SweepValue]:
    """The 48 boards of ``board`` (a flop and a turn) and one more card."""
    return _next_cards(board, 4, "rivers")


def classes(game: str = "holdem") -> list[SweepValue]:
    """The starting-hand classes of hold'em (169) or short deck (81), each weighing its hands."""
    from pql_repl.api.exploration import hand_classes  # noqa: PLC0415 (the engine, loaded when used)

    unicode_checked(text_argument("game", game), PqlRangeError)
    c = hand_classes(game)
    return [SweepValue(name, float(len(hands))) for name, hands in zip(c.names, c.combos, strict=True)]


def ranks() -> list[SweepValue]:
    """The thirteen ranks, ace first."""
    return [SweepValue(r) for r in RANKS]


def listed(items: Iterable[str]) -> list[SweepValue]:
    """Explicit values, weight 1 each."""
    return [SweepValue(str(i)) for i in items]
