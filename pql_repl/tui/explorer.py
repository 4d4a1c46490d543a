"""The range explorer: a player's range of the query as a 13x13 grid the keyboard edits, bound
both ways to the range in the editor, coloured by each class's equity against the other players
(computing in the background, refining while the user works), with the range's totals and, when
the query has a board, how the range hits it.

The panel knows nothing of the editor: it is told the query's text (``sync``) and says what the
range became (``RangeEdited``); the app moves text between them."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from pql_repl.api.catalogue import weight_text
from pql_repl.api.exploration import (
    Breakdown,
    Heatmap,
    HeatmapSnapshot,
    breakdown,
    range_equity,
    reweighted_classes,
)
from pql_repl.api.numbers import format_weight
from pql_repl.base.errors import PqlError
from pql_repl.editors.range_edit import FULL, RangeEdit
from pql_repl.files import named_ranges
from pql_repl.session.from_clause import FromClause, clause_of
from pql_repl.tui.explorer_dialogs import NamedRangeList, NamePrompt, SuitPicker, WeightPrompt
from pql_repl.tui.explorer_grid import (
    TYPE_LABELS,
    Category,
    RangeGrid,
    categories,
    equity_colour,
    text_height,
    weight_colour,
)
from pql_repl.tui.explorer_messages import (
    ExplorerClosed,
    HeatInputs,
    HeatmapUpdate,
    RangeEdited,
    WeightsUpdate,
    actions_text,
)
from pql_repl.tui.live_job import LiveJob

#: The Monte Carlo heatmap stops once every class's 95% margin is this small...
HEATMAP_PRECISION = 0.005
#: ... or after this many deals.
HEATMAP_TRIALS = 50_000_000


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
        self.heat: LiveJob[Heatmap] = LiveJob(self, HeatmapUpdate, "heatmap")
        self._heat_inputs: HeatInputs | None = None
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
        # The grid and its lines: one above the other, or side by side when the explorer sits
        # below the editor (a narrow screen: app.tcss).
        with Horizontal(id="explorer-body"):
            yield RangeGrid(self, id="grid")
            with Vertical(id="explorer-lines"):
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
        elif name in ("copy", "copy_pio"):
            self._copy(pio=name == "copy_pio")
        elif name == "close":
            self.post_message(ExplorerClosed())
        if changed:
            self._write_back()

    def _copy(self, *, pio: bool) -> None:
        """The range to the clipboard (OSC 52), in pql's form or in PioSolver's and GTO
        Wizard's (``AA,KK:0.5``), which Equilab, Flopzilla and GTO+ users paste too."""
        text = self.edit.pio_text() if pio else self.edit.text()
        if not text:
            self.app.notify("the range is empty: nothing to copy", severity="warning")
            return
        self.app.copy_to_clipboard(text)
        shown = text if len(text) <= 60 else text[:59] + "…"
        self.app.notify(f"copied in {'Pio' if pio else 'pql'}'s form: {shown}")

    def _weigh(self, selection: list[int]) -> None:
        def chosen(weight: float | None) -> None:
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

        def chosen(result: dict[int, float] | None) -> None:
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
        self.heat.start(heatmap)
        self._send_focus()

    def _send_focus(self) -> None:
        """The heatmap is told the range as it is now, for the range's own equity."""
        if self.heat.job is not None:
            self.heat.job.set_focus(self.edit.weights)
            self._refocus()

    def _refocus(self) -> None:
        """A finished heatmap is polled by no one any more: the range's equity of a range that
        changed since is asked of it here (it answers at once, from the deals it made)."""
        job, snap = self.heat.job, self.snapshot
        if job is None or snap is None or not snap.done or snap.focus_of == tuple(self.edit.weights):
            return
        try:
            fresh = job.poll(0)
        except PqlError as e:
            self.heat_error = str(e).splitlines()[0]
            return
        if fresh is not None:
            self.snapshot = fresh

    def stop_heatmap(self) -> None:
        self.heat.stop()

    def on_heatmap_update(self, message: HeatmapUpdate) -> None:
        if not self.heat.is_current(message):
            return  # an older heatmap's last words
        if message.error:
            self.heat_error = message.error
        elif message.snapshot is not None:
            self.snapshot = message.snapshot
            self._refocus()  # the last snapshot may be of the range before the last edit
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
        self.reweighted_by = actions_text(clause.value("history"), observed, self.player or "")
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
            out.append(" @" + "/".join(map(weight_text, weights)))
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
        weighted = format_weight(t.weighted)
        out = Text(f"{t.combos} hands, {t.share * 100:.1f}% of {t.total}, weighted {weighted}")
        line = self._range_equity()
        if line:
            out.append(f"\n{line}")
        return out

    def _range_equity(self) -> str:
        """The range's own equity against the other players, with its 95% margin: always of the
        range as it is now (while a new snapshot is on its way, it says so)."""
        snap = self.snapshot
        if snap is None or self.heat_error or not any(self.edit.weights):
            return ""
        if snap.exact and not snap.done:
            return f"range equity: computing… {snap.progress * 100:.0f}%"
        found = range_equity(snap, self.edit.weights, self.edit.classes)
        if found is None:
            return "range equity: updating…" if snap.focus_of != tuple(self.edit.weights) else ""
        eq, se = found
        if snap.exact:
            margin = " exact"
        elif math.isfinite(se):
            points = 1.96 * se * 100
            margin = f" ± {points:.1f}" if points >= 0.1 else f" ± {points:.2f}"  # not a bare 0.0
        else:
            margin = " ± ?"  # no deal yet for a class of the range
        return f"range equity {eq * 100:.1f}%{margin}"

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
