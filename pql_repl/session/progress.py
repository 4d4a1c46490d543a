"""The one-line progress summary both REPLs show while a statement runs."""

from __future__ import annotations

from pql_repl.api.numbers import (
    count_unit,
    enumeration_reason,
    enumeration_share,
    format_estimate,
    format_number,
    format_percent,
    format_percent_estimate,
    format_trials,
    kept_note,
)
from pql_repl.api.output import simulation_note, stop_note
from pql_repl.api.results import StatementResult


def status_text(result: StatementResult, timing: bool = True) -> str:
    """``running · 120,000 trials · 1.2M trials/s · 0.10 s`` (or done / exact / cancelled; an
    exhaustive run counts ``deals`` and ``deals/s``); an enumeration says how much of it the
    numbers come from (``estimate from 12% of 1,712,304 deals``) and, when a large trial count
    made pql enumerate, that it did; a ``where`` clause the share of deals it kept (``12.5% of
    deals kept``, as the command's last line says). Without ``timing`` the clock-dependent
    parts are left out (reproducible screenshots)."""
    state = "cancelled" if result.cancelled else ("done" if result.done else "running")
    reason = enumeration_reason(result)
    if result.exact:
        state += f" · exact: all {result.total_deals:,} deals{reason}" if reason else " · exact"
    elif result.total_deals is not None and (result.truncated or not result.done):
        # Work items go in a random order: the part done so far is a sample of them.
        state += f" · estimate from {enumeration_share(result)}{reason}"
    elif result.inner_sampled and result.total_deals is not None:
        state += " · inner values sampled"
    rate = result.trials / result.elapsed if result.elapsed > 0 else 0.0
    parts = [state, format_trials(result)]
    kept = kept_note(result)
    if kept:
        parts.append(kept)
    if timing:
        parts += [f"{_si(rate)} {count_unit(result)}/s", f"{result.elapsed:.2f} s"]
    if not result.done and not result.cancelled:
        parts.append(f"{result.progress * 100:.0f}%")
    if result.stopped_at_precision is not None:
        parts.append(f"{stop_note(result)}; .precision off for the full run")
    if result.kind == "simulate":
        # The verdict so far: the best action, its gap to the runner-up with the gap's margin.
        parts.append(simulation_note(result))
    return " · ".join(parts)


def _si(x: float) -> str:
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= factor:
            return f"{x / factor:.1f}{suffix}"
    return f"{x:.0f}"


def estimates_text(result: StatementResult) -> str:
    """Each selector's running estimate: ``eq 0.8191 ± 0.0010 · wins 17.85% ± 0.10%`` (a
    histogram shows its most frequent value)."""
    parts = []
    for c in result.columns:
        if c.selector == "avg":
            shown = format_estimate(c.value, c.stderr)
        elif c.selector == "count":
            value = c.value if isinstance(c.value, int | float) else None
            shown = format_percent_estimate(value, c.stderr)
        elif c.selector == "histogram":
            top = max(c.buckets, key=lambda b: b.fraction, default=None)
            shown = "" if top is None else f"mostly {top.label} {format_percent(top.fraction)}"
        else:
            shown = format_number(c.value)
        parts.append(f"{c.name} {shown}".rstrip())
    return " · ".join(parts)
