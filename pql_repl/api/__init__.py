"""The library: what ``import pql_repl`` offers and every front end builds on. Statements are
prepared and run (``query``, ``run``), their results typed (``result_fields``, and ``results``
with their views) and formatted as tables, CSV, JSON, markdown and HTML (``output``, ``html``)
under the columns ``tidy`` names, or as pandas frames (``frames``); the engine's catalogue and
range parser (``catalogue``); one hand's value (``evaluation``); HoldemHand's odds views
(``multi_odds``); the range explorers' engine (``exploration``); sweeps (``sweeps``,
``sweep_values``), spreadsheet mode (``sheet``) and runs on a Dask cluster (``cluster``);
precision targets (``precision``).

May use: ``base``, ``files``. It is the only room that calls the engine (``pql_repl._core``),
besides ``base.limits``, which reads the engine's bounds.
"""
