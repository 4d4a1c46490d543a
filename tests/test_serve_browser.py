"""``pql serve`` in a real browser (issue 40, item 1): headless Chromium opens the page, a query
typed into it runs and its result is read back through the page (tests/browser.py), a second
tab is a session of its own that runs while the first is busy, closing a tab ends its session
and its run, Ctrl+S downloads to the browser, and the server stops cleanly.

Skipped, with the reason shown, only where no Chromium is installed (``.ci/run`` installs
Debian's ``chromium`` where it can)."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest

from pql_repl.session.served import folder_owner
from tests.browser import Browser, find_chromium
from tests.test_serve import Served

pytestmark = pytest.mark.skipif(
    find_chromium() is None,
    reason="no Chromium found (apt-get install chromium): pql serve not tried in a browser",
)

FIRST = "select avg(riverEquity(hero)) as heroeq from hero='AsAh', villain='KsKd';"
SECOND = "select avg(riverEquity(hero)) as queens from hero='QsQh', villain='JsJd';"
LONG = "select avg(riverEquity(hero)) as long from hero='AA', villain='KK';"


def running(pid: int) -> bool:
    """Whether process ``pid`` is still there and not only a zombie left for its parent."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def folders(path: Path, count: int, timeout: float = 30) -> list[Path]:
    """The session folders once there are ``count`` of them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = sorted(path.iterdir())
        if len(found) == count:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"{len(list(path.iterdir()))} session folders, not {count}")


def test_pql_serve_in_a_browser(tmp_path: Path) -> None:
    pytest.importorskip("textual_serve")
    server = Served(tmp_path, "--sessions", "2")
    url = f"http://127.0.0.1:{server.port}/"
    downloads = tmp_path / "downloads"
    downloads.mkdir()

    async def scenario() -> None:
        async with await Browser.start(1200, 700) as browser:
            await browser.send("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(downloads))
            first = await browser.open(url)
            await first.wait_for("Welcome to pql")
            await first.type(FIRST)
            await first.press_enter()
            await first.wait_for(re.compile(r"done · exact[\s\S]*heroeq\s+0\.8195"))  # the exact answer
            await first.screenshot(tmp_path / "first.png")
            (first_folder,) = await folders(server.sessions_dir(), 1)
            first_app = folder_owner(first_folder.name)
            assert first_app is not None

            # A second tab: a session of its own (its editor starts empty, not with the first's).
            second = await browser.open(url)
            screen = await second.wait_for("Welcome to pql")
            assert "heroeq" not in screen
            sessions = server.sessions_dir()
            await folders(sessions, 2)

            # The first tab starts a long run; the second runs its query meanwhile.
            for line in (".exact off", ".precision off", ".trials 1e12", LONG):
                await first.type(line)
                await first.press_enter()
            await first.wait_for(lambda s: re.search(r"long\s+0\.\d", s) is not None and "running ·" in s)
            await second.type(SECOND)
            await second.press_enter()
            await second.wait_for(re.compile(r"done ·[\s\S]*queens\s+0\.8\d"))
            assert "running ·" in await first.screen()  # still running there

            # Closing the running tab ends its session: its process and folder go, the run with them.
            await first.close()
            await folders(sessions, 1)
            deadline = time.monotonic() + 30
            while running(first_app) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert not running(first_app)

            # Ctrl+S in a served session: the browser downloads the results.
            await second.press("s", 83, modifiers=2)
            await second.wait_for("Download 1 result as")
            await second.press_enter()
            await second.wait_for("downloading 1 result as pql-results.csv")
            deadline = time.monotonic() + 20
            while not (downloads / "pql-results.csv").exists() and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert "queens" in (downloads / "pql-results.csv").read_text()

            # Ctrl+C with a tab still open: the server ends its session and stops, promptly.
            started = time.monotonic()
            stopped.append(await asyncio.get_running_loop().run_in_executor(None, server.stop))
            assert time.monotonic() - started < 15
            screen = await second.screen()
            assert "Session ended" in str(await second.evaluate("document.body.innerText")), screen

    stopped: list[tuple[int, str]] = []
    try:
        asyncio.run(scenario())
    finally:
        if not stopped:
            stopped.append(server.stop())
    ((code, err),) = stopped
    assert code == 0, err
    assert "Traceback" not in err, err
    assert list(tmp_path.glob("pql-serve-*")) == []  # the sessions' folders are gone
    assert (tmp_path / "first.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
