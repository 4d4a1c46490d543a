"""Writes docs/reference/functions.md from the function catalogue (``pql_repl.functions()``): every
built-in with its signature, the games it works in, its street default, its one-line definition,
and its example with what the example prints, run here with ``--seed 1``.

    python tests/function_reference.py        # or: make reference

tests/test_docs.py checks that the page is what this script writes from today's catalogue (the
examples' outputs taken from the page) and, like every page's examples, that each example still
prints its output."""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from doc_examples import ROOT, isolated_env, parse_examples, pql_options, run_pql

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pql_repl.api.catalogue import FunctionInfo

PAGE = ROOT / "docs" / "reference" / "functions.md"
#: The trials a Monte Carlo example runs with: enough for two or three digits, quick to check.
TRIALS = 10_000
#: Examples whose function samples inside each deal, at a cost of thousands of showdowns a deal.
FEWER_TRIALS = {
    "HvREquity": 2_000,
    "minHvREquity": 1_000,
    "HvPerceivedRangeEquity": 2_000,
    "minHvPerceivedRangeEquity": 2_000,
}

#: Every game, in the catalogue's order.
ALL_GAMES = (
    "holdem",
    "shortdeck",
    "shortdeck_triton",
    "omahahi",
    "omaha8",
    "omahahi5",
    "omaha85",
    "studhi",
    "stud8",
    "razz",
)
#: Words for the sets of games functions apply to.
GAME_SETS = {
    ALL_GAMES: "every game",
    ALL_GAMES[:-1]: "every game but razz",
    ALL_GAMES[:7]: "board games",
    ALL_GAMES[:3]: "hold'em and short deck",
    ("omaha8", "omaha85", "stud8", "razz"): "games with a low",
    ("omaha8", "omaha85"): "Omaha hi/lo",
    ALL_GAMES[7:]: "stud games",
    ("holdem", "omahahi", "omaha8", "omahahi5", "omaha85", "studhi", "stud8"): "52-card games with a hi",
}

HEADER = """\
# Function reference

<!-- Written by tests/function_reference.py from the function catalogue: run `make reference`
after changing the catalogue, never edit by hand (tests/test_docs.py checks it). -->

Every built-in function of PQL, in the order of the catalogue that the checker, completion and
`.help` read. Each entry gives the function's signature (its arguments' types and the type it
returns), the games it works in, the street it stands for when its last argument is left out,
what it means, and an example with what the example prints. Examples run with `--seed 1`; an
exact one prints the same with any seed, and a Monte Carlo one says the trials it ran with on its
first line, so its margins are wider than those of a default run (600,000 trials).

`.functions PATTERN` lists the functions whose names match, with their definitions, and
`pql_repl.functions()` gives the whole catalogue in Python. The types are those of
[statements]({statements}); the [analysis definitions]({analysis}) say more
about outs, hand strength and potentials.

| function | returns | games |
| --- | --- | --- |
"""


@dataclass(frozen=True)
class Run:
    """An example as the page shows it: its command-line options and what it printed."""

    options: list[str]
    output: str


def games_text(games: list[str]) -> str:
    return GAME_SETS.get(tuple(games), ", ".join(games))


def street_text(f: FunctionInfo) -> str | None:
    """What the entry says of the function's street argument; None when it has none."""
    if not any(kind == "street" for _, kind in f.args):
        return None
    if f.street_default is None:
        return "must be written"
    if f.street_default == "river|seventh":
        return "may be left out: `river` (`seventh` in stud games)"
    return f"may be left out: `{f.street_default}`"


def _games_line(games: list[str]) -> str:
    names = ", ".join(f"`{g}`" for g in games)
    label = GAME_SETS.get(tuple(games))
    if label == "every game":
        return label
    return f"{label}: {names}" if label else names


def entry(f: FunctionInfo, run: Run | None) -> str:
    lines = [
        f"## {f.name}",
        "",
        f"`{f.signature}`",
        "",
        f.doc,
        "",
        f"- Games: {_games_line(f.games)}",
    ]
    street = street_text(f)
    if street is not None:
        lines.append(f"- Street: {street}")
    lines.append("- From: " + ("the original PQL" if f.origin == "original" else "pql's extensions"))
    lines += ["", "```pql"]
    if run is None:
        lines += [f.example, "```", "", "(not run yet: `make reference`)"]
        return "\n".join(lines) + "\n"
    extra = [o for o in run.options if o not in ("--seed", "1")]
    if extra:
        lines.append("-- pql " + " ".join(extra))
    lines += [f.example, "```", "", "```output", *run.output.rstrip("\n").splitlines(), "```"]
    return "\n".join(lines) + "\n"


def link(name: str) -> str:
    """A link from the page to the file ``name`` of the repository."""
    return os.path.relpath(ROOT / name, PAGE.parent)


def render(functions: list[FunctionInfo], runs: Mapping[str, Run]) -> str:
    """The page: an index, then one entry per function with its example's run."""
    header = HEADER.format(statements=link("docs/language/statements.md"), analysis=link("docs/analysis.md"))
    index = [f"| [{f.name}](#{f.name.lower()}) | {f.returns} | {games_text(f.games)} |" for f in functions]
    entries = [entry(f, runs.get(f.name)) for f in functions]
    return header + "\n".join(index) + "\n\n" + "\n".join(entries)


def runs_on_page(text: str) -> dict[str, Run]:
    """Each entry's example as the page shows it, by function name."""
    runs: dict[str, Run] = {}
    for section in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        name = section.split("\n", 1)[0].strip()
        examples, _ = parse_examples(section, name)
        if examples and examples[0].kind == "pql" and examples[0].shown is not None:
            options, _ = pql_options(examples[0].code)
            runs[name] = Run(options, examples[0].shown)
    return runs


def run_example(f: FunctionInfo) -> Run:
    """Run a function's example: exact when it can be (then shown without options), else Monte
    Carlo with ``TRIALS`` (fewer for the costliest)."""
    options = ["--seed", "1", "--trials", str(FEWER_TRIALS.get(f.name, TRIALS))]
    code, output = run_pql(f.example, options)
    if code != 0:
        raise SystemExit(f"{f.name}: its example failed:\n{output}")
    last = output.rstrip().splitlines()[-1]
    if re.search(r"\bexact\b", last):
        options = ["--seed", "1"]  # the same output at the default trials
    return Run(options, output)


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        os.environ.update(isolated_env(Path(folder)))
        import pql_repl  # noqa: PLC0415 (found in the checkout when it is not installed)

        functions = pql_repl.functions()
        runs = {}
        for f in functions:
            print(f"{f.name} ...", file=sys.stderr)
            runs[f.name] = run_example(f)
    PAGE.write_text(render(functions, runs), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}: {len(functions)} functions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.path.append(str(ROOT))  # the checkout's package, where none is installed
    sys.exit(main())
