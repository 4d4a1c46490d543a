"""The explorer's grid: the 13x13 (9x9 in short deck) classes of a two-card game drawn with
their weights and equities, the keys that move over and select them, and the colours and
categories the panel's legend shares.

The grid owns no range: it reads the panel that holds it through ``GridPanel``."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar, Protocol

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widget import Widget

from pql_repl.api.exploration import Breakdown, HeatmapSnapshot
from pql_repl.api.multi_odds import HAND_TYPES
from pql_repl.editors.range_edit import RangeEdit


class GridPanel(Protocol):
    """What the grid reads of the explorer panel that owns the range (``ExplorerPanel``)."""

    edit: RangeEdit
    snapshot: HeatmapSnapshot | None

    @property
    def showing_weights(self) -> bool: ...

    def shown_weight(self, cls: int) -> float | None: ...

    def highlighted_classes(self) -> set[int]: ...

    async def act(self, action: str) -> None: ...

    def cursor_moved(self) -> None: ...


TYPE_LABELS = {
    "straightflush": "straight flush",
    "quads": "quads",
    "fullhouse": "full house",
    "flush": "flush",
    "straight": "straight",
    "trips": "trips / set",
    "twopair": "two pair",
    "pair": "pair",
    "highcard": "high card",
    "flushdraw": "flush draw",
    "openended": "open-ended",
    "gutshot": "gutshot",
    "backdoorflush": "backdoor flush",
}

#: How the breakdown names the flop categories (PQL's names without their ``flop``).
FLOP_LABELS = {
    "flopstraightflush": "straight flush",
    "flopquads": "quads",
    "flopfullhouse": "full house",
    "flopflush": "flush",
    "flopstraight": "straight",
    "flopset": "set",
    "floptrips": "trips",
    "floptoptwo": "top two pair",
    "floptopandbottom": "top and bottom",
    "flopbottomtwo": "bottom two pair",
    "flopoverpair": "overpair",
    "floptoppair": "top pair",
    "floppocket12": "pocket pair 1-2",
    "flopsecondpair": "second pair",
    "floppocket23": "pocket pair 2-3",
    "flopthirdpair": "third pair",
    "flopunderpair": "underpair",
    "flopnothing": "nothing",
}


def equity_colour(equity: float) -> str:
    """Red (0) through yellow (0.5) to green (1), soft enough for black text."""
    e = max(0.0, min(1.0, equity))
    if e < 0.5:
        r, g = 230, int(90 + 2 * e * 140)
    else:
        r, g = int(230 - 2 * (e - 0.5) * 150), 230
    return f"rgb({r},{g},90)"


def weight_colour(share: float) -> str:
    """Pale lilac (a light weight) to deep violet (the heaviest), soft enough for black text."""
    w = max(0.0, min(1.0, share))
    return f"rgb({int(235 - 95 * w)},{int(230 - 140 * w)},{int(245 - 15 * w)})"


@functools.lru_cache(maxsize=4096)
def _cell_style(
    bg: str, *, held: bool, heated: bool, highlighted: bool, selected: bool, cursor: bool
) -> Style:
    """A grid cell's style (cached: one grid draws 169 of a few kinds)."""
    if held:
        style = Style(color="black" if heated else "white", bgcolor=bg, bold=True)
    else:
        style = Style(color="grey39" if heated else "grey50", bgcolor=bg)
    if highlighted:
        style += Style(color="magenta", bold=True, underline=True)
    if selected:
        style += Style(bgcolor="rgb(70,110,220)", color="white")
    if cursor:
        style += Style(reverse=True)
    return style


