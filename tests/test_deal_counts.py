"""How an exact run counts its deals (docs/computation.md, "What is counted"; issue 38): open
cards of one player are dealt as a set, and a stud hand with one down card written and the other
`*` is a range counted hand by hand, with the same answers."""

from __future__ import annotations

import pytest

import pql_repl as pql

VILLAIN = "villain='2d3d4d5d6h7h8h'"


def exact(hero: str) -> pql.StatementResult:
    (r,) = pql.run(f"select avg(riverEquity(hero)) from game='stud', hero='{hero}', {VILLAIN}", exact=True)
    assert r.exact
    return r


def test_open_cards_of_one_hand_are_one_set() -> None:
    r = exact("8sKd7sKc*Ah")
    assert r.total_deals == 40 * 39 // 2  # the fifth-street and seventh-street cards as a set


def test_a_half_written_down_pair_is_a_range_counted_hand_by_hand() -> None:
    r = exact("*8s7sKc2cAh")
    assert r.total_deals == 40 * 39  # 40 hands (the * beside 8s), each with 39 seventh-street cards
    used = {"8s", "7s", "Kc", "2c", "Ah", "2d", "3d", "4d", "5d", "6h", "7h", "8h"}
    left = [r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in used]
    assert len(left) == 40
    one_by_one = [float(exact(f"8s{c}7sKc2cAh").columns[0].value) for c in left]  # type: ignore[arg-type]
    assert r.columns[0].value == pytest.approx(sum(one_by_one) / len(one_by_one), abs=1e-12)
