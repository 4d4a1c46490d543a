"""A headless Chromium driven through the Chrome DevTools protocol, for end-to-end tests of
``pql serve``: the page is opened as a user would open it, keys are typed into it, and what the
page's terminal shows is read back.

    async with Browser.start(tmp_path) as browser:
        tab = await browser.open("http://127.0.0.1:8000/")
        await tab.wait_for("Welcome to pql")
        await tab.type("select ...;")
        await tab.press_enter()
        screen = await tab.wait_for("done ·")

How the screen is read: before the page loads, a script wraps the page's ``WebSocket`` so that a
copy of every byte the server sends to the page's terminal (xterm.js, which draws on a canvas
and so keeps no text in the page) is kept in ``window.__pqlBytes``, and the size the page asks
for is kept in ``window.__pqlSize``. :meth:`Tab.screen` takes those bytes and draws them with
pyte at that size: the same bytes, in the same order, as xterm.js drew. Keys go through
Chromium's input events (``Input.insertText``, ``Input.dispatchKeyEvent``) into xterm.js's own
text area, which turns them into what it sends to the server, as for a real user.

The websocket client is aiohttp's (a dependency of textual-serve, which these tests need).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

import aiohttp
import pyte

#: Where Debian and others put Chromium (``chromium`` first: the package the CI installs).
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: Wraps the page's WebSocket before the page's own scripts run (see the module's doc).
SOCKET_HOOK = r"""
(() => {
  const Native = window.WebSocket;
  window.__pqlBytes = [];
  window.__pqlSize = null;
  function Hooked(url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    const match = /width=(\d+)&height=(\d+)/.exec(String(url));
    if (match) window.__pqlSize = {width: +match[1], height: +match[2]};
    socket.addEventListener("message", (event) => {
      if (typeof event.data !== "string") window.__pqlBytes.push(new Uint8Array(event.data));
    });
    const send = socket.send.bind(socket);
    socket.send = (data) => {
      try {
        const message = JSON.parse(data);
        if (message[0] === "resize") window.__pqlSize = message[1];
      } catch (e) {}
      return send(data);
    };
    return socket;
  }
  Hooked.prototype = Native.prototype;
  for (const key of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Hooked[key] = Native[key];
  window.WebSocket = Hooked;
})();
"""

#: Takes the bytes received since the last call, as base64, with the terminal's size.
TAKE_BYTES = r"""
(() => {
  const parts = window.__pqlBytes.splice(0);
  let total = 0;
  for (const part of parts) total += part.length;
  const all = new Uint8Array(total);
  let at = 0;
  for (const part of parts) { all.set(part, at); at += part.length; }
  let text = "";
  for (let i = 0; i < all.length; i += 8192) {
    text += String.fromCharCode.apply(null, all.subarray(i, i + 8192));
  }
  return JSON.stringify({data: btoa(text), size: window.__pqlSize});
})()
"""


def find_chromium() -> str | None:
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """A headless Chromium with one DevTools connection; a context manager that ends it."""

    def __init__(self, process: subprocess.Popen[bytes], profile: str, socket: Any, http: Any) -> None:
        self.process = process
        self.profile = profile
        self._socket = socket
        self._http = http
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, width: int = 1280, height: int = 800) -> Browser:
        chromium = find_chromium()
        if chromium is None:
            raise RuntimeError("no chromium here")
        profile = tempfile.mkdtemp(prefix="pql-chromium-")
        command = [
            chromium,
            "--headless=new",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-gpu",
            "--disable-dev-shm-usage",  # containers give /dev/shm little room
            "--disable-extensions",
            "--disable-background-networking",
            "about:blank",
        ]
        if os.geteuid() == 0:
            command.insert(1, "--no-sandbox")  # Chromium's sandbox refuses to run as root
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert process.stderr is not None
        address = await asyncio.wait_for(_devtools_address(process.stderr), timeout=30)
        http = aiohttp.ClientSession()
        socket = await http.ws_connect(address, max_msg_size=0)
        return cls(process, profile, socket, http)

    async def __aenter__(self) -> Browser:
        return self

    async def __aexit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        await self.close()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.send("Browser.close"), timeout=5)
        self._reader.cancel()
        with contextlib.suppress(BaseException):
            await self._reader
        await self._socket.close()
        await self._http.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    async def _read(self) -> None:
        async for message in self._socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            reply = message.json()
            waiter = self._waiting.pop(reply.get("id", -1), None)
            if waiter is not None and not waiter.done():
                waiter.set_result(reply)

    async def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        """One DevTools command; its result (raises on an error reply)."""
        ident = next(self._ids)
        waiter: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = waiter
        message: dict[str, Any] = {"id": ident, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        await self._socket.send_json(message)
        reply = await asyncio.wait_for(waiter, timeout=30)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return dict(reply.get("result", {}))

    async def open(self, url: str) -> Tab:
        """A new tab on ``url``, its socket watched from before the page's scripts run."""
        target = (await self.send("Target.createTarget", url="about:blank"))["targetId"]
        session = (await self.send("Target.attachToTarget", targetId=target, flatten=True))["sessionId"]
        await self.send("Page.enable", session)
        await self.send("Page.addScriptToEvaluateOnNewDocument", session, source=SOCKET_HOOK)
        await self.send("Page.navigate", session, url=url)
        return Tab(self, target, session)


async def _devtools_address(stderr: Any) -> str:
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, stderr.readline)
        if not line:
            raise RuntimeError("chromium ended before it listened")
        found = re.search(rb"DevTools listening on (ws://\S+)", line)
        if found:
            # Chromium goes on writing to stderr: keep reading it so it never blocks.
            loop.run_in_executor(None, _drain, stderr)
            return found.group(1).decode()


