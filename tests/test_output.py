"""The writers of pql_repl.api.output on hand-built results: the table, CSV and JSON of docs/cli.md.

The results here are written out by hand so every expected string is known independently of the
engine; test_cli.py runs the same writers on real runs.
"""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest

from pql_repl.api.numbers import estimate_parts, format_estimate, format_number, format_weight, has_where
from pql_repl.api.output import (
    BAR_WIDTH,
    CSV_HEADER,
    Destination,
    OutputError,
    ResultWriter,
    format_table,
    render,
    summary_line,
    table_rows,
)
from pql_repl.api.results import Bucket, Column, StatementResult
from pql_repl.base import records
from pql_repl.session.progress import status_text


def result(
    columns: list[Column],
    *,
    trials: int = 600_000,
    exact: bool = False,
    attempted: int | None = None,
    query: str = "select ... from hero='AA'",
    elapsed: float = 0.25,
) -> StatementResult:
    return StatementResult(
        query=query,
        game="holdem",
        trials=trials,
        accepted=trials,
        attempted=trials if attempted is None else attempted,
        exact=exact,
        seed=1,
        elapsed=elapsed,
        columns=columns,
    )


COUNT = Column("COUNT 1", "count", 335263 / 600000, stderr=0.00064, count=335263)
AVG = Column("hero", "avg", 0.8521, stderr=0.0004)
EXACT_AVG = Column("hero", "avg", 0.8125, stderr=None)
HIST = Column(
    "HISTOGRAM 3",
    "histogram",
    None,
    buckets=[Bucket("pair", 300000, 0.5), Bucket("flush", 60000, 0.1), Bucket("quads", 0, 0.0)],
)


def test_count_row_is_percentage_with_its_margin_and_raw_count() -> None:
    # 1.96 * 0.00064 = 0.13%
    table = format_table(result([COUNT]))
    assert table.splitlines()[0] == "COUNT 1 | 55.88% ± 0.13% | 335,263"
    exact = Column("COUNT 1", "count", 0.5, stderr=None, count=495)
    assert format_table(result([exact], trials=990, exact=True)).splitlines()[0] == "COUNT 1 | 50.00% | 495"


def test_avg_shows_the_95_percent_margin_to_two_digits() -> None:
    # 1.96 * 0.0004 = 0.000784
    assert format_estimate(0.8521, 0.0004) == "0.85210 ± 0.00078"
    assert format_estimate(0.85, 0.004) == "0.8500 ± 0.0078"
    assert format_estimate(123.4, 2.0) == "123.4 ± 3.9"
    assert format_estimate(1234.5, 20.0) == "1234 ± 39"
    assert format_estimate(0.2, 1e-9) == "0.200000 ± 0.000000"  # six decimals at most
    assert format_table(result([AVG])).splitlines()[0] == "hero | 0.85210 ± 0.00078"


def test_exact_values_have_no_margin() -> None:
    col = Column("hero", "avg", 0.8125, stderr=None)
    table = format_table(result([col], trials=990, exact=True))
    assert table.splitlines() == ["hero | 0.8125", "990 deals, exact"]
    assert "±" not in table


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (6.0, "6"),
        (6, "6"),
        (0.5, "0.5"),
        (1 / 3, "0.333333"),
        (None, "—"),
        (True, "true"),
        ("flush", "flush"),
    ],
)
def test_numbers_read_naturally(value: float | str | None, text: str) -> None:
    assert format_number(value) == text


def test_histogram_has_a_row_per_bucket_with_a_bar() -> None:
    rows = table_rows(result([HIST]))
    assert rows[0].name == "HISTOGRAM 3"
    assert not rows[0].cells
    assert [r.name for r in rows[1:]] == ["pair", "flush", "quads"]
    assert all(r.bucket for r in rows[1:])
    pct, count, bar = rows[1].cells
    assert (pct, count) == ("50.00%", "300,000")
    assert len(bar) == BAR_WIDTH
    assert len(rows[2].cells[2]) == round(BAR_WIDTH * 0.1 / 0.5)
    assert rows[3].cells[2] == ""
    lines = format_table(result([HIST])).splitlines()
    assert lines[0] == "HISTOGRAM 3"
    assert lines[1].startswith("  pair  | 50.00% | 300,000 | ")
    assert lines[2].startswith("  flush | 10.00% |  60,000 | ")


