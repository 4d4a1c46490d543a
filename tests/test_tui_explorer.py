"""The range explorer driven key by key with Pilot on the real engine: the range strings the keys
write into the editor, the editor's text read back into the grid, the heatmap against `pql.run`,
the board breakdown against counts made here. Waits are on conditions, never on the clock."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import make_app, set_text, type_text, wait_until
from reference import best_hi, hi_type, split
from rich.style import Style
from textual.pilot import Pilot
from textual.widgets import OptionList

import pql_repl as pql
from pql_repl.files import named_ranges
from pql_repl.tui.app import PqlApp
from pql_repl.tui.explorer_dialogs import NamedRangeList, NamePrompt, SuitPicker
from pql_repl.tui.explorer_grid import weight_colour

SIZE = (160, 50)
FLOP = "Kh9h7d"


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "no-config.toml"))
    return tmp_path / "data"


def query(hero: str, villain: str = "KK, AK", board: str = FLOP) -> str:
    at = f", board='{board}'" if board else ""
    return f"select avg(riverEquity(hero)) from hero='{hero}', villain='{villain}'{at};"


def hero_range(app: PqlApp) -> str:
    """The hero's range as the editor holds it."""
    text = app.editor.text
    start = text.index("hero='") + len("hero='")
    return text[start : text.index("'", start)]


async def open_on(pilot: Pilot[Any], app: PqlApp, text: str, word: str = "hero") -> None:
    """Put ``text`` in the editor, the cursor on ``word``, and press F2."""
    await set_text(pilot, app, text)
    app.editor.move_cursor(app.editor.location_of(text.index(word)))
    await pilot.press("f2")
    await wait_until(pilot, lambda: app.explorer.display and app.explorer.grid.has_focus)


async def keys(pilot: Pilot[Any], *pressed: str) -> None:
    await pilot.press(*pressed)
    await pilot.pause()


@pytest.mark.asyncio
async def test_keys_write_the_range_into_the_editor() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_on(pilot, app, query("QQ+, AKs", board=""))
        assert app.explorer.player == "hero"
        assert hero_range(app) == "QQ+, AKs"  # nothing is rewritten before a key changes the range
        await keys(pilot, "right", "space")  # AKs out
        assert hero_range(app) == "QQ+"
        await keys(pilot, "space")  # and back
        assert hero_range(app) == "QQ+, AKs"
        # A rectangle: AKs..AQs / KK..KQs (hjkl move too).
        await keys(pilot, "shift+down", "shift+right", "space")
        assert hero_range(app) == "QQ+, AQs+, KQs"
        await keys(pilot, "l", "j", "space")  # a move ends the selection: QJs alone
        assert hero_range(app) == "QQ+, AQs+, KQs, QJs"
        await keys(pilot, "h", "h", "k", "3")  # KK at @30: every part weighted
        assert hero_range(app) == "AA@100, QQ@100, AQs+@100, KQs@100, QJs@100, KK@30"
        await keys(pilot, "0")  # 0 takes it out
        assert hero_range(app) == "AA, QQ, AQs+, KQs, QJs"
        await keys(pilot, "u")
        assert hero_range(app) == "AA@100, QQ@100, AQs+@100, KQs@100, QJs@100, KK@30"
        await keys(pilot, "u", "u")
        assert hero_range(app) == "QQ+, AQs+, KQs"
        await keys(pilot, "r")
        assert hero_range(app) == "QQ+, AQs+, KQs, QJs"
        await keys(pilot, "c")
        assert hero_range(app) == ""
        await keys(pilot, "u", "i")
        inverted = pql.parse_range(hero_range(app))
        assert len(inverted) == 1326 - len(pql.parse_range("QQ+, AQs+, KQs, QJs"))
        await keys(pilot, "i")
        assert hero_range(app) == "QQ+, AQs+, KQs, QJs"
        await keys(pilot, "ctrl+z")
        assert len(pql.parse_range(hero_range(app))) == len(inverted)
        await keys(pilot, "ctrl+y")
        assert hero_range(app) == "QQ+, AQs+, KQs, QJs"


@pytest.mark.asyncio
async def test_plus_and_minus_follow_the_percent_ordering() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_on(pilot, app, query("AA", board=""))
        await keys(pilot, "c")
        await keys(pilot, "plus", "plus", "plus")
        three = [c for c, _ in app.explorer.edit.classes.ordering[:3]]
        names = {app.explorer.edit.classes.names[c] for c in three}
        assert pql.parse_range(hero_range(app)).combos == pql.parse_range(", ".join(names)).combos
        assert names == {"AA", "KK", "QQ"}
        while app.explorer.edit.percent() < 10:
            await keys(pilot, "plus")
        got = set(pql.parse_range(hero_range(app)).combos)
        ten = set(pql.parse_range("10%").combos)
        assert ten <= got  # the classes of `10%`, and at most the one class that crossed 10%
        assert len(got - ten) <= 12
        assert f"{app.explorer.edit.percent():.1f}%" in str(
            app.explorer.query_one("#explorer-totals").render()
        )
        await keys(pilot, "minus")
        assert len(pql.parse_range(hero_range(app))) < len(got)


