"""The words the REPLs know, read once from the Rust catalogue (one source of truth).

The lexer, the completer and the help screen all read this; nothing here lists a keyword, game,
street or function by hand.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from pql_repl.api.catalogue import FunctionInfo, functions, game_streets, keywords
from pql_repl.api.sweeps import SWEEP_KEYWORDS


@dataclass(frozen=True)
class Vocabulary:
    """Every class of word of the language, lower-cased for case-insensitive lookups."""

    keywords: tuple[str, ...]
    selectors: tuple[str, ...]
    reserved_keys: tuple[str, ...]
    games: tuple[str, ...]
    streets: tuple[str, ...]
    hand_types: tuple[str, ...]
    flop_categories: tuple[str, ...]
    syntaxes: tuple[str, ...]
    range_keywords: tuple[str, ...]
    functions: tuple[FunctionInfo, ...]
    #: A simulate statement's actions and its from keys beside the reserved ones.
    actions: tuple[str, ...] = ()
    simulate_keys: tuple[str, ...] = ()
    #: The orderings of starting hands ``N%`` can read (``ordering='equity'``), the default first.
    orderings: tuple[str, ...] = ()
    #: game name (canonical and aliases, lower case) -> its streets in dealing order.
    game_streets: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @functools.cached_property
    def function_index(self) -> dict[str, FunctionInfo]:
        return {f.name.lower(): f for f in self.functions}

    @functools.cached_property
    def constants(self) -> frozenset[str]:
        """Bare words that are values: streets, hand types, flop categories."""
        return frozenset(w.lower() for w in (*self.streets, *self.hand_types, *self.flop_categories))

    def function(self, name: str) -> FunctionInfo | None:
        return self.function_index.get(name.lower())

    def streets_for(self, game: str | None) -> tuple[str, ...]:
        """The streets of ``game`` (hold'em when None, every street when the game is unknown)."""
        if game is None:
            game = self.games[0] if self.games else ""
        return self.game_streets.get(game.lower(), self.streets)


def _lower(words: list[str] | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(w.lower() for w in words or []))


@functools.cache
def vocabulary() -> Vocabulary:
    """The vocabulary of the installed engine (cached: it never changes while running)."""
    words = keywords()
    games = _lower(words.get("games"))
    return Vocabulary(
        # The sweep clause is read in Python (sweeps.py), before the engine sees the statement.
        keywords=_lower([*(words.get("keywords") or []), *SWEEP_KEYWORDS]),
        selectors=_lower(words.get("selectors")),
        reserved_keys=_lower(words.get("reserved_keys")),
        games=games,
        streets=_lower(words.get("streets")),
        hand_types=_lower(words.get("hand_types")),
        flop_categories=_lower(words.get("flop_categories")),
        syntaxes=_lower(words.get("syntaxes")),
        range_keywords=tuple(dict.fromkeys(words.get("range_keywords") or [])),
        functions=tuple(functions()),
        actions=_lower(words.get("actions")),
        simulate_keys=_lower(words.get("simulate_keys")),
        orderings=_lower(words.get("orderings")),
        # Aliases (`plo`, `o8`) are keys too.
        game_streets={g.lower(): tuple(s.lower() for s in streets) for g, streets in game_streets().items()},
    )
