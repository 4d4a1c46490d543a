"""The 13x13 starting-hand grid of a two-card range (hold'em, short deck): pairs on the diagonal,
suited hands above it, offsuit below, each cell shaded by the share of its combos in the range."""

from __future__ import annotations

from collections import Counter

from rich.style import Style
from rich.table import Table
from rich.text import Text

from pql_repl.api.catalogue import Range, parse_range

#: Ranks from high to low, as cards are written.
RANK_ORDER = "AKQJT98765432"


def hand_class(combo: str) -> str:
    """``AsKs`` -> ``AKs``, ``KdAc`` -> ``AKo``, ``7h7c`` -> ``77``."""
    r1, s1, r2, s2 = combo[0], combo[1], combo[2], combo[3]
    if RANK_ORDER.index(r1) > RANK_ORDER.index(r2):
        r1, r2 = r2, r1
    if r1 == r2:
        return r1 + r2
    return r1 + r2 + ("s" if s1 == s2 else "o")


def class_shares(hands: Range, deck: Range) -> dict[str, float]:
    """For every class of the deck, the share of its combos (weighted) that the range holds."""
    total = Counter(hand_class(c) for c in deck.combos)
    top = max(hands.weights, default=1) or 1
    held: dict[str, float] = {}
    for combo, weight in zip(hands.combos, hands.weights or [top] * len(hands.combos), strict=False):
        cls = hand_class(combo)
        held[cls] = held.get(cls, 0.0) + weight / top
    return {cls: held.get(cls, 0.0) / n for cls, n in total.items()}


def range_grid(text: str, game: str, syntax: str | None = None) -> Table | None:
    """The grid of ``text`` read as a range of ``game``; None when the game deals other than two cards."""
    deck = parse_range("**", game)
    if not deck.combos or len(deck.combos[0]) != 4:
        return None
    shares = class_shares(parse_range(text, game, syntax), deck)
    ranks = [r for r in RANK_ORDER if any(c[0] == r or c[2] == r for c in deck.combos)]
    table = Table(show_header=False, show_edge=False, pad_edge=False, padding=(0, 0), box=None)
    for _ in ranks:
        table.add_column(width=4, justify="center")
    for i, high in enumerate(ranks):
        row = []
        for j, other in enumerate(ranks):
            if i == j:
                cls = high + other
            elif j > i:
                cls = high + other + "s"
            else:
                cls = other + high + "o"
            share = shares.get(cls, 0.0)
            row.append(Text(cls, style=_shade(share)))
        table.add_row(*row)
    return table


def _shade(share: float) -> Style:
    if share <= 0:
        return Style(dim=True)
    level = int(60 + 140 * min(1.0, share))
    return Style(
        color="black", bgcolor=f"rgb(40,{level},90)" if share < 1 else "rgb(60,200,90)", bold=share >= 1
    )


def grid_for_command(line: str) -> Table | None:
    """The grid for a ``.range GAME 'RANGE' [syntax]`` line, or None (other games, odd arguments)."""
    _, _, arg = line.strip().partition(" ")
    game, _, rest = arg.strip().partition(" ")
    rest = rest.strip()
    syntax: str | None = None
    if rest[:1] in ("'", '"'):
        end = rest.find(rest[0], 1)
        if end < 0:
            return None
        text, syntax = rest[1:end], rest[end + 1 :].strip() or None
    else:
        text = rest
    if not game or not text:
        return None
    return range_grid(text, game, syntax)