@pytest.mark.asyncio
async def test_the_suit_picker_chooses_single_hands() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_on(pilot, app, query("QQ+", board=""))
        await keys(pilot, "right", "s")  # AKs
        picker = app.screen
        assert isinstance(picker, SuitPicker)
        options = picker.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert sorted(label[4:] for label in labels) == sorted(pql.parse_range("AKs").combos)
        for want in ("AhKh", "AsKs"):
            at = next(i for i, label in enumerate(labels) if label.endswith(want))
            options.highlighted = at
            await keys(pilot, "space")
        await keys(pilot, "enter")
        assert not isinstance(app.screen, SuitPicker)
        assert hero_range(app) == "QQ+, AhKh, AsKs"
        # Escape drops a choice.
        await keys(pilot, "s", "a", "escape")
        assert hero_range(app) == "QQ+, AhKh, AsKs"
        await keys(pilot, "s", "a", "enter")
        assert hero_range(app) == "QQ+, AKs"


@pytest.mark.asyncio
async def test_typing_in_the_editor_updates_the_grid() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        text = query("QQ+", board="")
        await open_on(pilot, app, text)
        explorer = app.explorer
        # The user edits the range in the editor: the grid follows.
        app.editor.focus()
        at = app.editor.location_of(text.index("QQ+") + 3)
        app.editor.move_cursor(at)
        await keys(pilot, *", JTs")
        await wait_until(pilot, lambda: explorer.edit.text() == "QQ+, JTs")
        jts = explorer.edit.classes.class_index("JTs")
        assert explorer.edit.class_weights(jts) == [100] * 4
        # A range that does not read leaves the grid as it was, and says why.
        await keys(pilot, "Z")
        await wait_until(pilot, lambda: explorer.problem is not None)
        assert explorer.edit.class_weights(jts) == [100] * 4
        await keys(pilot, "backspace")
        await wait_until(pilot, lambda: explorer.problem is None)
        # Edits made in the editor are undone in the grid too.
        await pilot.press("f2")  # the cursor is on hero's range: back into the explorer
        await wait_until(pilot, lambda: explorer.grid.has_focus)
        await keys(pilot, "space")  # AA out
        assert hero_range(app) == "KK-QQ, JTs"
        # F2 in the explorer: back to the editor, the explorer stays; Escape in it closes it.
        await keys(pilot, "f2")
        assert app.editor.has_focus
        assert explorer.display
        await keys(pilot, "f2")
        await wait_until(pilot, lambda: explorer.grid.has_focus)
        await keys(pilot, "escape")
        assert app.editor.has_focus
        assert not explorer.display


@pytest.mark.asyncio
async def test_the_heatmap_agrees_with_pql_run_per_class() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_on(pilot, app, query("QQ+, AK"))
        explorer = app.explorer
        await wait_until(pilot, lambda: explorer.snapshot is not None and explorer.snapshot.done)
        snap = explorer.snapshot
        assert snap is not None
        assert snap.exact
        classes = explorer.edit.classes
        for name in ("AA", "AKo", "98s", "22"):
            eq = snap.classes[classes.class_index(name)]
            (r,) = pql.run(query(name), exact=True)
            assert eq is not None
            assert eq[0] == pytest.approx(r.columns[0].value, abs=1e-9), name
        # The range's own equity is the weighted mean of its hands: what `pql.run` says of it.
        (r,) = pql.run(query("QQ+, AK"), exact=True)
        assert snap.focus is not None
        assert snap.focus[0] == pytest.approx(r.columns[0].value, abs=1e-9)
        # The cell under the cursor shows its equity.
        cell = str(explorer.query_one("#explorer-cell").render())
        aa = snap.classes[classes.class_index("AA")]
        assert aa is not None
        assert f"{aa[0] * 100:.1f}%" in cell
        # A new villain range restarts the heatmap; the range's edits do not.
        run = explorer.heat.run
        await keys(pilot, "space")
        assert explorer.heat.run == run
        app.editor.load_text(query(hero_range(app), villain="KK"))
        await wait_until(pilot, lambda: explorer.heat.run == run + 1)


def ordered(hero: str, villain: str) -> str:
    players = f"hero='{hero}', villain='{villain}', board='{FLOP}'"
    return f"select avg(riverEquity(hero)) from ordering='equity', {players};"


