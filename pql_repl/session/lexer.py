"""Tokens of PQL for highlighting and completion, and the pygments lexer (``pygmentize -l pql``).

``scan`` is a small hand-written scanner that never fails: half-typed queries (an open string, an
open comment) still yield tokens, which is what an editor needs. ``classify`` names each word
from the catalogue vocabulary, so the lexer knows exactly the words the engine knows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar, NamedTuple

from pygments.lexer import Lexer
from pygments.token import (
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
    _TokenType,
)

from pql_repl.session.vocabulary import Vocabulary, vocabulary


class Token(NamedTuple):
    """One lexical token: its kind, where it starts (character offset) and its text."""

    kind: str
    start: int
    text: str

    @property
    def end(self) -> int:
        return self.start + len(self.text)


# Scanner kinds. Words are refined by `classify` into the kinds below.
SPACE, COMMENT, STRING, NUMBER, WORD, OPERATOR, PUNCT, DOT_COMMAND, ERROR = (
    "space",
    "comment",
    "string",
    "number",
    "word",
    "operator",
    "punct",
    "dot_command",
    "error",
)
KEYWORD, SELECTOR, FUNCTION, CONSTANT, BOOLEAN, RESERVED_KEY, NAME = (
    "keyword",
    "selector",
    "function",
    "constant",
    "boolean",
    "reserved_key",
    "name",
)

_PATTERNS = [
    (SPACE, r"\s+"),
    (COMMENT, r"/\*.*?(?:\*/|\Z)|--[^\n]*"),
    # An unterminated string runs to the end of its line, so the rest of the query stays readable.
    (STRING, r"'[^'\n]*(?:'|$)|\"[^\"\n]*(?:\"|$)"),
    (NUMBER, r"(?:\d+\.?\d*|\.\d+)(?![A-Za-z_])"),
    (WORD, r"[A-Za-z_$][A-Za-z0-9_$]*|\d+[A-Za-z_][A-Za-z0-9_]*"),
    (OPERATOR, r"<>|!=|<=|>=|\|\||[=<>+\-*/]"),
    (PUNCT, r"[(),;.]"),
]
_SCANNER = re.compile("|".join(f"(?P<{kind}>{pattern})" for kind, pattern in _PATTERNS), re.S | re.M)
_DOT_COMMAND = re.compile(r"^[ \t]*(\.[A-Za-z]+)", re.M)


def scan(text: str) -> Iterator[Token]:
    """Split ``text`` into tokens that cover it exactly (concatenated they give ``text`` back)."""
    pos = 0
    dot_commands = {m.start(1): m.group(1) for m in _DOT_COMMAND.finditer(text)}
    while pos < len(text):
        command = dot_commands.get(pos)
        if command is not None:
            # A dot-command owns its whole line; its arguments are plain text (file names, ranges).
            line_end = text.find("\n", pos)
            line_end = len(text) if line_end < 0 else line_end
            yield Token(DOT_COMMAND, pos, command)
            if line_end > pos + len(command):
                yield Token(NAME, pos + len(command), text[pos + len(command) : line_end])
            pos = line_end
            continue
        match = _SCANNER.match(text, pos)
        if match is None or match.lastgroup is None:
            yield Token(ERROR, pos, text[pos])
            pos += 1
            continue
        yield Token(match.lastgroup, pos, match.group())
        pos = match.end()


def classify(tokens: list[Token], vocab: Vocabulary | None = None) -> list[Token]:
    """Give every word its kind: keyword, selector, function, constant, boolean, reserved key or name."""
    vocab = vocab or vocabulary()
    keywords = frozenset(vocab.keywords)
    selectors = frozenset(vocab.selectors)
    reserved = frozenset(vocab.reserved_keys) | frozenset(vocab.simulate_keys)
    actions = frozenset(vocab.actions)
    out: list[Token] = []
    in_actions = False
    previous: Token | None = None
    following_of = _following(tokens)
    for i, tok in enumerate(tokens):
        if tok.kind != WORD:
            out.append(tok)
            if tok.kind not in (SPACE, COMMENT):
                previous = tok
            continue
        word = tok.text.lower()
        following = following_of[i]
        called = following is not None and following.text == "("
        if word in ("simulate", "from", "select", "where"):
            in_actions = word == "simulate"
        if previous is not None and previous.text.lower() == "as":
            kind = NAME  # a column name, whatever word it is (`as equity`)
        elif in_actions and word in actions:
            kind = SELECTOR  # a simulate statement's actions stand where selectors do
        elif word in ("true", "false"):
            kind = BOOLEAN
        elif called and word in selectors:
            kind = SELECTOR
        elif called and vocab.function(word) is not None:
            kind = FUNCTION
        elif word in reserved and following is not None and following.text == "=":
            kind = RESERVED_KEY
        elif word in keywords:
            kind = KEYWORD
        elif word in vocab.constants:
            kind = CONSTANT
        else:
            kind = NAME
        previous = tok
        out.append(Token(kind, tok.start, tok.text))
    return out


def tokenize(text: str, vocab: Vocabulary | None = None) -> list[Token]:
    """``scan`` then ``classify``."""
    return classify(list(scan(text)), vocab)


def _following(tokens: list[Token]) -> list[Token | None]:
    """For every token, the next one that is not a space or a comment (None at the end): one
    pass from the end, where a search from each word made a long text quadratic (a 960 KB
    editor text took 228 s to highlight)."""
    out: list[Token | None] = [None] * len(tokens)
    following: Token | None = None
    for i in range(len(tokens) - 1, -1, -1):
        out[i] = following
        if tokens[i].kind not in (SPACE, COMMENT):
            following = tokens[i]
    return out


_PYGMENTS_TOKENS: dict[str, _TokenType] = {
    SPACE: Whitespace,
    COMMENT: Comment,
    STRING: String.Single,
    NUMBER: Number,
    OPERATOR: Operator,
    PUNCT: Punctuation,
    DOT_COMMAND: Keyword.Pseudo,
    ERROR: Error,
    KEYWORD: Keyword,
    SELECTOR: Name.Builtin,
    FUNCTION: Name.Function,
    CONSTANT: Name.Constant,
    BOOLEAN: Keyword.Constant,
    RESERVED_KEY: Name.Attribute,
    NAME: Name.Variable,
}
_WORD_OPERATORS = frozenset({"and", "or", "not"})


def pygments_token(tok: Token) -> _TokenType:
    """The pygments token type of a classified token."""
    if tok.kind == COMMENT:
        return Comment.Multiline if tok.text.startswith("/*") else Comment.Single
    if tok.kind == KEYWORD and tok.text.lower() in _WORD_OPERATORS:
        return Operator.Word
    if tok.kind == NAME and tok.text[:1].isspace():
        return Text
    return _PYGMENTS_TOKENS[tok.kind]


class PqlLexer(Lexer):
    """Pygments lexer for the Poker Query Language."""

    name = "PQL"
    aliases: ClassVar[list[str]] = ["pql"]
    filenames: ClassVar[list[str]] = ["*.pql"]
    mimetypes: ClassVar[list[str]] = ["text/x-pql"]

    def get_tokens_unprocessed(self, text: str) -> Iterator[tuple[int, _TokenType, str]]:
        for tok in tokenize(text):
            yield tok.start, pygments_token(tok), tok.text
