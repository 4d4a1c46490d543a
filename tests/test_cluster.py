"""Sweeps on a Dask cluster (issue 17): a LocalCluster of two worker processes gives the same
answers as a local run, refuses workers of another pql version, cancels what has not run and
survives a worker killed mid-sweep. Waits are on conditions, never on the clock alone."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pql_repl as pql
from pql_repl.api.cluster import connect
from pql_repl.api.sweeps import check, parse, stream
from pql_repl.base.errors import ClusterError

distributed = pytest.importorskip("distributed")

TURNS = (
    "select avg(riverEquity(hero)) as eq from hero='AsAh', villain='KsKd', board=$b "
    "sweep $b over turns('2c7d9h')"
)
SAMPLED = (
    "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins from hero='AK', villain='QQ, JJ', "
    "board=$f sweep $f over ('Kh9h7d', '2c3d4h', 'AsKd2c', 'Th8h2c', '5s5d5c', 'QcJcTc')"
)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


def wait_for(condition: Any, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_the_cluster_gives_the_local_answers(client: Any) -> None:
    exact = pql.sweep(TURNS, cluster=client)
    assert exact.to_csv() == pql.sweep(TURNS).to_csv()
    assert sum(r.result is None for r in exact.rows) == 4  # the turns that are a hole card
    options = {"trials": 20_000, "seed": 9, "exact": False}
    sampled = pql.sweep(SAMPLED, cluster=client, **options)
    assert sampled.to_csv() == pql.sweep(SAMPLED, **options).to_csv()


def test_workers_of_another_version_are_refused(client: Any) -> None:
    with pytest.raises(ClusterError, match=r"every worker needs pql 0\.0\.0-other \(this one\): .* has "):
        connect(client, expected="0.0.0-other")
    with pytest.raises(ClusterError, match=r"no Dask scheduler at tcp://127\.0\.0\.1:9"):
        connect("tcp://127.0.0.1:9")


def tasks_named(client: Any, function: str) -> list[str]:
    """The scheduler's tasks of ``function`` (finished ones a client still holds included)."""

    def tasks(dask_scheduler: Any) -> list[str]:
        return [str(k) for k in dask_scheduler.tasks if str(k).startswith(function)]

    return list(client.run_on_scheduler(tasks))


def test_closing_a_sweep_cancels_the_rows_not_run(client: Any) -> None:
    # Many small rows: sent whole, in batches.
    many = SAMPLED.split(" over (", maxsplit=1)[0] + " over flops('canonical')"
    rows = stream(check(parse(many)), cluster=client, trials=20_000, exact=False)
    first = next(rows)
    assert len(first.rows) == 1
    rows.close()
    wait_for(lambda: not tasks_named(client, "pql-row"))


def test_a_worker_killed_mid_sweep_is_survived(client: Any) -> None:
    options = {"trials": 200_000, "seed": 4, "exact": False}
    rows = stream(check(parse(SAMPLED)), cluster=client, **options)
    first = next(rows)
    assert len(first.rows) == 1
    victim = sorted(client.scheduler_info()["workers"])[0]
    # Its nanny starts another; its tasks run again. The call itself loses its connection.
    client.run(os._exit, 1, workers=[victim], on_error="ignore")
    last = first
    for last in rows:  # noqa: B007 (the last result is the one to check)
        pass
    assert last.done
    # Every row once, each the answer a local run gives.
    assert last.to_csv() == pql.sweep(SAMPLED, **options).to_csv()


