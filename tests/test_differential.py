"""Exact runs against an independent brute force, in every game (issue 38: "In the suite, so it
stays honest"). `tests/differential.py` draws the cases and enumerates every deal itself with
pokerkit's hand tables (eval7 in hold'em); see its docstring for what a case holds.

The suite runs a few hundred cases with a fixed seed; `make diff` runs thousands:
``PQL_DIFF_CASES=5000 PQL_DIFF_SEED=7 python -m pytest tests/test_differential.py``. A failing
case prints its query: ``pql.run(query, exact=True)`` reproduces it, and
``differential.make_case(seed, index)`` gives the case back.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Iterator

import eval7
import pytest
from differential import (
    DECK,
    EIGHT,
    EVAL7_CARD,
    EVAL7_TYPE,
    GAMES,
    HI_TABLES,
    HOLE,
    LO_GAMES,
    OMAHA,
    RAZZ,
    SHORT_DECK,
    STUD,
    TYPE_NAME,
    Case,
    OmahaHand,
    Part,
    best_of_seven,
    board_triples,
    make_case,
    reference,
    run_case,
)
from pokerkit import (
    EightOrBetterLowHand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    ShortDeckHoldemHand,
    StandardHighHand,
)

import pql_repl as pql

CASES = int(os.environ.get("PQL_DIFF_CASES", "300"))
SEED = int(os.environ.get("PQL_DIFF_SEED", "38"))

#: What the cases compared, for the summary at the end of the module.
TALLY: Counter[str] = Counter()
SECONDS = [0.0]


@pytest.fixture(scope="module", autouse=True)
def _summary(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if not TALLY["cases"]:
        return
    games = ", ".join(f"{g} {TALLY['game ' + g]}" for g in GAMES)
    lines = [
        f"differential (seed {SEED}): {TALLY['cases']} cases in {SECONDS[0]:.1f} s, "
        f"{TALLY['disagreed']} disagreeing; {TALLY['deals']:,} deals enumerated by the reference",
        f"  compared: {TALLY['values']:,} values (equities, shares of counts and of hand types), "
        f"{TALLY['raw']:,} weighted counts, {TALLY['deal counts']:,} deal counts",
        f"  games: {games}",
    ]
    # written past the output capture, as `capsys.disabled()` does
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line("")
        for line in lines:
            reporter.write_line(line)


@pytest.mark.parametrize("index", range(CASES))
def test_exact_run_equals_brute_force(index: int) -> None:
    started = time.monotonic()
    case = make_case(SEED, index)
    _, ref, out = run_case(case)
    SECONDS[0] += time.monotonic() - started
    TALLY["cases"] += 1
    TALLY["game " + case.game] += 1
    TALLY["deals"] += ref.sets
    TALLY["values"] += out.values
    TALLY["raw"] += out.raw_counts
    TALLY["deal counts"] += out.deal_counts
    if out.problems:
        TALLY["disagreed"] += 1
    assert not out.problems, (
        f"case {index} of seed {SEED} ({case.game}) disagrees with the brute force:\n  "
        + "\n  ".join(out.problems[:12])
        + f"\nreproduce: pql.run({case.query()!r}, exact=True)"
    )


def test_the_cases_cover_every_feature() -> None:
    """The CI run's cases hold every game, 2 to 6 players, boards of 0 to 5 known cards (written
    and as patterns), dead cards, classes, weights, Omaha and stud `*`, stud ranges of several
    shapes and colliding ranges."""
    seen: Counter[str] = Counter()
    for index in range(CASES):
        case = make_case(SEED, index)
        seen["game " + case.game] += 1
        seen[f"{len(case.players)} players"] += 1
        if case.game not in STUD:
            known = sum(c is not None for c in case.board or ())
            seen[f"board {known}"] += 1
            seen["pattern"] += case.board is not None and None in case.board
        seen["dead"] += bool(case.dead)
        parts = [p for r in case.players for p in r]
        seen["weights"] += any(p.weight for p in parts)
        seen["classes"] += any(p.klass for p in parts)
        seen["several parts"] += any(len(r) > 1 for r in case.players)
        seen["omaha *"] += case.game in OMAHA and any(None in p.cards for p in parts)
        seen["stud *"] += case.game in STUD and any(None in p.cards for p in parts)
        seen["stud down *"] += case.game in STUD and any(
            len(p.cards) >= 2 and (p.cards[0] is None) != (p.cards[1] is None) for p in parts
        )
        seen["stud shapes"] += case.game in STUD and any(
            len({tuple(c is None for c in p.cards) for p in r}) > 1 for r in case.players
        )
        written = [c for p in parts for c in p.cards if c]
        seen["shared cards"] += len(written) > len(set(written))
    wanted = [f"game {g}" for g in GAMES] + [f"{n} players" for n in range(2, 7)]
    wanted += [f"board {k}" for k in range(6)]
    wanted += ["pattern", "dead", "weights", "classes", "several parts", "omaha *", "stud *"]
    wanted += ["stud down *", "stud shapes", "shared cards"]
    if CASES >= 300:
        missing = [w for w in wanted if not seen[w]]
        assert not missing, (missing, seen)


# ---------------------------------------------------------------------------------------------
# The reference itself: its counting rules are docs/computation.md's, its hand values pokerkit's.


def _stud_case(hero: str) -> Case:
    villain = Part(tuple("2d3d4d5d6h7h8h"[i : i + 2] for i in range(0, 14, 2)))
    return Case(0, 0, "studhi", "stud", [[_stud_part(hero)], [villain]], None, None, ())


def _stud_part(text: str) -> Part:
    cards: list[str | None] = []
    i = 0
    while i < len(text):
        if text[i] == "*":
            cards.append(None)
            i += 1
        else:
            cards.append(text[i : i + 2])
            i += 2
    return Part(tuple(cards))


@pytest.mark.parametrize(
    ("hero", "deals"),
    [
        # docs/computation.md, "What is counted"
        ("*8s7sKc2cAh", 1_560),  # the * beside a written down card: 40 hands x 39 cards
        ("8sKd7sKc*Ah", 780),  # two open cards: one set, C(40, 2)
        ("8sKd7sKc2cAh", 39),
    ],
)
def test_the_reference_counts_deals_as_the_readme_says(hero: str, deals: int) -> None:
    case = _stud_case(hero)
    assert reference(case).deals == deals
    (result,) = pql.run(case.query(), exact=True)
    assert result.trials == result.total_deals == deals


def _random_hands(rng: random.Random, deck: tuple[str, ...], size: int, count: int) -> list[tuple[str, ...]]:
    return [tuple(rng.sample(deck, size)) for _ in range(count)]


def _strength(hand: object) -> int:
    """A pokerkit hand's strength as a number (its lookup entry; lows compare the other way)."""
    index: int = hand.entry.index  # type: ignore[attr-defined]
    return -index if hand.low else index  # type: ignore[attr-defined]


