"""Every bound pql puts on the size of what it is given, in one place (docs/limits.md).

The engine's bounds (nesting, selectors, parts of a range, ...) are defined in
``rust_core/src/limits.rs`` and read from there; the bounds on the files the front ends read
are defined here. Past a bound, input is refused with a message that names it.
"""

from __future__ import annotations

from pql_repl import _core

_ENGINE = _core.limits()

#: Parentheses, calls, ``case`` and prefix operators nested in one query.
QUERY_MAX_DEPTH: int = _ENGINE["query_max_depth"]
#: Depth of an expression tree (a chain ``a or b or …`` is as deep as it is long).
QUERY_MAX_TREE_DEPTH: int = _ENGINE["query_max_tree_depth"]
#: Selectors in one statement.
MAX_SELECTORS: int = _ENGINE["max_selectors"]
#: ``when`` arms in one ``case``.
MAX_CASE_ARMS: int = _ENGINE["max_case_arms"]
#: Players seated by one statement.
MAX_PLAYERS: int = _ENGINE["max_players"]
#: Errors reported for one text, then a count of the rest.
MAX_ERRORS: int = _ENGINE["max_errors"]
#: Parentheses and ``!``/``not`` prefixes nested in one range.
RANGE_MAX_DEPTH: int = _ENGINE["range_max_depth"]
#: Parts (leaves between ``,`` ``:`` ``!``) of one range.
RANGE_MAX_PARTS: int = _ENGINE["range_max_parts"]
#: Steps of work (hands tested, cards tried) while reading one range.
RANGE_MAX_WORK: int = _ENGINE["range_max_work"]
#: Hands one stud range may stand for.
STUD_MAX_HANDS: int = _ENGINE["stud_max_hands"]
#: Boards a ``board=`` pattern lists (more are drawn by rejection).
BOARD_MAX_LISTED: int = _ENGINE["board_max_listed"]
#: Sets of cards one ``dead=`` pattern may allow.
DEAD_MAX_SETS: int = _ENGINE["dead_max_sets"]
#: Different values one ``histogram`` may count.
MAX_HISTOGRAM_BUCKETS: int = _ENGINE["max_histogram_buckets"]

#: Bytes of one script (a FILE, ``-c`` text, stdin, a ``.read`` file).
SCRIPT_MAX_BYTES = 16 * 2**20
#: How deep ``.read`` may nest before pql assumes a script reads itself.
MAX_READ_DEPTH = 16
#: Bytes of the config file.
CONFIG_MAX_BYTES = 2**20
#: Bytes of the named-ranges file (``.define``).
RANGES_MAX_BYTES = 4 * 2**20
#: Bytes of the editor buffer the app restores (a larger one is moved aside): the editor
#: highlights the lines around its view, so a text of this size opens at once.
BUFFER_MAX_BYTES = 2 * 2**20
#: Entries the history keeps by default (the config's ``history_size`` changes it).
HISTORY_SIZE = 10_000
#: Bytes read from the end of the history file at start: older entries are not looked at.
HISTORY_MAX_READ_BYTES = 8 * 2**20
#: Rows of one sweep: the product of its lists' lengths (a row is a statement checked and run).
SWEEP_MAX_ROWS = 100_000
#: Rows of a spreadsheet mode's rows file.
SHEET_MAX_ROWS = 100_000
#: Characters of the statements one sweep or sheet fills, together (each is checked first).
FILLED_MAX_CHARS = 64 * 2**20
#: Characters of one cell of a spreadsheet mode's rows file (the csv module's own bound).
ROWS_MAX_CELL = 128 * 2**10
#: Browser sessions ``pql serve`` runs at once by default (``--sessions``), and at most.
SERVE_SESSIONS = 4
SERVE_MAX_SESSIONS = 64
#: Seconds one statement of a served session may run by default (``--run-seconds``).
SERVE_RUN_SECONDS = 60.0
