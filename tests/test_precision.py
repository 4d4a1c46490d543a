"""Precision targets (issue 16): ``precision="auto"`` stops a long Monte Carlo run once every
selector is within the target, and the REPLs apply it by default. Real runs with fixed seeds on
one thread (the same trials in the same order every time); what counts as "long" is
``precision.AUTO_AFTER_SECONDS``, set here to 0 (every run is long) or to a very large number
(none is), so nothing depends on the machine's speed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

import pql_repl
from pql_repl.api import precision
from pql_repl.api.output import stop_note, summary_line, worst_error
from pql_repl.api.precision import AUTO_TARGET, engine_precision
from pql_repl.api.results import StatementResult
from pql_repl.files.config import load_config
from pql_repl.repl.plain import PlainRepl
from pql_repl.session.progress import status_text
from pql_repl.session.session import Session
from pql_repl.session.settings import SessionError, Settings

#: Monte Carlo only (a wide range: far too many deals to enumerate).
QUERY = "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins from hero='AhKh', villain='50%'"
HISTOGRAM = (
    "select histogram(handType(hero, river)) as made, avg(riverEquity(hero)) as eq "
    "from hero='AhKh', villain='50%'"
)
SMALL_EXACT = "select avg(riverEquity(hero)) as eq from hero='AhKh', villain='QsQd', board='2c7d9h'"
RUN = {"trials": 200_000, "seed": 11, "threads": 1}


@pytest.fixture
def always_long(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every run counts as projected to take long: the automatic target applies at once."""
    monkeypatch.setattr(precision, "AUTO_AFTER_SECONDS", 0.0)


@pytest.fixture
def never_long(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(precision, "AUTO_AFTER_SECONDS", 1e12)


def one(text: str, **options: object) -> StatementResult:
    (result,) = pql_repl.run(text, **options)  # type: ignore[arg-type]
    return result


@pytest.mark.usefixtures("always_long")
def test_auto_stops_once_every_error_is_below_the_target_near_the_full_answer() -> None:
    short = one(QUERY, precision="auto", **RUN)
    full = one(QUERY, **RUN)
    assert short.stopped_at_precision == AUTO_TARGET
    assert 1000 <= short.trials < full.trials == RUN["trials"]
    assert all(c.stderr is not None and c.stderr < AUTO_TARGET for c in short.columns)
    # The short run's trials are the first of the full run's (one thread, one seed), so the gap
    # is the sampling error of the part not run: three standard errors bound it.
    for s, f in zip(short.columns, full.columns, strict=True):
        assert isinstance(s.value, float)
        assert isinstance(f.value, float)
        assert abs(s.value - f.value) < 3 * AUTO_TARGET
    assert full.stopped_at_precision is None


@pytest.mark.usefixtures("never_long")
def test_auto_leaves_a_quick_run_whole_with_the_same_answer() -> None:
    auto = one(QUERY, precision="auto", **RUN)
    off = one(QUERY, precision=None, **RUN)
    assert auto.stopped_at_precision is None
    assert auto.trials == off.trials == RUN["trials"]
    assert [c.value for c in auto.columns] == [c.value for c in off.columns]


@pytest.mark.usefixtures("always_long")
def test_off_and_the_default_run_every_trial() -> None:
    assert one(QUERY, **RUN).trials == RUN["trials"]
    assert one(QUERY, precision=None, **RUN).trials == RUN["trials"]


@pytest.mark.usefixtures("always_long")
def test_exact_runs_are_unaffected() -> None:
    auto = one(SMALL_EXACT, precision="auto", seed=1)
    plain = one(SMALL_EXACT, seed=1)
    assert auto.exact
    assert plain.exact
    assert auto.stopped_at_precision is None
    assert auto.columns[0].value == plain.columns[0].value


@pytest.mark.usefixtures("always_long")
def test_a_histogram_is_judged_by_its_worst_share() -> None:
    # The histogram's shares need more trials than the equity alone (a share near one half has
    # the largest error), so the run goes on until the worst share is within the target too.
    both = one(HISTOGRAM, precision="auto", **RUN)
    equity = one(HISTOGRAM.replace("histogram(handType(hero, river)) as made, ", ""), precision="auto", **RUN)
    assert both.stopped_at_precision == AUTO_TARGET
    worst = worst_error(both)
    assert worst is not None
    assert worst < AUTO_TARGET
    assert both.trials > equity.trials


def test_a_target_must_be_a_standard_error_or_auto() -> None:
    assert engine_precision(None) == (None, None)
    assert engine_precision(0.01) == (0.01, None)
    assert engine_precision("AUTO") == (AUTO_TARGET, precision.AUTO_AFTER_SECONDS)
    for bad in (0, 1.5, -0.1, "sometimes"):
        with pytest.raises(ValueError, match="precision"):
            engine_precision(bad)
    with pytest.raises(ValueError, match="precision"):
        pql_repl.prepare(QUERY).stream(precision="2")


@pytest.mark.usefixtures("always_long")
def test_the_result_and_the_status_say_where_the_run_stopped() -> None:
    short = one(QUERY, precision="auto", **RUN)
    note = stop_note(short)
    worst = worst_error(short)
    assert worst is not None
    # Every ± is a 95% margin, the table's as the note's; the setting is a standard error.
    assert note == (
        f"stopped at ±{1.96 * worst:.2g} after {short.trials:,} trials: target ±0.0049 (.precision 0.0025)"
    )
    assert note in summary_line(short)
    assert f"{note}; .precision off for the full run" in status_text(short)
    assert short.to_dict()["stopped_at_precision"] == AUTO_TARGET
    assert (
        StatementResult.from_dict({**short.to_dict(), "elapsed_s": 0.0}).stopped_at_precision == AUTO_TARGET
    )
    assert stop_note(one(QUERY, **RUN)) == ""


def test_auto_is_the_default_of_the_repls_only(tmp_path: Path) -> None:
    script = Session()
    assert script.settings.precision == "auto"
    assert script.run_options()["precision"] is None
    interactive = Session()
    interactive.interactive = True
    assert interactive.run_options()["precision"] == "auto"
    interactive.handle(".precision off")
    assert interactive.run_options()["precision"] is None
    interactive.handle(".precision 0.01")
    assert interactive.run_options()["precision"] == 0.01
    script.handle(".precision 0.01")
    assert script.run_options()["precision"] == 0.01
    interactive.handle(".precision auto")
    assert interactive.settings.shown("precision").startswith("auto (standard error 0.0025, ±0.0049 at 95%")
    with pytest.raises(SessionError, match="not a number"):
        interactive.handle(".precision sometimes")
    # In the config file like every other setting.
    config = tmp_path / "config.toml"
    config.write_text('precision = "off"\n')
    assert Settings.from_config(load_config(config)).precision is None
    config.write_text('precision = "auto"\n')
    assert Settings.from_config(load_config(config)).precision == "auto"
    config.write_text("precision = 0.002\n")
    assert Settings.from_config(load_config(config)).precision == 0.002


@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    with create_pipe_input() as p:
        yield p


@pytest.mark.usefixtures("always_long")
def test_the_plain_repl_stops_at_the_automatic_target_and_says_so(
    pipe: PipeInput, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "no-config.toml"))
    out: list[str] = []
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=out.append)
    for line in (".seed 11", ".threads 1", ".trials 200000"):
        repl.execute(line)
    repl.execute(QUERY + ";")
    assert repl.last is not None
    assert repl.last.stopped_at_precision == AUTO_TARGET
    assert repl.last.trials < 200_000
    assert "target ±0.0049 (.precision 0.0025)" in "".join(out)
