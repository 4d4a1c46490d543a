"""The `.odds` screens (issue 19), computed live by the engine in a worker thread: HoldemHand's
odds view (a table row per number of random opponents, filled row by row; Escape cancels the run,
keeping the rows done, and Escape again closes), and the MultiOdds report of one count or of
given ranges (Escape cancels the run and closes). F7 on either opens a bar chart of what it shows
(issue 37): win, tie and equity by the number of opponents, or the final hand types' shares and
win rates; F7 or Escape goes back.

The odds view's columns fit the width they get (issue 37): each is as wide as its header and its
widest number, never less, and the room left is spread between them. When they are too many for
the width, the two columns that say how each row was computed leave the table for lines under it,
then "opponents" is headed "opp", then the columns stand one space apart; a number not computed
yet (a row still running) shows as "…"."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Generic, NamedTuple, TypeVar

from rich.markup import escape
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static
from textual_plotext import PlotextPlot

from pql_repl.api.multi_odds import (
    TABLE_COLUMNS,
    TABLE_LEGEND,
    Odds,
    OddsRow,
    OddsRun,
    OddsTable,
    OddsTableRun,
    format_odds,
    table_cells,
    table_title,
)
from pql_repl.base.errors import PqlCancelled, PqlError

Run = TypeVar("Run", OddsRun, OddsTableRun)
Snap = TypeVar("Snap", Odds, OddsTable)
_T = TypeVar("_T")

#: What a number not computed yet shows (the engine's value is nan until its statement runs).
PENDING = "…"
#: The odds view's columns by name, in order: the count, eight percentages, then how the row's
#: two statements were computed.
NAMES = tuple(name for name, _ in TABLE_COLUMNS)
PERCENTS = NAMES[1:9]
HOW = NAMES[9:]
#: A percentage column is at least as wide as ``50.55%``, so it does not widen as numbers come.
PERCENT_WIDTH = 6
#: The short header of the count, when the full one does not fit.
SHORT = {"opponents": "opp"}
#: At most this many cells of spare room go to each column (the rest stays at the right).
MOST_SPREAD = 6


def shown_cells(o: Odds) -> tuple[str, ...]:
    """One row of the odds view as the screen shows it: ``table_cells`` with ``PENDING`` for a
    number not computed yet."""
    return tuple(PENDING if cell == "nan%" else cell for cell in table_cells(o))


def shown_report(o: Odds) -> str:
    """``format_odds`` with ``PENDING`` (right-aligned as the numbers) for a number not computed yet."""
    return format_odds(o).replace("   nan%", "      " + PENDING)


class OddsLayout(NamedTuple):
    """The odds view's columns for one width: (name, header, width), the width with the gap to
    the column before; the headers and numbers are right-aligned in it."""

    columns: tuple[tuple[str, str, int], ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _, _ in self.columns)

    @property
    def how_below(self) -> bool:
        """The how-computed columns are lines under the table."""
        return HOW[0] not in self.names


def fit_layout(rows: Sequence[Sequence[str]], width: int) -> OddsLayout:
    """The columns for ``rows`` (cells in ``NAMES`` order) in ``width`` cells: the first of these
    that fits, else the last (the table then scrolls sideways, nothing cut): every column two
    apart; without the how-computed columns; with "opp" for "opponents"; one apart. Room left over
    is spread between the columns, at most ``MOST_SPREAD`` each."""

    def content(name: str, header: str) -> int:
        i = NAMES.index(name)
        least = PERCENT_WIDTH if name in PERCENTS else 0
        return max(len(header), least, *(len(row[i]) for row in rows))

    numbers = NAMES[:9]
    none: dict[str, str] = {}
    tries = ((NAMES, none, 2), (numbers, none, 2), (numbers, SHORT, 2), (numbers, SHORT, 1))
    for names, short, gap in tries:
        headers = [short.get(name, name) for name in names]
        widths = [gap + content(name, header) for name, header in zip(names, headers, strict=True)]
        if sum(widths) <= width:
            break
    spare = max(0, width - sum(widths))
    each = min(MOST_SPREAD, spare // len(widths))
    rest = spare - each * len(widths) if each < MOST_SPREAD else 0
    # The remainder to the last columns: the widest gaps where the text columns are.
    widths = [w + each + (i >= len(widths) - rest) for i, w in enumerate(widths)]
    return OddsLayout(tuple(zip(names, headers, widths, strict=True)))


def how_lines(rows: Mapping[str, Sequence[str]]) -> str:
    """The how-computed columns as lines, each value once with the counts that share it:
    ``showdown by opponents: 1 exact · 2-9 600,000 trials``."""
    lines = []
    for name in HOW:
        i = NAMES.index(name)
        groups: list[tuple[str, list[str]]] = []
        for count, cells in rows.items():
            if groups and groups[-1][0] == cells[i]:
                groups[-1][1].append(count)
            else:
                groups.append((cells[i], [count]))
        spans = (f"{c[0]}-{c[-1]}" if len(c) > 1 else c[0] for _, c in groups)
        parts = [f"{span} {value}" for span, (value, _) in zip(spans, groups, strict=True)]
        lines.append(f"{name} by opponents: " + " · ".join(parts))
    return "\n".join(lines)


# --- charts ---------------------------------------------------------------------------------


class BarPanel(NamedTuple):
    """One bar chart: bars of each series side by side over the labels, in percent."""

    title: str
    xlabel: str
    labels: tuple[str, ...]
    series: tuple[tuple[str, tuple[float, ...]], ...]


def table_panels(t: OddsTable) -> list[BarPanel]:
    """The odds view's chart (HoldemHand's MultiOdds graph): win, tie and equity against each
    number of random opponents, the rows done so far."""
    done = [o for o in t.rows if o.done]
    series = (
        ("win", tuple(100 * o.win for o in done)),
        ("tie", tuple(100 * o.tie for o in done)),
        ("equity", tuple(100 * o.equity for o in done)),
    )
    labels = tuple(str(len(o.opponents)) for o in done)
    return [BarPanel(table_title(t.hand, t.board, t.counts), "random opponents", labels, series)]


def report_panels(o: Odds) -> list[BarPanel]:
    """The MultiOdds report's chart: the player's final hand types and the best opponent's, each
    with its share of the deals and the player's win rate in it."""
    who = ", ".join(o.opponents) if any(r != "*" for r in o.opponents) else f"{len(o.opponents)} random"

    def panel(title: str, rows: tuple[OddsRow, ...]) -> BarPanel:
        series = (
            ("share of the deals", tuple(100 * r.share for r in rows)),
            ("player's win rate", tuple(100 * r.win for r in rows)),
        )
        return BarPanel(title, "hand type at the river", tuple(r.hand_type for r in rows), series)

    head = f"{o.hand} on {o.board or '(no board)'} against {who}"
    return [
        panel(f"{head}: the player's hand", o.player_types),
        panel("the best opponent's hand", o.opponent_types),
    ]