@pytest.mark.asyncio
async def test_the_statements_ordering_is_the_explorers() -> None:
    """With ``ordering='equity'`` the grid holds that ordering's ``10%``, ``+`` widens along it,
    and the heatmap plays against the villain's ``10%`` in it: what ``pql.run`` says."""
    equity_ten = set(pql.parse_range("10%", ordering="equity").combos)
    assert equity_ten != set(pql.parse_range("10%").combos)  # the orderings differ there
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_on(pilot, app, ordered("10%", "10%"))
        explorer = app.explorer
        held = {explorer.edit.classes.hands[h] for h, w in enumerate(explorer.edit.weights) if w}
        assert {pql.parse_range(h).combos[0] for h in held} == equity_ten
        while explorer.edit.percent() < 15:
            await keys(pilot, "plus")
        got = set(pql.parse_range(hero_range(app), ordering="equity").combos)
        fifteen = set(pql.parse_range("15%", ordering="equity").combos)
        assert fifteen <= got
        assert len(got - fifteen) <= 12  # at most the one class that crossed 15%
        await wait_until(pilot, lambda: explorer.snapshot is not None and explorer.snapshot.done)
        snap = explorer.snapshot
        assert snap is not None
        for name in ("AA", "JTs"):
            eq = snap.classes[explorer.edit.classes.class_index(name)]
            (r,) = pql.run(ordered(name, "10%"), exact=True)
            assert eq is not None
            assert eq[0] == pytest.approx(r.columns[0].value, abs=1e-9), name


@pytest.mark.asyncio
async def test_a_monte_carlo_heatmap_agrees_with_pql_run_within_its_error() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_on(pilot, app, query("QQ+", villain="QQ+, AK", board=""))
        explorer = app.explorer
        classes = explorer.edit.classes

        # Refining: once every cell has a margin under 0.03, compare some cells.
        def converged() -> bool:
            snap = explorer.snapshot
            return snap is not None and all(c is not None and 1.96 * c[1] < 0.03 for c in snap.classes)

        await wait_until(pilot, converged)
        snap = explorer.snapshot
        assert snap is not None
        assert not snap.exact
        for name in ("AA", "AKs", "76s"):
            eq = snap.classes[classes.class_index(name)]
            (r,) = pql.run(query(name, villain="QQ+, AK", board=""), trials=200_000, seed=4)
            col = r.columns[0]
            assert eq is not None
            assert col.stderr is not None
            assert abs(eq[0] - float(col.value or 0)) < 4 * (eq[1] ** 2 + col.stderr**2) ** 0.5, name
        explorer.stop_heatmap()


def reference_types(hands: list[str], board: str) -> Counter[str]:
    return Counter(hi_type("holdem", best_hi("holdem", split(h), split(board))) for h in hands)


@pytest.mark.asyncio
async def test_the_breakdown_counts_and_highlights() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_on(pilot, app, query("QQ+, AK, T8s, 86s"))
        explorer = app.explorer
        hands = [
            h for h in pql.parse_range("QQ+, AK, T8s, 86s").combos if not set(split(h)) & set(split(FLOP))
        ]
        counts = {line.key: combos for line, combos, _ in explorer.category_counts()}
        want = reference_types(hands, FLOP)
        for kind in (
            "straightflush",
            "quads",
            "fullhouse",
            "flush",
            "straight",
            "trips",
            "twopair",
            "pair",
            "highcard",
        ):
            assert counts[kind] == want.get(kind, 0), kind
        # Draws, hand by hand with the query functions.
        for draw, function in (("openended", "openEndedStraightDraw"), ("gutshot", "gutshotStraightDraw")):
            (r,) = pql.run(
                f"select count({function}(hero, flop)) from hero='QQ+, AK, T8s, 86s', board='{FLOP}'",
                exact=True,
            )
            assert counts[draw] == pytest.approx(float(r.columns[0].value or 0) * len(hands)), draw
        # `]` walks the lines; the classes of the selected one light up.
        await keys(pilot, "right_square_bracket")
        assert explorer.category == 0
        while explorer.lines[explorer.category or 0].key != "openended":
            await keys(pilot, "right_square_bracket")
        classes = explorer.edit.classes
        assert {classes.names[c] for c in explorer.highlighted_classes()} == {"T8s", "86s"}
        await keys(pilot, "left_square_bracket")
        assert explorer.lines[explorer.category or 0].key == "flushdraw"  # Th8h and 8h6h
        assert {classes.names[c] for c in explorer.highlighted_classes()} == {"T8s", "86s"}
        await keys(pilot, "left_square_bracket")
        assert explorer.lines[explorer.category or 0].key == "highcard"
        assert {classes.names[c] for c in explorer.highlighted_classes()} == {"T8s", "86s"}


