"""The ``pql`` command (DESIGN.md §4).

``pql`` alone starts the full-screen app on a terminal and reads statements from stdin
otherwise; ``pql --plain`` starts the line REPL; ``pql FILE ...`` and ``pql -c TEXT`` run
scripts. Results go to stdout (or ``--output``), everything else to stderr.

The terminal libraries are imported only when an interactive front end starts, so scripts start
fast: this module must not import textual or prompt_toolkit at module level.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
import threading
import time
from types import SimpleNamespace

from pql_repl.api import Query, StatementResult
from pql_repl.config import ConfigError
from pql_repl.errors import ClusterError, PqlCancelled, PqlError
from pql_repl.files import FileProblem, bad_byte, open_output, read_stream_bounded, surrogate_bytes
from pql_repl.limits import SCRIPT_MAX_BYTES
from pql_repl.output import FORMATS, Destination, OutputError, ResultWriter
from pql_repl.records import record
from pql_repl.session import (
    DotCommand,
    Session,
    SessionError,
    decode_script,
    parse_cluster,
    parse_count,
    parse_output,
    parse_precision,
    parse_seconds,
    parse_seed,
    read_script,
    split_statements,
)

# argparse, re, pathlib and typing are loaded where used: `pql -c` starts on every run, and
# they would cost it a fifth of its start (see `_bare_commands`).
TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Iterator
    from pathlib import Path
    from types import FrameType, ModuleType
    from typing import Any, TextIO

    from pql_repl.sweeps import CheckedSweep

EXIT_OK = 0
EXIT_QUERY_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

#: Runs shorter than this show no progress line.
PROGRESS_DELAY = 0.5


class Interrupted(Exception):
    """Ctrl-C stopped the run (the running statement was cancelled)."""


class ScriptError(Exception):
    """A statement or dot-command failed; the message is already printed."""


# ---------------------------------------------------------------------------------------------
# Command line


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
        epilog=(
            "With no FILE and no -c: the full-screen app when stdin and stdout are terminals, "
            "otherwise statements from stdin. Statements end with ';' or a blank line; lines "
            "starting with '.' are dot-commands (.help lists them). Exit codes: 0 ok, 1 query "
            "error, 2 usage error, 130 interrupted."
        ),
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
    setting("--precision", parse_precision, "X", "stop once every standard error is below X")
    parser.add_argument(
        "--format",
        default=argparse.SUPPRESS,
        choices=FORMATS,
        help="how results are written (table; markdown for forums and notes)",
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


def _apply_options(session: Session, args: argparse.Namespace | SimpleNamespace) -> None:
    for key in SETTING_OPTIONS:
        if hasattr(args, key):
            setattr(session.settings, key, getattr(args, key))
    if args.timer:
        session.settings.timer = True


# ---------------------------------------------------------------------------------------------
# Progress on stderr


class ProgressLine:
    """``\\r``-updated progress (trials, share done, trials/s) on a terminal's stderr, shown only
    once a statement has run for ``PROGRESS_DELAY`` seconds, and erased when it ends."""

    #: Seconds between redraws: snapshots can arrive far faster than anyone reads.
    INTERVAL = 0.1

    def __init__(self, stream: TextIO, enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled
        self._width = 0
        self._started = time.monotonic()
        self._drawn = 0.0

    def start(self) -> None:
        """A statement starts; its clock starts now."""
        self._started = time.monotonic()
        self._drawn = 0.0

    def update(self, snap: StatementResult) -> None:
        now = time.monotonic()
        elapsed = now - self._started
        if not self.enabled or elapsed < PROGRESS_DELAY or now - self._drawn < self.INTERVAL:
            return
        self._drawn = now
        rate = snap.attempted / elapsed
        text = f"{snap.trials} trials  {100 * snap.progress:5.1f}%  {_si(rate)} trials/s"
        self.stream.write("\r" + text.ljust(self._width))
        self.stream.flush()
        self._width = len(text)

    def note(self, text: str) -> None:
        """Progress said in words (a sweep's rows), under the same delay and pace."""
        now = time.monotonic()
        if not self.enabled or now - self._started < PROGRESS_DELAY or now - self._drawn < self.INTERVAL:
            return
        self._drawn = now
        self.stream.write("\r" + text.ljust(self._width))
        self.stream.flush()
        self._width = len(text)

    def clear(self) -> None:
        if self._width:
            # Two more cells: the terminal echoes a Ctrl-C as "^C" after the line.
            self.stream.write("\r" + " " * (self._width + 2) + "\r")
            self.stream.flush()
            self._width = 0


def _si(x: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.1f}{unit}"
    return f"{x:.0f}"


# ---------------------------------------------------------------------------------------------
# Running scripts


@record(frozen=True)
class Source:
    """A script's text and how to name it in messages (None for -c and stdin)."""

    text: str
    name: str | None = None


class ScriptRunner:
    """Runs the statements and dot-commands of scripts under one session, writing results in
    the session's format to its output (both may change between statements)."""

    def __init__(self, session: Session, stdout: TextIO, stderr: TextIO, progress: bool) -> None:
        self.session = session
        self.stdout = stdout
        self.stderr = stderr
        self.progress = ProgressLine(stderr, progress)
        self.destination = Destination(stdout)
        self.quit = False

    # -- output ------------------------------------------------------------------------------

    def writer(self) -> ResultWriter:
        """The writer for the current ``.output`` and ``.format``, opening a file if needed."""
        s = self.session.settings
        try:
            return self.destination.writer(s.output, s.format, s.timer)
        except OutputError as e:
            raise SessionError(str(e)) from None

    def close_output(self) -> None:
        self.destination.close()

    # -- scripts -----------------------------------------------------------------------------

    def check(self, source: Source) -> list[Query | DotCommand | CheckedSweep]:
        """Parse and check every statement of ``source`` (every row of a sweep) before anything
        runs, so a mistake at the end of a long script costs no simulation time. Prints every
        error it finds."""
        plan: list[Query | DotCommand | CheckedSweep] = []
        found = 0
        for item in split_statements(source.text):
            if isinstance(item, DotCommand):
                plan.append(item)
                continue
            try:
                if "sweep" in item.text.lower() and (sweeps := _sweeps()).is_sweep(item.text):
                    plan.append(sweeps.check(sweeps.parse(item.text, origin=(item.line, item.col))))
                else:
                    plan.append(self.session.prepare(item, source.text))
            except PqlError as e:
                # Like the engine within one text: at most MAX_REPORTED errors, then a count.
                shown = e.errors[: max(0, MAX_REPORTED - found)]
                found += _error_count(e.errors)
                if shown:
                    self.report(shown, source)
        if found > MAX_REPORTED:
            prefix = f"pql: {source.name}: " if source.name else "pql: "
            self.stderr.write(f"{prefix}… and {found - MAX_REPORTED} more errors\n")
            self.stderr.flush()
        if found:
            raise ScriptError
        return plan

    def run(self, source: Source, plan: list[Query | DotCommand | CheckedSweep], depth: int = 0) -> None:
        for item in plan:
            if self.quit:
                return
            if isinstance(item, DotCommand):
                self.command(item, source, depth)
            elif not isinstance(item, Query):
                self.sweep(item, source)
            else:
                self.statement(item, source)

    def command(self, item: DotCommand, source: Source, depth: int) -> None:
        try:
            result = self.session.handle(item.text)
            if result.changed & {"output", "format"}:
                self.writer()  # open the new destination now, so a bad path fails here
            if result.output:
                stream = self.destination.stream
                stream.write(result.output + "\n")
                stream.flush()
            if result.odds is not None:
                from pql_repl.multi_odds import format_odds, odds  # noqa: PLC0415

                options = self.session.run_options()
                o = odds(
                    result.odds.hand,
                    result.odds.board,
                    result.odds.opponents,
                    trials=options.get("trials", 600_000),
                    seed=options.get("seed"),
                )
                stream = self.destination.stream
                stream.write(format_odds(o) + "\n")
                stream.flush()
            if result.quit:
                self.quit = True
            if result.read is not None:
                sub = _read_file(result.read, depth)
                self.run(sub, self.check(sub), depth + 1)
        except (SessionError, PqlError) as e:
            # A dot-command's errors have no position in the script; name its line instead.
            where = f"{source.name + ': ' if source.name else ''}line {item.line}: "
            text = e.message if isinstance(e, PqlError) else str(e)
            if isinstance(e, PqlError) and e.hint:
                text += f"\n  hint: {e.hint}"
            self.stderr.write(f"pql: {where}{text}\n")
            raise ScriptError from None

    def statement(self, query: Query, source: Source) -> None:
        options = self.session.run_options()
        self.progress.start()
        try:
            # Ctrl-C cancels the run, whose last snapshot (what was computed, marked cancelled)
            # is written like any result before the script stops; a second Ctrl-C stops at once.
            with cancel_on_interrupt(query):
                for snap in query.stream(**options):
                    self.show(snap)
        except KeyboardInterrupt:
            query.cancel()
            self.progress.clear()
            raise Interrupted from None
        except PqlCancelled:
            self.progress.clear()
            raise Interrupted from None
        except PqlError as e:
            self.progress.clear()
            self.report(e.errors, source)
            raise ScriptError from None
        except ClusterError as e:  # `.cluster` names no usable cluster
            self.progress.clear()
            self.stderr.write(f"pql: {e}\n")
            raise ScriptError from None

    def show(self, snap: StatementResult) -> None:
        """A statement's snapshot: the final one written, the others on the progress line."""
        if snap.done:
            self.progress.clear()
            self.writer().write(snap)
        else:
            self.progress.update(snap)

    def sweep(self, checked: CheckedSweep, source: Source) -> None:
        """A sweep's rows in turn (each cancellable with Ctrl-C), its table written at the end;
        the progress line counts rows."""
        options = self.session.run_options()
        total = len(checked.rows)
        started = time.monotonic()
        run = _run_cancellable(self.session)
        self.progress.start()
        cluster = self.session.settings.cluster
        where: dict[str, Any] = {"cluster": cluster, **options} if cluster else {"run": run}
        try:
            for result in _sweeps().stream(checked, **where):
                done = len(result.rows)
                if result.done:
                    self.progress.clear()
                    self.writer().write_sweep(result)
                else:
                    left = (time.monotonic() - started) / done * (total - done)
                    self.progress.note(f"row {done} of {total}, about {left:.0f} s left")
        except (KeyboardInterrupt, PqlCancelled):
            self.progress.clear()
            raise Interrupted from None
        except PqlError as e:
            self.progress.clear()
            self.report(e.errors, source)
            raise ScriptError from None
        except ClusterError as e:
            self.progress.clear()
            self.stderr.write(f"pql: {e}\n")
            raise ScriptError from None

    def report(self, errors: list[PqlError], source: Source) -> None:
        prefix = f"pql: {source.name}: " if source.name else "pql: "
        for e in errors:
            self.stderr.write(prefix + e.rendered + "\n")
        self.stderr.flush()


@contextlib.contextmanager
def cancel_on_interrupt(query: Query) -> Iterator[None]:
    """While the block runs, the first SIGINT cancels ``query`` instead of raising
    KeyboardInterrupt (the next one raises it as usual). Only the main thread gets signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def cancel(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGINT, previous)
        # From a thread: the handler may run while this thread holds the query's lock.
        threading.Thread(target=query.cancel, daemon=True).start()

    # None when the handler was not set from Python: then Python's own is the one to restore.
    previous = signal.getsignal(signal.SIGINT) or signal.default_int_handler
    signal.signal(signal.SIGINT, cancel)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


#: A script reports at most this many errors, then how many more it found (as the engine does
#: within one text).
MAX_REPORTED = 50


def _error_count(errors: list[PqlError]) -> int:
    """How many errors ``errors`` stands for: the engine ends a capped list with a count."""
    import re  # noqa: PLC0415 (see the imports)

    last = errors[-1] if errors else None
    more = r"… and (\d+) more errors?"
    if last is not None and last.span is None and (m := re.fullmatch(more, last.message)):
        return len(errors) - 1 + int(m[1])
    return len(errors)


def _read_file(path: Path | str, depth: int = 0) -> Source:
    """A script named on the command line (``-``: stdin) or by `.read`; raises ``SessionError``."""
    if str(path) == "-":
        return _read_stdin("<stdin>")
    return Source(read_script(path, depth), str(path))


def _read_stdin(name: str | None) -> Source:
    """The statements on stdin, read as bytes so that what is not UTF-8 is named, not a
    traceback; at most ``SCRIPT_MAX_BYTES``. Raises ``SessionError``."""
    label = name or "<stdin>"
    try:
        data = read_stream_bounded(sys.stdin.buffer, SCRIPT_MAX_BYTES)
    except FileProblem as e:
        raise SessionError(f"cannot read '{label}': {e}") from None
    except OSError as e:
        raise SessionError(f"cannot read '{label}': {e.strerror or e}") from None
    return Source(decode_script(data, label), name)


def _command_source(text: str) -> Source:
    """A ``-c`` text. Python hands over bytes that are not UTF-8 as lone surrogates, which the
    engine cannot read: they are named here instead. Raises ``SessionError``."""
    raw = surrogate_bytes(text)
    if raw is not None:
        at = next(i for i, b in enumerate(raw) if b >= 0x80 and _not_utf8_at(raw, i))
        raise SessionError(f"-c: not UTF-8 text ({bad_byte(raw, at)})", "pass UTF-8 text")
    return Source(text)


def _not_utf8_at(data: bytes, i: int) -> bool:
    try:
        data[i:].decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start == 0
    return False


def run_scripts(session: Session, sources: list[Source], stdout: TextIO, stderr: TextIO) -> int:
    """Check every source, then run them in order; the exit code."""
    runner = ScriptRunner(session, stdout, stderr, progress=stderr.isatty())
    failed_writing = False
    try:
        try:
            plans = []
            failed = False
            for source in sources:
                try:
                    plans.append(runner.check(source))
                except ScriptError:
                    failed = True
            if failed:
                return EXIT_QUERY_ERROR
            if session.settings.output is not None:
                try:
                    runner.writer()  # an unwritable --output is a usage error, found before any run
                except SessionError as e:
                    stderr.write(f"pql: --output: {e}\n")
                    return EXIT_USAGE
            for source, plan in zip(sources, plans, strict=True):
                runner.run(source, plan)
                if runner.quit:
                    break
        except OSError:
            failed_writing = True
            raise
        finally:
            # After a failed write, closing may fail the same way: the first error is the one told.
            with contextlib.suppress(*((OSError,) if failed_writing else ())):
                runner.close_output()
    except ScriptError:
        return EXIT_QUERY_ERROR
    except SessionError as e:
        stderr.write(f"pql: {e}\n")
        return EXIT_QUERY_ERROR
    except (Interrupted, KeyboardInterrupt):
        stderr.write("pql: interrupted\n")
        return EXIT_INTERRUPTED
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            raise
        # Results could not be written (a full disk): say where, and stop.
        where = f"'{runner.destination.file.name}'" if runner.destination.file else "results to stdout"
        stderr.write(f"pql: cannot write {where}: {e.strerror or e}\n")
        _silence_stdout()
        return EXIT_QUERY_ERROR
    return EXIT_OK


def run_spreadsheet(
    session: Session, template_path: Path, rows_path: Path, stdout: TextIO, stderr: TextIO
) -> int:
    """Spreadsheet mode: every row of ``rows_path`` checked, then run in turn and written (as
    CSV, a row at a time) to ``--output`` or stdout; the exit code. Ctrl-C stops after the rows
    that are done (the row it interrupted is left out)."""
    from pql_repl import sheet  # noqa: PLC0415
    from pql_repl.output import csv_line  # noqa: PLC0415

    try:
        template = read_script(template_path)
        header, rows = sheet.read_rows(_read_file(rows_path).text, str(rows_path))
        queries = sheet.check_rows(template, header, rows, str(rows_path))
    except SessionError as e:
        stderr.write(f"pql: {e}\n")
        return EXIT_USAGE
    except sheet.SpreadsheetError as e:
        stderr.write(f"pql: {e}\n")
        return EXIT_QUERY_ERROR
    output = session.settings.output
    stream = open_output(output) if output else stdout
    done = 0
    end_progress = "\n" if stderr.isatty() else ""  # a message starts below the progress line
    try:
        run = _run_cancellable(session)
        for cells, results in sheet.run_checked(header, rows, queries, source=str(rows_path), run=run):
            if done == 0:
                stream.write(csv_line(header + sheet.result_header(results)))
            stream.write(csv_line(cells))
            stream.flush()
            done += 1
            if stderr.isatty():
                stderr.write(f"\rrow {done} of {len(rows)} (line {done + 1})")
                stderr.flush()
    except (Interrupted, PqlCancelled, KeyboardInterrupt):
        stderr.write(f"{end_progress}pql: interrupted after {done} of {len(rows)} rows\n")
        return EXIT_INTERRUPTED
    except sheet.SpreadsheetError as e:
        stderr.write(f"{end_progress}pql: {e}\n")
        return EXIT_QUERY_ERROR
    finally:
        if stream is not stdout:
            stream.close()
    if stderr.isatty():
        stderr.write("\n")
    return EXIT_OK


def _run_cancellable(session: Session) -> Callable[[Query], list[StatementResult]]:
    """Runs one statement with the session's options; Ctrl-C cancels it and raises
    ``Interrupted``."""
    options = session.run_options()

    def run(query: Query) -> list[StatementResult]:
        with cancel_on_interrupt(query):
            results = query.run(**options)
        if any(r.cancelled for r in results):
            raise Interrupted
        return results

    return run


def _sweeps() -> ModuleType:
    """The sweeps module, loaded when a statement has a sweep clause (a plain run starts faster
    without it)."""
    return importlib.import_module("pql_repl.sweeps")


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so what is left in its buffer does not fail again (with a
    message on stderr) when Python flushes it at exit."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


# ---------------------------------------------------------------------------------------------
# Interactive front ends (imported lazily: they pull in textual or prompt_toolkit)


def _start_plain(session: Session) -> int:
    try:
        repl = importlib.import_module("pql_repl.repl")
    except ImportError as e:
        sys.stderr.write(f"pql: the line REPL is not available ({e}); run a script with pql FILE\n")
        return EXIT_USAGE
    return int(repl.main(session))


def _start_app(session: Session) -> int:
    try:
        importlib.import_module("pql_repl.tui.app")
    except ImportError:
        return _start_plain(session)  # no full-screen app here; the line REPL may still work
    return int(importlib.import_module("pql_repl.tui").main(session))


# ---------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``pql`` command; returns the exit code."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # outside a run (a run reports it itself)
        sys.stderr.write("pql: interrupted\n")
        return EXIT_INTERRUPTED


def _bare_commands(argv: list[str]) -> SimpleNamespace | None:
    """The arguments of the commonest scripted use, ``pql -c TEXT [-c TEXT ...]`` and nothing
    else, read without argparse (which, with the re module it loads, costs that run a tenth of
    its start); None for any other command line, which argparse reads."""
    if not argv or len(argv) % 2 or any(flag != "-c" for flag in argv[::2]):
        return None
    texts = argv[1::2]
    if any(t.startswith("-") for t in texts):
        return None  # argparse's reading of option-like values decides
    return SimpleNamespace(command=texts, files=[], template=None, rows=None, plain=False, timer=False)


def _main(argv: list[str] | None) -> int:
    bare = _bare_commands(sys.argv[1:] if argv is None else argv)
    args: argparse.Namespace | SimpleNamespace
    if bare is not None:
        args = bare
    else:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as e:  # argparse exits on --help, --version and usage errors
            return e.code if isinstance(e.code, int) else EXIT_USAGE
    try:
        session = Session.from_config()
    except (ConfigError, SessionError) as e:
        sys.stderr.write(f"pql: config: {e}\n")
        return EXIT_USAGE
    _apply_options(session, args)

    try:
        sources = [_command_source(text) for text in args.command]
        sources.extend(_read_file(name) for name in args.files)
    except SessionError as e:
        sys.stderr.write(f"pql: {e}\n")
        return EXIT_USAGE

    if args.template is not None or args.rows is not None:
        if args.template is None or args.rows is None or sources or args.plain:
            build_parser().print_usage(sys.stderr)
            sys.stderr.write("pql: spreadsheet mode takes --template FILE and --rows CSV, not FILE or -c\n")
            return EXIT_USAGE
        from pathlib import Path  # noqa: PLC0415 (see the imports)

        return run_spreadsheet(session, Path(args.template), Path(args.rows), sys.stdout, sys.stderr)

    if args.plain:
        if sources:
            build_parser().print_usage(sys.stderr)
            sys.stderr.write("pql: --plain starts the interactive REPL; it takes no FILE or -c\n")
            return EXIT_USAGE
        return _start_plain(session)
    if not sources:
        if sys.stdin.isatty() and sys.stdout.isatty():
            return _start_app(session)
        if sys.stdin.isatty():
            sys.stderr.write("pql: reading statements from the terminal; end with Ctrl-D\n")
        try:
            sources = [_read_stdin(None)]
        except SessionError as e:
            sys.stderr.write(f"pql: {e}\n")
            return EXIT_USAGE

    try:
        return run_scripts(session, sources, sys.stdout, sys.stderr)
    except BrokenPipeError:
        # The reader went away (`pql ... | head`): stop quietly, and keep Python from
        # complaining when it flushes stdout on exit.
        _silence_stdout()
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