def draw_bars(plot: PlotextPlot, panel: BarPanel) -> None:
    plt = plot.plt
    plt.clear_data()
    if panel.labels:
        heights = [list(values) for _, values in panel.series]
        names = [name for name, _ in panel.series]
        # plotext takes `labels` (the legend); its stub says `label`.
        plt.multiple_bar(list(panel.labels), heights, labels=names)  # type: ignore[call-arg]
    plt.title(panel.title if panel.labels else f"{panel.title} (no row finished yet)")
    plt.xlabel(panel.xlabel)
    plt.ylabel("%")
    plot.refresh()


class OddsChart(ModalScreen[None]):
    """F7 on an odds screen: its numbers as bar charts, redrawn as the run goes on."""

    BINDINGS = [  # noqa: RUF012 - Textual reads the class attribute
        Binding("escape,f7", "dismiss", "Back to the odds", id="odds_chart.close"),
    ]

    def __init__(self, panels: list[BarPanel]) -> None:
        super().__init__()
        self.panels = panels

    def compose(self) -> ComposeResult:
        with Vertical(id="chart"):
            yield Static("F7 or Escape: back to the odds", id="chart-status")
            for i, _ in enumerate(self.panels):
                yield PlotextPlot(id=f"chart-{i}")

    def on_mount(self) -> None:
        self.update(self.panels)

    def update(self, panels: list[BarPanel]) -> None:
        self.panels = panels
        for i, panel in enumerate(panels):
            draw_bars(self.query_one(f"#chart-{i}", PlotextPlot), panel)


# --- the screens ----------------------------------------------------------------------------


