"""The public entry points: ``prepare`` a program of statements, ``run`` it, and ``Query``, a
``LocalQuery`` that can also run on a Dask cluster (``pql_repl.api.cluster``, loaded only when
asked for, which runs ``LocalQuery`` on its workers)."""

from __future__ import annotations

from pql_repl.api.query import LocalQuery, cancelled_error
from pql_repl.base.records import replace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from collections.abc import Generator, Mapping
    from typing import Any

    from pql_repl.api.results import Results, StatementResult


class Query(LocalQuery):
    """A parsed and checked program of one or more statements, ready to run any number of times,
    here or on a Dask cluster."""

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
        ``"auto"`` (that of ``pql_repl.api.precision``, for runs projected to take more than a few
        seconds) or None (every trial); other values raise ``ValueError`` (``TypeError`` for
        what is not a number) naming the argument, before anything runs.

        ``cluster``: a Dask scheduler address or client to run the select statements on."""
        if cluster is None:
            return super().stream(
                trials=trials,
                seed=seed,
                exact=exact,
                threads=threads,
                time_limit=time_limit,
                batch=batch,
                precision=precision,
            )
        checked = self.checked_options(
            trials=trials, seed=seed, threads=threads, time_limit=time_limit, exact=exact, precision=precision
        )
        dask_layer = _cluster_layer()
        dask_layer.check_cluster(cluster)  # an address pql cannot use is said now
        return self._stream_on_cluster(
            dask_layer, cluster, {**checked, "exact": exact, "precision": precision}
        )

    def _stream_on_cluster(
        self, dask_layer: Any, cluster: Any, options: dict[str, Any]
    ) -> Generator[StatementResult, None, None]:
        """``stream`` with ``cluster`` (``pql_repl.api.cluster``): each select statement's snapshots
        as its tasks end; a simulate statement with observed actions runs here (a worker does
        not know them). ``cancel()`` stops the tasks left as the next one ends."""
        self._cancelled = False
        client = dask_layer.connect(cluster, stop=lambda: self._cancelled)  # cancel() ends the wait
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
                        raise cancelled_error()
            finally:
                snapshots.close()


def _cluster_layer() -> Any:
    """``pql_repl.api.cluster``, loaded by name when a run is asked for on a cluster (it does not
    load Dask itself until it connects)."""
    import importlib  # noqa: PLC0415 (only for runs on a cluster)

    return importlib.import_module("pql_repl.api.cluster")


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
) -> Results:
    """Run every statement of ``text``; one result per statement (a ``Results`` list, with
    ``to_pandas()``). ``trials`` None: each statement's default (600,000 for select, 10,000 for
    simulate). ``cluster``: a Dask scheduler address or client to run them on
    (``pql_repl.api.cluster``: the same answers)."""
    options = {
        "trials": trials,
        "seed": seed,
        "exact": exact,
        "threads": threads,
        "time_limit": time_limit,
        "precision": precision,
    }
    return prepare(text, macros=macros).run(**options, cluster=cluster)
