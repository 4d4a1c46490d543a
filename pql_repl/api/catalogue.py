"""What the engine knows, for completion, help and the range editors: the function catalogue
(``FunctionInfo``), PQL's keywords, each game's streets, and ranges compiled as a player's range
would be (``parse_range``)."""

from __future__ import annotations

from pql_repl import _core
from pql_repl.api.options import optional_text, resolve_macros, text_argument, unicode_checked
from pql_repl.base.errors import PqlRangeError
from pql_repl.base.records import record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


@record(frozen=True)
class FunctionInfo:
    """A catalogue entry: how to call a built-in function, what it returns and where it applies."""

    name: str
    #: (parameter name, type name) in call order; ``any`` marks an argument of any type.
    args: list[tuple[str, str]]
    returns: str
    doc: str
    example: str
    #: Canonical names of the games the function applies to.
    games: list[str]
    #: ``original`` (the original PQL's functions) or ``ext`` (pql's extensions).
    origin: str
    #: ``riverEquity(player) -> equity``.
    signature: str
    #: The street a call may leave out (its last argument) stands for this one: ``river``,
    #: ``seventh``, or ``river|seventh`` in board and stud games; None when it must be written.
    street_default: str | None = None

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FunctionInfo:
        return cls(
            name=d["name"],
            args=[(a["name"], a["type"]) for a in d["args"]],
            returns=d["returns"],
            doc=d["doc"],
            example=d["example"],
            games=list(d["games"]),
            origin=d["origin"],
            signature=d["signature"],
            street_default=d.get("street_default"),
        )


def functions() -> list[FunctionInfo]:
    """The built-in function catalogue, aliases included (the one source of truth for help and
    completion)."""
    return [FunctionInfo.from_dict(f) for f in _core.functions()]


def keywords() -> dict[str, list[str]]:
    """Vocabulary for highlighting and completion: ``keywords``, ``selectors``, ``reserved_keys``,
    ``games`` (names and aliases), ``streets``, ``hand_types`` and ``flop_categories`` (worst
    first), ``syntaxes``, ``orderings`` (of ``N%``, the default first), ``functions`` (names and
    aliases), ``range_keywords``."""
    return _core.keywords()


def game_streets() -> dict[str, list[str]]:
    """Every game name and alias mapped to its streets, first to last."""
    return _core.game_streets()


#: Decimals a weight in percent holds (the engine holds weights in millionths of full weight).
PERCENT_DECIMALS = 4


def weight_text(percent: float) -> str:
    """A weight in percent as ``@`` writes it: ``75``, ``33.3``, ``6.25``, ``0.0001``."""
    text = f"{percent:.{PERCENT_DECIMALS}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def percent_value(percent: float) -> float:
    """A weight in percent as the engine holds it (four decimals), whole when it is whole."""
    value = round(percent, PERCENT_DECIMALS)
    return int(value) if value == int(value) else value


@record(frozen=True)
class Range:
    """A compiled range: its hands (as card strings, in rank order: ``AsAh`` first) and their
    weights, the whole numbers the engine draws hands by: all 1 when the range has no weights,
    else in proportion to its weights, ``full`` being a hand at full weight (100 for a range
    weighted in whole percents: ``AA@10`` has 10; 1000 for tenths: ``@33.3`` has 333; up to a
    million)."""

    text: str
    game: str
    combos: list[str]
    weights: list[int]
    full: int = 1

    def __len__(self) -> int:
        return len(self.combos)

    @property
    def weighted(self) -> bool:
        """Whether the range has weights (hands then read ``AsAh@10``)."""
        return self.full != 1

    @property
    def percents(self) -> list[float]:
        """Each hand's weight in percent of full weight (100 for every hand when unweighted)."""
        return [percent_value(100 * w / self.full) for w in self.weights]

    def labels(self, limit: int) -> list[str]:
        """The first ``limit`` hands as written in ``str()``: with ``@weight`` (in percent) when
        weighted."""
        combos = self.combos[:limit]
        if self.weighted:
            full = self.full
            return [
                f"{c}@{weight_text(100 * w / full)}"
                for c, w in zip(combos, self.weights[:limit], strict=True)
            ]
        return combos

    def __str__(self) -> str:
        n = len(self.combos)
        head = " ".join(self.labels(12))
        more = f" … (+{n - 12})" if n > 12 else ""
        return f"{n} {'hand' if n == 1 else 'hands'}: {head}{more}"

    def to_pandas(self) -> Any:
        """A row per hand in rank order: ``hand`` and its ``weight`` in percent of full weight
        (100 when the range has no weights). Needs pandas (``pip install 'pql-repl[pandas]'``)."""
        from pql_repl.api import frames  # noqa: PLC0415 - pandas' path only, not a run's

        records = list(zip(self.combos, self.percents, strict=True))
        return frames.frame(records, ("hand", "weight"), {"hand": "str", "weight": "float64"})

    def _repr_html_(self) -> str:
        """What a notebook shows: the first ``HTML_HANDS`` hands with their weights (as
        ``str()`` writes them), how many more under them."""
        from pql_repl.api import html  # noqa: PLC0415 - a notebook's path only, not a run's

        rows = [
            (c, html.Figure(p / 100, exact=True)) for c, p in zip(self.combos, self.percents, strict=True)
        ]
        n = len(self.combos)
        more = f"… and {n - HTML_HANDS:,} more (to_pandas() has them all)" if n > HTML_HANDS else ""
        caption = f"{self.text} ({self.game}): {n:,} {'hand' if n == 1 else 'hands'}"
        return html.figure_table(
            ("hand", "weight"), rows[:HTML_HANDS], kind="pql-range", caption=caption, footer=more
        )


#: The hands a range's HTML view lists at most.
HTML_HANDS = 60


def parse_range(
    text: str,
    game: str = "holdem",
    syntax: str | None = None,
    *,
    macros: Mapping[str, str] | None = None,
    ordering: str | None = None,
) -> Range:
    """Compile a range as a player's range of ``game`` would be; raises ``PqlRangeError``.
    ``macros``: the named ranges it may use (None: the user's, from ``.define``); ``ordering``:
    the ordering of starting hands ``N%`` reads (``ordering='equity'``; None: the default)."""
    text = text_argument("text", text)
    game = text_argument("game", game)
    for given in (
        text,
        game,
        optional_text("syntax", syntax) or "",
        optional_text("ordering", ordering) or "",
    ):
        unicode_checked(given, PqlRangeError)
    raw = _core.parse_range(text, game, syntax, resolve_macros(macros, text), ordering)
    return Range(text, raw["game"], raw["combos"], raw["weights"], raw["full"])


def range_name_error(name: str) -> str | None:
    """Why ``name`` (``$open`` or ``open``) cannot name a range, or None when it can."""
    return _core.range_name_error(name)