@pytest.mark.asyncio
async def test_named_ranges_save_and_load() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_on(pilot, app, query("QQ+, AKs", board=""))
        await keys(pilot, "n")
        assert isinstance(app.screen, NamePrompt)
        await keys(pilot, *"$x")  # too short: refused, the prompt stays
        await keys(pilot, "enter")
        assert isinstance(app.screen, NamePrompt)
        await keys(pilot, "backspace", *"mine", "enter")
        assert named_ranges.load() == {"mine": "QQ+, AKs"}
        await keys(pilot, "c", "o")
        assert isinstance(app.screen, NamedRangeList)
        await keys(pilot, "enter")
        assert hero_range(app) == "QQ+, AKs"


@pytest.mark.asyncio
async def test_explore_command_and_other_games() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await set_text(pilot, app, query("AA") + "\n.explore villain\n")
        await pilot.press("f5")
        await wait_until(pilot, lambda: app.explorer.display)
        assert app.explorer.player == "villain"
        assert app.explorer.edit.text() == "KK, AK"
        await keys(pilot, "escape")
        await set_text(
            pilot, app, "select avg(riverEquity(hero)) from game='omahahi', hero='AA**', villain='KK**';"
        )
        await pilot.press("f2")
        await pilot.pause()
        assert not app.explorer.display
        await set_text(pilot, app, "select avg(6) from game='holdem';")
        await pilot.press("f2")
        await pilot.pause()
        assert not app.explorer.display


@pytest.mark.asyncio
async def test_capital_hjkl_select_like_shift_arrows() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_on(pilot, app, query("AA", board=""))
        await keys(pilot, "c", "J", "L", "space")  # AA, AKs, AKo, KK
        assert hero_range(app) == "KK+, AK"
        await keys(pilot, "H", "K", "5")  # the selection shrinks back to its first corner, AA
        assert hero_range(app) == "KK@100, AK@100, AA@50"
        # @ asks for any weight: a number past 100 is refused in place, Escape changes nothing.
        await keys(pilot, "at", "1", "2", "0", "enter")
        assert "0 to 100" in str(app.screen.query_one("#weight-error").render())
        await keys(pilot, "escape")
        assert hero_range(app) == "KK@100, AK@100, AA@50"
        await keys(pilot, "at", "3", "5", "enter")
        assert hero_range(app) == "KK@100, AK@100, AA@35"


def test_snapshot_of_a_seeded_heatmap(snap_compare: Any) -> None:
    # Monte Carlo with a fixed number of deals and a seed: the same numbers on every machine,
    # whatever the threads (the heatmap's sums are exact integers).
    app = make_app(seed=7)

    async def run_before(pilot: Pilot[Any]) -> None:
        app.editor.cursor_blink = False
        app.explorer.heat_trials = 20_000
        app.explorer.heat_precision = None
        await open_on(pilot, app, query("QQ+, AKs", villain="JJ+, AQs+", board=""))
        await wait_until(pilot, lambda: app.explorer.snapshot is not None and app.explorer.snapshot.done)
        await keys(pilot, "right", "shift+down")
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=(130, 40))


OMAHA = "select avg(riverEquity(hero)) from game='omahahi', hero='AA**$ds', villain='KK**';"


@pytest.mark.asyncio
async def test_the_omaha_explorer_edits_terms() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await set_text(pilot, app, OMAHA)
        app.editor.move_cursor(app.editor.location_of(OMAHA.index("hero")))
        await pilot.press("f2")
        terms = app.term_explorer
        await wait_until(pilot, lambda: terms.display and terms.term_list.has_focus)
        assert not app.explorer.display
        await wait_until(pilot, lambda: terms.counted == "AA**$ds")
        (_t,) = terms.terms
        summary = terms.summaries["AA**$ds"]
        assert not isinstance(summary, str)
        assert summary.hands == len(pql.parse_range("AA**$ds", "omahahi"))
        # a adds a term (typed in a prompt), ! negates, digits weight, x removes, u/r undo.
        await keys(pilot, "a", *"RRON", "enter")
        assert hero_range(app) == "AA**$ds, RRON"
        await keys(pilot, "k", "down", "exclamation_mark")
        assert hero_range(app) == "AA**$ds!(RRON)"
        await keys(pilot, "up", "3")
        assert hero_range(app) == "AA**$ds!(RRON)@30"
        await keys(pilot, "0", "down", "x")
        assert hero_range(app) == "AA**$ds"
        await keys(pilot, "u")
        assert hero_range(app) == "AA**$ds!(RRON)"
        await keys(pilot, "r")
        assert hero_range(app) == "AA**$ds"
        # The union's totals are the engine's count of the whole text; its sample holds its hands.
        await keys(pilot, "a", *"KK**", "enter")
        await wait_until(pilot, lambda: terms.counted == "AA**$ds, KK**")
        union = terms.union
        assert not isinstance(union, str)
        assert union is not None
        both = set(pql.parse_range("AA**$ds, KK**", "omahahi").combos)
        assert union.hands == len(both)
        assert set(union.sample) <= both
        # The equity distribution: shares of the range by equity tenth.
        await wait_until(pilot, lambda: terms.distribution is not None and terms.distribution.done)
        d = terms.distribution
        assert d is not None
        assert sum(d.shares) == pytest.approx(1.0)
        # Typing in the editor rewrites the terms.
        app.editor.load_text(OMAHA.replace("AA**$ds", "QQ**, JJ**"))
        await wait_until(pilot, lambda: [x.text for x in terms.terms] == ["QQ**", "JJ**"])
        await keys(pilot, "f2")  # from the explorer: to the editor; again: back into the explorer
        assert app.editor.has_focus
        await pilot.press("f2")
        await wait_until(pilot, lambda: terms.term_list.has_focus)
        await keys(pilot, "escape")
        assert not terms.display
        assert app.editor.has_focus


