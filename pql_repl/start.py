"""How the ``pql`` command starts: the hand tables of hold'em, the default game, are built on
another core (``_core.warm_up``) while the command loads the rest of itself (``cli``), which
takes about as long. Kept apart from ``cli`` so that importing ``cli`` starts no thread."""

from __future__ import annotations


def main() -> int:
    """Entry point of the ``pql`` command; returns the exit code."""
    from pql_repl import _core  # noqa: PLC0415 (first, to start the tables before the rest loads)

    _core.warm_up()
    from pql_repl.cli.main import main as cli_main  # noqa: PLC0415

    return cli_main()
