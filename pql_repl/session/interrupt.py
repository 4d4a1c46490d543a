"""Ctrl-C as "stop this run": while a run goes on, the first SIGINT cancels it (the engine then
hands back what it computed, marked cancelled) instead of raising ``KeyboardInterrupt``; the next
one raises it as usual. The command's scripts and the notebook magic (a kernel's interrupt is a
SIGINT) both stop runs this way."""

from __future__ import annotations

import contextlib
import signal
import threading

from pql_repl.base.errors import PqlCancelled

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import FrameType
    from typing import Any, Protocol

    from pql_repl.api.results import StatementResult
    from pql_repl.api.run import Query

    class Cancellable(Protocol):
        """A run that another thread may cancel (a query, an odds run)."""

        def cancel(self) -> None: ...


@contextlib.contextmanager
def cancel_on_interrupt(query: Cancellable) -> Iterator[None]:
    """While the block runs, the first SIGINT cancels ``query`` instead of raising
    KeyboardInterrupt (the next one raises it as usual). Only the main thread gets signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def cancel(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGINT, previous)
        # From a thread: the handler may run while this thread holds the query's lock.
        threading.Thread(target=query.cancel, daemon=True).start()

    # None when the handler was not set from Python: then Python's own is the one to restore.
    previous = signal.getsignal(signal.SIGINT) or signal.default_int_handler
    signal.signal(signal.SIGINT, cancel)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class RowRunner:
    """Runs the rows of a sweep or a spreadsheet one after another with ``options``; ``cancel``
    (the first interrupt, under ``cancel_on_interrupt``) stops them all: the row running is
    cancelled and ``PqlCancelled`` raised in its place (even when the engine finished it anyway,
    as an exact row may), and no row starts after it. One handler for all the rows: an interrupt
    between two rows, or while a row ignores its cancel, is not lost."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.stopped = False
        self._running: Query | None = None
        self._lock = threading.Lock()

    def cancel(self) -> None:
        with self._lock:
            self.stopped = True
            running = self._running
        if running is not None:
            running.cancel()

    def __call__(self, query: Query) -> list[StatementResult]:
        with self._lock:
            if self.stopped:
                raise PqlCancelled("the sweep was stopped")
            self._running = query
        try:
            results: list[StatementResult] = query.run(**self.options)
        finally:
            with self._lock:
                self._running = None
        if self.stopped or any(r.cancelled for r in results):
            raise PqlCancelled("the sweep was stopped")
        return results
