"""The range explorer's range: a weight for every starting hand of a two-card game, the edits the
explorer's keys make (toggle, weights, widen and narrow along the game's ordering, clear, invert)
with undo and redo, and the canonical short text the editor shows (``QQ+, AQs+, KQo``), or the
same range in PioSolver's and GTO Wizard's form (``AA,KK:0.5,AhKh:0.25``) to copy to them.

Weights are percents of full weight (100), as ``@`` writes them: whole (``40``) or with up to
four decimals (``33.3``), as the engine holds them. The text is read by the engine
(``parse_range``, in any of its forms: ``@``, ``:0.5``, ``[50]…[/50]``) and written here; a
written text always reads back to the same weights (tested on random ranges)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pql_repl.api.catalogue import parse_range, percent_value, weight_text
from pql_repl.api.exploration import HandClasses, hand_classes

#: The weight of a hand in an unweighted range (weights are percents: ``@`` runs from 0 to 100).
FULL = 100
#: Undo steps kept.
UNDO_LIMIT = 200


@dataclass(frozen=True)
class Totals:
    """A range's size: its hands, their share of all hands, and the hands counted by weight
    (``AA@50`` counts 3 of its 6)."""

    combos: int
    total: int
    weighted: float

    @property
    def share(self) -> float:
        return self.combos / self.total if self.total else 0.0


class RangeEdit:
    """A two-card range being edited: one weight (a percent, 0 to 100: 0 out of the range) per
    hand of ``hand_classes(game)``; ``ordering``: the ordering of starting hands ``N%`` reads
    and ``+``/``-`` follow."""

    def __init__(self, game: str = "holdem", ordering: str | None = None) -> None:
        self.classes: HandClasses = hand_classes(game, ordering)
        self.game = self.classes.game
        self.ordering = ordering
        self.weights: list[float] = [0] * len(self.classes.hands)
        self._undo: list[list[float]] = []
        self._redo: list[list[float]] = []

    # -- reading ---------------------------------------------------------------------------

    def load(
        self,
        text: str,
        syntax: str | None = None,
        macros: Mapping[str, str] | None = None,
        *,
        record: bool = False,
    ) -> None:
        """The weights of ``text`` read by the engine (raises ``PqlRangeError``); ``record``: as an
        edit that undo can take back."""
        r = parse_range(text, self.game, syntax, macros=macros, ordering=self.ordering)
        weights: list[float] = [0] * len(self.weights)
        for combo, w in zip(r.combos, r.percents, strict=True):
            i = self.classes.hand_index(combo)
            if i is not None:
                weights[i] = w
        if record:
            self._apply(weights)
        else:
            self.weights = weights

    def class_weights(self, cls: int) -> list[float]:
        return [self.weights[h] for h in self.classes.combos[cls]]

    def class_state(self, cls: int) -> float:
        """The share of a class's hands in the range, counted by weight (0 to 1)."""
        combos = self.classes.combos[cls]
        return sum(self.weights[h] for h in combos) / (FULL * len(combos))

    def totals(self) -> Totals:
        combos = sum(1 for w in self.weights if w)
        return Totals(combos, len(self.weights), sum(self.weights) / FULL)

    def percent(self) -> float:
        """The range's share of all hands, in percent (what ``N%`` would call it)."""
        return 100.0 * self.totals().share

    # -- editing -----------------------------------------------------------------------------

    def _apply(self, weights: list[float]) -> bool:
        """Make ``weights`` the range, as one undoable step; False when nothing changed."""
        if weights == self.weights:
            return False
        self._undo.append(self.weights)
        del self._undo[:-UNDO_LIMIT]
        self._redo.clear()
        self.weights = weights
        return True

    def _hands_of(self, classes: Iterable[int]) -> list[int]:
        return [h for c in classes for h in self.classes.combos[c]]

    def toggle(self, classes: Iterable[int]) -> bool:
        """Space: the classes leave the range when all their hands are in it, else all join it
        at full weight."""
        hands = self._hands_of(classes)
        full = all(self.weights[h] for h in hands)
        weights = list(self.weights)
        for h in hands:
            weights[h] = 0 if full else (weights[h] or FULL)
        return self._apply(weights)

    def set_weight(self, classes: Iterable[int], weight: float) -> bool:
        """Digits: every hand of the classes at ``weight`` (a percent; 0 takes them out)."""
        weight = _clamped(weight)
        weights = list(self.weights)
        for h in self._hands_of(classes):
            weights[h] = weight
        return self._apply(weights)

    def set_hands(self, hands: Mapping[int, float]) -> bool:
        """The suit picker: given hands at given weights (0: out)."""
        weights = list(self.weights)
        for h, w in hands.items():
            weights[h] = _clamped(w)
        return self._apply(weights)

    def widen(self) -> bool:
        """``+``: the best class (in the game's ordering) not wholly in the range joins it."""
        for cls, _ in self.classes.ordering:
            hands = self.classes.combos[cls]
            if not all(self.weights[h] for h in hands):
                weights = list(self.weights)
                for h in hands:
                    weights[h] = weights[h] or FULL
                return self._apply(weights)
        return False

    def narrow(self) -> bool:
        """``-``: the worst class (in the game's ordering) with hands in the range leaves it."""
        for cls, _ in reversed(self.classes.ordering):
            hands = self.classes.combos[cls]
            if any(self.weights[h] for h in hands):
                weights = list(self.weights)
                for h in hands:
                    weights[h] = 0
                return self._apply(weights)
        return False

    def clear(self) -> bool:
        return self._apply([0] * len(self.weights))

    def invert(self) -> bool:
        """Hands out of the range come in at full weight; those in it leave."""
        return self._apply([0 if w else FULL for w in self.weights])

    def undo(self) -> bool:
        if not self._undo:
            return False
        self._redo.append(self.weights)
        self.weights = self._undo.pop()
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        self._undo.append(self.weights)
        self.weights = self._redo.pop()
        return True

    # -- writing -----------------------------------------------------------------------------

    def text(self) -> str:
        """The canonical short text of the range (empty when it holds nothing)."""
        return canonical_text(self.classes, self.weights)

    def pio_text(self) -> str:
        """The range in PioSolver's and GTO Wizard's form (empty when it holds nothing)."""
        return pio_text(self.classes, self.weights)


