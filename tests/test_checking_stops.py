"""Checking ends when it should (issue 41, item 7): under the time limit, at Ctrl-C, when a
newer check replaces it, and soon after too many errors or past a bound, however large the
text; and `.odds` obeys the time limit."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pql_repl.api.query import LocalQuery
from pql_repl.base.errors import PqlCancelled, PqlRuntimeError
from pql_repl.session import statements

#: A simulate spot whose history is given by {history}.
SPOT = (
    "simulate fold, call, raise from game='holdem', hero='AhKh', villain='QQ+@90, 22-JJ@40, AK@80, *@5', "
    "board='{board}', pot=10, tocall=2, bet=2, stakes='limit', history='{history}';\n"
)
#: Boards a check reads each on a cold cache (one per statement: the cache holds one statement).
BOARDS = ["Kd7c2h", "Qs8d3c", "Jh9c4d", "Tc6h2s", "9d5s3h", "8c7h2d", "As9s4c", "Kc8h5d"]


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "no-config.toml"))
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path / "data"))


def pql(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pql_repl.cli", *args],
        input="",
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def slow_text(statements: int) -> str:
    """Simulate statements that each take a fraction of a second to check."""
    history = ", ".join(["villain:raise@flop", "villain:call@flop"] * 5)
    return "".join(SPOT.format(board=BOARDS[i % len(BOARDS)], history=history) for i in range(statements))


def test_a_history_of_two_thousand_actions_is_checked_and_run_under_the_time_limit(tmp_path: Path) -> None:
    # It took over 400 s (the strengths were rated again for every action), and 2,000 raises
    # rounded every weight to zero ("the players' ranges leave no legal deal").
    history = ", ".join(["villain:raise@flop", "villain:call@flop"] * 1_000)
    script = tmp_path / "history.pql"
    script.write_text(SPOT.format(board="Kd7c2h", history=history))
    r = pql("--time-limit", "0.5", "--seed", "1", str(script), timeout=100)
    assert r.returncode == 0, r.stderr
    assert "choose " in r.stdout


def test_checking_stops_when_asked_and_past_the_time_limit() -> None:
    text = slow_text(40)  # some seconds to check
    asked = []

    def stop() -> bool:
        asked.append(1)
        return True

    with pytest.raises(PqlCancelled):
        LocalQuery(text, stop=stop)
    assert asked  # asked while the engine checked: it stopped at the first question
    with pytest.raises(PqlRuntimeError, match="took longer than the time limit") as e:
        LocalQuery(text, time_limit=0.01)
    assert e.value.line is not None  # at the statement it stopped in


def test_ctrl_c_reaches_the_checker(tmp_path: Path) -> None:
    # One call checks many slow statements; Ctrl-C used to wait for all of them (the engine
    # held the GIL and never looked at signals).
    program = tmp_path / "check.py"
    program.write_text(
        textwrap.dedent(
            """
            import sys
            import pql_repl
            text = open(sys.argv[1]).read()
            print("checking", flush=True)
            try:
                pql_repl.prepare(text)
            except KeyboardInterrupt:
                print("interrupted", flush=True)
                sys.exit(3)
            print("checked", flush=True)
            """
        )
    )
    script = tmp_path / "slow.pql"
    script.write_text(slow_text(2_000))  # minutes to check
    proc = subprocess.Popen(
        [sys.executable, str(program), str(script)], stdout=subprocess.PIPE, text=True, env=os.environ.copy()
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "checking"
        wait_for_cpu(proc.pid, 2.0)  # inside the engine's check by now (starting takes under 1 s)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 3
    assert "interrupted" in out


def wait_for_cpu(pid: int, seconds: float, timeout: float = 60) -> None:
    """Until process ``pid`` has used ``seconds`` of CPU (read from /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / ticks >= seconds:
            return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} did not use {seconds} s of CPU within {timeout} s")


def test_odds_obey_the_time_limit() -> None:
    # 100 million trials take minutes; the limit stops the whole request (both of its runs).
    r = pql("--time-limit", "0.5", "--trials", "100000000", "-c", ".odds AdQc 3h4cJh 3", timeout=60)
    assert r.returncode == 0, r.stderr
    trials = int(re.search(r"\(([\d,]+) trials\)", r.stdout)[1].replace(",", ""))  # type: ignore[index]
    assert 0 < trials < 100_000_000


def test_an_odds_table_obeys_the_time_limit() -> None:
    r = pql("--time-limit", "0.5", "--trials", "100000000", "-c", ".odds AdQc 3h4cJh", timeout=60)
    assert r.returncode == 0, r.stderr
    rows = [line for line in r.stdout.splitlines() if re.match(r"\s+\d\s", line)]
    assert len(rows) == 9
    assert "nan" not in r.stdout


def test_a_script_check_stops_after_fifty_errors(tmp_path: Path) -> None:
    # 400,000 wrong statements took 13 s to report; the check stops after 50 errors (two a
    # statement here: 'selec' and what follows it).
    script = tmp_path / "wrong.pql"
    script.write_text("selec x;\n" * 400_000)
    r = pql(str(script))
    assert r.returncode == 1
    assert r.stderr.count("wrong.pql: line ") == 50
    assert r.stderr.rstrip().endswith("wrong.pql: checking stopped at line 26: the rest is not checked")


def test_splitting_a_script_reads_runs_of_characters_at_once() -> None:
    # 16 MiB of '(' took 4.5 s to split one character at a time; the work is now per special
    # character (quotes, `;`, line breaks, comments), counted here as lines of Python run.
    text = "select " + "(" * 1_000_000 + "1" + ")" * 1_000_000 + " from hero='AA';"
    lines = 0

    def count(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal lines
        if event == "line" and frame.f_code is statements._scan.__code__:
            lines += 1
        return count

    sys.settrace(lambda frame, event, arg: count if frame.f_code is statements._scan.__code__ else None)
    try:
        items = statements.split_statements(text)
    finally:
        sys.settrace(None)
    assert len(items) == 1
    assert lines < 1_000


def test_the_app_checks_a_long_history_and_stays_responsive(tmp_path: Path) -> None:
    # The app checks its text as it is typed, in a worker; the engine held the GIL through a
    # check that took minutes (a history of 2,000 actions), and the app froze.
    from terminal import Terminal  # noqa: PLC0415

    history = ", ".join(["villain:raise@flop", "villain:call@flop"] * 1_000)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "buffer.pql").write_text(SPOT.format(board="Kd7c2h", history=history))
    with Terminal(tmp_path, 80, 24) as term:
        term.wait_for("villain:call@flop';", timeout=60)
        term.type("selec 1;")  # checked with the history before it: its error is marked below
        term.wait_for("unknown keyword 'selec'", timeout=60)
        term.type(" -- and typed on")
        term.wait_for("-- and typed on", timeout=60)
