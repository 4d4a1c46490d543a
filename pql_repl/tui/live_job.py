"""A live engine job (the explorer's heatmap, the term explorer's equity distribution) read
from a worker thread: its snapshots travel to the widget as messages, numbered by run so that
the last words of a job that was replaced are ignored. ``LiveJob`` is that handling, once, for
every explorer."""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

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

    def cancel(self) -> None: ...


J = TypeVar("J", bound=Job)


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


class LiveJob(Generic[J]):
    """The one live job of a widget: starting another cancels it, its snapshots reach the widget
    as ``update`` messages from a thread worker of ``group``, and ``is_current`` tells a message
    of the job running now from the last words of one it replaced."""

    def __init__(self, widget: Widget, update: type[JobUpdate], group: str) -> None:
        self._widget = widget
        self._update = update
        self._group = group
        self._run = 0
        #: The job running now (None: none).
        self.job: J | None = None

    def start(self, job: J) -> None:
        self.stop()
        self.job = job
        self._run += 1
        run, widget, update = self._run, self._widget, self._update
        widget.run_worker(lambda: relay_snapshots(widget, run, job, update), thread=True, group=self._group)

    def stop(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.job = None

    @property
    def run(self) -> int:
        """How many jobs were started (the number of the one running now)."""
        return self._run

    def is_current(self, message: JobUpdate) -> bool:
        return message.run == self._run
