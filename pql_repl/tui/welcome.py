"""The start screen: a short welcome, three example queries that a key runs, and the main keys.

In an empty editor 1, 2 and 3 run the examples; when the editor starts with the text of the last
session they are typed as any key is, and the welcome says to reach the examples with F6."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

EXAMPLES = (
    "select avg(riverEquity(hero)) as equity from hero='AA', villain='KK';",
    "select avg(riverEquity(hero)) as equity, histogram(handType(hero, river)) as hands\n"
    "from hero='AKs', villain='15%';",
    "select avg(riverEquity(hero)) as equity, count(scoops(hero)) as scoops\n"
    "from game='omaha8', hero='A2**', villain='15%';",
)

MAIN_KEYS = (
    ("F5", "run the editor"),
    ("F4", "run the statement at the cursor"),
    ("Ctrl+R", "history"),
    ("F1", "help"),
    ("F6", "results"),
    ("F10", "full screen"),
    ("Ctrl+S", "export"),
    ("Ctrl+Q", "quit"),
)


class ExampleList(OptionList):
    """The examples: 1, 2, 3 or Enter runs one (an empty editor takes 1, 2 and 3 for them too)."""

    class Chosen(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self) -> None:
        options = [
            Option(Text.assemble((f"{i} ", "bold"), text.replace("\n", " ")))
            for i, text in enumerate(EXAMPLES, 1)
        ]
        super().__init__(*options, id="examples")

    async def _on_key(self, event: events.Key) -> None:
        if event.character in ("1", "2", "3"):
            event.stop()
            self.post_message(self.Chosen(int(event.character) - 1))
            return
        await super()._on_key(event)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(event.option_index))


#: How typing runs, as the welcome says it (two lines at 80 columns, with the rest).
ENTER_RUNS = "[b]Enter[/b] after {which} [b];[/b] runs it once ([b]F5[/b]: the whole editor)"


class Welcome(Vertical):
    """Shown in the results' place until the first run. ``restored``: the editor starts with the
    last session's text, so digits typed there are text, not examples."""

    class Closed(Message):
        """The welcome is gone: digits typed in the editor are text from now on."""

    def __init__(self, restored: bool = False) -> None:
        super().__init__(classes="welcome")
        self.restored = restored

    def compose(self) -> ComposeResult:
        if self.restored:
            enter = ENTER_RUNS.format(which="a statement's")
            text = (
                "[b]Welcome back[/b]: your last text is in the editor. "
                f"{enter}; [b]F6[/b] then [b]1[/b], [b]2[/b] or [b]3[/b] runs an example:"
            )
        else:
            text = (
                "[b]Welcome to pql[/b], the poker query language. Press [b]1[/b], [b]2[/b] or "
                f"[b]3[/b] to run an example, or type statements: {ENTER_RUNS.format(which='each')}:"
            )
        yield Static(text, classes="welcome-text")
        yield ExampleList()
        keys = " · ".join(f"[b]{key}[/b] {what}" for key, what in MAIN_KEYS)
        yield Static(keys, classes="welcome-keys")

    def on_unmount(self) -> None:
        self.app.post_message(self.Closed())
