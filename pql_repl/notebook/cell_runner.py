"""Running the text of a notebook cell: its statements and dot-commands in one ``Session`` kept
across cells, every statement checked before the first runs (a mistake at the end costs no
run), each run shown live by a ``LiveView``, and the first interrupt of the kernel (a SIGINT)
stopping the run that goes on while keeping what it computed, marked cancelled."""

from __future__ import annotations

import importlib

from pql_repl.base.errors import ClusterError, PqlCancelled, PqlError
from pql_repl.base.records import replace
from pql_repl.session.interrupt import RowRunner, cancel_on_interrupt
from pql_repl.session.settings import SessionError
from pql_repl.session.statements import DotCommand, Statement, read_script, split_statements

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol, TextIO

    from pql_repl.api.results import StatementResult
    from pql_repl.api.sweeps import CheckedSweep, SweepResult
    from pql_repl.session.session import Session

    class LiveView(Protocol):
        """How one run is shown while it goes (``live_view``)."""

        def update(self, snapshot: StatementResult) -> None: ...

        def note(self, text: str) -> None: ...

        def finish(self, text: str) -> None: ...


#: Dot-commands that only mean something in a terminal front end, and what to use instead here.
TERMINAL_ONLY = {
    "quit": "there is nothing to leave in a notebook: restart the kernel for a new session",
    "output": "in a notebook the results are the cell's value: df = _.to_pandas(), then write it",
    "format": "in a notebook the results are the cell's value, shown as HTML tables",
    "theme": "themes colour pql and pql --plain; a notebook shows HTML tables",
    "mode": "editing keys are pql --plain's",
}


#: A cell reports at most this many errors, then how many more it found (as scripts do).
MAX_REPORTED = 50


class CellError(Exception):
    """A statement or dot-command of the cell failed; the message says where (line and column
    of the cell)."""


class CellRun:
    """What a cell ran: the results in order (statements', sweeps', ``.odds``'), and whether an
    interrupt stopped it (the last result is then the stopped run's partial one, if it had
    started)."""

    def __init__(self) -> None:
        self.results: list[Any] = []
        self.interrupted = False


