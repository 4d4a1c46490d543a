"""Modal screens: F1 help (generated from the catalogue) and Ctrl+R history search."""

from __future__ import annotations

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from pql_repl.session import COMMANDS
from pql_repl.vocabulary import vocabulary

RANGE_CHEATSHEET = """\
| write | means |
| --- | --- |
| `AKs`, `AKo`, `AK` | suited, offsuit, both (classic syntax) |
| `QQ+`, `ATs+`, `TT-77`, `KQs-K9s` | at least, spans |
| `AsKs`, `AsK` | exact cards; the ace of spades with any king |
| `15%`, `5%-10%`, `15%6h` | top hands by the game's ordering (6-handed: `6h`) |
| `AA@10, KK@5` | weights (relative, 1..100) |
| `,` `:` `!` `( )` | union, intersection, difference, grouping |
| `group1`..`group8`, `suited`, `pair`, `Kx` | named classes (hold'em) |
| `AwKw`, `RRON`, `[K-T]`, `$ds` | generic syntax: suit and rank variables, spans, macros |
| `*`, `**` | any hand |
"""


def _cell(text: str) -> str:
    """``text`` for a markdown table cell: a bare ``|`` would end the cell (even in code)."""
    return text.replace("|", "\\|")


def help_markdown(bindings: list[tuple[str, str]]) -> str:
    """The help text: key bindings, games and streets, the range cheatsheet, every function."""
    vocab = vocabulary()
    parts = ["# pql help", "", "## Keys", "", "| key | action |", "| --- | --- |"]
    parts += [f"| `{_cell(key)}` | {_cell(action)} |" for key, action in bindings]
    parts += [
        "",
        "Statements end with `;` (Enter after `;` runs them); dot-commands run on their own line.",
        "",
        "## Games",
        "",
        "| game | streets |",
        "| --- | --- |",
    ]
    for game in vocab.games:
        parts.append(f"| `{game}` | {' '.join(vocab.streets_for(game))} |")
    parts += ["", "## Dot-commands", "", "| command | what it does |", "| --- | --- |"]
    parts += [f"| `{_cell(c.usage)}` | {_cell(c.summary)} |" for c in COMMANDS.values()]
    parts += ["", "## Ranges", "", RANGE_CHEATSHEET, "## Functions", ""]
    for f in vocab.functions:
        parts += [f"### {f.name}", "", f"`{f.signature}`", "", f.doc, "", f"Example: `{f.example}`", ""]
    return "\n".join(parts)


class HelpScreen(ModalScreen[None]):
    """F1: everything a user needs while typing a query."""

    BINDINGS = [  # noqa: RUF012 - Textual reads the class attribute
        Binding("escape,f1,q", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, bindings: list[tuple[str, str]]) -> None:
        super().__init__()
        self.markdown = help_markdown(bindings)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(Markdown(self.markdown), id="help-text")


class HistorySearch(ModalScreen[str | None]):
    """Ctrl+R: type to filter past queries (newest first), Enter picks one."""

    BINDINGS = [  # noqa: RUF012 - Textual reads the class attribute
        Binding("escape", "dismiss_none", "Close", id="history.close"),
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
    ]

    def __init__(self, entries: list[str]) -> None:
        super().__init__()
        self.entries = entries

    def compose(self) -> ComposeResult:
        with Vertical(id="history-search"):
            yield Input(placeholder="search history", id="history-input")
            yield OptionList(id="history-options")

    def on_mount(self) -> None:
        self._fill("")

    def _fill(self, needle: str) -> None:
        options = self.query_one("#history-options", OptionList)
        options.clear_options()
        found = [e for e in self.entries if needle.lower() in e.lower()]
        options.add_options([Option(e.replace("\n", " ⏎ "), id=str(i)) for i, e in enumerate(found)])
        self._found = found
        if found:
            options.highlighted = 0

    def on_input_changed(self, event: Input.Changed) -> None:
        self._fill(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        options = self.query_one("#history-options", OptionList)
        index = options.highlighted
        self.dismiss(self._found[index] if index is not None and self._found else None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._found[event.option_index])

    def action_move(self, step: int) -> None:
        options = self.query_one("#history-options", OptionList)
        if step > 0:
            options.action_cursor_down()
        else:
            options.action_cursor_up()

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
