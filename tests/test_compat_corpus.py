"""The PQL people already write (issue 15): every statement of `data/compat_corpus.txt` in a form
pql accepts since then gives the same answer as its spelled-out twin, run with the same seed on
one thread (the same deals in the same order), and docs/language/compat.md shows every form."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pql_repl as pql

CORPUS = Path(__file__).parent / "data" / "compat_corpus.txt"
COMPAT_PAGE = Path(__file__).parent.parent / "docs" / "language" / "compat.md"


def read_corpus() -> list[tuple[int, str, str]]:
    """(line, form, canonical) for each block: the form, then `= canonical` on the next line."""
    pairs: list[tuple[int, str, str]] = []
    lines = [(i + 1, line.rstrip()) for i, line in enumerate(CORPUS.read_text().splitlines())]
    lines = [(n, line) for n, line in lines if not line.startswith("#")]
    block: list[tuple[int, str]] = []
    for n, line in [*lines, (0, "")]:
        if line:
            block.append((n, line))
            continue
        if block:
            assert len(block) == 2, f"line {block[0][0]}: {block}"
            assert block[1][1].startswith("= "), f"line {block[1][0]}: {block}"
            pairs.append((block[0][0], block[0][1], block[1][1][2:]))
        block = []
    return pairs


PAIRS = read_corpus()


def answer(text: str) -> tuple[object, ...]:
    """What a run says, names aside (an unnamed form is named as written)."""
    (r,) = pql.run(text, trials=3000, seed=11, threads=1, exact=False)
    columns = tuple((c.selector, c.value, c.stderr, c.count, tuple(c.buckets)) for c in r.columns)
    return (r.trials, r.accepted, r.attempted, r.exact, columns)


def test_the_corpus_covers_every_form() -> None:
    assert len(PAIRS) >= 100
    sections = re.findall(r"^# --- (\d)\.", CORPUS.read_text(), re.MULTILINE)
    assert sections == ["1", "2", "3", "4", "5", "6", "7"]


@pytest.mark.parametrize(("line", "form", "canonical"), PAIRS, ids=[f"line{p[0]}" for p in PAIRS])
def test_a_form_answers_as_its_spelled_out_twin(line: int, form: str, canonical: str) -> None:
    assert form != canonical
    assert answer(form) == answer(canonical), f"line {line}"


def test_bare_selectors_are_named_as_written() -> None:
    (r,) = pql.run("select equity(hero), winsHi(hero) as w from hero='AA', villain='KK'", trials=100, seed=1)
    assert [(c.name, c.selector) for c in r.columns] == [("equity(hero)", "avg"), ("w", "count")]


def test_the_docs_show_every_form() -> None:
    text = COMPAT_PAGE.read_text()
    for form in [
        "hero='AwKw'",
        "select equity(hero)",
        "winsHi(hero)",
        "handType(hero, flop)",
        "'Qs Ts Jd 2d'",
        "dead='2c, 7h'",
        "board=''",
        "boardLoCardCount",
        "min_equity",
        "handRanks(hero)",
        "maxHiRating(river)",
    ]:
        assert form in text, form
