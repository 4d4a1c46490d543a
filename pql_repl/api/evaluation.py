"""``evaluate()``: one hand's hi and lo, with the five cards each uses, and their views as a
table (``to_pandas``, ``_repr_html_``)."""

from __future__ import annotations

from pql_repl import _core
from pql_repl.api import frames, html
from pql_repl.api.options import text_argument, unicode_checked
from pql_repl.base.errors import PqlRangeError
from pql_repl.base.records import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The columns of a hand's value as a table, and their dtypes.
VALUE_COLUMNS = ("category", "rating", "cards")
VALUE_DTYPES = {"side": "str", "category": "str", "rating": "int64", "cards": "str"}


@record(frozen=True)
class HandValue:
    """One side of a hand: category name, rating (greater is better) and the five cards used."""

    category: str
    rating: int
    cards: str

    def to_pandas(self) -> Any:
        """A one-row DataFrame: ``category``, ``rating`` (int64) and ``cards`` (pandas is
        optional: ``pip install 'pql-repl[pandas]'``)."""
        return frames.frame([(self.category, self.rating, self.cards)], VALUE_COLUMNS, VALUE_DTYPES)

    def _repr_html_(self) -> str:
        """What a notebook shows: the same table as ``to_pandas``'s."""
        return html.figure_table(
            VALUE_COLUMNS, [(self.category, str(self.rating), self.cards)], kind="pql-evaluation"
        )


@record(frozen=True)
class Evaluation:
    """A hand's ratings: ``hi`` and ``lo``, each a ``HandValue``, or None where the game has no
    such half (razz has no hi) or the hand makes none (no qualifying low in Omaha hi/lo)."""

    hi: HandValue | None
    lo: HandValue | None

    def _rows(self) -> list[tuple[str, str, int, str]]:
        return [(side, v.category, v.rating, v.cards) for side, v in (("hi", self.hi), ("lo", self.lo)) if v]

    def to_pandas(self) -> Any:
        """A row per half the hand makes (``side``: ``hi``, ``lo``) with its ``category``,
        ``rating`` (int64, greater is better) and ``cards`` (pandas is optional:
        ``pip install 'pql-repl[pandas]'``)."""
        return frames.frame(self._rows(), ("side", *VALUE_COLUMNS), VALUE_DTYPES)

    def _repr_html_(self) -> str:
        """What a notebook shows: the same table as ``to_pandas``'s (no row for a half the hand
        does not make)."""
        rows = [(side, category, str(rating), cards) for side, category, rating, cards in self._rows()]
        return html.figure_table(("side", *VALUE_COLUMNS), rows, kind="pql-evaluation")


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
