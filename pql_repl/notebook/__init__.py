"""PQL in Jupyter and IPython: ``%load_ext pql_repl`` registers the ``%pql`` line magic and the
``%%pql`` cell magic (``magic``), which run a cell's statements and dot-commands in one session
kept across cells (``cell_runner``), show each run live while it goes (``live_view``: a progress
bar and the converging values, with ipywidgets or as text) and hand back the results, shown
as their HTML tables (a cell with a sweep or ``.odds`` as a ``cell_results.CellResults``).

Loaded only by IPython: ``import pql_repl`` loads none of this, nor IPython.

May use: ``base``, ``files``, ``api``, ``session``.
"""
