"""The range explorer: a player's range of the query as a 13x13 grid the keyboard edits, bound
both ways to the range in the editor, coloured by each class's equity against the other players
(computing in the background, refining while the user works), with the range's totals and, when
the query has a board, how the range hits it.

The panel knows nothing of the editor: it is told the query's text (``sync``) and says what the
range became (``RangeEdited``); the app moves text between them."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from pql_repl.api.catalogue import range_name_error
from pql_repl.api.exploration import Breakdown, Heatmap, HeatmapSnapshot, breakdown, reweighted_classes
from pql_repl.api.multi_odds import HAND_TYPES
from pql_repl.base.errors import PqlError
from pql_repl.editors.range_edit import FULL, RangeEdit
from pql_repl.files import named_ranges
from pql_repl.session.from_clause import FromClause, clause_of
from pql_repl.tui.live_job import JobUpdate, relay_snapshots

#: The Monte Carlo heatmap stops once every class's 95% margin is this small...
HEATMAP_PRECISION = 0.005
#: ... or after this many deals.
HEATMAP_TRIALS = 50_000_000
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
    ]

    def __init__(self, panel: ExplorerPanel, *, id: str | None = None) -> None:
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


class SuitPicker(ModalScreen[dict[int, int] | None]):
    """The hands of one class to take in or out one by one: space toggles, Enter keeps the
    choice, Escape drops it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_hand", "Toggle"),
        Binding("a", "all", "All"),
        Binding("enter", "done", "Keep"),
        Binding("escape", "dismiss_picker", "Cancel"),
    ]

    def __init__(self, name: str, hands: list[tuple[int, str, int]]) -> None:
        super().__init__()
        self.class_name = name
        #: (hand index, cards, weight) per hand of the class.
        self.hands = hands
        self.chosen = {h: w for h, _, w in hands}

    def compose(self) -> ComposeResult:
        with Vertical(id="suit-picker"):
            yield Static(f"{self.class_name}: space toggles a hand, a all, Enter keeps, Escape cancels")
            yield OptionList(
                *[Option(self._label(h, cards), id=str(h)) for h, cards, _ in self.hands], id="suits"
            )

    def _label(self, h: int, cards: str) -> str:
        return f"[{'x' if self.chosen[h] else ' '}] {cards}"

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def _refresh_labels(self) -> None:
        options = self.query_one(OptionList)
        for h, cards, _ in self.hands:
            options.replace_option_prompt(str(h), self._label(h, cards))

    def action_toggle_hand(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return
        h, _, weight = self.hands[options.highlighted]
        self.chosen[h] = 0 if self.chosen[h] else (weight or FULL)
        self._refresh_labels()

    def action_all(self) -> None:
        full = all(self.chosen.values())
        for h, _, weight in self.hands:
            self.chosen[h] = 0 if full else (self.chosen[h] or weight or FULL)
        self._refresh_labels()

    def on_option_list_option_selected(self, _: OptionList.OptionSelected) -> None:
        self.action_done()

    def action_done(self) -> None:
        self.dismiss(dict(self.chosen))

    def action_dismiss_picker(self) -> None:
        self.dismiss(None)


class NamePrompt(ModalScreen[str | None]):
    """Asks for the name to save the range under (``$open``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="name-prompt"):
            yield Static("Save the range as (Enter saves, Escape cancels):")
            yield Input(placeholder="$open", id="range-name")
            yield Static("", id="name-error")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        problem = range_name_error(event.value.strip())
        if problem:
            self.query_one("#name-error", Static).update(f"[red]{problem}[/red]")
            return
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class WeightPrompt(ModalScreen[int | None]):
    """Asks for a weight for the selection: 1 to 100, 0 takes it out (Enter sets it, Escape
    cancels)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="weight-prompt"):
            yield Static("Weight of the selection, 1 to 100; 0 takes it out (Enter sets, Escape cancels):")
            yield Input(placeholder="35", id="weight", restrict=r"\d{0,3}")
            yield Static("", id="weight-error")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text.isdigit() or int(text) > FULL:
            self.query_one("#weight-error", Static).update(f"[red]a whole number from 0 to {FULL}[/red]")
            return
        self.dismiss(int(text))

    def action_cancel(self) -> None:
        self.dismiss(None)


