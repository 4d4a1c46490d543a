"""``evaluate()``: one hand's hi and lo, with the five cards each uses."""

from __future__ import annotations

from pql_repl import _core
from pql_repl.api.options import text_argument, unicode_checked
from pql_repl.base.errors import PqlRangeError
from pql_repl.base.records import record


@record(frozen=True)
class HandValue:
    """One side of a hand: category name, rating (greater is better) and the five cards used."""

    category: str
    rating: int
    cards: str


@record(frozen=True)
class Evaluation:
    """A hand's ratings: ``hi`` and ``lo``, each a ``HandValue``, or None where the game has no
    such half (razz has no hi) or the hand makes none (no qualifying low in Omaha hi/lo)."""

    hi: HandValue | None
    lo: HandValue | None


def evaluate(hole: str, board: str = "", game: str = "holdem") -> Evaluation:
    """Rate ``hole`` with ``board`` under ``game``'s rules. Stud: all cards in ``hole``."""
    for name, text in (("hole", hole), ("board", board), ("game", game)):
        unicode_checked(text_argument(name, text), PqlRangeError)
    raw = _core.evaluate(hole, board, game)
    hi, lo = raw["hi"], raw["lo"]
    return Evaluation(
        hi=HandValue(**hi) if hi is not None else None,
        lo=HandValue(**lo) if lo is not None else None,
    )
