"""Running statements from ``-c``, files and pipes: every statement checked before the first runs,
each run with a progress line on a terminal, Ctrl-C stopping the run and keeping what it
computed, results written as they end."""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import time

from pql_repl.api.numbers import count_unit, format_trials
from pql_repl.api.output import Destination, OutputError, ResultWriter
from pql_repl.api.results import DEFAULT_TRIALS, StatementResult
from pql_repl.api.run import Query
from pql_repl.base.errors import ClusterError, PqlCancelled, PqlError
from pql_repl.base.limits import SCRIPT_MAX_BYTES
from pql_repl.base.records import record
from pql_repl.cli.options import EXIT_INTERRUPTED, EXIT_OK, EXIT_QUERY_ERROR, EXIT_USAGE
from pql_repl.files.storage import FileProblem, bad_byte, read_stream_bounded, surrogate_bytes
from pql_repl.session.command_result import OddsRequest
from pql_repl.session.interrupt import RowRunner as SharedRowRunner
from pql_repl.session.interrupt import cancel_on_interrupt
from pql_repl.session.session import Session
from pql_repl.session.settings import (
    SessionError,
)
from pql_repl.session.statements import (
    DotCommand,
    Statement,
    decode_script,
    iter_statements,
    read_script,
)

# argparse, re, pathlib and typing are loaded where used: `pql -c` starts on every run, and
# they would cost it a fifth of its start (see `bare_commands`).
TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    from pathlib import Path
    from types import ModuleType
    from typing import Any, TextIO

    from pql_repl.api.sweeps import CheckedSweep


PROGRESS_DELAY = 0.5


class Interrupted(Exception):
    """Ctrl-C stopped the run (the running statement was cancelled)."""


class ScriptError(Exception):
    """A statement or dot-command failed; the message is already printed."""


# ---------------------------------------------------------------------------------------------
# Command line


class ProgressLine:
    """``\\r``-updated progress (trials, share done, trials/s; an enumeration's deals and
    deals/s) on a terminal's stderr, shown only once a statement has run for
    ``PROGRESS_DELAY`` seconds, and erased when it ends."""

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
        text = f"{format_trials(snap)}  {100 * snap.progress:5.1f}%  {_si(rate)} {count_unit(snap)}/s"
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

    def check(
        self, source: Source, shadow: Session | None = None
    ) -> list[Statement | DotCommand | CheckedSweep]:
        """Parse and check every statement of ``source`` (every row of a sweep) before anything
        runs, so a mistake at the end of a long script costs no simulation time. Each statement
        is checked against the session it will run in: the dot-commands before it that change
        checking (``.define``, ``.observe``) are replayed on a shadow session, which writes
        nothing. A statement is compiled again when it runs (nothing compiled is kept: a long
        script's memory is that of one statement). ``shadow``: the one checking the scripts run
        before this one (None: a new one). Prints the errors it finds, and stops at the first
        statement after ``MAX_REPORTED`` of them, saying where."""
        plan: list[Statement | DotCommand | CheckedSweep] = []
        shadow = shadow or self.session.shadow()
        found = 0
        for item in iter_statements(source.text):
            if found >= MAX_REPORTED:
                # Enough to fix first: the rest is not read (400,000 wrong statements took 13 s).
                self._more_errors(found, source)
                prefix = f"pql: {source.name}: " if source.name else "pql: "
                self.stderr.write(
                    f"{prefix}checking stopped at line {item.line:,}: the rest is not checked\n"
                )
                self.stderr.flush()
                raise ScriptError
            try:
                plan.append(shadow.plan(item, source.text))
            except PqlError as e:
                # Like the engine within one text: at most MAX_REPORTED errors, then a count.
                shown = e.errors[: max(0, MAX_REPORTED - found)]
                found += _error_count(e.errors)
                if shown:
                    self.report(shown, source)
        self._more_errors(found, source)
        if found:
            raise ScriptError
        return plan

    def _more_errors(self, found: int, source: Source) -> None:
        """How many errors were found beyond those shown, if any."""
        if found > MAX_REPORTED:
            prefix = f"pql: {source.name}: " if source.name else "pql: "
            self.stderr.write(f"{prefix}… and {found - MAX_REPORTED} more errors\n")
            self.stderr.flush()

    def run(self, source: Source, plan: list[Statement | DotCommand | CheckedSweep], depth: int = 0) -> None:
        for item in plan:
            if self.quit:
                return
            if isinstance(item, DotCommand):
                self.command(item, source, depth)
            elif isinstance(item, Statement):
                self.statement(item, source)
            else:
                self.sweep(item, source)

    def command(self, item: DotCommand, source: Source, depth: int) -> None:
        try:
            result = self.session.handle(item.text)
            if result.changed & {"output", "format"}:
                self.writer()  # open the new destination now, so a bad path fails here
            if result.output:
                # CSV and JSON are read by programs: a command's words go beside them, to stderr.
                machine = self.session.settings.format in ("csv", "json")
                stream = self.stderr if machine else self.destination.stream
                stream.write(result.output + "\n")
                stream.flush()
            if result.odds is not None:
                self.odds(result.odds)
            if result.quit:
                self.quit = True
            if result.read is not None:
                sub = read_file(result.read, depth)
                self.run(sub, self.check(sub), depth + 1)
        except (SessionError, PqlError) as e:
            # A dot-command's errors have no position in the script; name its line instead.
            where = f"{source.name + ': ' if source.name else ''}line {item.line}: "
            text = e.message if isinstance(e, PqlError) else str(e)
            if isinstance(e, PqlError) and e.hint:
                text += f"\n  hint: {e.hint}"
            self.stderr.write(f"pql: {where}{text}\n")
            raise ScriptError from None

    def odds(self, request: OddsRequest) -> None:
        """`.odds`: the odds view's rows written as each is done, or one count's report. Ctrl-C
        cancels: the rows done are kept and the script stops, as for a statement."""
        from pql_repl.api.multi_odds import (  # noqa: PLC0415 (with .odds only)
            TABLE_LEGEND,
            OddsRun,
            OddsTableRun,
            format_odds,
            table_header,
            table_row,
            table_title,
        )

        options = self.session.run_options()
        how: dict[str, Any] = {
            "trials": options["trials"] or DEFAULT_TRIALS,
            "seed": options["seed"],
            "threads": options["threads"],
            "time_limit": options["time_limit"],
        }
        stream = self.destination.stream
        try:
            if isinstance(request.opponents, range):
                table = OddsTableRun(request.hand, request.board, request.opponents, **how)
                stream.write(
                    table_title(table.hand, table.board, table.counts) + "\n" + table_header() + "\n"
                )
                stream.flush()
                written = 0
                with cancel_on_interrupt(table):
                    for snap in table:
                        # A row is written once done (its run over), before the next row starts.
                        done = len(snap.rows) if snap.rows[-1].done else len(snap.rows) - 1
                        for row in snap.rows[written:done]:
                            stream.write(table_row(row) + "\n")
                            stream.flush()
                        written = max(written, done)
                stream.write(TABLE_LEGEND + "\n")
            else:
                run = OddsRun(request.hand, request.board, request.opponents, **how)
                last = None
                with cancel_on_interrupt(run):
                    for one in run:
                        last = one
                if last is not None:
                    stream.write(format_odds(last) + "\n")
            stream.flush()
        except (KeyboardInterrupt, PqlCancelled):
            stream.flush()
            self.stderr.write("pql: .odds cancelled; the rows above were computed\n")
            raise Interrupted from None

    def statement(self, item: Statement, source: Source) -> None:
        options = self.session.run_options()
        self.progress.start()
        try:
            query = self.session.prepare(item, source.text)
        except PqlError as e:  # the session changed since the check in a way it could not see
            self.report(e.errors, source)
            raise ScriptError from None
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
        """A sweep's rows in turn, its table written at the end; the progress line counts rows.
        The first Ctrl-C stops the sweep: the row running is cancelled and left out, the rows
        done are written as the table (``k of N rows``), and the script stops."""
        options = self.session.run_options()
        total = len(checked.rows)
        started = time.monotonic()
        rows = RowRunner(self.session)
        self.progress.start()
        cluster = self.session.settings.cluster
        where: dict[str, Any] = {"cluster": cluster, **options} if cluster else {"run": rows}
        last = None
        # On a cluster a Ctrl-C interrupts the wait for the next row at once (the rows not run
        # are cancelled when the stream closes); here it stops the row that runs.
        stop = contextlib.nullcontext() if cluster else cancel_on_interrupt(rows)
        stream = _sweeps().stream(checked, **where)
        try:
            with stop:
                for last in stream:
                    done = len(last.rows)
                    if last.done:
                        self.progress.clear()
                        self.writer().write_sweep(last)
                    else:
                        left = (time.monotonic() - started) / done * (total - done)
                        self.progress.note(f"row {done} of {total}, about {left:.0f} s left")
        except (KeyboardInterrupt, PqlCancelled, Interrupted):
            stream.close()
            self.progress.clear()
            done = 0 if last is None else len(last.rows)
            if last is not None and not last.done:
                self.writer().write_sweep(last)
            raise Interrupted(f"after {done} of {total} rows") from None
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


