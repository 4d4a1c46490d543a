"""The stud picker's hand: seven slots in dealing order (two down cards, the third- to
sixth-street up cards, the seventh down), each a card (``As``), a rank (``A``), a rank ceiling
(``7-``), a floor (``T+``), a list (``[A,2,3]``) or any card (``*``), and the runs of slots
whose ranks must differ (the parentheses of ``(3-2-)45678``; docs/language/ranges.md, stud
hands). Written as one stud hand and read back from one; trailing any-card slots are left out
(the rest is dealt)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

SLOTS = 7
#: What each slot is, in dealing order.
SLOT_NAMES = ("down", "down", "3rd up", "4th up", "5th up", "6th up", "7th down")
RANKS = "AKQJT98765432"
SUITS = "cdhs"
ANY = "*"

#: One card of a stud hand: a card, a rank with an optional ceiling/floor mark, a list, ``*``.
_TOKEN = re.compile(
    r"\s*(?:([AKQJT2-9][cdhs])|([AKQJT2-9][-+]?)|(\[[AKQJT2-9](?:\s*,\s*[AKQJT2-9])*\])|(\*))"
)


@dataclass(frozen=True)
class Slot:
    """One card of the hand as written (``As``, ``A``, ``7-``, ``T+``, ``[A,2,3]``, ``*``);
    ``grouped`` slots next to each other form one parenthesis: their ranks differ."""

    text: str = ANY
    grouped: bool = False

    @property
    def rank(self) -> str | None:
        """The rank a card, rank, ceiling or floor names (None for a list or any card)."""
        return self.text[0] if self.text and self.text[0] in RANKS else None


def empty_hand() -> list[Slot]:
    return [Slot() for _ in range(SLOTS)]


def parse_stud_hand(text: str) -> list[Slot] | None:
    """The seven slots of ``text`` (a single stud hand; fewer cards leave ``*`` slots), or
    None when the text is not one hand the picker can show (several hands, weights, a
    parenthesis inside another or right after another, more than seven cards)."""
    slots: list[Slot] = []
    grouped = False
    at = 0
    while at < len(text):
        ch = text[at]
        if ch.isspace():
            at += 1
        elif ch == "(" and not grouped and not (slots and slots[-1].grouped):  # `(..)(..)`: two groups
            grouped, at = True, at + 1
        elif ch == ")" and grouped:
            grouped, at = False, at + 1
        elif m := _TOKEN.match(text, at):
            token = next(g for g in m.groups() if g is not None)
            slots.append(Slot(re.sub(r"\s+", "", token), grouped))
            at = m.end()
        else:
            return None
    if grouped or len(slots) > SLOTS:
        return None
    return slots + [Slot() for _ in range(SLOTS - len(slots))]


def stud_text(slots: list[Slot]) -> str:
    """The hand of ``slots`` as PQL writes it: ``(3-2-)45678``; trailing ``*`` slots that are
    not grouped are left out; empty when every slot is any card."""
    last = max((i for i, s in enumerate(slots) if s.text != ANY or s.grouped), default=-1)
    out = []
    for i, s in enumerate(slots[: last + 1]):
        opens = s.grouped and (i == 0 or not slots[i - 1].grouped)
        closes = s.grouped and (i == last or not slots[i + 1].grouped)
        out.append(("(" if opens else "") + s.text + (")" if closes else ""))
    return "".join(out)


def typed(slot: Slot, key: str) -> Slot | None:
    """``slot`` after typing ``key``: a rank replaces it, a suit makes its rank a card, ``-``
    and ``+`` make it a ceiling or floor, ``*`` makes it any card; None when the key means
    nothing here (a suit on a slot without a rank)."""
    upper = key.upper()
    if len(key) == 1 and upper in RANKS:
        return replace(slot, text=upper)
    rank = slot.rank
    if key in SUITS and rank is not None:
        return replace(slot, text=rank + key)
    if key in "-+" and rank is not None:
        return replace(slot, text=rank + key)
    if key == ANY:
        return replace(slot, text=ANY)
    return None
