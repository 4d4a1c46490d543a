"""The foundation every room may use: pql's exceptions (``errors``), record classes that load
faster than dataclasses (``records``) and the bounds on the size of every input (``limits``).

It uses nothing of pql's but the engine's list of bounds (``pql_repl._core``).
"""
