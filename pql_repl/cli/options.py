"""The ``pql`` command's options (argparse, loaded only when the command line has options) and
exit codes."""

from __future__ import annotations

import sys
from types import SimpleNamespace

from pql_repl.api.output import FORMATS
from pql_repl.session.session import Session
from pql_repl.session.settings import (
    SessionError,
    parse_cluster,
    parse_count,
    parse_output,
    parse_precision,
    parse_seconds,
    parse_seed,
)

# argparse, re, pathlib and typing are loaded where used: `pql -c` starts on every run, and
# they would cost it a fifth of its start (see `bare_commands`).
TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from typing import Protocol

    class Cancellable(Protocol):
        """A run that another thread may cancel (a query, an odds run)."""

        def cancel(self) -> None: ...


EXIT_OK = 0
EXIT_QUERY_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _option(parse: Callable[[str], object]) -> Callable[[str], object]:
    """An argparse type from one of the session's value parsers, so both accept the same text."""

    def convert(text: str) -> object:
        try:
            return parse(text)
        except SessionError as e:
            import argparse  # noqa: PLC0415 (see the imports)

            raise argparse.ArgumentTypeError(e.message) from None

    convert.__name__ = parse.__name__.removeprefix("parse_")
    return convert


def build_parser() -> argparse.ArgumentParser:
    import argparse  # noqa: PLC0415 (see the imports)

    class VersionAction(argparse.Action):
        """``--version``, looking the version up only when asked (importlib.metadata is slow to
        load)."""

        def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
            super().__init__(option_strings, dest, nargs=0)

        def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
            from importlib import metadata  # noqa: PLC0415

            try:
                version = metadata.version("pql-repl")
            except metadata.PackageNotFoundError:
                version = "unknown"
            sys.stdout.write(f"pql {version}\n")
            parser.exit()

    parser = argparse.ArgumentParser(
        prog="pql",
        description="Answer poker questions written in PQL, exactly or by Monte Carlo simulation.",
        epilog=epilog(),
        # The epilog's examples and lists keep their lines.
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="scripts to run ('-' reads stdin)")
    parser.add_argument(
        "-c",
        "--command",
        action="append",
        default=[],
        metavar="TEXT",
        help="statements or dot-commands to run (repeatable; run before any FILE)",
    )
    parser.add_argument("--plain", action="store_true", help="start the line-mode REPL")
    parser.add_argument(
        "--template",
        metavar="FILE",
        help="spreadsheet mode: a statement with #NAME# placeholders, run once per row of --rows",
    )
    parser.add_argument(
        "--rows",
        metavar="CSV",
        help="spreadsheet mode: a CSV file whose header names the placeholders; written back as CSV "
        "with each selector's value and standard error appended",
    )

    # Settings given on the command line override the config; absent ones leave it alone.
    def setting(flag: str, parse: Callable[[str], object], metavar: str, help_text: str) -> None:
        parser.add_argument(
            flag, default=argparse.SUPPRESS, type=_option(parse), metavar=metavar, help=help_text
        )

    setting("--trials", parse_count, "N", "Monte Carlo trials (600000)")
    setting("--seed", parse_seed, "S", "random seed, for reproducible runs")
    exact = parser.add_mutually_exclusive_group()
    for flag, value, help_text in (
        ("--exact", "on", "enumerate every deal"),
        ("--no-exact", "off", "always sample"),
    ):
        exact.add_argument(
            flag, dest="exact", default=argparse.SUPPRESS, action="store_const", const=value, help=help_text
        )
    setting("--threads", parse_count, "N", "worker threads (all cores)")
    setting("--time-limit", parse_seconds, "SECONDS", "stop each statement after this long")
    setting(
        "--precision",
        parse_precision,
        "X",
        "stop once every standard error is below X (auto: the REPLs' rule)",
    )
    parser.add_argument(
        "--format",
        default=argparse.SUPPRESS,
        choices=FORMATS,
        help="how results are written (table; markdown for forums and notes; html: one page to mail)",
    )
    setting("--output", parse_output, "FILE", "write results to FILE instead of stdout")
    setting(
        "--cluster",
        parse_cluster,
        "ADDRESS",
        "run select statements and sweeps on a Dask cluster (tcp://host:8786)",
    )
    parser.add_argument("--timer", action="store_true", help="show each statement's run time")
    parser.add_argument("--version", action=VersionAction, help="show the version and exit")
    return parser


def epilog() -> str:
    """What ``pql --help`` says after the options: when each front end starts, examples, the
    config file (where it is now) and the environment variables."""
    import os  # noqa: PLC0415 (only for --help)

    from pql_repl.files.config import config_file  # noqa: PLC0415 (only for --help)

    path = config_file()
    where = "named by PQL_CONFIG" if os.environ.get("PQL_CONFIG") else "the default place"
    state = "there" if os.path.isfile(path) else "none there yet"
    return f"""\
With no FILE and no -c: the full-screen app when stdin and stdout are terminals,
otherwise statements from stdin. Statements end with ';' or a blank line; lines
starting with '.' are dot-commands (.help lists them). Exit codes: 0 ok, 1 query
error, 2 usage error, 130 interrupted.

examples:
  pql -c "select avg(riverEquity(hero)) from hero='AA', villain='KK';"
  pql --trials 1e6 --seed 7 --format csv --output results.csv examples/holdem_equity.pql
  pql --plain --exact          the line-mode REPL, enumerating every deal
  pql serve --port 8000        the app in a web browser: read pql serve --help first

config file:
  {path} ({where}; {state})
  TOML defaults for the settings above and the REPLs' (trials = 200000, seed = 7,
  format = "csv", theme = "nord", ...); options given here override it. In the
  REPLs, .show lists the settings in force and names this file.

environment:
  PQL_CONFIG    the config file to read instead of the default one
  PQL_DATA_DIR  where the REPLs keep their history, the app's editor text and
                named ranges (.define)
"""


#: Options that override a setting only when given (so `--seed off` can undo a config seed).
SETTING_OPTIONS = (
    "trials",
    "seed",
    "threads",
    "time_limit",
    "precision",
    "format",
    "output",
    "exact",
    "cluster",
)


def apply_options(session: Session, args: argparse.Namespace | SimpleNamespace) -> None:
    for key in SETTING_OPTIONS:
        if hasattr(args, key):
            setattr(session.settings, key, getattr(args, key))
    if args.timer:
        session.settings.timer = True


# ---------------------------------------------------------------------------------------------
# Progress on stderr


def bare_commands(argv: list[str]) -> SimpleNamespace | None:
    """The arguments of the commonest scripted use, ``pql -c TEXT [-c TEXT ...]`` and nothing
    else, read without argparse (which, with the re module it loads, costs that run a tenth of
    its start); None for any other command line, which argparse reads."""
    if not argv or len(argv) % 2 or any(flag != "-c" for flag in argv[::2]):
        return None
    texts = argv[1::2]
    if any(t.startswith("-") for t in texts):
        return None  # argparse's reading of option-like values decides
    return SimpleNamespace(command=texts, files=[], template=None, rows=None, plain=False, timer=False)