def text_height(text: Text, width: int) -> int:
    """Lines ``text`` takes in ``width`` columns, its long lines wrapped."""
    return sum(max(1, -(-line.cell_len // width)) for line in text.split("\n", allow_blank=True))


@dataclass(frozen=True)
class Category:
    """A line of the board breakdown: its key (``pair``, ``flushdraw``, ``flopoverpair``) and
    label, and which hands have it."""

    key: str
    label: str
    hands: frozenset[int]


def categories(facts: Breakdown) -> list[Category]:
    """The breakdown's lines: hand types strongest first, the draws, then the flop categories
    strongest first (on a flop)."""
    by_key: dict[str, set[int]] = {}
    for h, f in enumerate(facts.hands):
        if f is None:
            continue
        for key in (f.hand_type, *f.draws, *([f.flop_category] if f.flop_category else [])):
            by_key.setdefault(key, set()).add(h)
    on_flop = any(f is not None and f.flop_category for f in facts.hands)
    lines = [Category(t, TYPE_LABELS[t], frozenset(by_key.get(t, ()))) for t in HAND_TYPES]
    # Draws on the flop and the turn (none on the river), every one listed even when empty.
    lines += [
        Category(d, TYPE_LABELS.get(d, d), frozenset(by_key.get(d, ())))
        for d in facts.draws
        if on_flop or d in by_key
    ]
    lines += [
        Category(c, FLOP_LABELS.get(c, c), frozenset(by_key[c]))
        for c in reversed(facts.flop_categories)
        if c in by_key
    ]
    return lines


class RangeGrid(Widget, can_focus=True):
    """The 13x13 grid (9x9 in short deck): pairs on the diagonal, suited above, offsuit below.
    The panel owns the range; the grid draws it and turns keys into the panel's actions."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(-1, 0)", "Up", show=False),
        Binding("down,j", "move(1, 0)", "Down", show=False),
        Binding("left,h", "move(0, -1)", "Left", show=False),
        Binding("right,l", "move(0, 1)", "Right", show=False),
        Binding("shift+up,K", "select(-1, 0)", "Select", show=False),
        Binding("shift+down,J", "select(1, 0)", "Select", show=False),
        Binding("shift+left,H", "select(0, -1)", "Select", show=False),
        Binding("shift+right,L", "select(0, 1)", "Select", show=False),
        Binding("space", "panel('toggle')", "Toggle"),
        Binding("plus,equals_sign", "panel('widen')", "+%"),
        Binding("minus", "panel('narrow')", "-%"),
        Binding("s", "panel('suits')", "Suits"),
        Binding("u,ctrl+z", "panel('undo')", "Undo"),
        Binding("r,ctrl+y", "panel('redo')", "Redo"),
        Binding("c", "panel('clear')", "Clear"),
        Binding("i", "panel('invert')", "Invert"),
        Binding("left_square_bracket", "panel('category(-1)')", "[", show=False),
        Binding("right_square_bracket", "panel('category(1)')", "]", show=False),
        Binding("n", "panel('save')", "Name"),
        Binding("o", "panel('open')", "Open"),
        Binding("escape", "panel('close')", "Close"),
        *(Binding(str(d), f"panel('weight({d})')", "Weight", show=False) for d in range(10)),
        Binding("at", "panel('weigh')", "@weight", show=False),
        Binding("w", "panel('weights')", "Weights", show=False),
        Binding("y", "panel('copy')", "Copy", show=False),
        Binding("Y", "panel('copy_pio')", "Copy Pio", show=False),
    ]

    def __init__(self, panel: GridPanel, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.panel = panel
        self.cursor = (0, 0)
        #: The corner the selection started from (shift+arrows), None: no selection.
        self.select_from: tuple[int, int] | None = None

    @property
    def size_n(self) -> int:
        return self.panel.edit.classes.size

    def selection(self) -> list[int]:
        """The classes the keys act on: the rectangle selected, else the class under the cursor."""
        classes = self.panel.edit.classes
        (r0, c0), (r1, c1) = self.select_from or self.cursor, self.cursor
        return [
            classes.cell(r, c)
            for r in range(min(r0, r1), max(r0, r1) + 1)
            for c in range(min(c0, c1), max(c0, c1) + 1)
        ]

    def action_move(self, dr: int, dc: int) -> None:
        self.select_from = None
        self._step(dr, dc)

    def action_select(self, dr: int, dc: int) -> None:
        if self.select_from is None:
            self.select_from = self.cursor
        self._step(dr, dc)

    def _step(self, dr: int, dc: int) -> None:
        n = self.size_n
        r, c = self.cursor
        self.cursor = (max(0, min(n - 1, r + dr)), max(0, min(n - 1, c + dc)))
        self.refresh()
        self.panel.cursor_moved()

    async def action_panel(self, action: str) -> None:
        await self.panel.act(action)

    def render(self) -> Text:
        panel = self.panel
        classes = panel.edit.classes
        n = classes.size
        selected = set(self.selection()) if self.select_from is not None else set()
        cursor = classes.cell(*self.cursor)
        highlighted = panel.highlighted_classes()
        heat = panel.snapshot
        out = Text(no_wrap=True, overflow="crop")
        for r in range(n):
            for c in range(n):
                cls = classes.cell(r, c)
                state = panel.edit.class_state(cls)
                equity = heat.classes[cls] if heat is not None else None
                weight = panel.shown_weight(cls)
                if weight is not None:
                    bg = weight_colour(weight)
                elif panel.showing_weights:
                    bg = "grey19"
                    equity = None  # the weights view draws no equities
                elif equity is not None:
                    bg = equity_colour(equity[0])
                elif state > 0:
                    bg = "rgb(40,150,90)" if state >= 1 else "rgb(40,100,90)"
                else:
                    bg = "grey19"
                focused = cls == cursor and self.has_focus
                style = _cell_style(
                    bg,
                    held=state > 0,
                    heated=equity is not None or weight is not None,
                    highlighted=cls in highlighted,
                    selected=cls in selected,
                    cursor=focused,
                )
                weights = panel.edit.class_weights(cls)
                mark = " " if state == 0 else ("●" if state >= 1 else ("◐" if any(weights) else " "))
                out.append(f"{classes.names[cls]:<3}{mark}", style)
            if r < n - 1:
                out.append("\n")
        return out

    def get_content_width(self, container: object, viewport: object) -> int:
        return 4 * self.size_n

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return self.size_n
