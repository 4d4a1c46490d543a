"""The stud picker's slots as the screen shows them (issue 37): opened with F2 on a stud player,
every one of the seven slots is drawn, its name over its card (a card, a ceiling, a floor, a
list, the parenthesis of a group), at 80x24 and at 160x48. Pilot on the real engine."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import make_app, set_text, wait_until
from rich.console import Console

from pql_repl.editors.stud_edit import SLOT_NAMES

SIZES = [(80, 24), (160, 48)]


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "no-config.toml"))
    return tmp_path / "data"


def screen_lines(app: Any) -> list[str]:
    """The screen as plain text lines, as a user reads it."""
    console = Console(width=app.size.width, record=True, file=io.StringIO())
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text().splitlines()


def drawn_slots(app: Any) -> list[tuple[str, str]]:
    """(name, what is drawn under it) of every slot on the screen, in order: the picker's lines
    go in pairs, the slots' names over their cells; a cell spans its name's columns up to the
    next name."""
    region = app.stud_explorer.slot_row.region
    lines = [line[region.x : region.right] for line in screen_lines(app)[region.y : region.bottom]]
    names = re.compile("|".join(re.escape(n) for n in sorted(set(SLOT_NAMES), key=len, reverse=True)))
    slots = []
    for top, bottom in zip(lines[::2], lines[1::2], strict=True):
        found = list(names.finditer(top))
        for m, after in zip(found, [*found[1:], None], strict=True):
            end = after.start() if after else len(bottom)
            slots.append((m.group(), bottom[m.start() : end].strip()))
    return slots


async def open_stud_picker(pilot: Any, app: Any, text: str) -> None:
    await set_text(pilot, app, text)
    app.editor.move_cursor(app.editor.location_of(text.index("hero")))
    await pilot.press("f2")
    stud = app.stud_explorer
    await wait_until(pilot, lambda: stud.display and stud.slot_row.has_focus)
    await wait_until(pilot, lambda: stud.counted is not None)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("hand", "cells"),
    [
        ("AsKs*", ["As", "Ks", "*", "*", "*", "*", "*"]),
        ("AsKs7-T+[A,2]9h8c", ["As", "Ks", "7-", "T+", "[A,2]", "9h", "8c"]),
        ("(3-2-)[A,2,3,4,5,6]T+Ks", ["(3-", "2-)", "[A,2,3,4,5,6]", "T+", "Ks", "*", "*"]),
    ],
)
@pytest.mark.asyncio
async def test_every_slot_of_the_stud_picker_is_drawn_under_its_name(
    size: tuple[int, int], hand: str, cells: list[str]
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await open_stud_picker(
            pilot, app, f"select avg(riverEquity(hero)) from game='stud', hero='{hand}', villain='**';"
        )
        assert [s.text for s in app.stud_explorer.slots] == [c.strip("()") for c in cells]
        assert drawn_slots(app) == list(zip(SLOT_NAMES, cells, strict=True))
        # The cursor's slot moves with Right and shows where typing goes.
        await pilot.press("right", "right", "q")
        await pilot.pause()
        assert drawn_slots(app)[2] == ("3rd up", "Q")