def _same_order(ours: list[object], theirs: list[object]) -> None:
    """Every pair of hands compares the same way in both: equal strengths map to one value of
    ours, and the values rise with the strengths."""
    by_strength: dict[int, set[object]] = {}
    for value, hand in zip(ours, theirs, strict=True):
        by_strength.setdefault(_strength(hand), set()).add(value)
    assert all(len(v) == 1 for v in by_strength.values()), by_strength
    values = [next(iter(by_strength[k])) for k in sorted(by_strength)]
    assert values == sorted(values), values  # type: ignore[type-var]
    assert len(set(values)) == len(values)


@pytest.mark.parametrize(
    ("rule", "deck", "hand_class"),
    [
        ("standard", DECK, StandardHighHand),
        ("short", SHORT_DECK, ShortDeckHoldemHand),
    ],
)
def test_seven_card_hi_values_are_pokerkits(rule: str, deck: tuple[str, ...], hand_class: type) -> None:
    rng = random.Random(1)
    hands = _random_hands(rng, deck, 7, 250)
    ours = [best_of_seven(HI_TABLES[rule], h) for h in hands]
    theirs = [hand_class.from_game("".join(h)) for h in hands]
    _same_order([v for v, _ in ours], theirs)
    assert [t for _, t in ours] == [TYPE_NAME[h.entry.label] for h in theirs]
    if rule == "standard":  # eval7, the hold'em reference, agrees with pokerkit
        values: list[object] = [eval7.evaluate([EVAL7_CARD[c] for c in h]) for h in hands]
        _same_order(values, theirs)
        assert [EVAL7_TYPE[eval7.handtype(v)] for v in values] == [t for _, t in ours]


