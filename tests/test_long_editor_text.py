"""A long editor text opens and edits at once (issue 41, item 8): the highlighter reads text in
time linear in its length, and the editor highlights only the lines around its view once the
text is long, so a saved text of a megabyte shows its first screen quickly (it took 302 s)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from terminal import Terminal

from pql_repl.base.limits import BUFFER_MAX_BYTES
from pql_repl.session import lexer

STATEMENT = (
    "select avg(riverEquity(hero)) as eq, count(winsHi(villain)) from "  # a line of 100 characters
    "game='holdem', hero='AA', villain='KK';\n"
)
SIZES = [(80, 24), (160, 48)]


def lines_run_in_classify(text: str) -> int:
    """Lines of Python that ``lexer.classify`` runs for ``text``: its work, counted."""
    tokens = list(lexer.scan(text))
    code = lexer.classify.__code__
    lines = 0

    def local(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal lines
        if event == "line":
            lines += 1
        return local

    sys.settrace(lambda frame, event, arg: local if frame.f_code is code else None)
    try:
        lexer.classify(tokens)
    finally:
        sys.settrace(None)
    return lines


def test_classifying_tokens_is_linear() -> None:
    # Each word looked for the next token by copying the rest of the list: quadratic.
    small = lines_run_in_classify(STATEMENT * 200)
    large = lines_run_in_classify(STATEMENT * 800)
    assert large < 4.5 * small, (small, large)


@pytest.mark.parametrize("size", SIZES)
def test_a_megabyte_of_saved_editor_text_opens_and_edits_at_once(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    text = STATEMENT * (1_000_000 // len(STATEMENT)) + "-- the end"
    assert 900_000 < len(text) < BUFFER_MAX_BYTES
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "buffer.pql").write_text(text)
    columns, lines = size
    with Terminal(tmp_path, columns, lines) as term:
        # The editor opens at the end of its text; the quadratic highlighter took minutes here.
        term.wait_for("-- the end", timeout=60)
        term.type(" and more")  # each key highlights again
        term.wait_for("-- the end and more", timeout=60)
        assert highlighted(term)
        # Far up (past the lines highlighted around the first view): highlighted as they come.
        for _ in range(60):
            term.send("pageup")
        term.wait_until_gone("│ 9500 ", timeout=60)
        term.wait_for(lambda _: highlighted(term), timeout=60)


def highlighted(term: Terminal) -> bool:
    """Whether the screen's statements show highlighted: keywords in one colour, names in
    another."""
    keyword = term.colour("select")
    return keyword is not None and keyword == term.colour("from") and keyword != term.colour("eq,")


def test_a_saved_editor_text_past_its_bound_is_moved_aside(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    saved = tmp_path / "data" / "buffer.pql"
    statement = STATEMENT.replace("as eq", "as too_long")
    saved.write_text(statement * (BUFFER_MAX_BYTES // len(statement) + 1))
    with Terminal(tmp_path, 80, 24) as term:
        term.wait_for("pql: warning", timeout=60)
        assert "too_long" not in term.text()
    assert any(p.name != "buffer.pql" and p.name.startswith("buffer.pql") for p in saved.parent.iterdir())


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_highlights_stay_within_their_lines_whatever_the_line_breaks(newline: str) -> None:
    # Found by tests/fuzz_surfaces.py: a text with "\r\n" was split on "\n" alone, each line
    # kept its "\r", and a string's highlight ran past the end of its line.
    from pql_repl.files.history import History  # noqa: PLC0415
    from pql_repl.tui.editor import QueryEditor  # noqa: PLC0415

    editor = QueryEditor(History(None))
    editor.load_text(newline.join(["select avg(riverEquity(hero))", "from hero='é'", "  , villain='KK';"]))
    lines = editor.document.lines
    for row, marks in editor._highlights.items():
        size = len(lines[row].encode())
        assert all(0 <= start < end <= size for start, end, _ in marks if end is not None), (row, marks)
    assert (1, 10, 14, "string") in [
        (row, *mark) for row, marks in editor._highlights.items() for mark in marks
    ]
