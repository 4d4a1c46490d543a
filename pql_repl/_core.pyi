# Type stubs for the Rust extension; checked against the module by mypy.stubtest in the tests.
from typing import Any

__version__: str

def evaluate(hole: str, board: str = "", game: str = "holdem") -> dict[str, dict[str, Any] | None]: ...
def rate_batch(cards: bytes | list[int], hole: int, board: int, game: str = "holdem") -> list[int]: ...