def test_the_command_runs_sweeps_on_the_cluster(client: Any) -> None:
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    address = client.scheduler.address
    command = [
        sys.executable,
        "-m",
        "pql_repl.cli",
        "--cluster",
        address,
        "-c",
        TURNS,
        "--format",
        "csv",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == pql.sweep(TURNS).to_csv()


STATEMENT = (
    "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins, "
    "histogram(handType(hero, flop)) as flop, max(riverEquity(villain)) as best "
    "from hero='AKs, QQ', villain='22+, ATs+' where handType(hero, turn) >= pair"
)


def test_a_statement_is_cut_into_chunks_with_the_one_thread_answer(client: Any) -> None:
    """A Monte Carlo run on the cluster is its one-thread local run to the last bit (chunks
    merged in chunk order), and a many-thread local run's to within rounding."""
    options = {"trials": 90_000, "seed": 5, "exact": False}
    (remote,) = pql.run(STATEMENT, cluster=client, **options)
    (one_thread,) = pql.run(STATEMENT, threads=1, **options)
    assert remote.to_dict() == {**one_thread.to_dict(), "elapsed_s": remote.to_dict()["elapsed_s"]}
    assert remote.attempted > remote.accepted == 90_000  # the where clause rejects some deals
    (threaded,) = pql.run(STATEMENT, threads=2, **options)
    for a, b in zip(remote.columns, threaded.columns, strict=True):
        assert a.value == pytest.approx(b.value, rel=1e-12)
        assert [x.count for x in a.buckets] == [x.count for x in b.buckets]


def test_hand_type_extremes_and_simulate_statements_run_whole_on_a_worker(client: Any) -> None:
    text = (
        "select avg(riverEquity(hero)) from hero='AsAh', villain='KsKd', board='2c7d9h';\n"
        "select max(handType(hero, river)) from hero='AsAh', villain='KsKd', board='2c7d9h3s';\n"
        "simulate call, raise from game='holdem', hero='Jh9h', villain='QQ+, 77-JJ', board='Jd7c2h', "
        "pot=10, tocall=2, bet=2"
    )
    options = {"trials": 5_000, "seed": 3}
    remote = pql.run(text, cluster=client, **options)
    local = pql.run(text, threads=2, **options)  # the cluster's two worker threads
    assert remote[0].exact
    assert [r.to_dict()["columns"] for r in remote] == [r.to_dict()["columns"] for r in local]


def test_named_ranges_travel_with_the_statement(client: Any) -> None:
    text = "select avg(riverEquity(hero)) from hero='$mine', villain='KK'"
    options = {"trials": 20_000, "seed": 2, "exact": False, "macros": {"mine": "AA, AKs"}}
    (remote,) = pql.run(text, cluster=client, **options)
    (local,) = pql.run(text, threads=1, **options)
    assert remote.columns[0].value == local.columns[0].value


def test_errors_name_the_callers_text(client: Any) -> None:
    with pytest.raises(pql.PqlError, match="line 2, col"):
        pql.run("select avg(1) from hero='AA';\nselect avg(riverEquty(hero)) from hero='AA'", cluster=client)


def test_a_sweep_of_fewer_rows_than_workers_runs_each_row_by_chunk(client: Any) -> None:
    one_row = SAMPLED.split(" over (", maxsplit=1)[0] + " over ('Kh9h7d')"
    options = {"trials": 40_000, "seed": 8, "exact": False}
    remote = pql.sweep(one_row, cluster=client, **options)
    local = pql.sweep(one_row, threads=1, **options)
    assert remote.rows[0].result is not None
    assert local.rows[0].result is not None
    assert remote.rows[0].result.columns == local.rows[0].result.columns


def test_the_command_runs_select_statements_on_the_cluster(client: Any) -> None:
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    def pql_command(*options: str) -> list[dict[str, Any]]:
        command = [sys.executable, "-m", "pql_repl.cli", *options, "-c", STATEMENT, "--format", "json"]
        command += ["--trials", "30000", "--seed", "6", "--no-exact"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        statements: list[dict[str, Any]] = json.loads(done.stdout)["statements"]
        return [{k: v for k, v in s.items() if k != "elapsed_s"} for s in statements]

    assert pql_command("--cluster", client.scheduler.address) == pql_command("--threads", "1")


def cancelled_after_first_task(client: Any, text: str, **options: Any) -> pql.StatementResult:
    """The last snapshot of ``text`` on the cluster, cancelled once its first task is in."""
    query = pql.prepare(text)
    snapshots = query.stream(cluster=client, **options)
    first = next(snapshots)
    assert not first.done
    query.cancel()
    seen = [first]
    with pytest.raises(pql.PqlCancelled):
        seen.extend(snapshots)
    last = seen[-1]
    assert last.cancelled
    assert last.done
    return last


def test_cancelling_a_statement_on_the_cluster_stops_its_tasks(client: Any) -> None:
    cancelled_after_first_task(client, STATEMENT, trials=4_000_000, seed=1, exact=False)
    wait_for(lambda: not tasks_named(client, "run_chunks"))


#: An enumeration of about 800 pairs of hands (work items), each with every turn and river.
EXACT = (
    "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins, "
    "histogram(handType(hero, river)) as made from hero='AKs, QQ, JJ, TT', villain='99+, AQs+', "
    "board='Kd7h2c' where handType(hero, turn) >= twopair"
)


def test_an_enumeration_is_cut_into_work_items_with_the_local_answer(client: Any) -> None:
    """Tasks of consecutive items of the seeded order, merged in that order: the answer of a
    local run on the cluster's two threads to the last bit, exact."""
    with distributed.get_task_stream(client) as stream_of_tasks:
        (remote,) = pql.run(EXACT, cluster=client, exact=True, seed=3)
    tasks = [t["key"] for t in stream_of_tasks.data if str(t["key"]).startswith("run_items")]
    assert len(tasks) > 2
    (local,) = pql.run(EXACT, exact=True, seed=3, threads=2)
    assert remote.exact
    assert remote.accepted < remote.attempted  # the where clause rejects some deals
    assert remote.to_dict() == {**local.to_dict(), "elapsed_s": remote.to_dict()["elapsed_s"]}


def test_a_worker_killed_mid_enumeration_is_survived(client: Any) -> None:
    query = pql.prepare(EXACT)
    snapshots = query.stream(cluster=client, exact=True, seed=4)
    first = next(snapshots)
    assert not first.done
    victim = sorted(client.scheduler_info()["workers"])[0]
    client.run(os._exit, 1, workers=[victim], on_error="ignore")
    last = first
    for last in snapshots:  # noqa: B007 (the last result is the one to check)
        pass
    # Every item once: the exact answer.
    (local,) = pql.run(EXACT, exact=True, seed=4, threads=2)
    assert last.done
    assert last.exact
    assert last.to_dict() == {**local.to_dict(), "elapsed_s": last.to_dict()["elapsed_s"]}
    # The next tests want two live workers: the victim gone and its nanny's new one in.
    wait_for(lambda: len([w for w in client.scheduler_info()["workers"] if w != victim]) == 2)


def test_cancelling_an_enumeration_on_the_cluster_keeps_an_estimate(client: Any) -> None:
    last = cancelled_after_first_task(client, EXACT, exact=True, seed=6)
    # The first items of the order that are in, as a local run cut there reports them (an
    # estimate; `tests/pieces.rs` checks it equals that run's).
    assert last.truncated
    assert not last.exact
    assert last.total_deals is not None
    assert last.attempted < last.total_deals
    wait_for(lambda: not tasks_named(client, "run_items"))


# ---------------------------------------------------------------------------------------------
# Addresses that cannot be used (issue 41, item 4): each refused within a couple of seconds with
# one line naming the address, never a traceback or a hang; Ctrl-C gets through while
# connecting. Only local sockets on 127.0.0.1.

QUICK = "select avg(riverEquity(hero)) from hero='AsAh', villain='KsKd', board='2c3d4h5s9c'"


def ends_within(seconds: float, call: Any) -> BaseException | None:
    """Runs ``call`` on a thread: what it raised (None when it returned); fails when it has not
    ended after ``seconds`` (the thread is left behind)."""
    import threading  # noqa: PLC0415

    outcome: list[BaseException | None] = []

    def target() -> None:
        try:
            call()
        except BaseException as e:  # handed to the test
            outcome.append(e)
        else:
            outcome.append(None)

    thread = threading.Thread(target=target, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(seconds)
    assert outcome, f"still running after {time.monotonic() - started:.1f} s"
    return outcome[0]


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts connections and never sends a byte."""
    yield from _server(b"")


@pytest.fixture
def junk_port() -> Iterator[int]:
    """A port on 127.0.0.1 that answers every connection with bytes that are not Dask's."""
    yield from _server(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n" + b"\xff" * 4000)


def _server(reply: bytes) -> Iterator[int]:
    import socket  # noqa: PLC0415
    import threading  # noqa: PLC0415

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    accepted: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            accepted.append(conn)
            if reply:
                with contextlib.suppress(OSError):
                    conn.sendall(reply)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()
        for conn in accepted:
            conn.close()


@pytest.fixture
def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens."""
    import socket  # noqa: PLC0415

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_scheduler_that_never_answers_is_given_up_within_seconds(silent_port: int) -> None:
    address = f"tcp://127.0.0.1:{silent_port}"
    started = time.monotonic()
    e = ends_within(20, lambda: pql.run(QUICK, cluster=address))
    assert isinstance(e, ClusterError)
    assert isinstance(e, pql.PqlError)
    assert time.monotonic() - started < 5
    assert str(e) == f"no answer from {address} within 2 s: is a Dask scheduler listening there?"


def test_a_server_that_is_not_dask_is_named(junk_port: int) -> None:
    address = f"tcp://127.0.0.1:{junk_port}"
    e = ends_within(20, lambda: pql.run(QUICK, cluster=address))
    assert isinstance(e, ClusterError)
    assert "\n" not in str(e)
    assert str(e).startswith(f"{address} answers, but not as a Dask scheduler")


def test_a_closed_port_is_said_at_once(closed_port: int) -> None:
    address = f"tcp://127.0.0.1:{closed_port}"
    started = time.monotonic()
    e = ends_within(20, lambda: pql.run(QUICK, cluster=address))
    assert isinstance(e, ClusterError)
    assert time.monotonic() - started < 2
    assert str(e) == f"no Dask scheduler at {address}: connection refused"


def test_ctrl_c_gets_through_while_connecting(silent_port: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import _thread  # noqa: PLC0415
    import threading  # noqa: PLC0415

    from pql_repl.api import cluster  # noqa: PLC0415

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 60.0, raising=False)  # no timeout to help
    timer = threading.Timer(0.5, _thread.interrupt_main)
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            pql.run(QUICK, cluster=f"tcp://127.0.0.1:{silent_port}")
    finally:
        timer.cancel()
    assert time.monotonic() - started < 3


def test_cancelling_a_run_ends_its_wait_for_the_cluster(
    silent_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command's first Ctrl-C cancels the run (``cancel()`` from another thread): that ends
    the wait for a scheduler too."""
    import threading  # noqa: PLC0415

    from pql_repl.api import cluster  # noqa: PLC0415

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 60.0)  # no timeout to help
    query = pql.prepare(QUICK)
    timer = threading.Timer(0.5, query.cancel)
    started = time.monotonic()
    timer.start()
    e = ends_within(10, lambda: query.run(cluster=f"tcp://127.0.0.1:{silent_port}"))
    assert isinstance(e, pql.PqlCancelled)
    assert time.monotonic() - started < 3


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("tls://127.0.0.1:8786", "over tcp:// only, not tls://"),
        ("ucx://127.0.0.1:8786", "over tcp:// only, not ucx://"),
        ("inproc://192.0.2.2/4369/1", "over tcp:// only, not inproc://"),
        ("gopher://127.0.0.1:70", "over tcp:// only, not gopher://"),
        ("tcp://127.0.0.1", "no port"),
        ("tcp://127.0.0.1:0", "port must be from 1 to 65535"),
        ("tcp://127.0.0.1:65536", "port must be from 1 to 65535"),
        ("tcp://:8786", "no host"),
        ("tcp://a b:8786", "not a host name"),
        ("tcp://127.0.0.1:²", "port must be from 1 to 65535"),
        ("", "no scheduler address"),
    ],
)
def test_an_address_pql_cannot_use_is_refused_when_given(address: str, message: str) -> None:
    e = ends_within(5, lambda: pql.run(QUICK, cluster=address))
    assert isinstance(e, ClusterError)
    assert message in str(e)
    assert "\n" not in str(e)
    if address:
        from pql_repl.session.session import Session  # noqa: PLC0415
        from pql_repl.session.settings import SessionError  # noqa: PLC0415

        with pytest.raises(SessionError, match=re.escape(message)):
            Session().handle(f".cluster {address}")


def test_a_cluster_that_is_no_address_nor_client_is_an_argument_error() -> None:
    with pytest.raises(pql.PqlArgumentTypeError, match=r"cluster must be a Dask scheduler address .* not 5"):
        pql.run(QUICK, cluster=5)
    with pytest.raises(TypeError):
        pql.prepare(QUICK).stream(cluster=[])


def pql_command(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pql_repl.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def test_the_command_says_in_one_line_what_is_wrong_with_the_cluster(
    silent_port: int, closed_port: int, tmp_path: Path
) -> None:
    # Refused when the option is read (a usage error), before anything runs.
    done = pql_command("--cluster", "tls://127.0.0.1:8786", "-c", QUICK)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "over tcp:// only" in done.stderr
    # No answer: given up within seconds, for a statement, and in spreadsheet mode.
    started = time.monotonic()
    done = pql_command("--cluster", f"tcp://127.0.0.1:{silent_port}", "-c", QUICK)
    assert time.monotonic() - started < 15
    assert done.returncode == 1
    silent = f"tcp://127.0.0.1:{silent_port}"
    assert done.stderr == f"pql: no answer from {silent} within 2 s: is a Dask scheduler listening there?\n"
    template = tmp_path / "t.pql"
    template.write_text("select avg(riverEquity(p1)) from p1='#H#', p2='KK'\n")
    rows = tmp_path / "rows.csv"
    rows.write_text("H\nAA\n")
    options = ["--template", str(template), "--rows", str(rows)]
    done = pql_command("--cluster", f"tcp://127.0.0.1:{closed_port}", *options)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert f"no Dask scheduler at tcp://127.0.0.1:{closed_port}: connection refused" in done.stderr
