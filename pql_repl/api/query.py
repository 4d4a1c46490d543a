"""A prepared program of statements run on this machine (``LocalQuery``): checked once, run any
number of times, its snapshots streamed as the engine computes; the pieces a cluster run is made
of (chunks, work items, merges).

The public ``Query`` (``pql_repl.api.run``) adds runs on a Dask cluster to it; the cluster's
workers run this class.
"""

from __future__ import annotations

import threading
import time

from pql_repl import _core
from pql_repl.api.options import (
    check_batch,
    check_exact,
    checked_options,
    resolve_macros,
    shown,
    text_argument,
    unicode_checked,
)
from pql_repl.api.precision import engine_precision
from pql_repl.api.results import DEFAULT_TRIALS, SIMULATE_TRIALS, Results, StatementInfo, StatementResult
from pql_repl.base.errors import (
    PqlArgumentError,
    PqlArgumentTypeError,
    PqlCancelled,
    PqlError,
    PqlSyntaxError,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Mapping
    from typing import Any


class LocalQuery:
    """A parsed and checked program of one or more statements, ready to run any number of times."""

    def __init__(
        self,
        text: str,
        *,
        origin: tuple[int, int] = (1, 1),
        macros: Mapping[str, str] | None = None,
        observations: list[tuple[str, str, str]] | None = None,
        time_limit: float | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        """``origin``: the line and column where ``text`` starts in a larger text (a statement of
        a script), so errors report lines and columns of that text. ``macros``: the named ranges
        (``$open``) its ranges may use, name -> range text (None: the user's, ``.define``).
        ``observations``: (player, action, street) seen at the table, which reweight the ranges
        of the simulate statements that seat the player (as their ``history=`` does).

        Checking releases the GIL and stops as a run does: ``PqlCancelled`` once ``stop()``
        answers true (it is asked a few times a second), a ``PqlRuntimeError`` at the statement
        past ``time_limit`` seconds, and Ctrl-C's ``KeyboardInterrupt`` on the main thread."""
        self.text = text_argument("text", text)
        self._origin = _checked_origin(origin)
        unicode_checked(text, PqlSyntaxError, self._origin)
        self._macros = resolve_macros(macros, text)
        self._observations = _checked_observations(observations)
        try:
            limit = checked_options(trials=None, seed=None, threads=None, time_limit=time_limit)["time_limit"]
            self._program = _core.Program(text, self._origin, self._macros, self._observations, limit, stop)
        except PqlError:
            raise
        except ValueError as e:  # an observation the engine cannot read (an unknown action)
            raise PqlArgumentError(f"observations: {e}") from None
        self._lock = threading.Lock()
        self._handle: Any = None
        self._cancelled = False

    @property
    def statements(self) -> list[StatementInfo]:
        return [
            StatementInfo(s["query"], s["game"], s["players"], s["selectors"], tuple(s["span"]), s["kind"])
            for s in self._program.statements()
        ]

    def stream(
        self,
        *,
        trials: int | None = None,
        seed: int | None = None,
        exact: bool | None = None,
        threads: int | None = None,
        time_limit: float | None = None,
        batch: float = 0.1,
        precision: float | str | None = None,
    ) -> Generator[StatementResult, None, None]:
        """Yield partial results about every ``batch`` seconds, statement after statement; the
        last snapshot of each statement has ``done`` set (and is the only one with the final
        trial count). ``cancel()`` stops the run from any thread: the snapshot of what was
        computed is yielded (``cancelled`` set), then ``PqlCancelled`` is raised.

        ``trials`` (None: 600,000 for a select statement, 10,000 for simulate) and ``threads`` are
        whole numbers of at least 1, ``seed`` one in ``0 .. 2**64 - 1``, ``time_limit`` a positive
        number of seconds (None: no limit), ``precision`` a standard error between 0 and 1 (stop
        once every selector's is below it), ``"auto"`` (that of ``pql_repl.api.precision``, for runs
        projected to take more than a few seconds) or None (every trial); other values raise
        ``ValueError`` (``TypeError`` for what is not a number) naming the argument, before
        anything runs."""
        checked = self.checked_options(
            trials=trials, seed=seed, threads=threads, time_limit=time_limit, exact=exact, precision=precision
        )
        check_batch(batch)
        return self._stream(**checked, exact=exact, batch=batch, precision=precision)

    def checked_options(
        self,
        *,
        trials: object,
        seed: object,
        threads: object,
        time_limit: object,
        exact: object,
        precision: object,
    ) -> dict[str, Any]:
        """The run options checked, as ``stream`` documents them, before anything runs (the
        numeric ones as the engine takes them); ``exact=True`` is refused when a statement is a
        ``simulate``, which always samples."""
        checked = checked_options(trials=trials, seed=seed, threads=threads, time_limit=time_limit)
        engine_precision(precision)  # type: ignore[arg-type]  # checked now, not when the generator first runs
        check_exact(exact)
        if exact is True:
            for info in self.statements:
                if info.kind == "simulate":
                    raise self._error_at(
                        (info.span[0], info.span[0] + len("simulate")),
                        "simulate always samples: exact=True (--exact, .exact on) applies to select "
                        "statements only; run it with exact None or False (.exact auto)",
                    )
        return checked

    def _error_at(self, span: tuple[int, int], message: str) -> PqlArgumentError:
        """A ``PqlArgumentError`` placed at ``span`` (bytes) of the text, with the line and column
        of the larger text it may come from."""
        before = self.text.encode()[: span[0]].decode(errors="replace")
        line = self._origin[0] + before.count("\n")
        col = len(before) - before.rfind("\n") if "\n" in before else self._origin[1] + len(before)
        rendered = f"line {line}, col {col}: {message}"
        return PqlArgumentError(message, line, col, span, None, rendered)

    def _stream(
        self,
        *,
        trials: int | None,
        seed: int | None,
        exact: bool | None,
        threads: int | None,
        time_limit: float | None,
        batch: float,
        precision: float | str | None,
    ) -> Generator[StatementResult, None, None]:
        # NaN or a negative interval: every snapshot as it comes.
        interval = batch if batch > 0 else 0.0
        self._cancelled = False
        target, after = engine_precision(precision)
        kinds = [s["kind"] for s in self._program.statements()]
        for index, kind in enumerate(kinds):
            n = trials if trials is not None else SIMULATE_TRIALS if kind == "simulate" else DEFAULT_TRIALS
            with self._lock:
                if self._cancelled:
                    raise cancelled_error()
                self._handle = self._program.start(
                    index, n, seed, exact, threads, time_limit, target, precision_after=after
                )
            handle = self._handle
            try:
                # The engine has news after every chunk of work; with an interval the wait
                # sleeps through it (a snapshot costs a dict and an object in Python) until the
                # run ends or the interval is up, then takes the latest.
                due = time.monotonic() + interval
                while True:
                    left = max(due - time.monotonic(), 0.0)
                    snap = handle.poll(left, True) if interval > 0 else handle.poll(0.1)
                    if snap is None:
                        due = time.monotonic() + interval
                        continue
                    if snap.get("precision_reached"):
                        snap["stopped_at_precision"] = target
                    result = StatementResult.from_dict(snap)
                    if result.done:
                        yield result
                        if result.cancelled:
                            raise cancelled_error()
                        break
                    # All the work merged: the final snapshot (done) follows at once.
                    if result.progress < 1.0:
                        yield result
                    due = time.monotonic() + interval
            finally:
                # A stream closed or abandoned early (or an exception, such as
                # KeyboardInterrupt, while waiting) must not leave the run computing.
                handle.cancel()

    # -- Runs cut into tasks of consecutive chunks or work items (``pql_repl.api.cluster``) --------

    def exact_layout(
        self, index: int, trials: int, exact: bool | None = None, layout: int = 1
    ) -> tuple[int, int, str] | None:
        """How statement ``index`` would run: ``None`` for Monte Carlo, or its exhaustive
        run's (work items, deals, why it enumerates), the items laid out as a run on ``layout``
        threads lays them out (a run on that many threads gives the merged items' answer)."""
        return self._program.exact_layout(index, trials, exact, layout)

    @staticmethod
    def monte_chunks(trials: int) -> int:
        """The chunks of a Monte Carlo run of ``trials`` trials (each dealt from its own stream)."""
        return int(_core.monte_chunks(trials))

    def run_chunks(
        self, index: int, *, trials: int, seed: int, lo: int, hi: int, threads: int | None = None
    ) -> list[Any]:
        """Chunks ``lo..hi`` of the Monte Carlo run of statement ``index`` with ``trials`` trials
        and ``seed``, run to the end here: each chunk's counts and aggregates (plain tuples)."""
        return list(self._program.run_chunks(index, trials, seed, lo, hi, threads))

    def run_items(
        self,
        index: int,
        *,
        trials: int,
        exact: bool | None,
        seed: int,
        lo: int,
        hi: int,
        layout: int,
        threads: int | None = None,
    ) -> list[Any]:
        """The work items at positions ``lo..hi`` of the order (``seed``) of the exhaustive run
        of statement ``index`` that ``exact_layout(index, trials, exact, layout)`` describes,
        run to the end here: each item's counts and aggregates (plain tuples)."""
        return list(self._program.run_items(index, trials, exact, seed, lo, hi, layout, threads))

    def merge_chunks(self, index: int, chunks: list[Any], seed: int, elapsed: float = 0.0) -> StatementResult:
        """The result of the run made of ``chunks`` (from ``run_chunks``, in any order): merged
        in chunk order, it is a one-thread local run's to the last bit."""
        return StatementResult.from_dict(self._program.merge_chunks(index, chunks, seed, elapsed))

    def merge_items(
        self,
        index: int,
        layout: tuple[int, int, str],
        items: list[Any],
        seed: int,
        elapsed: float = 0.0,
        *,
        end: bool = True,
    ) -> StatementResult:
        """The exhaustive run ``layout`` made of ``items`` (from ``run_items``, in any order):
        the items from the first position of the order on, as far as none is missing, merged
        as a local run on ``layout``'s thread count merges them (its answer to the last bit
        once all are in; an estimate with standard errors before). ``end``: the run ends here
        (a result, not a snapshot)."""
        done = self._program.merge_items(index, layout, items, seed, elapsed, end)
        return StatementResult.from_dict(done)

    def holdings(self, index: int = 0) -> dict[str, list[tuple[str, float]]] | None:
        """A simulate statement's players and their holdings with weights after reweighting
        (heaviest first); None for a select statement."""
        return self._program.holdings(index)

    def run(self, **options: Any) -> Results:
        """Run every statement to the end; the final result of each (a list, with
        ``to_pandas()``)."""
        stream = self.stream(**options)
        try:
            return Results(r for r in stream if r.done)
        finally:
            # On an exception the traceback would keep the generator (and its run) alive.
            stream.close()

    def cancel(self) -> None:
        """Stop the running statement (from any thread); later statements do not start."""
        with self._lock:
            self._cancelled = True
            if self._handle is not None:
                self._handle.cancel()


def _checked_origin(origin: object) -> tuple[int, int]:
    """``origin``: the 1-based (line, column) where the text starts in a larger one."""
    if (
        not isinstance(origin, tuple)
        or len(origin) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in origin)
    ):
        raise PqlArgumentTypeError(
            f"origin must be a (line, column) pair of whole numbers, not {shown(origin)}"
        )
    if not all(1 <= n <= _MAX_POSITION for n in origin):
        raise PqlArgumentError(
            f"origin's line and column must be from 1 to {_MAX_POSITION}, not {shown(origin)}"
        )
    return origin


def _checked_observations(observations: object) -> list[tuple[str, str, str]]:
    """``observations``: (player, action, street) triples of text, or None."""
    if observations is None:
        return []
    if isinstance(observations, list | tuple) and all(
        isinstance(o, tuple | list) and len(o) == 3 and all(isinstance(w, str) for w in o)
        for o in observations
    ):
        return [(o[0], o[1], o[2]) for o in observations]
    raise PqlArgumentTypeError(
        "observations must be a list of (player, action, street) texts such as "
        f"('villain', 'raise', 'flop'), or None, not {shown(observations)}"
    )


#: The greatest line or column an origin may name (the engine counts in 32 bits).
_MAX_POSITION = 2**31


def cancelled_error() -> Exception:
    return PqlCancelled("cancelled")


#: The engine counts trials and seeds in 64 bits.