class _LiveOdds(ModalScreen[None], Generic[Run, Snap]):
    """A screen fed by an odds run in a worker thread: ``show`` gets each snapshot, ``finish``
    the words that end it (done, cancelled, or the error). ``open_chart`` (F7) charts it."""

    # On a small terminal the whole screen (app.tcss gives 90%), so the numbers fit 80 columns.
    DEFAULT_CSS = """
    _LiveOdds #odds {
        min-width: 80;
        max-width: 100%;
        min-height: 24;
        max-height: 100%;
    }
    """

    #: What the status line says when the run is cancelled.
    CANCELLED = "cancelled"

    def __init__(self, run: Run) -> None:
        super().__init__()
        self.odds_run: Run = run
        #: The latest snapshot shown (None before the first).
        self.latest: Snap | None = None
        self.finished = False
        #: The chart open over this screen (F7), kept up to date.
        self.chart: OddsChart | None = None
        #: Dismissed: what the run still sends is not shown.
        self.closed = False

    @work(thread=True, exclusive=True, group="odds")
    def compute(self) -> None:
        try:
            for snap in self.odds_run:
                self.app.call_from_thread(self._while_open, self.show, snap)
            self.app.call_from_thread(self._while_open, self.finish, self.done_words())
        except PqlCancelled:
            self.app.call_from_thread(self._while_open, self.finish, self.CANCELLED)
        except PqlError as e:
            self.app.call_from_thread(self._while_open, self.finish, f"[red]{escape(str(e))}[/red]")

    def _while_open(self, call: Callable[[_T], None], arg: _T) -> None:
        """``call(arg)`` unless the screen was closed meanwhile (Escape cancels and closes the
        MultiOdds screen at once: the run's last words come after it is gone)."""
        if not self.closed:
            call(arg)

    def done_words(self) -> str:
        return "done"

    def show(self, snap: Snap) -> None:
        raise NotImplementedError

    def finish(self, message: str) -> None:
        raise NotImplementedError

    def panels(self, snap: Snap) -> list[BarPanel]:
        raise NotImplementedError

    def open_chart(self) -> None:
        """F7: the chart of what the screen shows (the app's F7 calls this)."""
        if self.latest is None:
            self.notify("nothing computed yet to chart")
            return
        chart = OddsChart(self.panels(self.latest))
        self.chart = chart

        def closed(_: None) -> None:
            self.chart = None

        self.app.push_screen(chart, closed)

    def redraw_chart(self) -> None:
        if self.chart is not None and self.latest is not None and self.chart.is_attached:
            self.chart.update(self.panels(self.latest))


class OddsScreen(_LiveOdds[OddsRun, Odds]):
    """Win, tie, hand strength and potentials (ours and HoldemHand's) and both MultiOdds
    tables, updated as the run goes."""

    BINDINGS = [  # noqa: RUF012 - Textual reads the class attribute
        Binding("escape", "close", "Close (cancels the run)", id="odds.close"),
    ]
    CANCELLED = "cancelled: showing what was computed"

    def compose(self) -> ComposeResult:
        with Vertical(id="odds"):
            yield Static("starting…", id="odds-status")
            with VerticalScroll(id="odds-scroll"):
                yield Static("", id="odds-report")

    def on_mount(self) -> None:
        self.compute()

    def done_words(self) -> str:
        return "done" if self.latest is None or self.latest.done else ""

    def show(self, snap: Odds) -> None:
        self.latest = snap
        self.query_one("#odds-report", Static).update(Text(shown_report(snap)))
        state = "done" if snap.done else f"running: {100 * snap.progress:.0f}%"
        self.query_one("#odds-status", Static).update(f"{state} — F7 chart · Escape closes")
        self.redraw_chart()

    def finish(self, message: str) -> None:
        self.finished = True
        if message:
            self.query_one("#odds-status", Static).update(f"{message} — F7 chart · Escape closes")

    def panels(self, snap: Odds) -> list[BarPanel]:
        return report_panels(snap)

    def action_close(self) -> None:
        self.odds_run.cancel()
        self.closed = True
        self.dismiss()


