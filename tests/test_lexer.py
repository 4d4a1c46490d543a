"""The pygments lexer: token classes for a corpus of queries, words from the catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, _TokenType

from pql_repl.session.lexer import PqlLexer, scan, tokenize
from pql_repl.session.vocabulary import vocabulary

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.pql"))

CORPUS = [
    "select avg(riverEquity(hero)) from hero='AA', villain='KK'",
    "SELECT count(winsHi(hero)) AS wins FROM game='omaha8', hero='A2**', villain='15%'"
    " WHERE nutLo(hero, flop);",
    "select histogram(handType(p1, river)) from game='razz', p1='(3-2-)45678' -- razz\n",
    "/* multi\nline */ select max(boardSuitCount(turn)) from board='AhKh2c'",
    "select avg(case when pocketPair(hero) then 1 else 0 end) from hero='*'",
    "select count(handType(hero, flop) >= trips and not pairedBoard(flop)) from hero='55'",
    "select avg(-2 * .5 + 3) from game='holdem'",
    "select toString(handType(h, river)) || 'x' as s from h='AKs'",
]


def tokens(text: str) -> list[tuple[_TokenType, str]]:
    return [(t, v) for t, v in PqlLexer().get_tokens(text) if v.strip()]


def kind_of(text: str, word: str) -> _TokenType:
    return next(t for t, v in tokens(text) if v == word)


@pytest.mark.parametrize("text", CORPUS + [p.read_text() for p in EXAMPLES])
def test_tokens_cover_the_text_without_errors(text: str) -> None:
    pieces = list(PqlLexer().get_tokens_unprocessed(text))
    assert "".join(v for _, _, v in pieces) == text
    assert all(t is not Error for _, t, _ in pieces)
    offsets = [i for i, _, _ in pieces]
    assert offsets == sorted(offsets)


def test_token_classes_of_a_query() -> None:
    text = CORPUS[1]
    assert kind_of(text, "SELECT") in Keyword
    assert kind_of(text, "count") is Name.Builtin
    assert kind_of(text, "winsHi") is Name.Function
    assert kind_of(text, "AS") in Keyword
    assert kind_of(text, "wins") is Name.Variable
    assert kind_of(text, "game") is Name.Attribute
    assert kind_of(text, "'omaha8'") is String.Single
    assert kind_of(text, "flop") is Name.Constant
    assert kind_of(text, "=") is Operator
    assert kind_of(text, ";") is Punctuation
    assert kind_of(CORPUS[5], ">=") is Operator
    assert kind_of(CORPUS[5], "and") is Operator.Word
    assert kind_of(CORPUS[5], "trips") is Name.Constant
    assert kind_of(CORPUS[6], ".5") in Number
    assert kind_of(CORPUS[6], "3") in Number
    assert kind_of(CORPUS[7], "||") is Operator


def test_comments() -> None:
    assert kind_of(CORPUS[2], "-- razz") is Comment.Single
    assert kind_of(CORPUS[3], "/* multi\nline */") is Comment.Multiline


def test_every_catalogue_word_is_recognised() -> None:
    vocab = vocabulary()
    for f in vocab.functions:
        assert kind_of(f"select avg({f.name}(p))", f.name) is Name.Function, f.name
    for word in (*vocab.streets, *vocab.hand_types, *vocab.flop_categories):
        assert kind_of(f"select count(x = {word})", word) is Name.Constant, word
    for selector in vocab.selectors:
        assert kind_of(f"select {selector}(1)", selector) is Name.Builtin
    for key in vocab.reserved_keys:
        assert kind_of(f"select avg(1) from {key}='x'", key) is Name.Attribute


def test_case_insensitive_words() -> None:
    assert kind_of("select AVG(RIVEREQUITY(h))", "RIVEREQUITY") is Name.Function
    assert kind_of("select count(x = FLOP)", "FLOP") is Name.Constant


def test_column_names_after_as_are_names() -> None:
    text = "select avg(equity(hero, flop)) as equity, count(1) as flop from hero='AA'"
    assert [t for t, v in tokens(text) if v == "equity"] == [Name.Function, Name.Variable]
    assert [t for t, v in tokens(text) if v == "flop"] == [Name.Constant, Name.Variable]


def test_unknown_function_call_is_not_a_builtin() -> None:
    assert kind_of("select avg(riverEquty(h))", "riverEquty") is Name.Variable


def test_unterminated_string_stops_at_end_of_line() -> None:
    text = "select avg(1) from hero='AK\nwhere pairedBoard(flop)"
    assert kind_of(text, "'AK") is String.Single
    assert kind_of(text, "where") in Keyword
    assert kind_of(text, "pairedBoard") is Name.Function


def test_dot_commands_at_line_start() -> None:
    text = ".trials 1000\nselect avg(1) from h='AA'\n  .seed 7"
    assert kind_of(text, ".trials") is Keyword.Pseudo
    assert kind_of(text, ".seed") is Keyword.Pseudo
    # `.5` inside an expression is a number, not a command.
    assert kind_of("select avg(.5)", ".5") in Number


def test_scan_round_trips_anything() -> None:
    for text in ["", "'", "/*", "select ((( ,, @#", "é ü 'ä'", "a--b", "1e5x"]:
        assert "".join(t.text for t in scan(text)) == text
        assert [t.start for t in tokenize(text)] == [t.start for t in scan(text)]


def test_registered_with_pygments() -> None:
    assert isinstance(get_lexer_by_name("pql"), PqlLexer)
    assert isinstance(get_lexer_for_filename("query.pql"), PqlLexer)