RAZZ = "select avg(riverEquity(hero)) from game='razz', hero='A23', villain='(3-2-)45678';"


def brute_count(game_ranks: str, slots: list[str], apart: int = 0) -> int:
    """Hands (two down cards unordered, the rest in order) matching ``slots`` of ranks, ceilings
    (``7-``, razz order: the ace lowest) and cards; the first ``apart`` slots of different
    ranks. Counted card by card, without the engine."""
    deck = [r + s for r in game_ranks for s in "cdhs"]
    low = {r: i for i, r in enumerate("A23456789TJQK")}

    def fits(card: str, slot: str) -> bool:
        if slot.endswith("-"):
            return low[card[0]] <= low[slot[0]]
        return card == slot if len(slot) == 2 else card[0] == slot

    hands = set()
    for cards in product(deck, repeat=len(slots)):
        if len(set(cards)) < len(cards) or not all(fits(c, s) for c, s in zip(cards, slots, strict=True)):
            continue
        if len({c[0] for c in cards[:apart]}) < apart:
            continue
        hands.add((frozenset(cards[:2]), cards[2:]))
    return len(hands)


@pytest.mark.asyncio
async def test_the_stud_picker_writes_the_hand_and_counts_what_remains() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await set_text(pilot, app, RAZZ)
        app.editor.move_cursor(app.editor.location_of(RAZZ.index("villain")))
        await pilot.press("f2")
        stud = app.stud_explorer
        await wait_until(pilot, lambda: stud.display and stud.slot_row.has_focus)
        assert not app.explorer.display
        assert not app.term_explorer.display
        assert stud.player == "villain"
        assert [s.text for s in stud.slots[:3]] == ["3-", "2-", "4"]
        assert stud.slots[0].grouped
        assert stud.slots[1].grouped
        assert not stud.slots[2].grouped
        await wait_until(pilot, lambda: stud.counted == "(3-2-)45678")

        def villain() -> str:
            text = app.editor.text
            start = text.index("villain='") + len("villain='")
            return text[start : text.index("'", start)]

        # x clears; a rank, a suit (a whole card moves on), a ceiling, a floor, any card.
        await keys(pilot, "x")
        assert villain() == "*"
        await keys(pilot, "K", "s")
        assert villain() == "Ks"
        assert stud.slot_row.cursor == 1
        await keys(pilot, "7", "minus", "right", "t", "plus")
        assert villain() == "Ks7-T+"
        await keys(pilot, "right", "right", "8")
        assert villain() == "Ks7-T+*8"
        await keys(pilot, "space")
        assert villain() == "Ks7-T+"
        # ( groups slots whose ranks differ: the two down cards and the third-street card.
        await keys(pilot, "x", "3", "minus", "right", "3", "minus", "right", "4")
        assert villain() == "3-3-4"
        await keys(pilot, "left", "left", "left_parenthesis", "right", "left_parenthesis")
        assert villain() == "(3-3-)4"
        # What remains, counted by the engine, equals a count made card by card here.
        await wait_until(pilot, lambda: stud.counted == "(3-3-)4")
        assert not isinstance(stud.summary, str)
        assert stud.summary is not None
        assert stud.summary.hands == brute_count("A2345678", ["3-", "3-", "4"], apart=2)
        assert all(h.startswith(("A", "2", "3")) for h in stud.summary.sample)
        await keys(pilot, "u")
        assert villain() == "(3-)3-4"
        await keys(pilot, "u")
        assert villain() == "3-3-4"
        await wait_until(pilot, lambda: stud.counted == "3-3-4")
        assert stud.summary is not None
        assert not isinstance(stud.summary, str)
        assert stud.summary.hands == brute_count("A2345678", ["3-", "3-", "4"])
        await keys(pilot, "r", "r")
        assert villain() == "(3-3-)4"
        # Typing in the editor updates the picker.
        app.editor.load_text(RAZZ.replace("(3-2-)45678", "KsJh"))
        await wait_until(pilot, lambda: [s.text for s in stud.slots[:3]] == ["Ks", "Jh", "*"])
        await keys(pilot, "escape")
        assert not stud.display
        assert app.editor.has_focus