def test_triton_short_deck_puts_trips_above_a_straight() -> None:
    triton, short = HI_TABLES["triton"], HI_TABLES["short"]
    trips = ("As", "Ah", "Ad", "Ks", "9c", "7d", "6h")
    straight = ("Ts", "9h", "8d", "7c", "6s", "Kh", "Kd")
    assert best_of_seven(short, straight)[0] > best_of_seven(short, trips)[0]  # type: ignore[operator]
    assert best_of_seven(triton, trips)[0] > best_of_seven(triton, straight)[0]  # type: ignore[operator]
    # otherwise the order is pokerkit's short deck
    rng = random.Random(2)
    hands = [
        h
        for h in _random_hands(rng, SHORT_DECK, 7, 250)
        if best_of_seven(short, h)[1] not in ("trips", "straight")
    ]
    ours = [best_of_seven(triton, h)[0] for h in hands]
    theirs = [ShortDeckHoldemHand.from_game("".join(h)) for h in hands]
    _same_order(ours, theirs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("table", "hand_class"), [(EIGHT, EightOrBetterLowHand), (RAZZ, RegularLowHand)])
def test_seven_card_lows_are_pokerkits(table: object, hand_class: type) -> None:
    rng = random.Random(3)
    hands = _random_hands(rng, DECK, 7, 300)
    ours = [best_of_seven(table, h)[0] for h in hands]  # type: ignore[arg-type]
    theirs = [hand_class.from_game_or_none("".join(h)) for h in hands]
    assert [v is None for v in ours] == [h is None for h in theirs]
    pairs = [(v, h) for v, h in zip(ours, theirs, strict=True) if h is not None]
    assert len(pairs) > 20
    _same_order([v for v, _ in pairs], [h for _, h in pairs])


@pytest.mark.parametrize("hole", [4, 5])
def test_omaha_values_are_pokerkits(hole: int) -> None:
    rng = random.Random(4 + hole)
    deals = [tuple(rng.sample(DECK, hole + 5)) for _ in range(120)]
    his, los, pk_his, pk_los = [], [], [], []
    for d in deals:
        h, board = OmahaHand(d[:hole]), board_triples(d[hole:])
        his.append(h.best(HI_TABLES["standard"], board))
        los.append(h.best(EIGHT, board)[0])
        pk_his.append(OmahaHoldemHand.from_game("".join(d[:hole]), "".join(d[hole:])))
        pk_los.append(OmahaEightOrBetterLowHand.from_game_or_none("".join(d[:hole]), "".join(d[hole:])))
    _same_order([v for v, _ in his], pk_his)
    assert [t for _, t in his] == [TYPE_NAME[h.entry.label] for h in pk_his]
    assert [v is None for v in los] == [h is None for h in pk_los]
    pairs = [(v, h) for v, h in zip(los, pk_los, strict=True) if h is not None]
    assert len(pairs) > 10
    _same_order([v for v, _ in pairs], [h for _, h in pairs])


def test_hole_sizes_and_games_are_pqls() -> None:
    names = set(pql.game_streets())
    assert {name for names_ in GAMES.values() for name in names_} <= names
    for game, size in HOLE.items():
        (r,) = pql.run(
            f"select count(true) from game='{game}', p1='{'*' * size}', p2='{'*' * size}'",
            trials=10,
            exact=False,
        )
        assert r.game == game
    assert set(LO_GAMES) == {"omaha8", "omaha85", "stud8", "razz"}
