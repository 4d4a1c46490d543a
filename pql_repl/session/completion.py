"""Completion shared by both REPLs: a pure function of (text, cursor) -> ranked candidates.

The context decides what fits at the cursor: dot-commands at the start of a line, from keys and
quoted game names in the from clause, selectors at the top of the select list, and in expressions
the functions (with signatures and docs), the players declared in the from clause, the streets of
the statement's game, hand types and flop categories. Inside a function call the parameter type
narrows the list (a ``street`` parameter offers only streets); after a comparison the values of
the compared call's type come first (hand types after ``handType(hero, river) =``). Candidates
are ranked exact match > prefix > fuzzy (the letters in order), then by how well the kind fits
the context.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pql_repl.api.catalogue import FunctionInfo
from pql_repl.api.output import FORMATS
from pql_repl.session.lexer import COMMENT, OPERATOR, PUNCT, SPACE, STRING, WORD, Token, scan
from pql_repl.session.session import COMMANDS
from pql_repl.session.settings import EXACT_MODES
from pql_repl.session.vocabulary import Vocabulary, vocabulary


@dataclass(frozen=True)
class Candidate:
    """One completion: ``text`` replaces ``text[start:cursor]`` of the input."""

    text: str
    kind: str
    start: int
    display: str = ""
    doc: str = ""
    #: How it matched what was typed: "exact", "prefix", "fuzzy" or "any" (nothing typed yet).
    match: str = "any"


@dataclass(frozen=True)
class _Statement:
    tokens: list[Token]
    players: list[str]
    game: str | None
    keys: frozenset[str]
    #: A ``simulate`` statement (its from clause has the betting keys).
    simulate: bool = False


_WORD_TAIL = re.compile(r"[A-Za-z0-9_$]*\Z")
_RANGE_TAIL = re.compile(r"[A-Za-z0-9_$%+\-@]*\Z")
_TIERS = {"exact": 0, "prefix": 1, "fuzzy": 2, "any": 3}
_CLAUSE_KEYWORDS = frozenset({"select", "as", "from", "where"})
_COMPARISONS = frozenset({"=", "<>", "!=", "<", ">", "<=", ">="})


#: Characters around the cursor that completion reads (from a line start to a line end): it
#: runs on every key, and scanning a megabyte of editor text took seconds a key.
COMPLETION_WINDOW = 20_000


def complete(text: str, cursor: int | None = None, vocab: Vocabulary | None = None) -> list[Candidate]:
    """Ranked completions for ``text`` with the cursor at character offset ``cursor`` (default:
    end). Only the lines within ``COMPLETION_WINDOW`` characters of the cursor are read."""
    cursor = len(text) if cursor is None else max(0, min(cursor, len(text)))
    if len(text) <= 2 * COMPLETION_WINDOW:
        return _complete(text, cursor, vocab)
    # Cut at line ends, or within one long line at twice the window.
    origin = max(text.rfind("\n", 0, max(0, cursor - COMPLETION_WINDOW)) + 1, cursor - 2 * COMPLETION_WINDOW)
    end = text.find("\n", cursor + COMPLETION_WINDOW)
    end = cursor + 2 * COMPLETION_WINDOW if end < 0 else min(end, cursor + 2 * COMPLETION_WINDOW)
    window = text[origin:end]
    return [replace(c, start=c.start + origin) for c in _complete(window, cursor - origin, vocab)]


def _complete(text: str, cursor: int, vocab: Vocabulary | None) -> list[Candidate]:
    vocab = vocab or vocabulary()
    line_start = text.rfind("\n", 0, cursor) + 1
    line_before = text[line_start:cursor]

    dot = re.fullmatch(r"\s*(\.[A-Za-z]*)", line_before)
    if dot:
        prefix = dot.group(1)
        options = [(f".{name}", "dot_command", c.usage, c.summary) for name, c in COMMANDS.items()]
        return _rank(options, prefix, cursor - len(prefix))
    command = re.match(r"\s*(\.[A-Za-z]+)\s", line_before)
    if command:
        return _complete_command_argument(command.group(1).lower(), line_before, cursor, vocab)

    tokens = list(scan(text))
    statement = _statement_at(tokens, cursor, frozenset(vocab.reserved_keys), frozenset(vocab.simulate_keys))
    inside = _token_at(statement.tokens, cursor)
    if inside is not None and inside.kind == COMMENT:
        return []
    if inside is not None and inside.kind == STRING:
        return _complete_string(statement, inside, text, cursor, vocab)

    prefix = _WORD_TAIL.search(text[:cursor])
    word = prefix.group() if prefix else ""
    start = cursor - len(word)
    before = [t for t in statement.tokens if t.end <= start and t.kind not in (SPACE, COMMENT)]
    return _rank(_expression_context(before, statement, vocab), word, start)


def opens_by_itself(text: str, cursor: int | None = None) -> bool:
    """Whether the character just typed before ``cursor`` opens the completion menu unasked: a
    letter, digit, ``_``, ``$``, ``.``, ``(`` or an opening quote do; a closing quote, ``;``,
    ``)`` and spaces do not (what follows them is not a word being typed, and a menu there
    would only wait for an Enter meant to run or break the line)."""
    cursor = len(text) if cursor is None else cursor
    if cursor <= 0:
        return False
    last = text[cursor - 1]
    if last in "'\"":
        line_start = text.rfind("\n", 0, cursor) + 1
        line = text[line_start:cursor]
        if line.lstrip().startswith("."):  # a dot-command's argument: `.range holdem 'QQ+'`
            return line.count(last) % 2 == 1
        tokens = list(scan(line))
        # The quote opens a string when the string token it belongs to is that quote alone.
        return bool(tokens) and tokens[-1].kind == STRING and tokens[-1].text == last
    return last.isalnum() or last in "_$.("


def _complete_command_argument(
    command: str, line_before: str, cursor: int, vocab: Vocabulary
) -> list[Candidate]:
    tail = _WORD_TAIL.search(line_before)
    word = tail.group() if tail else ""
    options: list[tuple[str, str, str, str]] = []
    if command in (".describe", ".functions"):
        options = [_function_option(f) for f in vocab.functions]
    elif command == ".range":
        quoted = re.match(r"\s*\S+\s+\S+\s+(['\"])(.*)\Z", line_before)
        if quoted and quoted.group(1) not in quoted.group(2):  # `.range holdem 'QQ+, su`
            return _complete_range(quoted.group(2), cursor, vocab)
        if quoted:  # after the range: its syntax
            options = [(w, "syntax", w, "range syntax") for w in vocab.syntaxes]
        elif len(line_before.split()) <= 2:
            options = [(g, "game", g, "game") for g in vocab.games]
    elif command in (".exact",):
        options = [(w, "keyword", w, "") for w in EXACT_MODES]
    elif command == ".precision":
        options = [(w, "keyword", w, "") for w in ("auto", "off")]
    elif command in (".timer",):
        options = [(w, "keyword", w, "") for w in ("on", "off")]
    elif command == ".format":
        options = [(w, "keyword", w, "") for w in FORMATS]
    return _rank(options, word, cursor - len(word))


def _statement_at(
    tokens: list[Token], cursor: int, reserved: frozenset[str], simulate_keys: frozenset[str] = frozenset()
) -> _Statement:
    """The tokens of the `;`-separated statement holding the cursor, its players and its game."""
    begin = 0
    end = len(tokens)
    for i, tok in enumerate(tokens):
        if tok.kind == PUNCT and tok.text == ";":
            if tok.end <= cursor:
                begin = i + 1
            else:
                end = i
                break
    own = tokens[begin:end]
    players: list[str] = []
    game: str | None = None
    significant = [t for t in own if t.kind not in (SPACE, COMMENT)]
    simulate = bool(significant) and significant[0].text.lower() == "simulate"
    if simulate:
        reserved = reserved | simulate_keys
    in_from = False
    for i, tok in enumerate(significant):
        low = tok.text.lower()
        if tok.kind == WORD and low in ("from", "where", "select", "simulate"):
            in_from = low == "from"
            continue
        if not in_from or tok.kind != WORD or i + 1 >= len(significant) or significant[i + 1].text != "=":
            continue
        if low == "game" and i + 2 < len(significant) and significant[i + 2].kind == STRING:
            game = significant[i + 2].text.strip("'\"").lower()
        elif low not in reserved and (i == 0 or significant[i - 1].text != "."):
            players.append(tok.text)
    keys = frozenset(
        t.text.lower()
        for i, t in enumerate(significant[:-1])
        if t.kind == WORD and significant[i + 1].text == "="
    )
    return _Statement(own, players, game, keys, simulate)


def _token_at(tokens: list[Token], cursor: int) -> Token | None:
    """The string or comment token the cursor is inside, if any."""
    for tok in tokens:
        if tok.kind not in (STRING, COMMENT) or not tok.start < cursor:
            continue
        closed = (tok.kind == STRING and len(tok.text) > 1 and tok.text.endswith(tok.text[0])) or (
            tok.kind == COMMENT
            and tok.text.startswith("/*")
            and tok.text.endswith("*/")
            and len(tok.text) > 3
        )
        if cursor < tok.end or (cursor == tok.end and not closed):
            return tok
    return None


def _complete_string(
    statement: _Statement, string: Token, text: str, cursor: int, vocab: Vocabulary
) -> list[Candidate]:
    inside = text[string.start + 1 : cursor]
    before = [t for t in statement.tokens if t.end <= string.start and t.kind not in (SPACE, COMMENT)]
    key = before[-2].text.lower() if len(before) >= 2 and before[-1].text == "=" else None
    if key == "game":
        return _rank([(g, "game", g, "game") for g in vocab.games], inside, string.start + 1)
    if key == "syntax":
        return _rank([(s, "syntax", s, "range syntax") for s in vocab.syntaxes], inside, string.start + 1)
    if key == "ordering":
        options = [(o, "ordering", o, "ordering of N% ranges") for o in vocab.orderings]
        return _rank(options, inside, string.start + 1)
    if key in ("board", "dead"):
        return []
    return _complete_range(inside, cursor, vocab)


def _complete_range(inside: str, cursor: int, vocab: Vocabulary) -> list[Candidate]:
    """Range keywords for the word being typed at the end of ``inside``, a range's text so far."""
    tail = _RANGE_TAIL.search(inside)
    word = tail.group() if tail else ""
    options = [(w, "range_keyword", w, "range keyword") for w in vocab.range_keywords]
    return _rank(options, word, cursor - len(word))