@pytest.mark.asyncio
async def test_f2_on_a_range_line_explores_its_range() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        text = ".range holdem 'QQ+, AKs'\n"
        await set_text(pilot, app, text)
        app.editor.move_cursor(app.editor.location_of(text.index("QQ")))
        await pilot.press("f2")
        await wait_until(pilot, lambda: app.explorer.display and app.explorer.grid.has_focus)
        await keys(pilot, "right", "space")  # AKs out, written into the .range line
        assert app.editor.text == ".range holdem 'QQ+'\n"
        await wait_until(pilot, lambda: app.explorer.heat_error is not None)
        assert "no other player" in app.explorer.heat_error


SIMULATE = (
    "simulate call, raise from game='holdem', hero='Jh9h', villain='QQ+@90, 77-JJ@40, AK@80, AJs-ATs@60', "
    "board='Jd7c2h', pot=10, tocall=2, bet=2, history='villain:raise@flop'"
)


def class_means(statement: str, observations: list[tuple[str, str, str]] | None = None) -> dict[str, float]:
    """The villain's mean weight per class name after reweighting, grouped here from the
    engine's holdings (``AsKs`` -> ``AKs``)."""
    order = "23456789TJQKA"
    holdings = pql.Query(statement, observations=observations).holdings(0)
    assert holdings is not None
    sums: dict[str, list[float]] = {}
    for hand, weight in holdings["villain"]:
        (r1, s1), (r2, s2) = sorted([hand[0:2], hand[2:4]], key=lambda c: -order.index(c[0]))
        name = r1 + r2 if r1 == r2 else r1 + r2 + ("s" if s1 == s2 else "o")
        sums.setdefault(name, []).append(weight)
    return {name: sum(ws) / len(ws) for name, ws in sums.items()}


def shown_means(app: PqlApp) -> dict[str, float]:
    panel = app.explorer
    assert panel.reweighted is not None
    names = panel.edit.classes.names
    return {names[c]: w for c, w in enumerate(panel.reweighted) if w is not None}


@pytest.mark.asyncio
async def test_a_simulate_statements_reweighted_range_is_a_heatmap_of_weights() -> None:
    """Issue 18: the explorer on a player whose actions reweight the range shows the weights
    after reweighting, class by class, as the engine's holdings give them; `w` toggles to the
    equity heatmap; `.observe` reweights it again."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_on(pilot, app, SIMULATE + ";", word="villain")
        panel = app.explorer
        assert panel.player == "villain"
        await wait_until(pilot, lambda: panel.reweighted is not None)
        assert panel.showing_weights
        expected = class_means(SIMULATE)
        assert shown_means(app) == pytest.approx(expected)
        # The raise moved weight: some class lost against the range's own weights.
        before = class_means(SIMULATE.replace(", history='villain:raise@flop'", ""))
        assert any(expected[n] < before[n] - 1e-9 for n in expected)
        # Each cell is coloured by its share of the heaviest class's weight.
        heaviest = max(expected.values())
        grid = panel.grid.render()
        classes = panel.edit.classes
        for name in ("AKs", "JJ", "QQ"):
            r, c = classes.position(classes.names.index(name))
            at = r * (4 * classes.size + 1) + 4 * c
            style = grid.get_style_at_offset(app.console, at)
            assert style.bgcolor == Style.parse(f"on {weight_colour(expected[name] / heaviest)}").bgcolor
        assert "raise on flop" in str(panel._weights_legend())

        await keys(pilot, "w")  # the equity heatmap
        assert not panel.showing_weights
        await keys(pilot, "w")
        assert panel.showing_weights

        # An action observed at the table reweights the range again.
        assert app.run_command(".observe villain raise on preflop") is not None
        observed = [("villain", "raise", "preflop")]
        again = class_means(SIMULATE, observed)
        assert again != pytest.approx(expected)
        await wait_until(pilot, lambda: shown_means(app) == pytest.approx(again))


@pytest.mark.asyncio
async def test_a_select_statement_has_no_weights_view() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_on(pilot, app, query("QQ+, AKs"))
        await keys(pilot, "w")
        assert not app.explorer.showing_weights
        assert app.explorer.reweighted is None


# -- issue 37: the range equity follows the range; the completion menu and the narrow layout --

WIDE_VILLAIN = "22+, A2s+, KTs+, QJs, AQo+"
SIZES = [(80, 24), (160, 48)]


def screen_lines(app: PqlApp) -> list[str]:
    """The screen as drawn: one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def drawn_equity(app: PqlApp) -> tuple[float, float] | None:
    """The range equity the explorer draws, in percent, and its 95% margin (0: exact); None
    when the screen shows none."""
    for line in screen_lines(app):
        found = re.search(r"range equity (\d+\.\d)%(?: ± (\d+\.\d+)| (exact))", line)
        if found:
            return float(found[1]), 0.0 if found[3] else float(found[2])
    return None


