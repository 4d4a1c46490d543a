"""HoldemHand parity (issue 19): discounted outs and out cards, HoldemHand's Pocket Query
spellings, and the odds view, each checked against values computed here or read from
ANALYSIS.md and HoldemHand's document (seeds/003)."""

from __future__ import annotations

import pytest

import pql_repl as pql


def values(query: str) -> list[object]:
    (r,) = pql.run(query, trials=100, seed=1, threads=1)
    return [c.value if c.selector != "histogram" else [b.label for b in c.buckets] for c in r.columns]


# --- outs ---------------------------------------------------------------------------------------


def test_discounted_outs_on_the_analysis_example() -> None:
    """ANALYSIS.md: Q♠J♠ on 9♣T♠7♦3♣ has 14 outs and 8 discounted outs."""
    got = values(
        "select avg(outs(hero, turn)), avg(outsDiscounted(hero, turn)), histogram(outCards(hero, turn)),"
        " histogram(outCardsDiscounted(hero, turn)) from game='holdem', hero='QsJs', board='9cTs7d3c'"
    )
    assert got[:2] == [14.0, 8.0]
    assert got[2] == ["Ks Kh Kd Kc Qh Qd Qc Jh Jd Jc 8s 8h 8d 8c"]
    assert got[3] == ["Ks Kh Kd Qh Qd 8s 8h 8d"]


@pytest.mark.parametrize(
    ("hand", "board", "kept"),
    [
        # Pair: only with an overcard (the sevens are outs, not discounted outs).
        ("Ad7c", "Kh8s2d", "Ac Ah As"),
        # Suit danger: the heart ace and king would make a three-heart board.
        ("AsKd", "2h7hJc", "Ad Ac Ks Kc"),
        # Straight danger on the flop (two adjacent pairs): every pair card dropped.
        ("As4d", "9cThJd", "none"),
        # Two pair: pairing a hole card kept, pairing the board dropped, trips kept.
        ("Ad7c", "Ah8s2c", "As Ac 7s 7h 7d"),
        # Two pair on a paired board: dropped.
        ("Ad7c", "9h8s8c", "none"),
        # Trips from a pocket pair; two pair with the board dropped.
        ("5d5c", "Kh9s2c", "5s 5h"),
        # Flush cards always kept.
        ("AhKh", "2h7h9c", None),
    ],
)
def test_discounted_outs_rules(hand: str, board: str, kept: str | None) -> None:
    street = "flop" if len(board) == 6 else "turn"
    outs, discounted = values(
        f"select histogram(outCards(hero, {street})), histogram(outCardsDiscounted(hero, {street}))"
        f" from game='holdem', hero='{hand}', board='{board}'"
    )
    if kept is None:
        assert discounted == outs
    else:
        (text,) = discounted
        assert set(text.split()) == set(kept.split())
        assert set(kept.split()) - {"none"} <= set(outs[0].split())


def test_discounted_outs_with_a_known_opponent_are_the_outs() -> None:
    """With another player's hand known, discounted outs are outs (beat every known hand)."""
    got = values(
        "select avg(outs(hero, turn)), avg(outsDiscounted(hero, turn)) from game='holdem',"
        " hero='QsJs', villain='AsAd', board='9cTs7d3c'"
    )
    assert got[0] == got[1] > 0
