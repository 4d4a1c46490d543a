"""The dot-commands about ranges, part of ``Session``: `.range` (a range's hands, or a player's
range in the last simulate statement after reweighting), `.define` and `.undefine` (named
ranges, in the user's file or a shadow session's own copy)."""

from __future__ import annotations

from pql_repl.api.catalogue import parse_range
from pql_repl.api.run import Query
from pql_repl.session.command_result import CommandResult
from pql_repl.session.settings import (
    SessionError,
    _quoted,
    parse_choice,
)
from pql_repl.session.simulate_help import format_weight, vocabulary_games

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    from pql_repl.api.run import Query as _Query


class RangeCommands:
    """`.range`, `.define`, `.undefine`; the session's state they read is declared here."""

    macros: dict[str, str] | None
    keeps_ranges: bool
    last_simulate: _Query | None
    observations: list[tuple[str, str, str]]

    def _player_range(self, player: str) -> CommandResult:
        """`.range PLAYER`: the player's range in the last simulate statement, reweighted by its
        history and the observed actions, with weights."""
        if self.last_simulate is None:
            raise SessionError(
                f"no simulate statement seats {_quoted(player)} yet",
                "run a simulate statement first, or .range GAME 'RANGE'",
            )
        query = Query(self.last_simulate.text, observations=self.observations or None)
        seated = query.holdings(0) or {}
        found = next((name for name in seated if name.lower() == player.lower()), None)
        if found is None:
            names = ", ".join(seated) or "none"
            raise SessionError(
                f"the last simulate statement has no player {_quoted(player)}", f"its players: {names}"
            )
        rows = seated[found]
        total = sum(w for _, w in rows)
        shown = 40
        lines = [f"{found}: {len(rows)} hands, weights after reweighting (total {format_weight(total)})"]
        lines += [f"  {hand} {format_weight(weight)}" for hand, weight in rows[:shown]]
        if len(rows) > shown:
            lines.append(f"  … {len(rows) - shown} more")
        return CommandResult(output="\n".join(lines))

    def _range(self, arg: str) -> CommandResult:
        game, _, rest = arg.partition(" ")
        rest = rest.strip()
        if game and not rest and game.lower() not in vocabulary_games():
            return self._player_range(game)
        if not game or not rest:
            raise SessionError("missing argument: .range GAME 'RANGE' [generic|classic]")
        syntax: str | None = None
        if rest[0] in "'\"":
            end = rest.find(rest[0], 1)
            if end < 0:
                raise SessionError("the range's quote is not closed", f"write .range {game} 'AKs, QQ+'")
            text, tail = rest[1:end], rest[end + 1 :].strip()
            if tail:
                syntax = parse_choice(tail, ("generic", "classic"), "range syntax")
        else:
            text = rest
        r = parse_range(text, game, syntax)
        shown = 24
        combos = r.labels(shown)
        more = f" … and {len(r) - shown} more" if len(r) > shown else ""
        noun = "hand" if len(r) == 1 else "hands"
        return CommandResult(output=f"{len(r)} {noun} ({r.game})\n{' '.join(combos)}{more}".rstrip())

    def _stored_ranges(self) -> dict[str, str]:
        """The named ranges in force: this session's own, or else the user's file's."""
        if self.macros is not None:
            return self.macros
        from pql_repl.files import named_ranges  # noqa: PLC0415 (a plain run does without it)

        return named_ranges.load()

    def _own_ranges(self) -> dict[str, str] | None:
        """The named ranges a change applies to when they are this session's own (a shadow's
        copy of the file's, made at its first change); None when changes go to the file."""
        if self.macros is None and self.keeps_ranges:
            self.macros = self._stored_ranges()
        return self.macros

    def _define(self, arg: str) -> CommandResult:
        """`.define` lists the named ranges, `.define $name` shows one, `.define $name 'RANGE'`
        stores it (checked: the name, and the range in some game)."""
        stored = self._stored_ranges()
        if not arg:
            if not stored:
                return CommandResult(output="no named ranges yet: .define $name 'RANGE'")
            width = max(len(k) for k in stored) + 1
            return CommandResult(output="\n".join(f"${k:<{width}} {v}" for k, v in stored.items()))
        name, _, rest = arg.partition(" ")
        from pql_repl.files.named_ranges import name_problem  # noqa: PLC0415 (the engine's rule, quoted)

        problem = name_problem(name.removeprefix("$"))
        if problem:
            raise SessionError(problem, "write .define $open 'QQ+, AKs'")
        bare = name.removeprefix("$")
        rest = rest.strip()
        if not rest:
            text = next((v for k, v in stored.items() if k.lower() == bare.lower()), None)
            if text is None:
                raise SessionError(f"no range is named ${bare}", "write .define $open 'QQ+, AKs'")
            return CommandResult(output=f"${bare} {text}")
        text, game = _quoted_and_game(rest, f".define ${bare} 'QQ+, AKs'")
        # Checked in one game (hold'em unless named); it is read in the game of each range using it.
        parse_range(text, game, macros={**stored, bare: text})
        own = self._own_ranges()
        if own is not None:
            own[bare] = text
            return CommandResult(note=f"${bare} = {text}")
        from pql_repl.files import named_ranges  # noqa: PLC0415 (a plain run does without it)

        try:
            named_ranges.store(bare, text)
        except OSError as e:
            raise SessionError(
                f"cannot save ${bare}: {e}", "fix or remove the file; nothing was saved"
            ) from None
        return CommandResult(note=f"${bare} = {text}")

    def _undefine(self, arg: str) -> CommandResult:
        if not arg:
            raise SessionError("missing name: .undefine $name")
        own = self._own_ranges()
        if own is not None:
            bare = arg.strip().removeprefix("$").lower()
            key = next((k for k in own if k.lower() == bare), None)
            if key is None:
                raise SessionError(f"no range is named {_quoted('$' + bare)}", "list them with .define")
            del own[key]
            return CommandResult(note=f"forgot ${key}")
        from pql_repl.files import named_ranges  # noqa: PLC0415 (a plain run does without it)

        try:
            removed = named_ranges.remove(arg.strip())
        except OSError as e:
            raise SessionError(f"cannot forget {arg.strip()}: {e}") from None
        if not removed:
            raise SessionError(
                f"no range is named {_quoted('$' + arg.strip().removeprefix('$'))}", "list them with .define"
            )
        return CommandResult(note=f"forgot ${arg.strip().removeprefix('$')}")


def _quoted_and_game(text: str, example: str) -> tuple[str, str]:
    """``'RANGE' [GAME]`` (the quotes optional when there is no game): the text and the game."""
    if text[0] in "'\"":
        end = text.find(text[0], 1)
        if end < 0:
            raise SessionError("the range's quote is not closed", f"write {example}")
        return text[1:end], text[end + 1 :].strip() or "holdem"
    return text, "holdem"
