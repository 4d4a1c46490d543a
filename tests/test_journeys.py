"""Scripted sessions of the full-screen app in a real terminal (``tests/terminal.py``), each at
80x24 and at 160x48, the screen checked after every step; and, each in a test of its own, the
checks that issue 37's bugs broke.

Every step waits for what the screen must show after it (never on the clock), and what it waits
for must not show before its keys (``Journey.step``'s ``fresh``). Runs are short: a fixed `.seed`
and small `.trials`. ``PQL_SHOW_STEPS=1 pytest -s`` prints the screen of every step.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
from terminal import Condition, Terminal, all_of, as_test, editor_empty, shows, status

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
pandas = pytest.importorskip("pandas")

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 48), id="160x48")]

SWEEP = (
    "select avg(riverEquity(hero)) as eq from hero=$h, villain='QQ+, AK' sweep $h over ('AKs', 'JJ', '7s6s');"
)
SIMULATE = (
    "simulate fold, call, raise from game='holdem', hero='AhKh', "
    "villain='QQ+@90, 22-JJ@40, AK@80, *@5', board='Kd7c2h', pot=10, tocall=2, bet=2, stakes='limit';"
)
#: A number of the results: an avg (0.8185, 9.69, 0), a count (46.05% (9,210)).
NUMBER = r"-?\d+(?:\.\d+)?%?"


class Journey:
    """A session step by step: each step presses keys (after typing ``text``) and waits for the
    screen it must lead to, which it returns. A failing step says its number and name."""

    def __init__(self, term: Terminal) -> None:
        self.term = term
        self.steps: list[str] = []

    def step(
        self,
        what: str,
        *keys: str,
        text: str = "",
        expect: Condition,
        fresh: bool = True,
        timeout: float = 60,
    ) -> str:
        """``fresh``: ``expect`` must not hold before the keys (else the wait would prove nothing)."""
        self.steps.append(what)
        if fresh:
            before = self.term.text()
            assert not as_test(expect)(before), f"step {len(self.steps)} ({what}) holds already:\n{before}"
        if text:
            self.term.type(text)
        self.term.send(*keys)
        try:
            screen = self.term.wait_for(expect, timeout)
        except AssertionError as e:
            raise AssertionError(f"step {len(self.steps)} ({what}): {e}") from None
        if os.environ.get("PQL_SHOW_STEPS"):  # to watch a journey: pytest -s with this set
            print(f"--- step {len(self.steps)}: {what}\n{screen}")
        return screen

    def run(self, statement: str, selector: str) -> str:
        """Type ``statement`` and Enter (after its `;`: it runs); the screen once it is done with
        ``selector``'s row in the live table."""
        return self.step(
            f"run {selector}", "enter", text=statement, expect=all_of(status("done ·"), row(selector))
        )


def row(name: str) -> re.Pattern[str]:
    """A table row of ``name`` with a number in it (the live table, a histogram's bucket)."""
    return re.compile(rf"^ +{re.escape(name)} +(?:│ )?({NUMBER})", re.MULTILINE)


def value(screen: str, name: str) -> str:
    """The value of ``name``'s row on ``screen``."""
    found = row(name).findall(screen)
    assert found, f"no row {name!r} on the screen:\n{screen}"
    return str(found[-1])


def as_shown(exact: float, shown: str) -> bool:
    """``shown`` is ``exact`` rounded to the digits it shows."""
    digits = len(shown.partition(".")[2])
    return bool(abs(float(exact) - float(shown)) <= 0.5 * 10.0**-digits + 1e-12)


def trials_set(trials: int) -> re.Pattern[str]:
    """The status line after `.trials N` (N written with or without thousands' commas)."""
    return re.compile(rf"^ trials (?:{trials}|{trials:,})$", re.MULTILINE)


def start(journey: Journey, trials: int = 20000, seed: int = 7) -> None:
    """The start screen, then `.seed` and `.trials` (three steps)."""
    screen = journey.step("start", expect=all_of("Welcome to pql", "Export"))
    assert editor_empty(screen)
    assert "1 select avg(riverEquity(hero))" in screen  # the examples
    journey.step("seed", "enter", text=f".seed {seed}", expect=status(f"seed {seed}"))
    journey.step("trials", "enter", text=f".trials {trials}", expect=trials_set(trials))


def quit_app(term: Terminal, journey: Journey) -> None:
    """Ctrl+Q: the app ends with 0 (the last step)."""
    journey.steps.append("quit")
    term.send("ctrl+q")
    assert term.wait_exit() == 0, term.text()