class NamedRangeList(ModalScreen[str | None]):
    """The user's named ranges to load one from: Enter loads, Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, ranges: Mapping[str, str]) -> None:
        super().__init__()
        self.ranges = dict(ranges)

    def compose(self) -> ComposeResult:
        with Vertical(id="named-ranges"):
            yield Static("Load a named range (Enter loads it as $name, Escape cancels):")
            yield OptionList(*[Option(f"${k}  {v}", id=k) for k, v in self.ranges.items()], id="names")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class HeatmapUpdate(JobUpdate):
    """A heatmap snapshot, posted by the worker that polls it."""

    snapshot: HeatmapSnapshot | None


class WeightsUpdate(Message):
    """The player's reweighted class weights for the inputs of ``key`` (None: nothing
    reweights the range), worked out in a thread."""

    def __init__(self, key: tuple[object, ...], weights: list[float | None] | None) -> None:
        super().__init__()
        self.key = key
        self.weights = weights


class RangeEdited(Message):
    """An explorer changed the range: ``text`` replaces the player's range at ``start:end`` of
    the query text the explorer was last given."""

    def __init__(self, text: str, start: int, end: int) -> None:
        super().__init__()
        self.text = text
        self.start = start
        self.end = end


class ExplorerClosed(Message):
    """Escape in an explorer: the app hides it and goes back to the editor."""


@dataclass(frozen=True)
class HeatInputs:
    """What the heatmap depends on: the game, the other players' ranges, the board, dead cards."""

    game: str
    villains: tuple[str, ...]
    board: str | None
    dead: str | None
    syntax: str | None
    ordering: str | None


