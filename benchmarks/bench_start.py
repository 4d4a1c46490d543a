"""How long the ``pql`` command takes from process start to exit on a one-deal query (issue 15:
the goal is 25 ms), beside the Python interpreter alone and openpql's ``opql`` binary.

Every command is run as a new process, all of them in turn in each round (A, B, C, A, B, C,
...), so a machine whose load drifts slows them alike; the figures are medians. Wall time is
what a user waits; CPU time (user + system of the child) is less disturbed by other processes
on a shared machine but does not see work done on a second core in parallel. ``--instructions``
adds the instructions each command executes (valgrind), which do not depend on the load at all.

The package's bytecode is compiled first (``compileall``), as an installed package has it:
without it every run compiles the modules anew (this sandbox sets ``PYTHONDONTWRITEBYTECODE``).
``--also DIR`` times another build in turn: DIR is a ``pql_repl`` package directory with its
extension built (another worktree's), copied to a temporary directory, compiled there and
started as its ``pql`` script would start it.

    python benchmarks/bench_start.py [--rounds 40] [--also /path/to/pql_repl] [--instructions]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUERY = "select avg(riverEquity(hero)) from hero='AsAh', villain='KsKd', board='2c3d4h5s9c'"


def pql_executable() -> str:
    here = Path(sys.executable).with_name("pql")
    found = str(here) if here.exists() else shutil.which("pql")
    if found is None:
        sys.exit("no pql command found: pip install -e . first")
    return found


def launcher(package: Path) -> list[str]:
    """A command that starts the ``pql`` command of the package at ``package`` (its parent first on
    the path), with the entry point its ``pql`` script names."""
    entry = "start" if (package / "start.py").exists() else "cli"
    code = (
        f"import sys; sys.path.insert(0, {str(package.parent)!r}); "
        f"from pql_repl.{entry} import main; sys.exit(main())"
    )
    return [sys.executable, "-c", code]


def compile_package(package: Path) -> None:
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)


def run_once(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {done.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def instructions(cmd: list[str], env: dict[str, str]) -> int | None:
    if shutil.which("valgrind") is None:
        return None
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *cmd],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    m = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    return int(m[1].replace(",", "")) if m else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--also", action="append", default=[], metavar="PQL", help="another pql to time")
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind)")
    args = parser.parse_args()

    env = {**os.environ, "PQL_CONFIG": os.path.join(tempfile.gettempdir(), "pql-bench-no-config.toml")}
    commands: list[tuple[str, list[str]]] = [
        ("python -c pass (the interpreter alone)", [sys.executable, "-c", "pass"]),
        ("python -S -c pass (no site packages)", [sys.executable, "-S", "-c", "pass"]),
    ]
    pql = pql_executable()
    compile_package(Path(__file__).resolve().parent.parent / "pql_repl")
    commands.append(("pql -c, one deal (this build)", [pql, "-c", QUERY]))
    copies = []
    for other in args.also:
        copy = Path(tempfile.mkdtemp(prefix="pql-bench-")) / "pql_repl"
        shutil.copytree(other, copy, ignore=shutil.ignore_patterns("__pycache__"))
        compile_package(copy)
        copies.append(copy.parent)
        commands.append((f"pql -c, one deal ({other})", [*launcher(copy), "-c", QUERY]))
    opql = shutil.which("opql")
    if opql:
        commands.append(("opql (openpql), one deal", [opql, "--run", QUERY, "--mt", "1", "--threads", "1"]))

    for _, cmd in commands:  # warm-up: files in the page cache
        run_once(cmd, env)
    walls: list[list[float]] = [[] for _ in commands]
    cpus: list[list[float]] = [[] for _ in commands]
    for _ in range(args.rounds):
        for i, (_, cmd) in enumerate(commands):
            wall, cpu = run_once(cmd, env)
            walls[i].append(wall)
            cpus[i].append(cpu)

    print(f"load average {os.getloadavg()[0]:.2f}, {args.rounds} rounds, {os.cpu_count()} cores")
    print(f"query: {QUERY}")
    base = statistics.median(walls[0])
    width = max(len(label) for label, _ in commands)
    for i, (label, cmd) in enumerate(commands):
        wall, cpu = statistics.median(walls[i]), statistics.median(cpus[i])
        line = f"{label:<{width}}  wall {1000 * wall:7.1f} ms  cpu {1000 * cpu:7.1f} ms"
        if i >= 2:
            line += f"  (+{1000 * (wall - base):.1f} ms over the interpreter)"
        if args.instructions:
            n = instructions(cmd, env)
            line += f"  {n / 1e6:7.1f} M instructions" if n else ""
        print(line)
    for copy in copies:
        shutil.rmtree(copy, ignore_errors=True)


if __name__ == "__main__":
    main()