def test_bars_shrink_to_fit_a_terminal_and_go_when_there_is_no_room() -> None:
    wide = format_table(result([HIST]), width=200).splitlines()
    assert wide == format_table(result([HIST])).splitlines()
    narrow = format_table(result([HIST]), width=40).splitlines()
    assert all(len(line) < 40 for line in narrow)
    assert narrow[1] == "  pair  | 50.00% | 300,000 | " + "█" * (
        40 - 1 - len("  pair  | 50.00% | 300,000 | ")
    )
    # No room for four cells of bar: no bars at all, the numbers whole.
    tight = format_table(result([HIST]), width=32).splitlines()
    assert tight[1] == "  pair  | 50.00% | 300,000"
    assert "█" not in "".join(tight)


def test_columns_line_up_across_selectors() -> None:
    lines = format_table(result([AVG, COUNT])).splitlines()
    assert lines[0].index("|") == lines[1].index("|")


def test_summary_line() -> None:
    assert summary_line(result([AVG])) == "600,000 trials"
    assert summary_line(result([AVG], trials=1000, exact=True)) == "1,000 deals, exact"
    assert summary_line(result([AVG], elapsed=0.5), timer=True) == "600,000 trials in 0.500 s"
    where = "select ... from hero='AA' where winsHi(hero)"
    kept = result([AVG], trials=1000, attempted=4000, query=where)
    assert summary_line(kept) == "1,000 trials, 25% of deals kept"
    assert format_table(result([AVG])).splitlines()[-1] == "600,000 trials"


def csv_records(text: str) -> list[dict[str, str]]:
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(CSV_HEADER)
    return [dict(zip(CSV_HEADER, row, strict=True)) for row in rows[1:]]


def test_csv_is_one_tidy_table_with_a_standard_error_beside_every_value() -> None:
    first = result([AVG, COUNT, HIST], query="select 'a, b'\nfrom hero='AA'")
    exact_count = Column("COUNT 1", "count", 0.5, stderr=None, count=495)
    text = render([first, result([exact_count], trials=990, exact=True)], "csv")
    assert text.count("statement,query") == 1  # one header for the whole file
    records = csv_records(text)
    assert [(r["statement"], r["selector"], r["label"]) for r in records] == [
        ("1", "hero", ""),
        ("1", "COUNT 1", ""),
        ("1", "HISTOGRAM 3", "pair"),
        ("1", "HISTOGRAM 3", "flush"),
        ("1", "HISTOGRAM 3", "quads"),
        ("2", "COUNT 1", ""),
    ]
    hero, count, pair, _, quads, exact = records
    assert hero["query"] == "select 'a, b'\nfrom hero='AA'"
    assert (hero["kind"], float(hero["value"]), float(hero["stderr"])) == ("avg", 0.8521, 0.0004)
    assert hero["count"] == ""
    assert float(count["value"]) == pytest.approx(335263 / 600000, abs=1e-15)
    assert (float(count["stderr"]), count["count"]) == (0.00064, "335263")
    # A bucket's share is a proportion of the trials: sqrt(p(1-p)/n).
    assert (pair["kind"], float(pair["value"]), pair["count"]) == ("histogram", 0.5, "300000")
    assert float(pair["stderr"]) == pytest.approx((0.5 * 0.5 / 600_000) ** 0.5)
    assert float(quads["stderr"]) == 0.0
    assert {r["trials"] for r in records[:5]} == {"600000"}
    assert {(r["exact"], r["status"]) for r in records[:5]} == {("false", "done")}
    # Exact values have no error at all.
    assert (exact["trials"], exact["exact"], exact["stderr"]) == ("990", "true", "0.0")


