"""How a run shows while it goes in a notebook: a progress bar, the status line and the table of
values converging as snapshots arrive (``WidgetView``, with ipywidgets in a Jupyter kernel), or
the status line and the values as text updated in place (``TextView``, anywhere else). When the
run ends the live part is replaced by its last status line: the results themselves are the
cell's value, shown as their HTML table."""

from __future__ import annotations

import html
import importlib
import sys
import time

import IPython.display

from pql_repl.session.progress import estimates_text, status_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from pql_repl.api.results import StatementResult

#: IPython's display, typed as what it is for mypy (IPython declares no types for it).
display: Callable[..., Any] = IPython.display.display

#: Seconds between redraws: snapshots arrive every tenth of a second, and each redraw is a
#: message to the browser.
INTERVAL = 0.2
#: A statement's text in the view's title is cut to this many characters.
TITLE_CHARS = 80


def title(statement: str) -> str:
    """The statement on one line, cut to ``TITLE_CHARS``."""
    one_line = " ".join(statement.split())
    return one_line if len(one_line) <= TITLE_CHARS else one_line[: TITLE_CHARS - 1] + "…"


class TextView:
    """The status line and the values so far, as text. In a Jupyter kernel they are redrawn in
    place in the cell's output; a terminal IPython cannot redraw what it printed, so there the
    progress goes on one ``\\r`` line of stderr (after ``DELAY`` seconds, erased at the end) and
    the last status is printed once."""

    #: A terminal's progress line shows only for runs longer than this (seconds).
    DELAY = 0.5

    def __init__(self, statement: str, in_place: bool = True) -> None:
        self.title = title(statement)
        self.in_place = in_place
        self._handle: Any = None
        self._started = time.monotonic()
        self._drawn = 0.0
        self._last = ""
        self._width = 0

    def _show(self, text: str) -> None:
        self._last = text
        data = {"text/plain": text}
        if not self.in_place:
            return
        if self._handle is None:
            self._handle = display(data, raw=True, display_id=True)
        else:
            self._handle.update(data, raw=True)

    def _progress_line(self, text: str) -> None:
        if self.in_place or time.monotonic() - self._started < self.DELAY:
            return
        sys.stderr.write("\r" + text.ljust(self._width))
        sys.stderr.flush()
        self._width = len(text)

    def update(self, snapshot: StatementResult) -> None:
        now = time.monotonic()
        if now - self._drawn < INTERVAL and not snapshot.done and not snapshot.cancelled:
            return
        self._drawn = now
        self._show(f"{self.title}\n{status_text(snapshot)}\n{estimates_text(snapshot)}")
        self._progress_line(status_text(snapshot))

    def note(self, text: str) -> None:
        now = time.monotonic()
        if now - self._drawn < INTERVAL:
            return
        self._drawn = now
        self._show(f"{self.title}\n{text}")
        self._progress_line(text)

    def finish(self, text: str) -> None:
        """The run ended: its last status stays, with ``text`` (why it stopped) if any."""
        if self._width:
            sys.stderr.write("\r" + " " * self._width + "\r")
            sys.stderr.flush()
        if text or not self.in_place:
            last = "\n".join(line for line in (self._last or self.title, text) if line)
            self.in_place = True
            self._show(last)


class WidgetView:
    """A progress bar, the status line and the converging table, as ipywidgets in the cell's
    output, replaced at the end by the last status line (the widgets are closed)."""

    def __init__(self, statement: str) -> None:
        # Optional (pip install 'pql-repl[notebook]'): loaded only where ``has_widgets``.
        ipywidgets = importlib.import_module("ipywidgets")

        self.title = title(statement)
        self.bar = ipywidgets.FloatProgress(value=0.0, min=0.0, max=1.0, description="running")
        self.status = ipywidgets.HTML(value=_line(self.title, muted=True))
        self.values = ipywidgets.HTML(value="")
        self.box = ipywidgets.VBox([self.bar, self.status, self.values])
        self._handle: Any = display(self.box, display_id=True)
        self._drawn = 0.0
        self._status = ""

    def update(self, snapshot: StatementResult) -> None:
        now = time.monotonic()
        if now - self._drawn < INTERVAL and not snapshot.done and not snapshot.cancelled:
            return
        self._drawn = now
        self._status = status_text(snapshot)
        self.bar.value = min(1.0, max(0.0, snapshot.progress))
        self.bar.description = f"{snapshot.progress * 100:.0f}%"
        self.status.value = _line(self.title, muted=True) + _line(self._status)
        # The result's own table (api/html.py), its values so far: the same as the final one.
        self.values.value = snapshot._repr_html_()

    def note(self, text: str) -> None:
        now = time.monotonic()
        if now - self._drawn < INTERVAL:
            return
        self._drawn = now
        self.status.value = _line(self.title, muted=True) + _line(text)

    def finish(self, text: str) -> None:
        """The run ended: the widgets give way to the last status line (and ``text``, why it
        stopped)."""
        lines = [line for line in (self._status, text) if line]
        self._handle.update(
            {
                "text/plain": "\n".join([self.title, *lines]),
                "text/html": _line(self.title, muted=True) + "".join(_line(line) for line in lines),
            },
            raw=True,
        )
        self.box.close()
        for widget in (self.bar, self.status, self.values):
            widget.close()


def _line(text: str, muted: bool = False) -> str:
    style = "font-family: monospace" + ("; opacity: 0.6" if muted else "")
    return f"<div style='{style}'>{html.escape(text)}</div>"


def in_kernel(shell: Any) -> bool:
    """Whether the shell is a Jupyter kernel's, whose front end redraws outputs in place."""
    return getattr(shell, "kernel", None) is not None


def has_widgets(shell: Any) -> bool:
    """Whether the shell draws widgets: a Jupyter kernel's, with ipywidgets installed."""
    if not in_kernel(shell):
        return False
    try:
        importlib.import_module("ipywidgets")
    except ImportError:
        return False
    return True
