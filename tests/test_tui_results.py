"""The app's results as a user reaches them: focus and scroll them, full screen, tables that fit
80 columns and say when they continue, a statement run from the cursor, the start screen, the
searchable help, themes and the export dialog. Pilot on the real engine, small seeded runs."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import cells, finished, make_app, run_text, set_text, wait_until
from rich.console import Console
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, Static

import pql_repl as pql
from pql_repl.api.results import Bucket, Column, StatementResult
from pql_repl.session.session import COMMANDS
from pql_repl.tui.results import BAR_MIN, BAR_WIDTH, CI_WIDTH, NAME_MIN, FittedResult, fit_columns
from pql_repl.tui.screens import ExportDialog, HelpScreen
from pql_repl.tui.welcome import EXAMPLES, ExampleList, Welcome


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "no-config.toml"))
    return tmp_path / "data"


NARROW = (80, 24)
#: Two histograms of hand types and a count: more rows than 80x24 has room for under the editor.
TALL = (
    "select histogram(handType(hero, river)), histogram(handType(villain, river)) as villain, "
    "count(winsHi(hero)) from hero='AA', villain='KK';"
)
TWO = "select avg(riverEquity(hero)) as first from hero='AA', villain='KK';\n\n" + (
    "select avg(riverEquity(hero)) as second from hero='QQ', villain='AKs';"
)


def screen_text(app: Any) -> str:
    """The screen as plain text, as a user reads it."""
    console = Console(width=app.size.width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


@pytest.mark.asyncio
async def test_f6_focuses_the_results_and_they_scroll_then_escape_or_f2_come_back() -> None:
    app = make_app(trials=2000, seed=1)
    async with app.run_test(size=NARROW) as pilot:
        for _ in range(3):
            await run_text(pilot, app, TALL, finished(app, _ + 1))
        history = app.results.history
        await wait_until(pilot, lambda: history.max_scroll_y > 0)
        await wait_until(pilot, lambda: history.scroll_y == history.max_scroll_y)  # the newest shows
        await pilot.press("f6")
        assert app.focused is history
        await pilot.press("pageup")
        await wait_until(pilot, lambda: history.scroll_y < history.max_scroll_y)
        assert "↓" in str(history.border_subtitle)
        await pilot.press("escape")
        assert app.focused is app.editor
        await pilot.press("f6", "f6")  # again: the live table
        assert app.focused is app.results.table
        await pilot.press("f2")
        assert app.focused is app.editor
        # In the editor F6 is not the editor's own "select line".
        assert app.editor.selected_text == ""


@pytest.mark.asyncio
async def test_f10_shows_the_results_full_screen_and_back() -> None:
    app = make_app(trials=2000, seed=1)
    async with app.run_test(size=NARROW) as pilot:
        await run_text(pilot, app, TALL, finished(app))
        height = app.results.size.height
        await pilot.press("f10")
        await pilot.pause()
        assert not app.editor.display
        assert app.results.size.height > height
        assert app.focused is not app.editor
        await pilot.press("f10")
        await pilot.pause()
        assert app.editor.display
        assert app.focused is app.editor


@pytest.mark.asyncio
async def test_a_long_table_says_it_continues_until_scrolled_to_its_end() -> None:
    app = make_app(trials=2000, seed=1)
    async with app.run_test(size=NARROW) as pilot:
        await run_text(pilot, app, TALL, finished(app))
        more = app.query_one("#more", Static)
        await wait_until(pilot, lambda: more.display)
        assert "more rows" in str(more.render())
        await pilot.press("f6")
        assert app.focused is app.results.table
        await pilot.press("end")
        await wait_until(pilot, lambda: not more.display)
        # Full screen there is room for every row.
        await pilot.press("home", "f10")
        await pilot.pause()
        await wait_until(pilot, lambda: not more.display)


@pytest.mark.parametrize("width", [200, 110, 80, 60, 50, 40])
def test_columns_fit_bars_shrink_first_then_go_value_and_margin_stay_whole(width: int) -> None:
    names = ["histogram(handType(hero, river))", "  straightflush"]
    values = ["81.70% (490,227)", "0.01%"]
    layout = fit_columns(width, names, values)
    used = layout.name + layout.value + layout.ci + layout.bar + 2 * (4 if layout.bar else 3)
    assert used <= width or layout.name == NAME_MIN
    assert layout.value == len(values[0])
    assert layout.ci == CI_WIDTH
    if layout.bar:
        assert BAR_MIN <= layout.bar <= BAR_WIDTH
        assert layout.name == len(names[0])
    wide = fit_columns(200, names, values)
    assert wide.bar == BAR_WIDTH
    # The names are cut only once the bars are gone.
    assert layout.name == len(names[0]) or layout.bar == 0


@pytest.mark.asyncio
async def test_at_80_columns_nothing_is_clipped_and_names_are_the_expressions() -> None:
    app = make_app(trials=2000, seed=1)
    async with app.run_test(size=NARROW) as pilot:
        await run_text(pilot, app, TALL, finished(app))
        table = app.results.table
        assert table.max_scroll_x == 0  # nothing runs off to the right
        rows = cells(app)
        result = app.results.finished[-1]
        wins = rows["count(winsHi(hero))"]
        assert wins[1] == f"{100 * float(result.column('count(winsHi(hero))').value or 0):.2f}% (" + (
            f"{int(result.column('count(winsHi(hero))').count or 0):,})"
        )
        assert wins[2].startswith("± ")
        text = screen_text(app)
        assert "histogram(handType(hero, river))" in text
        assert wins[1] in text or "more rows" in text
        for key, row in rows.items():
            column_widths = [c.width for c in table.columns.values()]
            for cell, width in zip(row, column_widths, strict=False):
                assert len(cell) <= width, (key, cell)


@pytest.mark.asyncio
async def test_f4_runs_the_statement_at_the_cursor_or_the_selection_and_f5_everything() -> None:
    app = make_app(trials=1000, seed=1)
    async with app.run_test(size=(110, 36)) as pilot:
        await set_text(pilot, app, TWO)
        app.editor.move_cursor((0, 10))
        await pilot.press("f4")
        await wait_until(pilot, finished(app))
        assert [r.columns[0].name for r in app.results.finished] == ["first"]
        # The cursor after the last `;`: the statement it ends.
        app.editor.move_cursor(app.editor.document.end)
        await pilot.press("f4")
        await wait_until(pilot, finished(app, 2))
        assert app.results.finished[-1].columns[0].name == "second"
        # A selection runs as it is.
        second = TWO.index("select avg(riverEquity(hero)) as second")
        app.editor.selection = app.editor.selection.__class__(
            app.editor.location_of(second), app.editor.document.end
        )
        await pilot.press("f4")
        await wait_until(pilot, finished(app, 3))
        assert app.results.finished[-1].columns[0].name == "second"
        await pilot.press("f5")
        await wait_until(pilot, finished(app, 5))
        assert [r.columns[0].name for r in app.results.finished[-2:]] == ["first", "second"]


@pytest.mark.asyncio
async def test_an_error_in_the_statement_at_the_cursor_is_marked_where_it_stands() -> None:
    app = make_app(trials=1000)
    async with app.run_test(size=(110, 36)) as pilot:
        text = "select avg(1) from hero='AA';\n\nselect avg(riverEquity(nobody)) from hero='AA';"
        await set_text(pilot, app, text)
        await pilot.press("f4")
        await wait_until(pilot, lambda: not app.running and app.editor.error_at is not None)
        assert app.editor.error_at is not None
        assert app.editor.error_at[:2] == (2, len("select avg(riverEquity("))
        assert not app.results.finished


@pytest.mark.asyncio
async def test_the_start_screen_runs_an_example_by_a_key() -> None:
    app = make_app(trials=2000, seed=1)
    async with app.run_test(size=NARROW) as pilot:
        welcome = app.query_one(Welcome)
        text = screen_text(app)
        assert "Welcome to pql" in text
        keys = " ".join(text.replace("│", " ").split())  # the key line wraps at 80 columns
        for key in ("F5 run the editor", "F4 run the statement at the cursor", "F1 help", "Ctrl+Q quit"):
            assert key in keys
        assert app.query_one(ExampleList).option_count == 3
        assert app.focused is app.editor
        await pilot.press("2")  # a digit in the empty editor of the start screen
        await wait_until(pilot, finished(app))
        assert app.editor.text == EXAMPLES[1]
        assert not welcome.is_attached
        assert app.focused is app.editor


@pytest.mark.asyncio
async def test_typing_on_the_start_screen_writes_in_the_editor() -> None:
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press(*"select 1")  # a digit in a query is a digit
        assert app.editor.text == "select 1"
        assert not app.running
        # F6 reaches the examples too: Enter runs the one chosen.
        await pilot.press("f6")
        assert isinstance(app.focused, ExampleList)
        await pilot.press("down", "enter")
        await wait_until(pilot, finished(app))
        assert app.editor.text == EXAMPLES[1]
        # The start screen is gone: a digit typed into an empty editor is a digit.
        await set_text(pilot, app, "")
        await pilot.press("1")
        assert app.editor.text == "1"


@pytest.mark.asyncio
async def test_help_is_filtered_by_what_is_typed() -> None:
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        help_screen = app.screen
        assert help_screen.query_one(Input).has_focus
        await pilot.press(*"nutHiOuts")
        await pilot.pause()
        assert "### nutHiOuts" in help_screen.markdown
        assert "### riverEquity" not in help_screen.markdown
        assert "## Games" not in help_screen.markdown
        help_screen.query_one(Input).value = "export"
        await pilot.pause()
        assert "Ctrl+S" in help_screen.markdown
        assert "## Functions" not in help_screen.markdown
        await pilot.press(*"zq")
        await pilot.pause()
        assert "Nothing in the help mentions 'exportzq'" in help_screen.markdown
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


@pytest.mark.asyncio
async def test_theme_alone_lists_the_themes() -> None:
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await set_text(pilot, app, ".theme nord")
        await pilot.press("enter")
        await set_text(pilot, app, ".theme")
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app.query(".history-entry")))
        listing = str(app.query(".history-entry").last().content)
        assert "* nord" in listing.splitlines()
        assert "  textual-light" in listing.splitlines()


def drawn_lines(widget: Widget) -> list[str]:
    """Every line of ``widget`` as drawn at its width, those scrolled out of view too."""
    return [strip.text for strip in widget.render_lines(Region(0, 0, *widget.size))]


#: Arguments in brackets in `.help` (Rich markup would read them as tags and drop them).
BRACKETED = ("[COMMAND]", "[NAME]", "[PATTERN]", "[generic]", "[BOARD]", "[1-9 | N |", "[STREET]", "[GAME]")


@pytest.mark.parametrize("size", [NARROW, (160, 48)])
@pytest.mark.asyncio
async def test_help_command_shows_every_argument_and_lines_up_the_descriptions(size: tuple[int, int]) -> None:
    """`.help` in the app: every bracketed argument drawn as written, and each command's
    description starting in one column, wrapped lines too (issue 37)."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await run_text(pilot, app, ".help", lambda: bool(app.query(".history-entry")))
        await pilot.pause()
        lines = drawn_lines(app.query(".history-entry").last())
        drawn = "\n".join(lines)
        for argument in BRACKETED:
            assert argument in drawn
        starts = set()
        for command in COMMANDS.values():
            first = next(
                line
                for line in lines
                if line.startswith(command.usage.split()[0] + " ") or line.rstrip() == command.usage
            )
            row = re.match(r"(\S.*?) {2,}(\S)", first)
            assert row is not None, first
            assert first[row.start(2) :].startswith(command.summary.split()[0]), first
            starts.add(row.start(2))
        assert len(starts) == 1, starts
        # A description's wrapped lines start in that column too.
        (column,) = starts
        for line in lines[: [line.strip() for line in lines].index("")]:
            assert line[column - 2 : column] == "  ", line
            assert not line[column:].strip() or line[column] != " ", line
        # F1's help draws them as written as well.
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        app.screen.query_one(Input).value = ".odds"
        await pilot.pause()
        assert "[BOARD] [1-9 | N |" in screen_text(app)