def read_file(path: Path | str, depth: int = 0) -> Source:
    """A script named on the command line (``-``: stdin) or by `.read`; raises ``SessionError``."""
    if str(path) == "-":
        return read_stdin("<stdin>")
    return Source(read_script(path, depth), str(path))


def read_stdin(name: str | None) -> Source:
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


def command_source(text: str) -> Source:
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
            shadow = session.shadow()  # the scripts run one after another: checked so too
            for source in sources:
                try:
                    plans.append(runner.check(source, shadow))
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
    except (Interrupted, KeyboardInterrupt) as e:
        said = str(e) if isinstance(e, Interrupted) else ""
        stderr.write(f"pql: interrupted{' ' + said if said else ''}\n")
        return EXIT_INTERRUPTED
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            raise
        # Results could not be written (a full disk): say where, and stop.
        where = f"'{runner.destination.file.name}'" if runner.destination.file else "results to stdout"
        stderr.write(f"pql: cannot write {where}: {e.strerror or e}\n")
        silence_stdout()
        return EXIT_QUERY_ERROR
    return EXIT_OK


def _sweeps() -> ModuleType:
    """The sweeps module, loaded when a statement has a sweep clause (a plain run starts faster
    without it)."""
    return importlib.import_module("pql_repl.api.sweeps")


class RowRunner(SharedRowRunner):
    """The session's rows (``SharedRowRunner``), a stop raised as ``Interrupted``: the first
    Ctrl-C ends the script after the rows done."""

    def __init__(self, session: Session) -> None:
        super().__init__(session.run_options())

    def __call__(self, query: Query) -> list[StatementResult]:
        try:
            return super().__call__(query)
        except PqlCancelled:
            raise Interrupted from None


def silence_stdout() -> None:
    """Point stdout at /dev/null, so what is left in its buffer does not fail again (with a
    message on stderr) when Python flushes it at exit."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


# ---------------------------------------------------------------------------------------------
# Interactive front ends (imported lazily: they pull in textual or prompt_toolkit)
