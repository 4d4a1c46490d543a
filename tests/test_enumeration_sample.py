"""An enumeration cut short, end to end: its work items go in a seeded random order, so what it
finished is a sample of them, reported as an estimate with standard errors in the table, the
status line, CSV and JSON. The runs are cut short by an item limit (the extension's test hook),
so they stop at the same point on any machine."""

from __future__ import annotations

import csv
import io
import json

from pql_repl import _core
from pql_repl.api.output import format_table, render
from pql_repl.api.results import StatementResult
from pql_repl.session.progress import status_text

QUERY = (
    "select avg(riverEquity(a)) as eq, count(winsHi(a)) as wins, histogram(handType(a, river)) "
    "from game='holdem', a='AA,KK', b='QQ,JJ,AKs', board='Kh7d2c'"
)


def run(query: str, seed: int, items: int | None = None, trials: int = 600_000) -> StatementResult:
    handle = _core.Program(query).start(0, trials, seed=seed, exact=True, threads=2, item_limit=items)
    while True:
        snap = handle.poll(1.0)
        if snap is not None and snap["done"]:
            return StatementResult.from_dict(snap)


def test_a_cut_short_enumeration_estimates_the_exact_answer() -> None:
    exact = run(QUERY, seed=1)
    assert exact.exact
    assert exact.items_total is not None
    assert exact.items_total > 100
    assert exact.seed is None
    truth = {c.name: c.value for c in exact.columns[:2]}
    for seed in range(1, 11):
        cut = run(QUERY, seed=seed, items=exact.items_total // 3)
        assert cut.truncated
        assert not cut.exact
        assert cut.seed == seed
        assert cut.items_done == exact.items_total // 3
        for c in cut.columns[:2]:
            assert isinstance(c.value, float)
            assert c.stderr is not None
            assert c.stderr > 0
            assert abs(c.value - truth[c.name]) < 4.5 * c.stderr, (seed, c, truth)  # type: ignore[operator]
        hist = cut.columns[2]
        assert set(hist.bucket_stderrs) == {b.label for b in hist.buckets}
    # Every format says what the numbers are.
    table = format_table(cut)
    assert "±" in table
    assert table.splitlines()[-1].startswith("estimate from ")
    assert status_text(cut, timing=False).startswith("done · estimate from ")
    rows = list(csv.DictReader(io.StringIO(render([cut], "csv"))))
    assert all(row["status"] == "cut short" and float(row["stderr"]) > 0 for row in rows)
    (st,) = json.loads(render([cut], "json"))["statements"]
    assert st["truncated"] is True
    assert all("stderr" in b for b in st["columns"][2]["buckets"])


def test_the_whole_enumeration_gives_the_exact_answer_and_no_errors() -> None:
    exact = run(QUERY, seed=1)
    items = exact.items_total
    assert items is not None
    whole = run(QUERY, seed=7, items=items)
    assert whole.exact
    assert not whole.truncated
    assert whole.trials == exact.trials
    for a, b in zip(whole.columns[:2], exact.columns[:2], strict=True):
        assert abs(a.value - b.value) < 1e-12  # type: ignore[operator]
        assert a.stderr is None
    assert whole.columns[2].bucket_stderrs == {}
    assert [b.label for b in whole.columns[2].buckets] == [b.label for b in exact.columns[2].buckets]


def test_many_trials_make_pql_enumerate_and_it_says_so() -> None:
    # 2,970 deals, but the nut functions' inner cost puts them over the size limit: enumerated
    # because the trials asked for outnumber the deals.
    query = (
        "select count(nutHi(hero, flop)), avg(nutHiOuts(hero, flop)) from game='holdem', "
        "hero='AhKh', villain='QQ', board='Qh7h2c'"
    )
    handle = _core.Program(query).start(0, 600_000, seed=1, threads=2)
    while True:
        snap = handle.poll(1.0)
        if snap is not None and snap["done"]:
            break
    r = StatementResult.from_dict(snap)
    assert r.enumerated_because == "fewer deals than trials"
    assert r.exact
    assert "(fewer than the trials asked for)" in status_text(r, timing=False)
    assert "(fewer than the trials asked for)" in format_table(r)