async def export_dialog(pilot: Pilot[Any], app: Any) -> ExportDialog:
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(app.screen, ExportDialog))
    dialog: ExportDialog = app.screen
    return dialog


@pytest.mark.asyncio
async def test_ctrl_s_asks_for_a_file_and_the_extension_says_the_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    app = make_app(trials=1000, seed=2)
    async with app.run_test(size=(110, 36)) as pilot:
        await run_text(pilot, app, TALL, finished(app))
        dialog = await export_dialog(pilot, app)
        path_input = dialog.query_one(Input)
        assert path_input.value == str(work / "pql-results.csv")  # shown whole, before writing
        await pilot.press("escape")
        assert list(work.iterdir()) == []  # nothing written without a yes
        # Markdown by the extension.
        dialog = await export_dialog(pilot, app)
        dialog.query_one(Input).value = str(tmp_path / "notes.md")
        await pilot.press("enter")
        await wait_until(pilot, (tmp_path / "notes.md").exists)
        assert (tmp_path / "notes.md").read_text().startswith("`select histogram(handType(hero, river))")
        # An extension pql does not write is refused in the dialog.
        dialog = await export_dialog(pilot, app)
        dialog.query_one(Input).value = str(tmp_path / "out.txt")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        assert ".csv, .json, .md or .html" in str(dialog.query_one("#export-note", Static).render())
        # A file that exists is replaced only after a second Enter.
        existing = tmp_path / "old.csv"
        existing.write_text("keep me\n")
        dialog.query_one(Input).value = str(existing)
        await pilot.press("enter")
        await pilot.pause()
        assert existing.read_text() == "keep me\n"
        assert "exists" in str(dialog.query_one("#export-note", Static).render())
        await pilot.press("enter")
        await wait_until(pilot, lambda: existing.read_text() != "keep me\n")
        rows = list(csv.DictReader(existing.read_text().splitlines()))
        assert {row["selector"] for row in rows} == {
            "histogram(handType(hero, river))",
            "villain",
            "count(winsHi(hero))",
        }
        assert all(row["stderr"] for row in rows)
        dialog = await export_dialog(pilot, app)
        dialog.query_one(Input).value = str(tmp_path / "out.json")
        await pilot.press("enter")
        await wait_until(pilot, (tmp_path / "out.json").exists)
        (statement,) = json.loads((tmp_path / "out.json").read_text())["statements"]
        assert statement["columns"][2]["name"] == "count(winsHi(hero))"


