"""The ``pql`` command."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point; the full CLI arrives with the engine."""
    print("pql: the query engine is not built yet", file=sys.stderr)
    return 2
