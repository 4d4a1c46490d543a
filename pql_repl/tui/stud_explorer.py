"""The stud explorer (stud, stud8, razz): pickers for the two down cards, each up card and the
seventh-street down card, each a card, a rank, a rank ceiling or floor, or any card, with the
number of hands that remain and a sample of them. Bound both ways to the player's hand in the
editor, like the other explorers (``explorer.py``, ``term_explorer.py``)."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from pql_repl.api.exploration import RangeSummary, range_summary
from pql_repl.base.errors import PqlError
from pql_repl.editors.stud_edit import (
    ANY,
    RANKS,
    SLOT_NAMES,
    SLOTS,
    SUITS,
    Slot,
    empty_hand,
    parse_stud_hand,
    stud_text,
    typed,
)
from pql_repl.tui.bound_explorer import BoundExplorer
from pql_repl.tui.explorer_messages import ExplorerClosed

#: Hands of the range shown as a sample.
SAMPLE = 8
#: Blank columns between two slots.
SLOT_GAP = 2
#: The slots' width before the panel is laid out (the explorer's 58 columns, less its border
#: and padding).
DEFAULT_WIDTH = 54

#: The characters the slots take (ranks in either case, suits, marks, grouping, clearing).
PICKER_CHARACTERS = RANKS + RANKS.lower() + SUITS + "-+*(x"
STUD_KEYS = (
    "A-2 (or a k q j t) a rank, c d h s its suit, - a ceiling (7-), + a floor (T+), * or "
    "space any card, ( the slot's rank differs from its grouped neighbours', x clears the hand"
)


def slot_cell(slots: list[Slot], i: int) -> str:
    """Slot ``i`` as drawn: its text, in the parenthesis of its group when it opens or closes
    one (a blank where no parenthesis opens, so the texts line up)."""
    s = slots[i]
    opens = s.grouped and (i == 0 or not slots[i - 1].grouped)
    closes = s.grouped and (i == len(slots) - 1 or not slots[i + 1].grouped)
    return ("(" if opens else " ") + s.text + (")" if closes else "")


def slot_lines(slots: list[Slot], width: int) -> list[list[tuple[int, int]]]:
    """The slots laid out in ``width`` columns: lines of (slot, its width), each slot as wide as
    its name or its cell, with ``SLOT_GAP`` columns between two; a slot that does not fit after
    the others on a line starts the next one (seven slots of usual cells take one line of 52
    columns)."""
    lines: list[list[tuple[int, int]]] = [[]]
    used = 0
    for i, name in enumerate(SLOT_NAMES):
        need = max(len(name), len(slot_cell(slots, i)))
        if lines[-1] and used + SLOT_GAP + need > width:
            lines.append([])
            used = 0
        used += (SLOT_GAP if lines[-1] else 0) + need
        lines[-1].append((i, need))
    return lines


class StudSlots(Widget, can_focus=True):
    """The seven slots in a row (or in as many rows as the width takes: no slot is cut), the
    cursor on one; typed keys go to the explorer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right,tab", "move(1)", "Right", show=False),
        Binding("backspace,delete,space", "explorer('any')", "Any card"),
        Binding("u,ctrl+z", "explorer('undo')", "Undo"),
        Binding("r,ctrl+y", "explorer('redo')", "Redo"),
        Binding("escape", "explorer('close')", "Close"),
    ]

    def __init__(self, explorer: StudExplorer, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.explorer = explorer
        self.cursor = 0

    def action_move(self, step: int) -> None:
        self.cursor = max(0, min(SLOTS - 1, self.cursor + step))
        self.refresh()

    async def action_explorer(self, action: str) -> None:
        self.explorer.act(action)

    def on_key(self, event: events.Key) -> None:
        # The picker's own keys (ranks, suits, marks) are characters, not bindings: `A` and `a`
        # both pick the ace, and `(` or `*` arrive under their names.
        ch = event.character
        if ch and ch in PICKER_CHARACTERS and self.explorer.act(f"type({ch})"):
            event.stop()
            event.prevent_default()

    def render(self) -> Text:
        slots = self.explorer.slots
        width = self.size.width or DEFAULT_WIDTH
        out = Text(no_wrap=True, overflow="ellipsis")
        for n, line in enumerate(slot_lines(slots, width)):
            if n:
                out.append("\n")
            names, cells = Text(), Text()
            for at, (i, need) in enumerate(line):
                gap = " " * (SLOT_GAP if at else 0)
                names.append(gap + f"{SLOT_NAMES[i]:<{need}}", style="dim")
                focused = i == self.cursor and self.has_focus
                style = "reverse" if focused else ("bold" if slots[i].text != ANY else "dim")
                cells.append(gap)
                cells.append(f"{slot_cell(slots, i):<{need}}", style)
            # Only a slot wider than the whole panel (a long list) is cut, with an ellipsis.
            names.truncate(width, overflow="ellipsis")
            cells.truncate(width, overflow="ellipsis")
            out.append_text(names)
            out.append("\n")
            out.append_text(cells)
        return out

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return 2 * len(slot_lines(self.explorer.slots, width or DEFAULT_WIDTH))


class StudCounted(Message):
    def __init__(self, text: str, summary: RangeSummary | str) -> None:
        super().__init__()
        self.text = text
        self.summary = summary


class StudExplorer(BoundExplorer[list[Slot]]):
    """The explorer of one player's stud hand (``bind``): its value is the row of slots."""

    DEFAULT_GAME = "studhi"

    def __init__(self, *, seed: int = 0, id: str | None = None) -> None:
        super().__init__(empty_hand(), seed=seed, id=id)
        #: The engine's count of the hand text ``counted`` (or why it has none).
        self.summary: RangeSummary | str | None = None
        self.counted: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="stud-title")
        yield StudSlots(self, id="stud-slots")
        yield Static("", id="stud-totals")
        yield Static(STUD_KEYS, id="stud-keys")

    @property
    def slot_row(self) -> StudSlots:
        return self.query_one(StudSlots)

    @property
    def slots(self) -> list[Slot]:
        return self.edited

    def text(self) -> str:
        return stud_text(self.slots)

    def read(self, text: str) -> list[Slot]:
        slots = parse_stud_hand(text)
        if slots is None:
            self.problem = "not one hand the picker shows: a key here starts a new one"
            return empty_hand()
        return slots

    def written(self) -> str:
        return self.text() or "*"  # a hand of any cards: one `*` keeps the quotes non-empty

    # -- editing -------------------------------------------------------------------------------

    def act(self, action: str) -> bool:
        """Do ``action``; False when it means nothing here (the key goes on)."""
        name, _, arg = action.partition("(")
        arg = arg[:-1] if arg.endswith(")") else arg
        at = self.slot_row.cursor
        slots = list(self.slots)
        if name == "type" and arg == "(":
            slots[at] = replace(slots[at], grouped=not slots[at].grouped)
            self._change(slots)
        elif name == "type" and arg == "x":
            self._change(empty_hand())
            self.slot_row.cursor = 0
        elif name == "type":
            changed = typed(slots[at], arg)
            if changed is None:
                return False
            slots[at] = changed
            self._change(slots)
            if len(changed.text) == 2 and changed.text[1] in SUITS:
                self.slot_row.action_move(1)  # a whole card: on to the next slot
        elif name == "any":
            slots[at] = replace(slots[at], text=ANY)
            self._change(slots)
        elif name == "undo":
            self._undo_step()
        elif name == "redo":
            self._redo_step()
        elif name == "close":
            self.post_message(ExplorerClosed())
        return True

    # -- counting -------------------------------------------------------------------------------

    def _recount(self) -> None:
        self.summary = None
        self._count_worker(self._range_text or "", self.game)

    @work(thread=True, exclusive=True, group="stud")
    def _count_worker(self, text: str, game: str) -> None:
        summary: RangeSummary | str
        try:
            summary = range_summary(text, game, sample=SAMPLE, seed=self.seed)
        except PqlError as e:
            summary = str(e).splitlines()[0]
        self.post_message(StudCounted(text, summary))

    def on_stud_counted(self, message: StudCounted) -> None:
        if message.text != self._range_text:
            return  # a count of a hand since edited
        self.summary = message.summary
        self.counted = message.text
        self._refresh_all()

    # -- drawing --------------------------------------------------------------------------------

    def _refresh_all(self) -> None:
        if not self.is_mounted:
            return
        self.slot_row.refresh(layout=True)
        title = Text(f"{self.player or ''}'s hand ({self.game}, stud picker)", style="bold")
        if self.problem:
            title.append(f"\n{self.problem}", style="yellow")
        self.query_one("#stud-title", Static).update(title)
        self.query_one("#stud-totals", Static).update(self._totals())

    def _totals(self) -> Text:
        s = self.summary
        if isinstance(s, str):
            return Text(s, style="red")
        if s is None:
            return Text("counting…", style="dim")
        # The range's hands as written: each fixes the slots chosen; its open slots are dealt
        # from the deck, so one hand here stands for every way to deal them.
        plural = "" if s.hands == 1 else "s"
        out = Text(f"{s.hands:,} hand{plural} in the range for the cards chosen; open slots are dealt")
        if s.sample:
            out.append("\nsample: " + " ".join(s.sample), style="dim")
        return out