@pytest.mark.asyncio
async def test_a_sweep_grows_row_by_row_sorts_and_opens_a_row() -> None:
    from pql_repl.tui.sweep_table import SweepGrid, SweepTable  # noqa: PLC0415

    app = make_app(trials=3000, seed=2)
    text = (
        "select avg(riverEquity(hero)) as eq from hero=$h, villain='QQ+' sweep $h over ('AKs', 'JJ', '7s6s');"
    )
    async with app.run_test(size=(140, 40)) as pilot:
        await run_text(pilot, app, text, lambda: not app.running and "3 of 3 rows" in status(app))
        expected = pql.sweep(text.rstrip(";"), trials=3000, seed=2)
        table = app.results.history.query(SweepTable).last()
        grid = table.query_one(SweepGrid)
        shown = [[str(c) for c in grid.get_row_at(i)] for i in range(grid.row_count)]
        assert shown == [expected.shown_cells(r) for r in expected.rows]
        assert "all (weight 3)" in str(table.query_one(".sweep-aggregate", Static).render())
        # s on the eq column sorts by it (smallest first), again reverses.
        grid.focus()
        grid.cursor_coordinate = grid.cursor_coordinate._replace(column=2)
        await pilot.press("s")
        equities = [float(str(grid.get_row_at(i)[2]).split()[0]) for i in range(3)]
        assert equities == sorted(equities)
        await pilot.press("s")
        top = [float(str(grid.get_row_at(i)[2]).split()[0]) for i in range(3)]
        assert top == sorted(equities, reverse=True)
        # Enter opens the row under the cursor: its full result joins the history.
        grid.cursor_coordinate = grid.cursor_coordinate._replace(row=0)
        before = len(app.results.history.query(".history-entry"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(app.results.history.query(".history-entry")) == before + 1)
        best = max(expected.rows, key=lambda r: float(r.result.columns[0].value) if r.result else 0.0)
        assert best.result is not None
        entry = app.results.history.query(".history-entry").last()
        assert isinstance(entry, Static)
        assert isinstance(entry.content, FittedResult)
        opened = entry.content.result
        assert opened.query == best.result.query
        assert [c.value for c in opened.columns] == [c.value for c in best.result.columns]
        # The editor's checker knows the clause: a misspelt list is marked where it is.
        await set_text(pilot, app, text.replace("over (", "over flop("))
        app.check_now()
        await wait_until(pilot, lambda: any("unknown list" in str(w.render()) for w in app.query("#error")))


def status(app: Any) -> str:
    return str(app.query_one("#status", Static).render())


# ---------------------------------------------------------------------------------------------
# Issue 37, items 6 and 7: errors, the where clause's share, `.plot`, the history's width and one
# convention for numbers, as drawn at 80x24 and 160x48.

SIZES = [pytest.param(NARROW, id="80x24"), pytest.param((160, 48), id="160x48")]
GOOD = "select avg(riverEquity(hero)) as eq from hero='AA', villain='KK';"
#: An error the run reports: a board of six cards (fixed by deleting the last card).
BAD = "select avg(riverEquity(hero)) as eq6 from hero='AKs', villain='QQ', board='Kd7c2h9s8d7h';"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.asyncio
async def test_a_failed_statement_is_not_said_over_the_table_before_it_and_its_error_goes_once_fixed(
    size: tuple[int, int],
) -> None:
    """6a: the status line's error sat over the previous statement's table, as if it were the
    failed statement's, and stayed after the text was fixed."""
    from pql_repl.tui.chart import ChartScreen  # noqa: PLC0415

    app = make_app(trials=2000, seed=1)
    first = GOOD.replace(" as eq ", " as eq, histogram(handType(hero, flop)) as h ")
    async with app.run_test(size=size) as pilot:
        await run_text(pilot, app, first, finished(app))
        await run_text(pilot, app, BAD, lambda: not app.running and "error" in status(app))
        assert "at most 5 cards" in status(app)
        # No table under the error: the statement before it is in the history, with its caption.
        assert not app.results.table.display or app.results.table.row_count == 0
        entry = app.results.history.query(".history-entry").last()
        drawn = "\n".join(drawn_lines(entry))
        assert "as h from hero='AA'" in " ".join(drawn.split())  # wrapped at 80 columns
        assert "done · 2,000 trials" in drawn
        screen = screen_text(app)
        below = screen[screen.index("error: line 1") :]
        assert not re.search(r"\beq\b +0\.\d", below), below  # the old row is not drawn under it
        # Fixed (the last card deleted, as typed): the checker's mark and the status's error go.
        await pilot.press("left", "left", *["backspace"] * 2)
        assert app.editor.text == BAD.replace("7h'", "'")
        await wait_until(pilot, lambda: "error" not in status(app))
        assert status(app) == "ready"
        assert str(app.query_one("#error", Static).render()) == ""
        assert "at most 5 cards" not in screen_text(app)
        # F7 still charts the latest result, the one before the failure.
        await pilot.press("f7")
        await wait_until(pilot, lambda: isinstance(app.screen, ChartScreen))
        assert isinstance(app.screen, ChartScreen)
        assert app.screen.result is app.results.finished[-1]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.asyncio
async def test_the_status_says_what_share_of_deals_a_where_clause_kept(size: tuple[int, int]) -> None:
    """6b: the command says `12.5% of deals kept`; the app said nothing of it."""
    app = make_app(trials=2000, seed=1)
    where = "select avg(riverEquity(hero)) as eq from hero='AA', villain='KK' where winsHi(hero);"
    async with app.run_test(size=size) as pilot:
        await run_text(pilot, app, where, finished(app))
        result = app.results.finished[-1]
        share = f"{100 * result.accepted / result.attempted:.3g}% of deals kept"
        assert share in status(app)
        assert share in screen_text(app)
        # In the history's caption too, once the next statement runs; none without a where.
        await run_text(pilot, app, GOOD, finished(app, 2))
        assert share in "\n".join(drawn_lines(app.results.history.query(".history-entry").last()))
        assert "kept" not in status(app)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.asyncio
async def test_plot_of_a_single_value_draws_its_axis_from_zero(size: tuple[int, int]) -> None:
    """6c: `.plot` of one value drew a y-axis from 50% to 150% (plotext's range around a lone
    value); a share's axis starts at 0 and ends at the value."""
    from pql_repl.tui.chart import ChartScreen  # noqa: PLC0415

    app = make_app(trials=500, seed=1)
    text = (
        "select avg(riverEquity(hero)) from hero='AsAd', villain='KsKd', board='AhAcKh2c3d';\n"
        ".plot equity hero river"
    )
    async with app.run_test(size=size) as pilot:
        await run_text(pilot, app, text, lambda: isinstance(app.screen, ChartScreen))
        for _ in range(3):
            await pilot.pause()
        ticks = re.findall(r"^\W*(\d+\.\d)┤", screen_text(app), re.MULTILINE)
        assert ticks, screen_text(app)
        assert (float(ticks[0]), float(ticks[-1])) == (100.0, 0.0), ticks
        # All values equal (two bars of 50%): from 0 to 50.
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ChartScreen))
        halves = [Bucket("true", 1000, 0.5), Bucket("false", 1000, 0.5)]
        column = Column("h", "histogram", None, buckets=halves)
        equal = StatementResult("select …", "holdem", 2000, 2000, 2000, False, 1, 0.1, [column])
        app.push_screen(ChartScreen(equal))
        await wait_until(pilot, lambda: isinstance(app.screen, ChartScreen))
        for _ in range(3):
            await pilot.pause()
        ticks = re.findall(r"^\W*(\d+\.\d)┤", screen_text(app), re.MULTILINE)
        assert (float(ticks[0]), float(ticks[-1])) == (50.0, 0.0), ticks


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.asyncio
async def test_history_entries_take_the_panels_width(size: tuple[int, int]) -> None:
    """6d: an entry's query and status line wrapped at its table's width (about 64 columns in a
    160-column window); they take the history's width."""
    from rich.text import Text  # noqa: PLC0415

    app = make_app(trials=2000, seed=1)
    long = (
        "select avg(riverEquity(hero)) as eq from hero='AA', villain='KK', board='2c7d9h' "
        "where winsHi(hero) and handType(hero, turn) >= pair;"
    )
    async with app.run_test(size=size) as pilot:
        await run_text(pilot, app, long, finished(app))
        await run_text(pilot, app, GOOD, finished(app, 2))
        await pilot.pause()
        entry = app.results.history.query(".history-entry").first()
        width = entry.size.width
        lines = [line.rstrip() for line in drawn_lines(entry)]
        console = Console(width=width, file=open("/dev/null", "w"))  # noqa: SIM115
        query = long.rstrip(";")
        wrapped = [line.plain.rstrip() for line in Text(query).wrap(console, width)]
        assert lines[: len(wrapped)] == wrapped
        if size[0] >= 160:
            assert lines[0] == query  # one line, as wide as it is
        caption = next(line for line in lines if line.startswith("done ·"))
        assert caption.endswith(" s")  # whole on its line (it ends with the run time)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.asyncio
