"""Sweeps and statements on a Dask distributed cluster. Each row of a sweep is one task, run by
``pql`` on a worker exactly as it runs locally (same statement, same options, same seed: the
same answer), so the cluster only changes where the rows run. One statement's Monte Carlo run
is cut into tasks of consecutive chunks (Monte Carlo) or work items (an enumeration), whose
pieces are merged in the order the local runner merges them (``stream_statement``). A thin
layer: Dask schedules, retries the tasks of a worker that dies (a row, a chunk or an item is
counted once, by its place) and cancels.

``pip install 'pql-repl[cluster]'`` installs Dask; nothing else in pql needs it. Every worker
must run the same pql version as the client: checked when connecting.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from pql_repl.api.options import resolve_macros
from pql_repl.api.precision import engine_precision
from pql_repl.api.query import LocalQuery as Query
from pql_repl.api.results import DEFAULT_TRIALS, StatementResult
from pql_repl.base.errors import ClusterError, PqlArgumentTypeError, PqlCancelled, PqlRuntimeError
from pql_repl.base.records import replace

#: The bits of a seed chosen here for a run given none, as the engine chooses them
#: (``run::runner::FRESH_SEED_BITS``): 53, which a float or a JavaScript number holds exactly.
FRESH_SEED_BITS = 53


def pql_version() -> str:
    """The installed pql version (what every worker must also have)."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("pql-repl")
    except PackageNotFoundError:
        return "unknown"


#: Clients made from an address, kept for the session's next statements and sweeps.
_clients: dict[str, Any] = {}

#: Seconds to wait for a scheduler to answer (connecting, then its greeting) before giving up.
CONNECT_SECONDS = 2.0
#: Seconds the Dask client may then take to finish connecting, and the workers to say which
#: pql they run.
SETUP_SECONDS = 30.0
#: The bytes of a Dask scheduler's greeting pql reads at most (a real one is under a hundred).
GREETING_MAX_BYTES = 1 << 16

_ADDRESS_HINT = "write tcp://HOST:PORT, as `dask scheduler` prints it"


def check_address(text: str) -> str:
    """``text`` as the address of a Dask scheduler pql can connect to, ``tcp://HOST:PORT`` (a
    bare ``HOST:PORT`` gets ``tcp://``); a ``ClusterError`` saying what is wrong otherwise.

    Only ``tcp://``: ``tls://`` needs certificates pql has no way to take, ``ucx://`` a library it
    does not install and ``inproc://`` a scheduler in this very process; from Python, a
    ``distributed.Client`` made for any of them may be passed instead."""
    shown = _shown(text)
    t = text.strip()
    if not t:
        raise ClusterError(f"no scheduler address: {_ADDRESS_HINT}")
    scheme, sep, rest = t.partition("://")
    if not sep:
        scheme, rest = "tcp", t
    if scheme.lower() != "tcp":
        named = (
            scheme.lower() if scheme.isascii() and scheme.isalnum() and len(scheme) <= 16 else _shown(scheme)
        )
        raise ClusterError(
            f"{shown} is not a scheduler address pql can use: it connects over tcp:// only, not "
            f"{named}:// (from Python, pass a distributed.Client made for it)"
        )
    host, port = _host_and_port(rest.removesuffix("/"), shown)
    return f"tcp://{host}:{port}"


