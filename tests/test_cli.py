"""The ``pql`` command end to end: run as a process on the real engine, as a user would."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

AA_KK = (
    "select avg(riverEquity(hero)) as hero, count(winsHi(villain)) as villainWins "
    "from hero='AA', villain='KK'"
)
#: Small, fast Monte Carlo options; the seed makes runs repeatable.
FAST = ["--trials", "20000", "--no-exact", "--seed", "1", "--threads", "1"]


def pql(
    *args: str, stdin: str | None = None, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pql_repl.cli", *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env or os.environ.copy(),
        timeout=120,
        check=False,
    )


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the user's own config file and data dir out of the tests."""
    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "no-config.toml"))
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path / "data"))


def as_json(out: str) -> list[dict[str, object]]:
    doc = json.loads(out)
    assert list(doc) == ["statements"]
    statements: list[dict[str, object]] = doc["statements"]
    return statements


# ---------------------------------------------------------------------------------------------
# Formats


def test_table_is_the_default() -> None:
    r = pql("-c", AA_KK, *FAST)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("hero        | 0.8")
    assert "±" in lines[0]
    name, estimate, count = (cell.strip() for cell in lines[1].split("|"))
    assert name == "villainWins"
    pct, margin = estimate.split(" ± ")
    assert pct.endswith("%")
    assert float(pct[:-1]) == pytest.approx(100 * int(count.replace(",", "")) / 20000, abs=0.005)
    assert 0 < float(margin.removesuffix("%")) < 1  # a count has its margin, as an avg has
    assert lines[-1] == "20,000 trials"
    assert r.stderr == ""


def test_csv_is_one_tidy_table_that_pandas_reads() -> None:
    pandas = pytest.importorskip("pandas")
    histogram = "select histogram(handType(hero, flop)) as hands from hero='AA', villain='KK'"
    r = pql("-c", AA_KK, "-c", histogram, *FAST, "--format", "csv")
    assert r.returncode == 0, r.stderr
    frame = pandas.read_csv(io.StringIO(r.stdout))
    assert r.stdout.count("statement,") == 1
    assert frame["statement"].tolist()[:2] == [1, 1]
    assert set(frame["statement"]) == {1, 2}
    first = frame[frame["statement"] == 1].set_index("selector")
    assert first.loc["hero", "query"] == AA_KK
    assert 0.75 < first.loc["hero", "value"] < 0.88
    assert 0 < first.loc["hero", "stderr"] < 0.01
    wins = first.loc["villainWins"]
    assert wins["kind"] == "count"
    assert wins["value"] == pytest.approx(wins["count"] / 20000)
    assert 0 < wins["stderr"] < 0.01
    hands = frame[frame["statement"] == 2]
    assert set(hands["kind"]) == {"histogram"}
    assert "pair" in set(hands["label"])
    assert hands["count"].sum() == 20000
    assert hands["value"].sum() == pytest.approx(1.0)
    assert (hands["stderr"] > 0).all()
    assert set(frame["trials"]) == {20000}
    assert not frame["exact"].any()
    assert set(frame["status"]) == {"done"}


def test_markdown_for_forums_and_notes() -> None:
    r = pql("-c", AA_KK, *FAST, "--format", "markdown")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == f"`{AA_KK}`"
    assert lines[2] == "| selector | label | value | ± 95% | count |"
    assert lines[4].startswith("| hero |  | 0.8")
    assert lines[5].startswith("| villainWins |  | ")
    assert lines[-1] == "_20,000 trials_"
    # The dot-command (`md` for short) writes the same.
    dot = pql(*FAST, stdin=f".format md\n{AA_KK};\n")
    assert dot.stdout == r.stdout


def test_json_is_the_documented_shape() -> None:
    r = pql("-c", AA_KK, *FAST, "--format", "json")
    assert r.returncode == 0, r.stderr
    (st,) = as_json(r.stdout)
    assert st["query"] == AA_KK
    assert st["game"] == "holdem"
    assert st["trials"] == 20000
    assert st["accepted"] == 20000
    assert st["exact"] is False
    assert st["seed"] == 1
    assert isinstance(st["elapsed_s"], float)
    hero, wins = st["columns"]  # type: ignore[misc]
    assert hero["name"] == "hero"
    assert hero["selector"] == "avg"
    assert 0 < hero["stderr"] < 0.01
    assert wins["selector"] == "count"
    assert wins["value"] == pytest.approx(wins["count"] / 20000)
    # Counts of whole trials are whole numbers in JSON (818, not 818.0).
    assert type(wins["count"]) is int


