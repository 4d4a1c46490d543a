"""A sweep's table among other results in the app's history (issue 37): drawn whole wherever it
sits once the history scrolls (every row when they fit, a scrolling table of the history's
height when they do not, the `all` line under it), its keys when it is focused, and Ctrl+S
writing it with the statements' results. Pilot on the real engine at 80x24 and 160x48; what is
asserted is what the screen shows."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import finished, make_app, run_text, wait_until
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, Static

import pql_repl as pql
from pql_repl.tui.app import PqlApp
from pql_repl.tui.results import FittedResult
from pql_repl.tui.screens import ExportDialog
from pql_repl.tui.sweep_table import SweepGrid, SweepTable

SIZES = [(80, 24), (160, 48)]
TRIALS = {"trials": 1000, "seed": 2}
SWEEP = (
    "select avg(riverEquity(hero)) as eq from hero=$h, villain='QQ+, AK' sweep $h over ('AKs', 'JJ', '7s6s');"
)
LABELS = ("AKs", "JJ", "7s6s")
EIGHT = "\n".join(f"select avg(riverEquity(hero)) as s{i} from hero='AA', villain='KK';" for i in range(1, 9))
AFTER = "select avg(riverEquity(hero)) as after from hero='QQ', villain='AKs';"


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "no-config.toml"))
    return tmp_path / "data"


def screen_text(app: Any) -> str:
    """The screen as plain text, as a user reads it."""
    console = Console(width=app.size.width, record=True, file=io.StringIO())
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


def status(app: PqlApp) -> str:
    return str(app.query_one("#status", Static).render())


def history_text(app: PqlApp) -> str:
    """The lines the results history shows (inside its border and scrollbar), from the screen."""
    region = app.results.history.scrollable_content_region
    lines = screen_text(app).splitlines()[region.y : region.bottom]
    return "\n".join(line[region.x : region.right] for line in lines)


def drawn_row(label: str, text: str) -> re.Match[str] | None:
    """The sweep's row of ``label`` as drawn: the label, its weight, its estimate."""
    return re.search(rf"(?m)^\W*{re.escape(label)}\s+1\s+(0\.\d+) ± 0\.\d+\s*$", text)


async def sweep_after_eight(pilot: Pilot[Any], app: PqlApp) -> None:
    """Eight statements, the sweep, and one more statement after it."""
    await run_text(pilot, app, EIGHT, finished(app, 8))
    await run_text(pilot, app, SWEEP, lambda: not app.running and "3 of 3 rows" in status(app))
    await run_text(pilot, app, AFTER, finished(app, 9))


async def scroll_to_the_sweep(pilot: Pilot[Any], app: PqlApp, table: SweepTable) -> None:
    """F6, Home, then Down line by line until the whole of the sweep's table is in the
    history's view."""
    history = app.results.history
    await pilot.press("f6")
    assert app.focused is history
    await pilot.press("home")
    await wait_until(pilot, lambda: history.scroll_y == 0)

    def in_view() -> bool:
        top, bottom = table.virtual_region.y, table.virtual_region.bottom
        return (
            history.scroll_y <= top and bottom <= history.scroll_y + history.scrollable_content_region.height
        )

    for _ in range(200):
        if in_view():
            break
        await pilot.press("down")
        await pilot.pause()
    assert in_view()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.asyncio
async def test_a_sweep_after_eight_statements_shows_its_rows_and_all_line_and_its_keys_work(
    size: tuple[int, int],
) -> None:
    app = make_app(**TRIALS)
    async with app.run_test(size=size) as pilot:
        await sweep_after_eight(pilot, app)
        table = app.results.history.query(SweepTable).last()
        await scroll_to_the_sweep(pilot, app, table)
        drawn = history_text(app)
        assert re.search(r"(?m)^\W*h\s+weight\s+eq\s*$", drawn), drawn
        for label in LABELS:
            assert drawn_row(label, drawn), (label, drawn)
        assert "all (weight 3): eq " in drawn, drawn
        # Drawn in the order it ran: after the eighth statement, before the one after it.
        ordered = app.results.history.query(".history-entry")
        assert [e for e in ordered if isinstance(e, SweepTable)] == [table]
        results = [e.content for e in ordered if isinstance(e, Static)]
        names = [r.result.columns[0].name for r in results if isinstance(r, FittedResult)]
        assert names == [f"s{i}" for i in range(1, 9)]
        assert list(ordered).index(table) == 8

        # Tab from the history reaches the table; s sorts by the column under the cursor.
        await pilot.press("tab")
        grid = table.query_one(SweepGrid)
        assert app.focused is grid
        await pilot.press("right", "right", "s")
        await pilot.pause()
        drawn = history_text(app)
        shown = {label: float(m.group(1)) for label in LABELS if (m := drawn_row(label, drawn))}
        assert set(shown) == set(LABELS), drawn
        ranked = sorted(LABELS, key=lambda label: drawn.index(drawn_row(label, drawn).group()))  # type: ignore[union-attr]
        assert [shown[label] for label in ranked] == sorted(shown.values()), drawn
        # Enter opens the row under the cursor (the weakest hand): its result joins the history.
        await pilot.press("enter")
        weakest = ranked[0]
        await wait_until(pilot, lambda: f"hero='{weakest}'" in screen_text(app))
        assert f"select avg(riverEquity(hero)) as eq from hero='{weakest}'" in history_text(app)