async def test_numbers_follow_one_convention(size: tuple[int, int]) -> None:
    """7a, 7c, 7d: a simulate statement's EVs to the decimals their margins support (four
    decimals beside ± 0.42 before); an enumeration counts deals and deals/s; a run stopped on
    its target says the 95% margin, as its table does."""
    from pql_repl.api.numbers import estimate_parts  # noqa: PLC0415

    simulate = (
        "simulate fold, call, raise from game='holdem', hero='AhKh', villain='QQ+@90, 22-JJ@40, AK@80, *@5', "
        "board='Kd7c2h', pot=10, tocall=2, bet=2, stakes='limit';"
    )
    app = make_app(trials=2000, seed=1)
    async with app.run_test(size=size) as pilot:
        await run_text(pilot, app, simulate, finished(app))
        result = app.results.finished[-1]
        rows = cells(app)
        for column in result.columns:
            parts = estimate_parts(column.value, column.stderr)
            assert parts is not None
            assert rows[column.name][1:3] == [parts[0], f"± {parts[1]}"], rows
        call = rows["call"]
        assert len(call[1].partition(".")[2]) == len(call[2].partition(".")[2]) <= 3
        # An enumeration: deals, not trials.
        exact = "select avg(riverEquity(hero)) as ex from hero='AsAh', villain='KsKd', board='2c7d9h';"
        await run_text(pilot, app, exact, finished(app, 2))
        assert "990 deals" in status(app)
        assert "deals/s" in status(app)
        assert "trials" not in status(app)
        # Stopped on a precision target: the note's ± is the table's kind, the largest margin.
        await run_text(pilot, app, f".trials 1e9\n.precision 0.004\n{GOOD}", finished(app, 3))
        note = re.search(r"stopped at ±(\d\.\d+)", status(app))
        assert note is not None, status(app)
        margin = float(cells(app)["eq"][2].removeprefix("± "))
        assert float(note.group(1)) == pytest.approx(margin, rel=0.03)


def test_the_explorers_write_weights_alike() -> None:
    """7e: the term explorer said `weighted 864.0` where the grid explorer says `weighted 46`."""
    from types import SimpleNamespace  # noqa: PLC0415

    from pql_repl.api.exploration import RangeSummary  # noqa: PLC0415
    from pql_repl.editors.range_edit import Totals  # noqa: PLC0415
    from pql_repl.tui.explorer import ExplorerPanel  # noqa: PLC0415
    from pql_repl.tui.term_explorer import TermExplorer  # noqa: PLC0415

    for weighted, shown in ((864.0, "weighted 864"), (46.0, "weighted 46"), (12.5, "weighted 12.5")):
        summary = RangeSummary("omahahi", 1000, 270725, weighted, True, [])
        terms = TermExplorer._totals(SimpleNamespace(union=summary))  # type: ignore[arg-type]
        grid = ExplorerPanel._totals(
            SimpleNamespace(  # type: ignore[arg-type]
                edit=SimpleNamespace(totals=lambda w=weighted: Totals(18, 1326, w)),
                _range_equity=lambda: "",
            )
        )
        assert str(terms).split(", ")[-1] == shown, terms
        assert str(grid).split(", ")[-1] == shown, grid