def _expression_context(
    before: list[Token], statement: _Statement, vocab: Vocabulary
) -> list[tuple[str, str, str, str]]:
    """The options that fit after the significant tokens ``before`` the word being typed."""
    clause = None
    calls: list[list[object]] = []  # open parentheses: [function name or None, argument index]
    previous: Token | None = before[-1] if before else None
    for i, tok in enumerate(before):
        low = tok.text.lower()
        if tok.kind == WORD and not calls and low in ("select", "from", "where", "simulate"):
            clause = low
        elif tok.text == "(":
            name = before[i - 1].text if i > 0 and before[i - 1].kind == WORD else None
            calls.append([name, 0])
        elif tok.text == ")" and calls:
            calls.pop()
        elif tok.text == "," and calls:
            calls[-1][1] = int(str(calls[-1][1])) + 1

    keywords = [(k, "keyword", k, "keyword") for k in vocab.keywords]
    if clause is None:
        return [
            (k, "keyword", k, "keyword") for k in vocab.keywords if k in ("select", "simulate")
        ] or keywords
    if clause == "simulate":
        if previous is not None and (previous.text == "," or previous.text.lower() == "simulate"):
            return [(a, "action", a, "candidate action") for a in vocab.actions]
        return [(k, "keyword", k, "keyword") for k in vocab.keywords if k == "from"]
    if clause == "from":
        if previous is not None and (previous.text == "," or previous.text.lower() == "from"):
            unused = [k for k in vocab.reserved_keys if k not in statement.keys]
            options = [(k, "from_key", f"{k}=", "reserved key") for k in unused]
            if statement.simulate:
                settings = [k for k in vocab.simulate_keys if k not in statement.keys]
                options += [(k, "from_key", f"{k}=", "simulate setting") for k in settings]
            return options
        if previous is not None and previous.kind == STRING:
            return [(k, "keyword", k, "keyword") for k in vocab.keywords if k == "where"]
        return []

    players = [(p, "player", p, "player") for p in statement.players]
    streets = [(s, "street", s, "street") for s in vocab.streets_for(statement.game)]
    hand_types = [(h, "hand_type", h, "hand type") for h in vocab.hand_types]
    flop_categories = [(c, "flop_category", c, "flop category") for c in vocab.flop_categories]
    functions = [_function_option(f) for f in vocab.functions]

    by_type = {
        "player": players,
        "street": streets,
        "handtype": hand_types,
        "flophandcategory": flop_categories,
    }
    if calls and calls[-1][0] is not None:
        function = vocab.function(str(calls[-1][0]))
        index = int(str(calls[-1][1]))
        if function is not None and index < len(function.args):
            narrowed = by_type.get(function.args[index][1].lower())
            # No players declared yet: offer everything rather than nothing.
            if narrowed:
                return narrowed

    if clause == "select" and not calls:
        if previous is None or previous.text == "," or previous.text.lower() == "select":
            return [(s, "selector", f"{s}(…)", "selector") for s in vocab.selectors]
        if previous.text.lower() == "as":
            return []  # the user names the column
        return [(k, "keyword", k, "keyword") for k in vocab.keywords if k in ("as", "from")]
    # Clause keywords never stand inside an expression.
    expression_keywords = [k for k in keywords if k[0] not in _CLAUSE_KEYWORDS]
    options = [*players, *functions, *streets, *hand_types, *flop_categories, *expression_keywords]
    # After a comparison, the values of the compared type come first (a hand type after
    # `handType(hero, river) =`); anything else may still be compared, so the rest follows.
    compared = by_type.get(_compared_type(before, vocab) or "")
    if compared:
        return [*compared, *(o for o in options if o not in compared)]
    return options


