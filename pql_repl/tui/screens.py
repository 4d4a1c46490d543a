"""Modal screens: F1 help (generated from the catalogue), Ctrl+R history search and the Ctrl+S
export dialog."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from rich.markdown import Markdown
from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from pql_repl.session.session import COMMANDS
from pql_repl.session.simulate_help import SIMULATE_KEY_DOCS, SIMULATE_SUMMARY
from pql_repl.session.vocabulary import vocabulary

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
| `Connected Suited`, `AK Suited` | side by side with a class word: and (HoldemHand) |
| `Intersection`, `Union`, `Not`, `Offset` | HoldemHand's words: and, or, not, offsuit |
| `AK*`, `QJ` | every AK, every QJ (HoldemHand's `QJ` is offsuit only) |
| `AwKw`, `RRON`, `[K-T]`, `$ds` | generic syntax: suit and rank variables, spans, macros |
| `*`, `**` | any hand |
"""


def _cell(text: str) -> str:
    """``text`` for a markdown table cell: a bare ``|`` would end the cell (even in code)."""
    return text.replace("|", "\\|")


def help_markdown(bindings: list[tuple[str, str]], needle: str = "") -> str:
    """The help text: key bindings, games and streets, the dot-commands, the range cheatsheet and
    every function; with a ``needle``, only the rows and functions that mention it."""
    vocab = vocabulary()
    low = needle.strip().lower()

    def keep(*texts: str) -> bool:
        return not low or any(low in t.lower() for t in texts)

    def table(title: str, header: str, rows: Sequence[tuple[str, ...]], note: str = "") -> list[str]:
        kept = [r for r in rows if keep(*r)]
        if not kept:
            return []
        lines = ["", f"## {title}", "", header, "| " + " | ".join("---" for _ in kept[0]) + " |"]
        lines += ["| " + " | ".join(kept_row) + " |" for kept_row in kept]
        return [*lines, *(["", note] if note else [])]

    keys = [(f"`{_cell(key)}`", _cell(action)) for key, action in bindings]
    games = [(f"`{game}`", " ".join(vocab.streets_for(game))) for game in vocab.games]
    commands = [(f"`{_cell(c.usage)}`", _cell(c.summary)) for c in COMMANDS.values()]
    ranges = [
        tuple(cell.strip() for cell in line.strip("|").split(" | "))
        for line in RANGE_CHEATSHEET.splitlines()[2:]
    ]
    parts = ["# pql help"]
    parts += table(
        "Keys",
        "| key | action |",
        keys,
        "Statements end with `;` (Enter after `;` runs them); dot-commands run on their own line.",
    )
    parts += table("Games", "| game | streets |", games)
    parts += table("Dot-commands", "| command | what it does |", commands)
    parts += table("Ranges", "| write | means |", ranges)
    simulate = [(f"`{key}=`", _cell(doc)) for key, doc in SIMULATE_KEY_DOCS.items()]
    simulate.insert(0, ("`simulate`", _cell(" ".join(SIMULATE_SUMMARY.split()))))
    parts += table("Simulate", "| key | means |", simulate)
    functions = [f for f in vocab.functions if keep(f.name, f.signature, f.doc, f.example)]
    if functions:
        parts += ["", "## Functions", ""]
    for f in functions:
        parts += [f"### {f.name}", "", f"`{f.signature}`", "", f.doc, "", f"Example: `{f.example}`", ""]
    if len(parts) == 1:
        parts += ["", f"Nothing in the help mentions '{needle.strip()}'."]
    return "\n".join(parts)


