"""The server of ``pql serve``: textual-serve's ``Server``, which starts one app process per
browser connection, with the number of sessions bounded and each session's folder accounted for.

A connection past the bound gets a line saying so and no process. Each app process makes its
folder inside the server's folder of sessions and removes it when it ends
(``tui/served.py``); after every connection the server removes the folders whose process is
gone (one killed before it could), and the whole folder when it stops."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from aiohttp import web
from textual_serve.server import Server

from pql_repl.session.served import folder_owner
from pql_repl.web.options import is_loopback

#: How long Ctrl+C waits for the sessions' apps to end.
SHUTDOWN_SECONDS = 10

#: Where the app processes of the served sessions are started from.
APP_MODULE = "pql_repl.tui.served"


def session_threads(sessions: int) -> int:
    """Each session's worker threads: an equal share of the machine's cores, at least one."""
    return max(1, (os.cpu_count() or 1) // sessions)


def app_command(threads: int, seconds: float, sessions_dir: str) -> str:
    """The shell command textual-serve runs for each connection (``-P``: the folder the server
    was started in is not searched for modules)."""
    words = [sys.executable, "-P", "-m", APP_MODULE, "--threads", str(threads)]
    words += ["--seconds", repr(seconds), "--sessions-dir", sessions_dir]
    return shlex.join(words)


def remove_abandoned(sessions_dir: str) -> None:
    """Remove the session folders whose process has ended (one killed leaves its folder)."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(sessions_dir):
            pid = folder_owner(entry.name)
            if pid is not None and not _alive(pid):
                shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class PqlServer(Server):
    """textual-serve's server with at most ``sessions`` app processes at once."""

    def __init__(
        self,
        *,
        host: str,
        port: int,
        sessions: int,
        seconds: float,
        public_url: str | None,
        sessions_dir: str,
    ) -> None:
        self.sessions = sessions
        self.seconds = seconds
        self.threads = session_threads(sessions)
        self.sessions_dir = sessions_dir
        #: Connections with an app process now.
        self.open_sessions = 0
        #: The handlers of the open connections, ended when the server stops (a websocket left
        #: open would hold the stop until its heartbeat fails).
        self._connections: set[asyncio.Task[object]] = set()
        super().__init__(
            app_command(self.threads, seconds, sessions_dir),
            host=host,
            port=port,
            title="pql",
            public_url=public_url,
        )

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        task = asyncio.current_task()
        if task is not None:
            self._connections.add(task)
        try:
            if self.open_sessions >= self.sessions:
                return await self._turn_away(request)
            self.open_sessions += 1
            try:
                return await super().handle_websocket(request)
            finally:
                self.open_sessions -= 1
                remove_abandoned(self.sessions_dir)
        finally:
            self._connections.discard(task)

    async def on_shutdown(self, app: web.Application) -> None:
        """Ctrl+C: every connection ends now, its app told to quit (textual-serve's own ending
        of a connection), and the stop waits for them."""
        connections = list(self._connections)
        for task in connections:
            task.cancel()
        if connections:
            await asyncio.wait(connections, timeout=SHUTDOWN_SECONDS)

    async def _turn_away(self, request: web.Request) -> web.WebSocketResponse:
        """A connection past the bound: the page says why, and no process starts. The socket
        stays open (so the page shows the words, not "Session ended") until the tab goes."""
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        noun = "session is" if self.sessions == 1 else "sessions are"
        await websocket.send_bytes(
            (
                f"\r\n  pql serve: all {self.sessions} {noun} in use.\r\n"
                "  Close another pql tab, then reload this page.\r\n"
            ).encode()
        )
        async for _ in websocket:
            pass  # its keys go nowhere
        return websocket

    async def on_startup(self, app: web.Application) -> None:
        noun = "thread" if self.threads == 1 else "threads"
        sessions = "session" if self.sessions == 1 else "sessions"
        self.console.print(
            f"pql serve: {self.public_url}  (Ctrl+C stops)\n"
            f"  at most {self.sessions} {sessions} at once, each with {self.threads} {noun}, "
            f"each statement at most {self.seconds:g} s\n"
            "  Anyone who can reach this address can run queries on this machine.",
            highlight=False,
            markup=False,
        )


def serve(args: argparse.Namespace) -> int:
    """Serve until Ctrl+C (or SIGTERM); the exit code."""
    if not is_loopback(args.host):
        sys.stderr.write(
            f"pql serve: warning: --host {args.host} is not this machine's loopback address: anyone "
            "who can reach it can run queries on this machine\n"
        )
    sessions_dir = tempfile.mkdtemp(prefix="pql-serve-")
    server = PqlServer(
        host=args.host,
        port=args.port,
        sessions=args.sessions,
        seconds=args.run_seconds,
        public_url=args.public_url,
        sessions_dir=sessions_dir,
    )
    try:
        server.serve()
    except OSError as e:  # the port is taken, the address is not this machine's
        sys.stderr.write(f"pql serve: cannot listen on {args.host}:{args.port}: {e.strerror or e}\n")
        return 2
    finally:
        remove_abandoned(sessions_dir)
        shutil.rmtree(Path(sessions_dir), ignore_errors=True)
    return 0
