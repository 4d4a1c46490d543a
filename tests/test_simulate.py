"""The ``simulate`` statement from Python, the CLI and the REPL's words (docs/language/simulate.md): results
in the statement shape with ``chosen`` and ``stopped_early``, JSON and CSV carrying them,
streaming and cancel, positioned errors, completion, highlighting, help, ``.observe`` and
``.range PLAYER``. The engine's own checks (arithmetic, stopping, sampling) are in
rust_core/tests/simulate.rs."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import subprocess
import sys
import threading

import pytest

import pql_repl as pql
from benchmarks.simulate_stop import random_spot
from pql_repl.api.output import csv_rows, format_table
from pql_repl.api.results import SIMULATE_TRIALS
from pql_repl.session.completion import complete
from pql_repl.session.lexer import KEYWORD, SELECTOR, tokenize
from pql_repl.session.session import Session
from pql_repl.session.simulate_help import SIMULATE_KEY_DOCS, simulate_help
from pql_repl.session.vocabulary import vocabulary
from pql_repl.tui.screens import help_markdown

SPOT = (
    "simulate fold, call, raise from game='holdem', hero='AhKh', villain='QQ+@90, 22-JJ@40, AK@80, *@5', "
    "board='Kd7c2h', pot=10, tocall=2, bet=2, stakes='limit'"
)
#: The nuts on the river against a set that calls everything: EV(call) is the pot exactly.
NUTS = (
    "simulate fold, call, raise from hero='Th9c', villain='2d2s', board='AhKhQhJh2c', pot=10, tocall=4, "
    "bet=2, villain.call_threshold=0, villain.raise_threshold=1"
)


def test_a_simulation_returns_the_statement_shape() -> None:
    (r,) = pql.run(SPOT, trials=400, seed=3, threads=1)
    assert r.kind == "simulate"
    assert [c.name for c in r.columns] == ["fold", "call", "raise"]
    assert all(c.selector == "avg" for c in r.columns)
    fold = r.column("fold")
    assert (fold.value, fold.stderr) == (0.0, 0.0)
    assert r.chosen in ("call", "raise")
    best = max(r.columns, key=lambda c: float(c.value or 0))
    assert r.chosen == best.name
    assert r.trials == (r.stopped_after if r.stopped_early else 400)
    assert r.gap is not None
    assert r.gap >= 0
    assert r.gap_stderr is not None
    assert r.gap_stderr > 0
    d = r.to_dict()
    assert d["kind"] == "simulate"
    assert d["chosen"] == r.chosen
    assert d["stopped_early"] == r.stopped_early
    assert json.loads(json.dumps(d))["columns"][1]["name"] == "call"


def test_the_nuts_stop_early_and_raise() -> None:
    (r,) = pql.run(NUTS, seed=1, threads=2)
    assert r.column("call").value == 10.0
    assert float(r.column("raise").value or 0) > 10.0
    assert r.chosen == "raise"
    assert r.stopped_early
    assert r.stopped_after == 200
    assert r.trials == 200
    table = format_table(r)
    assert "choose raise" in table
    assert "stopped early on an obvious move after 200 trials" in table


def test_a_seed_gives_the_same_result_on_any_thread_count() -> None:
    (one,) = pql.run(SPOT, trials=500, seed=9, threads=1)
    (two,) = pql.run(SPOT, trials=500, seed=9, threads=2)
    assert [c.value for c in one.columns] == [c.value for c in two.columns]
    assert one.chosen == two.chosen


def test_default_trials_are_ten_thousand_unless_asked() -> None:
    # A coin flip between calling and raising (both worth 0 on average) runs to the end.
    text = (
        "simulate call, raise from hero='AcKc', villain='AdQd, 9c9h', board='2c3d7h8sTd', pot=4, tocall=4, "
        "bet=2, raises=2, villain.call_threshold=0, villain.raise_threshold=1"
    )
    (r,) = pql.run(text, seed=2)
    assert not r.stopped_early
    assert r.trials == SIMULATE_TRIALS
    (r,) = pql.run(text, seed=2, trials=300)
    assert r.trials == 300


def test_select_and_simulate_run_in_one_program() -> None:
    results = pql.run(
        "select avg(equity(hero)) from hero='AA', villain='KK'; " + NUTS, seed=1, trials=2000, threads=1
    )
    assert [r.kind for r in results] == ["select", "simulate"]


def test_streaming_gives_partial_results_and_cancel_stops() -> None:
    q = pql.prepare(SPOT)
    partial = threading.Event()
    snaps: list[pql.StatementResult] = []

    def cancel_when_partial() -> None:
        partial.wait(60)
        q.cancel()

    canceller = threading.Thread(target=cancel_when_partial)
    canceller.start()

    def consume() -> None:
        for snap in q.stream(trials=10**7, seed=1, batch=0):
            snaps.append(snap)
            if not snap.done and snap.trials > 0:
                partial.set()

    with pytest.raises(pql.PqlCancelled):
        consume()
    canceller.join()
    assert any(not s.done for s in snaps)
    last = snaps[-1]
    assert last.done
    assert last.cancelled
    assert 0 < last.trials < 10**7
    # The trials only grow from one snapshot to the next.
    counts = [s.trials for s in snaps]
    assert counts == sorted(counts)


@pytest.mark.parametrize(
    ("text", "message", "marked"),
    [
        ("simulate check from hero='AA', villain='KK', pot=4, tocall=2, bet=2", "cannot check", "check"),
        ("simulate call from hero='AA', villain='KK', pot=-1, tocall=2, bet=2", "must not be negative", "-1"),
        ("simulate call from hero='AA', villain='KK', tocall=2, bet=2", "needs pot=", None),
        (
            "simulate call from hero='AA', villain='KK', pot=4, tocall=2, bet=2, colour=1",
            "unknown key",
            "colour",
        ),
    ],
)
def test_errors_are_positioned(text: str, message: str, marked: str | None) -> None:
    with pytest.raises(pql.PqlError) as info:
        pql.prepare(text)
    e = info.value
    assert message in str(e)
    if marked is not None:
        start, end = e.span
        assert text.encode()[start:end].decode() == marked


def test_csv_and_json_carry_the_choice() -> None:
    (r,) = pql.run(NUTS, seed=1)
    rows = csv_rows(r, 1)
    by_name = {row[3]: row for row in rows}
    assert by_name["chosen"][5] == "raise"
    assert by_name["stopped_early"][6] == "1"
    assert by_name["stopped_early"][8] == "200"
    assert by_name["gap"][4] == "avg"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PQL_CONFIG": "/nonexistent/pql.toml"}
    return subprocess.run(
        [sys.executable, "-m", "pql_repl.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_the_command_runs_simulate_in_every_format() -> None:
    r = cli("-c", NUTS + ";", "--seed", "1", "--format", "json")
    assert r.returncode == 0, r.stderr
    (statement,) = json.loads(r.stdout)["statements"]
    assert statement["chosen"] == "raise"
    assert statement["stopped_early"] is True
    r = cli("-c", NUTS + ";", "--seed", "1", "--format", "csv")
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert {row["selector"] for row in rows} >= {"fold", "call", "raise", "chosen", "stopped_early"}
    r = cli("-c", NUTS + ";", "--seed", "1", "--trials", "300", "--threads", "1", "--time-limit", "60")
    assert r.returncode == 0, r.stderr
    assert "choose raise" in r.stdout


def test_completion_knows_the_statement() -> None:
    starts = {c.text for c in complete("")}
    assert {"select", "simulate"} <= starts
    assert {"fold", "check", "call", "bet", "raise"} <= {c.text for c in complete("simulate ")}
    assert "from" in {c.text for c in complete("simulate call, raise ")}
    keys = {c.text for c in complete("simulate call from hero='AA', ")}
    assert {"pot", "tocall", "bet", "history", "board"} <= keys
    # Settings are not players.
    players = {c.text for c in complete("simulate call from hero='AA', pot=3, villain='KK' where ")}
    assert "pot" not in players


def test_highlighting_knows_the_statement() -> None:
    kinds = {t.text: t.kind for t in tokenize("simulate fold, call from hero='AA', villain='KK', pot=3")}
    assert kinds["simulate"] == KEYWORD
    assert kinds["fold"] == SELECTOR
    assert kinds["call"] == SELECTOR


def test_help_and_describe_explain_every_key() -> None:
    assert set(vocabulary().simulate_keys) == set(SIMULATE_KEY_DOCS)
    text = Session().handle(".describe simulate").output
    assert text == simulate_help()
    for key in SIMULATE_KEY_DOCS:
        assert key in text
    assert "## Simulate" in help_markdown([])
    assert "tocall" in help_markdown([], "tocall")


def test_observe_reweights_and_range_shows_the_weights() -> None:
    session = Session()
    text = (
        "simulate call from hero='AhKh', villain='KdKs, 3c3d, 8s5s', board='Kc7c2h', pot=10, tocall=2, bet=2"
    )
    session.prepare(text)
    before = session.handle(".range villain").output
    assert "8s5s 1" in before
    assert "observed: villain raise on flop" in session.handle(".observe villain raise on flop").output
    after = session.handle(".range villain").output
    assert "8s5s 0.01" in after
    assert "KsKd 1" in after
    # The observation reaches the statement's run: the same as writing history=.
    with_history = pql.prepare(text + ", history='villain:raise@flop'").holdings(0)
    assert session.prepare(text).holdings(0) == with_history
    assert session.handle(".observe clear").output == "observations cleared"
    with pytest.raises(Exception, match=r"expected \.observe PLAYER ACTION on STREET"):
        session.handle(".observe villain raise")
    with pytest.raises(Exception, match="unknown action"):
        session.handle(".observe villain shove on flop")


@pytest.mark.asyncio
async def test_the_app_shows_the_ev_rows_and_the_gap_with_its_error() -> None:
    from pilot_helpers import cells, finished, make_app, run_text  # noqa: PLC0415

    app = make_app(seed=1, trials=2000)
    async with app.run_test(size=(120, 36)) as pilot:
        await run_text(pilot, app, SPOT + ";", finished(app))
        rows = cells(app)
        assert {"fold", "call", "raise"} <= set(rows)
        assert rows["call"][2].startswith("± ")
        result = app.results.finished[-1]
        status = str(app.results.query_one("#status").render())
        assert f"choose {result.chosen} (by " in status
        assert "± " in status.split("choose", 1)[1]


def test_ranges_that_cannot_be_dealt_together_are_an_error_not_a_hang() -> None:
    with pytest.raises(pql.PqlRuntimeError, match="no legal deal"):
        pql.run("simulate call from hero='AsAc', villain='AsAc', pot=4, tocall=2, bet=2", trials=50)


def test_a_preflop_spot_runs_to_the_river() -> None:
    (r,) = pql.run(
        "simulate fold, call, raise from hero='AsAh', villain='*', pot=3, tocall=1, bet=2", trials=400, seed=4
    )
    # Aces against a random hand: calling and raising both win chips.
    assert float(r.column("call").value or 0) > 0
    assert float(r.column("raise").value or 0) > 0


#: Checking and betting the quads win the pot of 6 every time: two EVs exactly equal.
EQUAL = (
    "simulate check, bet from hero='AsAc', villain='7d6c', board='AdAh2s3c4d', pot=6, tocall=0, bet=2, "
    "villain.call_threshold=1, villain.raise_threshold=1"
)


def test_mixed_choice_is_random_among_nearly_equal_actions_and_seeded() -> None:
    """choose='mixed' (Loki-2): at random among the actions within 0.1 small bets of the best,
    the same choice for the same seed; 'best' (the default) takes the more aggressive of a tie,
    and an action far behind is never chosen."""
    best = {pql.run(EQUAL, trials=400, seed=seed)[0].chosen for seed in range(1, 11)}
    assert best == {"bet"}
    mixed = [pql.run(EQUAL + ", choose='mixed'", trials=400, seed=seed)[0].chosen for seed in range(1, 21)]
    assert set(mixed) == {"check", "bet"}
    again = [pql.run(EQUAL + ", choose='mixed'", trials=400, seed=seed)[0].chosen for seed in range(1, 21)]
    assert again == mixed
    # The nuts: raising is worth far more than calling (and folding), so even mixed raises.
    assert {pql.run(NUTS + ", choose='mixed'", trials=400, seed=seed)[0].chosen for seed in range(1, 11)} == {
        "raise"
    }


def test_the_stop_rule_is_chosen_in_the_statement() -> None:
    """stop='none' plays every trial; stop='loki' stops a coin flip against folding that the
    default rule (three paired standard errors) plays to the end."""
    (nuts,) = pql.run(NUTS + ", stop='none'", trials=2_000, seed=1)
    assert not nuts.stopped_early
    assert nuts.trials == 2_000
    flip = (
        "simulate fold, call from hero='AcKc', villain='AdQd, 9c9h', board='2c3d7h8sTd', pot=4, tocall=4, "
        "bet=2, raises=3"
    )
    seeds = range(1, 21)
    loki = [pql.run(flip + ", stop='loki'", trials=10_000, seed=seed)[0].stopped_early for seed in seeds]
    paired = [pql.run(flip, trials=10_000, seed=seed)[0].stopped_early for seed in seeds]
    assert sum(loki) >= 5
    assert sum(paired) <= 1


def test_early_stops_choose_as_a_long_run_does() -> None:
    """A CI-sized version of benchmarks/simulate_stop.py: on random flop, turn and river spots
    the default rule's choice after an early stop is the choice of a run 10 times longer
    wherever that run can tell its two best actions apart (gap over 2.5 standard errors)."""
    rng = random.Random(7)
    spots = [s for s in (random_spot(rng) for _ in range(40)) if "board=" in s][:10]
    compared = 0
    for i, spot in enumerate(spots):
        (long,) = pql.run(spot + ", stop='none'", trials=20_000, seed=1_000 + i)
        (short,) = pql.run(spot, trials=10_000, seed=i)
        clear = long.gap is not None and long.gap > 2.5 * (long.gap_stderr or 0)
        if short.stopped_early and clear:
            compared += 1
            assert short.chosen == long.chosen, (spot, short.chosen, long.chosen)
    assert compared >= 3
