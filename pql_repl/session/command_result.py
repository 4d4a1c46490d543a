"""What a dot-command did (``CommandResult``), and what `.odds` asks a front end to show
(``OddsRequest``): the session's answer, which each front end shows its own way."""

from __future__ import annotations

from pql_repl.base.records import field, record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from pathlib import Path


@record(frozen=True)
class CommandResult:
    """What a dot-command did. ``output`` is what the user asked to see (stdout in scripts);
    ``note`` confirms a change (interactive front ends show it, scripts stay quiet); ``read`` is
    a script the front end should run next; ``changed`` names the settings that changed."""

    output: str = ""
    note: str = ""
    quit: bool = False
    read: Path | None = None
    changed: frozenset[str] = field(default_factory=frozenset)
    #: `.explore PLAYER`: the player whose range the full-screen app should open in its explorer.
    explore: str | None = None
    #: `.odds HAND [BOARD] [1-9 | N | vs RANGE …]`: what the front end should compute and show.
    odds: OddsRequest | None = None
    #: `.plot equity PLAYER [STREET]`: (player, street) for the full-screen app's chart.
    plot: tuple[str, str] | None = None


@record(frozen=True)
class OddsRequest:
    """A hold'em hand (or range), a board, and the opponents: a number of random hands, their
    ranges, or a span of numbers (the odds view's rows, one per number of random hands)."""

    hand: str
    board: str
    opponents: int | tuple[str, ...] | range