def _host_and_port(rest: str, shown: str) -> tuple[str, int]:
    if rest.startswith("["):  # an IPv6 address: [::1]:8786
        end = rest.find("]")
        host, after = (rest[: end + 1], rest[end + 1 :]) if end > 0 else (rest, "")
        sep, port = after[:1], after[1:]
        name_ok = (
            sep in ("", ":") and ":" in host and all(c in "0123456789abcdefABCDEF:." for c in host[1:-1])
        )
    else:
        host, sep, port = rest.rpartition(":")
        name_ok = all(c.isascii() and (c.isalnum() or c in "-._") for c in host)
    bad = f"{shown} is not a scheduler address"
    if not sep:
        raise ClusterError(f"{bad}: no port; {_ADDRESS_HINT}")
    if not host:
        raise ClusterError(f"{bad}: no host; {_ADDRESS_HINT}")
    if not name_ok or len(host) > 255:
        raise ClusterError(
            f"{bad}: {_shown(host)} is not a host name or IP address (IPv6 in brackets: [::1]:8786)"
        )
    number = int(port) if port.isascii() and port.isdigit() and len(port) <= 5 else 0
    if not 1 <= number <= 65535:
        raise ClusterError(f"{bad}: the port must be from 1 to 65535, not {_shown(port)}")
    return host, number


def _shown(text: str, most: int = 60) -> str:
    """``text`` quoted for a message: at most ``most`` characters, what is not printable escaped."""
    cut = text if len(text) <= most else text[: most - 1] + "…"
    return repr(cut) if not cut.isprintable() else f"'{cut}'"


def connect(cluster: Any, *, expected: str | None = None, stop: Callable[[], bool] | None = None) -> Any:
    """A Dask client for ``cluster`` (a scheduler address such as ``tcp://host:8786``, or a
    ``distributed.Client`` already made), after checking that every worker runs pql version
    ``expected`` (default: this one). Raises ``ClusterError`` saying what is wrong, within
    ``CONNECT_SECONDS`` when nothing answers at the address; Ctrl-C gets through while it
    waits, and ``PqlCancelled`` ends the wait once ``stop()`` is true (a run cancelled, as the
    command's first Ctrl-C cancels it)."""
    address = check_cluster(cluster)
    try:
        distributed = importlib.import_module("distributed")
    except ImportError:
        raise ClusterError("running on a cluster needs Dask: pip install 'pql-repl[cluster]'") from None
    if address is not None:
        known = _clients.get(address)
        if known is not None and known.status == "running" and expected is None:
            return known  # checked when it was made
        # Looking the host up is not bounded by the socket's timeout: the wait is.
        _within(CONNECT_SECONDS + 1.0, lambda: _greeted(address), _silent(address).message, stop=stop)
        client = _within(
            SETUP_SECONDS,
            lambda: _client(distributed, address),
            f"the Dask scheduler at {address} did not finish connecting within {SETUP_SECONDS:g} s",
            on_late=lambda c: c.close(),
            stop=stop,
        )
    else:
        client = cluster
    want = expected or pql_version()
    found: Mapping[str, str] = _within(
        SETUP_SECONDS,
        lambda: client.run(pql_version),
        f"the cluster's workers did not say which pql they run within {SETUP_SECONDS:g} s",
        stop=stop,
    )
    if not found:
        raise ClusterError("the cluster has no workers")
    wrong = {w: v for w, v in found.items() if v != want}
    if wrong:
        shown = ", ".join(f"{w} has {v}" for w, v in sorted(wrong.items()))
        raise ClusterError(f"every worker needs pql {want} (this one): {shown}")
    if address is not None:
        _clients[address] = client
    return client


def check_cluster(cluster: object) -> str | None:
    """What ``cluster=`` names: an address, checked (``check_address``), or None for a client
    made in Python (anything with Dask's ``submit`` and ``run``); ``PqlArgumentTypeError``
    naming the argument for anything else."""
    if isinstance(cluster, str):
        return check_address(cluster)
    if callable(getattr(cluster, "submit", None)) and callable(getattr(cluster, "run", None)):
        return None
    shown = repr(cluster)
    shown = shown if len(shown) <= 40 else shown[:39] + "…"
    raise PqlArgumentTypeError(
        f"cluster must be a Dask scheduler address ('tcp://host:8786') or a distributed.Client, not {shown}"
    )


