"""The public query API: ``run``, ``prepare`` and the result classes (DESIGN.md §3 and §5).

The Rust core returns plain dicts in the JSON shape of DESIGN.md §5; this module gives them types.
"""

from __future__ import annotations

import math
import operator
import threading
import time
from collections import namedtuple

from pql_repl import _core, named_ranges
from pql_repl.errors import PqlCancelled, PqlError, PqlRangeError, PqlSyntaxError
from pql_repl.precision import engine_precision
from pql_repl.records import field, record, replace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from collections.abc import Generator, Mapping
    from typing import Any, NamedTuple

DEFAULT_TRIALS = 600_000
#: Trials of a ``simulate`` statement when none are asked for (SIMULATE.md).
SIMULATE_TRIALS = 10_000


if TYPE_CHECKING:

    class Bucket(NamedTuple):
        """One histogram row: the value's label, how many accepted trials had it, and their share.

        A named tuple, so both ``b.label`` and ``label, count, fraction = b`` (DESIGN.md §3) work."""

        label: str
        # Shadows tuple.count on purpose: the field's name is the contract (DESIGN.md §3).
        count: float  # type: ignore[assignment]
        fraction: float

else:  # the same named tuple without loading typing, which costs the command a tenth of its start
    Bucket = namedtuple("Bucket", ["label", "count", "fraction"])
    Bucket.__doc__ = "One histogram row: the value's label, how many accepted trials had it, and their share."


@record(frozen=True)
class Column:
    """One selector's result. ``value`` is the average (``avg``), the fraction of accepted trials
    (``count``), the extreme (``max``/``min``) or None (``histogram``, see ``buckets``)."""

    name: str
    selector: str
    value: float | str | None
    stderr: float | None = None
    count: float | None = None
    buckets: list[Bucket] = field(default_factory=list)
    #: Standard errors of the buckets' shares by label, when the engine knows them (an
    #: enumeration so far or cut short: see ``StatementResult.truncated``).
    bucket_stderrs: dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Column:
        return cls(
            name=d["name"],
            selector=d["selector"],
            value=d.get("value"),
            stderr=d.get("stderr"),
            count=d.get("count"),
            buckets=[Bucket(b["label"], b["count"], b["fraction"]) for b in d.get("buckets", [])],
            bucket_stderrs={
                b["label"]: b["stderr"] for b in d.get("buckets", []) if b.get("stderr") is not None
            },
        )

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "selector": self.selector}
        if self.selector == "histogram":
            d["buckets"] = [_bucket_dict(b, self.bucket_stderrs.get(b.label)) for b in self.buckets]
            return d
        d["value"] = self.value
        if self.selector == "count":
            d["count"] = None if self.count is None else _whole(self.count)
        if self.selector in ("avg", "count"):
            d["stderr"] = self.stderr
        return d


def _bucket_dict(bucket: Bucket, stderr: float | None) -> dict[str, Any]:
    d: dict[str, Any] = {"label": bucket.label, "count": _whole(bucket.count), "fraction": bucket.fraction}
    if stderr is not None:
        d["stderr"] = stderr
    return d


def _whole(count: float) -> float | int:
    """A count as an int when it is whole (the engine counts in floats: weights can make counts
    fractional), so JSON shows ``818`` rather than ``818.0`` (DESIGN.md §5)."""
    return int(count) if math.isfinite(count) and count == int(count) else count


