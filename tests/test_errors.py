"""Errors as Python sees them: the class, the position and hint attributes, and bounds on how
many errors a text reports and how long they are (docs/python.md)."""

from __future__ import annotations

import random
from collections.abc import Callable

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


# ---------------------------------------------------------------------------------------------
# Every failure of the API is a PqlError that pql_repl exports (issue 41, item 10): a wrong
# argument is a PqlArgumentError (a ValueError too), a wrong type a PqlArgumentTypeError (a
# TypeError too), each naming the argument.

QUERY = "select avg(riverEquity(hero)) from hero='AsAh', villain='KsKd', board='2c3d4h5s9c'"
SIMULATE = "simulate call, fold from hero='AhKh', villain='QQ+', board='Kd7c2h', pot=10, tocall=2, bet=2"

WRONG_TYPES: list[tuple[str, Callable[[], object], str]] = [
    ("run(None)", lambda: pql.run(None), "text must be a str"),  # type: ignore[arg-type]
    ("prepare(5)", lambda: pql.prepare(5), "text must be a str"),  # type: ignore[arg-type]
    ("Query(b'')", lambda: pql.Query(b"select"), "text must be a str"),  # type: ignore[arg-type]
    ("parse_range(None)", lambda: pql.parse_range(None), "text must be a str"),  # type: ignore[arg-type]
    ("parse_range(game=5)", lambda: pql.parse_range("AA", 5), "game must be a str"),  # type: ignore[arg-type]
    ("parse_range(syntax=[])", lambda: pql.parse_range("AA", syntax=[]), "syntax must be a str"),  # type: ignore[arg-type]
    ("parse_range(macros=5)", lambda: pql.parse_range("AA", macros=5), "macros must be"),  # type: ignore[arg-type]
    ("parse_range(macros={'ab': 5})", lambda: pql.parse_range("AA", macros={"ab": 5}), "macros"),  # type: ignore[dict-item]
    ("odds(None)", lambda: pql.odds(None), "hand must be a str"),  # type: ignore[arg-type]
    ("odds(board=5)", lambda: pql.odds("AsKs", 5), "board must be a str"),  # type: ignore[arg-type]
    ("odds(opponents=2.5)", lambda: pql.odds("AsKs", "", 2.5), "opponents must be"),  # type: ignore[arg-type]
    ("odds(opponents=[5])", lambda: pql.odds("AsKs", "", [5]), "opponents must be"),  # type: ignore[list-item]
    ("odds_table(None)", lambda: pql.odds_table(None), "hand must be a str"),  # type: ignore[arg-type]
    ("odds_table(counts=5)", lambda: pql.odds_table("AsKs", "", 5), "counts must be"),  # type: ignore[arg-type]
    ("evaluate(None)", lambda: pql.evaluate(None), "hole must be a str"),  # type: ignore[arg-type]
    ("evaluate(board=5)", lambda: pql.evaluate("AsKs", 5), "board must be a str"),  # type: ignore[arg-type]
    ("flops(None)", lambda: pql.flops(None), "kind must be a str"),  # type: ignore[arg-type]
    ("turns(5)", lambda: pql.turns(5), "board must be a str"),  # type: ignore[arg-type]
    ("rivers(None)", lambda: pql.rivers(None), "board must be a str"),  # type: ignore[arg-type]
    ("classes(5)", lambda: pql.classes(5), "game must be a str"),  # type: ignore[arg-type]
    ("run(trials='x')", lambda: pql.run(QUERY, trials="x"), "trials must be a whole number"),  # type: ignore[arg-type]
    ("run(exact='yes')", lambda: pql.run(QUERY, exact="yes"), "exact must be True, False or None"),  # type: ignore[arg-type]
    ("run(precision=[])", lambda: pql.run(QUERY, precision=[]), "precision must be a number"),  # type: ignore[arg-type]
    ("stream(batch='x')", lambda: pql.prepare(QUERY).stream(batch="x"), "batch must be a number"),  # type: ignore[arg-type]
]

