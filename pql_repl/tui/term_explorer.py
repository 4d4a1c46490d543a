"""The Omaha explorer (4 and 5 cards): a player's range as a list of generic-syntax terms
(``AA**$ds``, ``RRON``, ``$1G``) added, edited, negated and weighted from the keyboard, each
with its hands and share of all hands, the union's totals and a sample of its hands, and the
range's equity distribution against the other players as a bar chart. Bound both ways to the
range in the editor, like the grid explorer (``explorer.py``)."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from pql_repl.api.exploration import Distribution, DistributionSnapshot, RangeSummary, range_summary
from pql_repl.api.numbers import format_weight
from pql_repl.base.errors import PqlError
from pql_repl.editors.term_edit import Term, parse_terms, terms_text
from pql_repl.tui.bound_explorer import BoundExplorer
from pql_repl.tui.explorer_messages import ExplorerClosed
from pql_repl.tui.live_job import JobUpdate, LiveJob

#: Hands drawn for the distribution, and deals per hand.
DISTRIBUTION_HANDS = 1_000
DISTRIBUTION_DEALS = 100
#: Hands of the range shown as a sample.
SAMPLE = 8
BAR_WIDTH = 30


class TermPrompt(ModalScreen[str | None]):
    """Asks for a term's text (Enter keeps it, Escape cancels)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, value: str = "") -> None:
        super().__init__()
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(id="term-prompt"):
            yield Static("A term of the range (AA**$ds, RRON, $1G); Enter keeps it, Escape cancels:")
            yield Input(self.value, placeholder="AA**$ds", id="term-text")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TermList(Widget, can_focus=True):
    """The terms, one a line, the cursor on one; keys go to the explorer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("a", "explorer('add')", "Add"),
        Binding("enter,e", "explorer('edit')", "Edit"),
        Binding("x,delete", "explorer('remove')", "Remove"),
        Binding("exclamation_mark,minus", "explorer('negate')", "Negate"),
        Binding("u,ctrl+z", "explorer('undo')", "Undo"),
        Binding("r,ctrl+y", "explorer('redo')", "Redo"),
        Binding("escape", "explorer('close')", "Close"),
        *(Binding(str(d), f"explorer('weight({d})')", "Weight", show=False) for d in range(10)),
    ]

    def __init__(self, explorer: TermExplorer, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.explorer = explorer
        self.cursor = 0

    def action_move(self, step: int) -> None:
        n = len(self.explorer.terms)
        self.cursor = max(0, min(n - 1, self.cursor + step)) if n else 0
        self.refresh()

    async def action_explorer(self, action: str) -> None:
        self.explorer.act(action)

    def render(self) -> Text:
        ex = self.explorer
        out = Text(no_wrap=True, overflow="ellipsis")
        if not ex.terms:
            out.append("no terms: a adds one", style="dim")
        for i, t in enumerate(ex.terms):
            style = "reverse" if i == self.cursor and self.has_focus else ""
            summary = ex.summaries.get(t.text)
            sign = "not " if t.negated else "    "
            weight = f"@{t.weight}" if t.weight is not None else ""
            count = ""
            if isinstance(summary, RangeSummary):
                share = f" {summary.share * 100:6.2f}%" if summary.share is not None else ""
                count = f"{summary.hands:>9,}{share}"
            elif isinstance(summary, str):
                count = summary
            out.append(f"{sign}{t.text + weight:<22} {count}", style)
            if i < len(ex.terms) - 1:
                out.append("\n")
        return out

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return max(1, len(self.explorer.terms))


class SummariesReady(Message):
    def __init__(
        self, text: str, summaries: dict[str, RangeSummary | str], union: RangeSummary | str
    ) -> None:
        super().__init__()
        self.text = text
        self.summaries = summaries
        self.union = union


class DistributionUpdate(JobUpdate):
    """An equity distribution snapshot, posted by the worker that polls it."""

    snapshot: DistributionSnapshot | None


class TermExplorer(BoundExplorer[list[Term]]):
    """The explorer of one player's Omaha range (``bind``): its value is the list of terms."""

    DEFAULT_GAME = "omahahi"

    def __init__(self, *, seed: int = 0, threads: int | None = None, id: str | None = None) -> None:
        super().__init__([], seed=seed, id=id)
        self.threads = threads
        self.summaries: dict[str, RangeSummary | str] = {}
        self.union: RangeSummary | str | None = None
        self.distribution: DistributionSnapshot | None = None
        self.distribution_error: str | None = None
        self.live: LiveJob[Distribution] = LiveJob(self, DistributionUpdate, "distribution")
        #: The range text the counts shown are of.
        self.counted: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="terms-title")
        yield TermList(self, id="term-list")
        yield Static("", id="terms-totals")
        yield Static("", id="terms-chart")

    @property
    def term_list(self) -> TermList:
        return self.query_one(TermList)

    @property
    def terms(self) -> list[Term]:
        return self.edited

    @property
    def syntax(self) -> str | None:
        return self._clause.value("syntax") if self._clause else None

    @property
    def ordering(self) -> str | None:
        """The ordering of starting hands the statement's ``N%`` reads."""
        return self._clause.value("ordering") if self._clause else None

    def text(self) -> str:
        return terms_text(self.terms)

    def read(self, text: str) -> list[Term]:
        terms = parse_terms(text)
        self.term_list.cursor = min(self.term_list.cursor, max(0, len(terms) - 1))
        return terms

    def written(self) -> str:
        return self.text()

    # -- editing -------------------------------------------------------------------------------

    def act(self, action: str) -> None:
        name, _, arg = action.partition("(")
        at = self.term_list.cursor
        terms = list(self.terms)
        if name == "add":
            self.app.push_screen(TermPrompt(), self._added)
        elif name == "edit" and terms:
            self.app.push_screen(TermPrompt(terms[at].text), self._edited)
        elif name == "remove" and terms:
            del terms[at]
            self._change(terms)
            self.term_list.cursor = max(0, min(at, len(terms) - 1))
        elif name == "negate" and terms:
            terms[at] = replace(terms[at], negated=not terms[at].negated)
            self._change(terms)
        elif name == "weight" and terms:
            digit = int(arg.rstrip(")"))
            terms[at] = replace(terms[at], weight=digit * 10 if digit else None)
            self._change(terms)
        elif name == "undo":
            self._undo_step()
        elif name == "redo":
            self._redo_step()
        elif name == "close":
            self.post_message(ExplorerClosed())

    def _added(self, text: str | None) -> None:
        if text:
            self._change([*self.terms, Term(text)])
            self.term_list.cursor = len(self.terms) - 1

    def _edited(self, text: str | None) -> None:
        if text and self.terms:
            terms = list(self.terms)
            terms[self.term_list.cursor] = replace(terms[self.term_list.cursor], text=text)
            self._change(terms)

    # -- counting and the distribution -----------------------------------------------------------

    def _recount(self) -> None:
        """Count each term and the union in the background (a 5-card range takes a moment)."""
        self._count_worker(self.text(), [t.text for t in self.terms], self.game, self.syntax, self.ordering)
        self._restart_distribution()

    @work(thread=True, exclusive=True, group="terms")
    def _count_worker(
        self, text: str, terms: list[str], game: str, syntax: str | None, ordering: str | None
    ) -> None:
        summaries: dict[str, RangeSummary | str] = {}
        for t in terms:
            if get_current_worker().is_cancelled:
                return
            try:
                summaries[t] = range_summary(t, game, syntax, ordering=ordering)
            except PqlError as e:
                summaries[t] = str(e).splitlines()[0]
        union: RangeSummary | str
        try:
            union = (
                range_summary(text, game, syntax, sample=SAMPLE, seed=self.seed, ordering=ordering)
                if text
                else "no hands"
            )
        except PqlError as e:
            union = str(e).splitlines()[0]
        self.post_message(SummariesReady(text, summaries, union))

    def on_summaries_ready(self, message: SummariesReady) -> None:
        if message.text != self.text():
            return
        self.summaries = message.summaries
        self.union = message.union
        self.counted = message.text
        self._refresh_all()

    def _restart_distribution(self) -> None:
        self.stop_distribution()
        self.distribution = None
        self.distribution_error = None
        clause = self._clause
        text = self.text()
        villains = (
            [p.value for p in clause.players if p.key.lower() != (self.player or "").lower()]
            if clause
            else []
        )
        if clause is None or not text or not villains:
            self.distribution_error = None if villains else "no other player: no equity distribution"
            return
        try:
            dist = Distribution(
                clause.game,
                text,
                villains,
                board=clause.value("board"),
                dead=clause.value("dead"),
                syntax=self.syntax,
                ordering=self.ordering,
                hands=DISTRIBUTION_HANDS,
                deals=DISTRIBUTION_DEALS,
                seed=self.seed,
                threads=self.threads,
            )
        except PqlError as e:
            self.distribution_error = str(e).splitlines()[0]
            return
        self.live.start(dist)

    def stop_distribution(self) -> None:
        self.live.stop()

    def on_distribution_update(self, message: DistributionUpdate) -> None:
        if not self.live.is_current(message):
            return
        if message.error:
            self.distribution_error = message.error
        else:
            self.distribution = message.snapshot
        self._refresh_all()

    # -- drawing --------------------------------------------------------------------------------

    def _refresh_all(self) -> None:
        if not self.is_mounted:
            return
        self.term_list.refresh(layout=True)
        title = Text(f"{self.player or ''}'s range ({self.game}, terms)", style="bold")
        if self.problem:
            title.append(f"\n{self.problem}", style="red")
        self.query_one("#terms-title", Static).update(title)
        self.query_one("#terms-totals", Static).update(self._totals())
        self.query_one("#terms-chart", Static).update(self._chart())

    def _totals(self) -> Text:
        u = self.union
        if isinstance(u, str):
            return Text(u, style="red")
        if u is None:
            return Text("counting…", style="dim")
        share = f", {u.share * 100:.2f}% of {u.total:,}" if u.share is not None and u.total else ""
        out = Text(f"all terms: {u.hands:,} hands{share}, weighted {format_weight(u.weighted)}")
        if u.sample:
            out.append("\nsample: " + " ".join(u.sample), style="dim")
        return out

    def _chart(self) -> Text:
        if self.distribution_error:
            return Text(self.distribution_error, style="yellow")
        d = self.distribution
        if d is None:
            return Text("equity distribution: computing…", style="dim")
        mean = f", mean {d.mean * 100:.1f}%" if d.mean is not None else ""
        state = "" if d.done else f" ({d.progress * 100:.0f}%…)"
        out = Text(f"equity distribution vs the others{mean}{state}\n", style="bold")
        for i, share in enumerate(d.shares):
            bar = "█" * round(share * BAR_WIDTH)
            out.append(f"{i * 10:>3}-{i * 10 + 10:<3}% {bar:<{BAR_WIDTH}} {share * 100:5.1f}%\n")
        return out

    def on_unmount(self) -> None:
        self.stop_distribution()
