"""Errors as Python sees them: the class, the position and hint attributes, and bounds on how
many errors a text reports and how long they are (DESIGN.md §3)."""

from __future__ import annotations

import random

import pytest

import pql_repl as pql

#: At most this many errors are reported, then one entry counting the rest.
MAX_ERRORS = 50


def first_error(text: str) -> pql.PqlError:
    with pytest.raises(pql.PqlError) as info:
        pql.prepare(text)
    return info.value


def test_a_syntax_error_has_its_class_position_and_caret() -> None:
    text = "select avg(riverEquity(hero) from hero='AA'"
    e = first_error(text)
    assert type(e) is pql.PqlSyntaxError
    assert e.message == "expected ')' after the argument of avg, found 'from'"
    assert (e.line, e.col, e.span, e.hint) == (1, 30, (29, 33), None)
    assert e.errors == [e]
    assert str(e) == f"line 1, col 30: {e.message}\n  {text}\n  {' ' * 29}^^^^"


def test_a_type_error_has_its_hint() -> None:
    e = first_error("select avg(1)\nfrom game='pokr', hero='AA'")
    assert type(e) is pql.PqlTypeError
    assert (e.line, e.col, e.span) == (2, 12, (25, 29))
    assert e.message == "unknown game 'pokr'"
    assert e.hint is not None
    assert e.hint.startswith("games: holdem, shortdeck")
    assert str(e).endswith(f"\n  hint: {e.hint}")


def test_a_range_error_points_into_the_range() -> None:
    text = "select avg(riverEquity(hero)) from hero='AKs, QQ+,, 22'"
    e = first_error(text)
    assert type(e) is pql.PqlRangeError
    assert e.span is not None
    assert text.index("'AKs") < e.span[0] < len(text)
    assert e.line == 1
    assert e.col == e.span[0] + 1


def test_several_errors_lead_with_the_syntax_error() -> None:
    e = first_error("select avg(riverEquty(hero)) from hero='AA'; select max(1 from x='A'")
    assert [type(x) for x in e.errors] == [pql.PqlSyntaxError, pql.PqlTypeError]
    assert e.errors[0] is e
    assert [x.col for x in e.errors] == [59, 12]


def test_errors_caused_by_recovery_are_not_reported() -> None:
    # One mistake, one error, of the class of the mistake.
    for text, cls, message in [
        ("select count(1 % 1 = 0) from hero='AA'", pql.PqlSyntaxError, "unexpected character '%'"),
        (
            "select count(winsHi(hero)) from hero='AA' where nto winsHi(hero)",
            pql.PqlSyntaxError,
            "unknown keyword 'nto' — did you mean 'not'?",
        ),
        (
            "select histogram(handType(hero, fifth)) from game='studd', hero='AA'",
            pql.PqlTypeError,
            "unknown game 'studd' — did you mean 'stud'?",
        ),
        (
            "select count(winsHi(hero)) from hero=’AA’",
            pql.PqlSyntaxError,
            "unexpected '’': strings use straight quotes ('AA' or \"AA\")",
        ),
    ]:
        e = first_error(text)
        assert [(type(x), x.message) for x in e.errors] == [(cls, message)], text


def test_a_megabyte_of_garbage_gives_a_short_report() -> None:
    # One run of bad characters is one error.
    e = first_error("select avg(1) from hero='AA' where " + "@" * 1_000_000)
    assert len(e.errors) == 1
    assert len(str(e)) < 500
    # Many separate mistakes: capped, with a count of the rest, each message short.
    rng = random.Random(7)
    alphabet = "ab@# ()',;=é’\u00a0\n\t|&!\"1x"
    garbage = "".join(rng.choice(alphabet) for _ in range(1_000_000))
    for text in (garbage, "x @ " * 250_000):
        e = first_error(text)
        assert len(e.errors) == MAX_ERRORS + 1
        assert e.errors[-1].message.startswith("… and ")
        assert e.errors[-1].line is None
        assert all(len(str(x)) < 2_000 for x in e.errors)


def test_ten_thousand_bad_statements_are_capped() -> None:
    e = first_error("select avg(riverEquty(hero)) from hero='AA';" * 10_000)
    assert type(e) is pql.PqlTypeError
    assert len(e.errors) == MAX_ERRORS + 1
    assert e.errors[-1].message == "… and 9950 more errors"
    assert e.errors[MAX_ERRORS - 1].col == 44 * (MAX_ERRORS - 1) + 12
    # The source line is 440,000 characters long: each message shows a window of it.
    assert all(len(str(x)) < 1_000 for x in e.errors)


def test_long_words_are_cut_in_messages() -> None:
    e = first_error(f"select avg({'x' * 100_000}(hero)) from hero='AA'")
    assert len(e.message) < 120
    assert "…" in e.message


def test_the_vocabulary_calls_are_public() -> None:
    assert {"keywords", "game_streets", "functions"} <= set(pql.__all__)
    assert pql.game_streets()["stud"][-1] == "seventh"
