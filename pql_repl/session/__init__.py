"""What the ``pql`` command and both REPLs share: the session's settings (``settings``), splitting
typed text into statements and dot-commands (``statements``), the dot-commands themselves
(``session``), the words PQL knows (``vocabulary``), tokens for highlighting (``lexer``),
completion (``completion``), the from clause under the cursor (``from_clause``), colour themes
(``themes``), a run's progress as text (``progress``) and Ctrl-C as "stop this run"
(``interrupt``).

May use: ``base``, ``files``, ``api``.
"""
