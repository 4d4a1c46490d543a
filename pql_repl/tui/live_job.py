"""A live engine job (the explorer's heatmap, the term explorer's equity distribution) read
from a worker thread: its snapshots travel to the widget as messages, numbered by run so that
the last words of a job that was replaced are ignored."""

from __future__ import annotations

from typing import Protocol

from textual.message import Message
from textual.widget import Widget
from textual.worker import get_current_worker

from pql_repl.base.errors import PqlError

#: How long a poll waits for news before it looks again whether its worker was cancelled.
POLL_SECONDS = 0.15


class Snapshot(Protocol):
    @property
    def done(self) -> bool: ...


class Job(Protocol):
    def poll(self, timeout: float) -> Snapshot | None: ...


class JobUpdate(Message):
    """A snapshot of run ``run`` (or the error that ended it). Each kind of job subclasses it,
    so that its widget's handler is named after it."""

    def __init__(self, run: int, snapshot: Snapshot | None, error: str | None = None) -> None:
        super().__init__()
        self.run = run
        self.snapshot = snapshot
        self.error = error

    def can_replace(self, message: Message) -> bool:
        # A backlog of snapshots collapses to the newest; the last one of a run is never dropped.
        return (
            type(message) is type(self)
            and isinstance(message, JobUpdate)
            and message.run == self.run
            and message.snapshot is not None
            and not message.snapshot.done
        )


def relay_snapshots(widget: Widget, run: int, job: Job, update: type[JobUpdate]) -> None:
    """Posts ``job``'s snapshots to ``widget`` as ``update`` messages until the job is done,
    fails or the calling worker is cancelled. Runs in a thread worker."""
    worker = get_current_worker()
    while not worker.is_cancelled:
        try:
            snap = job.poll(POLL_SECONDS)
        except PqlError as e:
            widget.post_message(update(run, None, str(e).splitlines()[0]))
            return
        if snap is not None:
            widget.post_message(update(run, snap))
            if snap.done:
                return
