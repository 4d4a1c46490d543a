"""The full-screen Textual app. Importing this package does not import Textual; ``main`` does.

May use: ``base``, ``files``, ``api``, ``editors``, ``session``. Only ``cli`` imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pql_repl.session.session import Session


def main(session: Session | None = None) -> int:
    """Run the app until the user quits; the exit code for ``pql``."""
    from pql_repl.tui.app import PqlApp  # noqa: PLC0415 - start fast without Textual

    PqlApp(session).run()
    return 0
