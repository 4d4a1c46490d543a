"""The models behind the range explorers: pure state and its edits, with no widget in sight. A
two-card game's weight grid (``range_edit``), Omaha's range terms (``term_edit``) and a stud
hand's slots (``stud_edit``).

May use: ``base``, ``api``.
"""