def test_an_unnamed_selector_is_labelled_by_its_expression_everywhere() -> None:
    q = "select avg(riverEquity(hero)), count(winsHi(hero)) from hero='AA', villain='KK'"
    table = pql("-c", q, *FAST).stdout.splitlines()
    assert table[0].startswith("avg(riverEquity(hero)) | 0.8")
    assert table[1].startswith("count(winsHi(hero))    | ")
    rows = list(csv.DictReader(io.StringIO(pql("-c", q, *FAST, "--format", "csv").stdout)))
    assert [row["selector"] for row in rows] == ["avg(riverEquity(hero))", "count(winsHi(hero))"]
    (st,) = as_json(pql("-c", q, *FAST, "--format", "json").stdout)
    assert [c["name"] for c in st["columns"]] == ["avg(riverEquity(hero))", "count(winsHi(hero))"]  # type: ignore[attr-defined]


def test_json_counts_are_integers() -> None:
    q = "select count(winsHi(hero)) as w, histogram(handType(hero, flop)) as h from hero='AA', villain='KK'"
    (st,) = as_json(pql("-c", q, *FAST, "--format", "json").stdout)
    wins, hands = st["columns"]  # type: ignore[misc]
    assert type(wins["count"]) is int
    assert all(type(b["count"]) is int for b in hands["buckets"])
    assert sum(b["count"] for b in hands["buckets"]) == 20000


def test_exact_runs_say_so() -> None:
    q = "select avg(riverEquity(hero)) from hero='AsAh', villain='KsKd', board='2c7d9h'"
    r = pql("-c", q, "--exact")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "±" not in lines[0]
    assert lines[-1] == "990 deals, exact"  # 45 turns x 44 rivers / 2
    (st,) = as_json(pql("-c", q, "--exact", "--format", "json").stdout)
    assert st["exact"] is True
    assert st["columns"][0]["stderr"] is None  # type: ignore[index]


# ---------------------------------------------------------------------------------------------
# One convention for numbers (issue 37, item 7), as the command writes them


def test_counts_are_thousands_separated_in_the_table_and_plain_in_csv() -> None:
    """7b: `20,000 trials` and `3,611` as the app and `pql --plain` write them; CSV keeps
    numbers a program reads."""
    lines = pql("-c", AA_KK, *FAST).stdout.splitlines()
    assert lines[-1] == "20,000 trials"
    assert re.fullmatch(r"\d{1,2},\d{3}", lines[1].split("|")[-1].strip())
    rows = list(csv.DictReader(io.StringIO(pql("-c", AA_KK, *FAST, "--format", "csv").stdout)))
    assert {row["trials"] for row in rows} == {"20000"}
    assert re.fullmatch(r"\d+", rows[1]["count"])


def test_the_stop_notes_margin_is_the_tables() -> None:
    """7a: a run stopped on its precision target said `stopped at ±` one standard error, half
    the table's 95% margin; it says the 95% margin now, the largest of the table's."""
    r = pql("-c", AA_KK, "--trials", "1e9", "--no-exact", "--precision", "0.004", "--seed", "1")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    hero = float(lines[0].split("±")[1])
    wins = float(lines[1].split("±")[1].split("%")[0]) / 100
    note = re.search(
        r"stopped at ±(\d\.\d+) after [\d,]+ trials: target ±0\.0078 \(\.precision 0\.004\)", lines[-1]
    )
    assert note is not None, lines[-1]
    assert float(note.group(1)) == pytest.approx(max(hero, wins), rel=0.03)


def test_deals_kept_is_said_only_when_a_where_clause_kept_them() -> None:
    """7f: razz hands given by rank collide (both players drew the ace of spades); those deals
    are dropped and said so, not called kept by a where clause there is not."""
    razz = "select avg(riverEquity(p1)) from game='razz', p1='As', p2='Ad'"
    for q in (razz, razz.replace("razz", "stud")):
        last = pql("-c", q, "--trials", "2000", "--no-exact", "--seed", "1").stdout.splitlines()[-1]
        assert "kept" not in last, last
        assert re.fullmatch(r"2,000 trials, [\d.]+% of deals dropped \(two hands drew the same card\)", last)
    last = pql("-c", razz + " where winsLo(p1)", "--trials", "2000", "--no-exact", "--seed", "1").stdout
    assert re.search(r"^2,000 trials, [\d.]+% of deals kept$", last, re.MULTILINE), last