@record(frozen=True)
class StatementResult:
    """The result of one statement, final or (while streaming) so far."""

    query: str
    game: str
    trials: int
    accepted: int
    attempted: int
    exact: bool
    seed: int | None
    elapsed: float
    columns: list[Column]
    index: int = 0
    done: bool = True
    cancelled: bool = False
    #: Share of the work done (0..1), for progress bars.
    progress: float = 1.0
    #: An exhaustive run cut short (time limit or cancel): ``exact`` is False, and the columns
    #: are estimates from the work items it finished, a random sample of them (the items go in
    #: a seeded random order), with standard errors.
    truncated: bool = False
    #: How many deals the whole enumeration has, for exhaustive runs (None for Monte Carlo).
    total_deals: int | None = None
    #: A function sampled inside some deal (an inner enumeration too large to do exactly,
    #: such as ``HvREquity`` against a wide range before the flop): an exhaustive run is then
    #: not ``exact``.
    inner_sampled: bool = False
    #: Why an exhaustive run enumerates: "asked", "small" or "fewer deals than trials" (None
    #: for Monte Carlo).
    enumerated_because: str | None = None
    #: Work items of an exhaustive run in its sample so far, and in the whole enumeration.
    items_done: int | None = None
    items_total: int | None = None
    #: "select", or "simulate" for a ``simulate`` statement, whose columns are its actions (the
    #: value an EV in chips, with its standard error).
    kind: str = "select"
    #: simulate: the action with the greatest EV (ties to the more aggressive).
    chosen: str | None = None
    #: simulate: the run stopped on an obvious move, after ``stopped_after`` trials.
    stopped_early: bool = False
    stopped_after: int | None = None
    #: simulate: the EV of the best action less the second best's, and that paired
    #: difference's standard error.
    gap: float | None = None
    gap_stderr: float | None = None
    #: The precision target a Monte Carlo run stopped at before its trials (every selector's
    #: standard error below it, see ``pql_repl.precision``); None when it ran them all.
    stopped_at_precision: float | None = None

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> StatementResult:
        return cls(
            query=d["query"],
            game=d["game"],
            trials=d["trials"],
            accepted=d["accepted"],
            attempted=d.get("attempted", d["trials"]),
            exact=d["exact"],
            seed=d.get("seed"),
            elapsed=d["elapsed_s"],
            columns=[Column.from_dict(c) for c in d["columns"]],
            index=d.get("index", 0),
            done=d.get("done", True),
            cancelled=d.get("cancelled", False),
            progress=d.get("progress", 1.0),
            truncated=d.get("truncated", False),
            total_deals=d.get("total_deals"),
            inner_sampled=d.get("inner_sampled", False),
            enumerated_because=d.get("enumerated_because"),
            items_done=d.get("items_done"),
            items_total=d.get("items_total"),
            kind=d.get("kind", "select"),
            chosen=d.get("chosen"),
            stopped_early=d.get("stopped_early", False),
            stopped_after=d.get("stopped_after"),
            gap=d.get("gap"),
            gap_stderr=d.get("gap_stderr"),
            stopped_at_precision=d.get("stopped_at_precision"),
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of DESIGN.md §5 for one statement, with ``truncated`` (an exhaustive
        run cut short), ``cancelled`` (a partial result: the run was stopped), ``inner_sampled``
        and, for exhaustive runs, ``total_deals``, ``enumerated_because``, ``items_done`` and
        ``items_total``."""
        d: dict[str, Any] = {
            "query": self.query,
            "game": self.game,
            "trials": self.trials,
            "accepted": self.accepted,
            "attempted": self.attempted,
            "exact": self.exact,
            "truncated": self.truncated,
            "cancelled": self.cancelled,
            "inner_sampled": self.inner_sampled,
            "seed": self.seed,
            "elapsed_s": round(self.elapsed, 6),
            "columns": [c.to_dict() for c in self.columns],
        }
        if self.kind == "simulate":
            d["kind"] = self.kind
            d["chosen"] = self.chosen
            d["stopped_early"] = self.stopped_early
            d["stopped_after"] = self.stopped_after
            d["gap"] = self.gap
            d["gap_stderr"] = self.gap_stderr
        if self.stopped_at_precision is not None:
            d["stopped_at_precision"] = self.stopped_at_precision
        if self.total_deals is not None:
            d["total_deals"] = self.total_deals
            d["enumerated_because"] = self.enumerated_because
            d["items_done"] = self.items_done
            d["items_total"] = self.items_total
        return d

    def column(self, name: str) -> Column:
        """The column called ``name`` (case-insensitive)."""
        for c in self.columns:
            if c.name.lower() == name.lower():
                return c
        raise KeyError(name)


@record(frozen=True)
class StatementInfo:
    """What checking found in one statement: its text, game, players and selector names."""

    query: str
    game: str
    players: list[str]
    #: A simulate statement's actions.
    selectors: list[str]
    span: tuple[int, int]
    kind: str = "select"


def resolve_macros(macros: Mapping[str, str] | None) -> dict[str, str]:
    """The named ranges a range may use: those given, or else the user's stored ones."""
    return named_ranges.load() if macros is None else dict(macros)


class Query:
    """A parsed and checked program of one or more statements, ready to run any number of times."""

    def __init__(
        self,
        text: str,
        *,
        origin: tuple[int, int] = (1, 1),
        macros: Mapping[str, str] | None = None,
        observations: list[tuple[str, str, str]] | None = None,
    ) -> None:
        """``origin``: the line and column where ``text`` starts in a larger text (a statement of
        a script), so errors report lines and columns of that text. ``macros``: the named ranges
        (``$open``) its ranges may use, name -> range text (None: the user's, ``.define``).
        ``observations``: (player, action, street) seen at the table, which reweight the ranges
        of the simulate statements that seat the player (as their ``history=`` does)."""
        self.text = text
        unicode_checked(text, PqlSyntaxError, origin)
        self._macros = resolve_macros(macros)
        self._observations = observations or []
        self._program = _core.Program(text, origin, self._macros, self._observations)
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
        cluster: Any = None,
    ) -> Generator[StatementResult, None, None]:
        """Yield partial results about every ``batch`` seconds, statement after statement; the
        last snapshot of each statement has ``done`` set (and is the only one with the final
        trial count). ``cancel()`` stops the run from any thread: the snapshot of what was
        computed is yielded (``cancelled`` set), then ``PqlCancelled`` is raised.

        ``trials`` (None: 600,000 for a select statement, 10,000 for simulate) and ``threads`` are
        whole numbers of at least 1, ``seed`` one in
        ``0 .. 2**64 - 1``, ``time_limit`` a positive number of seconds (None: no limit),
        ``precision`` a standard error between 0 and 1 (stop once every selector's is below it),
        ``"auto"`` (that of ``pql_repl.precision``, for runs projected to take more than a few
        seconds) or None (every trial); other values raise ``ValueError`` (``TypeError`` for
        what is not a number) naming the argument, before anything runs."""
        checked = _checked_options(trials=trials, seed=seed, threads=threads, time_limit=time_limit)
        engine_precision(precision)  # checked now, not when the generator first runs
        if cluster is not None:
            return self._stream_on_cluster(cluster, {**checked, "exact": exact, "precision": precision})
        return self._stream(**checked, exact=exact, batch=batch, precision=precision)

    def _stream_on_cluster(
        self, cluster: Any, options: dict[str, Any]
    ) -> Generator[StatementResult, None, None]:
        """``stream`` with ``cluster`` (``pql_repl.cluster``): each select statement's snapshots
        as its tasks end; a simulate statement with observed actions runs here (a worker does
        not know them). ``cancel()`` stops the tasks left as the next one ends."""
        import importlib  # noqa: PLC0415 (Dask only when asked for)

        dask_layer = importlib.import_module("pql_repl.cluster")
        client = dask_layer.connect(cluster)
        self._cancelled = False
        for index, info in enumerate(self.statements):
            statement = self.text.encode()[info.span[0] : info.span[1]].decode()  # spans count bytes
            if info.kind != "select" and self._observations:
                here = Query(statement, macros=self._macros, observations=self._observations)
                with self._lock:
                    self._handle = here
                for snapshot in here.stream(**options):
                    yield replace(snapshot, index=index)
                continue
            snapshots = dask_layer.stream_statement(
                client, statement, options, self._macros, kind=info.kind, stop=lambda: self._cancelled
            )
            try:
                for snapshot in snapshots:
                    yield replace(snapshot, index=index)
                    if snapshot.cancelled:
                        raise _cancelled()
            finally:
                snapshots.close()

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
                    raise _cancelled()
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
                            raise _cancelled()
                        break
                    # All the work merged: the final snapshot (done) follows at once.
                    if result.progress < 1.0:
                        yield result
                    due = time.monotonic() + interval
            finally:
                # A stream closed or abandoned early (or an exception, such as
                # KeyboardInterrupt, while waiting) must not leave the run computing.
                handle.cancel()

    # -- Runs cut into tasks of consecutive chunks or work items (``pql_repl.cluster``) --------

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

    def run(self, **options: Any) -> list[StatementResult]:
        """Run every statement to the end; the final result of each."""
        stream = self.stream(**options)
        try:
            return [r for r in stream if r.done]
        finally:
            # On an exception the traceback would keep the generator (and its run) alive.
            stream.close()

    def cancel(self) -> None:
        """Stop the running statement (from any thread); later statements do not start."""
        with self._lock:
            self._cancelled = True
            if self._handle is not None:
                self._handle.cancel()


