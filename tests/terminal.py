"""A real terminal for end-to-end tests: the ``pql`` command in a pseudo-terminal, its output
drawn by pyte, keys sent as a terminal sends them.

    with Terminal(tmp_path, columns=80, lines=24) as term:
        term.wait_for("Welcome to pql")
        term.type("select avg(riverEquity(hero)) as eq from hero='AA', villain='KK';")
        term.send("enter")
        screen = term.wait_for("done ·")          # returns the screen that matched
        assert "eq" in screen

What it does:

- ``[sys.executable, "-m", "pql_repl.cli", *args]`` runs in a new session (its own process group)
  with a pty of ``columns`` x ``lines`` as stdin, stdout and stderr; the size is set on the pty
  before the process starts, and ``COLUMNS``/``LINES`` say it too. ``TERM=xterm-256color``.
- The user's files stay out of it: ``PQL_CONFIG`` names a file that does not exist
  (``tmp_path/none.toml``: every setting at its default) and ``PQL_DATA_DIR`` is
  ``tmp_path/data`` (history, the editor's saved text, named ranges). The process runs in
  ``tmp_path`` (``cwd``), so the app's Ctrl+S export lands there by default.
- A reader thread feeds every byte the process writes into a :class:`pyte.Screen` through a
  :class:`pyte.ByteStream`, under a condition variable that waiters re-check after each read.
- Terminal queries are answered as xterm would: a cursor position request (``ESC [ 6 n``,
  prompt_toolkit's) with the cursor's position on the pyte screen at that point of the output,
  device attributes (``ESC [ c``) with a VT220's, and Textual's query for synchronized output
  (``ESC [ ? 2026 $ p``) with "supported". Textual then brackets each frame in ``ESC [ ? 2026
  h``/``l``, and waits look at the screen only between frames: a condition never matches a
  half-drawn frame. Textual does not wait on any answer (it draws without them); prompt_toolkit
  waits up to a couple of seconds for its cursor position report.

Waiting: every wait is on a condition of the screen (:meth:`Terminal.wait_for`,
:meth:`Terminal.wait_until_gone`) with a deadline; on time-out the AssertionError shows the whole
screen. :meth:`Terminal.wait_stable` (the output idle for a short while, and optionally a
condition) is there for the rare step that has nothing to wait for; prefer explicit conditions.

Keys (:data:`KEYS`): ``send`` takes key names and text; ``type`` only text. Escape is sent as
``CSI 27 u`` (the kitty keyboard protocol's escape, which Textual asks the terminal for with
``CSI > 25 u`` and parses unambiguously) instead of a lone ``ESC``: a lone ``ESC`` is held by
Textual's parser for ``ESCDELAY`` (100 ms) and, if the next key arrives before that, the two are
read as one Alt+key. Under ``pql --plain`` (prompt_toolkit) a lone ESC is what works: pass
``raw_escape=True``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType

import pyte

#: Named keys and the bytes an xterm (with Textual's kitty keyboard flags, for Escape) sends.
KEYS: dict[str, str] = {
    "enter": "\r",
    "tab": "\t",
    "shift+tab": "\x1b[Z",
    "escape": "\x1b[27u",
    "space": " ",
    "backspace": "\x7f",
    "delete": "\x1b[3~",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "shift+up": "\x1b[1;2A",
    "shift+down": "\x1b[1;2B",
    "shift+right": "\x1b[1;2C",
    "shift+left": "\x1b[1;2D",
    "home": "\x1b[H",
    "end": "\x1b[F",
    "pageup": "\x1b[5~",
    "pagedown": "\x1b[6~",
    "f1": "\x1bOP",
    "f2": "\x1bOQ",
    "f3": "\x1bOR",
    "f4": "\x1bOS",
    "f5": "\x1b[15~",
    "f6": "\x1b[17~",
    "f7": "\x1b[18~",
    "f8": "\x1b[19~",
    "f9": "\x1b[20~",
    "f10": "\x1b[21~",
    "ctrl+enter": "\x1b[13;5u",
    "ctrl+space": "\x00",
}
# Ctrl+letter: the control characters 1..26 (Ctrl+C, Ctrl+S, Ctrl+Q … are bytes like any other
# once the app has put the terminal in raw mode).
KEYS.update({f"ctrl+{chr(c)}": chr(c - ord("a") + 1) for c in range(ord("a"), ord("z") + 1)})

#: Answers to the queries an application may write, keyed by the query.
_CURSOR_POSITION_REQUEST = b"\x1b[6n"
_DEVICE_ATTRIBUTES_REQUESTS = (b"\x1b[c", b"\x1b[0c")
_DEVICE_ATTRIBUTES = b"\x1b[?62;22c"  # a VT220 with ANSI colour
_SYNC_QUERY = b"\x1b[?2026$p"
_SYNC_SUPPORTED = b"\x1b[?2026;2$y"  # the mode is known and reset
_SYNC_BEGIN = b"\x1b[?2026h"
_SYNC_END = b"\x1b[?2026l"
_QUERIES = (_CURSOR_POSITION_REQUEST, *_DEVICE_ATTRIBUTES_REQUESTS, _SYNC_QUERY, _SYNC_BEGIN, _SYNC_END)
_SPECIAL = re.compile(b"|".join(re.escape(q) for q in _QUERIES))
#: The longest tail of a read that may be the start of a query split across two reads.
_LONGEST = max(len(q) for q in _QUERIES)

#: What a condition may be: text on the screen, a pattern searched in it, or a test of it.
Condition = str | re.Pattern[str] | Callable[[str], bool]

DEFAULT_TIMEOUT = 60.0
#: Bytes written to the pty at once (its input queue holds 4 KiB).
_WRITE_CHUNK = 256


class Terminal:
    """``pql`` running in a pseudo-terminal of ``columns`` x ``lines``, seen through pyte.

    A context manager: the process group is killed on exit (however the block ends).
    ``args`` are the command's arguments (``["--plain"]``, ``["--seed", "1"]``); ``env`` adds
    to (or, with a value of None, removes from) the environment.
    """

    def __init__(
        self,
        tmp_path: Path,
        columns: int = 80,
        lines: int = 24,
        *,
        args: Sequence[str] = (),
        env: dict[str, str | None] | None = None,
        raw_escape: bool = False,
        module: str = "pql_repl.cli",
    ) -> None:
        self.tmp_path = Path(tmp_path)
        #: What runs: ``python -m MODULE ARGS`` (``pql_repl.tui.served``: one session of pql serve).
        self.module = module
        self.columns = columns
        self.lines = lines
        self.args = list(args)
        self.data_dir = self.tmp_path / "data"
        self.raw_escape = raw_escape
        self._extra_env = dict(env or {})
        self._screen = pyte.Screen(columns, lines)
        self._stream = pyte.ByteStream(self._screen)
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self._carry = b""  # the start of a query cut by the end of a read
        self._in_frame = False  # between a synchronized update's begin and end
        self._eof = False
        self._last_output = time.monotonic()
        self._output = bytearray()  # everything written, for debugging (:meth:`raw`)
        self._process: subprocess.Popen[bytes] | None = None
        self._master = -1
        self._reader: threading.Thread | None = None

    # -- life -------------------------------------------------------------------------------

    def environment(self) -> dict[str, str]:
        env = {
            **os.environ,
            "TERM": "xterm-256color",
            "COLUMNS": str(self.columns),
            "LINES": str(self.lines),
            "PQL_CONFIG": str(self.tmp_path / "none.toml"),
            "PQL_DATA_DIR": str(self.data_dir),
            "PYTHONUNBUFFERED": "1",
        }
        for name in ("NO_COLOR", "TEXTUAL", "TEXTUAL_DRIVER", "PROMPT_TOOLKIT_NO_CPR"):
            env.pop(name, None)
        env["PAGER"] = "cat"  # pql --plain pages long output: never wait in a pager
        for name, value in self._extra_env.items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value
        return env

    def start(self) -> Terminal:
        """Start the process (the context manager does it)."""
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", self.lines, self.columns, 0, 0))
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", self.module, *self.args],
                stdin=slave,
                stdout=slave,
                stderr=slave,
                cwd=self.tmp_path,
                env=self.environment(),
                start_new_session=True,  # its own process group, killed whole at the end
                close_fds=True,
            )
        finally:
            os.close(slave)
        self._master = master
        self._reader = threading.Thread(target=self._read, name="terminal-reader", daemon=True)
        self._reader.start()
        return self

    def close(self) -> None:
        """Kill the process group and stop reading."""
        process = self._process
        if process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
        if self._reader is not None:
            self._reader.join(timeout=10)
        if self._master >= 0:
            with contextlib.suppress(OSError):
                os.close(self._master)
            self._master = -1

    def __enter__(self) -> Terminal:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def pid(self) -> int:
        assert self._process is not None, "not started"
        return self._process.pid

    def wait_exit(self, timeout: float = DEFAULT_TIMEOUT) -> int:
        """Wait for the process to end by itself; its exit code (AssertionError with the screen
        when it does not end in time)."""
        assert self._process is not None, "not started"
        try:
            code = self._process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running after {timeout:g} s\n{self._framed()}") from None
        if self._reader is not None:
            self._reader.join(timeout=10)  # the rest of its output is on the screen
        return code

    # -- output -----------------------------------------------------------------------------

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self._master, 65536)
            except OSError:  # EIO: the last process holding the pty's other side ended
                data = b""
            with self._cond:
                if not data:
                    self._eof = True
                    self._cond.notify_all()
                    return
                self._output += data
                self._last_output = time.monotonic()
                answers = self._feed(data)
                self._cond.notify_all()
            for answer in answers:  # not holding the lock: a write may wait for the app to read
                with contextlib.suppress(OSError, AssertionError):
                    self._write(answer)

    def _feed(self, data: bytes) -> list[bytes]:
        """Draw ``data``; the answers to the queries in it, each as it stands at the point of
        the output where its query comes."""
        data = self._carry + data
        self._carry = b""
        answers: list[bytes] = []
        at = 0
        for match in _SPECIAL.finditer(data):
            self._stream.feed(data[at : match.end()])
            at = match.end()
            answers += self._answer(match.group())
        rest = data[at:]
        # A query may be cut by the end of the read: keep a tail that may start one.
        cut = rest.rfind(b"\x1b", max(0, len(rest) - _LONGEST + 1))
        if cut >= 0 and any(q.startswith(rest[cut:]) for q in _QUERIES):
            rest, self._carry = rest[:cut], rest[cut:]
        self._stream.feed(rest)
        return answers

    def _answer(self, query: bytes) -> list[bytes]:
        if query == _CURSOR_POSITION_REQUEST:
            cursor = self._screen.cursor
            return [f"\x1b[{cursor.y + 1};{cursor.x + 1}R".encode()]
        if query in _DEVICE_ATTRIBUTES_REQUESTS:
            return [_DEVICE_ATTRIBUTES]
        if query == _SYNC_QUERY:
            return [_SYNC_SUPPORTED]
        self._in_frame = query == _SYNC_BEGIN  # else _SYNC_END
        return []

    def text(self) -> str:
        """The screen now (between two frames): its lines, trailing blanks cut, joined by
        newlines."""
        with self._cond:
            self._between_frames()
            return self._text()

    def _text(self) -> str:
        return "\n".join(line.rstrip() for line in self._screen.display)

    def _between_frames(self, timeout: float = 5.0) -> None:
        """(Holding the lock.) Wait, a little at most, for the frame being drawn to end."""
        deadline = time.monotonic() + timeout
        while self._in_frame and not self._eof and time.monotonic() < deadline:
            self._cond.wait(deadline - time.monotonic())

    def line(self, i: int) -> str:
        """Screen line ``i`` (0 is the top; -1 the bottom), trailing blanks cut."""
        with self._cond:
            self._between_frames()
            return str(self._screen.display[i]).rstrip()

    def colour(self, text: str) -> tuple[str, str] | None:
        """(foreground, background) of the first character of ``text`` where it first shows on
        the screen, as pyte names them (``"default"`` or hex, ``"ffaf00"``); None when it does
        not show. What the text of the screen cannot say, such as which panel has the focus
        (Textual draws a focused panel's border in the theme's accent colour)."""
        with self._cond:
            self._between_frames()
            for row in range(self.lines):
                cells = [self._screen.buffer[row][x] for x in range(self.columns)]
                chars = [(x, c.data) for x, c in enumerate(cells) if c.data]  # a wide char's 2nd cell is ""
                line = "".join(data for _, data in chars)
                at = line.find(text)
                if at >= 0:
                    cell = cells[chars[at][0]]
                    return str(cell.fg), str(cell.bg)
            return None

    def raw(self) -> bytes:
        """Every byte the process wrote so far."""
        with self._cond:
            return bytes(self._output)

    @property
    def cursor(self) -> tuple[int, int]:
        """(line, column) of the terminal's cursor, from 0."""
        with self._cond:
            return self._screen.cursor.y, self._screen.cursor.x

    @property
    def exited(self) -> bool:
        return self._process is not None and self._process.poll() is not None

    # -- input ------------------------------------------------------------------------------

    def _write(self, data: bytes, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Write ``data`` to the app's input, a little at a time as it reads (AssertionError
        when it reads nothing for ``timeout`` seconds: a write to a full pty would block)."""
        with self._write_lock:
            view = memoryview(data)
            while view:
                if not select.select([], [self._master], [], timeout)[1]:
                    with self._cond:
                        screen = self._framed()
                    raise AssertionError(f"the app read no input for {timeout:g} s\n{screen}")
                written = os.write(self._master, view[:_WRITE_CHUNK])
                view = view[written:]

    def send(self, *keys: str) -> None:
        """Press ``keys`` in order: each a name of :data:`KEYS` (``"enter"``, ``"f2"``,
        ``"ctrl+s"``; case does not matter) or else text, sent as it is typed.

        The keys go out at once, as a fast typist's would. Textual (8.2) runs the action of a
        key with a binding (Backspace, the arrows, Home, Ctrl+U …) only after the keys already
        queued behind it are handled, while a character is inserted at once: ``"ab"``,
        Backspace, ``"c"`` sent together leave ``ab`` in a TextArea, not ``ac``. Keys with
        bindings may follow each other; before text that depends on one, wait for the screen
        it leads to."""
        for key in keys:
            name = key.lower()
            if name == "escape" and self.raw_escape:
                self._write(b"\x1b")
            elif name in KEYS:
                self._write(KEYS[name].encode())
            else:
                self.type(key)

    def type(self, text: str) -> None:
        """Type ``text``; a newline in it is the Enter key (a terminal sends CR for it)."""
        self._write(text.replace("\r\n", "\r").replace("\n", "\r").encode())

    # -- waiting ----------------------------------------------------------------------------

    def wait_for(self, condition: Condition, timeout: float = DEFAULT_TIMEOUT) -> str:
        """Wait until the screen (between two frames) satisfies ``condition``: a text it holds,
        a pattern found in it, or a function of its text. Returns the screen text that did;
        raises AssertionError showing the screen when ``timeout`` seconds pass (or the process
        ends) first."""
        test = as_test(condition)
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                if not self._in_frame:
                    screen = self._text()
                    if test(screen):
                        return screen
                if self._eof:
                    raise AssertionError(
                        f"the process ended while waiting for {_describe(condition)}\n{self._framed()}"
                    )
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"timed out after {timeout:g} s waiting for {_describe(condition)}\n{self._framed()}"
                    )
                self._cond.wait(min(left, 0.5))

    def wait_until_gone(self, condition: Condition, timeout: float = DEFAULT_TIMEOUT) -> str:
        """Wait until ``condition`` no longer holds of the screen; returns that screen."""
        test = as_test(condition)

        def gone(screen: str) -> bool:
            return not test(screen)

        gone.__doc__ = f"{_describe(condition)} to be gone"
        return self.wait_for(gone, timeout)

    def wait_stable(
        self, condition: Condition | None = None, idle: float = 0.3, timeout: float = DEFAULT_TIMEOUT
    ) -> str:
        """Wait until ``condition`` (if any) holds and nothing has been written for ``idle``
        seconds (the screen stopped changing). Prefer :meth:`wait_for` on what should show."""
        test = as_test(condition) if condition is not None else (lambda _: True)
        called = time.monotonic()
        deadline = called + timeout
        with self._cond:
            while True:
                # Quiet since the call, too: what was just sent may not have been answered yet.
                quiet = time.monotonic() - max(self._last_output, called)
                if not self._in_frame and quiet >= idle:
                    screen = self._text()
                    if test(screen):
                        return screen
                if self._eof:
                    raise AssertionError(f"the process ended while waiting\n{self._framed()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    what = _describe(condition) if condition is not None else "a quiet screen"
                    raise AssertionError(
                        f"timed out after {timeout:g} s waiting for {what}\n{self._framed()}"
                    )
                self._cond.wait(min(left, max(0.01, idle - quiet) if quiet < idle else 0.5))

    def _framed(self) -> str:
        rule = "-" * self.columns
        exited = ""
        if self._process is not None and self._process.poll() is not None:
            exited = f" (process exited with {self._process.returncode})"
        return f"screen {self.columns}x{self.lines}{exited}:\n{rule}\n{self._text()}\n{rule}"


def as_test(condition: Condition) -> Callable[[str], bool]:
    """``condition`` as a test of the screen's text."""
    if isinstance(condition, str):
        return lambda screen: condition in screen
    if isinstance(condition, re.Pattern):
        return lambda screen: condition.search(screen) is not None
    return condition


