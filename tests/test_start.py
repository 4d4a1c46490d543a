"""How the ``pql`` command starts (issue 15): running statements from ``-c``, a script or a pipe
loads nothing interactive (Textual, prompt_toolkit, pygments) and nothing a table-format run can
do without, so that it starts fast. An import check, not a timing: ``benchmarks/bench_start.py``
measures the time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

QUERY = "select avg(riverEquity(hero)) from hero='AsAh', villain='KsKd', board='2c3d4h5s9c'"

#: Loaded by the interactive front ends only, or by what a plain run does not use (JSON and CSV
#: output, a config file, the dataclasses module and the inspect module it loads, named ranges).
NOT_ON_THE_RUN_PATH = [
    "textual",
    "prompt_toolkit",
    "pygments",
    "rich",
    "dataclasses",
    "inspect",
    "json",
    "csv",
    "tomllib",
    "difflib",
    "platformdirs",
    "pql_repl.repl",
    "pql_repl.tui",
    "pql_repl.session.completion",
    "pql_repl.session.lexer",
    "pql_repl.api.evaluation",
    # Named ranges are read only for a statement that uses a `$name` (issue 41).
    "pql_repl.files.named_ranges",
    # `pql serve` (the web extra) loads only for itself (issue 40).
    "pql_repl.web",
    "pql_repl.session.served",
    "textual_serve",
    "aiohttp",
]

#: Runs the command as its script does, then prints the names of the modules loaded.
RUN_AND_LIST = (
    "import sys; sys.argv = ['pql', *sys.argv[1:]]; from pql_repl.start import main; rc = main(); "
    "print('MODULES', *sorted(sys.modules), file=sys.stderr); sys.exit(rc)"
)


def loaded_modules(args: list[str], stdin: str, tmp_path: Path) -> set[str]:
    env = {**os.environ, "PQL_CONFIG": str(tmp_path / "none.toml"), "PQL_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", RUN_AND_LIST, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "1 deal, exact" in done.stdout or "1 deals, exact" in done.stdout  # the one deal it has
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    return set(line.split()[1:])


def interpreter_modules() -> set[str]:
    """What the interpreter loads by itself here (site packages may load some of the above)."""
    out = subprocess.run(
        [sys.executable, "-c", "import sys; print(*sys.modules)"], capture_output=True, text=True, check=True
    )
    return set(out.stdout.split())


#: Standard modules a plain run does without: each costs the start a few milliseconds (their
#: names are kept in annotations, loaded where a file is written, or read without them).
HEAVY_STANDARD_MODULES = ["typing", "pathlib", "tempfile"]

#: ``pql -c TEXT`` alone is read without argparse, and so without the re module.
NOT_ON_THE_BARE_COMMAND_PATH = ["argparse", "re"]


@pytest.mark.parametrize("how", ["-c", "script", "pipe"])
def test_running_statements_loads_nothing_interactive(how: str, tmp_path: Path) -> None:
    script = tmp_path / "one.pql"
    script.write_text(QUERY + ";\n")
    args, stdin = {"-c": (["-c", QUERY], ""), "script": ([str(script)], ""), "pipe": ([], QUERY + "\n")}[how]
    loaded = loaded_modules(args, stdin, tmp_path)
    assert "pql_repl.cli.main" in loaded  # the check looks at a real run
    already = interpreter_modules()
    avoided = NOT_ON_THE_RUN_PATH + HEAVY_STANDARD_MODULES
    if how == "-c":
        avoided += NOT_ON_THE_BARE_COMMAND_PATH
    unwanted = {m for m in loaded - already if any(m == n or m.startswith(n + ".") for n in avoided)}
    assert not unwanted


def test_an_option_takes_the_argparse_path_with_the_same_answer(tmp_path: Path) -> None:
    """``-c`` alone is read without argparse; any option hands the whole line to argparse, and
    the answer is the same."""
    env = {**os.environ, "PQL_CONFIG": str(tmp_path / "none.toml"), "PQL_DATA_DIR": str(tmp_path)}

    def pql(*args: str) -> str:
        command = [sys.executable, "-m", "pql_repl.cli", *args]
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    bare = pql("-c", QUERY, "-c", QUERY)
    assert bare.count(", exact\n") == 2
    assert pql("-c", QUERY, "-c", QUERY, "--format", "table") == bare
    assert pql("--command", QUERY, "-c", QUERY) == bare
