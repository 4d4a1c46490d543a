"""A sweep's table in the results (issue 17): a row per substitution, filled as rows finish,
sortable by any column (``s`` on a column sorts by it, again reverses), the weighted aggregate
under it; Enter on a row adds that row's full result to the history.

The table sits in the scrolling results history among other entries, so its height is its own:
every row when they fit the history's view, else a table scrolling within that height (``fit``),
the aggregate line always under it. (A height of ``1fr`` there, the height of a ``Vertical``,
is what is left of the history's view after the entries above it: none once the history
scrolls, and the table showed its header alone.)"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Static

from pql_repl.api.numbers import format_estimate, format_weight
from pql_repl.api.results import StatementResult
from pql_repl.api.sweeps import SweepResult, SweepRow


def _value(row: SweepRow, column: int, names: int) -> tuple[int, Any]:
    """The sort key of a cell: placeholder values as text, then the weight, then each selector's
    value (rows without one last)."""
    if column < names:
        return (0, row.values[column])
    if column == names:
        return (0, row.weight)
    if row.result is None:
        return (1, 0.0)
    value = row.result.columns[column - names - 1].value
    return (0, value) if isinstance(value, int | float) else (0, float("-inf"))


#: The grid's rows at most (and its header) before the history's view is known.
GRID_MAX = 12
#: The grid's least height: its header and two rows.
GRID_MIN = 3


class SweepTable(Vertical):
    """The table of one sweep, and its aggregate line."""

    DEFAULT_CSS = f"""
    SweepTable {{
        height: auto;
    }}
    SweepTable > SweepGrid {{
        height: auto;
        max-height: {GRID_MAX + 1};
    }}
    SweepTable > .sweep-aggregate {{
        height: auto;
    }}
    """

    class OpenRow(Message):
        """Enter on a row: show its full result."""

        def __init__(self, result: StatementResult) -> None:
            super().__init__()
            self.result = result

    def __init__(self, result: SweepResult) -> None:
        super().__init__(classes="history-entry sweep-entry")
        self.result = result
        self.sorted_by: tuple[int, bool] | None = None

    def compose(self) -> ComposeResult:
        yield SweepGrid(self)
        yield Static("", classes="sweep-aggregate")

    @property
    def grid(self) -> SweepGrid:
        return self.query_one(SweepGrid)

    def on_mount(self) -> None:
        grid = self.grid
        for name in [*self.result.names, "weight", *self.result.selectors]:
            grid.add_column(name, key=name)
        self.show(self.result)
        parent = self.parent
        if isinstance(parent, Widget) and parent.size.height:
            self.fit(parent.scrollable_content_region.height)

    def fit(self, room: int) -> None:
        """The history shows ``room`` lines: the grid takes at most what leaves its aggregate
        line in view with it, and scrolls when its rows need more."""
        aggregate = max(1, self.query_one(".sweep-aggregate", Static).size.height)
        # The entry's margin under the aggregate takes a line of the view too: without it the
        # history scrolled a line and hid the grid's header.
        below = self.styles.margin.bottom
        self.grid.styles.max_height = max(GRID_MIN, room - aggregate - below)

    def show(self, result: SweepResult) -> None:
        """The rows so far: new ones appended (in the chosen order once sorted)."""
        self.result = result
        grids = self.query(SweepGrid)
        if not grids or not grids.first().columns:
            return  # not composed or mounted yet: on_mount shows the rows of the latest result
        grid = grids.first()
        have = grid.row_count
        for i in range(have, len(result.rows)):
            grid.add_row(*result.shown_cells(result.rows[i]), key=str(i))
        if self.sorted_by is not None and have != len(result.rows):
            self._sort(*self.sorted_by)
        parts = [
            f"{s} {format_estimate(v, e)}"
            for s, (v, e) in zip(result.selectors, result.aggregate(), strict=True)
            if v is not None
        ]
        weight = sum(r.weight for r, _ in result.answered)
        state = "" if result.done else f" · {len(result.rows)} of {result.total} rows"
        self.query_one(".sweep-aggregate", Static).update(
            f"all (weight {format_weight(weight)}): " + ", ".join(parts) + state
        )

    def sort_by(self, column: int) -> None:
        """Sort by ``column``; the same column again reverses the order."""
        reverse = self.sorted_by == (column, False)
        self._sort(column, reverse)

    def _sort(self, column: int, reverse: bool) -> None:
        self.sorted_by = (column, reverse)
        names = len(self.result.names)
        rows = self.result.rows
        order = sorted(range(len(rows)), key=lambda i: _value(rows[i], column, names), reverse=reverse)
        grid = self.grid
        cursor = grid.cursor_coordinate
        grid.clear()
        for i in order:
            grid.add_row(*self.result.shown_cells(rows[i]), key=str(i))
        grid.cursor_coordinate = cursor  # clearing put it in the first cell

    def open_row(self, key: str) -> None:
        row = self.result.rows[int(key)]
        if row.result is not None:
            self.post_message(self.OpenRow(row.result))


class SweepGrid(DataTable[str]):
    """The rows; ``s`` sorts by the column under the cursor, Enter opens the row."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "sort", "Sort by column"),
        Binding("enter", "open", "Open row"),
        # Rows, not columns, are what there is more of: Home and End go to the first and last
        # row (as in the live table).
        Binding("home", "scroll_top", "Top", show=False),
        Binding("end", "scroll_bottom", "Bottom", show=False),
    ]

    def __init__(self, table: SweepTable) -> None:
        super().__init__(cursor_type="cell", zebra_stripes=True)
        self.table = table

    def action_sort(self) -> None:
        self.table.sort_by(self.cursor_coordinate.column)

    def action_open(self) -> None:
        if self.row_count:
            key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
            if key is not None:
                self.table.open_row(key)
