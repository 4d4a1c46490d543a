"""Opening and closing the range explorers from the editor: the grid (hold'em, short deck), Omaha's
terms and the stud picker, on the player at the cursor; their edits written back into the editor."""

from __future__ import annotations

from pql_repl.api.catalogue import game_streets
from pql_repl.api.exploration import hand_classes
from pql_repl.base.errors import PqlError
from pql_repl.session.from_clause import clause_at, from_clauses, player_at
from pql_repl.tui.app_core import AppCore
from pql_repl.tui.explorer_messages import ExplorerClosed, RangeEdited


class ExplorerHost(AppCore):
    """F2 and the explorers' messages, and where an explorer goes: beside the editor on a wide
    screen, in the results' place below it on a narrow one (the screen's class ``-narrow``
    under 120 columns, ``-exploring`` while an explorer is open: ``app.tcss``)."""

    # App declares it an attribute (its ClassVar is inside a union, which mypy does not read).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]  # noqa: RUF012

    def action_explore(self) -> None:
        """F2: in the editor, explore the range of the player at the cursor; elsewhere (the
        results, the explorer), back to the editor. A completion menu open in the editor closes
        either way (it would stay drawn over the explorer)."""
        self.editor.hide_completions()
        if self.editor.has_focus:
            self.open_explorer()
        else:
            self.editor.focus()

    def open_explorer(self, player: str | None = None) -> bool:
        """Open the explorer on ``player`` (None: the player at the editor's cursor) of the
        statement at the cursor (else the first statement that has the player)."""
        text, at = self.editor.text, self.editor.cursor_offset
        clause = clause_at(text, at)
        if player is not None and (clause is None or clause.player(player) is None):
            clause = next((c for c in from_clauses(text) if c.player(player)), None)
        setting = None
        if clause is not None:
            setting = clause.player(player) if player is not None else player_at(clause, at)
        if clause is None or setting is None:
            where = f"no player '{player}' in the editor's queries" if player else "no player at the cursor"
            self.notify(f"{where}: the explorer opens on a player's range (hero='AKs')", severity="warning")
            return False
        self.close_explorers()
        self.editor.screen.add_class("-exploring")
        if is_stud(clause.game):
            self.stud_explorer.display = True
            self.stud_explorer.bind(setting.key, clause.index, text)
            self.stud_explorer.slot_row.focus()
            return True
        try:
            hand_classes(clause.game)
        except PqlError:  # not a two-card game: Omaha's list of terms
            self.term_explorer.display = True
            self.term_explorer.bind(setting.key, clause.index, text)
            self.term_explorer.term_list.focus()
            return True
        self.explorer.display = True
        self.explorer.bind(setting.key, clause.index, text)
        self.explorer.grid.focus()
        return True

    def close_explorers(self) -> None:
        self.explorer.stop_heatmap()
        self.explorer.display = False
        self.term_explorer.stop_distribution()
        self.term_explorer.display = False
        self.stud_explorer.display = False
        self.editor.screen.remove_class("-exploring")

    def on_range_edited(self, message: RangeEdited) -> None:
        """The grid changed the range: it replaces the player's range in the editor."""
        editor = self.editor
        editor.replace(message.text, editor.location_of(message.start), editor.location_of(message.end))

    def on_explorer_closed(self, _: ExplorerClosed) -> None:
        self.close_explorers()
        self.editor.focus()


def is_stud(game: str) -> bool:
    """Stud games have no board: their ranges are pickers of down and up cards."""
    return "third" in game_streets().get(game.lower(), [])