# -- the journeys --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_journey_statements_errors_history_sweep_export(tmp_path: Path, size: tuple[int, int]) -> None:
    """Statements typed top-down, each run by Enter after its `;`; an error marked as typed,
    reported by the run, then fixed; enough statements that the results history scrolls; the
    sweep; full screen; Ctrl+S to CSV read back with pandas; the history (Up)."""
    columns, lines = size
    with Terminal(tmp_path, columns, lines) as term:
        j = Journey(term)
        start(j)
        screen = j.run("select avg(riverEquity(hero)) as aa from hero='AA', villain='KK';", "aa")
        assert "Welcome to pql" not in screen
        assert "20,000 trials" in screen
        shown_aa = value(screen, "aa")
        assert re.search(rf"^ +aa +{shown_aa} +± 0\.\d+", screen, re.MULTILINE)

        # An error: the checker marks it as it is typed, the run reports it, then it is fixed.
        bad = "select avg(riverEquity(hero)) as turn from hero='AKs', villain='QQ', board='Kd7c2h9s8d7h'"
        screen = j.step(
            "an error typed",
            text=bad,
            expect=re.compile(r"^ \d+:\d+ a board has at most 5 cards; this pattern has 6", re.MULTILINE),
        )
        screen = j.step(
            "the error run",
            "enter",
            text=";",
            expect=status("error: line 4, col 77: a board has at most 5 cards"),
        )
        # Back over the line break, `;`, the quote and the last two cards: the string is open.
        j.step("the fix begins", *["backspace"] * 7, expect="unterminated string")
        screen = j.run("';", "turn")
        assert "at most 5 cards" not in screen
        assert "board='Kd7c2h9s';" in screen

        # Statements enough that the results history scrolls.
        for n, villain in enumerate(["QQ", "JJ", "TT", "99", "88"], start=1):
            screen = j.run(
                f"select avg(riverEquity(hero)) as vs{n} from hero='AKs', villain='{villain}';", f"vs{n}"
            )
            assert "exact" in screen  # AKs against a pair is enumerated
        term.wait_for(re.compile(r"↑ \d+ lines? above"), timeout=10)  # the history has scrolled

        # The sweep, below results that scrolled: its rows and the `all` line.
        aggregate = re.compile(r"all \(weight 3\): eq (0\.\d+) ± 0\.\d+")
        screen = j.step(
            "the sweep",
            "enter",
            text=SWEEP,
            expect=all_of(
                status("sweep · 3 of 3 rows"),
                aggregate,
                *(re.compile(rf"^\W+{h} +1 +0\.\d+ ± 0\.\d+", re.MULTILINE) for h in ("AKs", "JJ", "7s6s")),
            ),
        )
        shown_all = aggregate.findall(screen)[0]
        j.step(
            "full screen",
            "f10",
            expect=all_of(lambda s: s.startswith("╭─ results"), "all (weight 3)"),
        )
        j.step("full screen again: the editor is back", "f10", expect=lambda s: s.startswith("╭──"))

        # Ctrl+S: the export dialog, prefilled with pql-results.csv in the current directory.
        export = tmp_path / "pql-results.csv"
        j.step("export dialog", "ctrl+s", expect=all_of(re.compile(r"Export \d+ results to"), "Enter writes"))
        screen = j.step("export written", "enter", expect=re.compile(r"wrote \d+ results"))
        frame = pandas.read_csv(export)
        selectors = set(frame["selector"])
        assert {"aa", "turn", "vs1", "vs2", "vs3", "vs4", "vs5"} <= selectors
        aa = frame[frame["selector"] == "aa"]
        assert len(aa) == 1  # it ran once
        assert as_shown(aa["value"].iloc[0], shown_aa)
        assert aa["trials"].iloc[0] == 20000
        assert "turn" in set(frame.loc[frame["query"].str.contains("Kd7c2h9s'", regex=False), "selector"])
        # The sweep too: a row per value swept (its statement as run) and the `all` line.
        swept = frame[frame["selector"] == "eq"]
        assert any("hero='7s6s'" in query for query in swept["query"]), swept.to_string()
        overall = swept[swept.astype(str).eq("all").any(axis=1)]
        assert len(overall) == 1, swept.to_string()
        assert as_shown(overall["value"].iloc[0], shown_all)

        # The history: an empty editor, Up brings back what ran.
        j.step(
            "empty the editor", "ctrl+a", "backspace", expect=all_of(editor_empty, lambda s: "│ 2" not in s)
        )
        screen = j.step("Up: the history", "up", expect="sweep $h over")
        assert not editor_empty(screen)
        quit_app(term, j)
        assert len(j.steps) >= 20, j.steps


