"""The Omaha explorer's range: a list of terms (``AA**$ds``, ``RRON``, ``$1G``), each kept or
negated and optionally weighted, written as one range text and read back from one.

Kept terms are the comma parts of the range; negated terms are taken out of every one of them
(``AA**!(KK**), RRON!(KK**)``); with no kept term, the negated ones are taken out of every hand
(``**!(KK**)``). Weights are written on every part once one term has one (a range weights all
its parts or none)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

#: A weight written on a kept term.
_WEIGHT = re.compile(r"^(.*?)\s*@\s*(\d+)\s*$", re.S)
#: The weight of a term without one, when others have weights.
DEFAULT_WEIGHT = 100


@dataclass(frozen=True)
class Term:
    text: str
    negated: bool = False
    weight: int | None = None


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
        weight = f"@{t.weight if t.weight is not None else DEFAULT_WEIGHT}" if weighted else ""
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
    parts = []
    for raw in split_top(text):
        m = _WEIGHT.match(raw)
        parts.append((m.group(1), int(m.group(2))) if m else (raw, None))
    suffixes = [_except_suffix(body) for body, _ in parts]
    common = {s[1] for s in suffixes if s is not None}
    if parts and all(s is not None for s in suffixes) and len(common) == 1:
        inner = common.pop()
        kept = [Term(_unwrapped(s[0]), False, w) for s, (_, w) in zip(suffixes, parts, strict=True) if s]
        kept = [t for t in kept if t.text != "**" or len(parts) > 1]
        return kept + [Term(n, True) for n in split_top(inner)]
    return [Term(body, False, w) for body, w in parts]


def with_weight(term: Term, weight: int | None) -> Term:
    return replace(term, weight=weight)