def _drain(stream: Any) -> None:
    with contextlib.suppress(Exception):
        while stream.read(65536):
            pass


#: What a wait may look for: text on the screen, a pattern, or a test of the screen's text.
Condition = str | re.Pattern[str] | Callable[[str], bool]


class Tab:
    """One page of the browser: keys in, the terminal's screen out."""

    def __init__(self, browser: Browser, target: str, session: str) -> None:
        self.browser = browser
        self.target = target
        self.session = session
        self._screen: pyte.Screen | None = None
        self._stream: pyte.ByteStream | None = None
        self.received = 0

    async def evaluate(self, expression: str) -> Any:
        reply = await self.browser.send(
            "Runtime.evaluate", self.session, expression=expression, returnByValue=True
        )
        return reply.get("result", {}).get("value")

    async def screen(self) -> str:
        """The terminal's text now, a line per row."""
        import json  # noqa: PLC0415

        taken = json.loads(await self.evaluate(TAKE_BYTES) or '{"data": "", "size": null}')
        size = taken["size"]
        if size is not None:
            columns, lines = int(size["width"]), int(size["height"])
            if self._screen is None:
                self._screen = pyte.Screen(columns, lines)
                self._stream = pyte.ByteStream(self._screen)
            elif (self._screen.columns, self._screen.lines) != (columns, lines):
                self._screen.resize(lines, columns)
        data = base64.b64decode(taken["data"])
        self.received += len(data)
        if self._screen is None or self._stream is None:
            return ""
        self._stream.feed(data)
        return "\n".join(self._screen.display)

    async def wait_for(self, condition: Condition, timeout: float = 30.0) -> str:
        """The screen once ``condition`` holds; AssertionError with the screen after ``timeout``."""
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = await self.screen()
            if _holds(condition, text):
                return text
            await asyncio.sleep(0.1)
        raise AssertionError(f"not on the page after {timeout:g} s: {condition!r}\n{text}")

    async def focus(self) -> None:
        await self.evaluate("document.querySelector('.xterm-helper-textarea').focus()")

    async def type(self, text: str) -> None:
        await self.focus()
        await self.browser.send("Input.insertText", self.session, text=text)

    async def press(self, key: str, code: int, text: str = "", modifiers: int = 0) -> None:
        """One key, down and up, as Chromium sends it to the page (``modifiers``: 2 is Ctrl)."""
        await self.focus()
        common = {"key": key, "code": key, "windowsVirtualKeyCode": code, "modifiers": modifiers}
        await self.browser.send("Input.dispatchKeyEvent", self.session, type="keyDown", text=text, **common)
        await self.browser.send("Input.dispatchKeyEvent", self.session, type="keyUp", **common)

    async def press_enter(self) -> None:
        await self.press("Enter", 13, "\r")

    async def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode((await self.browser.send("Page.captureScreenshot", self.session))["data"])
        path.write_bytes(data)
        return data

    async def close(self) -> None:
        await self.browser.send("Target.closeTarget", targetId=self.target)


def _holds(condition: Condition, text: str) -> bool:
    if isinstance(condition, str):
        return condition in text
    if isinstance(condition, re.Pattern):
        return condition.search(text) is not None
    return condition(text)
