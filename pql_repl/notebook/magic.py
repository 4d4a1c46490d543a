"""The ``%pql`` line magic and ``%%pql`` cell magic, registered by ``%load_ext pql_repl``.

``%pql .trials 100000`` changes the session kept for the kernel's life; ``%%pql`` runs a cell's
statements and dot-commands in it; ``df = %pql select …`` or ``_`` after a cell give the results
(one ``StatementResult``, ``Results`` for several, ``CellResults`` when a sweep or ``.odds`` is
among them), with ``to_pandas()``. A mistake
is said with its line and column and no traceback (IPython's ``UsageError``), and stops a
"run all" there."""

from __future__ import annotations

import sys

from IPython.core.error import UsageError

from pql_repl.api.results import Results, StatementResult
from pql_repl.files.config import ConfigError
from pql_repl.notebook.cell_results import CellResults
from pql_repl.notebook.cell_runner import CellError, CellRunner
from pql_repl.notebook.live_view import TextView, WidgetView, has_widgets, in_kernel
from pql_repl.session.session import Session

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from pql_repl.notebook.cell_runner import LiveView


class PqlMagic:
    """The magics of one IPython shell, with the session they share."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        try:
            self.session = Session.from_config()
        except ConfigError as e:
            raise UsageError(f"pql: {e}") from None
        self.widgets = has_widgets(shell)
        self.in_place = in_kernel(shell)

    def view(self, statement: str) -> LiveView:
        return WidgetView(statement) if self.widgets else TextView(statement, self.in_place)

    def __call__(self, line: str, cell: str | None = None) -> Any:
        """``%pql LINE`` or ``%%pql [LINE]`` and the cell (the line runs first). Errors name
        lines as the notebook numbers them: the ``%%pql`` line is the cell's first."""
        text = line if cell is None else f"{line}\n{cell}"
        runner = CellRunner(self.session, self.view, sys.stdout)
        try:
            done = runner.run(text)
        except CellError as e:
            raise UsageError(str(e)) from None
        if done.interrupted:
            sys.stderr.write("pql: interrupted: the run stopped; its result is partial, marked cancelled\n")
            sys.stderr.flush()
        if not done.results:
            return None
        if len(done.results) == 1:
            return done.results[0]
        if all(isinstance(r, StatementResult) for r in done.results):
            return Results(done.results)
        # With a sweep or `.odds` among them: their parts, shown one after the other.
        return CellResults(done.results)


def load_ipython_extension(ipython: Any) -> None:
    """Register ``%pql`` and ``%%pql`` on ``ipython`` (loading twice keeps the first session)."""
    if isinstance(getattr(ipython, "_pql_magic", None), PqlMagic):
        return
    magic = PqlMagic(ipython)
    ipython._pql_magic = magic

    def pql(line: str, cell: str | None = None) -> Any:
        return magic(line, cell)

    pql.__doc__ = __doc__
    ipython.register_magic_function(pql, magic_kind="line_cell", magic_name="pql")
