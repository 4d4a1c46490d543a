"""``pql serve`` (issue 40, item 1) without a browser: a served session's refusals (each shown, in
the session and on the app's screen through a pty), its own folder removed when it ends, the
bound on sessions at the server, the warning for a non-loopback address, the message when the
web extra is missing. The browser itself: tests/test_serve_browser.py."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pql_repl.session.served import REFUSED, ServedBounds, folder_owner
from pql_repl.session.session import Session
from pql_repl.session.settings import SessionError, Settings
from pql_repl.web.options import is_loopback
from tests.terminal import Terminal

QUERY = "select avg(riverEquity(hero)) as heroeq from hero='$mine', villain='QQ';"


def served_session() -> Session:
    session = Session(Settings())
    session.served = ServedBounds(threads=2, seconds=30.0)
    return session


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (".read /etc/passwd", ".read is refused here"),
        (".read", ".read is refused here"),
        (".output /tmp/results.csv", ".output FILE is refused here"),
        (".cluster tcp://127.0.0.1:8786", ".cluster is refused here"),
        (".threads 64", "at most 2 threads"),
        (".threads auto", "at most 2 threads"),
        (".time_limit off", "at most 30 s"),
        (".timelimit 31", "at most 30 s"),
    ],
)
def test_a_served_session_refuses_what_reaches_the_server(line: str, says: str) -> None:
    session = served_session()
    with pytest.raises(SessionError, match=says):
        session.handle(line)
    assert session.settings.output is None
    assert session.settings.cluster is None


def test_a_served_session_keeps_what_stays_within_it() -> None:
    session = served_session()
    session.handle(".output stdout")
    session.handle(".threads 1")
    session.handle(".time_limit 10")
    assert (session.settings.threads, session.settings.time_limit) == (1, 10.0)
    # Outside a served session the same commands do what they always did.
    plain = Session(Settings())
    plain.handle(".threads 64")
    assert plain.settings.threads == 64


def test_the_servers_config_is_brought_within_the_bounds(tmp_path: Path) -> None:
    settings = Settings(threads=None, time_limit=None, output=str(tmp_path / "out.csv"), cluster="tcp://h:1")
    ServedBounds(threads=3, seconds=20.0).apply(settings)
    assert (settings.threads, settings.time_limit, settings.output, settings.cluster) == (3, 20.0, None, None)


def test_every_refusal_names_the_way_around() -> None:
    for message, hint in REFUSED.values():
        assert "refused here" in message
        assert hint


def test_loopback_addresses() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "[::1]", "127.1.2.3"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "192.168.1.5", "example.org"))


def test_an_abandoned_session_folder_is_removed(tmp_path: Path) -> None:
    from pql_repl.web.server import remove_abandoned  # noqa: PLC0415 (needs textual-serve)

    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    )
    dead, alive = tmp_path / f"session-{gone.stdout.strip()}-x", tmp_path / f"session-{os.getpid()}-y"
    for folder in (dead, alive):
        folder.mkdir()
        (folder / "history").write_text("x")
    (tmp_path / "other").mkdir()
    assert folder_owner(dead.name) == int(gone.stdout)
    remove_abandoned(str(tmp_path))
    assert not dead.exists()
    assert alive.exists()
    assert (tmp_path / "other").exists()


# -- the served app in a pty -------------------------------------------------------------------


def replace_input(term: Terminal, old: str, new: str) -> None:
    """The dialog's input holds ``new`` instead of ``old``, seen on the screen."""
    term.send("end", *["backspace"] * len(old))
    # Backspace's action runs after the keys queued behind it, and a character goes in at once:
    # wait for the input to be empty, not just for ``old`` to be gone (a part of it gone let the
    # new name in before the last backspaces, which then ate it).
    term.wait_for(re.compile(r"▊\s*▎"))
    term.type(new)
    term.wait_for(new)


@pytest.mark.parametrize(("columns", "lines"), [(80, 24), (150, 40)])
def test_the_served_app_refuses_and_keeps_its_files_in_its_own_folder(
    tmp_path: Path, columns: int, lines: int
) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    args = ["--threads", "1", "--seconds", "5", "--sessions-dir", str(sessions)]
    with Terminal(tmp_path, columns, lines, args=args, module="pql_repl.tui.served") as term:
        term.wait_for("Help")
        (folder,) = sessions.iterdir()
        assert folder_owner(folder.name) == term.pid
        for line, says in [
            (".read /etc/hostname", ".read is refused here"),
            (".output /tmp/pql-served.csv", ".output FILE is refused"),
            (".cluster tcp://127.0.0.1:8786", ".cluster is refused here"),
            (".threads 8", "at most 1 thread"),
            (".time_limit off", "stop after at most 5 s"),
        ]:
            term.type(line)
            term.send("enter")
            term.wait_for(says)
        # Named ranges work, in the session's folder only.
        term.type(".define $mine 'AA,KK'")
        term.send("enter")
        term.wait_for("$mine = AA,KK")
        assert "AA,KK" in (folder / "ranges.json").read_text()
        term.type(QUERY)
        term.send("enter")
        term.wait_for("done ·")
        # Ctrl+S asks for a name, not a place: the results download.
        term.send("ctrl+s")
        term.wait_for("Download 1 result as")
        replace_input(term, "pql-results.csv", "../elsewhere.csv")
        term.send("enter")
        term.wait_for("a name only")
        replace_input(term, "../elsewhere.csv", "mine.csv")
        term.send("enter")
        term.wait_for("downloading 1 result as mine.csv")
        # Under a terminal the delivery lands in the session's folder (in a browser only the name
        # travels); nowhere else.
        deadline = time.monotonic() + 30
        while not (folder / "mine.csv").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "heroeq" in (folder / "mine.csv").read_text()
        assert (folder / "history").exists()
        term.send("ctrl+q")
        assert term.wait_exit() == 0
    assert not Path("/tmp/pql-served.csv").exists()
    assert not (sessions / "elsewhere.csv").exists()
    assert not folder.exists()
    assert list(sessions.iterdir()) == []
    assert not (tmp_path / "data").exists()  # the user's data folder was never touched


# -- the server --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """``pql serve`` in a process of its own, stopped with Ctrl+C (SIGINT) at the end."""

    def __init__(self, tmp_path: Path, *args: str, host: str = "127.0.0.1") -> None:
        self.port = free_port()
        env = {
            **os.environ,
            "PQL_CONFIG": str(tmp_path / "none.toml"),
            "PQL_DATA_DIR": str(tmp_path / "data"),
        }
        env["TMPDIR"] = str(tmp_path)  # the server's folder of sessions goes here
        self.tmp_path = tmp_path
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-P",
                "-m",
                "pql_repl.cli",
                "serve",
                "--host",
                host,
                "--port",
                str(self.port),
                *args,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=tmp_path,
            start_new_session=True,
        )
        try:
            self._wait_until_listening()
        except BaseException:
            os.killpg(self.process.pid, signal.SIGKILL)  # a failed start leaves no server behind
            self.process.wait()
            raise

    def _wait_until_listening(self) -> None:
        assert self.process.stdout is not None
        self.banner = "".join(self.process.stdout.readline().decode() for _ in range(3))
        assert "pql serve: http://" in self.banner, self.banner
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise AssertionError(f"pql serve did not listen on {self.port} in 30 s")

    def sessions_dir(self) -> Path:
        (found,) = self.tmp_path.glob("pql-serve-*")
        return found

    def stop(self) -> tuple[int, str]:
        self.process.send_signal(signal.SIGINT)
        try:
            _, err = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            raise
        return self.process.returncode, err.decode()


async def first_bytes(port: int, http: object) -> tuple[object, bytes]:
    """A websocket as the page opens it, and its first bytes of terminal output."""
    import aiohttp  # noqa: PLC0415

    assert isinstance(http, aiohttp.ClientSession)
    socket_ = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24")
    message = await asyncio.wait_for(socket_.receive(), timeout=30)
    assert message.type == aiohttp.WSMsgType.BINARY, message
    return socket_, bytes(message.data)


