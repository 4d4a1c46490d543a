"""The standard errors of Monte Carlo runs are calibrated (issue 38, "In the suite, so it stays
honest"): for answers whose exact value a small exact run gives, many seeds of a short Monte
Carlo run give z-scores, (estimate - exact) / standard error, whose mean is near 0 and whose
standard deviation is near 1.

Where docs/computation.md says a run is stratified (hold'em and short deck with ranges: the ranges' hands
follow a golden-ratio sequence), the error is smaller than the standard error shown, which is
that of independent deals ("for `QQ+, AKs, AKo` v `22+` about 13% smaller"): there the standard
deviation of the z-scores is below 1, about 0.8 to 0.95.

The bounds follow from the number of seeds n: the mean of n z-scores has a standard error of
1/sqrt(n) (0.058 for 300) and their standard deviation one of about 1/sqrt(2(n - 1)) (0.041), so
|mean| < 4/sqrt(n) = 0.23, sd < 1 + 4 x 0.041 = 1.16, and sd > 1 - 0.16 = 0.84 where nothing is
stratified, sd > 0.7 where it is (0.8, the strongest stratification docs/computation.md reports, less 2.5
standard errors). The share of |z| < 1.96 is about 0.95 (a standard error of 0.013 over 300): at
least 0.90. The seeds are fixed, so the test is deterministic.

Omaha hi, hi/lo and 5-card Omaha were also run 40,000 times each (benchmarks/calibrate_omaha.py,
issue 38 item 6): z standard deviations 0.997-1.007 (their own standard error 0.0035), as chance
and the Wald error's own small-sample excess allow; docs/computation.md (Errors and margins) has
the numbers.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator

import pytest

import pql_repl as pql

SEEDS = 300
TRIALS = 2_000

MEAN_BOUND = 4 / math.sqrt(SEEDS)
SD_ERROR = 1 / math.sqrt(2 * (SEEDS - 1))
SD_HIGH = 1 + 4 * SD_ERROR
SD_LOW = 1 - 4 * SD_ERROR
SD_LOW_STRATIFIED = 0.7
COVERAGE = 0.90

CASES = [
    # (name, query, stratified)
    (
        "holdem hands",
        "select avg(riverEquity(hero)), count(minHandType(hero, river, flush)) "
        "from game='holdem', hero='AhKh', villain='QsQd'",
        False,
    ),
    (
        "holdem ranges",  # docs/computation.md's example of stratification
        "select avg(riverEquity(hero)), count(winsHi(villain)) "
        "from game='holdem', hero='QQ+, AKs, AKo', villain='22+'",
        True,
    ),
    (
        "holdem ranges on a flop",
        "select avg(riverEquity(hero)), count(minHandType(villain, river, trips)) "
        "from game='holdem', hero='QQ+, AK', villain='JJ-99, AQs, KQs', board='Kh7c2d'",
        True,
    ),
    (
        "omaha hands",
        "select avg(riverEquity(hero)), count(minHandType(hero, river, twopair)) "
        "from game='omahahi', hero='AsAhKsKh', villain='QdJdTc9c'",
        False,
    ),
    (
        "omaha ranges",
        "select avg(riverEquity(hero)), count(winsHi(villain)) "
        "from game='omahahi', hero='AsAhKsKh, AcAdKcKd', villain='QdJdTc9c, QhJhTs9s'",
        False,
    ),
    (
        "omaha hi/lo on a flop",
        "select avg(riverEquity(hero)), count(scoops(hero)) "
        "from game='omaha8', hero='As2sKdQh', villain='Ad3dJcTc', board='4h8c9s'",
        False,
    ),
    (
        "omaha hi, 3 players",
        "select avg(riverEquity(hero)), count(winsHi(hero)) "
        "from game='omahahi', hero='AsKsQh7d', v1='JcTc9d8d', v2='6h6s5c4c', board='Ah8s2c'",
        False,
    ),
    (
        "5-card omaha hands",
        "select avg(riverEquity(hero)), count(winsHi(hero)) "
        "from game='omaha5', hero='AsAhKsKh2c', villain='QdJdTc9c8c'",
        False,
    ),
    (
        "5-card omaha hi/lo",
        "select avg(riverEquity(hero)), count(scoops(hero)), count(winsLo(hero)) "
        "from game='omaha85', hero='As2sKdQh7c', villain='Ad3dJcTc9h'",
        False,
    ),
    (
        "stud hi/lo",
        "select avg(riverEquity(hero)), count(scoops(villain)) "
        "from game='stud8', hero='As2h3d9c8c', villain='QsQdJh4c5c'",
        False,
    ),
]

#: (name, selector, mean, sd, coverage) of every series, for the summary.
SERIES: list[tuple[str, str, float, float, float]] = []


@pytest.fixture(scope="module", autouse=True)
def _summary(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if not SERIES or reporter is None or capture is None:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line("")
        reporter.write_line(
            f"calibration: z = (estimate - exact) / stderr over {SEEDS} seeds x {TRIALS} trials"
        )
        for name, selector, mean, sd, coverage in SERIES:
            reporter.write_line(
                f"  {name:<24} {selector:<45} mean {mean:+.3f}  sd {sd:.3f}  |z|<1.96 {coverage:.3f}"
            )


@pytest.mark.parametrize(("name", "query", "stratified"), CASES, ids=[c[0] for c in CASES])
def test_standard_errors_are_calibrated(name: str, query: str, stratified: bool) -> None:
    (exact,) = pql.run(query, exact=True)
    assert exact.exact
    zs: list[list[float]] = [[] for _ in exact.columns]
    for seed in range(1, SEEDS + 1):
        (r,) = pql.run(query, exact=False, trials=TRIALS, seed=seed)
        assert not r.exact
        assert r.trials == TRIALS
        for z, col, want in zip(zs, r.columns, exact.columns, strict=True):
            assert col.stderr is not None
            assert col.stderr > 0
            z.append((float(col.value) - float(want.value)) / col.stderr)  # type: ignore[arg-type]
    for z, col in zip(zs, exact.columns, strict=True):
        mean, sd = statistics.fmean(z), statistics.stdev(z)
        coverage = sum(abs(x) < 1.96 for x in z) / len(z)
        SERIES.append((name, col.name, mean, sd, coverage))
        low = SD_LOW_STRATIFIED if stratified else SD_LOW
        assert abs(mean) < MEAN_BOUND, (col.name, mean, sd)
        assert low < sd < SD_HIGH, (col.name, mean, sd)
        assert coverage >= COVERAGE, (col.name, coverage)
