"""Where the editor's statements and dot-command lines stand: their spans in the text, the one at
the cursor (F4) and the one that Enter runs (the cursor just after its `;`, or at the end of a
dot-command line), each with a key that says whether it is the same one that ran before."""

from __future__ import annotations

from dataclasses import dataclass

from pql_repl.session.statements import Statement, split_statements


@dataclass(frozen=True)
class Span:
    """A statement (with its `;` when it has one) or a dot-command line: ``text[start:end]``.
    ``key`` names it across edits elsewhere in the text: its text and which of the identical
    items of the text it is (the first, the second…), so a `.seed 7` typed again further down
    is not the one that ran above."""

    start: int
    end: int
    #: Ends with a `;` of its own (a statement), or is a dot-command line.
    complete: bool
    key: tuple[str, int]
    #: A dot-command line.
    command: bool = False


def spans(text: str) -> list[Span]:
    """The statements and dot-command lines of ``text`` in order."""
    found: list[Span] = []
    seen: dict[str, int] = {}
    line_starts = [0]
    for i, c in enumerate(text):
        if c == "\n":
            line_starts.append(i + 1)
    for item in split_statements(text):
        if isinstance(item, Statement):
            start = item.offset
            end = start + len(item.text)
            # The `;` that closed it comes after spaces (at most one line break: a blank line
            # would have closed it first).
            gap = len(text[end:]) - len(text[end:].lstrip())
            complete = text.startswith(";", end + gap) and text.count("\n", end, end + gap) <= 1
            if complete:
                end += gap + 1
        else:
            start = line_starts[item.line - 1]
            line_end = text.find("\n", start)
            end = len(text) if line_end < 0 else line_end
            complete = True
        body = text[start:end].strip()
        seen[body] = seen.get(body, 0) + 1
        found.append(Span(start, end, complete, (body, seen[body]), not isinstance(item, Statement)))
    return found


def statement_at(text: str, cursor: int) -> tuple[int, int] | None:
    """The (start, end) offsets of the statement or dot-command line at ``cursor``: the one that
    holds it, else the last one before it (the cursor after its `;`), else the next one."""
    found = spans(text)
    if not found:
        return None
    before = [s for s in found if s.start <= cursor]
    span = before[-1] if before else found[0]
    return span.start, span.end


def enter_runs(text: str, cursor: int) -> Span | None:
    """The statement or dot-command line that Enter at ``cursor`` runs: a complete statement
    that the cursor follows on its line (after its `;`, only spaces between), or a dot-command
    line the cursor ends; None when Enter only breaks the line."""
    line_end = text.find("\n", cursor)
    if text[cursor : len(text) if line_end < 0 else line_end].strip():
        return None  # text after the cursor on its line: Enter breaks the line there
    line_start = text.rfind("\n", 0, cursor) + 1
    for span in spans(text):
        if span.start > cursor:
            break
        if span.command and span.end >= cursor:
            return span  # the rest of its line is blank (above)
        if span.complete and line_start <= span.end <= cursor and not text[span.end : cursor].strip():
            return span
    return None
