"""What the Textual app tests share: an app on a fresh session, and waits on conditions (never
on the clock: the deadline only keeps a hung test from hanging the suite)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable

from pql_repl.files.history import History
from pql_repl.session.session import Session
from pql_repl.tui.app import PqlApp


def make_app(**settings: Any) -> PqlApp:
    session = Session()
    for key, value in settings.items():
        session.settings.apply(key, value)
    return PqlApp(session, History())


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.05)


async def set_text(pilot: Pilot[Any], app: PqlApp, text: str) -> None:
    """Put ``text`` in the editor, the cursor at its end and the focus in it."""
    app.editor.load_text(text)
    app.editor.move_cursor(app.editor.document.end)
    app.editor.focus()
    await pilot.pause()


async def type_text(pilot: Pilot[Any], text: str) -> None:
    """Type ``text`` key by key, as a user does (a newline is Enter)."""
    for ch in text:
        await pilot.press("enter" if ch == "\n" else ch)
    await pilot.pause()


async def run_text(pilot: Pilot[Any], app: PqlApp, text: str, done: Callable[[], bool]) -> None:
    """Put ``text`` in the editor, run it with F5 and wait until ``done()``."""
    await set_text(pilot, app, text)
    await pilot.press("f5")
    await wait_until(pilot, done)


def cells(app: PqlApp) -> dict[str, list[str]]:
    table: DataTable[str] = app.results.table
    return {str(key.value): [str(c) for c in table.get_row(key)] for key in table.rows}


def finished(app: PqlApp, count: int = 1) -> Callable[[], bool]:
    """A condition: ``count`` statements have finished and nothing runs."""
    return lambda: len(app.results.finished) >= count and not app.running
