"""The app's state that every part of it reads: the session, the history, the editor's saved text,
the run in progress, and the widgets the parts reach for (the editor, the results, the explorers)."""

from __future__ import annotations

import threading

from textual.app import App
from textual.reactive import reactive
from textual.timer import Timer

from pql_repl.api.run import Query
from pql_repl.files.history import History, SavedBuffer
from pql_repl.session.session import Session
from pql_repl.tui.editor import QueryEditor
from pql_repl.tui.explorer import ExplorerPanel
from pql_repl.tui.results import ResultsPanel
from pql_repl.tui.stud_explorer import StudExplorer
from pql_repl.tui.term_explorer import TermExplorer


class AppCore(App[None]):
    """What the parts of the app (``run_control``, ``explorer_host``, ``views``, ``export``) share."""

    #: A run is in progress; the footer offers Cancel only then (``check_action``).
    running: reactive[bool] = reactive(False, repaint=False, bindings=True)

    def __init__(self, session: Session | None = None, history: History | None = None) -> None:
        super().__init__()
        self.session = session or Session.from_config()
        self.session.interactive = True
        self.history = history or History(size=self.session.settings.history_size)
        self._run_id = 0
        #: The editor's statements the run in progress ran (``QueryEditor.ran``).
        self._run_keys: set[tuple[str, int]] = set()
        #: `.plot`: open the chart when the run it started ends, titled so (None: no chart).
        self._chart_when_done: str | None = None
        self._query: Query | None = None
        self._check_timer: Timer | None = None
        #: Where the editor's text is kept for the next start (safe with other windows).
        self.saved_buffer = SavedBuffer()
        #: The editor's text, kept as it changes, to be saved when the app ends.
        self._buffer = self.saved_buffer.text
        #: Saves of the buffer happen in the checker's threads: the newest text must win.
        self._buffer_lock = threading.Lock()
        self._buffer_saves = 0
        self._buffer_saved = 0
        self.session.themes = tuple(self.available_themes)
        if self.session.settings.theme and self.session.settings.theme in self.available_themes:
            self.theme = self.session.settings.theme

    @property
    def editor(self) -> QueryEditor:
        return self.query_one("#editor", QueryEditor)

    @property
    def results(self) -> ResultsPanel:
        return self.query_one("#results", ResultsPanel)

    @property
    def explorer(self) -> ExplorerPanel:
        """The grid explorer (hold'em, short deck)."""
        return self.query_one("#explorer", ExplorerPanel)

    @property
    def term_explorer(self) -> TermExplorer:
        """The term-list explorer (Omaha)."""
        return self.query_one("#terms", TermExplorer)

    @property
    def stud_explorer(self) -> StudExplorer:
        """The stud picker (stud, stud8, razz)."""
        return self.query_one("#stud", StudExplorer)