def _compared_type(before: list[Token], vocab: Vocabulary) -> str | None:
    """The type (lower case) of the left side of the comparison that ``before`` ends with, when
    it is a function call, else None."""
    if len(before) < 2 or before[-1].kind != OPERATOR or before[-1].text not in _COMPARISONS:
        return None
    if before[-2].text != ")":
        return None
    depth = 0
    for i in range(len(before) - 2, -1, -1):
        depth += {")": 1, "(": -1}.get(before[i].text, 0)
        if depth == 0:
            function = vocab.function(before[i - 1].text) if i > 0 and before[i - 1].kind == WORD else None
            return function.returns.lower() if function is not None else None
    return None


def _function_option(f: FunctionInfo) -> tuple[str, str, str, str]:
    return (f.name, "function", f.signature, f.doc)


def fuzzy_score(pattern: str, word: str) -> int | None:
    """How loosely ``pattern``'s letters appear in order in ``word`` (lower is tighter), or None."""
    pattern, word = pattern.lower(), word.lower()
    score = 0
    pos = 0
    for ch in pattern:
        found = word.find(ch, pos)
        if found < 0:
            return None
        score += found - pos
        pos = found + 1
    return score


def _rank(options: list[tuple[str, str, str, str]], typed: str, start: int) -> list[Candidate]:
    """Keep the options that match ``typed`` and order them exact > prefix > fuzzy, then by context."""
    low = typed.lower()
    ranked: list[tuple[tuple[int, int, int, int, int, str], Candidate]] = []
    seen: set[str] = set()
    kind_rank: dict[str, int] = {}
    for order, (text, kind, display, doc) in enumerate(options):
        kind_rank.setdefault(kind, len(kind_rank))
        key = text.lower()
        if key in seen:
            continue
        if not low:
            match, score = "any", 0
        elif key == low:
            match, score = "exact", 0
        elif key.startswith(low):
            match, score = "prefix", 0
        else:
            fuzzy = fuzzy_score(low, key)
            if fuzzy is None:
                continue
            match, score = "fuzzy", fuzzy
        seen.add(key)
        candidate = Candidate(text, kind, start, display or text, doc, match)
        # Nothing typed: keep the context's order; otherwise the better match first, then the kind
        # that fits the context best, then the shorter word.
        tie = (order, 0) if not low else (kind_rank[kind], len(text))
        ranked.append(((_TIERS[match], score, *tie, 0, key), candidate))
    ranked.sort(key=lambda item: item[0])
    return [c for _, c in ranked]
