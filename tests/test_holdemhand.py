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


# --- Pocket Query syntax as HoldemHand writes it (seeds/003) ------------------------------------

RANKS = "23456789TJQKA"
COMBOS = [
    (a, b)
    for i, a in enumerate([r + s for r in RANKS for s in "cdhs"])
    for b in [r + s for r in RANKS for s in "cdhs"][i + 1 :]
]


def count(pred: object) -> int:
    return sum(1 for a, b in COMBOS if pred(a, b))  # type: ignore[operator]


def suited(a: str, b: str) -> bool:
    return a[1] == b[1]


def offsuit(a: str, b: str) -> bool:
    """Ours: two ranks, two suits (a pair is not offsuit; HoldemHand's pairs are)."""
    return a[1] != b[1] and a[0] != b[0]


def gap(a: str, b: str, n: int) -> bool:
    """Ranks n + 1 apart, the ace also low (A2 connected, as HoldemHand has it)."""
    hi, lo = sorted((RANKS.index(a[0]), RANKS.index(b[0])), reverse=True)
    return hi - lo == n + 1 or (hi == 12 and lo == n)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Connected Suited", count(lambda a, b: gap(a, b, 0) and suited(a, b))),
        ("Suited Connected", count(lambda a, b: gap(a, b, 0) and suited(a, b))),
        ("Connected Offsuit", count(lambda a, b: gap(a, b, 0) and offsuit(a, b))),
        ("Connected Offset", count(lambda a, b: gap(a, b, 0) and offsuit(a, b))),
        ("Offset", count(offsuit)),
        ("Not Offset", count(lambda a, b: not offsuit(a, b))),
        ("Gap1 Suited", count(lambda a, b: gap(a, b, 1) and suited(a, b))),
        ("Gap2 Offsuit", count(lambda a, b: gap(a, b, 2) and offsuit(a, b))),
        ("Gap3", count(lambda a, b: gap(a, b, 3))),
        ("Suited Not Connected", count(lambda a, b: suited(a, b) and not gap(a, b, 0))),
        ("AK*", count(lambda a, b: {a[0], b[0]} == {"A", "K"})),
        ("AK Suited", 4),
        ("(AK* | AA) & Offset", count(lambda a, b: {a[0], b[0]} == {"A", "K"} and offsuit(a, b))),
        ("(AK* Union AA) Offset", count(lambda a, b: {a[0], b[0]} == {"A", "K"} and offsuit(a, b))),
        # HoldemHand reads plain QJ as offsuit only (12); pql keeps its own meaning, both (16).
        ("QJ", 16),
        (
            "Kx Suited",
            count(
                lambda a, b: (
                    suited(a, b)
                    and {a[0], b[0]} & {"K"}
                    and min(RANKS.index(a[0]), RANKS.index(b[0])) < 7
                    and a[0] != b[0]
                )
            ),
        ),
    ],
)
def test_pocket_query_forms_count(text: str, expected: int) -> None:
    assert len(pql.parse_range(text)) == expected


@pytest.mark.parametrize(
    ("holdemhand", "ours"),
    [
        ("Group3 And Offset", "group3 : offsuit"),
        ("Group3 & Offset", "group3 : offsuit"),
        ("Group3 Intersection Offset", "group3 : offsuit"),
        ("Group3 Offset", "group3 : offsuit"),
        ("Group1 Or Group3", "group1, group3"),
        ("Group1 | Group3", "group1, group3"),
        ("Group1 Union Group3", "group1, group3"),
        ("Group2 To Group5", "group2, group3, group4, group5"),
        ("Group2 Through Group5", "group2, group3, group4, group5"),
        ("Group2-Group5", "group2, group3, group4, group5"),
        ("Not Group1", "* ! group1"),
        ("Group2 To Group5 Suited", "(group2, group3, group4, group5) : suited"),
    ],
)
def test_pocket_query_operators_match_ours(holdemhand: str, ours: str) -> None:
    """HoldemHand's operator words name the same hands as pql's own operators."""
    a, b = pql.parse_range(holdemhand), pql.parse_range(ours)
    assert sorted(a.combos) == sorted(b.combos)
    assert len(a) > 0
