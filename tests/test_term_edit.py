"""The Omaha explorer's terms: written as one range text, read back, and meaning what they say."""

from __future__ import annotations

import pytest

import pql_repl as pql
from pql_repl.editors.term_edit import Term, parse_terms, terms_text


def hands(text: str) -> set[str]:
    return set(pql.parse_range(text, "omahahi").combos)


@pytest.mark.parametrize(
    "terms",
    [
        [Term("AA**$ds"), Term("RRON")],
        [Term("AA**"), Term("KK**", negated=True)],
        [Term("AA**", weight=30), Term("KK**")],
        [Term("KK**", negated=True), Term("QQ**", negated=True)],
        [Term("AA**, KK**"), Term("AAA*", negated=True)],
    ],
)
def test_terms_read_back(terms: list[Term]) -> None:
    text = terms_text(terms)
    back = parse_terms(text)
    assert terms_text(back) == text
    kept = [t for t in terms if not t.negated]
    out = [t for t in terms if t.negated]
    assert [t.text for t in back if not t.negated] == [t.text for t in kept]
    assert [t.text for t in back if t.negated] == [t.text for t in out]


def test_negated_terms_are_taken_out_of_every_kept_one() -> None:
    got = hands(terms_text([Term("AA**"), Term("KK**"), Term("AK**", negated=True)]))
    assert got == (hands("AA**") | hands("KK**")) - hands("AK**")
    everything_but = hands(terms_text([Term("AA**", negated=True)]))
    assert len(everything_but) == 270725 - len(hands("AA**"))


def test_weights_go_on_every_kept_part() -> None:
    text = terms_text([Term("AA**", weight=30), Term("KK**")])
    assert text == "AA**@30, KK**@100"
    r = pql.parse_range(text, "omahahi")
    assert set(r.weights) == {30, 100}


def test_other_texts_are_read_as_their_comma_parts() -> None:
    assert parse_terms("AA**!KK**, RRON@5") == [Term("AA**!KK**"), Term("RRON", weight=5)]
    assert parse_terms("") == []


@pytest.mark.parametrize(
    ("pasted", "terms"),
    [
        ("[75]AA**,KK**[/75],QQ**", [Term("AA**", weight=75), Term("KK**", weight=75), Term("QQ**")]),
        (
            "AA**:0.75, KK**:1, QQ**:.5",
            [Term("AA**", weight=75), Term("KK**", weight=100), Term("QQ**", weight=50)],
        ),
        ("AA**$ds@33.3, RRON", [Term("AA**$ds", weight=33.3), Term("RRON")]),
        ("AA**:xxyy, KK**", [Term("AA**:xxyy"), Term("KK**")]),
    ],
)
def test_ranges_of_other_tools_are_read_as_weighted_terms(pasted: str, terms: list[Term]) -> None:
    """Issue 39: Equilab's and GTO+'s brackets, Pio's ':' fractions and decimals after '@'."""
    assert parse_terms(pasted) == terms
    written = terms_text(terms)
    back = pql.parse_range(written, "omahahi")
    want = pql.parse_range(pasted, "omahahi")
    assert (back.combos, back.percents) == (want.combos, want.percents)