def test_the_server_bounds_its_sessions_and_stops_cleanly(tmp_path: Path) -> None:
    pytest.importorskip("textual_serve")
    import aiohttp  # noqa: PLC0415

    # A package of the same name in the folder the server starts in is not what the tabs run.
    (tmp_path / "pql_repl").mkdir()
    (tmp_path / "pql_repl" / "__init__.py").write_text("raise SystemExit('a decoy was imported')\n")
    server = Served(tmp_path, "--sessions", "1")

    async def scenario() -> None:
        assert "at most 1 session at once" in server.banner
        assert "Anyone who can reach this address can run queries on this machine" in server.banner
        async with aiohttp.ClientSession() as http:
            first, data = await first_bytes(server.port, http)
            assert b"all 1 session" not in data  # the app draws
            deadline = time.monotonic() + 30
            while not list(server.sessions_dir().iterdir()) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert len(list(server.sessions_dir().iterdir())) == 1
            second, refused = await first_bytes(server.port, http)
            assert b"pql serve: all 1 session is in use" in refused
            assert len(list(server.sessions_dir().iterdir())) == 1  # no process for it
            await second.close()  # type: ignore[attr-defined]
            await first.close()  # type: ignore[attr-defined]
            # The first tab's app ends and its folder goes: the next tab gets a session.
            deadline = time.monotonic() + 30
            while list(server.sessions_dir().iterdir()) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert list(server.sessions_dir().iterdir()) == []
            third, data = await first_bytes(server.port, http)
            assert b"in use" not in data
            await third.close()  # type: ignore[attr-defined]

    try:
        asyncio.run(scenario())
    finally:
        code, err = server.stop()
    assert code == 0, err
    assert "Traceback" not in err
    assert list(tmp_path.glob("pql-serve-*")) == []


def test_a_non_loopback_host_is_warned_about(tmp_path: Path) -> None:
    pytest.importorskip("textual_serve")
    server = Served(tmp_path, host="0.0.0.0")
    code, err = server.stop()
    assert code == 0
    assert "--host 0.0.0.0 is not this machine's loopback address" in err
    assert "anyone who can reach it can run queries on this machine" in err


def test_serve_says_how_to_install_the_web_extra(tmp_path: Path) -> None:
    hide = (  # textual-serve as if not installed: None in sys.modules is "not importable"
        "import sys\n"
        "sys.modules['textual_serve'] = None\n"
        "from pql_repl.cli.main import main\n"
        "sys.exit(main(['serve']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", hide], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert "pip install 'pql-repl[web]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_help_says_who_can_run_queries() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pql_repl.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "Anyone who can reach the port can run queries on this machine" in text
    assert ".read, .output FILE and .cluster are refused" in text
    for bad in (["--port", "0"], ["--sessions", "0"], ["--run-seconds", "-1"]):
        wrong = subprocess.run(
            [sys.executable, "-m", "pql_repl.cli", "serve", *bad],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert wrong.returncode == 2
        assert "error: argument" in wrong.stderr


def test_a_config_no_session_could_start_with_is_said_at_once(tmp_path: Path) -> None:
    pytest.importorskip("textual_serve")
    config = tmp_path / "bad.toml"
    config.write_text("trials = 'many'\n")
    env = {**os.environ, "PQL_CONFIG": str(config), "PQL_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run(
        [sys.executable, "-m", "pql_repl.cli", "serve", "--port", str(free_port())],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("pql serve: config:")
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_said_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("textual_serve")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "PQL_CONFIG": str(tmp_path / "none.toml"), "TMPDIR": str(tmp_path)}
        done = subprocess.run(
            [sys.executable, "-m", "pql_repl.cli", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert f"pql serve: cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr
    assert list(tmp_path.glob("pql-serve-*")) == []