class CellRunner:
    """Runs cells' text under one session (settings and named ranges persist from cell to
    cell); ``view`` makes the live display of each run, ``out`` takes what dot-commands say."""

    def __init__(self, session: Session, view: Callable[[str], LiveView], out: TextIO) -> None:
        self.session = session
        self.view = view
        self.out = out

    def run(self, text: str) -> CellRun:
        """Check every statement of ``text``, then run them and its dot-commands in order;
        raises ``CellError`` for a mistake (nothing has run when a statement is wrong)."""
        done = CellRun()
        plan = self._check(text)
        try:
            self._run(text, plan, done, depth=0)
        except KeyboardInterrupt:  # between two runs: what ran is kept, the rest is not run
            done.interrupted = True
        return done

    # -- checking ----------------------------------------------------------------------------

    def _check(self, text: str, name: str = "") -> list[Statement | DotCommand | CheckedSweep]:
        """Every statement of ``text`` checked; errors are prefixed with ``name`` (a ``.read``
        script's) when given."""
        plan: list[Statement | DotCommand | CheckedSweep] = []
        shadow = self.session.shadow()  # `.define` before a statement counts when checking it
        errors: list[str] = []
        for item in split_statements(text):
            try:
                plan.append(shadow.plan(item, text))
            except PqlError as e:
                errors += [f"{name}: {one.rendered}" if name else one.rendered for one in e.errors]
        if len(errors) > MAX_REPORTED:
            errors[MAX_REPORTED:] = [f"… and {len(errors) - MAX_REPORTED} more errors"]
        if errors:
            raise CellError("\n".join(errors))
        return plan

    # -- running -----------------------------------------------------------------------------

    def _run(
        self, text: str, plan: list[Statement | DotCommand | CheckedSweep], done: CellRun, depth: int
    ) -> None:
        for item in plan:
            if done.interrupted:
                return
            if isinstance(item, DotCommand):
                self._command(item, done, depth)
            elif isinstance(item, Statement):
                self._statement(item, text, done)
            else:
                self._sweep(item, done)

    def _command(self, item: DotCommand, done: CellRun, depth: int) -> None:
        name = item.text.strip().lstrip(".").split(None, 1)[0].lower() if item.text.strip(". \t") else ""
        try:
            result = self.session.handle(item.text)
        except (SessionError, PqlError) as e:
            message = e.message if isinstance(e, PqlError) else str(e)
            hint = e.hint if isinstance(e, PqlError) else None
            raise CellError(f"line {item.line}: {message}" + (f"\n  hint: {hint}" if hint else "")) from None
        said = [result.output, result.note]
        if result.quit or name in TERMINAL_ONLY:
            said.append(TERMINAL_ONLY["quit" if result.quit else name])
        for text in said:
            if text:
                self.out.write(text + "\n")
        self.out.flush()
        if result.odds is not None:
            self._odds(result.odds, done)
        if result.read is not None:
            try:
                script = read_script(result.read, depth)
            except SessionError as e:
                raise CellError(f"line {item.line}: {e}") from None
            self._run(script, self._check(script, str(result.read)), done, depth + 1)

    def _statement(self, item: Statement, text: str, done: CellRun) -> None:
        try:
            query = self.session.prepare(item, text)
        except PqlError as e:  # the session changed since the check in a way it could not see
            raise CellError("\n".join(one.rendered for one in e.errors)) from None
        view = self.view(item.text)
        last: StatementResult | None = None
        try:
            with cancel_on_interrupt(query):
                for last in query.stream(**self.session.run_options()):
                    view.update(last)
        except PqlCancelled:
            done.interrupted = True
        except KeyboardInterrupt:  # a second interrupt, or one the engine had not seen yet
            query.cancel()
            done.interrupted = True
        except PqlError as e:
            view.finish("error")
            raise CellError("\n".join(one.rendered for one in e.errors)) from None
        except ClusterError as e:
            view.finish("error")
            raise CellError(str(e)) from None
        if last is not None and done.interrupted and not last.cancelled:
            # Stopped between two snapshots: the last one is what was computed.
            last = replace(last, cancelled=True, done=True)  # as the engine marks a stopped run
            view.update(last)
        if last is not None:
            done.results.append(last)
        view.finish(_stopped_note(last) if done.interrupted else "")

    def _sweep(self, checked: CheckedSweep, done: CellRun) -> None:
        """A sweep's rows one after another, the view counting them; an interrupt cancels the
        row that runs and keeps the rows done."""
        total = len(checked.rows)
        view = self.view(checked.sweep.template)
        rows = RowRunner(self.session.run_options())
        last: SweepResult | None = None
        stream = _sweeps().stream(checked, run=rows)
        try:
            with cancel_on_interrupt(rows):
                for last in stream:
                    view.note(f"row {len(last.rows)} of {total}")
        except (PqlCancelled, KeyboardInterrupt):
            rows.cancel()
            done.interrupted = True
        except PqlError as e:
            view.finish("error")
            raise CellError("\n".join(one.rendered for one in e.errors)) from None
        finally:
            stream.close()
        if last is not None:
            done.results.append(last)
        shown = 0 if last is None else len(last.rows)
        stopped = f"stopped after {shown} of {total} rows: the table holds those"
        view.finish(stopped if done.interrupted else "")

    def _odds(self, request: Any, done: CellRun) -> None:
        """`.odds`: the odds view's rows (or one count's report), run to the end or to an
        interrupt; its last snapshot is the cell's result."""
        odds = importlib.import_module("pql_repl.api.multi_odds")
        options = self.session.run_options()
        how = {"trials": options["trials"] or 600_000, "seed": options["seed"], "threads": options["threads"]}
        if isinstance(request.opponents, range):
            run = odds.OddsTableRun(request.hand, request.board, request.opponents, **how)
        else:
            run = odds.OddsRun(request.hand, request.board, request.opponents, **how)
        view = self.view(f".odds {request.hand} {request.board}".rstrip())
        last = None
        try:
            with cancel_on_interrupt(run):
                for snapshot in run:
                    last = snapshot
                    view.note("running")
        except (PqlCancelled, KeyboardInterrupt):
            done.interrupted = True
        if last is not None:
            done.results.append(last)
        view.finish("stopped: what was computed is kept" if done.interrupted else "")


def _stopped_note(result: StatementResult | None) -> str:
    if result is None:
        return "stopped before the first snapshot: nothing was computed"
    return f"stopped: a partial result from {result.trials:,} trials"


def _sweeps() -> Any:
    """The sweeps module, loaded when a statement has a sweep clause."""
    return importlib.import_module("pql_repl.api.sweeps")