def _greeted(address: str) -> None:
    """Raises ``ClusterError`` unless a Dask scheduler greets pql at ``address`` within
    ``CONNECT_SECONDS``: a port where nothing listens, a server that says nothing, or one that
    says what a Dask scheduler does not (whose bytes Dask would read as a length to allocate)."""
    import socket  # noqa: PLC0415 (only when connecting)

    rest = address.removeprefix("tcp://")
    host, _, port = rest.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    deadline = time.monotonic() + CONNECT_SECONDS
    silent = _silent(address)
    try:
        sock = socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS)
    except TimeoutError:
        raise silent from None
    except OSError as e:
        reason = "connection refused" if isinstance(e, ConnectionRefusedError) else (e.strerror or str(e))
        raise ClusterError(f"no Dask scheduler at {address}: {reason}") from None
    with sock:
        # A scheduler greets first: the greeting's length (8 bytes, little-endian), then its
        # frames: their count and each one's length (8 bytes each), then the frames.
        head = _read(sock, 8, deadline, silent)
        size = int.from_bytes(head, "little")
        if not 16 <= size <= GREETING_MAX_BYTES:
            raise _not_dask(address, head)
        body = _read(sock, size, deadline, silent)
        frames = int.from_bytes(body[:8], "little")
        lengths = [int.from_bytes(body[8 + 8 * i : 16 + 8 * i], "little") for i in range(min(frames, 64))]
        if not 1 <= frames <= 64 or 8 + 8 * frames + sum(lengths) != size:
            raise _not_dask(address, head)


def _silent(address: str) -> ClusterError:
    return ClusterError(
        f"no answer from {address} within {CONNECT_SECONDS:g} s: is a Dask scheduler listening there?"
    )


def _read(sock: Any, size: int, deadline: float, silent: ClusterError) -> bytes:
    """``size`` bytes from ``sock`` by ``deadline``; ``silent`` when they do not come."""
    parts: list[bytes] = []
    got = 0
    while got < size:
        left = deadline - time.monotonic()
        if left <= 0:
            raise silent
        sock.settimeout(left)
        try:
            part = sock.recv(min(size - got, 1 << 16))
        except TimeoutError:
            raise silent from None
        except OSError:
            raise silent from None
        if not part:  # closed before greeting
            raise silent
        parts.append(part)
        got += len(part)
    return b"".join(parts)


def _not_dask(address: str, head: bytes) -> ClusterError:
    return ClusterError(f"{address} answers, but not as a Dask scheduler (it began with {head!r})")


def _client(distributed: Any, address: str) -> Any:
    try:
        return distributed.Client(address, timeout=f"{CONNECT_SECONDS}s")
    except TimeoutError:  # it greeted, then stopped answering
        raise _silent(address) from None
    except (OSError, ValueError) as e:
        raise ClusterError(f"no Dask scheduler at {address}: {_one_line(e)}") from None
    except Exception as e:  # Dask's own errors: a scheduler that stops mid-greeting, ...
        raise ClusterError(f"cannot connect to the Dask scheduler at {address}: {_one_line(e)}") from None


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= 200 else text[:199] + "…"


T = TypeVar("T")


