"""``pql serve``: the full-screen app in a web browser, one app process per browser tab, through
textual-serve (the optional ``web`` extra). Importing this package loads neither textual-serve
nor Textual; ``main`` does.

May use: ``base``, ``files``, ``api``, ``session``. Starts ``tui`` only as a separate process
(``python -m pql_repl.tui.served``), never by import. Only ``cli`` imports it.
"""

from __future__ import annotations

import importlib.util
import sys

INSTALL_HINT = "pip install 'pql-repl[web]'"


def main(argv: list[str]) -> int:
    """``pql serve [OPTIONS]``; the exit code."""
    from pql_repl.web.options import build_parser  # noqa: PLC0415

    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:  # --help, or a usage error argparse has reported
        return e.code if isinstance(e.code, int) else 2
    if importlib.util.find_spec("textual_serve") is None:
        sys.stderr.write(
            f"pql serve: the web extra is not installed (textual-serve is missing); install it with\n"
            f"  {INSTALL_HINT}\n"
        )
        return 2
    # A config every session would fail to start with is said here, once.
    from pql_repl.files.config import ConfigError  # noqa: PLC0415
    from pql_repl.session.session import Session  # noqa: PLC0415
    from pql_repl.session.settings import SessionError  # noqa: PLC0415

    try:
        Session.from_config()
    except (ConfigError, SessionError) as e:
        sys.stderr.write(f"pql serve: config: {e}\n")
        return 2
    from pql_repl.web.server import serve  # noqa: PLC0415

    return serve(args)
