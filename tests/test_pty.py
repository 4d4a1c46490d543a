"""The line REPL in a real pseudo-terminal: start it, run a query, quit.

Generous timeouts and waits on output (never on sleeps) keep it steady on a loaded CI machine.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

TIMEOUT = 120


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_plain_repl_in_a_pty(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PQL_DATA_DIR": str(tmp_path / "data"),
        "PQL_CONFIG": str(tmp_path / "none.toml"),
        "TERM": "xterm-256color",
        # No cursor position requests: pexpect does not answer them.
        "PROMPT_TOOLKIT_NO_CPR": "1",
    }
    child = pexpect.spawn(
        sys.executable,
        ["-m", "pql_repl.repl"],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(40, 120),
    )
    try:
        child.expect_exact("pql>")
        child.send(".trials 3000\r")
        child.expect_exact("pql>")
        child.send("select avg(riverEquity(hero)) as heroeq from hero='AA', villain='KK';\r")
        child.expect(r"heroeq\s*\|\s*0\.[78]\d*")
        child.expect_exact("3000 trials")
        child.expect_exact("pql>")
        child.send(".quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert "heroeq" in (tmp_path / "data" / "history").read_text()
