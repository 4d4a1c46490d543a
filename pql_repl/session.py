"""What the ``pql`` command and both REPLs share: settings, dot-commands and statement splitting.

A front end keeps one ``Session``. Lines that start with ``.`` go to ``Session.handle``; text
goes through ``split_statements`` into ``Statement`` and ``DotCommand`` items; each statement is
checked with ``Session.prepare`` and run with ``query.stream(**session.run_options())``::

    session = Session.from_config()
    for item in split_statements(text):
        if isinstance(item, DotCommand):
            result = session.handle(item.text)   # raises SessionError
        else:
            query = session.prepare(item)       # raises PqlError, positions relative to `text`
            for snapshot in query.stream(**session.run_options()): ...

Nothing here imports a terminal library, so scripts start fast.
"""

from __future__ import annotations

import importlib

from pql_repl import named_ranges
from pql_repl.api import (
    DEFAULT_TRIALS,
    FunctionInfo,
    Query,
    functions,
    keywords,
    parse_range,
    range_name_error,
)
from pql_repl.config import load_config
from pql_repl.errors import PqlError
from pql_repl.files import FileProblem, decode_text, read_bounded
from pql_repl.limits import HISTORY_SIZE, MAX_READ_DEPTH, SCRIPT_MAX_BYTES
from pql_repl.output import FORMATS
from pql_repl.records import field, fields, record

# Loaded where used: `pql -c` and scripts start on every run, and re, pathlib and typing would
# cost them a fifth of their start.
TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

EXACT_MODES = ("auto", "on", "off")
EDITING_MODES = ("emacs", "vi")


