"""Numbers as every front end shows them, one convention for the app, `pql --plain`, the
command's tables and markdown (CSV and JSON keep plain numbers): a ± is always the 95% margin,
1.96 standard errors; an estimate shows the decimals its margin supports (``estimate_parts``);
counts of trials and deals have thousands separators (``format_trials``), and an exhaustive run
counts deals, not trials; weights are one format (``format_weight``)."""

from __future__ import annotations

import math

from pql_repl.api.result_fields import Bucket, Column, ResultFields

#: A 95% margin is this many standard errors.
Z95 = 1.96


def format_number(value: float | str | bool | None) -> str:
    """A value as a person reads it: whole numbers without decimals, up to six decimals else."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int) or (math.isfinite(value) and value == int(value) and abs(value) < 1e15):
        return str(int(value))
    if value != 0 and abs(value) < 1e-4:
        return f"{value:.6g}"
    return f"{value:.6f}".rstrip("0").rstrip(".")


def estimate_parts(value: float | str | None, stderr: float | None) -> tuple[str, str] | None:
    """An estimate as its value and its 95% margin (1.96·stderr), each to the decimals the
    margin supports: two significant digits of the margin, at most six decimals (``12.35``,
    ``0.42`` for a chip EV; ``0.8521``, ``0.0078`` for an equity). A margin of 0 gives the value
    as ``format_number`` writes it and ``0``. None when there is no margin (exact, or no
    number): the value alone is shown then. Every front end shows estimates so: the app's table,
    `pql --plain`, the command's table and markdown, sweeps and simulate's verdict."""
    if stderr is None or not isinstance(value, int | float) or isinstance(value, bool):
        return None
    half = Z95 * stderr
    if half <= 0 or not math.isfinite(half):
        return format_number(value), "0"
    decimals = min(6, max(0, 1 - math.floor(math.log10(half))))
    return f"{value:.{decimals}f}", f"{half:.{decimals}f}"


def format_estimate(value: float | str | None, stderr: float | None) -> str:
    """``value ± margin`` (``estimate_parts``); the value alone when exact (no stderr)."""
    parts = estimate_parts(value, stderr)
    return format_number(value) if parts is None else f"{parts[0]} ± {parts[1]}"


def format_margin(stderr: float) -> str:
    """A standard error as the 95% margin a ± shows, to two significant digits: ``±0.0049``."""
    return f"±{Z95 * stderr:.2g}"


def format_weight(weight: float) -> str:
    """A weight (of a range, a class, a sweep's row) as every view writes it: whole weights
    without decimals, others to two decimals at most, thousands separated: ``46``, ``864``,
    ``12.5``, ``1,326``."""
    text = f"{weight:,.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def count_unit(result: ResultFields) -> str:
    """What a result's count counts: ``deals`` for an exhaustive run (every deal enumerated, or
    a part of them), ``trials`` for Monte Carlo."""
    return "deals" if result.exact or result.total_deals is not None else "trials"


def format_trials(result: ResultFields) -> str:
    """The trials (or an enumeration's deals) of a result: ``600,000 trials``, ``990 deals``,
    ``1 deal``."""
    unit = count_unit(result)
    return f"{result.trials:,} {unit[:-1] if result.trials == 1 else unit}"


def has_where(query: str) -> bool:
    """Whether statement ``query`` has a ``where`` clause (outside its strings and comments)."""
    if "where" not in query.lower():
        return False  # the common case, without loading ``re`` on the command's start path
    import re  # noqa: PLC0415

    # Strings and comments, whichever starts first (a quote in a comment, `--` in a range).
    not_code = re.compile(r"'[^']*'|\"[^\"]*\"|--[^\n]*|/\*.*?\*/", re.S)
    return re.search(r"(?i)\bwhere\b", not_code.sub(" ", query)) is not None


def kept_note(result: ResultFields) -> str:
    """Why fewer deals were counted than drawn: ``12.5% of deals kept`` by a ``where`` clause;
    without one, the deals dropped because two hands drew the same card (stud's and razz's
    hands given by rank, Omaha's overlapping ranges): ``5.9% of deals dropped (two hands drew
    the same card)``. '' when every deal drawn counts."""
    if result.attempted <= result.accepted or result.attempted <= 0:
        return ""
    kept = result.accepted / result.attempted
    if has_where(result.query):
        return f"{100 * kept:.3g}% of deals kept"
    return f"{100 * (1 - kept):.3g}% of deals dropped (two hands drew the same card)"


def format_percent(fraction: float | None) -> str:
    return "—" if fraction is None else f"{100 * fraction:.2f}%"


def format_percent_estimate(fraction: float | None, stderr: float | None) -> str:
    """``17.85% ± 0.10%`` (the 95% margin, 1.96 standard errors); the share alone when exact."""
    if fraction is None or stderr is None or not math.isfinite(stderr):
        return format_percent(fraction)
    return f"{format_percent(fraction)} ± {100 * Z95 * stderr:.2f}%"


def bucket_stderr(result: ResultFields, column: Column, bucket: Bucket) -> float | None:
    """The standard error of a histogram bucket's share (``ResultFields.bucket_stderr``)."""
    return result.bucket_stderr(column, bucket)


#: ``ResultFields.enumerated_because`` when a large trial count made pql enumerate.
FEWER_DEALS_THAN_TRIALS = "fewer deals than trials"


def format_share(fraction: float) -> str:
    """A share of a whole as a person says it: ``12%``, ``0.31%``, ``<0.01%``."""
    if fraction >= 0.1:
        return f"{100 * fraction:.0f}%"
    if fraction >= 1e-4:
        return f"{100 * fraction:.2g}%"
    return "<0.01%" if fraction > 0 else "0%"


def enumeration_share(result: ResultFields) -> str:
    """How much of an enumeration a result covers: ``12% of 1,712,304 deals``."""
    total = result.total_deals or 0
    share = result.attempted / total if total > 0 else 0.0
    return f"{format_share(min(share, 1.0))} of {total:,} deals"


def enumeration_reason(result: ResultFields) -> str:
    """`` (fewer than the trials asked for)`` when pql enumerated because the trials asked for
    were more than the deals; '' otherwise."""
    if result.enumerated_because == FEWER_DEALS_THAN_TRIALS:
        return " (fewer than the trials asked for)"
    return ""


def format_count(count: float | None) -> str:
    """A count of trials or deals as tables show it, thousands separated: ``335,263`` (weighted
    ranges make counts fractional: ``12.50``)."""
    if count is None:
        return "—"
    return f"{int(count):,}" if count == int(count) else f"{count:,.2f}"


def csv_count(count: float | None) -> str:
    """A count as CSV holds it: a plain number, ``335263`` (``12.5`` when fractional)."""
    if count is None:
        return "—"
    return str(int(count)) if count == int(count) else f"{count:.2f}"
