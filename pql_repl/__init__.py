"""pql: the Poker Query Language engine and REPL.

>>> import pql_repl as pql
>>> pql.evaluate("AsKs", "QsJsTs").hi.category
'straightflush'
"""

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

__all__ = [
    "Bucket",
    "Column",
    "Evaluation",
    "FunctionInfo",
    "HandValue",
    "PqlCancelled",
    "PqlError",
    "PqlRangeError",
    "PqlRuntimeError",
    "PqlSyntaxError",
    "PqlTypeError",
    "Query",
    "Range",
    "StatementInfo",
    "StatementResult",
    "evaluate",
    "functions",
    "game_streets",
    "keywords",
    "parse_range",
    "prepare",
    "run",
]
