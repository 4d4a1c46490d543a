"""The session the ``pql`` command and both REPLs keep: its settings and the dot-commands that
change or query them.

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

import contextlib
import importlib
import os

from pql_repl.api.catalogue import FunctionInfo, functions
from pql_repl.api.precision import AUTO
from pql_repl.api.results import DEFAULT_TRIALS
from pql_repl.api.run import Query
from pql_repl.base.errors import PqlCancelled, PqlError
from pql_repl.base.records import record
from pql_repl.files.config import config_file, load_config
from pql_repl.session.command_result import CommandResult, OddsRequest
from pql_repl.session.range_commands import RangeCommands
from pql_repl.session.settings import (
    SessionError,
    Settings,
    _quoted,
    parse_choice,
)
from pql_repl.session.simulate_help import (
    simulate_help,
)
from pql_repl.session.statements import DotCommand, Statement, split_statements, sweep_clause

# Loaded where used: `pql -c` and scripts start on every run, and re, pathlib and typing would
# cost them a fifth of their start.
TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

    from pql_repl.api.sweeps import CheckedSweep
    from pql_repl.session.served import ServedBounds

# ---------------------------------------------------------------------------------------------
# Settings
# ---------------------------------------------------------------------------------------------
# Dot-commands


@record(frozen=True)
class _Command:
    usage: str
    summary: str
    run: Callable[[Session, str], CommandResult]


class Session(RangeCommands):
    """The settings of one pql session and the dot-commands that change or query them."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        #: Set by the REPLs: ``.precision auto`` applies in interactive sessions only.
        self.interactive = False
        #: The colour themes the front end offers, for `.theme` to check (None: no check, in
        #: front ends without themes).
        self.themes: tuple[str, ...] | None = None
        self._functions: list[FunctionInfo] | None = None
        #: Actions seen at the table (``.observe``): (player, action, street), reweighting the
        #: ranges of the simulate statements that seat the player.
        self.observations: list[tuple[str, str, str]] = []
        #: The last simulate statement checked, for ``.range PLAYER``.
        self.last_simulate: Query | None = None
        #: Named ranges held here instead of in the user's file (None: the file): a shadow
        #: session checking a script keeps its ``.define``s to itself (``shadow``).
        self.macros: dict[str, str] | None = None
        #: A shadow session: its first ``.define`` or ``.undefine`` copies the file's ranges
        #: into ``macros`` and changes the copy (until then it reads the file, only when a
        #: statement names a range).
        self.keeps_ranges = False
        #: The config file this session's settings were read from (there or not); None when
        #: they were not read from one.
        self.config_read: str | None = None
        #: Set by ``pql serve``'s app: the session belongs to a web browser's user, who may not
        #: reach the server's files (``session/served.py``); None in every other front end.
        self.served: ServedBounds | None = None

    @classmethod
    def from_config(cls, path: Path | None = None) -> Session:
        """A session with the defaults of the user's config file; raises ``ConfigError``."""
        session = cls(Settings.from_config(load_config(path)))
        session.config_read = str(path) if path is not None else config_file()
        return session

    def config_line(self) -> str:
        """The config file `.show` names: the one read at the start (else the one pql reads),
        whether it is there, and whether ``PQL_CONFIG`` chose it."""
        path = self.config_read or config_file()
        there = os.path.isfile(path)
        if self.config_read is None:
            state = "there, not read by this session" if there else "none there"
        else:
            state = "read at the start" if there else "none there: the built-in defaults"
        chosen = self.config_read is None or self.config_read == config_file()
        if chosen and os.environ.get("PQL_CONFIG"):
            state += "; named by PQL_CONFIG"
        return f"{path} ({state})"

    def _show(self, _arg: str) -> CommandResult:
        return CommandResult(output=self.settings.describe((("config file", self.config_line()),)))

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
            "precision": None if s.precision == AUTO and not self.interactive else s.precision,
            # A Dask scheduler's address: select statements run there (pql_repl.api.cluster).
            "cluster": s.cluster,
        }

    def prepare(
        self, statement: Statement | str, source: str | None = None, stop: Callable[[], bool] | None = None
    ) -> Query:
        """Check one statement. With the ``source`` it was split from, errors report lines and
        columns of ``source`` rather than of the statement alone. The ``.observe``d actions
        reweight a simulate statement's ranges. Checking stops at the time limit, at Ctrl-C, or
        once ``stop()`` answers true (``PqlCancelled``), as ``LocalQuery`` says."""
        if isinstance(statement, str):
            text, origin = statement, (1, 1)
        elif source is None or statement.offset == 0:
            text, origin = statement.text, (1, 1)
        else:
            # The engine is told where the statement starts, so its lines and columns are those
            # of `source` (a blanked copy of everything before it made a long script quadratic).
            text, origin = statement.text, (statement.line, statement.col)
        query = Query(
            text,
            origin=origin,
            macros=self.macros,
            observations=self.observations or None,
            time_limit=self.settings.time_limit,
            stop=stop,
        )
        if any(info.kind == "simulate" for info in query.statements):
            self.last_simulate = query
        return query

    #: The dot-commands that change how later statements are checked (named ranges, observed
    #: actions); a shadow session replays them while a script is checked.
    CHECKING_COMMANDS = frozenset({"define", "undefine", "observe"})

    def shadow(self) -> Session:
        """A copy to check a script against, statement after statement, as it will run: the same
        settings and observed actions, the named ranges held in memory. Its dot-commands in
        ``CHECKING_COMMANDS`` (``replay``) change only the copy: nothing is written."""
        copy = Session(self.settings)
        copy.interactive = self.interactive
        copy.themes = self.themes
        copy.observations = list(self.observations)
        copy.macros = None if self.macros is None else dict(self.macros)
        copy.keeps_ranges = True
        copy.served = self.served
        return copy

    def replay(self, line: str) -> None:
        """On a shadow session: apply a dot-command that changes checking; others, and any
        error, are left to the run (which reports it in place)."""
        name = line.strip().lstrip(".").split(None, 1)[0].lower() if line.strip(". \t") else ""
        if ALIASES.get(name, name) not in self.CHECKING_COMMANDS:
            return
        with contextlib.suppress(SessionError, PqlError):
            self.handle(line)

    def plan(self, item: Statement | DotCommand, source: str) -> Statement | DotCommand | CheckedSweep:
        """On a shadow session: one item of script ``source`` checked against the state it will
        run in, as it will run: a dot-command replayed, a sweep checked row by row, a statement
        prepared. ``PqlError`` when it is wrong (lines and columns of ``source``)."""
        if isinstance(item, DotCommand):
            self.replay(item.text)
            return item
        if "sweep" in item.text.lower():
            sweeps = importlib.import_module("pql_repl.api.sweeps")  # only a sweep loads it
            if sweeps.is_sweep(item.text):
                checked: CheckedSweep = sweeps.check(sweeps.parse(item.text, origin=(item.line, item.col)))
                return checked
        self.prepare(item, source)
        return item

    def first_error(self, text: str, stop: Callable[[], bool] | None = None) -> PqlError | None:
        """The first error the checker finds in the statements of ``text`` (what the REPLs mark
        as the user types), or None. ``stop``: asked while a statement is checked, and between
        two; once it answers true the check ends with ``PqlCancelled``."""
        for item in split_statements(text):
            if isinstance(item, Statement):
                if stop is not None and stop():
                    raise PqlCancelled("cancelled")
                try:
                    if "sweep" in item.text.lower() and sweep_clause(item.text):
                        # The clause and the first row (the rows differ only by their values).
                        sweeps = importlib.import_module("pql_repl.api.sweeps")
                        sweeps.check(sweeps.parse(item.text, origin=(item.line, item.col)), limit=1)
                    else:
                        self.prepare(item, text, stop)
                except PqlCancelled:
                    raise
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
            raise SessionError(
                f"{_quoted(stripped)} is not a dot-command", "dot-commands start with '.'; try .help"
            )
        name, _, arg = stripped[1:].partition(" ")
        name = name.lower()
        name = name if name in COMMANDS else ALIASES.get(name, name)
        command = COMMANDS.get(name)
        if command is None:
            import difflib  # noqa: PLC0415 (only for suggestions: the command starts faster)

            close = difflib.get_close_matches(name, list(COMMANDS), n=1, cutoff=0.6)
            hint = f"did you mean '.{close[0]}'?" if close else "type .help for the list"
            raise SessionError(f"unknown command {_quoted('.' + name)}", hint)
        if self.served is not None:
            self.served.check(name, arg.strip())
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
                raise SessionError(f"unknown command {_quoted('.' + name)}", "type .help for the list")
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
                raise SessionError(
                    f"no function matches {_quoted(arg)}", "try .functions with part of a name"
                )
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
                f"unknown function {_quoted(name)}",
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
            raise SessionError(f"unknown action {_quoted(action)}", "one of " + ", ".join(actions))
        streets = ("preflop", "flop", "turn", "river")
        if street.lower() not in streets:
            raise SessionError(f"unknown street {_quoted(street)}", "one of " + ", ".join(streets))
        self.observations.append((player, action.lower(), street.lower()))
        return CommandResult(output=f"observed: {player} {action.lower()} on {street.lower()}")

    def _odds(self, arg: str) -> CommandResult:
        """`.odds HAND [BOARD] [1-9 | N | vs RANGE …]`: checked here, computed by the front end."""
        import re  # noqa: PLC0415 (only for this command: the command starts faster)
        import shlex  # noqa: PLC0415

        from pql_repl.api.multi_odds import ALL_COUNTS, MAX_OPPONENTS, odds_queries  # noqa: PLC0415

        usage = (
            "write .odds AdQc 3h4cJh (1 to 9 opponents), .odds AdQc 3h4cJh 9,"
            " or .odds AdQc 3h4cJh vs 'QQ+' '*'"
        )
        try:
            words = shlex.split(arg)
        except ValueError as e:
            raise SessionError(f"cannot read the arguments: {e}", usage) from None
        if not words:
            raise SessionError("missing hand: .odds HAND [BOARD] [1-9 | N | vs RANGE …]", usage)
        hand, rest = words[0], words[1:]

        def is_count(word: str) -> bool:  # ASCII digits only: int() refuses '²', \d takes '٣'
            return re.fullmatch(r"[0-9]+(-[0-9]+)?", word) is not None

        board = ""
        if rest and rest[0].lower() != "vs" and not is_count(rest[0]):
            board, rest = rest[0], rest[1:]
        # No opponents given: HoldemHand's odds view, a row for each of 1 to 9 random opponents.
        opponents: int | tuple[str, ...] | range = ALL_COUNTS
        if rest and is_count(rest[0]) and "-" not in rest[0] and len(rest) == 1:
            opponents = int(rest[0])
        elif rest and is_count(rest[0]) and len(rest) == 1:
            low, high = (int(n) for n in rest[0].split("-"))
            if not 1 <= low <= high <= MAX_OPPONENTS:
                raise SessionError(
                    f"opponents {_quoted(rest[0])}: the odds view counts 1 to {MAX_OPPONENTS}", usage
                )
            opponents = range(low, high + 1)
        elif rest and rest[0].lower() == "vs" and len(rest) > 1:
            opponents = tuple(rest[1:])
        elif rest:
            raise SessionError(f"unexpected {_quoted(' '.join(rest))}", usage)
        try:
            # Checked now: a wrong hand is said before the view opens (one count stands for all).
            for text in odds_queries(
                hand, board, opponents[-1] if isinstance(opponents, range) else opponents
            ):
                Query(text)
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

        path = Path(os.path.expanduser(arg.strip("'\"")))  # an unknown ~user stays as it is
        try:
            is_dir, exists = path.is_dir(), path.exists()
        except OSError as e:  # a name too long for the system, ...
            raise SessionError(f"cannot read {_quoted(arg)}: {e.strerror or e}") from None
        if is_dir:
            raise SessionError(f"cannot read {_quoted(arg)}: it is a directory", "name a script inside it")
        if not exists:
            raise SessionError(f"cannot read {_quoted(arg)}: no such file")
        return CommandResult(read=path)


