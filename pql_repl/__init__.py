"""pql: the Poker Query Language engine and REPL.

>>> import pql_repl as pql
>>> pql.evaluate("AsKs", "QsJsTs").hi.category
'straightflush'
"""

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
    "Evaluation",
    "HandValue",
    "PqlCancelled",
    "PqlError",
    "PqlRangeError",
    "PqlRuntimeError",
    "PqlSyntaxError",
    "PqlTypeError",
    "evaluate",
]