def heatmap_done(app: PqlApp, villain: str | None = None) -> Callable[[], bool]:
    """A condition: the explorer's heatmap (against ``villain``, if given) has finished."""

    def done() -> bool:
        snap, inputs = app.explorer.snapshot, app.explorer._heat_inputs
        against = villain is None or (inputs is not None and inputs.villains == (villain,))
        return snap is not None and snap.done and against

    return done


async def check_range_equity(pilot: Pilot[Any], app: PqlApp, villain: str = WIDE_VILLAIN, **run: Any) -> None:
    """The drawn range equity is that of the hero's range in the editor now (``pql.run`` with
    ``run``'s options: exact, or sampled with a standard error), within the drawn margin."""
    await pilot.pause()
    (r,) = pql.run(query(hero_range(app), villain=villain, board="Kh7c2d" if run.get("exact") else ""), **run)
    col = r.columns[0]
    expected = float(col.value or 0) * 100
    reference = 1.96 * (col.stderr or 0.0) * 100
    drawn = drawn_equity(app)
    assert drawn is not None, "\n".join(screen_lines(app))
    figure, margin = drawn
    # Rounded to 0.1 when drawn: 0.05 of slack besides the margins.
    assert abs(figure - expected) <= margin + reference + 0.05 + 1e-9, (hero_range(app), drawn, expected)


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES)
async def test_the_range_equity_follows_every_edit(size: tuple[int, int]) -> None:
    """Issue 37: the "range equity" line describes the range in the editor after every edit
    (grid keys, undo, the villain's range typed in the editor), the heatmap long finished."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await open_on(pilot, app, query("QQ+, AKs", villain=WIDE_VILLAIN, board="Kh7c2d"))
        await wait_until(pilot, heatmap_done(app))
        await check_range_equity(pilot, app, exact=True)
        assert drawn_equity(app) == (80.1, 0.0)
        await keys(pilot, "plus", "plus")
        assert hero_range(app) == "TT+, AKs"
        await check_range_equity(pilot, app, exact=True)
        assert drawn_equity(app) == (71.5, 0.0)
        await keys(pilot, "right", "right", "space")  # AQs in
        assert hero_range(app) == "TT+, AQs+"
        await check_range_equity(pilot, app, exact=True)
        await keys(pilot, "u")
        assert hero_range(app) == "TT+, AKs"
        await check_range_equity(pilot, app, exact=True)
        # The villain's range, typed in the editor: a new heatmap, the same range of the hero.
        await keys(pilot, "f2")
        assert app.editor.has_focus
        text = app.editor.text
        start = text.index(WIDE_VILLAIN)
        app.editor.move_cursor(app.editor.location_of(start + len(WIDE_VILLAIN)))
        await type_text(pilot, ", 72o")
        await wait_until(pilot, heatmap_done(app, WIDE_VILLAIN + ", 72o"))
        await check_range_equity(pilot, app, villain=WIDE_VILLAIN + ", 72o", exact=True)
        # The hero's range typed in the editor.
        text = app.editor.text
        app.editor.move_cursor(app.editor.location_of(text.index("AKs") + len("AKs")))
        await type_text(pilot, ", 99")
        assert hero_range(app) == "TT+, AKs, 99"
        await wait_until(pilot, lambda: app.explorer.edit.text() == "99+, AKs")
        await check_range_equity(pilot, app, villain=WIDE_VILLAIN + ", 72o", exact=True)


@pytest.mark.asyncio
async def test_the_range_equity_of_a_sampled_heatmap_follows_edits() -> None:
    """Issue 37: a Monte Carlo heatmap that has finished still gives the range equity of every
    new range, with its margin."""
    app = make_app(seed=3)
    async with app.run_test(size=(160, 48)) as pilot:
        app.explorer.heat_trials = 40_000
        app.explorer.heat_precision = None
        await open_on(pilot, app, query("QQ+, AKs", villain=WIDE_VILLAIN, board=""))
        await wait_until(pilot, heatmap_done(app))
        assert app.explorer.snapshot is not None
        assert not app.explorer.snapshot.exact
        await check_range_equity(pilot, app, trials=400_000, seed=5)
        before = drawn_equity(app)
        await keys(pilot, "plus", "plus")
        assert hero_range(app) == "TT+, AKs"
        await check_range_equity(pilot, app, trials=400_000, seed=5)
        after = drawn_equity(app)
        assert before is not None
        assert after is not None
        assert after[0] < before[0] - 1
        assert 0 < after[1] < 2  # sampled: a margin, and a useful one
        await keys(pilot, "u")
        await check_range_equity(pilot, app, trials=400_000, seed=5)


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES)
async def test_f2_closes_the_completion_menu(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await set_text(pilot, app, "select avg(riverEquity(hero)) from hero='QQ+, AKs', villain='KK', bo")
        await type_text(pilot, "a")
        assert app.editor.completing
        assert any("from key" in line for line in screen_lines(app))  # the menu: "board  from key"
        await pilot.press("f2")
        await wait_until(pilot, lambda: app.explorer.display and app.explorer.grid.has_focus)
        await pilot.pause()
        assert not app.editor.completing
        assert not any("from key" in line for line in screen_lines(app))


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES)
async def test_the_explorer_leaves_the_editor_its_width(size: tuple[int, int]) -> None:
    """Issue 37: at 160 columns the explorer sits beside the editor; at 80 it takes the results'
    place below the editor, which keeps the screen's width, and its whole grid is drawn."""
    width, height = size
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await open_on(pilot, app, query("QQ+, AKs", villain=WIDE_VILLAIN, board="Kh7c2d"))
        await wait_until(pilot, heatmap_done(app))
        await pilot.pause()
        editor, explorer, grid = app.editor.region, app.explorer.region, app.explorer.grid.region
        lines = screen_lines(app)
        if width >= 160:
            assert explorer.x >= editor.right
            assert explorer.y == editor.y == 0
            assert editor.width >= 100
        else:
            assert editor.width == width
            assert explorer.y >= editor.bottom
            assert explorer.width == width
            assert not app.results.region.height  # the explorer is where the results were
        # The whole grid is drawn: every row, from AA to 22, inside the screen.
        assert grid.width == 52
        assert grid.height == 13
        assert grid.bottom <= height - 1  # above the footer
        rows = [line for line in lines if re.search(r"A[2-9TJQK]o .*[2-9TJQKA]{2}", line)]
        assert "A2o K2o Q2o J2o T2o 92o 82o 72o 62o 52o 42o 32o 22" in "\n".join(lines)
        assert len(rows) == 12
        assert any("AA " in line and "A2s" in line for line in lines)
        # The range equity and its totals are drawn too.
        assert drawn_equity(app) == (80.1, 0.0)
        assert any("22 hands" in line for line in lines)