def _within(
    seconds: float,
    work: Callable[[], T],
    late: str,
    *,
    on_late: Callable[[T], object] | None = None,
    stop: Callable[[], bool] | None = None,
) -> T:
    """``work()`` run on another thread while this one waits, at most ``seconds``: its answer, or
    what it raised; ``ClusterError`` (``late``) past that, and ``KeyboardInterrupt`` at once on
    Ctrl-C (Dask's waits do not let it through), ``PqlCancelled`` once ``stop()`` is true. Work
    given up keeps running to its end, then ``on_late`` is handed its answer (a client, to be
    closed)."""
    import threading  # noqa: PLC0415

    done = threading.Event()
    outcome: list[Any] = []
    lock = threading.Lock()
    abandoned = False

    def run() -> None:
        try:
            answer: Any = work()
            failed = False
        except BaseException as e:  # raised again on the waiting thread
            answer, failed = e, True
        with lock:
            outcome.append((answer, failed))
            late_answer = abandoned and not failed
        done.set()
        if late_answer and on_late is not None:
            with contextlib.suppress(Exception):
                on_late(answer)

    thread = threading.Thread(target=run, name="pql-cluster-connect", daemon=True)
    thread.start()
    deadline = time.monotonic() + seconds
    try:
        while not done.wait(min(0.05, max(deadline - time.monotonic(), 0.0))):
            if stop is not None and stop():
                raise PqlCancelled("cancelled while connecting to the cluster")
            if time.monotonic() >= deadline:
                raise ClusterError(late)
    finally:
        with lock:
            abandoned = not outcome
    answer, failed = outcome[0]
    if failed:
        raise answer
    return answer  # type: ignore[no-any-return]


def run_batch(texts: list[str], options: Mapping[str, Any]) -> list[StatementResult | str]:
    """Some rows, on a worker: each one's result, or why it has none (no legal deal)."""
    answers: list[StatementResult | str] = []
    for text in texts:
        try:
            (result,) = Query(text).run(**options)
        except PqlRuntimeError as e:
            if not e.message.startswith("no legal deal"):
                raise
            answers.append("no legal deal")
            continue
        answers.append(result)
    return answers


_runs = itertools.count()
#: Tasks per worker a sweep is cut into: enough to keep every worker busy to the end, few
#: enough that a task's cost (scheduling, sending, a new Query) is small beside its rows'.
TASKS_PER_WORKER = 8