def _cancelled() -> Exception:
    return PqlCancelled("cancelled")


#: The engine counts trials and seeds in 64 bits.
_MAX_WHOLE = 2**64 - 1


def _whole_number(name: str, value: object, minimum: int) -> int:
    """``value`` as an int in ``minimum .. 2**64 - 1``; a ValueError or TypeError naming
    ``name`` otherwise."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a whole number, not {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be a whole number, not {value!r}") from None
    if not minimum <= number <= _MAX_WHOLE:
        raise ValueError(f"{name} must be a whole number from {minimum} to {_MAX_WHOLE}, not {number}")
    return number


def _checked_options(*, trials: object, seed: object, threads: object, time_limit: object) -> dict[str, Any]:
    """The numeric run options checked as ``Query.stream`` documents (None stays None)."""
    return {
        "trials": None if trials is None else _whole_number("trials", trials, 1),
        "seed": None if seed is None else _whole_number("seed", seed, 0),
        "threads": None if threads is None else _whole_number("threads", threads, 1),
        "time_limit": _time_limit(time_limit),
    }


def _time_limit(value: object) -> float | None:
    """A time limit in seconds: None (no limit) or a positive number; zero is refused rather
    than read as no limit (as ``--time-limit 0`` is)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"time_limit must be a number of seconds or None, not {value!r}")
    if not value > 0:
        raise ValueError(
            f"time_limit must be a positive number of seconds (None for no limit), not {value!r}"
        )
    return float(value)


