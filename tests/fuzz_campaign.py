"""A long fuzz campaign over sweeps and spreadsheet mode (issue 41): the property tests of
``tests/test_properties.py`` that generate sweep clauses and their lists, values given from
Python, sweeps run in scripts, rows files and templates, each run with many examples under a
memory limit (a MemoryError fails the test like any exception but a PqlError or a clean exit).

    python3 tests/fuzz_campaign.py [EXAMPLES_PER_TEST] [JOBS]

Each test runs in processes of ``CHUNK`` examples (Hypothesis's record of the examples it made
grows with their number; each process starts from another random seed). Prints each test's
examples, time and outcome, and the total. A failure prints Hypothesis's smallest failing
example."""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TESTS = [
    "test_any_sweep_clause_is_read_or_refused_with_a_pql_error",
    "test_any_values_from_python_are_swept_or_refused",
    "test_a_small_sweep_in_a_script_runs_or_ends_with_a_clean_error",
    "test_any_rows_file_is_read_or_refused_by_line",
    "test_any_sheet_runs_or_ends_with_a_clean_exit",
]
#: Address space of each test's process: far more than any input within the bounds needs.
MEMORY_LIMIT = 6 * 2**30
#: Examples one process runs.
CHUNK = 5_000
HERE = Path(__file__).resolve().parent


def limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run(test: str, examples: int) -> tuple[str, int, float, bool, str]:
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--hypothesis-show-statistics",
            f"{HERE / 'test_properties.py'}::{test}",
        ],
        env={**os.environ, "HYPOTHESIS_PROFILE": "campaign", "PQL_FUZZ_EXAMPLES": str(examples)},
        capture_output=True,
        text=True,
        preexec_fn=limit_memory,
        check=False,
        cwd=HERE.parent,
    )
    counts = [int(n) for n in re.findall(r"(\d+) passing", done.stdout)]
    failed = done.returncode != 0
    return test, sum(counts), time.monotonic() - started, failed, done.stdout[-6000:] if failed else ""


def main() -> int:
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 45_000
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    chunks = [(test, min(CHUNK, examples - start)) for test in TESTS for start in range(0, examples, CHUNK)]
    counts = dict.fromkeys(TESTS, 0)
    seconds = dict.fromkeys(TESTS, 0.0)
    failed: dict[str, list[str]] = {test: [] for test in TESTS}
    with ThreadPoolExecutor(jobs) as pool:
        for test, count, took, failure, report in pool.map(lambda chunk: run(*chunk), chunks):
            counts[test] += count
            seconds[test] += took
            if failure:
                failed[test].append(report)
    for test in TESTS:
        outcome = "FAILED" if failed[test] else "passed"
        print(f"{test}: {counts[test]:,} examples in {seconds[test]:,.0f} s: {outcome}", flush=True)
        for report in failed[test]:
            print(report, flush=True)
    failures = sum(bool(reports) for reports in failed.values())
    print(f"total: {sum(counts.values()):,} examples, {failures} failing tests", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