def test_csv_puts_a_value_that_is_not_a_number_in_the_label() -> None:
    top = Column("best", "max", "flush")
    (row,) = csv_records(
        render(
            [
                result(
                    [
                        top,
                    ]
                )
            ],
            "csv",
        )
    )
    assert (row["kind"], row["label"], row["value"], row["stderr"]) == ("max", "flush", "", "")


def test_csv_reads_into_pandas_with_numbers_as_numbers() -> None:
    pandas = pytest.importorskip("pandas")
    text = render([result([AVG, COUNT, HIST]), result([EXACT_AVG], trials=990, exact=True)], "csv")
    frame = pandas.read_csv(io.StringIO(text))
    assert list(frame.columns) == list(CSV_HEADER)
    assert len(frame) == 6
    for column in ("value", "stderr", "statement", "trials"):
        assert pandas.api.types.is_numeric_dtype(frame[column]), column
    assert frame["exact"].tolist() == [False] * 5 + [True]
    hero = frame[(frame["statement"] == 1) & (frame["selector"] == "hero")].iloc[0]
    assert (hero["value"], hero["stderr"]) == (0.8521, 0.0004)
    shares = frame[frame["kind"] == "histogram"].set_index("label")["value"]
    assert shares.to_dict() == {"pair": 0.5, "flush": 0.1, "quads": 0.0}


