"""A script is checked before anything runs, each statement against the session it will run in
(issue 38): the dot-commands before it that change checking (``.define``, ``.undefine``,
``.observe``) reach it, in ``-c``, files and stdin alike, as they do in the REPLs; checking writes
nothing. An unknown ``$name`` says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pql_repl.session.session import Session

SIMULATE = "simulate call, raise from hero='AhKh', villain='*', board='Kd7c2h', pot=10, tocall=2, bet=2"
OPTIONS = ["--seed", "3", "--trials", "4000", "--format", "json"]


def pql(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pql_repl.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=120,
        check=False,
    )


@pytest.fixture(autouse=True)
def own_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "no-config.toml"))
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path / "data"))


def evs(out: str) -> list[float]:
    (statement,) = json.loads(out)["statements"]
    return [c["value"] for c in statement["columns"]]


def test_a_range_defined_by_one_command_is_known_to_the_next() -> None:
    statement = "select avg(riverEquity(hero)) from hero='$aces', villain='KK'"
    done = pql("-c", ".define $aces 'AA'", "-c", statement, "--exact")
    assert done.returncode == 0, done.stderr
    assert "| 0.819461" in done.stdout  # AA against KK, every deal
    assert "$aces" in pql("-c", ".define").stdout  # and it was stored when it ran


def test_define_and_undefine_inside_one_script_in_order() -> None:
    script = (
        ".define $open 'QQ+'\n"
        "select avg(riverEquity(hero)) from hero='$open', villain='KK';\n"
        ".undefine $open\n"
        "select avg(riverEquity(hero)) from hero='$open', villain='KK';\n"
    )
    done = pql(stdin=script)
    assert done.returncode == 1
    # Only the statement after .undefine is wrong, and nothing ran: the define was not stored.
    assert "line 4" in done.stderr
    assert "line 2" not in done.stderr
    assert "unknown named range `$open`" in done.stderr
    assert done.stdout == ""
    assert "no named ranges yet" in pql("-c", ".define").stdout


def test_an_unknown_name_says_so_and_points_at_it() -> None:
    done = pql("-c", "select avg(riverEquity(hero)) from hero='QQ+, $aces', villain='KK'")
    assert done.returncode == 1
    assert "unknown named range `$aces`" in done.stderr
    assert "expected a rank" not in done.stderr
    assert "^^^^^" in done.stderr
    assert ".define $aces" in done.stderr


@pytest.mark.parametrize("how", ["-c", "file", "stdin"])
def test_an_observed_action_reaches_the_simulate_statement_after_it(how: str, tmp_path: Path) -> None:
    lines = [".observe villain raise on flop", SIMULATE + ";"]
    if how == "-c":
        done = pql("-c", lines[0], "-c", lines[1], *OPTIONS)
    elif how == "file":
        script = tmp_path / "spot.pql"
        script.write_text("\n".join(lines) + "\n")
        done = pql(str(script), *OPTIONS)
    else:
        done = pql(*OPTIONS, stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    # As the REPLs do: the session's observation reweights the villain's range.
    session = Session()
    session.handle(lines[0])
    (expected,) = session.prepare(SIMULATE).run(seed=3, trials=4000)
    assert evs(done.stdout) == [c.value for c in expected.columns]
    unobserved = pql("-c", SIMULATE, *OPTIONS)
    assert evs(unobserved.stdout) != evs(done.stdout)