def _setter(key: str, usage: str) -> Callable[[Session, str], CommandResult]:
    return lambda session, arg: session._set(key, arg, usage)


def _output(session: Session, arg: str) -> CommandResult:
    return session._set("output", arg or "stdout", ".output FILE|stdout")


def _theme(session: Session, arg: str) -> CommandResult:
    # themes.py loads pygments' styles: only `.theme` needs it, and scripts start without it.
    from pql_repl.session.themes import THEMES, theme_list  # noqa: PLC0415

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
        ".format table|csv|json|markdown|html",
        "how results are written",
        _setter("format", ".format table|csv|json|markdown|html"),
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
        ".precision auto|X|off",
        "stop once every standard error is below X (auto: 0.0025, ±0.0049 at 95%, for runs over 3 s)",
        _setter("precision", ".precision auto|X|off"),
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
        ".odds HAND [BOARD] [1-9 | N | vs RANGE …]",
        "the odds view: win, tie, strength, potentials against 1-9 random hands, a row each;"
        " N or ranges: MultiOdds",
        Session._odds,
    ),
    "plot": _Command(
        ".plot equity PLAYER [STREET]",
        "chart the player's equity against the others' ranges by deal (HvREquity; app; F7: any histogram)",
        Session._plot,
    ),
    "show": _Command(".show", "the current settings and the config file", Session._show),
    "quit": _Command(".quit", "leave pql", lambda _s, _a: CommandResult(quit=True)),
}

#: Other spellings users reach for.
ALIASES = {"exit": "quit", "q": "quit", "timelimit": "time_limit", "h": "help", "function": "functions"}