def unicode_checked(text: str, error: type[PqlError], origin: tuple[int, int] = (1, 1)) -> None:
    """Raises ``error`` at the first character of ``text`` that is not Unicode text: a lone
    surrogate, which is how Python carries bytes that were not UTF-8 (command-line arguments, a
    C locale's stdin) and which the engine cannot read."""
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        before = text[: e.start]
        line = before.count("\n") + 1
        col = e.start - (before.rfind("\n") + 1) + 1
        if line == 1:
            col += origin[1] - 1
        line += origin[0] - 1
        start = len(before.encode("utf-8", "surrogatepass"))
        message = (
            f"the text holds {text[e.start]!r}, which is not a character: "
            "bytes that are not UTF-8 text, read as if they were?"
        )
        raise error(
            message, line, col, (start, start + 3), "pass UTF-8 text", f"line {line}, col {col}: {message}"
        ) from None


def prepare(text: str, *, macros: Mapping[str, str] | None = None) -> Query:
    """Parse and check ``text``; raises ``PqlError`` (with line, column and hint) when invalid.
    ``macros``: the named ranges its ranges may use (None: the user's, from ``.define``)."""
    return Query(text, macros=macros)


def run(
    text: str,
    *,
    trials: int | None = None,
    seed: int | None = None,
    exact: bool | None = None,
    threads: int | None = None,
    time_limit: float | None = None,
    precision: float | str | None = None,
    macros: Mapping[str, str] | None = None,
    cluster: Any = None,
) -> list[StatementResult]:
    """Run every statement of ``text``; one result per statement. ``trials`` None: each
    statement's default (600,000 for select, 10,000 for simulate). ``cluster``: a Dask
    scheduler address or client to run them on (``pql_repl.cluster``: the same answers)."""
    options = {
        "trials": trials,
        "seed": seed,
        "exact": exact,
        "threads": threads,
        "time_limit": time_limit,
        "precision": precision,
    }
    return prepare(text, macros=macros).run(**options, cluster=cluster)


