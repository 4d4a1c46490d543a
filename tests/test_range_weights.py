"""Ranges from other tools mean what they mean there (issue 39): Equilab's, Flopzilla's and GTO+'s
bracketed weights (`[75]AA,KK[/75],QQ`), PioSolver's and GTO Wizard's weights after `:`
(`AA:0.75,KK:1`), unweighted parts at full weight beside weighted ones (`QQ+, AKs, A5s@50`),
and weights in fractions of a percent (`@33.3`, `:0.0625`). Each form answers exactly as the
same range written with `@` does, to the last digit of an exact run."""

from __future__ import annotations

import pytest

import pql_repl as pql
from pql_repl.session.session import Session

#: (a range as another tool writes it, the same range written with `@`), in hold'em.
HOLDEM_FORMS = [
    ("[75]AA,KK[/75],QQ", "AA@75, KK@75, QQ@100"),
    ("[50.0]JTs,KJo[/50.0],[12.5]AhKh[/12.5]", "JTs@50, KJo@50, AhKh@12.5"),
    ("[50]AsKh, KK[/50], 55, Jh3s", "AsKh@50, KK@50, 55@100, Jh3s@100"),
    ("AA:0.75,KK:1,AKs:0.5", "AA@75, KK@100, AKs@50"),
    ("AcAd:0.5,KsKh,QsQd:0.25", "AcAd@50, KsKh@100, QsQd@25"),
    ("QQ+, AKs, A5s@50", "QQ+@100, AKs@100, A5s@50"),
    ("AA:0.333,KK:0.0625,QQ:0.8642,AKs:1.0", "AA@33.3, KK@6.25, QQ@86.42, AKs@100"),
    ("JJ+:0.5, AQs+:.25, T9s:0", "JJ+@50, AQs+@25"),
]

#: The same in Omaha (hands written card by card, as solvers export them, and generic terms).
OMAHA_FORMS = [
    ("[75]AsAhKsKh,AdAcQdQc[/75],JsJhTsTh", "AsAhKsKh@75, AdAcQdQc@75, JsJhTsTh@100"),
    ("AsAhKsKh:0.75,AdAcQdQc:1,JsJhTsTh:0.5", "AsAhKsKh@75, AdAcQdQc@100, JsJhTsTh@50"),
    ("AsAhKsKh, AdAcQdQc@50, JsJhTsTh:0.333", "AsAhKsKh@100, AdAcQdQc@50, JsJhTsTh@33.3"),
    ("[12.5]AsAh**:KsKh**[/12.5], JdJcTdTc", "AsAh**:KsKh**@12.5, JdJcTdTc@100"),
]


def exact(query: str) -> pql.StatementResult:
    (r,) = pql.run(query)
    assert r.exact, query
    return r


@pytest.mark.parametrize(("form", "at"), HOLDEM_FORMS)
def test_holdem_forms_answer_exactly_as_their_at_forms(form: str, at: str) -> None:
    q = (
        "select avg(riverEquity(hero)), count(winsHi(villain)), histogram(handType(hero, river)) "
        "from game='holdem', hero='{}', villain='AKo, JJ, 98s', board='Kh7c2d'"
    )
    got, want = exact(q.format(form)), exact(q.format(at))
    assert got.columns == want.columns  # values, counts and buckets to the last digit
    assert got.trials == want.trials


@pytest.mark.parametrize(("form", "at"), OMAHA_FORMS)
def test_omaha_forms_answer_exactly_as_their_at_forms(form: str, at: str) -> None:
    q = (
        "select avg(riverEquity(hero)), count(winsHi(hero)) "
        "from game='omahahi', hero='{}', villain='9s9h8s8h, 7d6d5c4c', board='Kc7h2s'"
    )
    got, want = exact(q.format(form)), exact(q.format(at))
    assert got.columns == want.columns
    assert got.trials == want.trials


@pytest.mark.parametrize(("form", "at"), HOLDEM_FORMS)
def test_forms_read_to_the_weights_of_their_at_forms(form: str, at: str) -> None:
    got, want = pql.parse_range(form), pql.parse_range(at)
    assert (got.combos, got.weights, got.full) == (want.combos, want.weights, want.full)
    assert got.weighted


