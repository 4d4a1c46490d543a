"""A dot-command's output in the app's results history (`.help`, `.show`, `.functions`, …): the
text as the command wrote it, never read as Rich markup (`.help`'s `[BOARD]`, `[STREET]` and
`[PATTERN]` are text), and its two-column tables kept in line when a long line wraps."""

from __future__ import annotations

import re

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

#: A line of a two-column table: the first column, padding of two spaces or more, the second.
_ROW = re.compile(r"(\S.*?) {2,}(\S.*)")


class CommandOutput:
    """A command's output as the results history draws it; ``str()`` gives the text back."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.parts = _parts(text)

    def __str__(self) -> str:
        return self.text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Group(*self.parts)


def command_output(text: str) -> CommandOutput:
    """``text`` shown literally. Runs of two or more lines whose second column starts in one
    place (a padded table, as `.help` and `.show` write) become a grid: each column wraps inside
    itself, so the second one starts in one column however narrow the panel."""
    return CommandOutput(text)


def _parts(text: str) -> list[RenderableType]:
    parts: list[RenderableType] = []
    block: list[re.Match[str]] = []

    def flush() -> None:
        if len(block) >= 2 and len({m.start(2) for m in block}) == 1:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(overflow="fold")
            grid.add_column(overflow="fold")
            for m in block:
                grid.add_row(Text(m.group(1)), Text(m.group(2)))
            parts.append(grid)
        else:
            parts.extend(Text(m.string) for m in block)
        block.clear()

    for line in text.split("\n"):
        row = _ROW.fullmatch(line.rstrip())
        if row is None:
            flush()
            parts.append(Text(line))
        else:
            block.append(row)
    flush()
    return parts
