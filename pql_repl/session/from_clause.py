"""The from clauses of a PQL text as the range explorer needs them: every ``key='value'`` with
where its value stands in the text, so that the explorer can read a player's range, the board
and the other players, and write the range back in place.

This is a light scan (the engine's checker owns the grammar): strings are single- or
double-quoted (no escapes: a string ends at the next quote of its kind), comments are skipped,
and the clause runs from ``from`` to ``where`` or the end of the statement.

A ``.range GAME 'RANGE' [syntax]`` line counts as a clause too, with one player named
``range``: the explorer opens on it like on a player (it has no one to play against)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pql_repl.session.statements import DotCommand, Statement, split_statements
from pql_repl.session.vocabulary import vocabulary

_FROM = re.compile(r"(?i)\bfrom\b")
#: ``key='value'``, ``key="value"`` or a bare value (a simulate statement's ``pot=10``); a key
#: with a dot is a player's own setting (``villain.raise_threshold=0.8``).
_SETTING = re.compile(r"""\s*([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(?:'([^']*)'|"([^"]*)"|([^\s,'"]+))\s*(,?)""")
_STRING = re.compile(r"'[^']*'|\"[^\"]*\"")
#: ``.range GAME 'RANGE' [syntax]``: the game, the quoted range and the syntax word.
_RANGE_COMMAND = re.compile(
    r"""[ \t]*\.range[ \t]+(\S+)[ \t]+(?:'([^'\n]*)'|"([^"\n]*)")[ \t]*(\w+)?""", re.I
)
#: The player a ``.range`` line's range is bound as.
RANGE_PLAYER = "range"


@dataclass(frozen=True)
class Setting:
    """``key='value'``: the value's span (inside the quotes) as offsets into the whole text."""

    key: str
    value: str
    start: int
    end: int


@dataclass(frozen=True)
class FromClause:
    """The from clause of statement ``index`` (counting statements of the text), which spans
    ``start:end`` of the text."""

    index: int
    start: int
    end: int
    settings: tuple[Setting, ...]

    def get(self, key: str) -> Setting | None:
        return next((s for s in self.settings if s.key.lower() == key.lower()), None)

    def value(self, key: str) -> str | None:
        s = self.get(key)
        return None if s is None else s.value

    @property
    def game(self) -> str:
        return self.value("game") or "holdem"

    @property
    def players(self) -> list[Setting]:
        return [s for s in self.settings if not _not_a_player(s.key)]

    def player(self, name: str) -> Setting | None:
        return next((s for s in self.players if s.key.lower() == name.lower()), None)


def _not_a_player(key: str) -> bool:
    """Keys of the from clause that name no player: the reserved ones, a simulate statement's
    (``pot``, ``history``) and players' own settings (``villain.raise_threshold``)."""
    words = vocabulary()
    k = key.lower()
    return "." in k or k in words.reserved_keys or k in words.simulate_keys


def _blank_comments(text: str) -> str:
    """``text`` with its comments (outside strings) blanked, offsets kept."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in "'\"":
            end = text.find(text[i], i + 1)
            end = n if end < 0 else end
            out.append(text[i : end + 1])
            i = end + 1
        elif text.startswith("/*", i) or text.startswith("--", i):
            close = text.find("*/", i + 2) + 2 if text[i] == "/" else text.find("\n", i)
            close = n if close < 2 or close < i else close
            out.append(re.sub(r"[^\n]", " ", text[i:close]))
            i = close
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _clause(index: int, st: Statement) -> FromClause:
    plain = _blank_comments(st.text)
    code = _STRING.sub(lambda m: m.group()[0] + " " * (len(m.group()) - 2) + m.group()[0], plain)
    found = _FROM.search(code)
    settings: list[Setting] = []
    if found:
        at = found.end()
        while m := _SETTING.match(plain, at):
            group = next(g for g in (2, 3, 4) if m.group(g) is not None)
            start = st.offset + m.start(group)
            settings.append(Setting(m.group(1), m.group(group), start, start + len(m.group(group))))
            at = m.end()
            if not m.group(5):
                break
    return FromClause(index, st.offset, st.offset + len(st.text), tuple(settings))


def _range_clause(index: int, line: str, offset: int) -> FromClause | None:
    m = _RANGE_COMMAND.match(line)
    if m is None:
        return None
    group = 2 if m.group(2) is not None else 3
    settings = [
        Setting("game", m.group(1), offset + m.start(1), offset + m.end(1)),
        Setting(RANGE_PLAYER, m.group(group), offset + m.start(group), offset + m.end(group)),
    ]
    if m.group(4):
        settings.append(Setting("syntax", m.group(4), offset + m.start(4), offset + m.end(4)))
    return FromClause(index, offset, offset + len(line), tuple(settings))


def from_clauses(text: str) -> list[FromClause]:
    """One clause per statement (and ``.range`` line) of ``text``, in order."""
    line_starts = [0]
    for m in re.finditer("\n", text):
        line_starts.append(m.end())
    clauses: list[FromClause] = []
    for item in split_statements(text):
        if isinstance(item, Statement):
            clauses.append(_clause(len(clauses), item))
        elif isinstance(item, DotCommand) and item.line <= len(line_starts):
            start = line_starts[item.line - 1]
            line = text[start:].partition("\n")[0]
            found = _range_clause(len(clauses), line, start)
            if found is not None:
                clauses.append(found)
    return clauses


def clause_of(text: str, player: str, statement: int) -> FromClause | None:
    """The clause of ``player`` that an explorer bound to statement ``statement`` follows: that
    statement's, else the first that has the player (statements come and go as the user types)."""
    clauses = from_clauses(text)
    if statement < len(clauses) and clauses[statement].player(player):
        return clauses[statement]
    return next((c for c in clauses if c.player(player)), None)


def clause_at(text: str, offset: int) -> FromClause | None:
    """The clause of the statement holding ``offset`` (else the last one before it, else the
    first)."""
    clauses = from_clauses(text)
    before = [c for c in clauses if c.start <= offset]
    if before:
        return before[-1]
    return clauses[0] if clauses else None


def player_at(clause: FromClause, offset: int) -> Setting | None:
    """The player whose ``key='value'`` holds ``offset``, else the clause's first player."""
    players = clause.players
    for p in players:
        key_start = p.start - 2 - len(p.key)  # roughly: `key='` before the value
        if key_start - 4 <= offset <= p.end + 1:
            return p
    return players[0] if players else None