@pytest.mark.parametrize("size", SIZES)
def test_journey_explorer_odds_simulate_help(tmp_path: Path, size: tuple[int, int]) -> None:
    """The range explorer on a hold'em statement (F2; `+`, `-`, Space, undo, Escape) and the
    statement run again with the edited range (F4); `.odds` and its screen; a `simulate`
    statement; `.help`; F1's help filtered; the results history scrolled from the keyboard."""
    columns, lines = size
    with Terminal(tmp_path, columns, lines) as term:
        j = Journey(term)
        start(j)
        screen = j.run("select avg(riverEquity(hero)) as qq from hero='QQ+', villain='AKs, 99';", "qq")
        first = value(screen, "qq")

        # The explorer, on hero (the statement's line, its start: the first player).
        screen = j.step(
            "F2: the explorer",
            "up",
            "home",
            "f2",
            expect=all_of("hero's range (holdem)", re.compile(r"18 hands, 1\.4% of 1326")),
        )
        assert re.search(r"AA\W+AKs\W+AQs", screen), screen  # the grid
        j.step("the heatmap", expect=re.compile(r"range equity \d+\.\d%"), fresh=False)  # may be quick
        # (How the range equity follows the edits is test_explorer_range_equity_follows_edits.)
        j.step("+ widens", "+", expect=all_of("hero='JJ+'", re.compile(r"24 hands, 1\.8%")))
        j.step("+ again", "+", expect=all_of("hero='JJ+, AKs'", re.compile(r"28 hands, 2\.1%")))
        j.step("- narrows", "-", expect=all_of("hero='JJ+'", re.compile(r"24 hands, 1\.8%")))
        screen = j.step(
            "Space takes AA out", "space", expect=all_of("hero='KK-JJ'", re.compile(r"18 hands, 1\.4%"))
        )
        assert "0/6 hands" in screen  # the class at the cursor, AA, has none left
        j.step("u undoes", "u", expect=all_of("hero='JJ+'", re.compile(r"24 hands, 1\.8%")))
        screen = j.step(
            "Escape closes the explorer",
            "escape",
            expect=all_of(lambda s: "hero's range" not in s, status("done ·")),
        )
        assert "hero='JJ+'" in screen
        screen = j.step(
            "F4 runs the edited statement",
            "f4",
            expect=all_of(
                status("done ·"),
                lambda s: row("qq").search(s) is not None and value(s, "qq") != first,
                # The first run, in the history now (drawn a moment after the new table).
                re.compile(r"as qq from hero='QQ\+'"),
            ),
        )

        # `.odds`: the MultiOdds screen for two opponents.
        j.step("empty the editor", "ctrl+a", "backspace", expect=editor_empty)
        screen = j.step(
            ".odds",
            "enter",
            text=".odds AdQc 3h4cJh 2",
            expect=all_of("AdQc on 3h4cJh against 2 random", "done —", re.compile(r"win +\d+\.\d\d%")),
        )
        assert "player's hand" in screen
        j.step("Escape closes it", "escape", expect=all_of(lambda s: "AdQc on" not in s, "│ 1  .odds AdQc"))

        # simulate: an EV per action, and the choice.
        screen = j.step(
            "simulate",
            "enter",
            text=SIMULATE,
            expect=all_of(status("done ·"), row("fold"), row("call"), row("raise")),
        )
        assert "choose raise" in screen, screen
        assert float(value(screen, "fold")) == 0  # folding costs nothing more

        # `.help` in the results; F1's help, filtered.
        screen = j.step(".help", "enter", text=".help", expect=all_of(status(".help"), ".quit"))
        assert "leave pql" in screen
        j.step("F1: help", "f1", expect=all_of("pql help", "filter"))
        screen = j.step("the help filtered", text="riverEquity", expect="riverEquity(player) -> equity")
        assert "Enter after a statement's" not in screen  # the keys went: none mentions it
        j.step(
            "Escape closes the help", "escape", expect=all_of(lambda s: "pql help" not in s, "results · F6")
        )

        # The results history from the keyboard: F6, PageUp, then Escape back to the editor. Which
        # panel has the keys shows in the colour of its border only.
        unfocused = term.colour("╭─ results")
        j.step(
            "F6: the history takes the keys", "f6", expect=lambda _: term.colour("╭─ results") != unfocused
        )
        j.step("PageUp scrolls it", "pageup", expect=re.compile(r"↓ \d+ below"))
        j.step(
            "Escape: back to the editor", "escape", expect=lambda _: term.colour("╭─ results") == unfocused
        )
        j.step("typing goes to the editor", text="-- done", expect="│ 4  -- done")
        quit_app(term, j)
        assert len(j.steps) >= 20, j.steps
    saved = tmp_path / "data" / "buffer.pql"
    assert saved.read_text().rstrip().endswith("-- done")


