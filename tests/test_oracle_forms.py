"""The Odds Oracle's own spellings (issue 23): simple CASE and double-quoted strings read as
their standard forms, on exact runs and through every front end's statement splitting."""

from __future__ import annotations

import pytest

import pql_repl as pql
from pql_repl.session.completion import opens_by_itself
from pql_repl.session.lexer import STRING, scan
from pql_repl.session.statements import Statement, split_statements

SIMPLE_AND_SEARCHED = [
    (
        # The Oracle author's own example, on an exact flop.
        "select count(case handBoardIntersections(villain, river) when 0 then true "
        "when 2 then inRange(villain, '*!h!AA-KK') end) "
        "from hero='AhKh', villain='QQ+, JTs', board='2c7d9s'",
        "select count(case when handBoardIntersections(villain, river) = 0 then true "
        "when handBoardIntersections(villain, river) = 2 then inRange(villain, '*!h!AA-KK') end) "
        "from hero='AhKh', villain='QQ+, JTs', board='2c7d9s'",
    ),
    (
        "select avg(case handType(hero, river) when pair then 1 when twopair then 2 else 0 end) "
        "from hero='AsKs', villain='QQ', board='2c7d9s'",
        "select avg(case when handType(hero, river) = pair then 1 "
        "when handType(hero, river) = twopair then 2 else 0 end) "
        "from hero='AsKs', villain='QQ', board='2c7d9s'",
    ),
    (
        "select histogram(case nutHiOuts(hero, turn) when 0 then 'none' else 'some' end) "
        "from hero='AhKh', villain='QQ', board='2h7h9s3c'",
        "select histogram(case when nutHiOuts(hero, turn) = 0 then 'none' else 'some' end) "
        "from hero='AhKh', villain='QQ', board='2h7h9s3c'",
    ),
]


def exact_answer(text: str) -> tuple[object, ...]:
    (r,) = pql.run(text, exact=True)
    assert r.exact
    return (r.trials, r.accepted, tuple((c.selector, c.value, c.count, tuple(c.buckets)) for c in r.columns))


@pytest.mark.parametrize(("simple", "searched"), SIMPLE_AND_SEARCHED)
def test_a_simple_case_answers_as_the_searched_case(simple: str, searched: str) -> None:
    assert exact_answer(simple) == exact_answer(searched)


def test_a_simple_case_is_typed_like_the_searched_one() -> None:
    with pytest.raises(pql.PqlError) as e:
        pql.prepare(
            "select count(case handType(hero, river) when 1 then true end) from hero='AA', villain='KK'"
        )
    message = str(e.value)
    assert "line 1, col" in message
    with pytest.raises(pql.PqlError) as e2:
        pql.prepare(
            "select count(case when handType(hero, river) = 1 then true end) from hero='AA', villain='KK'"
        )
    # The same complaint as the searched form gives, at the subject of the simple form.
    first_line = message.splitlines()[0]
    assert first_line == "line 1, col 19: cannot compare handtype with integer"
    assert str(e2.value).splitlines()[0].split(": ", 1)[1] == first_line.split(": ", 1)[1]


def test_double_quotes_read_as_single_quotes() -> None:
    double = (
        'select avg(riverEquity(hero)) from game="omahahi", hero="KxKy7x8y", villain="AA**", board="2c7d9s"'
    )
    single = double.replace('"', "'")
    assert exact_answer(double) == exact_answer(single)
    # A single quote inside a double-quoted string is plain text, and the other way round.
    (r,) = pql.run("select histogram(\"it's\") from hero='AA', villain='KK'", trials=10, seed=1)
    assert [b.label for b in r.columns[0].buckets] == ["it's"]


def test_statements_split_around_double_quoted_semicolons() -> None:
    text = 'select count(winsHi(hero)) from hero="AA", villain="KK" where "a;b" = "a;b";\n.trials 1000'
    items = split_statements(text)
    assert [type(i) for i in items][:1] == [Statement]
    assert '"a;b" = "a;b"' in items[0].text
    assert len(items) == 2


def test_the_lexer_and_completion_know_double_quotes() -> None:
    tokens = [t for t in scan('x="AA, KK" y') if t.kind == STRING]
    assert [t.text for t in tokens] == ['"AA, KK"']
    assert opens_by_itself('select count(1) from hero="')  # an opening quote opens the menu
    assert not opens_by_itself('select count(1) from hero="AA"')  # a closing one does not
