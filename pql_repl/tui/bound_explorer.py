"""What the Omaha and stud explorers share: an editor of one player's range bound both ways to
the query in the editor. ``bind``/``sync`` read the player's range from its from clause into the
explorer's own value (a list of terms, a row of card slots), every edit writes the value's text
back in place (``RangeEdited``) and can be undone; the subclass says how a text is read and
written and what is counted."""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from textual.containers import Vertical

from pql_repl.session.from_clause import FromClause, clause_of
from pql_repl.tui.explorer_messages import RangeEdited

#: The explorer's own value of the range.
V = TypeVar("V")


class BoundExplorer(Vertical, Generic[V]):
    """One player's range (``bind``) as the explorer's value ``edited``."""

    #: The game when the query names none.
    DEFAULT_GAME: ClassVar[str]

    def __init__(self, edited: V, *, seed: int = 0, id: str | None = None) -> None:
        super().__init__(id=id)
        self.seed = seed
        self.player: str | None = None
        self.statement = 0
        self.edited = edited
        self._undo: list[V] = []
        self._redo: list[V] = []
        self._clause: FromClause | None = None
        #: The text of the range the value was read from or last written as.
        self._range_text: str | None = None
        self.problem: str | None = None

    @property
    def game(self) -> str:
        return self._clause.game if self._clause else self.DEFAULT_GAME

    # -- what a subclass says -------------------------------------------------------------------

    def read(self, text: str) -> V:
        """The explorer's value of the range ``text`` (may set ``problem``)."""
        raise NotImplementedError

    def written(self) -> str:
        """The range text of ``edited``."""
        raise NotImplementedError

    def _recount(self) -> None:
        """Start counting what ``_range_text`` holds."""
        raise NotImplementedError

    def _refresh_all(self) -> None:
        raise NotImplementedError

    # -- binding to the query -------------------------------------------------------------------

    def bind(self, player: str, statement: int, query: str) -> None:
        self.player = player
        self.statement = statement
        self._range_text = None
        self._undo.clear()
        self._redo.clear()
        self.sync(query)

    def sync(self, query: str) -> None:
        """The query text changed (or is new): read the player's range again when it differs."""
        name = self.player or ""
        clause = clause_of(query, name, self.statement)
        self._clause = clause
        setting = clause.player(name) if clause else None
        if clause is None or setting is None:
            self.problem = f"no player '{self.player}' in the query"
            self._refresh_all()
            return
        self.statement = clause.index
        self.problem = None
        if setting.value != self._range_text:
            self._range_text = setting.value
            self.edited = self.read(setting.value)
            self._recount()
        self._refresh_all()

    def _write_back(self) -> None:
        """The value changed: put its text in the query, in place of the player's range."""
        setting = self._clause.player(self.player or "") if self._clause else None
        if setting is None:
            return
        text = self.written()
        self._range_text = text
        self.problem = None
        self.post_message(RangeEdited(text, setting.start, setting.end))
        self._recount()
        self._refresh_all()

    # -- editing -------------------------------------------------------------------------------

    def _change(self, edited: V) -> None:
        """Make ``edited`` the value, as one step undo can take back."""
        if edited == self.edited:
            return
        self._undo.append(self.edited)
        self._redo.clear()
        self.edited = edited
        self._write_back()

    def _undo_step(self) -> None:
        if self._undo:
            self._redo.append(self.edited)
            self.edited = self._undo.pop()
            self._write_back()

    def _redo_step(self) -> None:
        if self._redo:
            self._undo.append(self.edited)
            self.edited = self._redo.pop()
            self._write_back()
