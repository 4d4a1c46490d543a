"""Precision targets: a Monte Carlo run that stops once every selector is known well enough.

A run's ``precision`` is a standard error (stop once every selector's is below it), ``"auto"``
or None (run every trial). ``"auto"`` is the REPLs' default: a run projected to take longer
than ``AUTO_AFTER_SECONDS`` stops once every standard error is below ``AUTO_TARGET`` (±0.005 at
95%); a quicker run does all its trials, and exhaustive runs are never affected. The engine
judges it (``precision`` and ``precision_after`` of a run), so both REPLs, scripts and the API
share one rule; ``output.stop_note`` says where a run stopped. An ``avg`` or a ``count`` is
judged by its standard error; a ``histogram`` by its worst bucket share's (sqrt(p(1-p)/n), each
share being a count of its own); ``max`` and ``min`` have no error and never hold a run up.
"""

from __future__ import annotations

from pql_repl.base.errors import PqlArgumentError, PqlArgumentTypeError

AUTO = "auto"
#: The automatic target: a 95% margin of ±0.005 (1.96 standard errors) rounded down.
AUTO_TARGET = 0.0025
#: Runs projected to take longer than this (elapsed over the share done) stop at the target.
AUTO_AFTER_SECONDS = 3.0


def engine_precision(precision: float | str | None) -> tuple[float | None, float | None]:
    """``precision`` as the engine takes it: the target and the projected run length from which
    it applies (None: from the start). Raises ``PqlArgumentError`` (a ``ValueError``) for anything
    but a number between 0 and 1, ``"auto"`` or None (``PqlArgumentTypeError`` for what is not a
    number)."""
    if precision is None:
        return None, None
    if isinstance(precision, str):
        if precision.strip().lower() == AUTO:
            return AUTO_TARGET, AUTO_AFTER_SECONDS
        raise PqlArgumentError(
            f"precision must be a standard error between 0 and 1, 'auto' or None, not {_shown(precision)}"
        )
    if isinstance(precision, bool) or not isinstance(precision, int | float):
        raise PqlArgumentTypeError(
            f"precision must be a number, 'auto' or None, not {type(precision).__name__}"
        )
    if not 0 < precision < 1:
        raise PqlArgumentError(f"precision must be between 0 and 1, not {precision!r}")
    return float(precision), None


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:39] + "…")
