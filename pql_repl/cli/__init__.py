"""The ``pql`` command: its options, running statements from ``-c``, files and pipes, spreadsheet
mode, and starting one of the two REPLs (loaded only when asked for).

May use: every room below the front ends (``base``, ``files``, ``api``, ``session``) and, by name
when it starts one, ``repl`` and ``tui``. Nothing imports it but ``pql_repl.start``.
"""