class ExplorerPanel(Vertical):
    """The explorer of one player's range in the query (``bind``)."""

    def __init__(
        self,
        *,
        seed: int = 0,
        threads: int | None = None,
        observations: Callable[[], Sequence[tuple[str, str, str]]] | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.seed = seed
        self.threads = threads
        #: The actions seen at the table (the session's ``.observe``), which reweight the ranges
        #: of simulate statements as their ``history`` does.
        self.observations = observations or (lambda: ())
        #: The Monte Carlo heatmap's budget: it stops at this many deals, or sooner once every
        #: class's 95% margin is at most ``heat_precision`` (None: runs all its deals).
        self.heat_trials = HEATMAP_TRIALS
        self.heat_precision: float | None = HEATMAP_PRECISION
        self.edit = RangeEdit("holdem")
        self.player: str | None = None
        self.statement = 0
        #: The query text last seen, and the player's range setting in it.
        self._query = ""
        self._clause: FromClause | None = None
        #: The range text last read from or written to the query (no re-read of our own writes).
        self._range_text: str | None = None
        self.problem: str | None = None
        self.snapshot: HeatmapSnapshot | None = None
        self._heatmap: Heatmap | None = None
        self._heat_inputs: HeatInputs | None = None
        self._heat_run = 0
        self.heat_error: str | None = None
        self.facts: Breakdown | None = None
        self._board_key: tuple[str, str, str | None] | None = None
        self.lines: list[Category] = []
        self.category: int | None = None
        #: What each part of the panel shows now (to skip updates that change nothing).
        self._drawn: dict[str, object] = {}
        #: In a simulate statement whose actions reweight the range: each class's mean weight
        #: after reweighting (None: no hand of it in the range), the inputs it was worked out
        #: for, and whether the grid shows them (``w``) rather than equities.
        self.reweighted: list[float | None] | None = None
        self._weights_key: tuple[object, ...] | None = None
        self.view_weights = False
        #: A description of the actions that reweight the range (``villain raise on flop``).
        self.reweighted_by = ""

    def compose(self) -> ComposeResult:
        yield Static("", id="explorer-title")
        yield RangeGrid(self, id="grid")
        yield Static("", id="explorer-cell")
        yield Static("", id="explorer-totals")
        yield Static("", id="explorer-legend")
        yield Static("", id="explorer-breakdown")

    @property
    def grid(self) -> RangeGrid:
        return self.query_one(RangeGrid)

    # -- binding to the query -----------------------------------------------------------------

    def bind(self, player: str, statement: int, query: str) -> None:
        """Explore ``player`` of statement ``statement`` (counting the statements of ``query``)."""
        self.player = player
        self.statement = statement
        self._range_text = None
        self.category = None
        self.sync(query, fresh=True)

    def sync(self, query: str, *, fresh: bool = False) -> None:
        """The query text changed (or is new): read the player's range and the heatmap's inputs."""
        self._query = query
        clause = clause_of(query, self.player or "", self.statement)
        self._clause = clause
        setting = clause.player(self.player or "") if clause else None
        if clause is None or setting is None:
            self.problem = f"no player '{self.player}' in the query"
            self._refresh_all()
            return
        self.statement = clause.index
        game, ordering = clause.game, clause.value("ordering")
        try:
            if fresh or game != self.edit.game or ordering != self.edit.ordering:
                edit = RangeEdit(game, ordering)
                self.edit = edit
                self._range_text = None
            if setting.value != self._range_text:
                self.edit.load(
                    setting.value, clause.value("syntax"), record=not fresh and self._range_text is not None
                )
                self._range_text = setting.value
            self.problem = None
        except PqlError as e:
            self.problem = str(e).splitlines()[0]
        self._update_heatmap(clause)
        self._update_breakdown(clause)
        self._update_weights(clause, fresh=fresh)
        self._send_focus()
        self._refresh_all()

    def _write_back(self) -> None:
        """The grid changed the range: tell the app the text to put in the query."""
        clause = self._clause
        setting = clause.player(self.player or "") if clause else None
        if setting is None:
            return
        text = self.edit.text()
        self._range_text = text
        self.problem = None if text else "the range is empty: the query needs at least one hand"
        self.post_message(RangeEdited(text, setting.start, setting.end))
        self._send_focus()
        self._refresh_all()

    # -- actions --------------------------------------------------------------------------------

    def cursor_moved(self) -> None:
        self._refresh_all()

    async def act(self, action: str) -> None:
        """One of the grid's keys: ``toggle``, ``weight(3)``..."""
        name, _, arg = action.partition("(")
        arg = arg.rstrip(")")
        grid = self.grid
        edit = self.edit
        changed = False
        if name == "toggle":
            changed = edit.toggle(grid.selection())
        elif name == "widen":
            changed = edit.widen()
        elif name == "narrow":
            changed = edit.narrow()
        elif name == "weight":
            digit = int(arg)
            changed = edit.set_weight(grid.selection(), digit * 10)
        elif name == "undo":
            changed = edit.undo()
        elif name == "redo":
            changed = edit.redo()
        elif name == "clear":
            changed = edit.clear()
        elif name == "invert":
            changed = edit.invert()
        elif name == "category":
            self._move_category(int(arg))
        elif name == "weigh":
            self._weigh(grid.selection())
        elif name == "suits":
            self._pick_suits()
        elif name == "save":
            self._save()
        elif name == "open":
            self._open()
        elif name == "weights":
            self._toggle_weights()
        elif name == "close":
            self.post_message(ExplorerClosed())
        if changed:
            self._write_back()

    def _weigh(self, selection: list[int]) -> None:
        def chosen(weight: int | None) -> None:
            if weight is not None and self.edit.set_weight(selection, weight):
                self._write_back()

        self.app.push_screen(WeightPrompt(), chosen)

    def _move_category(self, step: int) -> None:
        if not self.lines:
            return
        if self.category is None:
            self.category = 0 if step > 0 else len(self.lines) - 1
        else:
            self.category = (self.category + step) % (len(self.lines) + 1)
            if self.category == len(self.lines):
                self.category = None  # past the end: no highlight
        self._refresh_all()

    def _pick_suits(self) -> None:
        classes = self.edit.classes
        cls = classes.cell(*self.grid.cursor)
        hands = [(h, classes.hands[h], self.edit.weights[h]) for h in classes.combos[cls]]

        def chosen(result: dict[int, int] | None) -> None:
            if result is not None and self.edit.set_hands(result):
                self._write_back()

        self.app.push_screen(SuitPicker(classes.names[cls], hands), chosen)

    def _save(self) -> None:
        text = self.edit.text()
        if not text:
            self.app.notify("the range is empty: nothing to save", severity="warning")
            return

        def chosen(name: str | None) -> None:
            if name:
                try:
                    named_ranges.store(name, text)
                except OSError as e:
                    self.app.notify(f"cannot save: {e}", severity="error")
                    return
                self.app.notify(f"saved ${name.removeprefix('$')} = {text}")

        self.app.push_screen(NamePrompt(), chosen)

    def _open(self) -> None:
        stored = named_ranges.load()
        if not stored:
            self.app.notify("no named ranges yet: n saves one, or .define $name 'RANGE'", severity="warning")
            return

        def chosen(name: str | None) -> None:
            if name is None:
                return
            try:
                self.edit.load(
                    f"${name}", self._clause.value("syntax") if self._clause else None, record=True
                )
            except PqlError as e:
                self.app.notify(str(e).splitlines()[0], severity="error")
                return
            self._write_back()

        self.app.push_screen(NamedRangeList(stored), chosen)

    # -- the heatmap ------------------------------------------------------------------------------

    def _update_heatmap(self, clause: FromClause) -> None:
        villains = tuple(p.value for p in clause.players if p.key.lower() != (self.player or "").lower())
        inputs = HeatInputs(
            clause.game,
            villains,
            clause.value("board"),
            clause.value("dead"),
            clause.value("syntax"),
            clause.value("ordering"),
        )
        if inputs == self._heat_inputs:
            return
        self._heat_inputs = inputs
        self.stop_heatmap()
        self.snapshot = None
        self.heat_error = None
        if not villains:
            self.heat_error = "no other player: the heatmap needs someone to play against"
            return
        try:
            heatmap = Heatmap(
                inputs.game,
                list(villains),
                board=inputs.board,
                dead=inputs.dead,
                syntax=inputs.syntax,
                ordering=inputs.ordering,
                trials=self.heat_trials,
                seed=self.seed,
                threads=self.threads,
                precision=self.heat_precision,
            )
        except PqlError as e:
            self.heat_error = str(e).splitlines()[0]
            return
        self._heatmap = heatmap
        self._heat_run += 1
        self._send_focus()
        self._poll_heatmap(self._heat_run, heatmap)

    def _send_focus(self) -> None:
        if self._heatmap is not None:
            self._heatmap.set_focus(self.edit.weights)

    def stop_heatmap(self) -> None:
        if self._heatmap is not None:
            self._heatmap.cancel()
            self._heatmap = None

    @work(thread=True, group="heatmap")
    def _poll_heatmap(self, run: int, heatmap: Heatmap) -> None:
        relay_snapshots(self, run, heatmap, HeatmapUpdate)

    def on_heatmap_update(self, message: HeatmapUpdate) -> None:
        if message.run != self._heat_run:
            return  # an older heatmap's last words
        if message.error:
            self.heat_error = message.error
        elif message.snapshot is not None:
            self.snapshot = message.snapshot
        self._refresh_all()

    # -- the weights after reweighting ---------------------------------------------------------

    def _update_weights(self, clause: FromClause, *, fresh: bool) -> None:
        """In a simulate statement with a ``history`` or observed actions, the player's weights
        after them (in a thread: reweighting a wide range takes a while); the grid shows them
        when the explorer opens on such a statement."""
        statement = self._query[clause.start : clause.end]
        observed = tuple(self.observations())
        simulate = statement.lstrip().lower().startswith("simulate")
        if not simulate or not (clause.value("history") or observed):
            self._weights_key = None
            self.reweighted = None
            self.view_weights = False
            return
        if fresh:
            self.view_weights = True
        key = (statement, self.player, observed)
        if key == self._weights_key:
            return
        self._weights_key = key
        self.reweighted_by = _actions_text(clause.value("history"), observed, self.player or "")
        self._reweigh(key, statement, self.player or "", observed)

    @work(thread=True, group="weights", exclusive=True)
    def _reweigh(
        self, key: tuple[object, ...], statement: str, player: str, observed: tuple[tuple[str, str, str], ...]
    ) -> None:
        self.post_message(WeightsUpdate(key, reweighted_classes(statement, player, observed)))

    def on_weights_update(self, message: WeightsUpdate) -> None:
        if message.key != self._weights_key:
            return  # inputs that changed since
        self.reweighted = message.weights
        self._refresh_all()

    def _toggle_weights(self) -> None:
        if self._weights_key is None:
            self.app.notify(
                "no actions reweight this range: a simulate statement's history= or .observe does",
                severity="warning",
            )
            return
        self.view_weights = not self.view_weights
        self._refresh_all()

    @property
    def showing_weights(self) -> bool:
        """Whether the grid shows weights after reweighting rather than equities."""
        return self.view_weights and self._weights_key is not None

    def shown_weight(self, cls: int) -> float | None:
        """Class ``cls``'s weight after reweighting as a share of the heaviest class's, when the
        grid shows weights; None otherwise or when no hand of the class is in the range."""
        if not self.showing_weights or not self.reweighted:
            return None
        w = self.reweighted[cls]
        heaviest = max((x for x in self.reweighted if x is not None), default=0.0)
        return None if w is None else (w / heaviest if heaviest > 0 else 0.0)

    # -- the breakdown ----------------------------------------------------------------------------

    def _update_breakdown(self, clause: FromClause) -> None:
        board = clause.value("board")
        key = (clause.game, board or "", clause.value("dead"))
        if key == self._board_key:
            return
        self._board_key = key
        self.facts = None
        self.lines = []
        self.category = None
        if not board:
            return
        try:
            self.facts = breakdown(clause.game, board, clause.value("dead"))
        except PqlError:
            return  # a pattern or a short board: no breakdown
        self.lines = categories(self.facts)

    def highlighted_classes(self) -> set[int]:
        """The classes holding range hands of the selected breakdown category."""
        if self.category is None or not self.lines:
            return set()
        line = self.lines[self.category]
        class_of = self.edit.classes.class_of
        return {class_of[h] for h in line.hands if self.edit.weights[h]}

    def category_counts(self) -> list[tuple[Category, float, float]]:
        """Each breakdown line with the range's hands in it (counted by weight) and their share of
        the range's hands the board leaves possible."""
        assert self.facts is not None
        weights = self.edit.weights
        alive = sum(w for h, w in enumerate(weights) if self.facts.hands[h] is not None) / FULL
        out = []
        for line in self.lines:
            combos = sum(weights[h] for h in line.hands) / FULL
            out.append((line, combos, combos / alive if alive else 0.0))
        return out

    # -- drawing ------------------------------------------------------------------------------

    def refresh_lines(self) -> None:
        """Draw the panel's lines (the grid draws itself when refreshed)."""
        self._refresh_all()

    def _refresh_all(self) -> None:
        if not self.is_mounted:
            return
        grid = self.grid
        size = (grid.size_n, grid.size_n)
        grid.refresh(layout=size != self._drawn.get("grid"))  # a new game changes its size
        self._drawn["grid"] = size
        for name, text in (
            ("title", self._title()),
            ("cell", self._cell_info()),
            ("totals", self._totals()),
            ("legend", self._legend()),
            ("breakdown", self._breakdown()),
        ):
            # Only what changed is updated, and laid out again only when its height changes:
            # a layout pass redraws the whole screen, too slow for every key and snapshot.
            if self._drawn.get(name) != text:
                static = self.query_one(f"#explorer-{name}", Static)
                width = static.content_size.width
                height = text_height(text, width) if width else None
                previous = self._drawn.get(f"{name} height")
                self._drawn[name] = text
                self._drawn[f"{name} height"] = height
                static.update(text, layout=height is None or height != previous)

    def _title(self) -> Text:
        title = Text(f"{self.player or ''}'s range ({self.edit.game})", style="bold")
        if self.problem:
            title.append(f"\n{self.problem}", style="red")
        return title

    def _cell_info(self) -> Text:
        classes = self.edit.classes
        cls = classes.cell(*self.grid.cursor)
        name = classes.names[cls]
        combos = classes.combos[cls]
        held = sum(1 for h in combos if self.edit.weights[h])
        out = Text(f"{name:<4}", style="bold")
        eq = self.snapshot.classes[cls] if self.snapshot else None
        if self.showing_weights:
            w = self.reweighted[cls] if self.reweighted else None
            out.append(" not in the range" if w is None else f" weight {w:.3g} after reweighting")
        elif eq is not None:
            margin = f" ± {1.96 * eq[1] * 100:.1f}" if eq[1] else " exact"
            out.append(f" equity {eq[0] * 100:.1f}%{margin}")
        out.append(f"  {held}/{len(combos)} hands")
        weights = sorted({w for h in combos if (w := self.edit.weights[h])})
        if weights and weights != [FULL]:
            out.append(" @" + "/".join(map(str, weights)))
        if self.facts is not None:
            types: dict[str, int] = {}
            draws: dict[str, int] = {}
            for h in combos:
                f = self.facts.hands[h]
                if f is None:
                    continue
                types[f.hand_type] = types.get(f.hand_type, 0) + 1
                for d in f.draws:
                    draws[d] = draws.get(d, 0) + 1
            parts = [f"{TYPE_LABELS.get(k, k)} {v}" for k, v in types.items()]
            parts += [f"{TYPE_LABELS.get(k, k)} {v}" for k, v in draws.items()]
            if parts:
                out.append("\non the board: " + ", ".join(parts), style="dim")
        return out

    def _totals(self) -> Text:
        t = self.edit.totals()
        out = Text(f"{t.combos} hands, {t.share * 100:.1f}% of {t.total}, weighted {t.weighted:g}")
        snap = self.snapshot
        if snap is not None and snap.focus is not None:
            eq, se = snap.focus
            out.append(f"\nrange equity {eq * 100:.1f}%" + (f" ± {1.96 * se * 100:.1f}" if se else " exact"))
        return out

    def _legend(self) -> Text:
        if self.showing_weights:
            return self._weights_legend()
        if self.heat_error:
            return Text(self.heat_error, style="yellow")
        snap = self.snapshot
        if snap is None:
            return Text("equity: computing…", style="dim")
        out = Text("equity ")
        for e in (0.0, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0):
            out.append(f"{int(e * 100):>3} ", Style(color="black", bgcolor=equity_colour(e)))
        how = "exact" if snap.exact else f"{snap.trials:,} deals"
        state = "" if snap.done else f" {snap.progress * 100:.0f}%…" if snap.exact else " refining…"
        out.append(f" {how}{state}", style="dim")
        return out

    def _weights_legend(self) -> Text:
        if self.reweighted is None:
            return Text("weights after reweighting: computing…", style="dim")
        heaviest = max((x for x in self.reweighted if x is not None), default=0.0)
        out = Text("weight ")
        for share in (0.0, 0.25, 0.5, 0.75, 1.0):
            out.append(f"{share * heaviest:>5.3g} ", Style(color="black", bgcolor=weight_colour(share)))
        out.append(f" after {self.reweighted_by} (w: equity)", style="dim")
        return out

    def _breakdown(self) -> Text:
        if self.facts is None:
            return Text("")
        out = Text("on the board ([ and ] highlight):\n", style="bold")
        for i, (line, combos, share) in enumerate(self.category_counts()):
            style = Style(reverse=True) if i == self.category else Style()
            out.append(f"{line.label:<16}{combos:>7g} {share * 100:5.1f}%\n", style)
        return out

    def on_unmount(self) -> None:
        self.stop_heatmap()


def _actions_text(history: str | None, observed: Sequence[tuple[str, str, str]], player: str) -> str:
    """The actions that reweight ``player``'s range, for the legend: ``raise on flop, call on
    turn`` (the statement's history, then what was observed)."""
    actions: list[str] = []
    for item in (history or "").split(","):
        who, _, act = item.strip().partition(":")
        action, _, street = act.partition("@")
        if who.strip().lower() == player.lower() and action:
            actions.append(f"{action.strip()} on {street.strip()}")
    actions += [f"{a} on {st}" for p, a, st in observed if p.lower() == player.lower()]
    return ", ".join(actions) if actions else "the other players' actions"