def test_csv_reads_into_duckdb(tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    file = tmp_path / "results.csv"
    file.write_text(render([result([AVG, COUNT, HIST]), result([EXACT_AVG], trials=990, exact=True)], "csv"))
    with duckdb.connect() as db:
        rows = db.execute(
            f"select statement, selector, value, stderr, exact from read_csv('{file}') order by all"
        ).fetchall()
    assert len(rows) == 6
    assert (1, "hero", 0.8521, 0.0004, False) in rows
    assert (2, "hero", 0.8125, 0.0, True) in rows


def test_markdown_is_a_table_per_statement() -> None:
    text = render([result([AVG, COUNT, HIST]), result([EXACT_AVG], trials=990, exact=True)], "markdown")
    first, second = text.split("\n\n`")
    lines = first.splitlines()
    assert lines[0] == "`select ... from hero='AA'`"
    assert lines[2:4] == [
        "| selector | label | value | ± 95% | count |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    assert lines[4] == "| hero |  | 0.85210 | 0.00078 |  |"
    assert lines[5] == "| COUNT 1 |  | 55.88% | 0.13% | 335,263 |"
    # A bucket's label in a column of its own, as in the CSV: no HTML padding (issue 39).
    assert lines[6] == "| HISTOGRAM 3 | pair | 50.00% | 0.13% | 300,000 |"
    assert "&nbsp;" not in text
    assert lines[-1] == "_600,000 trials_"
    assert second.splitlines()[-1] == "_990 deals, exact_"
    assert "| hero |  | 0.8125 |  |  |" in second


def test_json_is_the_design_document() -> None:
    results = [result([AVG, COUNT, HIST]), result([AVG], exact=True, trials=990)]
    doc = json.loads(render(results, "json"))
    assert doc == {"statements": [r.to_dict() for r in results]}
    first = doc["statements"][0]
    assert set(first) >= {"query", "game", "trials", "accepted", "exact", "seed", "elapsed_s", "columns"}
    assert first["columns"][1] == {
        "name": "COUNT 1",
        "selector": "count",
        "value": 335263 / 600000,
        "count": 335263,
        "stderr": 0.00064,
    }
    # A bucket carries its standard error, as the CSV does (sqrt(p(1-p)/n) for Monte Carlo).
    pair = {"label": "pair", "count": 300000, "fraction": 0.5, "stderr": math.sqrt(0.25 / 600_000)}
    assert first["columns"][2]["buckets"][0] == pair


def test_json_counts_are_whole_unless_weights_make_them_fractional() -> None:
    engine_like = Column("w", "count", 0.5, stderr=0.01, count=818.0, buckets=[])
    weighted = Column("w", "count", 0.5, stderr=0.01, count=818.25)
    hist = Column("h", "histogram", None, buckets=[Bucket("pair", 818.0, 0.5), Bucket("flush", 0.5, 0.1)])
    text = render([result([engine_like, weighted, hist])], "json")
    assert '"count": 818,' in text
    assert '"count": 818.25,' in text
    (_, _, h) = json.loads(text)["statements"][0]["columns"]
    assert [type(b["count"]) for b in h["buckets"]] == [int, float]


def test_json_waits_for_close_and_table_does_not() -> None:
    out = io.StringIO()
    writer = ResultWriter(out, "json")
    writer.write(result([AVG]))
    assert out.getvalue() == ""
    writer.close()
    writer.close()  # closing twice writes once
    assert len(json.loads(out.getvalue())["statements"]) == 1

    out = io.StringIO()
    writer = ResultWriter(out, "table")
    writer.write(result([AVG]))
    assert out.getvalue().endswith("600,000 trials\n")
    writer.write(result([AVG]))
    assert out.getvalue().count("\n\n") == 1  # statements are separated by one blank line


def test_bars_fall_back_to_ascii() -> None:
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    writer = ResultWriter(out, "table")
    writer.write(result([HIST]))
    out.seek(0)
    assert "#" * BAR_WIDTH in out.read()


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="format"):
        ResultWriter(io.StringIO(), "xml")


def test_a_destination_file_is_replaced_by_a_whole_document_after_every_result(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    path.write_text("old content\n")
    destination = Destination(io.StringIO())
    writer = destination.writer(str(path), "json")
    assert path.read_text() == "old content\n"  # until the first result replaces it
    for n in (1, 2):
        writer.write(result([AVG]))
        assert len(json.loads(path.read_text())["statements"]) == n
    # Another format on the same file goes on after what is there.
    destination.writer(str(path), "table").write(result([AVG]))
    text = path.read_text()
    assert len(json.loads(text[: text.rindex("}") + 1])["statements"]) == 2
    assert text.endswith("600,000 trials\n")
    destination.close()
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]  # no temporary file left
    with pytest.raises(OutputError, match=r"cannot write to .*missing"):
        destination.writer(str(tmp_path / "missing" / "out.csv"), "csv")


def truncated_result() -> StatementResult:
    """An exhaustive run stopped by its time limit after 1,234,567 of 1,712,304 deals: 31 of
    44 work items, taken in a random order, with the standard errors of that sample."""
    avg = Column("eq", "avg", 0.8477, stderr=0.0021)
    count = Column("COUNT 2", "count", 0.84, stderr=0.0032, count=1037036)
    return StatementResult(
        query="select ... from a='AsAh', b='KsKd'",
        game="holdem",
        trials=1234567,
        accepted=1234567,
        attempted=1234567,
        exact=False,
        seed=None,
        elapsed=0.05,
        columns=[avg, count],
        truncated=True,
        total_deals=1712304,
        enumerated_because="small",
        items_done=31,
        items_total=44,
    )


def test_an_enumeration_cut_short_says_so_in_every_format() -> None:
    # It used to print the first deals in deck order as if they were the answer; the work
    # items now go in a random order, so what was done is a sample with standard errors.
    r = truncated_result()
    note = "estimate from 72% of 1,712,304 deals (cut short: a random sample of the enumeration)"
    table = format_table(r)
    assert table.splitlines()[-1] == note
    assert "0.8477 ± 0.0041" in table
    assert "84.00% ± 0.63%" in table
    records = csv_records(render([r], "csv"))
    assert [(x["status"], x["exact"], x["stderr"]) for x in records] == [
        ("cut short", "false", "0.0021"),
        ("cut short", "false", "0.0032"),
    ]
    (st,) = json.loads(render([r], "json"))["statements"]
    assert st["truncated"] is True
    assert st["exact"] is False
    assert st["total_deals"] == 1712304
    assert (st["items_done"], st["items_total"]) == (31, 44)
    assert [c["stderr"] for c in st["columns"]] == [0.0021, 0.0032]


def test_histogram_buckets_of_an_enumeration_cut_short_carry_their_standard_errors() -> None:
    hist = Column(
        "h",
        "histogram",
        None,
        buckets=[Bucket("pair", 600.0, 0.6), Bucket("flush", 400.0, 0.4)],
        bucket_stderrs={"pair": 0.05},
    )
    r = records.replace(truncated_result(), columns=[hist])
    rows = csv_records(render([r], "csv"))
    # The engine's error where it has one; none where it has too few work items to judge.
    assert [(x["label"], x["stderr"]) for x in rows] == [("pair", "0.05"), ("flush", "")]
    (st,) = json.loads(render([r], "json"))["statements"]
    assert st["columns"][0]["buckets"][0]["stderr"] == 0.05
    assert st["columns"][0]["buckets"][1]["stderr"] is None  # every bucket has the key: one shape
    again = StatementResult.from_dict(st | {"elapsed_s": 0.05})
    assert again.columns[0].bucket_stderrs == {"pair": 0.05}
    markdown = render([r], "markdown")
    assert "| 60.00% | 9.80% |" in markdown


def test_when_many_trials_made_pql_enumerate_the_status_says_so() -> None:
    # `.trials 500000000` used to switch to enumeration without a word.
    because = records.replace(truncated_result(), enumerated_because="fewer deals than trials")
    assert status_text(because, timing=False) == (
        "done · estimate from 72% of 1,712,304 deals (fewer than the trials asked for) · 1,234,567 deals"
    )
    running = records.replace(because, done=False, truncated=False, progress=0.75)
    assert status_text(running, timing=False) == (
        "running · estimate from 72% of 1,712,304 deals (fewer than the trials asked for) · "
        "1,234,567 deals · 75%"
    )
    whole = records.replace(
        because, truncated=False, exact=True, trials=1712304, accepted=1712304, attempted=1712304
    )
    assert status_text(whole, timing=False) == (
        "done · exact: all 1,712,304 deals (fewer than the trials asked for) · 1,712,304 deals"
    )
    assert (
        summary_line(whole) == "1,712,304 deals, exact: all 1,712,304 deals (fewer than the trials asked for)"
    )
    assert summary_line(because).startswith(
        "estimate from 72% of 1,712,304 deals (fewer than the trials asked for)"
    )
    # A small enumeration chosen for its size says nothing of trials.
    small = records.replace(whole, enumerated_because="small")
    assert status_text(small, timing=False) == "done · exact · 1,712,304 deals"


def test_results_that_were_not_cut_short_say_nothing_of_it() -> None:
    r = result([AVG])
    assert "cut short" not in format_table(r)
    assert "cut short" not in render([r], "csv")
    (st,) = json.loads(render([r], "json"))["statements"]
    assert st["truncated"] is False
    assert "total_deals" not in st


def test_an_enumeration_with_sampled_inner_values_is_not_called_exact() -> None:
    deals = 124
    r = records.replace(
        truncated_result(),
        trials=deals,
        accepted=deals,
        attempted=deals,
        total_deals=deals,
        truncated=False,
        inner_sampled=True,
    )
    assert format_table(r).splitlines()[-1] == "124 deals, every deal enumerated, inner values sampled"
    (st,) = json.loads(render([r], "json"))["statements"]
    assert st["inner_sampled"] is True
    assert st["exact"] is False


def test_the_status_line_says_how_exact_a_finished_run_is() -> None:
    cut = truncated_result()
    assert status_text(cut, timing=False) == "done · estimate from 72% of 1,712,304 deals · 1,234,567 deals"
    whole = records.replace(cut, truncated=False, exact=True, trials=1712304)
    assert status_text(whole, timing=False) == "done · exact · 1,712,304 deals"
    sampled = records.replace(whole, exact=False, inner_sampled=True)
    assert status_text(sampled, timing=False) == "done · inner values sampled · 1,712,304 deals"


# ---------------------------------------------------------------------------------------------
# One convention for numbers (issue 37, item 7)


def test_every_plus_minus_is_the_95_percent_margin() -> None:
    """7a: the stop note's ± was one standard error (±0.0024) beside the table's 95% margin
    (± 0.0047); both are the 95% margin now, and the setting is named as the standard error."""
    eq = Column("eq", "avg", 0.8, stderr=0.0024)
    stopped = records.replace(result([eq], trials=41_000), stopped_at_precision=0.0025)
    lines = format_table(stopped).splitlines()
    assert lines[0] == "eq | 0.8000 ± 0.0047"
    assert (
        lines[-1]
        == "41,000 trials, stopped at ±0.0047 after 41,000 trials: target ±0.0049 (.precision 0.0025)"
    )
    assert "stopped at ±0.0047 after 41,000 trials" in status_text(stopped, timing=False)


def test_counts_of_trials_and_deals_are_thousands_separated_but_not_in_csv() -> None:
    """7b: the app said 20,000 trials, the command 20000; both say 20,000 now (CSV and JSON
    keep plain numbers)."""
    r = result([AVG, COUNT])
    assert format_table(r).splitlines()[-1] == "600,000 trials"
    assert format_table(r).splitlines()[1].endswith("| 335,263")
    assert "600,000 trials" in status_text(r, timing=False)
    (row,) = [x for x in csv_records(render([r], "csv")) if x["selector"] == "COUNT 1"]
    assert (row["trials"], row["count"]) == ("600000", "335263")
    (st,) = json.loads(render([r], "json"))["statements"]
    assert (st["trials"], st["columns"][1]["count"]) == (600000, 335263)


def test_estimates_show_the_decimals_their_margin_supports() -> None:
    """7c: a chip EV ± 0.42 was 12.3457 in the app; every front end shows 12.35 ± 0.42."""
    assert estimate_parts(12.345678, 0.42 / 1.96) == ("12.35", "0.42")
    assert estimate_parts(0.85, 0.004) == ("0.8500", "0.0078")
    assert estimate_parts(0.0, 0.0) == ("0", "0")  # folding: exactly 0
    assert estimate_parts(0.85, None) is None  # exact: the value alone
    call = Column("call", "avg", 12.345678, stderr=0.42 / 1.96)
    simulated = records.replace(result([call], trials=2000), kind="simulate", chosen="call")
    assert format_table(simulated).splitlines()[0] == "call | 12.35 ± 0.42"


def test_an_enumeration_counts_deals() -> None:
    """7d: an exhaustive run's count and speed are of deals, not trials."""
    exact = records.replace(result([EXACT_AVG], trials=990, exact=True), total_deals=990)
    assert summary_line(exact) == "990 deals, exact"
    status = status_text(exact)
    assert "990 deals" in status
    assert "deals/s" in status
    assert "trials" not in status
    monte_carlo = status_text(result([AVG]))
    assert "600,000 trials" in monte_carlo
    assert "trials/s" in monte_carlo


def test_weights_have_one_format() -> None:
    """7e: `weighted 864.0` in one explorer, `weighted 46` in the other."""
    assert [format_weight(w) for w in (46, 46.0, 864.0, 12.5, 0.333, 1326.0, 22100)] == [
        "46",
        "46",
        "864",
        "12.5",
        "0.33",
        "1,326",
        "22,100",
    ]


def test_deals_kept_is_said_only_for_a_where_clause() -> None:
    """7f: deals dropped because two hands drew one card (stud and razz hands given by rank)
    read as if a where clause had thrown them away."""
    query = "select avg(riverEquity(p1)) from game='razz', p1='As', p2='Ad'"
    dropped = result([AVG], trials=2000, attempted=2125, query=query)
    assert summary_line(dropped) == "2,000 trials, 5.88% of deals dropped (two hands drew the same card)"
    assert "kept" not in status_text(dropped)
    kept = result([AVG], trials=2000, attempted=4000, query=query + " where winsLo(p1)")
    assert summary_line(kept) == "2,000 trials, 50% of deals kept"
    assert "50% of deals kept" in status_text(kept)
    assert has_where("select x from h='AA'\n  WHERE winsHi(h)")
    assert not has_where("select x from h='AA' -- where nothing\n/* where */")
    assert not has_where("select x from where_from='AA'")
