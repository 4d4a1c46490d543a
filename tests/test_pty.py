"""Both REPLs in a real pseudo-terminal through the ``pql`` command: start, run a query, quit.

Generous timeouts and waits on output (never on sleeps) keep them steady on a loaded CI machine.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")

TIMEOUT = 120
QUERY = "select avg(riverEquity(hero)) as heroeq from hero='AA', villain='KK';"


def spawn(args: list[str], tmp_path: Path) -> Any:
    env = {
        **os.environ,
        "PQL_DATA_DIR": str(tmp_path / "data"),
        "PQL_CONFIG": str(tmp_path / "none.toml"),
        "TERM": "xterm-256color",
        # No cursor position requests: pexpect does not answer them.
        "PROMPT_TOOLKIT_NO_CPR": "1",
    }
    return pexpect.spawn(
        sys.executable,
        ["-m", "pql_repl.cli", *args],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(40, 120),
    )


@contextmanager
def plain_session(tmp_path: Path, *settings: str) -> Iterator[Any]:
    """``pql --plain`` at its prompt after each of ``settings`` (dot commands); quits at the end
    of the block, and the command must exit with 0."""
    child = spawn(["--plain"], tmp_path)
    try:
        child.expect_exact("pql>")
        for line in settings:
            child.send(line + "\r")
            child.expect_exact("pql>")
        yield child
        child.send(".quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_plain_repl_runs_a_query_in_a_pty(tmp_path: Path) -> None:
    with plain_session(tmp_path, ".trials 3000") as child:
        child.send(QUERY + "\r")
        child.expect(r"heroeq\s*\|\s*0\.[78]\d*")
        child.expect_exact("3,000 trials")
        child.expect_exact("pql>")
    assert "heroeq" in (tmp_path / "data" / "history").read_text()


def test_full_screen_app_runs_a_query_in_a_pty(tmp_path: Path) -> None:
    child = spawn(["--trials", "2000", "--seed", "3"], tmp_path)
    try:
        child.expect_exact("\x1b[?1049h")  # the alternate screen
        child.expect_exact("Help")  # the footer is drawn: the app takes keys now
        child.send(QUERY)
        child.send("\r")  # Enter after `;` runs
        child.expect_exact("done · 2,000 trials")
        child.send("\x11")  # Ctrl+Q
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert "heroeq" in (tmp_path / "data" / "history").read_text()
    # Enter after `;` ran the statement and opened a new line for the next one.
    assert (tmp_path / "data" / "buffer.pql").read_text() == QUERY + "\n"


def test_plain_repl_odds_in_a_pty(tmp_path: Path) -> None:
    """`.odds` in pql --plain: its statements run with the progress line, then the report."""
    with plain_session(tmp_path, ".trials 3000") as child:
        child.send(".odds AdQc 3h4cJh 2\r")
        child.expect_exact("against 2 random")
        child.expect_exact("best opponent's hand")
        child.expect_exact("pql>")


def test_plain_repl_odds_view_fills_row_by_row_in_a_pty(tmp_path: Path) -> None:
    """`.odds HAND BOARD 1-3` in pql --plain: the title and header, then a row per number of
    opponents in order, then the legend and the prompt."""
    with plain_session(tmp_path, ".trials 2000") as child:
        child.send(".odds AdQc 3h4cJh 1-3\r")
        child.expect_exact("against 1 to 3 random opponents")
        child.expect_exact("HH -pot")
        for n in (1, 2, 3):
            child.expect(rf" {{4}}{n} +\d+\.\d\d%")
        child.expect_exact("HoldemHand's potentials")
        child.expect_exact("pql>")


def test_plain_repl_odds_view_ctrl_c_keeps_the_session(tmp_path: Path) -> None:
    """Ctrl+C while the odds view runs stops it (the rows done stay) and the session goes on."""
    # Far too many trials to finish (sampled, and no precision target stops them): the second
    # row runs until cancelled.
    with plain_session(tmp_path, ".precision off", ".trials 100000000") as child:
        child.send(".odds AdQc 3h4cJh\r")
        child.expect_exact("against 1 to 9 random opponents")
        child.expect(r" {4}1 +\d+\.\d\d%")  # the first row is exact: it ends
        child.expect_exact("Ctrl+C cancels")  # the second row's run is on
        child.send("\x03")
        child.expect_exact("cancelled")
        child.expect_exact("pql>")
        child.send(".show\r")
        child.expect_exact("100000000")
        child.expect_exact("pql>")