@pytest.mark.parametrize("size", SIZES)
def test_journey_script_charts_odds_history_cancel(tmp_path: Path, size: tuple[int, int]) -> None:
    """A script typed top-down (each statement runs once, as its Enter comes); a count and a
    histogram; full screen and the chart; the odds view for 1 to 3 opponents; Ctrl+R and F5; a
    long run cancelled with Escape; Ctrl+S to JSON; the stud picker."""
    columns, lines = size
    with Terminal(tmp_path, columns, lines) as term:
        j = Journey(term)
        start(j, trials=5000, seed=3)
        j.run("select avg(riverEquity(hero)) as first from hero='AA', villain='KK';", "first")
        screen = j.run(
            "select count(winsHi(hero)) as wins from hero='AKs', villain='QQ', board='Kd7c2h';", "wins"
        )
        assert re.search(r"^ +wins +\d+\.\d\d% \([\d,]+\)", screen, re.MULTILINE), screen
        screen = j.run(
            "select histogram(handType(hero, river)) as hands from hero='AKs', villain='15%';", "  pair"
        )
        assert row("  highcard").search(screen), screen
        assert "5,000 trials" in screen

        # Full screen, the chart of the histogram, back.
        j.step("F10: results full screen", "f10", expect=lambda s: s.startswith("╭─ results"))
        j.step("F10: the editor is back", "f10", expect=lambda s: s.startswith("╭──"))
        j.step("F7: the chart", "f7", expect=all_of("hands", lambda s: "selector" not in s))
        j.step("F7: back to the table", "f7", expect=all_of(status("done ·"), "selector"))

        # The odds view: a row per number of opponents, as each is done.
        screen = j.step(
            ".odds for 1 to 3 opponents",
            "enter",
            text=".odds AdQc 3h4cJh 1-3",
            expect=all_of(
                "against 1 to 3 random opponents", "done —", re.compile(r"^\W+3 +\d+\.\d\d%", re.M)
            ),
        )
        assert re.search(r"^\W+1 +50\.55% +1\.18% +51\.14%", screen, re.MULTILINE), screen  # exact
        assert "nan" not in screen
        j.step("Escape closes it", "escape", expect=lambda s: "random opponents" not in s)

        # Ctrl+R: the history searched; the entry chosen goes to the editor, F5 runs it.
        j.step("Ctrl+R: the history", "ctrl+r", expect="search history")
        # (The dialog's entries are drawn after the left edge of its list, "▊".)
        j.step(
            "searched", text="winsHi", expect=all_of("▊ select count(winsHi", lambda s: "▊ .odds" not in s)
        )
        j.step(
            "chosen", "enter", expect=all_of(lambda s: "search history" not in s, "│ 1  select count(winsHi")
        )
        screen = j.step(
            "F5 runs the editor",
            "f5",
            expect=all_of(status("done ·"), row("wins"), lambda s: not row("  pair").search(s)),
        )

        # A run far too long, cancelled: what it computed stays, marked so.
        j.step("empty the editor", "ctrl+a", "backspace", expect=editor_empty)
        j.step("precision off", "enter", text=".precision off", expect=status("precision off"))
        j.step("many trials", "enter", text=".trials 100000000", expect=trials_set(100000000))
        j.step(
            "a long run",
            "enter",
            text="select avg(riverEquity(hero)) as slow from hero='AKs', villain='15%';",
            expect=all_of(status("running"), row("slow")),
        )
        screen = j.step("Escape cancels it", "escape", expect=status("cancelled"))
        assert row("slow").search(screen), screen

        # Ctrl+S to JSON: the name typed over the suggested one's extension.
        j.step("export dialog", "ctrl+s", expect="Enter writes")
        j.step("the name cleared", "end", "ctrl+u", expect=lambda s: "pql-results.csv" not in s)
        exported = tmp_path / "session.json"
        j.step("a JSON file named", text=str(exported), expect="session.json")
        j.step("written", "enter", expect=re.compile(r"wrote \d+ results"))
        document = json.loads(exported.read_text())
        names = [column["name"] for s in document["statements"] for column in s["columns"]]
        assert names.count("first") == 1  # typed top-down, it ran once
        assert {"first", "wins", "hands", "slow"} <= set(names)
        slow = next(s for s in document["statements"] if s["columns"][0]["name"] == "slow")
        assert slow["cancelled"] is True

        # The stud picker, on hero (the player the cursor ends).
        j.step("empty the editor", "ctrl+a", "backspace", expect=editor_empty)
        j.step(
            "a stud statement",
            text="select avg(riverEquity(hero)) as stud from game='stud', villain='*', hero='AsKs7d'",
            expect="hero='AsKs7d'",
        )
        j.step(
            "F2: the stud picker",
            "f2",
            expect=all_of(
                "hero's hand (stud",
                "in the range for the cards chosen",
                re.compile(r"down +down +3rd up.*\n\W*As +Ks +7d"),
            ),
        )
        j.step("Escape closes it", "escape", expect=lambda s: "hero's hand" not in s)
        quit_app(term, j)
        assert len(j.steps) >= 20, j.steps


