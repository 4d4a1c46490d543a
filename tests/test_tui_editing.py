"""Typing in the app's editor as a user does: Enter never takes a completion nobody asked for."""

from __future__ import annotations

import base64
import re
import time
from pathlib import Path

import pytest
from pilot_helpers import cells, finished, make_app, set_text, type_text, wait_until
from rich.table import Table
from textual.widgets import Static

from pql_repl.api.output import format_table
from pql_repl.files.history import load_buffer, read_entries, save_buffer
from pql_repl.tui.app import PqlApp
from pql_repl.tui.welcome import EXAMPLES


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
            pilot,
            lambda: any(isinstance(e.content, Table) for e in app.query(".history-entry").results(Static)),
        )
        assert app.editor.text == ".range holdem 'QQ+, AKs'\n"  # and a new line opened after it
        assert "22 hands" in str(app.query(".history-entry").first(Static).content)


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


# -- issue 37: Enter runs the statement it ends, once; copying, clearing; the welcome; the buffer --


def statement(name: str, villain: str = "KK") -> str:
    return f"select avg(riverEquity(hero)) as {name} from hero='AA', villain='{villain}';"


def names(app: PqlApp) -> list[str]:
    """The first column's name of each finished result, in the order they ran."""
    return [r.columns[0].name for r in app.results.finished]