def test_an_enumeration_counts_deals_and_a_simulation_shows_what_its_margins_support() -> None:
    """7d and 7c: an exhaustive run's last line counts deals; a simulate statement's EVs have
    the decimals their margins support."""
    q = "select avg(riverEquity(hero)) from hero='AsAh', villain='KsKd', board='2c7d9h'"
    assert pql("-c", q, "--exact").stdout.splitlines()[-1] == "990 deals, exact"
    simulate = (
        "simulate fold, call, raise from game='holdem', hero='AhKh', villain='QQ+@90, 22-JJ@40, AK@80, *@5', "
        "board='Kd7c2h', pot=10, tocall=2, bet=2, stakes='limit'"
    )
    r = pql("-c", simulate, "--trials", "2000", "--seed", "1", "--threads", "1")
    assert r.returncode == 0, r.stderr
    for line in r.stdout.splitlines()[1:3]:  # call, raise: chips ± tenths of a chip
        value, margin = line.split("|")[1].split(" ± ")
        decimals = len(margin.strip().partition(".")[2])
        assert len(value.strip().partition(".")[2]) == decimals
        assert decimals == max(0, 1 - math.floor(math.log10(float(margin))))


def test_histogram_rows() -> None:
    q = "select histogram(handType(hero, river)) from hero='AA'"
    r = pql("-c", q, *FAST)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "histogram(handType(hero, river))"  # an unnamed selector reads as written
    buckets = lines[1:-1]
    labels = [b.split("|")[0].strip() for b in buckets]
    assert "pair" in labels
    assert "highcard" not in labels  # a pocket pair always holds at least a pair
    total = sum(int(b.split("|")[2].replace(",", "")) for b in buckets)
    assert total == 20000
    assert sum(float(b.split("|")[1].strip()[:-1]) for b in buckets) == pytest.approx(100, abs=0.05)


# ---------------------------------------------------------------------------------------------
# Errors and exit codes


def test_query_error_gives_line_column_and_caret() -> None:
    q = "select avg(riverEquty(hero)) from hero='AA', villain='KK'"
    r = pql("-c", q)
    assert r.returncode == 1
    assert r.stdout == ""
    col = q.index("riverEquty") + 1
    assert f"line 1, col {col}" in r.stderr
    assert "riverEquity" in r.stderr  # the suggestion
    caret = next(line for line in r.stderr.splitlines() if "^" in line)
    assert caret.index("^") - 2 == q.index("riverEquty")  # under the name, after the two-space indent


def test_errors_point_into_the_script_file(tmp_path: Path) -> None:
    script = tmp_path / "bad.pql"
    script.write_text(
        "-- a good statement, then a bad one\n"
        "select avg(riverEquity(hero)) from hero='AA', villain='KK';\n"
        "\n"
        "select count(winsHi(hero))\n"
        "from hero='AA', villian='KK' where winsHi(villain);\n"
    )
    r = pql(str(script), *FAST)
    assert r.returncode == 1
    assert r.stdout == ""  # checked before anything ran
    line = "from hero='AA', villian='KK' where winsHi(villain);"
    col = line.index("villain)") + 1
    assert f"bad.pql: line 5, col {col}" in r.stderr


def test_a_script_of_many_bad_statements_gets_a_short_report(tmp_path: Path) -> None:
    # Ten thousand statements on one line: each checked where it stands (not after a blanked
    # copy of everything before it), at most 50 errors shown, then the check stops there.
    statement = "select avg(riverEquty(hero)) from hero='AA';"
    script = tmp_path / "big.pql"
    script.write_text(statement * 10_000 + "\n")
    r = pql(str(script))
    assert r.returncode == 1
    reports = [line for line in r.stderr.splitlines() if "big.pql: line 1, col " in line]
    assert len(reports) == 50
    assert f"big.pql: line 1, col {49 * len(statement) + 12}: unknown function" in reports[-1]
    assert r.stderr.rstrip().endswith("big.pql: checking stopped at line 1: the rest is not checked")
    assert len(r.stderr) < 50_000