def _clamped(weight: float) -> float:
    """A weight kept to 0..100 and to the engine's four decimals of a percent."""
    return percent_value(max(0.0, min(float(FULL), weight)))


def pio_text(classes: HandClasses, weights: list[float]) -> str:
    """``AA,KK:0.5,AKs,AhKh:0.25``: PioSolver's and GTO Wizard's form of a range, which other
    solvers read too: every class of the grid with hands in the range (pairs, then by high card,
    suited before offsuit), without spans; a class whose hands share one weight as the class,
    else its hands one by one; a weight as a fraction of full weight after ``:`` (none at full
    weight). Weights are relative, as in pql, so they are written as they are (``@10, @5`` as
    ``:0.1``, ``:0.05``). pql reads this form back to the same weights."""
    parts: list[str] = []

    def part(name: str, w: float) -> str:
        return name if w >= FULL else f"{name}:{_fraction(w)}"

    ranks = classes.ranks
    n = len(ranks)
    names = [ranks[i] * 2 for i in range(n)]
    for i in range(n - 1):
        names += [ranks[i] + ranks[k] + "s" for k in range(i + 1, n)]
        names += [ranks[i] + ranks[k] + "o" for k in range(i + 1, n)]
    for name in names:
        hands = classes.combos[classes.class_index(name)]
        held = {weights[h] for h in hands}
        if held == {0}:
            continue
        if len(held) == 1:
            parts.append(part(name, weights[hands[0]]))
        else:
            single = sorted((classes.hands[h] for h in hands if weights[h]), key=_suits_key)
            parts.extend(part(hand, weights[classes.hand_index(hand) or 0]) for hand in single)
    return ",".join(parts)


def _suits_key(hand: str) -> tuple[int, ...]:
    """The hands of one class in suit order, spades first (``AsKs``, ``AhKh`` …)."""
    return tuple("shdc".find(ch) for ch in hand[1::2])


def _fraction(percent: float) -> str:
    """A weight in percent as a fraction of full weight, to the six decimals the engine holds:
    ``0.75``, ``0.0625``, ``0.333``."""
    text = f"{percent / FULL:.6f}".rstrip("0").rstrip(".")
    return text or "0"


def canonical_text(classes: HandClasses, weights: list[float]) -> str:
    """``QQ+, AQs+, KQo, AhKh``: whole classes in runs (pairs, then by high card: suited and
    offsuit together when they agree, else apart), then the single hands of partial classes.
    When weights differ, each part carries its ``@weight`` (a weighted range weights every part),
    heaviest first."""
    present = sorted({w for w in weights if w}, reverse=True)
    if not present:
        return ""
    if present == [FULL] and all(weights):
        return "**"
    weighted = present != [FULL]
    parts: list[str] = []
    for w in present:
        suffix = f"@{weight_text(w)}" if weighted else ""
        parts.extend(p + suffix for p in _parts_at(classes, weights, w))
    return ", ".join(parts)


def _parts_at(classes: HandClasses, weights: list[float], w: float) -> list[str]:
    """The parts naming the hands of weight ``w``."""
    ranks = classes.ranks
    n = len(ranks)
    whole = {c for c, hands in enumerate(classes.combos) if all(weights[h] == w for h in hands)}

    def has(name: str) -> bool:
        return classes.class_index(name) in whole

    parts: list[str] = []
    # Pairs: runs of consecutive ranks.
    for start, end in _runs([i for i in range(n) if has(ranks[i] * 2)]):
        hi, lo = ranks[start] * 2, ranks[end] * 2
        if start == end:
            parts.append(hi)
        elif start == 0:
            parts.append(f"{lo}+")
        else:
            parts.append(f"{hi}-{lo}")
    # Non-pairs, by high card: runs of kickers.
    for i in range(n - 1):
        high = ranks[i]
        suited = [k for k in range(i + 1, n) if has(high + ranks[k] + "s")]
        offsuit = [k for k in range(i + 1, n) if has(high + ranks[k] + "o")]
        both = set(suited) & set(offsuit)
        for suffix, kickers in (
            ("", sorted(both)),
            ("s", sorted(set(suited) - both)),
            ("o", sorted(set(offsuit) - both)),
        ):
            for start, end in _runs(kickers):
                top, low = high + ranks[start] + suffix, high + ranks[end] + suffix
                if start == end:
                    parts.append(top)
                elif start == i + 1:
                    parts.append(f"{low}+")
                else:
                    parts.append(f"{top}-{low}")
    # Hands of classes only partly at this weight.
    for c, hands in enumerate(classes.combos):
        if c not in whole:
            parts.extend(classes.hands[h] for h in hands if weights[h] == w)
    return parts


def _runs(indices: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs of sorted ``indices`` as (first, last)."""
    runs: list[tuple[int, int]] = []
    for i in indices:
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs
