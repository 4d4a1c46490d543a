"""The explorer's dialogs: the suit picker (single hands of a class), the prompts for a named
range's name and for a weight, and the list of named ranges to open."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from pql_repl.api.catalogue import percent_value, range_name_error
from pql_repl.editors.range_edit import FULL


class SuitPicker(ModalScreen[dict[int, float] | None]):
    """The hands of one class to take in or out one by one: space toggles, Enter keeps the
    choice, Escape drops it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_hand", "Toggle"),
        Binding("a", "all", "All"),
        Binding("enter", "done", "Keep"),
        Binding("escape", "dismiss_picker", "Cancel"),
    ]

    def __init__(self, name: str, hands: list[tuple[int, str, float]]) -> None:
        super().__init__()
        self.class_name = name
        #: (hand index, cards, weight) per hand of the class.
        self.hands = hands
        self.chosen: dict[int, float] = {h: w for h, _, w in hands}

    def compose(self) -> ComposeResult:
        with Vertical(id="suit-picker"):
            yield Static(f"{self.class_name}: space toggles a hand, a all, Enter keeps, Escape cancels")
            yield OptionList(
                *[Option(self._label(h, cards), id=str(h)) for h, cards, _ in self.hands], id="suits"
            )

    def _label(self, h: int, cards: str) -> str:
        return f"[{'x' if self.chosen[h] else ' '}] {cards}"

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def _refresh_labels(self) -> None:
        options = self.query_one(OptionList)
        for h, cards, _ in self.hands:
            options.replace_option_prompt(str(h), self._label(h, cards))

    def action_toggle_hand(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return
        h, _, weight = self.hands[options.highlighted]
        self.chosen[h] = 0 if self.chosen[h] else (weight or FULL)
        self._refresh_labels()

    def action_all(self) -> None:
        full = all(self.chosen.values())
        for h, _, weight in self.hands:
            self.chosen[h] = 0 if full else (self.chosen[h] or weight or FULL)
        self._refresh_labels()

    def on_option_list_option_selected(self, _: OptionList.OptionSelected) -> None:
        self.action_done()

    def action_done(self) -> None:
        self.dismiss(dict(self.chosen))

    def action_dismiss_picker(self) -> None:
        self.dismiss(None)


class NamePrompt(ModalScreen[str | None]):
    """Asks for the name to save the range under (``$open``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="name-prompt"):
            yield Static("Save the range as (Enter saves, Escape cancels):")
            yield Input(placeholder="$open", id="range-name")
            yield Static("", id="name-error")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        problem = range_name_error(event.value.strip())
        if problem:
            self.query_one("#name-error", Static).update(f"[red]{problem}[/red]")
            return
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class WeightPrompt(ModalScreen[float | None]):
    """Asks for a weight for the selection, a percent: 1 to 100, with up to four decimals
    (``33.3``), 0 takes it out (Enter sets it, Escape cancels)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="weight-prompt"):
            yield Static(
                "Weight of the selection, 1 to 100 (decimals too: 33.3); 0 takes it out "
                "(Enter sets, Escape cancels):"
            )
            yield Input(placeholder="35", id="weight", restrict=r"[0-9]{0,3}(\.[0-9]{0,4})?")
            yield Static("", id="weight-error")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", text) or float(text) > FULL:
            self.query_one("#weight-error", Static).update(f"[red]a number from 0 to {FULL}[/red]")
            return
        self.dismiss(percent_value(float(text)))

    def action_cancel(self) -> None:
        self.dismiss(None)


class NamedRangeList(ModalScreen[str | None]):
    """The user's named ranges to load one from: Enter loads, Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, ranges: Mapping[str, str]) -> None:
        super().__init__()
        self.ranges = dict(ranges)

    def compose(self) -> ComposeResult:
        with Vertical(id="named-ranges"):
            yield Static("Load a named range (Enter loads it as $name, Escape cancels):")
            yield OptionList(*[Option(f"${k}  {v}", id=k) for k, v in self.ranges.items()], id="names")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
