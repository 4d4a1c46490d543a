"""Every script in examples/ runs through ``pql`` and gives sane results."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import pql_repl as pql
from pql_repl.api.results import DEFAULT_TRIALS, SIMULATE_TRIALS
from pql_repl.api.sweeps import is_sweep
from pql_repl.session.session import Session
from pql_repl.session.statements import DotCommand, Statement, split_statements

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.pql"))
#: The examples run as a user runs them (`pql examples/X.pql`): default trials, no time limit,
#: so a slow example shows as a slow test instead of being cut short; the seed only makes the
#: output repeatable. The subprocess timeout guards against a hang.
OPTIONS = ["--seed", "1", "--format", "json"]


def run(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PQL_CONFIG": str(path.parent / "no-such-config.toml")}
    return subprocess.run(
        [sys.executable, "-m", "pql_repl.cli", str(path), *OPTIONS, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(path: Path) -> None:
    statements = [s for s in split_statements(path.read_text()) if isinstance(s, Statement)]
    assert statements, "an example with nothing to run"

    r = run(path)
    if r.returncode != 0 and re.search(r"not (implemented|available) yet", r.stderr):
        # Parts of the engine still being written say so; anything else is a failure.
        pytest.xfail(r.stderr.splitlines()[0])
    assert r.returncode == 0, r.stderr
    document = json.loads(r.stdout)
    # Sweeps (issue 17) come back as tables of their own.
    sweeps = [s for s in statements if is_sweep(s.text)]
    assert len(document.get("sweeps", [])) == len(sweeps)
    for sweep in document.get("sweeps", []):
        assert sweep["done"]
        assert len(sweep["rows"]) == sweep["rows_total"] > 0
        assert all(math.isfinite(a["value"]) for a in sweep["aggregate"].values())
    statements = [s for s in statements if not is_sweep(s.text)]
    results = document["statements"]
    assert len(results) == len(statements)
    # The trials each statement asks for: the default, or what a dot-command before it set.
    session = Session()
    wanted = []
    for item in split_statements(path.read_text()):
        if isinstance(item, DotCommand):
            session.handle(item.text)
        elif not is_sweep(item.text):
            wanted.append(session.settings.trials)
    for statement, result, trials in zip(statements, results, wanted, strict=True):
        check_sane(statement.text, result)
        assert not result["truncated"]
        if result.get("kind") == "simulate":
            # Its own default trials, unless it stopped on an obvious move.
            asked = SIMULATE_TRIALS if trials == DEFAULT_TRIALS else trials
            assert result["trials"] == (result["stopped_after"] if result["stopped_early"] else asked)
            assert result["chosen"] in [c["name"] for c in result["columns"]]
        elif "total_deals" not in result:
            # Monte Carlo. A where clause counts kept deals only; every trial asked for was run.
            assert result["trials"] == trials, statement.text


def check_sane(text: str, result: dict[str, object]) -> None:
    trials = result["trials"]
    assert isinstance(trials, int)
    assert trials > 0
    # Exact enumerations have no standard errors; an enumeration whose values were sampled
    # inside its deals has one where its items show that sampling (issue 38), or none.
    exhaustive = "total_deals" in result
    assert result["exact"] == (exhaustive and not result["inner_sampled"] and not result["truncated"])
    columns = result["columns"]
    assert isinstance(columns, list)
    for c in columns:
        if c["selector"] in ("avg", "count"):
            assert math.isfinite(c["value"]), c
            if not exhaustive:
                assert c["stderr"] is not None, c
            elif not result["inner_sampled"]:
                assert c["stderr"] is None, c
            else:
                assert c["stderr"] is None or c["stderr"] > 0, c
        if c["selector"] == "count":
            assert 0 <= c["value"] <= 1
            assert c["count"] == pytest.approx(c["value"] * trials)
        if c["selector"] == "histogram":
            assert c["buckets"], c
            assert sum(b["fraction"] for b in c["buckets"]) == pytest.approx(1)
            assert sum(b["count"] for b in c["buckets"]) == pytest.approx(trials)

    # When every player's riverEquity is selected, the shares make the whole pot.
    (info,) = pql.prepare(text).statements
    equity_columns = _equity_columns(text, columns)
    if len(equity_columns) == len(info.players) > 1:
        total = sum(c["value"] for c in equity_columns)
        margin = (
            1e-9 if exhaustive else 4 * math.sqrt(sum(c["stderr"] ** 2 for c in equity_columns)) + 4 / trials
        )
        assert total == pytest.approx(1, abs=margin)
    for c in equity_columns:
        assert -1e-12 <= c["value"] <= 1 + 1e-12


def _equity_columns(text: str, columns: list[dict[str, object]]) -> list[dict[str, object]]:
    """The columns that are ``avg(riverEquity(player))``, found by the selectors' order."""
    selectors = re.findall(r"(?i)\b(avg|count|histogram|max|min)\s*\(\s*(\w+)", text)
    return [
        c
        for c, (kind, inner) in zip(columns, selectors, strict=False)
        if kind.lower() == "avg" and inner.lower() == "riverequity"
    ]
