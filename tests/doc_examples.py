"""The documentation's runnable examples (docs/**/*.md and README.md): found in the Markdown, run
as a reader would run them, and what they print compared with the output shown beside them.
docs/contributing.md says how examples are written; tests/test_docs.py runs each one.

- A ``pql`` block is a script run like ``pql -c`` (in this process, through the command's own
  entry point); an ``output`` block right after it is what it prints.
- A ``console`` block's ``$ pql ...`` lines are run as shell commands with ``pql`` the command;
  the lines under each are what it prints.
- A ``pycon`` block is a doctest; a ``python`` block runs and must not raise.

Outputs are compared line by line and word by word, numbers within the error they show
(``compare``): a number shown ``± m`` may differ by the two margins, one without may differ only
past the digits shown.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The info strings whose blocks run; every other block is an illustration.
RUNNABLE = ("pql", "console", "pycon", "python")
#: Options every ``pql`` example runs with unless its first line gives ``--seed`` itself.
DEFAULT_OPTIONS = ("--seed", "1")
#: The first line of a ``pql`` block that gives its command-line options.
OPTIONS_LINE = re.compile(r"--\s*pql(?:\s+(?P<options>.*?))?\s*$")

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\s`]*)")


class ExampleFailed(AssertionError):
    """An example that printed something other than its shown output, or failed."""


@dataclass(frozen=True)
class Example:
    """One runnable block: its file (relative to the repository), the line of its opening fence,
    its kind (``pql``, ``console``, ``pycon``, ``python``), its text, and for a ``pql`` block the
    ``output`` block after it (None when there is none)."""

    path: str
    line: int
    kind: str
    code: str
    shown: str | None = None
    shown_line: int = 0

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class _Block:
    line: int
    info: str
    text: str
    end: int  # the index of the line after the closing fence


def _blocks(lines: list[str]) -> tuple[list[_Block], list[str]]:
    """The fenced blocks of a Markdown text (an indented fence's text dedented), and the problems
    found (a fence never closed)."""
    blocks: list[_Block] = []
    problems: list[str] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = len(m["indent"]), m["fence"], m["info"].lower()
        close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        if j == len(lines):
            problems.append(f"line {i + 1}: a ```{info} block is never closed")
        body = [line[indent:] if line[:indent].strip() == "" else line.lstrip() for line in lines[i + 1 : j]]
        blocks.append(_Block(i + 1, info, "\n".join(body) + ("\n" if body else ""), j + 1))
        i = j + 1
    return blocks, problems


def parse_examples(text: str, path: str) -> tuple[list[Example], list[str]]:
    """The runnable examples of a Markdown text, and its problems: an ``output`` block that no
    ``pql`` block precedes, a fence never closed."""
    lines = text.splitlines()
    blocks, problems = _blocks(lines)
    examples: list[Example] = []
    paired: set[int] = set()
    for k, block in enumerate(blocks):
        if block.info == "output":
            if k not in paired:
                problems.append(f"{path}:{block.line}: an output block must follow a pql block")
            continue
        if block.info not in RUNNABLE:
            continue
        shown, shown_line = None, 0
        if block.info == "pql" and k + 1 < len(blocks):
            after = blocks[k + 1]
            between = lines[block.end : after.line - 1]
            if after.info == "output" and all(not line.strip() for line in between):
                shown, shown_line = after.text, after.line
                paired.add(k + 1)
        examples.append(Example(path, block.line, block.info, block.text, shown, shown_line))
    return examples, problems


def doc_files() -> list[Path]:
    """Every page of the documentation and the README."""
    return [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]


def all_examples() -> tuple[list[Example], list[str]]:
    examples: list[Example] = []
    problems: list[str] = []
    for path in doc_files():
        found, wrong = parse_examples(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
        examples.extend(found)
        problems.extend(wrong)
    return examples, problems


# ---------------------------------------------------------------------------------------------
# Comparing what is shown with what is printed

#: A number: thousands grouped with commas or not, decimals, a percent sign, and a margin after
#: ``±``; not a digit inside a word (``Qs7h2d``, ``AA23``, ``positivePotential1``).
_NUMBER = re.compile(
    r"(?<![\w.])(?P<sign>[-+\u2212])?(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<frac>\d+))?(?P<pct>%)?"
    r"(?:[ \t]*±[ \t]*(?P<mint>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<mfrac>\d+))?%?)?(?!\w)"
)
#: A histogram's bar: its length follows the share beside it, so any bar matches any other.
_BAR = re.compile(r"[█▉▊▋▌▍▎▏]+")


@dataclass(frozen=True)
class Number:
    text: str
    value: float
    #: Half a unit of the last digit shown (0 for a whole number: counts are exact).
    rounding: float
    percent: bool
    margin: float

    def agrees_with(self, other: Number) -> bool:
        """Whether two printings of one quantity agree within the margins and roundings."""
        if self.percent != other.percent:
            return False
        # The coarser printing stands for an interval the finer one must fall in.
        slack = self.margin + other.margin + max(self.rounding, other.rounding)
        return abs(self.value - other.value) <= slack + 1e-9 * max(1.0, abs(self.value))


def _number(m: re.Match[str]) -> Number:
    sign = -1.0 if m["sign"] in ("-", "\u2212") else 1.0
    frac = m["frac"] or ""
    value = sign * float(m["int"].replace(",", "") + ("." + frac if frac else ""))
    margin = 0.0
    if m["mint"] is not None:
        margin = float(m["mint"].replace(",", "") + ("." + m["mfrac"] if m["mfrac"] else ""))
    rounding = 0.5 * 10.0 ** -len(frac) if frac else 0.0
    return Number(m[0], value, rounding, m["pct"] is not None, margin)


def tokens(line: str) -> list[str | Number]:
    """A line as its words (the text between numbers, spacing collapsed) and its numbers."""
    line = _BAR.sub("█", line)
    out: list[str | Number] = []
    at = 0
    for m in _NUMBER.finditer(line):
        out.append(" ".join(line[at : m.start()].split()))
        out.append(_number(m))
        at = m.end()
    out.append(" ".join(line[at:].split()))
    return out


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _line_difference(shown: str, got: str) -> str | None:
    want_tokens, got_tokens = tokens(shown), tokens(got)
    if len(want_tokens) != len(got_tokens):
        return "different words or numbers"
    for want, have in zip(want_tokens, got_tokens, strict=True):
        if isinstance(want, str) or isinstance(have, str):
            if want != have:
                return f"{want!r} differs from {have!r}"
        elif not want.agrees_with(have):
            return f"{want.text} differs from {have.text} by more than the margins and roundings"
    return None


def difference(shown: str, got: str) -> str | None:
    """Why the output ``got`` is not the ``shown`` one (None when it is): the same lines (blank
    lines at either end aside), the same words in each, and each number agreeing with its
    counterpart within the two margins (``0.821 ± 0.017``) and the rounding of the fewer digits
    shown (``0.82`` stands for 0.815 to 0.825; with as many digits, or whole numbers such as
    counts, they must be equal)."""
    want_lines, got_lines = _lines(shown), _lines(got)
    for n, (want, have) in enumerate(zip(want_lines, got_lines, strict=False), start=1):
        why = _line_difference(want, have)
        if why is not None:
            return f"line {n}: {why}\n  shown:   {want}\n  printed: {have}"
    if len(want_lines) != len(got_lines):
        more, fewer = ("printed", "shown") if len(got_lines) > len(want_lines) else ("shown", "printed")
        extra = (got_lines if more == "printed" else want_lines)[min(len(want_lines), len(got_lines))]
        return (
            f"{len(want_lines)} lines shown, {len(got_lines)} printed; "
            f"the first line {more} but not {fewer}: {extra}"
        )
    return None


class NumericChecker(doctest.OutputChecker):
    """doctest's comparison, and where it fails the numbers' (``difference``) over the output as
    one line (NORMALIZE_WHITESPACE), unless the expected output uses an ellipsis."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        if super().check_output(want, got, optionflags):
            return True
        if optionflags & doctest.ELLIPSIS and doctest.ELLIPSIS_MARKER in want:
            return False
        return difference(" ".join(want.split()), " ".join(got.split())) is None


# ---------------------------------------------------------------------------------------------
# Running examples


def pql_options(code: str) -> tuple[list[str], str]:
    """A ``pql`` block's command-line options (its first line's ``-- pql ...``, with ``--seed 1``
    unless it gives a seed) and the script without that line."""
    first, _, rest = code.partition("\n")
    m = OPTIONS_LINE.fullmatch(first.strip())
    options: list[str] = []
    if m:
        options = shlex.split(m["options"] or "")
        code = rest
    if not any(o == "--seed" or o.startswith("--seed=") for o in options):
        options = [*DEFAULT_OPTIONS, *options]
    return options, code


def run_pql(code: str, options: list[str]) -> tuple[int, str]:
    """Run a script as ``pql OPTIONS -c CODE`` would, in this process: its exit code and what it
    wrote to standard output and standard error, in the order written."""
    from pql_repl.cli.main import main  # noqa: PLC0415 (the command only where it is run)

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code_ = main([*options, "-c", code])
    return code_, out.getvalue()


def pql_command_folder(folder: Path) -> Path:
    """A folder holding a ``pql`` that runs the command of the package these tests import, with
    this Python (the ``pql`` on PATH may be another install's), to put first on PATH."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "pql"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pql_repl.cli "$@"\n')
    script.chmod(0o755)
    return folder


def console_commands(code: str) -> list[tuple[str, str]]:
    """A ``console`` block's commands (without ``$ ``) and the output shown under each."""
    commands: list[tuple[str, list[str]]] = []
    for line in code.splitlines():
        if line.startswith("$ ") or line == "$":
            commands.append((line[2:].strip(), []))
        elif commands:
            commands[-1][1].append(line)
    return [(command, "\n".join(shown)) for command, shown in commands]


def run_command(command: str, env: dict[str, str], cwd: Path) -> tuple[int, str]:
    """A shell command's exit code and its standard output and error together."""
    r = subprocess.run(
        ["/bin/sh", "-c", command],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
        check=False,
    )
    return r.returncode, r.stdout


def check_pql(example: Example) -> None:
    """Run a ``pql`` block; raise ``ExampleFailed`` when it fails or prints other than shown."""
    options, code = pql_options(example.code)
    exit_code, printed = run_pql(code, options)
    if example.shown is None:
        if exit_code != 0:
            raise ExampleFailed(f"{example.id}: exit code {exit_code}\n{printed}")
        return
    why = difference(example.shown, printed)
    if why is not None:
        raise ExampleFailed(
            f"{example.id}: the output shown at line {example.shown_line} is not what "
            f"`pql {shlex.join(options)} -c ...` prints: {why}\n--- printed:\n{printed}"
        )


def check_console(example: Example, env: dict[str, str], cwd: Path) -> None:
    """Run a ``console`` block's ``$ pql`` commands in turn; each prints what is shown under it
    (a command with nothing shown must succeed)."""
    for command, shown in console_commands(example.code):
        words = shlex.split(command)
        if not words or words[0] != "pql":
            continue
        exit_code, printed = run_command(command, env, cwd)
        if not shown.strip():
            if exit_code != 0:
                raise ExampleFailed(f"{example.id}: `{command}` exited {exit_code}\n{printed}")
            continue
        why = difference(shown, printed)
        if why is not None:
            raise ExampleFailed(f"{example.id}: `{command}`: {why}\n--- printed:\n{printed}")


def check_pycon(example: Example) -> None:
    """Run a ``pycon`` block as a doctest (ELLIPSIS, NORMALIZE_WHITESPACE, numbers compared)."""
    test = doctest.DocTestParser().get_doctest(example.code, {}, example.id, example.path, example.line)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    runner = doctest.DocTestRunner(checker=NumericChecker(), optionflags=flags, verbose=False)
    report = io.StringIO()
    result = runner.run(test, out=report.write, clear_globs=True)
    if result.failed:
        raise ExampleFailed(report.getvalue())


def check_python(example: Example) -> None:
    """Run a ``python`` block (its lines numbered as in the file); it must not raise."""
    code = compile("\n" * example.line + example.code, example.path, "exec")
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            exec(code, {"__name__": "__doc_example__"})
        except Exception:
            raise ExampleFailed(f"{example.id}: raised\n{traceback.format_exc()}") from None


def isolated_env(folder: Path) -> dict[str, str]:
    """Environment variables giving the examples an empty home, config and data folder of their
    own under ``folder`` (never the user's named ranges, history or config)."""
    home = folder / "home"
    home.mkdir(parents=True, exist_ok=True)
    return {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "PQL_CONFIG": str(home / ".config" / "pql" / "config.toml"),
        "PQL_DATA_DIR": str(home / ".local" / "share" / "pql"),
    }


def command_env(folder: Path) -> dict[str, str]:
    """The environment a console example's commands run in: isolated, and ``pql`` the command
    of the package these tests run (first on PATH)."""
    env = {**os.environ, **isolated_env(folder)}
    env["PATH"] = f"{pql_command_folder(folder / 'bin')}{os.pathsep}{env.get('PATH', '')}"
    # The package these tests import (a checkout's, or an installed one), found first.
    import pql_repl  # noqa: PLC0415

    package_root = str(Path(pql_repl.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    return env
