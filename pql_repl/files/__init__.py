"""The user's files: reading and writing them so that nothing hostile hangs pql and nothing is
lost (``storage``: bounded reads, atomic replacement, locked appends), the configuration file
(``config``), the query history and saved editor text (``history``) and the named ranges of
``.define`` (``named_ranges``).

May use: ``base``. Nothing here calls the engine.
"""
