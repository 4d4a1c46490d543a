"""``pql --plain``: the prompt_toolkit line REPL. Importing this package does not import
prompt_toolkit; ``main`` does.

May use: ``base``, ``files``, ``api``, ``session``. Only ``cli`` imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pql_repl.session.session import Session


def main(session: Session | None = None) -> int:
    """Run the line REPL until ``.quit`` or Ctrl+D; the exit code for ``pql --plain``."""
    from pql_repl.repl.plain import main as run_plain  # noqa: PLC0415 - start fast without it

    return run_plain(session)