# -- issue 37: the checks its bugs broke, each alone ---------------------------------------------
#
# Items 1, 2, 3, 4, 5 and 8 of issue 37, each of which fails on 36a1f3c (before the fixes,
# dbc541a … 76c8f92). Should one of them break again while it is being worked on, mark its test
# `@pytest.mark.xfail(strict=True, reason="issue 37 item N: …")` (and route the journeys around
# it) until it is fixed.


def typed(term: Terminal, text: str) -> None:
    """Type ``text`` into the editor of a freshly started app, and wait until it shows."""
    term.wait_for(all_of("Welcome to pql", "Export"))
    term.type(text)
    term.wait_for(shows(text[-40:]))


def test_explorer_range_equity_follows_edits(tmp_path: Path) -> None:
    """Issue 37 item 1: the explorer's "range equity" is the edited range's, after `+` and `-`."""
    equity = re.compile(r"range equity (\d+\.\d)%")
    with Terminal(tmp_path, 80, 24, args=["--seed", "7"]) as term:
        # The cursor ends hero's range: F2 explores it.
        typed(term, "select avg(riverEquity(hero)) as eq from villain='AKs, 99', hero='QQ+'")
        term.send("f2")
        screen = term.wait_for(all_of(equity, lambda s: "refining" not in s, "18 hands"))
        queens = float(equity.findall(screen)[0])
        term.send("+")  # JJ+: weaker against AKs and 99
        screen = term.wait_for(
            all_of("24 hands", lambda s: "refining" not in s, lambda s: equity.search(s) is not None),
            timeout=20,
        )
        term.wait_for(
            lambda s: equity.search(s) is not None and float(equity.findall(s)[0]) != queens, timeout=20
        )
        screen = term.wait_for(all_of("24 hands", lambda s: "refining" not in s, equity), timeout=20)
        jacks = float(equity.findall(screen)[0])
        assert jacks < queens - 0.5, screen
        term.send("-")  # QQ+ again
        screen = term.wait_for(
            all_of(
                "18 hands",
                lambda s: equity.search(s) is not None and float(equity.findall(s)[0]) > jacks + 0.5,
            ),
            timeout=20,
        )


def sweep_after_scrolling(term: Terminal) -> str:
    """Six statements and the sweep, run at once (F5): the history has scrolled before the
    sweep's table comes. The screen once the sweep is done."""
    statements = " ".join(
        f"select avg(riverEquity(hero)) as s{n} from hero='AKs', villain='{v}';"
        for n, v in enumerate(["QQ", "JJ", "TT", "99", "88", "77"], start=1)
    )
    typed(term, f"{statements} {SWEEP}")
    term.send("f5")
    return term.wait_for(all_of(status("sweep · 3 of 3 rows"), "all (weight 3)"))


def test_sweep_rows_show_after_the_history_scrolled(tmp_path: Path) -> None:
    """Issue 37 item 2: a sweep's table shows its rows (not only its header) when it comes after
    enough results that the history has scrolled."""
    with Terminal(tmp_path, 80, 24, args=["--seed", "7", "--trials", "20000"]) as term:
        sweep_after_scrolling(term)
        term.wait_for(re.compile(r"↑ \d+ lines? above"), timeout=10)  # the history has scrolled
        term.wait_for(
            all_of(*(re.compile(rf"{h} +1 +0\.\d+ ± 0\.\d+") for h in ("AKs", "JJ", "7s6s"))),
            timeout=10,
        )


