"""Charts of histogram results (issue 19), drawn by textual-plotext: F7 shows the histograms of
the latest statement as charts and F7 (or Escape) goes back to the table. Percent histograms
(the buckets of an equity, `0-1%` … `99-100%`) are drawn as a curve over the equity, the Odds
Oracle's "Equity Stats" graph; other histograms as bars, one per value.

`.plot equity PLAYER [STREET]` draws that graph as the Odds Oracle does: the distribution over
the deals of the player's equity against the other players' ranges (``HvREquity``), sampled
with a budget of deals that finishes in seconds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static
from textual_plotext import PlotextPlot

from pql_repl.api.results import DEFAULT_TRIALS, Column, StatementResult

if TYPE_CHECKING:
    from pql_repl.session.from_clause import FromClause

#: Deals `.plot equity` samples (fewer when `.trials` says so): each deal's HvREquity is itself
#: an enumeration or 2,000 sampled showdowns, so this is seconds, not minutes.
PLOT_TRIALS = 2_000


def plot_options(options: dict[str, Any]) -> dict[str, Any]:
    """The run options of `.plot equity` from the session's: Monte Carlo, at most PLOT_TRIALS
    deals, the session's seed and threads."""
    return {**options, "exact": False, "trials": min(options.get("trials") or DEFAULT_TRIALS, PLOT_TRIALS)}


def equity_plot_query(player: str, street: str, clause: FromClause) -> str:
    """The statement `.plot equity` runs: the player's equity against ranges, by deal."""
    settings = ", ".join(f"{s.key}='{s.value}'" for s in clause.settings)
    return f"select histogram(HvREquity({player}, {street})) from {settings};"


def equity_plot_title(player: str, street: str, trials: int) -> str:
    return (
        f"{player}'s equity against the other players' ranges on the {street} (HvREquity, {trials:,} deals)"
    )


def histogram_columns(result: StatementResult) -> list[Column]:
    return [c for c in result.columns if c.selector == "histogram" and c.buckets]


def is_percent(column: Column) -> bool:
    """Buckets of an equity histogram: `12-13%`."""
    return all(b.label.endswith("%") and "-" in b.label for b in column.buckets)


def draw(plot: PlotextPlot, column: Column, title: str | None = None) -> None:
    """``column``'s buckets on ``plot``: shares of the deals in percent, titled ``title`` (else
    the column's name)."""
    plt = plot.plt
    plt.clear_data()
    shares = [100 * b.fraction for b in column.buckets]
    if is_percent(column):
        # The bucket's lower end: 0 … 99 (equity in percent).
        lows = [float(b.label.split("-", 1)[0]) for b in column.buckets]
        plt.plot(lows, shares, marker="braille")
        plt.xlim(0, 100)
        plt.xlabel("equity %")
    else:
        plt.bar([b.label for b in column.buckets], shares)
    if shares and min(shares) == max(shares):
        # One value (or all equal): plotext would span the axis from half the value to one and
        # a half times it, as if shares could pass 100%; a share's axis starts at 0.
        plt.ylim(0, max(shares) or 1)
    plt.ylabel("% of deals")
    plt.title(title or column.name)


class ChartScreen(ModalScreen[None]):
    """The histograms of one result as charts."""

    BINDINGS = [  # noqa: RUF012 - Textual reads the class attribute
        Binding("escape,f7", "dismiss", "Table", id="chart.close"),
    ]

    def __init__(self, result: StatementResult, title: str | None = None) -> None:
        super().__init__()
        self.result = result
        self.columns = histogram_columns(result)
        #: The first chart's title (None: the column's name).
        self.title = title

    def compose(self) -> ComposeResult:
        with Vertical(id="chart"):
            yield Static("F7 or Escape: back to the table", id="chart-status")
            for i, _ in enumerate(self.columns):
                yield PlotextPlot(id=f"chart-{i}")

    def on_mount(self) -> None:
        for i, column in enumerate(self.columns):
            draw(self.query_one(f"#chart-{i}", PlotextPlot), column, self.title if i == 0 else None)
