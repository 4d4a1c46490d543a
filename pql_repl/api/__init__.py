"""The library: what ``import pql_repl`` offers and every front end builds on. Statements are
prepared and run (``query``, ``run``), their results typed (``results``) and formatted as tables,
CSV, JSON and markdown (``output``); the engine's catalogue and range parser (``catalogue``); one
hand's value (``evaluation``); HoldemHand's odds views (``multi_odds``); the range explorers'
engine (``exploration``); sweeps (``sweeps``, ``sweep_values``), spreadsheet mode (``sheet``) and
runs on a Dask cluster (``cluster``); precision targets (``precision``).

May use: ``base``, ``files``. It is the only room that calls the engine (``pql_repl._core``),
besides ``base.limits``, which reads the engine's bounds.
"""