class SessionError(Exception):
    """A dot-command or setting that cannot be applied; ``hint`` suggests the fix."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message if hint is None else f"{message}\n  hint: {hint}")
        self.message = message
        self.hint = hint


# ---------------------------------------------------------------------------------------------
# Values of settings, shared with the command-line options so both accept the same spellings.


def _quoted(text: str, limit: int = 40) -> str:
    """``text`` quoted in a message on one line: cut to ``limit`` characters, what cannot be
    printed (a newline, a control character) escaped."""
    cut = text if len(text) <= limit else text[:limit] + "…"
    return "'" + "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut) + "'"


#: The largest count (trials, threads) the engine takes: it counts in 64 bits.
MAX_COUNT = 2**64 - 1


def parse_count(text: str) -> int:
    """A positive whole number up to ``MAX_COUNT``: ``600000``, ``600_000``, ``600,000``, ``600k``,
    ``1m``, ``1e6``."""
    t = text.strip().lower().replace("_", "").replace(",", "")
    scale = 1
    if t.endswith(("k", "m")):
        scale = 1_000 if t[-1] == "k" else 1_000_000
        t = t[:-1]
    try:
        value = float(t) * scale if ("e" in t or "." in t) else int(t) * scale
    except ValueError:
        raise SessionError(f"{_quoted(text)} is not a number", "write it like 600000, 600k or 1e6") from None
    # Out of range is checked before int(value): 1e400 is an infinite float, which int() refuses.
    if value > MAX_COUNT:
        raise SessionError(f"{_quoted(text)} is more than {MAX_COUNT:,}")
    if value < 1 or value != int(value):
        raise SessionError(f"{_quoted(text)} must be a whole number of at least 1")
    return int(value)


def parse_seed(text: str) -> int | None:
    """A seed (0 ≤ seed < 2**64), or ``off``/``none``/``random`` for a fresh one each run."""
    t = text.strip().lower()
    if t in ("off", "none", "random"):
        return None
    try:
        value = int(t.replace("_", ""))
    except ValueError:
        raise SessionError(
            f"{_quoted(text)} is not a seed", "a whole number, or 'off' for a fresh seed"
        ) from None
    if not 0 <= value <= MAX_COUNT:
        raise SessionError(f"seed {value} is out of range", f"use 0 to {MAX_COUNT}")
    return value


def parse_seconds(text: str) -> float | None:
    """A positive number of seconds (``2``, ``1.5``, ``2s``, ``500ms``), or ``off``/``none`` for
    no limit. Zero is refused, as by the Python API: it is neither a limit nor a way to say none."""
    t = text.strip().lower()
    if t in ("off", "none"):
        return None
    scale = 1.0
    if t.endswith("ms"):
        t, scale = t[:-2], 0.001
    elif t.endswith("s"):
        t = t[:-1]
    try:
        value = float(t) * scale
    except ValueError:
        raise SessionError(
            f"{_quoted(text)} is not a number of seconds", "like 2, 0.5 or 500ms; 'off' for none"
        ) from None
    if not value > 0 or value == float("inf"):
        raise SessionError(f"{_quoted(text)} must be a positive number of seconds", "'off' for no limit")
    return value


def parse_precision(text: str) -> float | None:
    """A positive standard-error target (``0.001``), or ``off`` for none."""
    t = text.strip().lower()
    if t in ("off", "none", "0"):
        return None
    try:
        value = float(t)
    except ValueError:
        raise SessionError(
            f"{_quoted(text)} is not a number", "a standard error such as 0.001, or 'off'"
        ) from None
    if not 0 < value < 1:
        raise SessionError(f"precision {text} must be between 0 and 1", "such as 0.001")
    return value


def parse_output(text: str) -> str | None:
    """A file to write results to, in a directory that exists; None for ``stdout`` (or ``-``).
    A path that can never be written is refused here, when it is given, not at the first result."""
    if text.strip() in ("", "stdout", "-"):
        return None
    from pathlib import Path  # noqa: PLC0415 (see the imports)

    path = Path(text.strip()).expanduser()
    if path.is_dir():
        raise SessionError(f"cannot write to {_quoted(text)}: it is a directory", "name a file inside it")
    if not path.parent.is_dir():
        raise SessionError(
            f"cannot write to {_quoted(text)}: there is no directory {_quoted(str(path.parent))}"
        )
    return str(path)


def parse_choice(text: str, choices: tuple[str, ...], what: str) -> str:
    t = text.strip().lower()
    if t not in choices:
        raise SessionError(f"unknown {what} {_quoted(text)}", "one of " + ", ".join(choices))
    return t


def parse_on_off(text: str) -> bool:
    t = text.strip().lower()
    if t in ("on", "true", "yes", "1"):
        return True
    if t in ("off", "false", "no", "0"):
        return False
    raise SessionError(f"{_quoted(text)} is not on or off")


def sweep_clause(text: str) -> bool:
    """Whether statement ``text`` has a sweep clause (``pql_repl.sweeps``, loaded only then)."""
    return bool(importlib.import_module("pql_repl.sweeps").is_sweep(text))


def read_script(path: Path | str, depth: int = 0) -> str:
    """The text of the script at ``path``, asked for by a script ``depth`` `.read`s deep (0: a
    script given on the command line or typed in a REPL). Every front end reads scripts here, so
    all of them stop a script that reads itself and report an unreadable file the same way;
    raises ``SessionError``."""
    if depth >= MAX_READ_DEPTH:
        raise SessionError(f".read nested more than {MAX_READ_DEPTH} deep", "does a script read itself?")
    try:
        return decode_script(read_bounded(path, SCRIPT_MAX_BYTES), str(path))
    except FileProblem as e:
        raise SessionError(f"cannot read '{path}': {e}") from None
    except OSError as e:
        raise SessionError(f"cannot read '{path}': {e.strerror or e}") from None


def decode_script(data: bytes, name: str) -> str:
    """The text of a script's bytes; ``SessionError`` naming ``name`` and the first byte that
    is not UTF-8 (by line and column)."""
    try:
        return decode_text(data)
    except FileProblem as e:
        raise SessionError(f"cannot read '{name}': {e}", "save it as UTF-8") from None


# ---------------------------------------------------------------------------------------------
# The simulate statement's words (for .describe simulate and the F1 help)

#: What each from key of a ``simulate`` statement means, beside game, board, dead and players.
SIMULATE_KEY_DOCS = {
    "pot": "chips in the pot at the decision, every bet so far included (required)",
    "tocall": "chips the hero must put in to call; 0 when nothing is to call (required)",
    "bet": "the small bet; the turn and river bet twice it (required)",
    "raises": "raises already made this round (0 to 3: four bets a round)",
    "stakes": "'limit' (fixed limit), the mode simulate plays",
    "to_act": "players yet to act this round after the hero, in order: 'v2, v3'",
    "folded": "players out of the hand (still dealt cards): 'v2'",
    "history": "observed actions that reweight ranges: 'villain:raise@flop, villain:call@turn'",
    "call_threshold": "EHS' mid fold-call band (0.50); per player: villain.call_threshold",
    "raise_threshold": "EHS' mid call-raise band (0.85); per player: villain.raise_threshold",
}

SIMULATE_SUMMARY = (
    "simulate ACTIONS from hero='AhKh', villain='QQ+@90, AK@80', board='Kd7c2h', pot=10, tocall=2, bet=2\n"
    "  the EV in chips of each listed action (fold, check, call, bet, raise) from the decision, by\n"
    "  playing the hand out (fixed limit, to the river) against opponents drawn from their\n"
    "  weighted ranges, every later action drawn from the player's probability triple; then the\n"
    "  chosen action (ties to the more aggressive) and whether the run stopped on an obvious move.\n"
    "  10,000 trials unless .trials says otherwise; .observe PLAYER ACTION on STREET reweights ranges."
)


def simulate_help() -> str:
    """``.describe simulate``: the statement and its keys."""
    width = max(len(k) for k in SIMULATE_KEY_DOCS)
    keys = [f"  {k:<{width}}  {doc}" for k, doc in SIMULATE_KEY_DOCS.items()]
    return "\n".join([SIMULATE_SUMMARY, "keys:", *keys])


def format_weight(weight: float) -> str:
    """A weight with three significant digits (``0.18``, ``90``)."""
    return f"{weight:.3g}"


def vocabulary_games() -> frozenset[str]:
    """Every game name and alias, lower case (the engine's)."""
    return frozenset(g.lower() for g in keywords().get("games", []))


# ---------------------------------------------------------------------------------------------
# Settings


@record
class Settings:
    """How statements run and how results are written. ``output`` None means stdout."""

    trials: int = DEFAULT_TRIALS
    seed: int | None = None
    exact: str = "auto"
    threads: int | None = None
    format: str = "table"
    output: str | None = None
    timer: bool = False
    time_limit: float | None = None
    precision: float | None = None
    theme: str | None = None
    #: Keys of ``pql --plain``: emacs (the default) or vi.
    editing_mode: str = "emacs"
    #: Entries the REPLs' history keeps (older ones are dropped when it is loaded).
    history_size: int = HISTORY_SIZE
    #: A Dask scheduler's address (``tcp://host:8786``): sweeps run their rows there.
    cluster: str | None = None

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Settings:
        """Settings with the config file's values (as ``load_config`` returns them) applied."""
        s = cls()
        for key, value in config.items():
            s.apply(key, value)
        return s

    def apply(self, key: str, value: Any) -> None:
        """Set ``key`` from a typed value or the text a user wrote; raises ``SessionError``."""
        if isinstance(value, bool) and key == "exact":
            value = "on" if value else "off"
        text = str(value)
        match key:
            case "trials":
                self.trials = parse_count(text)
            case "seed":
                self.seed = parse_seed(text)
            case "exact":
                self.exact = parse_choice(text, EXACT_MODES, "exact mode")
            case "threads":
                self.threads = None if text.lower() in ("auto", "all") else parse_count(text)
            case "format":
                self.format = parse_choice(
                    "markdown" if text.strip().lower() == "md" else text, FORMATS, "format"
                )
            case "output":
                self.output = parse_output(text)
            case "timer":
                self.timer = value if isinstance(value, bool) else parse_on_off(text)
            case "time_limit":
                self.time_limit = parse_seconds(text)
            case "precision":
                self.precision = parse_precision(text)
            case "theme":
                self.theme = text
            case "editing_mode":
                self.editing_mode = parse_choice(text, EDITING_MODES, "editing mode")
            case "history_size":
                self.history_size = parse_count(text)
            case "cluster":
                self.cluster = parse_cluster(text)
            case _:
                raise SessionError(f"unknown setting '{key}'")

    def exact_flag(self) -> bool | None:
        """``exact`` as the API takes it: True, False, or None to let the planner decide."""
        return {"on": True, "off": False}.get(self.exact)

    def shown(self, key: str) -> str:
        """One setting's value as a user would write it."""
        match key:
            case "seed":
                return "off" if self.seed is None else str(self.seed)
            case "threads":
                return "all cores" if self.threads is None else str(self.threads)
            case "output":
                return self.output or "stdout"
            case "timer":
                return "on" if self.timer else "off"
            case "time_limit":
                return "off" if self.time_limit is None else f"{self.time_limit:g} s"
            case "precision":
                return "off" if self.precision is None else f"{self.precision:g}"
            case "theme":
                return self.theme or "default"
            case "cluster":
                return self.cluster or "off (sweeps run here)"
            case _:
                return str(getattr(self, key))

    def describe(self) -> str:
        """One line per setting, for ``.show``."""
        return "\n".join(f"{name:<11} {self.shown(name)}" for name in fields(self))


# ---------------------------------------------------------------------------------------------
# Splitting text into statements and dot-commands


@record(frozen=True)
class Statement:
    """One PQL statement of a text, without its ``;``. ``line``/``col`` (1-based) and ``offset``
    (characters) locate its first character in the text it was split from."""

    text: str
    line: int
    col: int
    offset: int


@record(frozen=True)
class DotCommand:
    """A line that starts with ``.``, for ``Session.handle``; ``line`` is 1-based."""

    text: str
    line: int


def _dot_command_at(text: str, i: int) -> int | None:
    """Where the dot-command on the line starting at ``i`` begins (its ``.``): the line's first
    characters other than spaces and tabs are ``.`` and an ASCII letter or ``_``. None when the
    line holds no dot-command."""
    n = len(text)
    while i < n and text[i] in " \t":
        i += 1
    if i + 1 >= n or text[i] != ".":
        return None
    first = text[i + 1]
    return i if first == "_" or (first.isascii() and first.isalpha()) else None


def _scan(text: str) -> tuple[list[Statement | DotCommand], bool]:
    """The items of ``text`` and whether the last statement is still open (no ``;`` or blank line
    after it yet, or an unterminated string or comment)."""
    items: list[Statement | DotCommand] = []
    start: int | None = None  # where the statement being read begins
    has_code = False  # it holds more than comments
    i, n = 0, len(text)
    line_start = 0
    # Line and column are counted on from the last position asked for (positions only grow),
    # so a long script costs one pass, not one pass per statement.
    counted = [0, 1, 0]  # position, its line, where that line starts

    def position(at: int) -> tuple[int, int]:
        pos, line, starts = counted
        breaks = text.count("\n", pos, at)
        if breaks:
            line += breaks
            starts = text.rfind("\n", pos, at) + 1
        counted[:] = [at, line, starts]
        return line, at - starts + 1

    def close(end: int) -> None:
        nonlocal start, has_code
        if start is not None and has_code:
            body = text[start:end].rstrip()
            line, col = position(start)
            items.append(Statement(body, line, col, start))
        start, has_code = None, False

    while i < n:
        c = text[i]
        if i == line_start and (dot := _dot_command_at(text, i)) is not None:
            # A dot-command is never PQL (nothing in PQL starts with `.` and a letter), so it
            # also ends a statement someone forgot to terminate.
            close(i)
            end = text.find("\n", i)
            end = n if end < 0 else end
            items.append(DotCommand(text[dot:end].strip(), position(i)[0]))
            i = line_start = end + 1
            continue
        if c == "\n":
            if start is not None and text[line_start:i].strip() == "":
                close(i)  # a blank line ends a statement
            line_start = i + 1
            i += 1
            continue
        if c.isspace():
            i += 1
            continue
        if start is None:
            start = i
        if c in "'\"":
            # Strings have no escapes (a double quote reads like a single one): scan to the
            # next quote of the same kind.
            end = text.find(c, i + 1)
            if end < 0:
                has_code = True
                break
            line_start = max(line_start, text.rfind("\n", i, end) + 1)
            i, has_code = end + 1, True
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                has_code = True  # let the parser report the unterminated comment
                break
            line_start = max(line_start, text.rfind("\n", i, end) + 1)
            i = end + 2
            continue
        if text.startswith("--", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c == ";":
            close(i)
            i += 1
            continue
        has_code = True
        i += 1
    open_tail = start is not None and has_code
    close(n)
    return items, open_tail


def split_statements(text: str) -> list[Statement | DotCommand]:
    """The statements and dot-commands of ``text`` in order. A statement ends with ``;``, a blank
    line, a dot-command line or the end of the text; ``;`` and blank lines inside strings and
    ``/* */`` comments do not count; parts that hold only comments are dropped."""
    return _scan(text)[0]


def is_complete(text: str) -> bool:
    """Whether ``text`` can be run as it is: every statement is closed by ``;`` or a blank line
    (so a REPL knows whether Enter runs the input or starts a new line). Dot-commands and empty
    text are complete."""
    return not _scan(text)[1]


# ---------------------------------------------------------------------------------------------
# Dot-commands


@record(frozen=True)
class CommandResult:
    """What a dot-command did. ``output`` is what the user asked to see (stdout in scripts);
    ``note`` confirms a change (interactive front ends show it, scripts stay quiet); ``read`` is
    a script the front end should run next; ``changed`` names the settings that changed."""

    output: str = ""
    note: str = ""
    quit: bool = False
    read: Path | None = None
    changed: frozenset[str] = field(default_factory=frozenset)
    #: `.explore PLAYER`: the player whose range the full-screen app should open in its explorer.
    explore: str | None = None
    #: `.odds HAND [BOARD] [N | vs RANGE …]`: what the front end should compute and show.
    odds: OddsRequest | None = None
    #: `.plot equity PLAYER [STREET]`: (player, street) for the full-screen app's chart.
    plot: tuple[str, str] | None = None


@record(frozen=True)
class OddsRequest:
    """A hold'em hand (or range), a board, and the opponents: a number of random hands or
    their ranges (`.odds`)."""

    hand: str
    board: str
    opponents: int | tuple[str, ...]


@record(frozen=True)
class _Command:
    usage: str
    summary: str
    run: Callable[[Session, str], CommandResult]


class Session:
    """The settings of one pql session and the dot-commands that change or query them."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        #: The colour themes the front end offers, for `.theme` to check (None: no check, in
        #: front ends without themes).
        self.themes: tuple[str, ...] | None = None
        self._functions: list[FunctionInfo] | None = None
        #: Actions seen at the table (``.observe``): (player, action, street), reweighting the
        #: ranges of the simulate statements that seat the player.
        self.observations: list[tuple[str, str, str]] = []
        #: The last simulate statement checked, for ``.range PLAYER``.
        self.last_simulate: Query | None = None

    @classmethod
    def from_config(cls, path: Path | None = None) -> Session:
        """A session with the defaults of the user's config file; raises ``ConfigError``."""
        return cls(Settings.from_config(load_config(path)))

    # -- running statements ------------------------------------------------------------------

    def run_options(self) -> dict[str, Any]:
        """The keyword arguments for ``Query.stream``/``Query.run`` under the current settings."""
        s = self.settings
        return {
            # The default lets each statement take its own (simulate runs 10,000 trials).
            "trials": None if s.trials == DEFAULT_TRIALS else s.trials,
            "seed": s.seed,
            "exact": s.exact_flag(),
            "threads": s.threads,
            "time_limit": s.time_limit,
            "precision": s.precision,
            # A Dask scheduler's address: select statements run there (pql_repl.cluster).
            "cluster": s.cluster,
        }

    def prepare(self, statement: Statement | str, source: str | None = None) -> Query:
        """Check one statement. With the ``source`` it was split from, errors report lines and
        columns of ``source`` rather than of the statement alone. The ``.observe``d actions
        reweight a simulate statement's ranges."""
        if isinstance(statement, str):
            text, origin = statement, (1, 1)
        elif source is None or statement.offset == 0:
            text, origin = statement.text, (1, 1)
        else:
            # The engine is told where the statement starts, so its lines and columns are those
            # of `source` (a blanked copy of everything before it made a long script quadratic).
            text, origin = statement.text, (statement.line, statement.col)
        query = Query(text, origin=origin, observations=self.observations or None)
        if any(info.kind == "simulate" for info in query.statements):
            self.last_simulate = query
        return query

    def first_error(self, text: str) -> PqlError | None:
        """The first error the checker finds in the statements of ``text`` (what the REPLs mark
        as the user types), or None."""
        for item in split_statements(text):
            if isinstance(item, Statement):
                try:
                    if "sweep" in item.text.lower() and sweep_clause(item.text):
                        # The clause and the first row (the rows differ only by their values).
                        sweeps = importlib.import_module("pql_repl.sweeps")
                        sweeps.check(sweeps.parse(item.text, origin=(item.line, item.col)), limit=1)
                    else:
                        self.prepare(item, text)
                except PqlError as e:
                    return e
        return None

    # -- dot-commands ------------------------------------------------------------------------

    def handle(self, line: str) -> CommandResult:
        """Run one dot-command line (``.trials 1000``); raises ``SessionError`` when it is
        unknown or its argument is wrong, and ``PqlRangeError`` for a range ``.range`` cannot
        read."""
        # A `;` at the end, as statements have, is allowed: `.trials 1000;`.
        stripped = line.strip().removesuffix(";").rstrip()
        if not stripped.startswith("."):
            raise SessionError(f"'{stripped}' is not a dot-command", "dot-commands start with '.'; try .help")
        name, _, arg = stripped[1:].partition(" ")
        name = name.lower()
        command = COMMANDS.get(name) or COMMANDS.get(ALIASES.get(name, ""))
        if command is None:
            import difflib  # noqa: PLC0415 (only for suggestions: the command starts faster)

            close = difflib.get_close_matches(name, list(COMMANDS), n=1, cutoff=0.6)
            hint = f"did you mean '.{close[0]}'?" if close else "type .help for the list"
            raise SessionError(f"unknown command '.{name}'", hint)
        return command.run(self, arg.strip())

    def function_catalogue(self) -> list[FunctionInfo]:
        if self._functions is None:
            self._functions = functions()
        return self._functions

    def _set(self, key: str, arg: str, usage: str) -> CommandResult:
        if not arg:
            raise SessionError(f"missing value: {usage}")
        self.settings.apply(key, arg)
        return CommandResult(note=f"{key} {self.settings.shown(key)}", changed=frozenset({key}))

    def _help(self, arg: str) -> CommandResult:
        if arg:
            name = arg.lstrip(".").lower()
            command = COMMANDS.get(name) or COMMANDS.get(ALIASES.get(name, ""))
            if command is None:
                raise SessionError(f"unknown command '.{name}'", "type .help for the list")
            return CommandResult(output=f"{command.usage}\n  {command.summary}")
        width = max(len(c.usage) for c in COMMANDS.values())
        lines = [f"{c.usage:<{width}}  {c.summary}" for c in COMMANDS.values()]
        lines.append("")
        lines.append(
            "Statements end with ';' or a blank line. Comments: /* ... */ and -- to the end of a line."
        )
        return CommandResult(output="\n".join(lines))

    def _functions_list(self, arg: str) -> CommandResult:
        catalogue = self.function_catalogue()
        if arg:
            pattern = arg.lower() if any(ch in arg for ch in "*?[") else f"*{arg.lower()}*"
            import fnmatch  # noqa: PLC0415 (only for .functions: the command starts faster)

            catalogue = [f for f in catalogue if fnmatch.fnmatchcase(f.name.lower(), pattern)]
            if not catalogue:
                raise SessionError(f"no function matches '{arg}'", "try .functions with part of a name")
        width = max(len(f.name) for f in catalogue)
        # Extensions are marked so scripts meant for the original PQL can avoid them.
        lines = [f"{f.name:<{width}}  {f.doc}{' (ext)' if f.origin == 'ext' else ''}" for f in catalogue]
        return CommandResult(output="\n".join(lines))

    def _describe(self, arg: str) -> CommandResult:
        if not arg:
            raise SessionError("missing name: .describe NAME")
        name = arg.split("(", maxsplit=1)[0].strip()
        if name.lower() == "simulate":
            return CommandResult(output=simulate_help())
        catalogue = self.function_catalogue()
        # Underscores are ignored, as in queries (openpql's `min_equity` is `minEquity`).
        wanted = name.lower().replace("_", "")
        found = [f for f in catalogue if f.name.lower() == wanted]
        if not found:
            import difflib  # noqa: PLC0415 (only for suggestions: the command starts faster)

            close = difflib.get_close_matches(name.lower(), [f.name.lower() for f in catalogue], n=1)
            real = next((f.name for f in catalogue if close and f.name.lower() == close[0]), None)
            raise SessionError(
                f"unknown function '{name}'",
                f"did you mean '{real}'?" if real else "list them with .functions",
            )
        parts = []
        for f in found:  # overloads share a name
            games = ", ".join(f.games)
            parts.append(f"{f.signature}\n  {f.doc}\n  example: {f.example}\n  games: {games or 'all'}")
            if f.street_default:
                where = f.street_default.replace("river|seventh", "river (seventh in stud games)")
                parts.append(f"  the street may be left out: {where}")
        return CommandResult(output="\n".join(parts))

    def _observe(self, arg: str) -> CommandResult:
        """`.observe PLAYER ACTION on STREET` records an action; `.observe` lists them, `.observe
        clear` forgets them."""
        words = arg.split()
        if not words:
            if not self.observations:
                return CommandResult(output="nothing observed yet: .observe villain raise on flop")
            return CommandResult(output="\n".join(f"{p} {a} on {s}" for p, a, s in self.observations))
        if words == ["clear"]:
            self.observations.clear()
            return CommandResult(output="observations cleared")
        usage = ".observe villain raise on flop"
        if len(words) != 4 or words[2].lower() != "on":
            raise SessionError("expected .observe PLAYER ACTION on STREET", usage)
        player, action, _, street = words
        actions = ("fold", "check", "call", "bet", "raise")
        if action.lower() not in actions:
            raise SessionError(f"unknown action '{action}'", "one of " + ", ".join(actions))
        streets = ("preflop", "flop", "turn", "river")
        if street.lower() not in streets:
            raise SessionError(f"unknown street '{street}'", "one of " + ", ".join(streets))
        self.observations.append((player, action.lower(), street.lower()))
        return CommandResult(output=f"observed: {player} {action.lower()} on {street.lower()}")

    def _player_range(self, player: str) -> CommandResult:
        """`.range PLAYER`: the player's range in the last simulate statement, reweighted by its
        history and the observed actions, with weights."""
        if self.last_simulate is None:
            raise SessionError(
                f"no simulate statement seats '{player}' yet",
                "run a simulate statement first, or .range GAME 'RANGE'",
            )
        query = Query(self.last_simulate.text, observations=self.observations or None)
        seated = query.holdings(0) or {}
        found = next((name for name in seated if name.lower() == player.lower()), None)
        if found is None:
            names = ", ".join(seated) or "none"
            raise SessionError(
                f"the last simulate statement has no player '{player}'", f"its players: {names}"
            )
        rows = seated[found]
        total = sum(w for _, w in rows)
        shown = 40
        lines = [f"{found}: {len(rows)} hands, weights after reweighting (total {format_weight(total)})"]
        lines += [f"  {hand} {format_weight(weight)}" for hand, weight in rows[:shown]]
        if len(rows) > shown:
            lines.append(f"  … {len(rows) - shown} more")
        return CommandResult(output="\n".join(lines))

    def _range(self, arg: str) -> CommandResult:
        game, _, rest = arg.partition(" ")
        rest = rest.strip()
        if game and not rest and game.lower() not in vocabulary_games():
            return self._player_range(game)
        if not game or not rest:
            raise SessionError("missing argument: .range GAME 'RANGE' [generic|classic]")
        syntax: str | None = None
        if rest[0] in "'\"":
            end = rest.find(rest[0], 1)
            if end < 0:
                raise SessionError("the range's quote is not closed", f"write .range {game} 'AKs, QQ+'")
            text, tail = rest[1:end], rest[end + 1 :].strip()
            if tail:
                syntax = parse_choice(tail, ("generic", "classic"), "range syntax")
        else:
            text = rest
        r = parse_range(text, game, syntax)
        shown = 24
        combos = r.labels(shown)
        more = f" … and {len(r) - shown} more" if len(r) > shown else ""
        noun = "hand" if len(r) == 1 else "hands"
        return CommandResult(output=f"{len(r)} {noun} ({r.game})\n{' '.join(combos)}{more}".rstrip())

    def _define(self, arg: str) -> CommandResult:
        """`.define` lists the named ranges, `.define $name` shows one, `.define $name 'RANGE'`
        stores it (checked: the name, and the range in some game)."""
        stored = named_ranges.load()
        if not arg:
            if not stored:
                return CommandResult(output="no named ranges yet: .define $name 'RANGE'")
            width = max(len(k) for k in stored) + 1
            return CommandResult(output="\n".join(f"${k:<{width}} {v}" for k, v in stored.items()))
        name, _, rest = arg.partition(" ")
        problem = range_name_error(name)
        if problem:
            raise SessionError(problem, "write .define $open 'QQ+, AKs'")
        bare = name.removeprefix("$")
        rest = rest.strip()
        if not rest:
            text = next((v for k, v in stored.items() if k.lower() == bare.lower()), None)
            if text is None:
                raise SessionError(f"no range is named ${bare}", "write .define $open 'QQ+, AKs'")
            return CommandResult(output=f"${bare} {text}")
        text, game = _quoted_and_game(rest, f".define ${bare} 'QQ+, AKs'")
        # Checked in one game (hold'em unless named); it is read in the game of each range using it.
        parse_range(text, game, macros={**stored, bare: text})
        try:
            named_ranges.store(bare, text)
        except OSError as e:
            raise SessionError(
                f"cannot save ${bare}: {e}", "fix or remove the file; nothing was saved"
            ) from None
        return CommandResult(note=f"${bare} = {text}")

    def _undefine(self, arg: str) -> CommandResult:
        if not arg:
            raise SessionError("missing name: .undefine $name")
        try:
            removed = named_ranges.remove(arg.strip())
        except OSError as e:
            raise SessionError(f"cannot forget {arg.strip()}: {e}") from None
        if not removed:
            raise SessionError(
                f"no range is named ${arg.strip().removeprefix('$')}", "list them with .define"
            )
        return CommandResult(note=f"forgot ${arg.strip().removeprefix('$')}")

    def _odds(self, arg: str) -> CommandResult:
        """`.odds HAND [BOARD] [N | vs RANGE …]`: checked here, computed by the front end."""
        import shlex  # noqa: PLC0415 (only for this command: the command starts faster)

        usage = "write .odds AdQc 3h4cJh 9, or .odds AdQc 3h4cJh vs 'QQ+' '*'"
        try:
            words = shlex.split(arg)
        except ValueError as e:
            raise SessionError(f"cannot read the arguments: {e}", usage) from None
        if not words:
            raise SessionError("missing hand: .odds HAND [BOARD] [N | vs RANGE …]", usage)
        hand, rest = words[0], words[1:]
        board = ""
        if rest and rest[0].lower() != "vs" and not rest[0].isdigit():
            board, rest = rest[0], rest[1:]
        opponents: int | tuple[str, ...] = 1
        if rest and rest[0].isdigit() and len(rest) == 1:
            opponents = int(rest[0])
        elif rest and rest[0].lower() == "vs" and len(rest) > 1:
            opponents = tuple(rest[1:])
        elif rest:
            raise SessionError(f"unexpected '{' '.join(rest)}'", usage)
        from pql_repl.multi_odds import odds_queries  # noqa: PLC0415

        try:
            for text in odds_queries(hand, board, opponents):
                Query(text)  # checked now: a wrong hand is said before the view opens
        except ValueError as e:
            raise SessionError(str(e), usage) from None
        return CommandResult(odds=OddsRequest(hand, board, opponents))

    def _plot(self, arg: str) -> CommandResult:
        words = arg.split()
        usage = ".plot equity PLAYER [STREET], e.g. .plot equity hero flop"
        if len(words) not in {2, 3} or words[0].lower() != "equity":
            raise SessionError(f"expected {usage}")
        street = words[2].lower() if len(words) == 3 else "flop"
        return CommandResult(
            plot=(words[1], street),
            note="charts are in the full-screen app: run pql, then .plot or F7 on a histogram",
        )

    def _explore(self, arg: str) -> CommandResult:
        if not arg:
            raise SessionError(
                "missing player: .explore PLAYER", "name a player of the query, e.g. .explore hero"
            )
        # Only the full-screen app has the explorer; the other front ends show the note.
        return CommandResult(
            explore=arg.strip(),
            note="the range explorer is in the full-screen app: run pql, then F2 on a player",
        )

    def _read(self, arg: str) -> CommandResult:
        if not arg:
            raise SessionError("missing file: .read FILE")
        from pathlib import Path  # noqa: PLC0415 (see the imports)

        path = Path(arg.strip("'\"")).expanduser()
        if path.is_dir():
            raise SessionError(f"cannot read '{arg}': it is a directory", "name a script inside it")
        if not path.exists():
            raise SessionError(f"cannot read '{arg}': no such file")
        return CommandResult(read=path)


def _quoted_and_game(text: str, example: str) -> tuple[str, str]:
    """``'RANGE' [GAME]`` (the quotes optional when there is no game): the text and the game."""
    if text[0] in "'\"":
        end = text.find(text[0], 1)
        if end < 0:
            raise SessionError("the range's quote is not closed", f"write {example}")
        return text[1:end], text[end + 1 :].strip() or "holdem"
    return text, "holdem"


def parse_cluster(text: str) -> str | None:
    """``off`` or a Dask scheduler's address (``tcp://host:8786``; a bare ``host:port`` gets
    ``tcp://``). Whether a scheduler answers there is found when a sweep first uses it."""
    t = text.strip()
    if t.lower() in ("off", "none", ""):
        return None
    if "://" not in t:
        t = "tcp://" + t
    import re  # noqa: PLC0415 (see the imports)

    if not re.fullmatch(r"[a-z]+://[^\s/]+:\d+/?", t):
        raise SessionError(
            f"'{text}' is not a scheduler address", "write .cluster tcp://host:8786 or .cluster off"
        )
    return t


def _setter(key: str, usage: str) -> Callable[[Session, str], CommandResult]:
    return lambda session, arg: session._set(key, arg, usage)


def _output(session: Session, arg: str) -> CommandResult:
    return session._set("output", arg or "stdout", ".output FILE|stdout")


def _theme(session: Session, arg: str) -> CommandResult:
    # themes.py loads pygments' styles: only `.theme` needs it, and scripts start without it.
    from pql_repl.themes import THEMES, theme_list  # noqa: PLC0415

    themes = session.themes or THEMES
    if not arg:
        return CommandResult(output=theme_list(themes, session.settings.theme))
    if session.themes is not None:
        arg = parse_choice(arg, session.themes, "theme")
    return session._set("theme", arg, ".theme NAME")


COMMANDS: dict[str, _Command] = {
    "help": _Command(".help [COMMAND]", "this list, or one command's usage", Session._help),
    "trials": _Command(
        ".trials N", "Monte Carlo trials per statement (600k, 1e6 work)", _setter("trials", ".trials N")
    ),
    "seed": _Command(
        ".seed N|off", "fixed random seed, or a fresh one each run", _setter("seed", ".seed N|off")
    ),
    "exact": _Command(
        ".exact on|off|auto",
        "enumerate every deal, sample, or decide by size",
        _setter("exact", ".exact on|off|auto"),
    ),
    "threads": _Command(
        ".threads N|auto", "worker threads (auto: all cores)", _setter("threads", ".threads N|auto")
    ),
    "format": _Command(
        ".format table|csv|json|markdown",
        "how results are written",
        _setter("format", ".format table|csv|json|markdown"),
    ),
    "output": _Command(".output FILE|stdout", "write results to a file, or back to stdout", _output),
    "timer": _Command(".timer on|off", "show each statement's run time", _setter("timer", ".timer on|off")),
    "cluster": _Command(
        ".cluster ADDRESS|off",
        "run select statements and sweeps on a Dask cluster (tcp://host:8786)",
        _setter("cluster", ".cluster ADDRESS|off"),
    ),
    "time_limit": _Command(
        ".time_limit S|off", "stop each statement after S seconds", _setter("time_limit", ".time_limit S|off")
    ),
    "precision": _Command(
        ".precision X|off",
        "stop once every standard error is below X",
        _setter("precision", ".precision X|off"),
    ),
    "theme": _Command(".theme [NAME]", "list the colour themes, or choose one", _theme),
    "mode": _Command(
        ".mode vi|emacs", "editing keys of pql --plain", _setter("editing_mode", ".mode vi|emacs")
    ),
    "read": _Command(".read FILE", "run the statements and commands of a file", Session._read),
    "functions": _Command(
        ".functions [PATTERN]",
        "list built-in functions (PATTERN: part of a name or a glob)",
        Session._functions_list,
    ),
    "describe": _Command(
        ".describe NAME",
        "a function's signature, doc, example and games (.describe simulate: the statement)",
        Session._describe,
    ),
    "range": _Command(
        ".range GAME 'RANGE' [generic] | .range PLAYER",
        "how many hands a range holds, and the first of them; a simulate player's weighted range",
        Session._range,
    ),
    "observe": _Command(
        ".observe PLAYER ACTION on STREET | clear",
        "an action seen at the table: reweights the player's range in simulate statements",
        Session._observe,
    ),
    "define": _Command(
        ".define [$NAME ['RANGE' [GAME]]]",
        "name a range for every range string ($NAME; checked in GAME, holdem), show one, or list",
        Session._define,
    ),
    "undefine": _Command(".undefine $NAME", "forget a named range", Session._undefine),
    "explore": _Command(
        ".explore PLAYER",
        "open the range explorer on a player of the query (full-screen app)",
        Session._explore,
    ),
    "odds": _Command(
        ".odds HAND [BOARD] [N | vs RANGE …]",
        "win, tie, hand strength, potentials and HoldemHand's MultiOdds tables"
        " against N (1-9) random hands or ranges",
        Session._odds,
    ),
    "plot": _Command(
        ".plot equity PLAYER [STREET]",
        "chart the player's equity distribution over the editor's query"
        " (full-screen app; F7 charts any histogram)",
        Session._plot,
    ),
    "show": _Command(
        ".show", "the current settings", lambda s, _: CommandResult(output=s.settings.describe())
    ),
    "quit": _Command(".quit", "leave pql", lambda _s, _a: CommandResult(quit=True)),
}

#: Other spellings users reach for.
ALIASES = {"exit": "quit", "q": "quit", "timelimit": "time_limit", "h": "help", "function": "functions"}
