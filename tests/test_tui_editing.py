"""Typing in the app's editor as a user does: Enter never takes a completion nobody asked for."""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import make_app, set_text, type_text, wait_until
from rich.table import Table

from pql_repl.files.history import load_buffer


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "no-config.toml"))
    return tmp_path / "data"


SIZE = (110, 36)
FROM = "select avg(riverEquity(hero)) from hero='AA', villain='KK'"


@pytest.mark.asyncio
async def test_enter_after_a_closing_quote_breaks_the_line_and_keeps_the_text() -> None:
    app = make_app(trials=1000)
    async with app.run_test(size=SIZE) as pilot:
        # The start as loaded text, the end typed key by key (where the menu used to open).
        await set_text(pilot, app, FROM[: -len(", villain='KK'")])
        await type_text(pilot, ", villain='KK'")
        # No menu opens by itself after a closing quote (it offered `where`, and Enter took it).
        assert not app.editor.completing
        await pilot.press("enter")
        assert app.editor.text == FROM + "\n"
        await type_text(pilot, "where pairedBoard(flop)")
        assert not app.editor.completing  # nor after `)`
        await pilot.press("enter")
        assert app.editor.text == FROM + "\nwhere pairedBoard(flop)\n"
    # What was typed, not a corrupted text, is the buffer of the next start.
    assert load_buffer() == FROM + "\nwhere pairedBoard(flop)\n"


@pytest.mark.asyncio
async def test_enter_runs_a_range_command_ending_in_a_quote() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, ".range holdem 'QQ+, AKs'")
        assert not app.editor.completing
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: any(isinstance(e.content, Table) for e in app.query(".history-entry"))
        )
        assert app.editor.text == ".range holdem 'QQ+, AKs'"
        assert "22 hands" in str(app.query(".history-entry").first().content)


@pytest.mark.asyncio
async def test_a_menu_that_opened_by_itself_takes_enter_only_after_the_user_moves_into_it() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = app.editor
        await type_text(pilot, "select avg(riverEq")
        assert editor.completing
        await pilot.press("enter")  # nobody chose anything: a new line
        assert editor.text == "select avg(riverEq\n"
        assert not editor.completing
        await pilot.press("backspace")
        await type_text(pilot, "u")
        assert editor.completing
        await pilot.press("down", "enter")  # moved into the menu: Enter takes its entry
        assert editor.text == "select avg(riverEquity"
        # Asked for with Tab or Ctrl+Space, the first entry is chosen and Enter takes it.
        await set_text(pilot, app, editor.text + "(hero)) from hero='AA' where winsH")
        await pilot.press("escape", "ctrl+space", "enter")
        assert editor.text.endswith("where winsHi")


@pytest.mark.asyncio
async def test_enter_after_a_semicolon_always_runs() -> None:
    app = make_app(trials=1000, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await set_text(pilot, app, FROM[:-2])
        await type_text(pilot, "K';")
        assert not app.editor.completing
        await pilot.press("tab")  # even with a menu asked for after the `;`
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app.results.finished) and not app.running)
        assert app.editor.text.startswith(FROM + ";")
        assert app.results.finished[-1].trials == 1000
