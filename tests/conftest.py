"""Test-session setup shared by every test file."""

from __future__ import annotations

import signal

import pytest

# A test runner started in the background by a non-interactive shell inherits SIGINT ignored;
# Python then installs no KeyboardInterrupt handler, `_thread.interrupt_main()` does nothing,
# and the children the tests spawn (which inherit an ignored signal across exec) cannot be
# interrupted either. The Ctrl-C tests exercise pql's handling of SIGINT, so the session
# starts with Python's own handler, whatever started it.
signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test reads and writes its own data directory (named ranges, history), never the
    user's: a `.define` in the user's data would change what queries mean."""
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(autouse=True)
def _no_automatic_precision(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a run is projected to take longer than the REPLs' automatic precision waits for
    depends on the machine's speed: in-process tests never reach it unless they set
    ``precision.AUTO_AFTER_SECONDS`` themselves (``tests/test_precision.py``)."""
    from pql_repl.api import precision  # noqa: PLC0415

    monkeypatch.setattr(precision, "AUTO_AFTER_SECONDS", 1e12)