def _describe(condition: Condition) -> str:
    if isinstance(condition, str):
        return repr(condition)
    if isinstance(condition, re.Pattern):
        return f"/{condition.pattern}/"
    doc = getattr(condition, "__doc__", None)
    return doc.strip() if doc else getattr(condition, "__name__", "a condition")


# -- reading what pql's full-screen app draws ---------------------------------------------------


def status(prefix: str) -> Callable[[str], bool]:
    """The app's status line (under the editor, or under the results history) starts with
    ``prefix``: ``status("done ·")``, ``status("error:")``, ``status("seed 7")``."""

    def test(screen: str) -> bool:
        return any(line.startswith(" " + prefix) for line in screen.splitlines())

    test.__doc__ = f"the status line {prefix!r}"
    return test


def editor_empty(screen: str) -> bool:
    """The editor (the box at the top) holds no text: its first line is the bare line number."""
    lines = screen.splitlines()
    return (
        len(lines) > 2
        and re.match(r"│ 1 +│", lines[1]) is not None
        and re.match(r"│ +│", lines[2]) is not None
    )


def all_of(*conditions: Condition) -> Callable[[str], bool]:
    """Every one of ``conditions`` holds of the same screen."""
    tests = [as_test(c) for c in conditions]

    def test(screen: str) -> bool:
        return all(t(screen) for t in tests)

    test.__doc__ = " and ".join(_describe(c) for c in conditions)
    return test


def shows(text: str) -> Callable[[str], bool]:
    """``text`` shows on the screen, perhaps wrapped over lines of a box (its blanks, line ends
    and box edges are not compared): what was typed, in the editor."""
    squeezed = re.sub(r"[\s│]", "", text)

    def test(screen: str) -> bool:
        return squeezed in re.sub(r"[\s│]", "", screen)

    test.__doc__ = f"{text!r} shown"
    return test