@pytest.mark.asyncio
async def test_ranges_of_other_tools_are_explored_and_copied_in_either_form() -> None:
    """Issue 39: the explorer reads Equilab's, GTO+'s and Pio's forms of a range (opened on one,
    or pasted into the editor), weights with decimals, and copies its range to the clipboard
    (OSC 52): ``y`` in pql's form, ``Y`` in Pio's."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        text = query("[75]AA,KK[/75],QQ", board="")
        await open_on(pilot, app, text)
        explorer = app.explorer
        assert explorer.problem is None
        aa = explorer.edit.classes.class_index("AA")
        assert explorer.edit.class_weights(aa) == [75] * 6
        await keys(pilot, "y")
        assert app.clipboard == "QQ@100, KK+@75"
        await keys(pilot, "Y")
        assert app.clipboard == "AA:0.75,KK:0.75,QQ"
        # A weight with decimals through @, written back as the engine holds it.
        await keys(pilot, "at", "3", "3", ".", "3", "enter")
        assert hero_range(app) == "QQ@100, KK@75, AA@33.3"
        assert "@33.3" in str(explorer.query_one("#explorer-cell").render())
        await keys(pilot, "Y")
        assert app.clipboard == "AA:0.333,KK:0.75,QQ"
        # Pio's form pasted over the range in the editor: the grid follows it.
        start = app.editor.text.index("hero='") + len("hero='")
        end = app.editor.text.index("'", start)
        app.editor.focus()
        app.editor.replace(
            "AcAd:0.5,KsKh,QsQd:0.25", app.editor.location_of(start), app.editor.location_of(end)
        )
        await wait_until(pilot, lambda: explorer.edit.text() == "KsKh@100, AdAc@50, QsQd@25")
        assert explorer.problem is None
        assert hero_range(app) == "AcAd:0.5,KsKh,QsQd:0.25"  # the editor keeps what was pasted