def test_export_holds_the_sweep(tmp_path: Path) -> None:
    """Issue 37 item 2: Ctrl+S writes the sweep too (its rows and its `all` line), with the
    statements run before it."""
    with Terminal(tmp_path, 80, 24, args=["--seed", "7", "--trials", "20000"]) as term:
        sweep_after_scrolling(term)
        term.send("ctrl+s")
        term.wait_for("Enter writes")
        term.send("enter")
        term.wait_for(re.compile(r"wrote \d+ results"))
    frame = pandas.read_csv(tmp_path / "pql-results.csv", dtype=str, keep_default_na=False)
    assert {"s1", "s6"} <= set(frame["selector"])
    cells = frame.to_numpy().ravel().tolist()
    assert any("7s6s" in cell for cell in cells), frame.to_string()  # the sweep's rows
    assert "all" in cells, frame.to_string()  # its aggregate


def test_stud_picker_draws_its_slots(tmp_path: Path) -> None:
    """Issue 37 item 3: the stud picker shows each slot's card under its name."""
    with Terminal(tmp_path, 80, 24) as term:
        typed(term, "select avg(riverEquity(hero)) as eq from game='stud', villain='*', hero='AsKs7d'")
        term.send("f2")
        term.wait_for(all_of("hero's hand (stud", "in the range for the cards chosen"))
        term.wait_for(re.compile(r"down +down +3rd up.*\n\W*As +Ks +7d +\* +\*"), timeout=10)


ODDS_ROW_ONE = re.compile(r"^\W+1 +50\.55% +1\.18% +51\.14% +58\.51% +20\.83% +27\.37%", re.MULTILINE)


def test_odds_view_columns_are_whole_at_80_columns(tmp_path: Path) -> None:
    """Issue 37 item 4: at 80 columns the odds view's numbers are whole (20.83%, not 20.8)."""
    with Terminal(tmp_path, 80, 24, args=["--seed", "1", "--trials", "3000"]) as term:
        typed(term, ".odds AdQc 3h4cJh 1-2")
        term.send("enter")
        screen = term.wait_for(all_of("against 1 to 2 random opponents", "done —"), timeout=90)
        assert ODDS_ROW_ONE.search(screen), screen


def test_odds_view_never_shows_nan(tmp_path: Path) -> None:
    """Issue 37 item 4: while the odds view runs, a number not computed yet is never `nan%`."""
    with Terminal(tmp_path, 80, 24, args=["--seed", "1", "--trials", "3000"]) as term:
        typed(term, ".odds AdQc 3h4cJh 1-3")
        term.send("enter")
        term.wait_for(all_of("against 1 to 3 random opponents", "done —"), timeout=90)
        drawn = term.raw()
    assert b"nan" not in drawn.lower()


def test_help_shows_bracketed_arguments(tmp_path: Path) -> None:
    """Issue 37 item 5: `.help` shows `[BOARD]` and the other bracketed arguments as written."""
    with Terminal(tmp_path, 80, 24) as term:
        typed(term, ".help .odds")
        term.send("enter")
        screen = term.wait_for(all_of(status(".help"), "the odds view"))
        assert ".odds HAND [BOARD]" in screen, screen


def test_enter_runs_only_the_statement_it_ends(tmp_path: Path) -> None:
    """Issue 37 item 8: a script typed top-down runs each statement once, as its Enter comes
    (Enter after the last `;` does not run the statements above again)."""
    with Terminal(tmp_path, 80, 24, args=["--seed", "7", "--trials", "2000"]) as term:
        typed(term, "select avg(riverEquity(hero)) as one from hero='AA', villain='KK';")
        term.send("enter")
        term.wait_for(all_of(status("done ·"), row("one")))
        term.type("select avg(riverEquity(hero)) as two from hero='QQ', villain='KK';")
        term.send("enter")
        term.wait_for(all_of(status("done ·"), row("two")))
        term.send("ctrl+s")
        term.wait_for("Enter writes")
        term.send("enter")
        term.wait_for(re.compile(r"wrote \d+ results?"))
    frame = pandas.read_csv(tmp_path / "pql-results.csv")
    assert list(frame["selector"]) == ["one", "two"]
