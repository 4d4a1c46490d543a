"""The ``pql`` command (docs/cli.md).

``pql`` alone starts the full-screen app on a terminal and reads statements from stdin
otherwise; ``pql --plain`` starts the line REPL; ``pql FILE ...`` and ``pql -c TEXT`` run
scripts. Results go to stdout (or ``--output``), everything else to stderr.

The terminal libraries are imported only when an interactive front end starts, so scripts start
fast: this module must not import textual or prompt_toolkit at module level.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from types import SimpleNamespace

from pql_repl.base.errors import PqlCancelled
from pql_repl.cli.options import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_QUERY_ERROR,
    EXIT_USAGE,
    apply_options,
    bare_commands,
    build_parser,
)
from pql_repl.cli.scripts import (
    Interrupted,
    RowRunner,
    command_source,
    read_file,
    read_stdin,
    run_scripts,
    silence_stdout,
)
from pql_repl.files.config import ConfigError
from pql_repl.files.storage import open_output
from pql_repl.session.interrupt import cancel_on_interrupt
from pql_repl.session.session import Session
from pql_repl.session.settings import (
    SessionError,
)
from pql_repl.session.statements import read_script

# argparse, re, pathlib and typing are loaded where used: `pql -c` starts on every run, and
# they would cost it a fifth of its start (see `bare_commands`).
TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    import argparse
    from pathlib import Path
    from typing import Protocol, TextIO

    class Cancellable(Protocol):
        """A run that another thread may cancel (a query, an odds run)."""

        def cancel(self) -> None: ...


def run_spreadsheet(
    session: Session, template_path: Path, rows_path: Path, stdout: TextIO, stderr: TextIO
) -> int:
    """Spreadsheet mode: every row of ``rows_path`` checked, then run in turn and written (as
    CSV, a row at a time) to ``--output`` or stdout; the exit code. The first Ctrl-C stops after
    the rows that are done (the row it interrupted is left out)."""
    from pql_repl.api import sheet  # noqa: PLC0415
    from pql_repl.api.output import csv_line  # noqa: PLC0415

    try:
        template = read_script(template_path)
        header, rows = sheet.read_rows(read_file(rows_path).text, str(rows_path))
        filled = sheet.check_rows(template, header, rows, str(rows_path), str(template_path))
    except SessionError as e:
        stderr.write(f"pql: {e}\n")
        return EXIT_USAGE
    except sheet.SheetFileError as e:
        stderr.write(f"pql: {e}\n")
        return EXIT_USAGE
    except sheet.SpreadsheetError as e:
        stderr.write(f"pql: {e}\n")
        return EXIT_QUERY_ERROR
    if not rows:
        stderr.write(f"pql: {rows_path}: no rows under the header: nothing to run\n")
        return EXIT_OK
    output = session.settings.output
    try:
        stream = open_output(output) if output else stdout
    except OSError as e:  # a folder that is not there, no permission: before any row runs
        stderr.write(f"pql: --output: cannot write to '{output}': {e.strerror or e}\n")
        return EXIT_USAGE
    done = 0
    end_progress = "\n" if stderr.isatty() else ""  # a message starts below the progress line
    code = EXIT_OK
    failed_writing = False
    runner = RowRunner(session)
    try:
        with cancel_on_interrupt(runner):
            for cells, results in sheet.run_checked(header, rows, filled, source=str(rows_path), run=runner):
                if done == 0:
                    stream.write(csv_line(header + sheet.result_header(results)))
                stream.write(csv_line(cells))
                stream.flush()
                done += 1
                if stderr.isatty():
                    stderr.write(f"\rrow {done} of {len(rows)} (line {done + 1})")
                    stderr.flush()
        if stream is not stdout:
            stream.close()
    except (Interrupted, PqlCancelled, KeyboardInterrupt):
        stderr.write(f"{end_progress}pql: interrupted after {done} of {len(rows)} rows\n")
        code = EXIT_INTERRUPTED
    except sheet.SpreadsheetError as e:
        stderr.write(f"{end_progress}pql: {e}\n")
        code = EXIT_QUERY_ERROR
    except BrokenPipeError:  # the reader went away (`pql ... | head`): stop quietly
        silence_stdout()
        return EXIT_OK
    except OSError as e:  # a full disk
        where = f"'{output}'" if output else "results to stdout"
        stderr.write(f"{end_progress}pql: cannot write {where}: {e.strerror or e}\n")
        code = EXIT_QUERY_ERROR
        failed_writing = True
    if stream is not stdout:
        with contextlib.suppress(OSError):  # after a failed write, closing may fail the same way
            stream.close()
    elif failed_writing:
        silence_stdout()  # what is left in stdout's buffer must not fail again at exit
    if code == EXIT_OK and stderr.isatty():
        stderr.write("\n")
    return code


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


def _serve(argv: list[str]) -> int:
    """``pql serve``: the app in web browsers (``pql_repl.web``, loaded only for it)."""
    return int(importlib.import_module("pql_repl.web").main(argv))


def _main(argv: list[str] | None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if words[:1] == ["serve"]:  # a script named serve runs as `pql ./serve`
        return _serve(words[1:])
    bare = bare_commands(words)
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
    apply_options(session, args)

    try:
        sources = [command_source(text) for text in args.command]
        sources.extend(read_file(name) for name in args.files)
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
            sources = [read_stdin(None)]
        except SessionError as e:
            sys.stderr.write(f"pql: {e}\n")
            return EXIT_USAGE

    try:
        return run_scripts(session, sources, sys.stdout, sys.stderr)
    except BrokenPipeError:
        # The reader went away (`pql ... | head`): stop quietly, and keep Python from
        # complaining when it flushes stdout on exit.
        silence_stdout()
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
