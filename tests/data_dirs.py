"""A data folder for a while, for the tests and the fuzz driver that reach named ranges."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator


@contextlib.contextmanager
def data_dir(path: str) -> Iterator[None]:
    """``PQL_DATA_DIR`` set to ``path`` for a while; the named ranges' warnings kept for the
    test (``claim_warnings``) and said afresh, as in a new process."""
    from pql_repl.files import named_ranges  # noqa: PLC0415

    before = os.environ.get("PQL_DATA_DIR")
    state = (named_ranges._said, named_ranges._warnings, named_ranges._claimed)
    os.environ["PQL_DATA_DIR"] = path
    named_ranges._said, named_ranges._warnings, named_ranges._claimed = set(), [], True
    try:
        yield
    finally:
        named_ranges._said, named_ranges._warnings, named_ranges._claimed = state
        if before is None:
            del os.environ["PQL_DATA_DIR"]
        else:
            os.environ["PQL_DATA_DIR"] = before
