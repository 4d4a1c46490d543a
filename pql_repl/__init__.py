"""pql: the Poker Query Language engine and REPL.

>>> import pql_repl as pql
>>> pql.evaluate("AsKs", "QsJsTs").hi.category
'straightflush'

The names below are loaded on first use, so that importing a part of the package (the `pql`
command imports `pql_repl.cli.main`) does not load the rest.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from typing import Any

    from pql_repl.api.catalogue import FunctionInfo, Range, functions, game_streets, keywords, parse_range
    from pql_repl.api.evaluation import Evaluation, HandValue, evaluate
    from pql_repl.api.multi_odds import Odds, OddsRun, OddsTable, OddsTableRun, odds, odds_table
    from pql_repl.api.results import Bucket, Column, Results, StatementInfo, StatementResult, to_pandas
    from pql_repl.api.run import Query, prepare, run
    from pql_repl.api.sheet import Sheet, SpreadsheetError, spreadsheet
    from pql_repl.api.sweep_values import SweepValue, classes, flops, ranks, rivers, turns
    from pql_repl.api.sweeps import SweepResult, sweep
    from pql_repl.base.errors import (
        ClusterError,
        PqlArgumentError,
        PqlArgumentTypeError,
        PqlCancelled,
        PqlError,
        PqlMissingDependency,
        PqlRangeError,
        PqlRuntimeError,
        PqlSyntaxError,
        PqlTypeError,
    )

__all__ = [
    "Bucket",
    "ClusterError",
    "Column",
    "Evaluation",
    "FunctionInfo",
    "HandValue",
    "Odds",
    "OddsRun",
    "OddsTable",
    "OddsTableRun",
    "PqlArgumentError",
    "PqlArgumentTypeError",
    "PqlCancelled",
    "PqlError",
    "PqlMissingDependency",
    "PqlRangeError",
    "PqlRuntimeError",
    "PqlSyntaxError",
    "PqlTypeError",
    "Query",
    "Range",
    "Results",
    "Sheet",
    "SpreadsheetError",
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
    "odds_table",
    "parse_range",
    "prepare",
    "ranks",
    "rivers",
    "run",
    "spreadsheet",
    "sweep",
    "to_pandas",
    "turns",
]

#: The module that defines each public name.
_HOMES = {
    **dict.fromkeys(["Query", "prepare", "run"], "pql_repl.api.run"),
    **dict.fromkeys(
        ["Bucket", "Column", "Results", "StatementInfo", "StatementResult", "to_pandas"],
        "pql_repl.api.results",
    ),
    **dict.fromkeys(
        ["FunctionInfo", "Range", "functions", "game_streets", "keywords", "parse_range"],
        "pql_repl.api.catalogue",
    ),
    **dict.fromkeys(
        [
            "ClusterError",
            "PqlArgumentError",
            "PqlArgumentTypeError",
            "PqlCancelled",
            "PqlError",
            "PqlMissingDependency",
            "PqlRangeError",
            "PqlRuntimeError",
            "PqlSyntaxError",
            "PqlTypeError",
        ],
        "pql_repl.base.errors",
    ),
    **dict.fromkeys(["Evaluation", "HandValue", "evaluate"], "pql_repl.api.evaluation"),
    **dict.fromkeys(["Sheet", "SpreadsheetError", "spreadsheet"], "pql_repl.api.sheet"),
    **dict.fromkeys(["SweepResult", "sweep"], "pql_repl.api.sweeps"),
    **dict.fromkeys(
        ["SweepValue", "classes", "flops", "ranks", "rivers", "turns"], "pql_repl.api.sweep_values"
    ),
    **dict.fromkeys(
        ["Odds", "OddsRun", "OddsTable", "OddsTableRun", "odds", "odds_table"], "pql_repl.api.multi_odds"
    ),
}


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'pql_repl' has no attribute '{name}'")
    home = _HOMES[name]
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext pql_repl`` in IPython or Jupyter: the ``%pql`` line magic and ``%%pql`` cell
    magic (``pql_repl.notebook``). IPython is loaded by them, not by ``import pql_repl``."""
    importlib.import_module("pql_repl.notebook.magic").load_ipython_extension(ipython)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