@pytest.mark.asyncio
async def test_a_script_typed_top_down_runs_each_statement_once_and_opens_a_new_line() -> None:
    """Enter after each `;` runs that statement only (it used to run the whole editor again,
    every earlier statement with it) and the cursor is on a fresh line for the next."""
    app = make_app(trials=500, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        for i, name in enumerate(("a", "b", "c")):
            await type_text(pilot, statement(name) + "\n")
            await wait_until(pilot, finished(app, i + 1))
            assert app.editor.cursor_location == (i + 1, 0)
            assert app.editor.document.get_line(i + 1) == ""
        await pilot.pause(0.2)
        assert not app.running
        assert names(app) == ["a", "b", "c"]  # each ran once, in order
        assert app._run_id == 3
        assert app.history.entries == [statement("a"), statement("b"), statement("c")]
        assert app.editor.text == "".join(statement(n) + "\n" for n in "abc")


@pytest.mark.asyncio
async def test_enter_after_a_dot_command_runs_it_then_the_next_line_can_be_typed() -> None:
    app = make_app(trials=1000, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, ".trials 500\n")
        assert app.session.settings.trials == 500
        assert app.editor.text == ".trials 500\n"
        assert app.editor.cursor_location == (1, 0)
        await type_text(pilot, statement("a") + "\n")
        await wait_until(pilot, finished(app))
        assert app.editor.text == ".trials 500\n" + statement("a") + "\n"
        assert app.results.finished[-1].trials == 500
        assert app.history.entries == [".trials 500", statement("a")]


@pytest.mark.asyncio
async def test_enter_on_a_statement_that_ran_and_is_unchanged_only_opens_a_line() -> None:
    app = make_app(trials=500, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, statement("a") + "\n")
        await wait_until(pilot, finished(app))
        await pilot.press("backspace", "enter")  # back after the `;`, Enter again
        await pilot.pause(0.2)
        assert app._run_id == 1
        assert not app.running
        assert app.editor.text == statement("a") + "\n"
        assert app.editor.cursor_location == (1, 0)
        # Changed, it runs again; F4 runs it whatever.
        await pilot.press("backspace", "left", "left", "backspace", "backspace")  # KK
        await type_text(pilot, "QQ")
        await pilot.press("end", "enter")
        await wait_until(pilot, finished(app, 2))
        assert app.history.entries[-1] == statement("a", "QQ")
        await pilot.press("up", "f4")
        await wait_until(pilot, finished(app, 3))
        assert app._run_id == 3


@pytest.mark.asyncio
async def test_ctrl_a_selects_all_and_ctrl_c_copies_it_unless_a_run_goes() -> None:
    app = make_app(trials=2_000_000_000, exact="off", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        text = ".trials 500\n" + statement("a")
        await set_text(pilot, app, text)
        await pilot.press("ctrl+a")
        assert app.editor.selected_text == text
        await pilot.press("ctrl+c")
        assert app.clipboard == text  # App.copy_to_clipboard: OSC 52 to the terminal
        # While a run goes, Ctrl+C cancels it (the selection is not copied).
        await set_text(pilot, app, statement("b"))
        await pilot.press("f5")
        await wait_until(pilot, lambda: app.running and app.results.last is not None)
        await pilot.press("ctrl+a", "ctrl+c")
        await wait_until(pilot, lambda: not app.running)
        assert app.results.finished[-1].cancelled
        assert app.clipboard == text


@pytest.mark.asyncio
async def test_f8_copies_the_latest_result_and_ctrl_c_in_the_results_the_row() -> None:
    app = make_app(trials=500, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f8")
        assert app.clipboard == ""  # nothing yet
        await type_text(pilot, statement("eq") + "\n")
        await wait_until(pilot, finished(app))
        await pilot.press("f8")
        result = app.results.finished[-1]
        assert app.clipboard == format_table(result) + "\n"
        assert app.clipboard.startswith("eq ")
        await pilot.press("f6")  # the live table
        assert app.focused is app.results.table
        await pilot.press("ctrl+c")
        name, value, margin = app.clipboard.split("\t")
        assert [name, value, margin] == cells(app)["eq"][:3]  # not the bar
        assert value.startswith("0.")
        assert margin.startswith("± ")


@pytest.mark.asyncio
async def test_ctrl_l_clears_the_results_on_screen_and_exports_keep_them() -> None:
    app = make_app(trials=500, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, statement("a") + "\n" + statement("b") + "\n")
        await wait_until(pilot, finished(app, 2))
        assert app.query(".history-entry")  # the first result, above the live table
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert not app.query(".history-entry")
        assert app.results.table.row_count == 0
        assert "cleared" in str(app.query_one("#status", Static).render())
        assert len(app.results.finished) == 2  # Ctrl+S still writes them
        await type_text(pilot, statement("c") + "\n")
        await wait_until(pilot, finished(app, 3))
        assert not app.query(".history-entry")  # the cleared results do not come back
        assert set(cells(app)) == {"c"}


@pytest.mark.asyncio
async def test_the_first_up_after_a_run_brings_back_the_editors_text() -> None:
    """The history holds what ran (here one statement of two): after the editor was emptied,
    the first Up brings back the whole text it held, then the history's entries."""
    app = make_app(trials=500, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        text = statement("a") + "\n" + statement("b")
        await set_text(pilot, app, text)
        await pilot.press("f4")  # the statement at the cursor: b
        await wait_until(pilot, finished(app))
        assert app.history.entries == [statement("b")]
        await set_text(pilot, app, "")  # emptied to type something new
        await pilot.press("up")
        assert app.editor.text == text
        await pilot.press("up", "up")  # to the first line, then on in the history
        assert app.editor.text == statement("b")
        await pilot.press("down")
        assert app.editor.text == text
        await pilot.press("down")
        assert app.editor.text == ""  # the draft


@pytest.mark.asyncio
async def test_a_restored_editor_takes_digits_as_text_and_the_welcome_says_f6(data: Path) -> None:
    data.mkdir(parents=True, exist_ok=True)
    (data / "buffer.pql").write_text("select avg(riverEquity(hero)) from hero='AA', villain='K")
    app = make_app(trials=500, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        welcome = str(app.query_one(".welcome-text", Static).render())
        assert "Press 1" not in welcome
        assert "F6 then 1, 2 or 3" in welcome
        assert "Enter after a statement's ; runs it once (F5: the whole editor)" in welcome
        await pilot.press("1")
        assert app.editor.text.endswith("villain='K1")
        assert not app.running
        assert app.query(".welcome")
        await pilot.press("f6", "2")  # the examples' own keys
        await wait_until(pilot, finished(app))
        assert app.editor.text == EXAMPLES[1]


@pytest.mark.asyncio
async def test_digits_are_text_once_the_welcome_has_gone() -> None:
    app = make_app(trials=500, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        assert "Press 1, 2 or 3" in str(app.query_one(".welcome-text", Static).render())
        await type_text(pilot, statement("a") + "\n")  # the welcome goes
        await wait_until(pilot, finished(app))
        assert not app.query(".welcome")
        await set_text(pilot, app, "")
        await pilot.press("1")
        await pilot.pause(0.2)
        assert app.editor.text == "1"
        assert not app.running
        assert len(app.results.finished) == 1


@pytest.mark.asyncio
async def test_two_windows_never_overwrite_each_others_saved_text(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both windows load the same saved text; the first to save a change keeps buffer.pql, the
    other keeps its text beside it and says where; a window that changed nothing writes
    nothing."""
    save_buffer("select 0")
    first, second, idle = make_app(), make_app(), make_app()
    async with first.run_test(size=SIZE) as one, second.run_test(size=SIZE) as two:
        assert first.editor.text == second.editor.text == "select 0"
        await set_text(one, first, "select 1 -- first window")
        first.check_now()
        await wait_until(one, lambda: load_buffer() == "select 1 -- first window")
        await set_text(two, second, "select 2 -- second window")
        second.check_now()
        await wait_until(two, lambda: bool(list(data.glob("buffer-*.pql"))))
        (aside,) = data.glob("buffer-*.pql")
        assert aside.read_text() == "select 2 -- second window"
        await wait_until(two, lambda: any(str(aside) in str(n.message) for n in second._notifications))
        # Typing on, each window keeps to its own file.
        await set_text(two, second, "select 22 -- second window")
        await set_text(one, first, "select 11 -- first window")
        await two.press("ctrl+q")
        await one.press("ctrl+q")
    assert load_buffer() == "select 11 -- first window"
    assert aside.read_text() == "select 22 -- second window"
    # Said again when the window closes, after its screen is gone (wrapped to the terminal).
    said = "".join(capsys.readouterr().err.split())
    assert "".join(f"pql: this window's editor text is kept in {aside}".split()) in said
    async with idle.run_test(size=SIZE) as pilot:
        assert idle.editor.text == "select 0"
        await pilot.press("ctrl+q")
    assert load_buffer() == "select 11 -- first window"
    assert len(list(data.glob("buffer-*.pql"))) == 1


def test_a_script_typed_in_a_terminal_runs_statement_by_statement_and_copies_by_osc_52(
    tmp_path: Path,
) -> None:
    """End to end at 80x24, through a pseudo-terminal: a dot-command and two statements typed
    top-down, each followed by Enter, run once each; the cursor waits on a fresh line; Ctrl+A,
    Ctrl+C sends the whole text to the terminal's clipboard (OSC 52)."""
    pytest.importorskip("pyte")
    terminal = pytest.importorskip("terminal")  # tests/terminal.py, the pty harness

    one, two = statement("eq_one"), statement("eq_two", "QQ")
    with terminal.Terminal(tmp_path, columns=80, lines=24, args=["--seed", "1"]) as term:
        term.wait_for("Welcome to pql")
        term.type(".trials 1000\n" + one + "\n")
        term.wait_for(re.compile(r"eq_one +0\.\d+ +± "))
        term.type(two + "\n")
        # Both results done (the footer offers Cancel no more): the first in the history, the
        # second in the live table.
        screen = term.wait_for(
            lambda s: (
                s.count("done · 1,000 trials") == 2
                and re.search(r"eq_two +0\.\d+ +± ", s) is not None
                and "esc Cancel" not in s
            )
        )
        assert "│ 3  " + two in screen
        row, _ = term.cursor
        assert term.line(row).startswith("│ 4 ")  # the cursor on the fresh fourth line
        assert term.line(row)[4:].strip(" │") == ""
        start = len(term.raw())
        term.send("ctrl+a", "ctrl+c")
        text = ".trials 1000\n" + one + "\n" + two + "\n"
        osc = b"\x1b]52;c;" + base64.b64encode(text.encode())
        deadline = time.monotonic() + 30
        while osc not in term.raw()[start:]:
            assert time.monotonic() < deadline, f"no OSC 52 copy of the editor's text\n{term.text()}"
            time.sleep(0.05)
        term.wait_for("copied the selection")
        term.send("ctrl+q")
        assert term.wait_exit() == 0
    # Each ran once: the history holds each once, in the order typed.
    assert read_entries(tmp_path / "data" / "history") == [".trials 1000", one, two]
