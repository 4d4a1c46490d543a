"""What the range explorers say to the app and to themselves: the messages (a range edited, an
explorer closed, a heatmap's snapshot, reweighted weights), what a heatmap depends on
(``HeatInputs``), and the line that says which actions reweighted a range."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual.message import Message

from pql_repl.api.exploration import HeatmapSnapshot
from pql_repl.tui.live_job import JobUpdate


class HeatmapUpdate(JobUpdate):
    """A heatmap snapshot, posted by the worker that polls it."""

    snapshot: HeatmapSnapshot | None


class WeightsUpdate(Message):
    """The player's reweighted class weights for the inputs of ``key`` (None: nothing
    reweights the range), worked out in a thread."""

    def __init__(self, key: tuple[object, ...], weights: list[float | None] | None) -> None:
        super().__init__()
        self.key = key
        self.weights = weights


class RangeEdited(Message):
    """An explorer changed the range: ``text`` replaces the player's range at ``start:end`` of
    the query text the explorer was last given."""

    def __init__(self, text: str, start: int, end: int) -> None:
        super().__init__()
        self.text = text
        self.start = start
        self.end = end


class ExplorerClosed(Message):
    """Escape in an explorer: the app hides it and goes back to the editor."""


@dataclass(frozen=True)
class HeatInputs:
    """What the heatmap depends on: the game, the other players' ranges, the board, dead cards."""

    game: str
    villains: tuple[str, ...]
    board: str | None
    dead: str | None
    syntax: str | None
    ordering: str | None


def actions_text(history: str | None, observed: Sequence[tuple[str, str, str]], player: str) -> str:
    """The actions that reweight ``player``'s range, for the legend: ``raise on flop, call on
    turn`` (the statement's history, then what was observed)."""
    actions: list[str] = []
    for item in (history or "").split(","):
        who, _, act = item.strip().partition(":")
        action, _, street = act.partition("@")
        if who.strip().lower() == player.lower() and action:
            actions.append(f"{action.strip()} on {street.strip()}")
    actions += [f"{a} on {st}" for p, a, st in observed if p.lower() == player.lower()]
    return ", ".join(actions) if actions else "the other players' actions"