def test_weights_are_percents_to_four_decimals() -> None:
    r = pql.parse_range("AsAh:0.0625, KsKh@33.3, QsQh:0.8642, JsJh")
    assert dict(zip(r.combos, r.percents, strict=True)) == {
        "AsAh": 6.25,
        "KsKh": 33.3,
        "QsQh": 86.42,
        "JsJh": 100,
    }
    assert r.full == 10_000  # hundredths of a percent hold every weight exactly
    assert str(r) == "4 hands: AsAh@6.25 KsKh@33.3 QsQh@86.42 JsJh@100"
    # Whole percents are held as they always were: the percents themselves, full weight 100.
    old = pql.parse_range("AA@10, KK@5")
    assert (set(old.weights), old.full) == ({10, 5}, 100)
    # A millionth of full weight is the finest: six decimals of a fraction, four of a percent.
    fine = pql.parse_range("AsAh:0.000001, KsKh")
    assert (fine.weights, fine.full) == ([1, 1_000_000], 1_000_000)
    assert pql.parse_range("AA@1").weighted  # a weight of 1 is a weight (it read as none)


def test_a_weight_of_zero_leaves_the_hands_out() -> None:
    assert pql.parse_range("AA, KK:0").combos == pql.parse_range("AA").combos
    assert pql.parse_range("[0]KK[/0], AA@50").combos == pql.parse_range("AA").combos
    # A hand matched by several parts keeps the largest weight.
    assert pql.parse_range("AA:0, AA").combos == pql.parse_range("AA").combos
    with pytest.raises(pql.PqlRangeError, match="matches no hand"):
        pql.parse_range("AA:0")


@pytest.mark.parametrize(
    ("text", "at", "message"),
    [
        ("[75]AA,KK", "[75]", "not closed"),
        ("[75]AA,[50]KK[/50]", "[50]", "do not nest"),
        ("[75]AA,KK[/50]", "[/50]", "does not close"),
        ("QQ, KK[/50]", "[/50]", "closes no weight bracket"),
        ("[75]AA,KK@50[/75]", "KK@50", "a weight of its own"),
        ("QQ+, AKs:0.5@50", "AKs:0.5@50", "two weights"),
        ("QQ+, AKs:1.5", ":1.5", "from 0 to 1"),
        ("QQ+, AKs@150", "@150", "0 to 100"),
        ("(AKs:0.5, QQ)", ":0.5", "top-level"),
    ],
)
def test_an_error_in_a_weight_points_at_its_part(text: str, at: str, message: str) -> None:
    with pytest.raises(pql.PqlRangeError, match=message) as e:
        pql.parse_range(text)
    assert e.value.span == (text.index(at), text.index(at) + len(at))


def test_in_stud_digits_after_a_colon_are_ranks_unless_a_weight() -> None:
    # `A:2` is a stud hand (an ace and a two) as before; `:0.5` and `:1` are weights.
    assert pql.parse_range("A:2", "stud").combos == pql.parse_range("A2", "stud").combos
    r = pql.parse_range("A2:0.5, K3:1", "stud")
    weight = dict(zip(r.combos, r.percents, strict=True))
    assert {w for c, w in weight.items() if c.startswith("A")} == {50}
    assert {w for c, w in weight.items() if c.startswith("K")} == {100}
    q = "select avg(riverEquity(p1)) from game='razz', p1='{}', p2='(3-2-)45678'"
    (a,) = pql.run(q.format("[50]A2[/50], K3"), trials=20_000, seed=3)
    (b,) = pql.run(q.format("A2@50, K3@100"), trials=20_000, seed=3)
    assert a.columns == b.columns  # the same draws, seeded


def test_a_sampled_run_draws_as_its_at_form() -> None:
    q = "select avg(riverEquity(hero)) from hero='{}', villain='QQ, AK', board='Kh7c2d'"
    for form, at in HOLDEM_FORMS[:6]:
        (a,) = pql.run(q.format(form), trials=30_000, seed=11, exact=False)
        (b,) = pql.run(q.format(at), trials=30_000, seed=11, exact=False)
        assert a.columns == b.columns, form


def test_range_lists_hands_in_rank_order() -> None:
    out = Session().handle(".range holdem '22, KsKh, AKs@50, AsAh'").output
    assert out.splitlines()[1].split() == [
        "AsAh@100",
        "AsKs@50",
        "AhKh@50",
        "AdKd@50",
        "AcKc@50",
        "KsKh@100",
        "2s2h@100",
        "2s2d@100",
        "2s2c@100",
        "2h2d@100",
        "2h2c@100",
        "2d2c@100",
    ]
    assert pql.parse_range("KK, AA").combos[:2] == ["AsAh", "AsAd"]
    assert pql.parse_range("KdKcQhQs, 2d2cAsAh", "omahahi").combos == ["AsAh2d2c", "KdKcQsQh"]
    assert pql.parse_range("A*, K*", "stud").combos[0].startswith("As")
