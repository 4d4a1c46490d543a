"""Sweeps on a Dask distributed cluster: each row of a sweep is one task, run by ``pql`` on a
worker exactly as it runs locally (same statement, same options, same seed: the same answer),
so the cluster only changes where the rows run. A thin layer: Dask schedules, retries the
tasks of a worker that dies (a row is counted once, by its place in the sweep) and cancels.

``pip install 'pql-repl[cluster]'`` installs Dask; nothing else in pql needs it. Every worker
must run the same pql version as the client: checked when connecting.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from pql_repl.api import Query, StatementResult
from pql_repl.errors import PqlRuntimeError


class ClusterError(Exception):
    """The cluster cannot be used: Dask missing, no scheduler at the address, or workers that
    run another pql version."""


def pql_version() -> str:
    """The installed pql version (what every worker must also have)."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("pql-repl")
    except PackageNotFoundError:
        return "unknown"


def connect(cluster: Any, *, expected: str | None = None) -> Any:
    """A Dask client for ``cluster`` (a scheduler address such as ``tcp://host:8786``, or a
    client already made), after checking that every worker runs pql version ``expected``
    (default: this one). Raises ``ClusterError`` saying what is wrong."""
    try:
        distributed = importlib.import_module("distributed")
    except ImportError:
        raise ClusterError("running on a cluster needs Dask: pip install 'pql-repl[cluster]'") from None
    if isinstance(cluster, str):
        try:
            client = distributed.Client(cluster, timeout="10s")
        except OSError as e:
            raise ClusterError(f"no Dask scheduler at {cluster}: {e}") from None
    else:
        client = cluster
    want = expected or pql_version()
    found: Mapping[str, str] = client.run(pql_version)
    if not found:
        raise ClusterError("the cluster has no workers")
    wrong = {w: v for w, v in found.items() if v != want}
    if wrong:
        shown = ", ".join(f"{w} has {v}" for w, v in sorted(wrong.items()))
        raise ClusterError(f"every worker needs pql {want} (this one): {shown}")
    return client


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
    workers = max(1, len(client.scheduler_info().get("workers", {})))
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
        left = [f for f in futures if not f.done()]
        if left and client.status == "running":  # a client closed already cancelled them
            client.cancel(left)