@record(frozen=True)
class FunctionInfo:
    """A catalogue entry: how to call a built-in function, what it returns and where it applies."""

    name: str
    #: (parameter name, type name) in call order; ``any`` marks an argument of any type.
    args: list[tuple[str, str]]
    returns: str
    doc: str
    example: str
    #: Canonical names of the games the function applies to.
    games: list[str]
    #: ``original`` (the original PQL's functions) or ``ext`` (pql's extensions).
    origin: str
    #: ``riverEquity(player) -> equity``.
    signature: str
    #: The street a call may leave out (its last argument) stands for this one: ``river``,
    #: ``seventh``, or ``river|seventh`` in board and stud games; None when it must be written.
    street_default: str | None = None

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FunctionInfo:
        return cls(
            name=d["name"],
            args=[(a["name"], a["type"]) for a in d["args"]],
            returns=d["returns"],
            doc=d["doc"],
            example=d["example"],
            games=list(d["games"]),
            origin=d["origin"],
            signature=d["signature"],
            street_default=d.get("street_default"),
        )


def functions() -> list[FunctionInfo]:
    """The built-in function catalogue, aliases included (the one source of truth for help and
    completion)."""
    return [FunctionInfo.from_dict(f) for f in _core.functions()]


def keywords() -> dict[str, list[str]]:
    """Vocabulary for highlighting and completion: ``keywords``, ``selectors``, ``reserved_keys``,
    ``games`` (names and aliases), ``streets``, ``hand_types`` and ``flop_categories`` (worst
    first), ``syntaxes``, ``orderings`` (of ``N%``, the default first), ``functions`` (names and
    aliases), ``range_keywords``."""
    return _core.keywords()


def game_streets() -> dict[str, list[str]]:
    """Every game name and alias mapped to its streets, first to last."""
    return _core.game_streets()


@record(frozen=True)
class Range:
    """A compiled range: its hands (as card strings) and their relative weights."""

    text: str
    game: str
    combos: list[str]
    weights: list[int]

    def __len__(self) -> int:
        return len(self.combos)

    @property
    def weighted(self) -> bool:
        """Whether the range has ``@`` weights (hands then read ``AsAh@10``)."""
        return any(w != 1 for w in self.weights)

    def labels(self, limit: int) -> list[str]:
        """The first ``limit`` hands as written in ``str()``: with ``@weight`` when weighted."""
        combos = self.combos[:limit]
        if self.weighted:
            return [f"{c}@{w}" for c, w in zip(combos, self.weights, strict=False)]
        return combos

    def __str__(self) -> str:
        n = len(self.combos)
        head = " ".join(self.labels(12))
        more = f" … (+{n - 12})" if n > 12 else ""
        return f"{n} {'hand' if n == 1 else 'hands'}: {head}{more}"


def parse_range(
    text: str,
    game: str = "holdem",
    syntax: str | None = None,
    *,
    macros: Mapping[str, str] | None = None,
    ordering: str | None = None,
) -> Range:
    """Compile a range as a player's range of ``game`` would be; raises ``PqlRangeError``.
    ``macros``: the named ranges it may use (None: the user's, from ``.define``); ``ordering``:
    the ordering of starting hands ``N%`` reads (``ordering='equity'``; None: the default)."""
    for given in (text, game, syntax or "", ordering or ""):
        unicode_checked(given, PqlRangeError)
    raw = _core.parse_range(text, game, syntax, resolve_macros(macros), ordering)
    return Range(text, raw["game"], raw["combos"], raw["weights"])


def range_name_error(name: str) -> str | None:
    """Why ``name`` (``$open`` or ``open``) cannot name a range, or None when it can."""
    return _core.range_name_error(name)