#: More rows than the history has room for at either size.
MANY = [
    "AA", "KK", "QQ", "JJ", "TT", "99", "88", "77", "66", "55", "44", "33", "22",
    "AKs", "AQs", "AJs", "ATs", "KQs", "KJs", "QJs", "JTs", "T9s", "98s", "87s", "76s",
    "65s", "54s", "AKo", "AQo", "KQo", "QJo", "JTo", "T9o", "A5s", "A4s",
]  # fmt: skip
LONG = (
    "select avg(riverEquity(hero)) as eq from hero=$h, villain='QQ+, AK' sweep $h over ("
    + ", ".join(f"'{h}'" for h in MANY)
    + ");"
)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.asyncio
async def test_a_long_sweep_scrolls_in_a_table_of_the_historys_height_with_its_all_line(
    size: tuple[int, int],
) -> None:
    app = make_app(trials=200, seed=2)
    async with app.run_test(size=size) as pilot:
        await run_text(pilot, app, EIGHT, finished(app, 8))
        await run_text(pilot, app, LONG, lambda: not app.running and f"{len(MANY)} of" in status(app))
        await run_text(pilot, app, AFTER, finished(app, 9))
        table = app.results.history.query(SweepTable).last()
        await scroll_to_the_sweep(pilot, app, table)
        drawn = history_text(app)
        # Its header, its first rows and its `all` line at once in the history's view.
        assert re.search(r"(?m)^\W*h\s+weight\s+eq\s*$", drawn), drawn
        assert re.search(r"(?m)^\W*AA\s+1\s+0\.\d+ ± ", drawn), drawn
        assert f"all (weight {len(MANY)}): eq " in drawn, drawn
        assert not re.search(r"(?m)^\W*A4s\s+1\s", drawn), drawn  # the rest scrolls in the table
        # The table scrolls: End in it brings its last row into view, the `all` line stays.
        await pilot.press("tab")
        assert app.focused is table.query_one(SweepGrid)
        await pilot.press("end")
        await pilot.pause()
        drawn = history_text(app)
        assert re.search(r"(?m)^\W*A4s\s+1\s+0\.\d+ ± ", drawn), drawn
        assert f"all (weight {len(MANY)}): eq " in drawn, drawn


@pytest.mark.asyncio
async def test_ctrl_s_writes_the_sweep_with_the_statements(tmp_path: Path) -> None:
    pandas = pytest.importorskip("pandas")
    app = make_app(**TRIALS)
    async with app.run_test(size=(80, 24)) as pilot:
        await sweep_after_eight(pilot, app)
        expected = pql.sweep(SWEEP.rstrip(";"), **TRIALS)
        for name in ("history.csv", "history.json"):
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, ExportDialog))
            app.screen.query_one(Input).value = str(tmp_path / name)
            await pilot.press("enter")
            await wait_until(pilot, (tmp_path / name).exists)
    frame = pandas.read_csv(tmp_path / "history.csv", keep_default_na=False)
    assert sorted(set(frame["statement"])) == list(range(1, 11))
    assert list(frame["selector"][frame["statement"] != 9]) == [*(f"s{i}" for i in range(1, 9)), "after"]
    swept = frame[frame["statement"] == 9]
    assert list(swept["$h"]) == [*LABELS, ""]
    assert list(swept["sweep_row"]) == ["1", "2", "3", "all"]
    values = [float(r.result.columns[0].value or 0) for r in expected.rows if r.result]
    assert list(swept["value"][:3]) == pytest.approx(values)
    assert float(swept["value"].iloc[3]) == pytest.approx(expected.aggregate()[0][0])
    document = json.loads((tmp_path / "history.json").read_text())
    assert len(document["statements"]) == 9
    (sweep,) = document["sweeps"]
    assert sweep["statement"] == 9
    assert [r["values"]["h"] for r in sweep["rows"]] == list(LABELS)


@pytest.mark.asyncio
async def test_an_output_file_follows_a_sweep(tmp_path: Path) -> None:
    """`.output FILE` in force: the file is written again when a sweep ends, as after a
    statement, with the sweep's rows."""
    pandas = pytest.importorskip("pandas")
    out = tmp_path / "follow.csv"
    app = make_app(**TRIALS)
    async with app.run_test(size=(80, 24)) as pilot:
        await run_text(
            pilot, app, f".output {out}\n{SWEEP}", lambda: not app.running and "3 of 3 rows" in status(app)
        )
        await wait_until(pilot, lambda: out.exists() and "7s6s" in out.read_text())
    frame = pandas.read_csv(out, keep_default_na=False)
    assert list(frame["$h"]) == [*LABELS, ""]
    assert list(frame["sweep_row"]) == ["1", "2", "3", "all"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.asyncio
async def test_a_long_sweep_last_in_the_history_shows_its_header_without_scrolling(
    size: tuple[int, int],
) -> None:
    # The table's height leaves room for its entry's margin: the history, kept at its end, had
    # scrolled one line more and hidden the grid's header.
    app = make_app(trials=200, seed=2)
    async with app.run_test(size=size) as pilot:
        await run_text(pilot, app, AFTER, finished(app, 1))
        await run_text(pilot, app, LONG, lambda: not app.running and f"{len(MANY)} of" in status(app))
        # The grid's rows and the `all` line drawn (on one core they come a few frames later),
        # and the history kept at its end after them.
        await wait_until(
            pilot,
            lambda: (
                bool(re.search(r"(?m)^\W*AA\s+1\s", history_text(app))) and "all (weight" in history_text(app)
            ),
        )
        history = app.results.history
        await wait_until(pilot, lambda: history.scroll_y == history.max_scroll_y)
        await pilot.pause()
        drawn = history_text(app)
        assert re.search(r"(?m)^\W*h\s+weight\s+eq\s*$", drawn), drawn
        assert f"all (weight {len(MANY)}): eq " in drawn, drawn
