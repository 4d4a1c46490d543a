"""The range explorer against the goals of issue 14 (2 cores): the 169-cell heatmap of hero
classes against `QQ+, AK` preflop reaching ±0.01 (95%) in every cell within 2 s; the exact
heatmap on a flop within 1 s; a key press (the edit, the canonical text, the grid drawn) within
50 ms while the heatmap computes. Each is compared with the plain path it replaces: one
`pql.run` per class to the same precision, and the exact `pql.run` of one class.

Medians of `--repeats` runs (wall clock, both cores). Nothing here is asserted: correctness is
tested in tests/test_exploration.py and tests/test_tui_explorer.py."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import pql_repl as pql
from pql_repl.api.exploration import Heatmap, hand_classes
from pql_repl.editors.range_edit import RangeEdit
from pql_repl.files.history import History
from pql_repl.session.session import Session
from pql_repl.tui.app import PqlApp

VILLAIN = "QQ+, AK"
FLOP = "Kh7c2d"


def heatmap_to_precision(margin: float, seed: int) -> tuple[float, int]:
    """Seconds until every class's 95% margin is at most ``margin``, and the deals it took."""
    start = time.perf_counter()
    h = Heatmap("holdem", [VILLAIN], trials=10**9, seed=seed, precision=margin)
    snap = h.wait()
    elapsed = time.perf_counter() - start
    assert all(c is not None and 1.96 * c[1] <= margin for c in snap.classes)
    return elapsed, snap.trials


def exact_flop() -> float:
    start = time.perf_counter()
    snap = Heatmap("holdem", [VILLAIN], board=FLOP).wait()
    assert snap.exact
    return time.perf_counter() - start


def one_class_runs(margin: float, classes: int) -> float:
    """The plain path: `pql.run` per class until its margin is ``margin`` (time for ``classes``
    of them, scaled to 169)."""
    names = hand_classes("holdem").names[:: max(1, 169 // classes)][:classes]
    start = time.perf_counter()
    for name in names:
        q = f"select avg(riverEquity(hero)) from hero='{name}', villain='{VILLAIN}'"
        pql.run(q, trials=10_000_000, seed=1, precision=margin / 1.96)
    return (time.perf_counter() - start) * 169 / len(names)


async def key_latency(presses: int) -> tuple[list[float], list[float], list[float]]:
    """Seconds from a key press to the grid redrawn (Pilot's press and pause: the app's whole
    message loop), from the press to the first frame the app composes after it (what a terminal
    would show: the app hands each composed frame to its display, timed here), and the
    explorer's own share of one (the edit, the editor's text, the grid and its lines drawn),
    while a Monte Carlo heatmap computes."""
    app = PqlApp(Session(), History())
    times: list[float] = []
    frames: list[float] = []
    own: list[float] = []
    async with app.run_test(size=(160, 50)) as pilot:
        shown: list[float] = []
        display = app._display

        def timed_display(screen: object, renderable: object) -> None:
            if renderable is not None:
                shown.append(time.perf_counter())
            display(screen, renderable)  # type: ignore[arg-type]

        app._display = timed_display  # type: ignore[method-assign]
        text = f"select avg(riverEquity(hero)) from hero='QQ+, AKs', villain='{VILLAIN}';"
        app.editor.load_text(text)
        app.editor.move_cursor(app.editor.location_of(text.index("hero")))
        app.editor.focus()
        await pilot.press("f2")
        while app.explorer.snapshot is None:
            await pilot.pause(0.05)
        for i in range(presses):
            await pilot.pause()
            start = time.perf_counter()
            await pilot.press("space" if i % 2 else "plus")
            await pilot.pause()  # the edit, the editor's text and the redraw handled
            times.append(time.perf_counter() - start)
            after = [t for t in shown if t > start]
            if after:
                frames.append(after[0] - start)
        moves = []
        for i in range(presses):  # the same path for a key that changes nothing but the cursor
            start = time.perf_counter()
            await pilot.press("right" if i % 2 else "left")
            await pilot.pause()
            moves.append(time.perf_counter() - start)
        move = statistics.median(moves) * 1000
        print(f"  (a cursor move through Pilot, changing no range: {move:.1f} ms median)")
        explorer = app.explorer
        for i in range(presses):
            start = time.perf_counter()
            await explorer.act("toggle" if i % 2 else "widen")
            explorer.grid.render()
            explorer.refresh_lines()
            own.append(time.perf_counter() - start)
            await pilot.pause()
        explorer.stop_heatmap()
    return times, frames, own


def edit_cost(repeats: int) -> float:
    """The model's share of a key press: toggle a class and write the canonical text."""
    e = RangeEdit()
    e.load("22+, A2s+, K9s+, QTs+, JTs, ATo+, KJo+")
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        e.toggle([i % 169])
        e.text()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="tiny inputs, to check the script runs")
    args = parser.parse_args()
    margin = 0.05 if args.quick else 0.01
    repeats = 1 if args.quick else args.repeats

    runs = [heatmap_to_precision(margin, seed) for seed in range(repeats)]
    seconds = statistics.median(r[0] for r in runs)
    deals = statistics.median(r[1] for r in runs)
    print(
        f"heatmap, 169 classes vs '{VILLAIN}' preflop, every cell ±{margin} (95%): "
        f"{seconds:.2f} s median, {deals:,.0f} deals (goal 2 s)"
    )
    plain = one_class_runs(margin, 2 if args.quick else 6)
    print(f"  one pql.run per class to the same margin: {plain:.1f} s for 169 (x{plain / seconds:.0f})")
    flop = statistics.median(exact_flop() for _ in range(repeats))
    print(f"exact heatmap on {FLOP} vs '{VILLAIN}': {flop:.3f} s median (goal 1 s)")
    lat, frames, own = asyncio.run(key_latency(6 if args.quick else 40))
    print(
        "key press to the first frame composed after it, while the heatmap computes: "
        f"median {statistics.median(frames) * 1000:.1f} ms, "
        f"max {max(frames) * 1000:.1f} ms over {len(frames)} presses (goal 50 ms)"
    )
    print(
        "  key press to Pilot's press and pause returning (its own waits included): "
        f"median {statistics.median(lat) * 1000:.1f} ms, max {max(lat) * 1000:.1f} ms"
    )
    share = statistics.median(own) * 1000
    print(f"  the explorer's own share (edit, editor text, grid and lines drawn): {share:.1f} ms median")
    print(f"  of which the range model (toggle + canonical text): {edit_cost(200) * 1000:.2f} ms median")


if __name__ == "__main__":
    main()
