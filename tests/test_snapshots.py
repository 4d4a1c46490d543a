"""Every screen and panel of the app, drawn at 80x24 and at 160x48 and compared with the snapshot
a person looked at (issue 37). Runs are exact or seeded with timing hidden, so the pictures are
the same on every machine. When one changes on purpose, look at the new picture
(``pytest tests/test_snapshots.py --snapshot-update`` writes it; the report shows both) before
committing it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import finished, make_app, run_text, set_text, wait_until
from textual.pilot import Pilot

from pql_repl.tui.app import PqlApp

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}

EXACT = (
    "select avg(riverEquity(hero)) as eq, histogram(handType(hero, river)) "
    "from hero='AhKh', villain='QQ', board='Qh7h2c';"
)
HOLDEM = "select avg(riverEquity(hero)) from hero='QQ+, AKs', villain='JJ+, AQs+';"
OMAHA = "select avg(riverEquity(hero)) from game='omahahi', hero='AA**$ds', villain='KK**';"
STUD = "select avg(riverEquity(hero)) from game='stud', hero='AsKs7h', villain='**Qd';"

Step = Callable[[Pilot[Any], PqlApp], Awaitable[None]]


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the screen stops changing: the same picture six rounds in a row, each round
    every queued message and refresh handled (a layout fitted after mounting, a status updated
    by a late message)."""
    app = pilot.app
    still, last = 0, ""
    for _ in range(400):
        # A blinking cursor (the editor's, a dialog's input) is no change of what is drawn.
        for widget in app.screen.query("Input, TextArea"):
            widget.cursor_blink = False  # type: ignore[attr-defined]
        await pilot.wait_for_scheduled_animations()
        # A short wait lets timers and workers (a table fitted after mounting, markdown
        # rendered in the background) have their turn; the picture decides, not the clock.
        await pilot.pause(0.05)
        picture = app.export_screenshot()
        still = still + 1 if picture == last else 0
        if still >= 6:
            return
        last = picture
    raise AssertionError("the screen never settled")


async def start_screen(pilot: Pilot[Any], app: PqlApp) -> None:
    await settle(pilot)


async def exact_result(pilot: Pilot[Any], app: PqlApp) -> None:
    await run_text(pilot, app, EXACT, finished(app))


async def grid_explorer(pilot: Pilot[Any], app: PqlApp) -> None:
    app.explorer.heat_trials = 20_000
    app.explorer.heat_precision = None
    await set_text(pilot, app, HOLDEM)
    app.editor.move_cursor(app.editor.location_of(HOLDEM.index("hero")))
    await pilot.press("f2")
    await wait_until(pilot, lambda: app.explorer.snapshot is not None and app.explorer.snapshot.done)


async def omaha_explorer(pilot: Pilot[Any], app: PqlApp) -> None:
    await set_text(pilot, app, OMAHA)
    app.editor.move_cursor(app.editor.location_of(OMAHA.index("hero")))
    await pilot.press("f2")
    await wait_until(pilot, lambda: app.term_explorer.display and app.term_explorer.term_list.has_focus)
    app.term_explorer.stop_distribution()  # its sampled distribution would draw differently each time


async def stud_picker(pilot: Pilot[Any], app: PqlApp) -> None:
    await set_text(pilot, app, STUD)
    app.editor.move_cursor(app.editor.location_of(STUD.index("hero")))
    await pilot.press("f2")
    await wait_until(pilot, lambda: app.stud_explorer.display)


async def help_screen(pilot: Pilot[Any], app: PqlApp) -> None:
    await pilot.press("f1")
    await wait_until(pilot, lambda: len(app.screen_stack) > 1)


async def odds_view(pilot: Pilot[Any], app: PqlApp) -> None:
    # One random opponent: both statements exact, the same numbers on every machine.
    await set_text(pilot, app, ".odds AdQc 3h4cJh 1")
    await pilot.press("f5")
    await wait_until(
        pilot, lambda: len(app.screen_stack) > 1 and bool(getattr(app.screen, "finished", False))
    )


async def chart(pilot: Pilot[Any], app: PqlApp) -> None:
    await run_text(pilot, app, EXACT, finished(app))
    await pilot.press("f7")
    await wait_until(pilot, lambda: len(app.screen_stack) > 1)


async def export_dialog(pilot: Pilot[Any], app: PqlApp) -> None:
    await run_text(pilot, app, EXACT, finished(app))
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: len(app.screen_stack) > 1)


SCREENS: dict[str, Step] = {
    "start_screen": start_screen,
    "exact_result": exact_result,
    "grid_explorer": grid_explorer,
    "omaha_explorer": omaha_explorer,
    "stud_picker": stud_picker,
    "help": help_screen,
    "odds_view": odds_view,
    "chart": chart,
    "export_dialog": export_dialog,
}


#: Pictures left out, with why (what they show is asserted as text elsewhere): after a failed
#: statement or a sweep the history's scroll position, and at 80 columns the chart's tick
#: labels, settle differently from run to run (tests/test_tui_results.py, test_tui_sweep_history.py
#: and test_holdemhand.py check what they draw).
LEFT_OUT = {("chart", "80x24")}


@pytest.mark.parametrize(
    ("screen", "size"),
    [(screen, size) for screen in SCREENS for size in SIZES if (screen, size) not in LEFT_OUT],
)
def test_snapshot(
    snap_compare: Any, screen: str, size: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir("/")  # the export dialog shows the file it suggests there, whole
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path))  # no history or saved text of other tests
    app = make_app(exact="auto", seed=7, trials=20_000)

    async def run_before(pilot: Pilot[Any]) -> None:
        app.editor.cursor_blink = False
        app.results.timing = False
        await SCREENS[screen](pilot, app)
        await settle(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=SIZES[size])
