# Type stubs for the Rust extension; checked against the module by mypy.stubtest (tests/test_stubs.py).
from typing import Any, final

__all__ = [
    "Program",
    "RunHandle",
    "__version__",
    "evaluate",
    "functions",
    "game_streets",
    "keywords",
    "limits",
    "parse_range",
    "rate_batch",
    "warm_up",
]

__version__: str

def warm_up() -> None: ...
def evaluate(hole: str, board: str = "", game: str = "holdem") -> dict[str, dict[str, Any] | None]: ...
def rate_batch(cards: bytes | list[int], hole: int, board: int, game: str = "holdem") -> list[int]: ...
def functions() -> list[dict[str, Any]]: ...
def keywords() -> dict[str, list[str]]: ...
def game_streets() -> dict[str, list[str]]: ...
def limits() -> dict[str, int]: ...
def parse_range(text: str, game: str = "holdem", syntax: str | None = None) -> dict[str, Any]: ...

@final
class RunHandle:
    def poll(self, timeout: float, until_end: bool = False) -> dict[str, Any] | None: ...
    def cancel(self) -> None: ...

@final
class Program:
    def __new__(cls, text: str, origin: tuple[int, int] | None = None) -> Program: ...
    def statements(self) -> list[dict[str, Any]]: ...
    def start(
        self,
        index: int,
        trials: int,
        seed: int | None = None,
        exact: bool | None = None,
        threads: int | None = None,
        time_limit: float | None = None,
        precision: float | None = None,
        item_limit: int | None = None,
    ) -> RunHandle: ...