def run_rows(
    client: Any, texts: list[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, StatementResult | str]]:
    """Runs every statement of ``texts``, a batch of consecutive rows a task; yields (its
    place, its result) as batches end, in any order. Closing the iterator (an interrupt, an
    error) cancels what has not run."""
    distributed = importlib.import_module("distributed")
    run = next(_runs)
    workers, _ = _cluster_size(client)
    if _by_chunk(len(texts), workers, options):
        yield from _rows_by_chunk(client, texts, options)
        return
    size = max(1, -(-len(texts) // (workers * TASKS_PER_WORKER)))
    starts = range(0, len(texts), size)
    futures = [
        client.submit(
            run_batch, texts[i : i + size], dict(options), key=f"pql-row-{id(client)}-{run}-{i}", pure=False
        )
        for i in starts
    ]
    first = {f.key: i for i, f in zip(starts, futures, strict=True)}
    try:
        for future in distributed.as_completed(futures):
            for offset, answer in enumerate(future.result()):
                yield first[future.key] + offset, answer
    finally:
        if client.status == "running":  # a client closed already cancelled them
            client.cancel(futures)  # done ones too (see `_gather`)


def _by_chunk(rows: int, workers: int, options: Mapping[str, Any]) -> bool:
    """Whether a sweep's rows are better cut into chunk (or item) tasks one row at a time than
    sent whole: fewer rows than workers (some would idle), or few rows for the workers (the
    last ones would run while others idle) each large enough to give every worker a task."""
    if rows < workers:
        return True
    chunks = Query.monte_chunks(options.get("trials") or DEFAULT_TRIALS)
    return rows < workers * TASKS_PER_WORKER and chunks >= workers * MIN_CHUNKS_PER_TASK


def _rows_by_chunk(
    client: Any, texts: list[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, StatementResult | str]]:
    macros = resolve_macros(None, *texts)
    for i, text in enumerate(texts):
        try:
            yield i, _final(stream_statement(client, text, options, macros))
        except PqlRuntimeError as e:
            if not e.message.startswith("no legal deal"):
                raise
            yield i, "no legal deal"


#: Chunks of a Monte Carlo run per task at least: a task's overhead (scheduling, a new Query,
#: sending the parts) stays small beside its trials (4,096 a chunk).
MIN_CHUNKS_PER_TASK = 4


def _final(snapshots: Iterator[StatementResult]) -> StatementResult:
    final = None
    for final in snapshots:  # noqa: B007 (the last one is the result)
        pass
    if final is None or not final.done:
        raise PqlRuntimeError("the cluster gave no final result")
    return final


def stream_statement(
    client: Any,
    statement: str,
    options: Mapping[str, Any],
    macros: Mapping[str, str],
    *,
    kind: str = "select",
    stop: Callable[[], bool] = lambda: False,
) -> Iterator[StatementResult]:
    """One statement on the cluster, as snapshots; a snapshot follows every task, the last one
    ``done``. A Monte Carlo run is cut into tasks of consecutive chunks of its trials (each
    chunk dealt from its own stream of the run's seed, one drawn here when none is given),
    merged in chunk order, so the result is a one-thread local run's with that seed to the last
    bit (and a many-thread run's to within rounding). An exhaustive run is cut into tasks of
    consecutive work items of its seeded order, laid out for the cluster's thread count and
    merged in the order's order, so the result is a local run's on as many threads to the last
    bit (and any run's to within rounding). A simulate statement, or a ``max``/``min`` of
    values that cannot be sent (hand types), is one task, run as locally. A time limit, a
    precision reached or ``stop()`` (looked at as each task ends) stops the tasks left, as does
    closing the iterator (an interrupt); an exhaustive run cut short reports an estimate from
    the items in, as locally."""
    seed = options.get("seed")
    if seed is None:
        seed = secrets.randbits(FRESH_SEED_BITS)
    whole = {**options, "seed": seed}
    if kind != "select":
        yield _whole(client, statement, whole, macros)
        return
    query = Query(statement, macros=macros)
    trials = options.get("trials") or DEFAULT_TRIALS
    workers, threads = _cluster_size(client)
    layout = query.exact_layout(0, trials, options.get("exact"), threads)
    started = time.monotonic()
    if layout is None:
        task = {"trials": trials, "seed": seed}
        call: tuple[Any, ...] = (run_chunks, query.text, dict(macros))
        chunks = query.monte_chunks(trials)
        tasks = _spans(client, workers, chunks, call, task=task, options=whole, least=MIN_CHUNKS_PER_TASK)

        def merge(parts: list[Any], end: bool) -> StatementResult:
            return query.merge_chunks(0, parts, seed, time.monotonic() - started)

        # A target from the start, or the REPLs' automatic one once the run looks long.
        target = engine_precision(options.get("precision"))
    else:
        task = {"trials": trials, "exact": options.get("exact"), "seed": seed, "layout": threads}
        call = (run_items, query.text, dict(macros))
        tasks = _spans(client, workers, layout[0], call, task=task, options=whole)

        def merge(parts: list[Any], end: bool) -> StatementResult:
            return query.merge_items(0, layout, parts, seed, time.monotonic() - started, end=end)

        target = (None, None)  # an enumeration has no precision target, as locally
    try:
        yield from _gather(client, tasks, merge, started=started, options=whole, target=target, stop=stop)
    except ValueError as e:
        if "cannot be sent" not in str(e):
            raise
        # A max or min of values that do not travel: the statement runs whole.
        yield _whole(client, statement, whole, macros)


def _cluster_size(client: Any) -> tuple[int, int]:
    """The cluster's workers and their threads together (the thread count an exhaustive run is
    laid out for), from one question to the scheduler."""
    workers = client.scheduler_info().get("workers", {})
    return max(1, len(workers)), max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))


def run_whole(statement: str, options: Mapping[str, Any], macros: Mapping[str, str]) -> StatementResult:
    """One statement run as locally, on a worker."""
    (result,) = Query(statement, macros=macros).run(**options)
    return result


