"""pql: the Poker Query Language engine and REPL.

>>> import pql_repl as pql
>>> pql.evaluate("AsKs", "QsJsTs").hi.category
'straightflush'

The names below are loaded on first use, so that importing a part of the package (the `pql`
command imports `pql_repl.cli`) does not load the rest.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from typing import Any

    from pql_repl.api import (
        Bucket,
        Column,
        FunctionInfo,
        Query,
        Range,
        StatementInfo,
        StatementResult,
        functions,
        game_streets,
        keywords,
        parse_range,
        prepare,
        run,
    )
    from pql_repl.errors import (
        PqlCancelled,
        PqlError,
        PqlRangeError,
        PqlRuntimeError,
        PqlSyntaxError,
        PqlTypeError,
    )
    from pql_repl.evaluation import Evaluation, HandValue, evaluate
    from pql_repl.multi_odds import Odds, OddsRun, odds
    from pql_repl.sheet import Sheet, spreadsheet
    from pql_repl.sweep_values import SweepValue, classes, flops, ranks, rivers, turns
    from pql_repl.sweeps import SweepResult, sweep

__all__ = [
    "Bucket",
    "Column",
    "Evaluation",
    "FunctionInfo",
    "HandValue",
    "Odds",
    "OddsRun",
    "PqlCancelled",
    "PqlError",
    "PqlRangeError",
    "PqlRuntimeError",
    "PqlSyntaxError",
    "PqlTypeError",
    "Query",
    "Range",
    "Sheet",
    "StatementInfo",
    "StatementResult",
    "SweepResult",
    "SweepValue",
    "classes",
    "evaluate",
    "flops",
    "functions",
    "game_streets",
    "keywords",
    "odds",
    "parse_range",
    "prepare",
    "ranks",
    "rivers",
    "run",
    "spreadsheet",
    "sweep",
    "turns",
]

#: The module that defines each public name.
_HOMES = {
    **dict.fromkeys(
        ["PqlCancelled", "PqlError", "PqlRangeError", "PqlRuntimeError", "PqlSyntaxError", "PqlTypeError"],
        "pql_repl.errors",
    ),
    **dict.fromkeys(["Evaluation", "HandValue", "evaluate"], "pql_repl.evaluation"),
    **dict.fromkeys(["Sheet", "spreadsheet"], "pql_repl.sheet"),
    **dict.fromkeys(["SweepResult", "sweep"], "pql_repl.sweeps"),
    **dict.fromkeys(["SweepValue", "classes", "flops", "ranks", "rivers", "turns"], "pql_repl.sweep_values"),
    **dict.fromkeys(["Odds", "OddsRun", "odds"], "pql_repl.multi_odds"),
}


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'pql_repl' has no attribute '{name}'")
    home = _HOMES.get(name, "pql_repl.api")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
