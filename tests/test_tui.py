"""The Textual app driven like a user with Pilot, on the real engine with small seeded runs."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import cells, make_app, run_text, set_text, wait_until
from rich.console import Console
from rich.table import Table
from textual.command import CommandList, CommandPalette
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import Input, Static
from textual.widgets._footer import FooterKey

from pql_repl.api.catalogue import parse_range
from pql_repl.api.numbers import format_estimate
from pql_repl.session.session import COMMANDS
from pql_repl.session.vocabulary import vocabulary
from pql_repl.tui.app import PqlApp
from pql_repl.tui.editor import ERROR_HIGHLIGHT
from pql_repl.tui.range_grid import class_shares, hand_class, range_grid
from pql_repl.tui.results import FittedResult
from pql_repl.tui.run_control import RunEnded, RunProgress
from pql_repl.tui.screens import ExportDialog, HelpScreen, HistorySearch

QUERY = "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins from hero='AA', villain='KK';"
EXACT_QUERY = (
    "select avg(riverEquity(hero)) as eq, histogram(handType(hero, river)) as hands\n"
    "from hero='AhAd', villain='KsKc', board='Qh7c2d';"
)
SIZE = (110, 36)


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "no-config.toml"))
    return tmp_path / "data"


@pytest.mark.asyncio
async def test_type_a_query_run_it_and_the_table_fills() -> None:
    app = make_app(trials=4000, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*QUERY)
        await pilot.pause()
        assert app.editor.text == QUERY
        await pilot.press("enter")  # Enter after `;` runs
        await wait_until(pilot, lambda: bool(app.results.finished) and not app.running)
        result = app.results.finished[-1]
        assert result.trials == 4000
        rows = cells(app)
        assert set(rows) == {"eq", "wins"}
        eq = result.column("eq").value
        assert isinstance(eq, float)
        # The value to the decimals its margin supports, as `pql -c` prints it (issue 37, 7c).
        assert rows["eq"][1:3] == [
            f"{eq:.{len(rows['eq'][2].partition('.')[2])}f}",
            "± " + format_estimate(eq, result.column("eq").stderr).split(" ± ")[1],
        ]
        assert rows["wins"][1].endswith(f"({int(result.column('wins').count or 0):,})")
        assert "█" in rows["wins"][3]
        status = str(app.query_one("#status", Static).render())
        assert "done" in status
        assert "4,000 trials" in status
        assert "trials/s" in status


@pytest.mark.asyncio
async def test_live_updates_in_place_then_cancel_keeps_results() -> None:
    app = make_app(trials=2_000_000_000, exact="off", seed=5)
    snapshots: list[RunProgress] = []

    def hook(message: Message) -> None:
        if isinstance(message, RunProgress):
            snapshots.append(message)

    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        await run_text(pilot, app, QUERY, lambda: len(snapshots) >= 3 and app.results.table.row_count == 2)
        table = app.results.table
        keys_before = list(table.rows)
        await wait_until(pilot, lambda: len(snapshots) >= 5)
        # Rows are the same objects: cells were updated, the table was not rebuilt.
        assert list(table.rows) == keys_before
        trials = [m.result.trials for m in snapshots]
        assert trials == sorted(trials)
        assert trials[-1] > trials[0]
        assert app.running
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.running)
        last = app.results.finished[-1]
        assert last.cancelled
        assert 0 < last.trials < 2_000_000_000
        assert set(cells(app)) == {"eq", "wins"}
        assert "cancelled" in str(app.query_one("#status", Static).render())


@pytest.mark.asyncio
async def test_ctrl_c_cancels_a_run_and_otherwise_leaves_the_app_alone() -> None:
    app = make_app(trials=2_000_000_000, exact="off")
    async with app.run_test(size=SIZE) as pilot:
        await run_text(pilot, app, QUERY, lambda: app.results.last is not None)
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: not app.running)
        assert app.results.finished[-1].cancelled
        # Idle, Ctrl+C neither quits nor touches the text.
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.is_running
        assert app.editor.text == QUERY


@pytest.mark.asyncio
async def test_a_new_run_moves_the_previous_one_to_the_history() -> None:
    app = make_app(trials=1000, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(2):
            await run_text(pilot, app, QUERY, lambda: not app.running and app.results.last is not None)
            await pilot.pause(0.1)
        await wait_until(pilot, lambda: len(app.results.finished) == 2)
        entries = app.query(".history-entry")
        assert len(entries) == 1


@pytest.mark.asyncio
async def test_settings_apply_to_the_statements_that_follow_them() -> None:
    app = make_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await run_text(
            pilot,
            app,
            f".trials 1000\n{QUERY}\n.trials 2000\n{QUERY}\n",
            lambda: len(app.results.finished) == 2 and not app.running,
        )
        assert [r.trials for r in app.results.finished] == [1000, 2000]
        assert len(app.query(".history-entry")) == 1


@pytest.mark.asyncio
async def test_running_an_invalid_query_marks_the_error_and_runs_nothing() -> None:
    app = make_app(trials=1000)
    async with app.run_test(size=SIZE) as pilot:
        text = "select avg(riverEquity(hero)) from hero='AA', villain='KK' where scoops(nobody);"
        await run_text(pilot, app, text, lambda: not app.running and app.editor.error_at is not None)
        assert app.editor.error_at is not None
        assert app.editor.error_at[:2] == (0, text.index("nobody"))
        assert "error" in str(app.query_one("#status", Static).render())
        assert not app.results.finished


@pytest.mark.asyncio
async def test_completion_entries_at_several_positions() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = app.editor
        await pilot.press(*"select avg(riverEq")
        await pilot.pause()
        assert editor.completing
        assert editor.candidates[0].text == "riverEquity"
        await pilot.press("tab")
        assert editor.text == "select avg(riverEquity"
        assert not editor.completing

        text = "select avg(riverEquity()) from hero='AA', villain='KK'"
        await set_text(pilot, app, text)
        editor.move_cursor(editor.location_of(text.index("()") + 1))
        await pilot.press("ctrl+space")
        assert [c.text for c in editor.candidates] == ["hero", "villain"]
        await pilot.press("down", "enter")
        assert editor.text == text.replace("()", "(villain)")

        await set_text(pilot, app, "select avg(1) from game='ra")
        await pilot.press("z")
        await pilot.pause()
        assert editor.candidates[0].text == "razz"
        await pilot.press("escape")
        assert not editor.completing

        await set_text(pilot, app, "")
        await pilot.press(".", "t", "r")
        assert editor.candidates[0].text == ".trials"


@pytest.mark.asyncio
async def test_error_marked_at_the_checkers_column_before_running() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        text = "select avg(riverEquity(hero))\nfrom hero='AA'\nwhere pairedBoard(flopp)"
        await set_text(pilot, app, text)
        await wait_until(pilot, lambda: app.editor.error_at is not None)
        row, col, _ = app.editor.error_at or (0, 0, 0)
        assert (row, col) == (2, len("where pairedBoard("))
        marks = [h for h in app.editor._highlights[row] if h[2] == ERROR_HIGHLIGHT]
        assert marks
        assert marks[0][0] == col
        message = str(app.query_one("#error", Static).render())
        assert "3:19" in message
        assert "flopp" in message
        # Fixing it clears the mark.
        await set_text(pilot, app, text.replace("flopp", "flop"))
        await wait_until(pilot, lambda: app.editor.error_at is None)


@pytest.mark.asyncio
async def test_history_and_buffer_survive_a_restart(data: Path) -> None:
    app = make_app(trials=500, seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await run_text(pilot, app, QUERY, lambda: bool(app.results.finished) and not app.running)
        await set_text(pilot, app, "select count(pairedBoard(flop)) from h='KK'")
    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        assert again.editor.text == "select count(pairedBoard(flop)) from h='KK'"
        assert again.history.entries[-1] == QUERY
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(again.screen, HistorySearch)
        await pilot.press(*"winsHi", "enter")
        await pilot.pause()
        assert again.editor.text == QUERY
        # Up on the first line browses the history too.
        await set_text(pilot, again, "draft")
        await pilot.press("up")
        assert again.editor.text == QUERY
        await pilot.press("down")
        assert again.editor.text == "draft"


@pytest.mark.asyncio
async def test_help_lists_every_catalogue_function_and_game() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        renderable = app.screen.query_one("#help-text", Static).content
        console = Console(width=160, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
        console.print(renderable)
        shown = console.export_text()
        vocab = vocabulary()
        for f in vocab.functions:
            assert f.name in shown, f.name
            assert f.doc.split()[0] in shown
        for game in vocab.games:
            assert game in shown
        assert "F5" in shown.upper()
        for name in COMMANDS:
            assert f".{name}" in shown
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


@pytest.mark.asyncio
async def test_describe_and_settings_by_dot_commands() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await set_text(pilot, app, ".describe riverEquity")
        await pilot.press("enter")
        await pilot.pause()
        info = vocabulary().function("riverEquity")
        assert info is not None
        entries = app.query(".history-entry")
        assert any(info.signature in str(e.content) for e in entries)
        await set_text(pilot, app, ".trials 1234")
        await pilot.press("enter")
        assert app.session.settings.trials == 1234


@pytest.mark.asyncio
async def test_command_palette_describes_a_function() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"describe nutHiOuts")
        commands = app.screen.query_one(CommandList)
        await wait_until(pilot, lambda: commands.option_count == 1 and commands.highlighted == 0)
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app.query(".history-entry")))
        info = vocabulary().function("nutHiOuts")
        assert info is not None
        assert info.signature in str(app.query(".history-entry").last().content)


@pytest.mark.asyncio
async def test_export_results_as_csv_and_json(tmp_path: Path) -> None:
    app = make_app(trials=1000, seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await run_text(pilot, app, QUERY, lambda: bool(app.results.finished) and not app.running)
        csv_path = tmp_path / "out.csv"
        await set_text(pilot, app, f".output {csv_path}")
        await pilot.press("enter")
        await pilot.pause()
        rows = list(csv.DictReader(csv_path.read_text().splitlines()))
        assert [(row["statement"], row["selector"], row["trials"]) for row in rows] == [
            ("1", "eq", "1000"),
            ("1", "wins", "1000"),
        ]
        assert 0.7 < float(rows[0]["value"]) < 0.9
        # While `.output` is in force, every finished run lands in the file too.
        await run_text(pilot, app, QUERY, lambda: len(app.results.finished) == 2 and not app.running)
        await pilot.pause()
        rows = list(csv.DictReader(csv_path.read_text().splitlines()))
        assert [row["statement"] for row in rows] == ["1", "1", "2", "2"]
        # Ctrl+S asks where, prefilled with the `.output` file; the extension says the format.
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        path_input = app.screen.query_one(Input)
        assert path_input.value == str(csv_path)
        json_path = tmp_path / "out.json"
        path_input.value = str(json_path)
        await pilot.press("enter")
        await wait_until(pilot, json_path.exists)
        assert not isinstance(app.screen, ExportDialog)
        doc = json.loads(json_path.read_text())
        assert len(doc["statements"]) == 2
        assert doc["statements"][0]["trials"] == 1000
        assert [c["name"] for c in doc["statements"][0]["columns"]] == ["eq", "wins"]


@pytest.mark.asyncio
async def test_theme_and_defaults_from_the_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text('theme = "nord"\ntrials = 1500\nseed = 9\n')
    monkeypatch.setenv("PQL_CONFIG", str(config))
    app = PqlApp()
    async with app.run_test(size=SIZE) as pilot:
        assert app.theme == "nord"
        await run_text(pilot, app, QUERY, lambda: bool(app.results.finished) and not app.running)
        assert app.results.finished[-1].trials == 1500
        assert app.results.finished[-1].seed == 9


async def settle(pilot: Pilot[Any]) -> None:
    """Let every message and refresh already queued be handled (no clock involved)."""
    await pilot.wait_for_scheduled_animations()
    for _ in range(3):
        await pilot.pause()


def snapshot_of_an_exact_run(snap_compare: Any, size: tuple[int, int]) -> bool:
    app = make_app(exact="on", seed=1)

    async def run_before(pilot: Pilot[Any]) -> None:
        app.editor.cursor_blink = False
        app.results.timing = False
        await run_text(pilot, app, EXACT_QUERY, lambda: bool(app.results.finished) and not app.running)
        await settle(pilot)

    return bool(snap_compare(app, run_before=run_before, terminal_size=size))


def test_snapshot_of_a_finished_exact_run(snap_compare: Any) -> None:
    assert snapshot_of_an_exact_run(snap_compare, SIZE)


def test_snapshot_of_a_histogram_at_80x24(snap_compare: Any) -> None:
    # Every column whole at 80 columns: the value and its margin, the bars (shrunk to fit).
    assert snapshot_of_an_exact_run(snap_compare, (80, 24))


def test_snapshot_of_the_start_screen_at_80x24(snap_compare: Any) -> None:
    app = make_app()

    async def run_before(pilot: Pilot[Any]) -> None:
        app.editor.cursor_blink = False
        await settle(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))


def test_range_grid_shades_the_share_of_each_class() -> None:
    deck = parse_range("**", "holdem")
    shares = class_shares(parse_range("QQ+@100, AKs@100, AQo@50, JTs@100", "holdem"), deck)
    assert len(shares) == 169
    assert shares["AA"] == shares["AKs"] == shares["JTs"] == 1.0
    assert shares["AKo"] == 0.0
    assert shares["JJ"] == 0.0
    # Weights count relative to the heaviest hand.
    assert shares["AQo"] == pytest.approx(0.5)
    assert hand_class("KdAc") == "AKo"
    assert hand_class("7h7c") == "77"
    assert range_grid("AA", "omaha") is None
    short = range_grid("AA", "shortdeck")
    assert short is not None
    assert len(short.columns) == 9


@pytest.mark.asyncio
async def test_range_command_shows_the_grid() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await set_text(pilot, app, ".range holdem 'QQ+, AKs'")
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(app.query(".history-entry")) == 2)
        grid = app.query(".history-entry").last().content
        assert isinstance(grid, Table)
        assert len(grid.columns) == 13


@pytest.mark.asyncio
async def test_read_of_an_unreadable_or_self_reading_script_is_reported(tmp_path: Path) -> None:
    latin1 = tmp_path / "latin1.pql"
    latin1.write_bytes("-- caf\xe9\n".encode("latin-1"))
    loop = tmp_path / "loop.pql"
    loop.write_text(f".read {loop}\n")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        status = app.query_one("#status", Static)
        await set_text(pilot, app, f".read {latin1}")
        await pilot.press("enter")
        await pilot.pause()
        assert "not UTF-8" in str(status.render())
        await set_text(pilot, app, f".read {loop}")
        await pilot.press("enter")
        await pilot.pause()
        assert "nested more than 16 deep" in str(status.render())
        assert app.is_running
        assert not app.running


@pytest.mark.asyncio
async def test_too_many_trials_is_refused_and_a_failing_run_ends_cleanly() -> None:
    app = make_app(trials=1000)
    async with app.run_test(size=SIZE) as pilot:
        status = app.query_one("#status", Static)
        await run_text(pilot, app, f".trials 1e30\n{QUERY}", lambda: not app.running)
        await pilot.pause()
        assert "'1e30' is more than" in str(status.render())
        assert app.session.settings.trials == 1000
        # Whatever goes wrong in the worker ends the run with a message, not a crashed app: here
        # the run refuses a count set past the parser, naming it.
        app.session.settings.trials = 10**30
        await run_text(pilot, app, QUERY, lambda: not app.running and "error" in str(status.render()))
        assert "trials must be a whole number" in str(status.render())
        assert app.is_running
        app.session.settings.trials = 1000
        await run_text(pilot, app, QUERY, lambda: bool(app.results.finished) and not app.running)
        assert app.results.finished[-1].trials == 1000


def captions(app: PqlApp) -> list[str]:
    """The captions of the finished runs in the history, oldest first."""
    entries = [e.content for e in app.query(".history-entry")]
    return [str(e.table(SIZE[0]).caption) for e in entries if isinstance(e, FittedResult)]


@pytest.mark.asyncio
async def test_a_new_run_ends_the_running_one_as_cancelled(tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    app = make_app(trials=2_000_000_000, exact="off", seed=5, output=str(out))
    async with app.run_test(size=SIZE) as pilot:
        await run_text(pilot, app, QUERY, lambda: app.results.last is not None)
        second = QUERY.replace("as eq", "as eq2")
        await run_text(pilot, app, second, lambda: app.results.last is not None and app.running)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.running)
        first, replacement = app.results.finished
        assert first.cancelled
        assert first.trials > 0
        assert [c.name for c in first.columns] == ["eq", "wins"]
        assert replacement.cancelled
        assert [c.name for c in replacement.columns] == ["eq2", "wins"]
        (caption,) = captions(app)
        assert caption.startswith("cancelled · ")
        assert f"{first.trials:,} trials" in caption
        assert "%" not in caption
        rows = list(csv.DictReader(out.read_text().splitlines()))
        assert [(row["selector"], row["trials"], row["status"]) for row in rows] == [
            ("eq", str(first.trials), "cancelled"),
            ("wins", str(first.trials), "cancelled"),
            ("eq2", str(replacement.trials), "cancelled"),
            ("wins", str(replacement.trials), "cancelled"),
        ]


#: A where clause so rare that the engine gives up (after two million deals) with an error.
FAILS_LATE = (
    "select avg(riverEquity(hero)) as eq from hero='AA', villain='KK' "
    "where handType(hero, flop) = quads and handType(villain, turn) = quads;"
)


@pytest.mark.asyncio
async def test_a_run_that_fails_after_snapshots_leaves_no_partial_rows() -> None:
    app = make_app(trials=4097, threads=2, seed=4, exact="off")
    # The live table's rows when the failure reaches the UI: the statement's rows are shown as
    # soon as it starts (whether or not a snapshot came before the failure, which depends on
    # the machine's speed), so there are always rows to drop.
    rows_at_failure: list[int] = []

    def hook(message: Message) -> None:
        if isinstance(message, RunEnded) and message.error:
            rows_at_failure.append(app.results.table.row_count)

    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        status = app.query_one("#status", Static)
        await run_text(pilot, app, FAILS_LATE, lambda: not app.running and "error" in str(status.render()))
        assert rows_at_failure == [1], "the running statement's row was not shown before it failed"
        assert "accepted only" in str(status.render())
        assert app.results.table.row_count == 0
        assert not app.results.finished
        await run_text(pilot, app, f".trials 1000\n{QUERY}", lambda: bool(app.results.finished))
        await wait_until(pilot, lambda: not app.running)
        assert captions(app) == []


@pytest.mark.asyncio
async def test_a_statement_shows_its_rows_as_soon_as_it_starts() -> None:
    app = make_app(trials=4000, seed=3)
    started: list[list[str]] = []

    def hook(message: Message) -> None:
        # Seen before the UI handles it: the next message handled fills the rows.
        if isinstance(message, RunProgress) and not started:
            started.append([str(c) for c in app.results.table.get_row_at(0)])

    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        await run_text(pilot, app, QUERY, lambda: bool(app.results.finished))
        assert started == [["eq", "…", "", ""]]


@pytest.mark.asyncio
async def test_tab_without_a_dropdown_asks_for_completions_and_keeps_the_focus() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = app.editor
        await set_text(pilot, app, "select avg(riverEq")
        assert not editor.completing
        await pilot.press("tab")
        assert editor.completing
        assert editor.candidates[0].text == "riverEquity"
        await pilot.press("tab")
        assert editor.text == "select avg(riverEquity"
        # Nothing to complete: the focus stays, and what is typed next lands in the editor.
        await set_text(pilot, app, "select avg(1) from hero='AA';\n")
        await pilot.press("tab", *"-- ok")
        assert app.focused is editor
        assert editor.text.endswith("-- ok")


@pytest.mark.asyncio
async def test_up_and_down_move_through_a_wrapped_line_before_browsing_the_history() -> None:
    app = make_app()
    app.history.append("select avg(1) from older='AA';")
    long = "select " + ", ".join(f"avg(riverEquity(hero)) as e{i}" for i in range(12)) + " from hero='AA'"
    async with app.run_test(size=SIZE) as pilot:
        editor = app.editor
        await set_text(pilot, app, long)
        assert editor.wrapped_document.get_offsets(0), "the line should wrap"
        await pilot.press("up")
        assert editor.text == long
        assert editor.cursor_location[0] == 0
        assert editor.cursor_location[1] < len(long)
        editor.move_cursor((0, 0))
        await pilot.press("down")
        assert editor.text == long
        assert editor.cursor_location[1] > 0
        # On the first screen row, Up browses the history as before.
        editor.move_cursor((0, 0))
        await pilot.press("up")
        assert editor.text == "select avg(1) from older='AA';"


@pytest.mark.asyncio
async def test_help_tables_keep_usages_with_bars_whole_and_name_keys_once() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        console = Console(width=160, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
        console.print(app.screen.query_one("#help-text", Static).content)
        lines = console.export_text().splitlines()
        for command in COMMANDS.values():
            (row,) = [line for line in lines if line.strip().startswith(command.usage + " ")]
            assert command.summary in row
        keys = lines[: next(i for i, line in enumerate(lines) if line.strip() == "Games")]
        assert any(line.split()[:5] == ["F5", "Run", "the", "whole", "editor"] for line in keys)
        assert any(line.split()[:3] == ["F4,", "Ctrl+Enter", "Run"] for line in keys)
        assert [line.split()[-1] for line in keys if "Cancel" in line] == ["Cancel"]
        assert not any("ctrl+" in line or "escape" in line for line in keys)


@pytest.mark.asyncio
async def test_the_footer_offers_cancel_while_a_run_is_running() -> None:
    app = make_app(trials=2_000_000_000, exact="off")

    def footer_actions() -> set[str]:
        return {key.action for key in app.query(FooterKey)}

    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "run" in footer_actions()
        assert "cancel" not in footer_actions()
        await run_text(pilot, app, QUERY, lambda: app.results.last is not None)
        await wait_until(pilot, lambda: "cancel" in footer_actions())
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.running)
        await wait_until(pilot, lambda: "cancel" not in footer_actions())


@pytest.mark.asyncio
async def test_unknown_theme_and_unwritable_output_are_refused_at_once() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        status = app.query_one("#status", Static)
        theme = app.theme
        await set_text(pilot, app, ".theme nosuch")
        await pilot.press("enter")
        await pilot.pause()
        shown = str(status.render())
        assert "unknown theme 'nosuch'" in shown
        assert "nord" in shown
        assert app.theme == theme
        await set_text(pilot, app, ".theme nord")
        await pilot.press("enter")
        await pilot.pause()
        assert app.theme == "nord"
        await set_text(pilot, app, ".output /nonexistent/dir/x.csv")
        await pilot.press("enter")
        await pilot.pause()
        assert "cannot write to '/nonexistent/dir/x.csv'" in str(status.render())
        assert app.session.settings.output is None