def run_chunks(
    statement: str,
    macros: Mapping[str, str],
    *,
    trials: int,
    seed: int,
    lo: int,
    hi: int,
    threads: int | None,
) -> list[Any]:
    """Chunks ``lo..hi`` of a Monte Carlo run of ``statement``, on a worker."""
    return Query(statement, macros=macros).run_chunks(
        0, trials=trials, seed=seed, lo=lo, hi=hi, threads=threads
    )


def run_items(
    statement: str,
    macros: Mapping[str, str],
    *,
    trials: int,
    exact: bool | None,
    seed: int,
    lo: int,
    hi: int,
    layout: int,
    threads: int | None,
) -> list[Any]:
    """The work items at positions ``lo..hi`` of an exhaustive run of ``statement``, on a worker."""
    return Query(statement, macros=macros).run_items(
        0, trials=trials, exact=exact, seed=seed, lo=lo, hi=hi, layout=layout, threads=threads
    )


def _whole(
    client: Any, statement: str, options: Mapping[str, Any], macros: Mapping[str, str]
) -> StatementResult:
    future = client.submit(run_whole, statement, dict(options), dict(macros), pure=False)
    try:
        result: StatementResult = future.result()
    finally:
        future.cancel()  # also when it erred (see `_gather`)
    return result


def _spans(
    client: Any,
    workers: int,
    pieces: int,
    call: tuple[Any, ...],
    *,
    task: Mapping[str, Any],
    options: Mapping[str, Any],
    least: int = 1,
) -> list[Any]:
    """Tasks of consecutive pieces (chunks, items) ``lo..hi``, about ``TASKS_PER_WORKER`` for
    each of ``workers`` and at least ``least`` pieces each: ``call`` (a function and its first arguments)
    with the keywords ``task``, ``lo``, ``hi`` and the run's ``threads``."""
    size = max(least, -(-pieces // (workers * TASKS_PER_WORKER)))
    futures = []
    for lo in range(0, pieces, size):
        keywords = {**task, "lo": lo, "hi": min(lo + size, pieces), "threads": options.get("threads")}
        futures.append(client.submit(*call, **keywords, pure=False))
    return futures


def _gather(
    client: Any,
    futures: list[Any],
    merge: Callable[[list[Any], bool], StatementResult],
    *,
    started: float,
    options: Mapping[str, Any],
    target: tuple[float | None, float | None],
    stop: Callable[[], bool],
) -> Iterator[StatementResult]:
    """Snapshots of a run cut into ``futures``, merged (``merge(pieces, end)``) as they end;
    stops the tasks left at a time limit, a precision target reached (``target``: the target
    and the projected seconds after which it applies) or ``stop()``, and when closed."""
    distributed = importlib.import_module("distributed")
    time_limit = options.get("time_limit")
    deadline = None if time_limit is None else started + time_limit
    precision, after = target
    parts: list[Any] = []
    done = 0
    try:
        for future in distributed.as_completed(futures):
            parts.extend(future.result())
            done += 1
            if stop():
                yield replace(merge(parts, True), done=True, cancelled=True)
                return
            late = deadline is not None and time.monotonic() >= deadline
            if done == len(futures) or late:
                yield replace(merge(parts, True), done=True)
                return
            result = merge(parts, False)
            long = after is None or (time.monotonic() - started) * len(futures) / done > after
            if precision is not None and long and _precise(result, precision):
                yield replace(result, done=True, stopped_at_precision=precision)
                return
            yield replace(result, done=False, progress=done / len(futures))
    finally:
        # Every task, done or not: a task's error keeps its future in a reference cycle (the
        # error's traceback holds this frame), which would keep the task on the scheduler.
        if client.status == "running":
            client.cancel(futures)


def _precise(result: StatementResult, target: float) -> bool:
    """Whether every avg and count standard error is below ``target`` (as a local run judges)."""
    errors = [c.stderr for c in result.columns if c.selector in ("avg", "count")]
    return result.trials >= 1000 and all(e is not None and e < target for e in errors)