def test_every_bad_statement_is_reported() -> None:
    r = pql("-c", "select avg(nope(hero)) from hero='AA'", "-c", "select count(x from hero='AA'")
    assert r.returncode == 1
    assert r.stderr.count("line 1, col") >= 2


def test_a_deal_that_cannot_happen_is_a_query_error() -> None:
    r = pql("-c", "select avg(riverEquity(hero)) from hero='AsAh', villain='AsAh'", *FAST)
    assert r.returncode == 1
    assert r.stderr.startswith("pql: ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--trials", "lots", "-c", AA_KK], "--trials"),
        (["--trials", "0", "-c", AA_KK], "--trials"),
        (["--trials", "1e30", "-c", AA_KK], "--trials: '1e30' is more than"),
        (["--threads", "1e30", "-c", AA_KK], "--threads: '1e30' is more than"),
        (["--format", "xml", "-c", AA_KK], "--format"),
        (["--seed", "-3", "-c", AA_KK], "--seed"),
        (["--bogus"], "unrecognized"),
        (["--exact", "--no-exact", "-c", AA_KK], "not allowed"),
        (["/nonexistent/script.pql"], "cannot read"),
        (["--plain", "-c", AA_KK], "--plain"),
    ],
)
def test_usage_errors_exit_2(args: list[str], message: str) -> None:
    r = pql(*args)
    assert r.returncode == 2
    assert message in r.stderr
    assert r.stdout == ""


