"""A session's settings (``Settings``) and the parsers of their values, shared with the command's
options so that both accept the same spellings; ``SessionError`` for a value that cannot be
applied."""

from __future__ import annotations

from pql_repl.api.output import FORMATS
from pql_repl.api.precision import AUTO, AUTO_AFTER_SECONDS, AUTO_TARGET
from pql_repl.api.results import DEFAULT_TRIALS
from pql_repl.base.errors import ClusterError
from pql_repl.base.limits import HISTORY_SIZE
from pql_repl.base.records import fields, record

# Loaded where used: `pql -c` and scripts start on every run, and re, pathlib and typing would
# cost them a fifth of their start.
TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    from typing import Any

EXACT_MODES = ("auto", "on", "off")
EDITING_MODES = ("emacs", "vi")


class SessionError(Exception):
    """A dot-command or setting that cannot be applied; ``hint`` suggests the fix."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message if hint is None else f"{message}\n  hint: {hint}")
        self.message = message
        self.hint = hint


# ---------------------------------------------------------------------------------------------
# Values of settings, shared with the command-line options so both accept the same spellings.


def _quoted(text: str, limit: int = 40) -> str:
    """``text`` quoted in a message on one line: cut to ``limit`` characters, what cannot be
    printed (a newline, a control character) escaped."""
    cut = text if len(text) <= limit else text[:limit] + "…"
    return "'" + "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut) + "'"


#: The largest count (trials, threads) the engine takes: it counts in 64 bits.
MAX_COUNT = 2**64 - 1


def parse_count(text: str) -> int:
    """A positive whole number up to ``MAX_COUNT``: ``600000``, ``600_000``, ``600,000``, ``600k``,
    ``1m``, ``1e6``."""
    t = text.strip().lower().replace("_", "").replace(",", "")
    scale = 1
    if t.endswith(("k", "m")):
        scale = 1_000 if t[-1] == "k" else 1_000_000
        t = t[:-1]
    try:
        value = float(t) * scale if ("e" in t or "." in t) else int(t) * scale
    except ValueError:
        raise SessionError(f"{_quoted(text)} is not a number", "write it like 600000, 600k or 1e6") from None
    # Out of range is checked before int(value): 1e400 is an infinite float, which int() refuses.
    if value > MAX_COUNT:
        raise SessionError(f"{_quoted(text)} is more than {MAX_COUNT:,}")
    if value < 1 or value != int(value):
        raise SessionError(f"{_quoted(text)} must be a whole number of at least 1")
    return int(value)


def parse_seed(text: str) -> int | None:
    """A seed (0 ≤ seed < 2**64), or ``off``/``none``/``random`` for a fresh one each run."""
    t = text.strip().lower()
    if t in ("off", "none", "random"):
        return None
    try:
        value = int(t.replace("_", ""))
    except ValueError:
        raise SessionError(
            f"{_quoted(text)} is not a seed", "a whole number, or 'off' for a fresh seed"
        ) from None
    if not 0 <= value <= MAX_COUNT:
        raise SessionError(f"seed {value} is out of range", f"use 0 to {MAX_COUNT}")
    return value


def parse_seconds(text: str) -> float | None:
    """A positive number of seconds (``2``, ``1.5``, ``2s``, ``500ms``), or ``off``/``none`` for
    no limit. Zero is refused, as by the Python API: it is neither a limit nor a way to say none."""
    t = text.strip().lower()
    if t in ("off", "none"):
        return None
    scale = 1.0
    if t.endswith("ms"):
        t, scale = t[:-2], 0.001
    elif t.endswith("s"):
        t = t[:-1]
    try:
        value = float(t) * scale
    except ValueError:
        raise SessionError(
            f"{_quoted(text)} is not a number of seconds", "like 2, 0.5 or 500ms; 'off' for none"
        ) from None
    if not value > 0 or value == float("inf"):
        raise SessionError(f"{_quoted(text)} must be a positive number of seconds", "'off' for no limit")
    return value


def parse_precision(text: str) -> float | str | None:
    """A positive standard-error target (``0.001``), ``auto`` (the REPLs' automatic target, see
    ``pql_repl.api.precision``) or ``off`` for none."""
    t = text.strip().lower()
    if t in ("off", "none", "0"):
        return None
    if t == AUTO:
        return AUTO
    try:
        value = float(t)
    except ValueError:
        raise SessionError(
            f"{_quoted(text)} is not a number", "a standard error such as 0.001, 'auto' or 'off'"
        ) from None
    if not 0 < value < 1:
        raise SessionError(f"precision {text} must be between 0 and 1", "such as 0.001")
    return value


def parse_output(text: str) -> str | None:
    """A file to write results to, in a directory that exists; None for ``stdout`` (or ``-``).
    A path that can never be written is refused here, when it is given, not at the first result."""
    if text.strip() in ("", "stdout", "-"):
        return None
    import os.path  # noqa: PLC0415 (see the imports)
    from pathlib import Path  # noqa: PLC0415

    # os.path's expanduser leaves an unknown ~user as it is (pathlib's raises RuntimeError).
    path = Path(os.path.expanduser(text.strip()))
    try:
        is_dir, parent_is_dir = path.is_dir(), path.parent.is_dir()
    except OSError as e:  # a name too long for the system, ...
        raise SessionError(f"cannot write to {_quoted(text)}: {e.strerror or e}") from None
    if is_dir:
        raise SessionError(f"cannot write to {_quoted(text)}: it is a directory", "name a file inside it")
    if not parent_is_dir:
        raise SessionError(
            f"cannot write to {_quoted(text)}: there is no directory {_quoted(str(path.parent))}"
        )
    return str(path)


def parse_choice(text: str, choices: tuple[str, ...], what: str) -> str:
    t = text.strip().lower()
    if t not in choices:
        raise SessionError(f"unknown {what} {_quoted(text)}", "one of " + ", ".join(choices))
    return t


def parse_on_off(text: str) -> bool:
    t = text.strip().lower()
    if t in ("on", "true", "yes", "1"):
        return True
    if t in ("off", "false", "no", "0"):
        return False
    raise SessionError(f"{_quoted(text)} is not on or off")


@record
class Settings:
    """How statements run and how results are written. ``output`` None means stdout."""

    trials: int = DEFAULT_TRIALS
    seed: int | None = None
    exact: str = "auto"
    threads: int | None = None
    format: str = "table"
    output: str | None = None
    timer: bool = False
    time_limit: float | None = None
    #: A standard-error target, ``"auto"`` (applied by the REPLs only: scripts and ``-c`` run
    #: every trial) or None.
    precision: float | str | None = AUTO
    theme: str | None = None
    #: Keys of ``pql --plain``: emacs (the default) or vi.
    editing_mode: str = "emacs"
    #: Entries the REPLs' history keeps (older ones are dropped when it is loaded).
    history_size: int = HISTORY_SIZE
    #: A Dask scheduler's address (``tcp://host:8786``): sweeps run their rows there.
    cluster: str | None = None

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Settings:
        """Settings with the config file's values (as ``load_config`` returns them) applied."""
        s = cls()
        for key, value in config.items():
            s.apply(key, value)
        return s

    def apply(self, key: str, value: Any) -> None:
        """Set ``key`` from a typed value or the text a user wrote; raises ``SessionError``."""
        if isinstance(value, bool) and key == "exact":
            value = "on" if value else "off"
        text = str(value)
        match key:
            case "trials":
                self.trials = parse_count(text)
            case "seed":
                self.seed = parse_seed(text)
            case "exact":
                self.exact = parse_choice(text, EXACT_MODES, "exact mode")
            case "threads":
                self.threads = None if text.lower() in ("auto", "all") else parse_count(text)
            case "format":
                self.format = parse_choice(
                    "markdown" if text.strip().lower() == "md" else text, FORMATS, "format"
                )
            case "output":
                self.output = parse_output(text)
            case "timer":
                self.timer = value if isinstance(value, bool) else parse_on_off(text)
            case "time_limit":
                self.time_limit = parse_seconds(text)
            case "precision":
                self.precision = parse_precision(text)
            case "theme":
                self.theme = text
            case "editing_mode":
                self.editing_mode = parse_choice(text, EDITING_MODES, "editing mode")
            case "history_size":
                self.history_size = parse_count(text)
            case "cluster":
                self.cluster = parse_cluster(text)
            case _:
                raise SessionError(f"unknown setting '{key}'")

    def exact_flag(self) -> bool | None:
        """``exact`` as the API takes it: True, False, or None to let the planner decide."""
        return {"on": True, "off": False}.get(self.exact)

    def shown(self, key: str) -> str:
        """One setting's value as a user would write it."""
        match key:
            case "seed":
                return "off" if self.seed is None else str(self.seed)
            case "threads":
                return "all cores" if self.threads is None else str(self.threads)
            case "output":
                return self.output or "stdout"
            case "timer":
                return "on" if self.timer else "off"
            case "time_limit":
                return "off" if self.time_limit is None else f"{self.time_limit:g} s"
            case "precision":
                if self.precision == AUTO:
                    return (
                        f"auto (standard error {AUTO_TARGET:g}, ±{1.96 * AUTO_TARGET:.2g} at 95%, once a run"
                        f" would take over {AUTO_AFTER_SECONDS:g} s;"
                        " the app and --plain only)"
                    )
                return "off" if self.precision is None else f"{self.precision:g}"
            case "theme":
                return self.theme or "default"
            case "cluster":
                return self.cluster or "off (sweeps run here)"
            case _:
                return str(getattr(self, key))

    def describe(self, extra: tuple[tuple[str, str], ...] = ()) -> str:
        """One line per setting, for ``.show``, then the ``extra`` (name, value) lines; the
        values start in one column, after the longest name."""
        rows = [*((name, self.shown(name)) for name in fields(self)), *extra]
        width = max(len(name) for name, _ in rows)
        return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


def parse_cluster(text: str) -> str | None:
    """``off`` or a Dask scheduler's address (``tcp://host:8786``; a bare ``host:port`` gets
    ``tcp://``), checked now (``api.cluster.check_address``: tcp:// only, a host and a port).
    Whether a scheduler answers there is found when a statement or sweep first uses it."""
    t = text.strip()
    if t.lower() in ("off", "none", ""):
        return None
    from pql_repl.api.cluster import check_address  # noqa: PLC0415 (only when a cluster is named)

    try:
        return check_address(text)
    except ClusterError as e:
        raise SessionError(e.message, "write .cluster tcp://host:8786 or .cluster off") from None
