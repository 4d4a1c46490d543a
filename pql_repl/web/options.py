"""``pql serve``'s options and its ``--help``, which says what serving means for the machine."""

from __future__ import annotations

import argparse
import ipaddress

from pql_repl.base.limits import SERVE_MAX_SESSIONS, SERVE_RUN_SECONDS, SERVE_SESSIONS

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000

SECURITY = """\
security:
  Anyone who can reach the address can run queries on this machine, with its
  CPU, as the user who started pql serve. The default, 127.0.0.1, is reachable
  from this machine only; --host 0.0.0.0 (or any other address) opens the app to
  the network, and is your explicit choice: put it behind a proxy with
  authentication if others can reach it.

  A served session cannot touch the server's files: .read, .output FILE and
  .cluster are refused; Ctrl+S downloads the results to the browser; the
  history, the editor's text and named ranges (.define) live in a folder of the
  session's own, removed when its tab closes. Each tab is its own session;
  closing it stops its runs.
"""


def _sessions(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if not 1 <= value <= SERVE_MAX_SESSIONS:
        raise argparse.ArgumentTypeError(f"{value}: from 1 to {SERVE_MAX_SESSIONS} sessions")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value}: a port is from 1 to 65535")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    if not 0 < value <= 24 * 3600:
        raise argparse.ArgumentTypeError(f"{text}: more than 0 and at most a day (86400)")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pql serve",
        description="Serve the full-screen app to web browsers (each tab its own session). "
        "Anyone who can reach the port can run queries on this machine.",
        epilog=SECURITY,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"the address to listen on ({DEFAULT_HOST}: this machine only; "
        "anything else lets others run queries here)",
    )
    parser.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"the port ({DEFAULT_PORT})")
    parser.add_argument(
        "--sessions",
        type=_sessions,
        default=SERVE_SESSIONS,
        metavar="N",
        help=f"browser tabs served at once; more are told to wait ({SERVE_SESSIONS}, "
        f"at most {SERVE_MAX_SESSIONS})",
    )
    parser.add_argument(
        "--run-seconds",
        type=_seconds,
        default=SERVE_RUN_SECONDS,
        metavar="S",
        help=f"seconds each statement of a session may run ({SERVE_RUN_SECONDS:g})",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use, when it is not http://HOST:PORT (behind a proxy)",
    )
    return parser


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to any interface