def test_bad_config_is_a_usage_error(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("trails = 5\n")
    r = pql("-c", AA_KK, env={**os.environ, "PQL_CONFIG": str(config)})
    assert r.returncode == 2
    assert "unknown setting 'trails'" in r.stderr


def test_help_and_version() -> None:
    r = pql("--help")
    assert r.returncode == 0
    for option in [
        "--trials",
        "--seed",
        "--exact",
        "--threads",
        "--time-limit",
        "--format",
        "--output",
        "-c",
    ]:
        assert option in r.stdout
    r = pql("--version")
    assert r.returncode == 0
    assert r.stdout.startswith("pql ")


def test_help_has_examples_the_config_file_and_the_environment(tmp_path: Path) -> None:
    """`pql --help` ends with examples, the config file pql reads (as PQL_CONFIG names it here)
    and the PQL_* variables; the examples keep their lines (issue 37)."""
    r = pql("--help")
    assert r.returncode == 0
    epilog = r.stdout.split("examples:", 1)[1]
    examples = [line.strip() for line in epilog.split("\n\n", 1)[0].splitlines() if line.strip()]
    assert len(examples) >= 2
    assert all(line.startswith("pql ") for line in examples)
    assert "pql -c \"select avg(riverEquity(hero)) from hero='AA', villain='KK';\"" in examples
    assert f"{tmp_path / 'no-config.toml'} (named by PQL_CONFIG; none there yet)" in epilog
    for variable in ("PQL_CONFIG", "PQL_DATA_DIR"):
        assert f"\n  {variable}  " in epilog


# ---------------------------------------------------------------------------------------------
# Sources: -c, stdin, files, dot-commands


def test_repeated_c_runs_in_order() -> None:
    a = "select avg(riverEquity(hero)) as first from hero='AA', villain='KK'"
    b = "select avg(riverEquity(hero)) as second from hero='QQ', villain='AK'"
    (r1, r2) = as_json(pql("-c", a, "-c", b, *FAST, "--format", "json").stdout)
    assert r1["columns"][0]["name"] == "first"  # type: ignore[index]
    assert r2["columns"][0]["name"] == "second"  # type: ignore[index]


def test_statements_from_stdin() -> None:
    text = (
        "select avg(riverEquity(hero)) as a from hero='AA', villain='KK'\n\n"
        "/* a comment; with a semicolon */\n"
        "select avg(riverEquity(hero)) as b from hero='KK', villain='AA';\n"
    )
    r = pql(*FAST, "--format", "json", stdin=text)
    assert r.returncode == 0, r.stderr
    a, b = as_json(r.stdout)
    ea, eb = a["columns"][0]["value"], b["columns"][0]["value"]  # type: ignore[index]
    assert ea + eb == pytest.approx(1, abs=0.02)
    dash = pql("-", *FAST, "--format", "json", stdin=text)
    assert len(as_json(dash.stdout)) == 2


def test_dot_commands_in_a_script(tmp_path: Path) -> None:
    script = tmp_path / "settings.pql"
    script.write_text(
        ".trials 3000\n"
        ".seed 42\n"
        ".exact off\n"
        ".format json\n"
        "select count(winsHi(hero)) from hero='AA', villain='KK';\n"
        ".trials 4000\n"
        "select count(winsHi(hero)) from hero='AA', villain='KK'\n"
    )
    r = pql(str(script))
    assert r.returncode == 0, r.stderr
    a, b = as_json(r.stdout)
    assert (a["trials"], a["seed"], a["exact"]) == (3000, 42, False)
    assert (b["trials"], b["seed"]) == (4000, 42)


def test_dot_command_output_and_errors(tmp_path: Path) -> None:
    r = pql("-c", ".help")
    assert r.returncode == 0
    assert ".trials N" in r.stdout
    script = tmp_path / "typo.pql"
    script.write_text("-- settings\n.trails 1000\n")
    r = pql(str(script))
    assert r.returncode == 1
    assert "typo.pql: line 2: unknown command '.trails'" in r.stderr
    assert "did you mean '.trials'?" in r.stderr


def test_read_and_quit(tmp_path: Path) -> None:
    (tmp_path / "inner.pql").write_text(
        "select avg(riverEquity(hero)) as inner from hero='AA', villain='KK';\n"
    )
    (tmp_path / "outer.pql").write_text(
        ".read inner.pql\n"
        "select avg(riverEquity(hero)) as outer from hero='AA', villain='KK';\n"
        ".quit\n"
        "select avg(riverEquity(hero)) as never from hero='AA', villain='KK';\n"
    )
    r = pql("outer.pql", *FAST, "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    names = [s["columns"][0]["name"] for s in as_json(r.stdout)]  # type: ignore[index]
    assert names == ["inner", "outer"]


def test_a_script_that_reads_itself_stops(tmp_path: Path) -> None:
    (tmp_path / "loop.pql").write_text(".read loop.pql\n")
    r = pql("loop.pql", cwd=tmp_path)
    assert r.returncode == 1
    assert "nested" in r.stderr


def test_a_script_that_is_not_utf8_is_reported(tmp_path: Path) -> None:
    (tmp_path / "latin1.pql").write_bytes("-- caf\xe9\n".encode("latin-1"))
    r = pql("latin1.pql", cwd=tmp_path)
    assert r.returncode == 2
    assert "cannot read 'latin1.pql': not UTF-8" in r.stderr
    r = pql("-c", ".read latin1.pql", cwd=tmp_path)
    assert r.returncode == 1
    assert "line 1: cannot read 'latin1.pql': not UTF-8" in r.stderr


def test_output_file(tmp_path: Path) -> None:
    out = tmp_path / "results.csv"
    r = pql("-c", AA_KK, *FAST, "--format", "csv", "--output", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""
    rows = list(csv.reader(out.open()))
    assert rows[0][:2] == ["statement", "query"]
    assert len(rows) == 3  # a row per selector


def test_output_command_switches_destination(tmp_path: Path) -> None:
    script = (
        ".output a.txt\n"
        "select avg(riverEquity(hero)) as one from hero='AA', villain='KK';\n"
        ".output stdout\n"
        "select avg(riverEquity(hero)) as two from hero='AA', villain='KK';\n"
    )
    r = pql(*FAST, stdin=script, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "a.txt").read_text().startswith("one ")
    assert r.stdout.startswith("two ")


def test_unwritable_output_is_an_error(tmp_path: Path) -> None:
    r = pql("-c", AA_KK, *FAST, "--output", str(tmp_path / "missing-dir" / "x.txt"))
    assert r.returncode == 2
    assert "cannot write" in r.stderr
    r = pql(*FAST, stdin=f".output {tmp_path / 'missing-dir' / 'x.txt'}\n{AA_KK};\n")
    assert r.returncode == 1
    assert "line 1: cannot write" in r.stderr
    assert r.stdout == ""


# ---------------------------------------------------------------------------------------------
# Run options


def values(r: subprocess.CompletedProcess[str]) -> list[float]:
    assert r.returncode == 0, r.stderr
    return [c["value"] for s in as_json(r.stdout) for c in s["columns"]]  # type: ignore[attr-defined]


def test_seeds_are_reproducible() -> None:
    args = ["-c", AA_KK, "--trials", "20000", "--no-exact", "--format", "json"]
    a = values(pql(*args, "--seed", "11"))
    b = values(pql(*args, "--seed", "11"))
    c = values(pql(*args, "--seed", "12"))
    assert a == b
    assert a != c


def test_config_file_gives_defaults_and_options_override(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('trials = 3000\nseed = 5\nformat = "json"\nexact = "off"\n')
    env = {**os.environ, "PQL_CONFIG": str(config)}
    (st,) = as_json(pql("-c", AA_KK, env=env).stdout)
    assert (st["trials"], st["seed"]) == (3000, 5)
    (st,) = as_json(pql("-c", AA_KK, "--trials", "2000", env=env).stdout)
    assert st["trials"] == 2000
    (st,) = as_json(pql("-c", AA_KK, "--seed", "off", env=env).stdout)
    assert st["seed"] != 5  # a fresh seed (the engine reports the one it drew)


def test_time_limit_stops_a_long_run() -> None:
    # Only what holds at any speed: the run ends, with fewer trials than asked for, and reports.
    r = pql("-c", AA_KK, "--trials", "1e10", "--no-exact", "--threads", "1", "--time-limit", "0.5")
    assert r.returncode == 0, r.stderr
    trials = int(r.stdout.splitlines()[-1].split()[0].replace(",", ""))
    assert trials < 10**10


def test_a_zero_time_limit_is_a_usage_error() -> None:
    # '0' used to mean no limit, while the API took time_limit=0 as none too, silently.
    r = pql("-c", AA_KK, "--time-limit", "0")
    assert r.returncode == 2
    assert "positive number of seconds" in r.stderr
    assert pql("-c", AA_KK, *FAST, "--time-limit", "off").returncode == 0


def test_an_enumeration_cut_short_says_so() -> None:
    # An exhaustive run stopped by its time limit is an estimate from the work items it
    # finished (a random sample of them): the table, CSV and JSON say so.
    # 566,544,888 deals, minutes of work: the limit cuts it short at any speed.
    query = (
        "select avg(riverEquity(a)) as eq, histogram(handType(a, river)) from game='omahahi', "
        "a='AsAhKsKh', b='QdJdTc9c', c='8h8d**'"
    )
    options = ["--exact", "--time-limit", "0.3"]
    r = pql("-c", query, *options)
    assert r.returncode == 0, r.stderr
    last = r.stdout.splitlines()[-1]
    assert last.startswith("estimate from "), last
    assert last.endswith("of 566,544,888 deals (cut short: a random sample of the enumeration)"), last
    rows = list(csv.DictReader(io.StringIO(pql("-c", query, *options, "--format", "csv").stdout)))
    assert {(row["status"], row["exact"]) for row in rows} == {("cut short", "false")}
    # A standard error once enough work items are in (how many depends on the machine).
    assert all(row["stderr"] == "" or float(row["stderr"]) >= 0 for row in rows)
    (st,) = as_json(pql("-c", query, *options, "--format", "json").stdout)
    assert st["truncated"] is True
    assert st["exact"] is False
    assert st["total_deals"] == 566544888


def test_precision_stops_once_the_standard_errors_are_small() -> None:
    r = pql("-c", AA_KK, "--trials", "1e9", "--no-exact", "--precision", "0.004", "--format", "json")
    (st,) = as_json(r.stdout)
    assert 1000 < st["trials"] < 10**9  # type: ignore[operator]
    for column in st["columns"]:  # type: ignore[attr-defined]
        assert column["stderr"] < 0.004


def test_timer_adds_the_run_time() -> None:
    r = pql("-c", AA_KK, *FAST, "--timer")
    last = r.stdout.splitlines()[-1]
    assert last.startswith("20,000 trials in ")
    assert last.endswith(" s")
    assert math.isfinite(float(last.split()[-2]))


# ---------------------------------------------------------------------------------------------
# Interactivity without a terminal library


def test_c_does_not_import_terminal_libraries() -> None:
    code = (
        "import sys\n"
        "from pql_repl.cli.main import main\n"
        f"code = main(['-c', {AA_KK!r}, '--trials', '2000', '--no-exact'])\n"
        "assert code == 0, code\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'prompt_toolkit')))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "[]"


def spawn_script(*args: str) -> Any:
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(sys.executable, ["-m", "pql_repl.cli", *args], encoding="utf-8", timeout=60)


def test_ctrl_c_prints_what_was_computed_and_exits_130() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = spawn_script("-c", AA_KK, "--trials", "1e12", "--no-exact", "--threads", "1")
    child.expect("trials/s")  # the progress line: the run is under way
    child.sendintr()
    # What was computed is printed, marked as a partial result, then the script stops.
    child.expect(r"hero +\| 0\.\d+ ± 0\.\d+")
    child.expect(r"villainWins +\| +\d+\.\d+% ± \d+\.\d+% \| +[\d,]+")
    child.expect(r"([\d,]+) trials, cancelled \(partial result\)")
    trials = int(child.match.group(1).replace(",", ""))
    assert 0 < trials < 10**12
    child.expect("pql: interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in (child.before or "")


def test_ctrl_c_in_json_still_writes_a_whole_document() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = spawn_script(
        "-c",
        f"{AA_KK};\n{AA_KK.replace('as hero', 'as second')}",
        "--trials",
        "1e12",
        "--no-exact",
        "--threads",
        "1",
        "--format",
        "json",
    )
    child.expect("trials/s")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    out = (child.before or "").replace("\r\n", "\n")
    document = out[out.index("{") : out.rindex("}") + 1]
    (st,) = as_json(document)  # the second statement never started
    assert st["cancelled"] is True
    assert 0 < st["trials"] < 10**12  # type: ignore[operator]
    assert "pql: interrupted" in out


def test_progress_line_on_a_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = spawn_script("-c", AA_KK, "--trials", "1e12", "--no-exact", "--threads", "1")
    child.expect(r"\r[\d,]+ trials +\d+\.\d% +[\d.]+[kMG]? trials/s")
    child.sendintr()
    # The progress line is erased before the table is written.
    child.expect(r"\r +\r")
    child.expect(r"[\d,]+ trials, cancelled")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


# ---------------------------------------------------------------------------------------------
# Which front end starts (the front ends themselves are tested in test_repl.py and test_tui.py)


def spawn_on_a_terminal(args: list[str], tmp_path: Path) -> Any:
    pexpect = pytest.importorskip("pexpect")
    env = {
        **os.environ,
        "PQL_DATA_DIR": str(tmp_path / "data"),
        "PQL_CONFIG": str(tmp_path / "none.toml"),
        "TERM": "xterm-256color",
        "PROMPT_TOOLKIT_NO_CPR": "1",  # pexpect does not answer cursor position requests
    }
    return pexpect.spawn(
        sys.executable,
        ["-m", "pql_repl.cli", *args],
        env=env,
        encoding="utf-8",
        timeout=120,
        dimensions=(40, 120),
    )


def test_plain_starts_the_line_repl(tmp_path: Path) -> None:
    pytest.importorskip("pql_repl.repl")
    pexpect = pytest.importorskip("pexpect")
    child = spawn_on_a_terminal(["--plain", "--trials", "2000"], tmp_path)
    try:
        child.expect_exact("pql>")
        child.send(".show\r")
        child.expect(r"trials\s+2000")  # the options reach the REPL
        child.send(".quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_no_arguments_on_a_terminal_start_the_full_screen_app(tmp_path: Path) -> None:
    pytest.importorskip("pql_repl.tui.app")
    child = spawn_on_a_terminal([], tmp_path)
    try:
        child.expect_exact("\x1b[?1049h")  # the alternate screen
    finally:
        child.close(force=True)


def test_ctrl_c_stops_the_odds_view_keeping_its_rows() -> None:
    """`.odds` in a script writes the odds view's rows as each is done; Ctrl-C during the second
    row (10^8 trials: sampled, far too many to finish) keeps the first and stops the script."""
    pexpect = pytest.importorskip("pexpect")
    child = spawn_script("-c", ".odds AdQc 3h4cJh", "--trials", "100000000", "--seed", "1")
    child.logfile_read = seen = io.StringIO()
    child.expect_exact("against 1 to 9 random opponents")
    child.expect(r" {4}1 +\d+\.\d\d% .* exact +exact")  # the first row (exact) is done
    child.sendintr()
    child.expect_exact(".odds cancelled")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    out = seen.getvalue()
    assert "Traceback" not in out
    rows = [line.split()[0] for line in out.splitlines() if re.match(r" {4,}\d +\d", line)]
    assert rows == ["1"]  # the row cut short is not written
