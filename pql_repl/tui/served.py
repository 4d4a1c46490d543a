"""One browser tab's app under ``pql serve``: textual-serve starts this module once per connection
(``python -m pql_repl.tui.served``), with the session's bounds and the server's folder of
sessions on its command line.

The session keeps its history, editor text and named ranges in a folder of its own inside the
server's (``PQL_DATA_DIR``), removed when the app ends, and its dot-commands are checked against
``ServedBounds`` (``session/served.py``): nothing its user types reaches the server's files."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile

from pql_repl.files.config import ConfigError
from pql_repl.session.served import FOLDER_PREFIX, ServedBounds
from pql_repl.session.session import Session
from pql_repl.session.settings import SessionError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m pql_repl.tui.served", description=__doc__)
    parser.add_argument("--threads", type=int, required=True, help="worker threads of each run")
    parser.add_argument("--seconds", type=float, required=True, help="seconds each statement may run")
    parser.add_argument("--sessions-dir", required=True, help="the server's folder of session folders")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    folder = tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-", dir=args.sessions_dir)
    try:
        os.environ["PQL_DATA_DIR"] = folder  # history, the editor's text, ranges.json: here only
        try:
            session = Session.from_config()
        except (ConfigError, SessionError) as e:
            sys.stderr.write(f"pql: config: {e}\n")
            return 2
        bounds = ServedBounds(threads=max(1, args.threads), seconds=args.seconds)
        bounds.apply(session.settings)
        session.served = bounds
        from pql_repl.tui.app import PqlApp  # noqa: PLC0415 (after PQL_DATA_DIR is set)

        PqlApp(session).run()
        return 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