class HelpScreen(ModalScreen[None]):
    """F1: everything a user needs while typing a query, filtered by what is typed in its box."""

    BINDINGS = [  # noqa: RUF012 - Textual reads the class attribute
        Binding("escape,f1", "dismiss", "Close", id="help.close"),
        Binding("pageup", "scroll(-1)", show=False),
        Binding("pagedown", "scroll(1)", show=False),
    ]

    def __init__(self, bindings: list[tuple[str, str]]) -> None:
        super().__init__()
        self.key_rows = bindings
        self.markdown = help_markdown(bindings)

    def compose(self) -> ComposeResult:
        with Vertical(id="help"):
            yield Input(placeholder="filter: a function, key, command or game", id="help-filter")
            with VerticalScroll(id="help-scroll"):
                yield Static(Markdown(self.markdown), id="help-text")

    def on_input_changed(self, event: Input.Changed) -> None:
        self.markdown = help_markdown(self.key_rows, event.value)
        self.query_one("#help-text", Static).update(Markdown(self.markdown))
        self.query_one("#help-scroll", VerticalScroll).scroll_home(animate=False)

    def action_scroll(self, pages: int) -> None:
        scroll = self.query_one("#help-scroll", VerticalScroll)
        if pages > 0:
            scroll.scroll_page_down()
        else:
            scroll.scroll_page_up()


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


#: What Ctrl+S writes, by the file's extension.
EXPORT_FORMATS = {
    ".csv": "csv",
    ".json": "json",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
}


def export_format(path: Path) -> str | None:
    """The format a file name asks for, or None for an extension pql does not write."""
    return EXPORT_FORMATS.get(path.suffix.lower())


#: A download's name in a served session: a file name alone, no folder (the browser saves it).
DOWNLOAD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


class ExportDialog(ModalScreen[Path | None]):
    """Ctrl+S: the file to write the results to, prefilled; the format follows the extension.
    A file that exists is overwritten only after a second Enter. In a served session
    (``download``) it asks only for a name: the results download to the browser, and nothing
    is written on the server."""

    BINDINGS = [  # noqa: RUF012 - Textual reads the class attribute
        Binding("escape", "dismiss_none", "Cancel", id="export.close"),
    ]

    def __init__(self, suggested: Path, count: int, *, download: bool = False) -> None:
        super().__init__()
        self.suggested = suggested
        self.count = count
        self.download = download
        self._confirmed: Path | None = None

    def compose(self) -> ComposeResult:
        noun = "result" if self.count == 1 else "results"
        verb = "Download" if self.download else "Export"
        where = "as" if self.download else "to"
        with Vertical(id="export"):
            formats = ".csv, .json, .md or .html"
            yield Static(f"{verb} {self.count} {noun} {where} ({formats}):", id="export-title")
            yield Input(str(self.suggested), id="export-path")
            yield Static(self._usage(), id="export-note")

    def _usage(self) -> str:
        return "Enter downloads · Escape cancels" if self.download else "Enter writes · Escape cancels"

    def on_mount(self) -> None:
        path_input = self.query_one("#export-path", Input)
        path_input.focus()
        # The cursor before the extension: a new name is typed over the stem's end.
        path_input.cursor_position = len(str(self.suggested)) - len(self.suggested.suffix)

    def on_input_changed(self, _: Input.Changed) -> None:
        self._confirmed = None
        self._note(self._usage())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self._note("[red]name a file[/red]")
            return
        if self.download:
            self._submit_download(text)
            return
        path = Path(text).expanduser()
        if export_format(path) is None:
            wrong = escape(path.suffix or path.name)
            self._note(f"[red]'{wrong}': name a .csv, .json, .md or .html file[/red]")
            return
        if path.is_dir() or not path.parent.is_dir():
            self._note(f"[red]cannot write '{escape(str(path))}': no such directory[/red]")
            return
        if path.exists() and self._confirmed != path:
            self._confirmed = path
            self._note(f"[yellow]'{escape(path.name)}' exists: Enter again replaces it[/yellow]")
            return
        self.dismiss(path)

    def _submit_download(self, text: str) -> None:
        """A served session's download: a plain file name, its extension giving the format."""
        if not DOWNLOAD_NAME.fullmatch(text):
            self._note(
                "[red]a name only (letters, digits, '.', '_', '-'): "
                "the file downloads to your browser, not to a folder here[/red]"
            )
            return
        if export_format(Path(text)) is None:
            self._note(f"[red]'{escape(text)}': name a .csv, .json, .md or .html file[/red]")
            return
        self.dismiss(Path(text))

    def _note(self, text: str) -> None:
        self.query_one("#export-note", Static).update(text)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