WRONG_VALUES: list[tuple[str, Callable[[], object], str]] = [
    ("run(trials=0)", lambda: pql.run(QUERY, trials=0), "trials must be a whole number from 1"),
    ("run(seed=-1)", lambda: pql.run(QUERY, seed=-1), "seed must be a whole number from 0"),
    ("run(time_limit=0)", lambda: pql.run(QUERY, time_limit=0), "time_limit must be a positive number"),
    ("run(precision='x')", lambda: pql.run(QUERY, precision="x"), "precision must be a standard error"),
    (
        "parse_range(macros={'a': 'KK'})",
        lambda: pql.parse_range("AA", macros={"a": "KK"}),
        "'$a' is not a range name",
    ),
    (
        "parse_range(macros=surrogate)",
        lambda: pql.parse_range("$ab", macros={"ab": "\ud800"}),
        "not Unicode text",
    ),
    ("odds(opponents=0)", lambda: pql.odds("AsKs", "", 0), "opponents must be 1 to 9"),
    ("odds(board of 2)", lambda: pql.odds("AsKs", "2c3d"), "a hold'em board has 0, 3, 4 or 5 cards"),
    ("odds(quote)", lambda: pql.odds("As'Ks"), "may not hold a quote"),
    ("odds_table(counts=[0])", lambda: pql.odds_table("AsKs", "", [0]), "1 to 9 random hands"),
    ("flops('x')", lambda: pql.flops("x"), "the kinds are 'canonical' and 'all'"),
    ("turns('x')", lambda: pql.turns("x"), "is not a board of known cards"),
    ("rivers(flop)", lambda: pql.rivers("Kh9h7d"), "needs a board of 4 cards"),
]


@pytest.mark.parametrize(
    ("call", "message"), [(c, m) for _, c, m in WRONG_TYPES], ids=[n for n, _, _ in WRONG_TYPES]
)
def test_an_argument_of_the_wrong_type_is_a_pql_error_and_a_type_error(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(pql.PqlArgumentTypeError) as info:
        call()
    e = info.value
    assert isinstance(e, pql.PqlError)
    assert isinstance(e, TypeError)
    assert message in str(e)
    assert "\n" not in str(e)


@pytest.mark.parametrize(
    ("call", "message"), [(c, m) for _, c, m in WRONG_VALUES], ids=[n for n, _, _ in WRONG_VALUES]
)
def test_an_argument_pql_cannot_take_is_a_pql_error_and_a_value_error(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(pql.PqlArgumentError) as info:
        call()
    e = info.value
    assert isinstance(e, pql.PqlError)
    assert isinstance(e, ValueError)
    assert message in str(e)
    assert "\n" not in str(e)


def test_every_exception_of_the_api_is_exported_and_a_pql_error() -> None:
    exported = {name: getattr(pql, name) for name in pql.__all__}
    errors = {
        name
        for name, value in exported.items()
        if isinstance(value, type) and issubclass(value, BaseException)
    }
    assert {"PqlArgumentError", "PqlArgumentTypeError", "ClusterError", "SpreadsheetError"} <= errors
    for name in errors:
        assert issubclass(exported[name], pql.PqlError), name
    from pql_repl.api import sheet  # noqa: PLC0415

    assert sheet.SpreadsheetError is pql.SpreadsheetError
    with pytest.raises(pql.SpreadsheetError, match="empty"):
        pql.spreadsheet("select avg(riverEquity(p1)) from p1='#H#', p2='KK'", "")


def test_odds_with_a_count_that_is_no_number_says_so() -> None:
    from pql_repl.session.session import Session  # noqa: PLC0415
    from pql_repl.session.settings import SessionError  # noqa: PLC0415

    for line in (".odds AdQc 3h4cJh ²", ".odds AdQc 3h4cJh ٣", ".odds AdQc ²"):
        with pytest.raises((SessionError, pql.PqlError)) as info:
            Session().handle(line)
        assert "²" in str(info.value) or "٣" in str(info.value)
    # Digits are ASCII digits: the count still reads.
    assert Session().handle(".odds AdQc 3h4cJh 3").odds is not None


def test_the_command_says_what_is_wrong_with_odds_without_a_traceback() -> None:
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    command = [sys.executable, "-m", "pql_repl.cli", "-c", ".odds AdQc 3h4cJh ²"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("pql: ")
    assert "'²'" in done.stderr


def test_simulate_refuses_more_to_call_than_the_pot_holds() -> None:
    text = "simulate call, fold from hero='AhKh', villain='QQ+', board='Kd7c2h', pot=2, tocall=10, bet=2"
    with pytest.raises(pql.PqlTypeError) as info:
        pql.prepare(text)
    e = info.value
    assert "tocall (10) is more than the pot (2)" in e.message
    assert e.span is not None
    assert text.encode()[e.span[0] : e.span[1]].decode() == "10"
    assert (e.line, e.col) == (1, text.index("=10") + 2)


def test_simulate_always_samples_and_says_so_to_exact() -> None:
    program = f"{QUERY};\n{SIMULATE}"
    with pytest.raises(pql.PqlArgumentError) as info:
        pql.run(program, exact=True)
    e = info.value
    assert "simulate always samples" in e.message
    assert (e.line, e.col) == (2, 1)
    assert pql.run(program, exact=None, trials=2_000, seed=1)[1].kind == "simulate"
    assert pql.run(SIMULATE, exact=False, trials=2_000, seed=1)[0].kind == "simulate"
