"""The real-terminal harness (``tests/terminal.py``) against the real ``pql``: the app's start
screen at 80x24, a statement typed and run, `pql --plain`; and the harness's own promises (a
wait that fails shows the screen, the process group dies with the block)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from terminal import KEYS, Terminal, all_of, editor_empty, shows, status

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")

QUERY = "select avg(riverEquity(hero)) as eq from hero='AA', villain='KK';"


def test_start_screen_at_80x24(tmp_path: Path) -> None:
    with Terminal(tmp_path, 80, 24) as term:
        screen = term.wait_for(all_of("Welcome to pql", "Export"))
        lines = screen.split("\n")
        assert len(lines) == 24
        assert lines[0] == "╭" + "─" * 78 + "╮"  # the editor's box, the width of the terminal
        assert editor_empty(screen)
        assert "╭─ results · F6" in screen
        assert re.search(r"^1 select avg\(riverEquity\(hero\)\)|│ 1 select avg", screen, re.MULTILINE)
        assert "Quit" in term.line(-1)  # the footer, at the bottom
        assert "Run" in term.line(-1)
        assert status("ready")(screen)
        assert max(len(line) for line in lines) <= 80


def test_a_statement_typed_and_run(tmp_path: Path) -> None:
    with Terminal(tmp_path, 80, 24, args=["--trials", "2000", "--seed", "3"]) as term:
        term.wait_for(all_of("Welcome to pql", "Export"))
        term.type(QUERY)
        term.wait_for(shows(QUERY))
        term.send("enter")
        screen = term.wait_for(
            all_of(status("done · 2,000 trials"), re.compile(r"^ eq +0\.\d+ +± 0\.\d+", re.M))
        )
        assert re.search(r"^ selector +value +± 95%", screen, re.MULTILINE), screen
        assert "Welcome to pql" not in screen
        term.send("ctrl+q")
        assert term.wait_exit() == 0
    assert "as eq" in (tmp_path / "data" / "history").read_text()
    assert (tmp_path / "data" / "buffer.pql").read_text().startswith(QUERY)


def test_plain_repl_at_80x24(tmp_path: Path) -> None:
    """`pql --plain` (prompt_toolkit) asks for the cursor position; the harness answers."""
    with Terminal(
        tmp_path, 80, 24, args=["--plain", "--trials", "2000", "--seed", "3"], raw_escape=True
    ) as term:
        term.wait_for("pql>")
        assert b"\x1b[6n" in term.raw()  # answered, or prompt_toolkit would wait and complain
        term.type(QUERY + "\n")
        # The result, then the prompt again (the bottom toolbar stays on the last line).
        term.wait_for(
            all_of(re.compile(r"^eq +\| 0\.\d+ ± 0\.\d+", re.M), re.compile(r"2,?000 trials\npql>"))
        )
        term.type(".quit\n")
        assert term.wait_exit() == 0


def test_a_wait_that_fails_shows_the_screen(tmp_path: Path) -> None:
    with Terminal(tmp_path, 80, 24) as term:
        term.wait_for("Welcome to pql")
        with pytest.raises(AssertionError) as failed:
            term.wait_for("no such text on the screen", timeout=0.5)
        message = str(failed.value)
        assert "timed out after 0.5 s waiting for 'no such text on the screen'" in message
        assert "Welcome to pql" in message  # the whole screen comes with it
        assert "Welcome to pql" in term.wait_until_gone("no such text")  # gone already: at once


def test_wait_until_gone_and_keys(tmp_path: Path) -> None:
    with Terminal(tmp_path, 80, 24) as term:
        term.wait_for("Welcome to pql")
        term.send("f1")
        term.wait_for("pql help")
        term.send("escape")  # CSI 27 u: never read as Alt with the next key
        term.wait_until_gone("pql help")
        # One key at a time, each waited for: Textual runs a bound key's action (Backspace:
        # delete_left) after the characters queued behind it are typed (see Terminal.send).
        term.send("x")
        term.wait_for("│ 1  x")
        term.send("backspace")
        term.wait_for(editor_empty)
        term.send("y")
        term.wait_for("│ 1  y")
    assert KEYS["ctrl+s"] == "\x13"
    assert KEYS["f5"] == "\x1b[15~"


def test_the_process_group_dies_with_the_block(tmp_path: Path) -> None:
    with Terminal(tmp_path, 80, 24) as term:
        term.wait_for("Welcome to pql")
        pid = term.pid
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)
    assert term.exited