class _FittedTable(DataTable[Text]):
    """The odds view's table: says its width to the screen whenever it changes."""

    def __init__(self, on_width: Callable[[int], None], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._on_width = on_width

    def on_resize(self, _: events.Resize) -> None:
        self._on_width(self.room())

    def room(self) -> int:
        """The cells the columns may take (its width less a vertical scrollbar)."""
        scrollbar = self.styles.scrollbar_size_vertical if self.show_vertical_scrollbar else 0
        return self.content_region.width - scrollbar


class OddsTableScreen(_LiveOdds[OddsTableRun, OddsTable]):
    """HoldemHand's odds view: win, tie, equity, hand strength and potentials (ours and
    HoldemHand's) against each number of random opponents, a row each, filled as the run goes;
    its columns fit the screen's width (``fit_layout``)."""

    BINDINGS = [  # noqa: RUF012 - Textual reads the class attribute
        Binding("escape", "close", "Cancel / close", id="odds.close"),
    ]
    CANCELLED = "cancelled: the rows done are shown"
    DEFAULT_CSS = """
    OddsTableScreen #odds-how.-empty {
        display: none;
    }
    OddsTableScreen #odds-legend {
        margin-top: 1;
        color: $text-muted;
    }
    """

    def __init__(self, run: OddsTableRun) -> None:
        super().__init__(run)
        #: The rows' cells as shown, by count (the table's row keys), in order.
        self.cells: dict[str, tuple[str, ...]] = {}
        self.fitted: OddsLayout | None = None
        self._room = 0
        self._status = "starting…"

    def compose(self) -> ComposeResult:
        with Vertical(id="odds"):
            yield Static(escape(table_title(self.odds_run.hand, self.odds_run.board, self.odds_run.counts)))
            yield Static(self._status, id="odds-status")
            with VerticalScroll(id="odds-scroll"):
                yield _FittedTable(
                    self._fit_to, id="odds-table", cursor_type="row", zebra_stripes=True, cell_padding=0
                )
                yield Static("", id="odds-how")
                yield Static("", id="odds-legend")

    def on_mount(self) -> None:
        self.compute()

    def _fit_to(self, room: int) -> None:
        if room != self._room:
            self._room = room
            self._refill()

    def _refill(self) -> None:
        """The table, the how-computed lines and the legend for the rows and the room now: the
        columns laid out again only when their widths change."""
        if self._room <= 0:
            return
        table = self.query_one("#odds-table", _FittedTable)
        layout = fit_layout(list(self.cells.values()) or [("",) * len(NAMES)], self._room)
        if layout != self.fitted:
            self.fitted = layout
            row = table.cursor_row
            table.clear(columns=True)
            for name, header, width in layout.columns:
                table.add_column(Text(header, justify="right"), width=width, key=name)
            for key, cells in self.cells.items():
                table.add_row(*self._row(cells), key=key)
            if table.row_count:
                table.move_cursor(row=min(row, table.row_count - 1))
        else:
            for key, cells in self.cells.items():
                if key in table.rows:
                    for name, cell in zip(layout.names, self._row(cells), strict=True):
                        table.update_cell(key, name, cell)
                else:
                    table.add_row(*self._row(cells), key=key)
        how = self.query_one("#odds-how", Static)
        below = layout.how_below and bool(self.cells)
        how.update(Text(how_lines(self.cells)) if below else "")
        how.set_class(not below, "-empty")
        legend = " ".join(TABLE_LEGEND.split())
        if "opp" in (header for _, header, _ in layout.columns):
            legend = "opp: the number of random opponents. " + legend
        self.query_one("#odds-legend", Static).update(Text(legend))

    def _row(self, cells: Sequence[str]) -> list[Text]:
        assert self.fitted is not None
        return [Text(cells[NAMES.index(name)], justify="right") for name in self.fitted.names]

    def show(self, snap: OddsTable) -> None:
        """The snapshot's rows: the finished ones as they are, the running one updated."""
        self.latest = snap
        self.cells = {str(len(odds.opponents)): shown_cells(odds) for odds in snap.rows}
        self._refill()
        self._set_status(
            f"running: {100 * snap.progress:.0f}% — Escape cancels"
            if not snap.done
            else "done — Escape closes"
        )
        self.redraw_chart()

    def _set_status(self, text: str) -> None:
        self._status = f"{text} · F7 chart"
        self.query_one("#odds-status", Static).update(self._status)

    def finish(self, message: str) -> None:
        self.finished = True
        latest = self.latest
        if latest is not None and not latest.rows[-1].done:
            # The row cut short by a cancel: not a result.
            key = str(len(latest.rows[-1].opponents))
            self.cells.pop(key, None)
            table = self.query_one("#odds-table", _FittedTable)
            if key in table.rows:
                table.remove_row(key)
            self._refill()
        self._set_status(f"{message} — Escape closes")

    def panels(self, snap: OddsTable) -> list[BarPanel]:
        return table_panels(snap)

    def action_close(self) -> None:
        if self.finished:
            self.closed = True
            self.dismiss()
        else:
            self.odds_run.cancel()
