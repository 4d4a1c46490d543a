"""Words the front ends show about simulate statements and ranges: the simulate statement's keys
(``.describe simulate``, the F1 help), how a weight is written, and every game name."""

from __future__ import annotations

from pql_repl.api.catalogue import keywords

#: What each from key of a ``simulate`` statement means, beside game, board, dead and players.
SIMULATE_KEY_DOCS = {
    "pot": "chips in the pot at the decision, every bet so far included (required)",
    "tocall": "chips the hero must put in to call; 0 when nothing is to call (required)",
    "bet": "the small bet; the turn and river bet twice it (required)",
    "raises": "raises already made this round (0 to 3: four bets a round)",
    "stakes": "'limit' (fixed limit), the mode simulate plays",
    "to_act": "players yet to act this round after the hero, in order: 'v2, v3'",
    "folded": "players out of the hand (still dealt cards): 'v2'",
    "history": "observed actions that reweight ranges: 'villain:raise@flop, villain:call@turn'",
    "call_threshold": "EHS' mid fold-call band (0.50); per player: villain.call_threshold",
    "raise_threshold": "EHS' mid call-raise band (0.85); per player: villain.raise_threshold",
    "stop": "when to stop early: 'paired' (default: the best beats every other by 3 paired standard "
    "errors), 'loki' (Loki-2's: the best beats the second by the sum of their standard errors), 'none'",
    "choose": "'best' (default: the greatest EV) or 'mixed' (Loki-2's: at random, by the seed, among the "
    "actions within 0.1 small bets of the best)",
}

SIMULATE_SUMMARY = (
    "simulate ACTIONS from hero='AhKh', villain='QQ+@90, AK@80', board='Kd7c2h', pot=10, tocall=2, bet=2\n"
    "  the EV in chips of each listed action (fold, check, call, bet, raise) from the decision, by\n"
    "  playing the hand out (fixed limit, to the river) against opponents drawn from their\n"
    "  weighted ranges, every later action drawn from the player's probability triple; then the\n"
    "  chosen action (ties to the more aggressive) and whether the run stopped on an obvious move.\n"
    "  10,000 trials unless .trials says otherwise; .observe PLAYER ACTION on STREET reweights ranges."
)


def simulate_help() -> str:
    """``.describe simulate``: the statement and its keys."""
    width = max(len(k) for k in SIMULATE_KEY_DOCS)
    keys = [f"  {k:<{width}}  {doc}" for k, doc in SIMULATE_KEY_DOCS.items()]
    return "\n".join([SIMULATE_SUMMARY, "keys:", *keys])


def format_weight(weight: float) -> str:
    """A weight with three significant digits (``0.18``, ``90``)."""
    return f"{weight:.3g}"


def vocabulary_games() -> frozenset[str]:
    """Every game name and alias, lower case (the engine's)."""
    return frozenset(g.lower() for g in keywords().get("games", []))
