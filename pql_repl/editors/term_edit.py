"""The Omaha explorer's range: a list of terms (``AA**$ds``, ``RRON``, ``$1G``), each kept or
negated and optionally weighted, written as one range text and read back from one.

Kept terms are the comma parts of the range; negated terms are taken out of every one of them
(``AA**!(KK**), RRON!(KK**)``); with no kept term, the negated ones are taken out of every hand
(``**!(KK**)``). Weights (percents) are written on every part once one term has one. A range
read back may weigh its parts in any form the engine reads (issue 39): ``AA**@33.3``, Pio's
``AA**:0.5``, Equilab's and GTO+'s ``[75]AA**,KK**[/75]``; each term gets its weight in percent."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pql_repl.api.catalogue import percent_value, weight_text

#: A weight written on a kept term: ``@33.3`` (a percent), or Pio's ``:0.5`` (a fraction).
_WEIGHT = re.compile(r"^(.*?)\s*(?:@\s*([0-9]+(?:\.[0-9]+)?|\.[0-9]+)|:\s*(0|1|0?\.[0-9]+|1\.0+))\s*$", re.S)
#: A weight bracket opening a part (``[75]AA**``) or closing it (``KK**[/75]``).
_OPEN = re.compile(r"^\[([0-9]+(?:\.[0-9]+)?|\.[0-9]+)\]\s*(.*)$", re.S)
_CLOSE = re.compile(r"^(.*?)\s*\[/([0-9]+(?:\.[0-9]+)?|\.[0-9]+)\]$", re.S)
#: The weight of a term without one, when others have weights.
DEFAULT_WEIGHT = 100


@dataclass(frozen=True)
class Term:
    text: str
    negated: bool = False
    #: A percent (``33.3``), None: no weight of its own (full weight).
    weight: float | None = None


def split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` split at ``sep`` outside parentheses and brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _wrapped(text: str) -> str:
    return f"({text})" if len(split_top(text)) > 1 or "!" in text else text


def terms_text(terms: list[Term]) -> str:
    """The range text of ``terms`` (empty when there is none)."""
    kept = [t for t in terms if not t.negated]
    out = [t.text for t in terms if t.negated]
    weighted = any(t.weight is not None for t in kept)
    unless = f"!({', '.join(out)})" if out else ""
    if not kept:
        return f"**{unless}" if out else ""
    parts = []
    for t in kept:
        body = _wrapped(t.text) if unless else t.text
        weight = f"@{weight_text(t.weight if t.weight is not None else DEFAULT_WEIGHT)}" if weighted else ""
        parts.append(f"{body}{unless}{weight}")
    return ", ".join(parts)


def _except_suffix(part: str) -> tuple[str, str] | None:
    """``(body, inner)`` when ``part`` ends in a top-level ``!(inner)``."""
    if not part.endswith(")"):
        return None
    depth = 0
    for i in range(len(part) - 1, -1, -1):
        if part[i] == ")":
            depth += 1
        elif part[i] == "(":
            depth -= 1
            if depth == 0:
                if i > 0 and part[i - 1] == "!":
                    return part[: i - 1], part[i + 1 : -1]
                return None
    return None


def _unwrapped(text: str) -> str:
    if text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        return text[1:-1]
    return text


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0


def parse_terms(text: str) -> list[Term]:
    """The terms of a range text: its comma parts, with their weights; a ``!(…)`` that every
    part ends with (as ``terms_text`` writes it) comes back as negated terms."""
    parts: list[tuple[str, float | None]] = []
    bracket: float | None = None
    for written in split_top(text):
        part = written
        opened = _OPEN.match(part)
        if opened:
            bracket, part = percent_value(float(opened.group(1))), opened.group(2)
        closed = _CLOSE.match(part)
        if closed:
            part = closed.group(1)
        m = _WEIGHT.match(part)
        if m:
            weight = float(m.group(2)) if m.group(2) is not None else 100 * float(m.group(3))
            parts.append((m.group(1), percent_value(weight)))
        else:
            parts.append((part, bracket))
        if closed:
            bracket = None
    suffixes = [_except_suffix(body) for body, _ in parts]
    common = {s[1] for s in suffixes if s is not None}
    if parts and all(s is not None for s in suffixes) and len(common) == 1:
        inner = common.pop()
        kept = [Term(_unwrapped(s[0]), False, w) for s, (_, w) in zip(suffixes, parts, strict=True) if s]
        kept = [t for t in kept if t.text != "**" or len(parts) > 1]
        return kept + [Term(n, True) for n in split_top(inner)]
    return [Term(body, False, w) for body, w in parts]


def with_weight(term: Term, weight: float | None) -> Term:
    return replace(term, weight=weight)
