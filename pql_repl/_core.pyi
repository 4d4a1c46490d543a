# Type stubs for the Rust extension; checked against the module by mypy.stubtest (tests/test_stubs.py).
from collections.abc import Callable
from typing import Any, final

__all__ = [
    "DistributionRun",
    "HeatmapRun",
    "Program",
    "RunHandle",
    "__version__",
    "breakdown",
    "evaluate",
    "functions",
    "game_streets",
    "hand_classes",
    "keywords",
    "limits",
    "monte_chunks",
    "parse_range",
    "range_name_error",
    "range_summary",
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
def parse_range(
    text: str,
    game: str = "holdem",
    syntax: str | None = None,
    macros: dict[str, str] | None = None,
    ordering: str | None = None,
) -> dict[str, Any]: ...
def range_name_error(name: str) -> str | None: ...
def hand_classes(game: str, ordering: str | None = None) -> dict[str, Any]: ...
def breakdown(game: str, board: str, dead: str | None = None) -> dict[str, Any]: ...
def range_summary(
    text: str,
    game: str = "holdem",
    syntax: str | None = None,
    macros: dict[str, str] | None = None,
    sample: int = 0,
    seed: int = 0,
    ordering: str | None = None,
) -> dict[str, Any]: ...

@final
class HeatmapRun:
    def __new__(
        cls,
        game: str,
        villains: list[str],
        board: str | None = None,
        dead: str | None = None,
        syntax: str | None = None,
        macros: dict[str, str] | None = None,
        trials: int = 1000000,
        seed: int = 0,
        threads: int | None = None,
        precision: float | None = None,
        exact: bool | None = None,
        ordering: str | None = None,
    ) -> HeatmapRun: ...
    def poll(self, timeout: float) -> dict[str, Any] | None: ...
    def set_focus(self, weights: list[int]) -> None: ...
    def cancel(self) -> None: ...

@final
class DistributionRun:
    def __new__(
        cls,
        game: str,
        hero: str,
        villains: list[str],
        board: str | None = None,
        dead: str | None = None,
        syntax: str | None = None,
        macros: dict[str, str] | None = None,
        hands: int = 2000,
        deals: int = 200,
        seed: int = 0,
        threads: int | None = None,
        ordering: str | None = None,
    ) -> DistributionRun: ...
    def poll(self, timeout: float) -> dict[str, Any] | None: ...
    def cancel(self) -> None: ...

def monte_chunks(trials: int) -> int: ...

@final
class RunHandle:
    def poll(self, timeout: float, until_end: bool = False) -> dict[str, Any] | None: ...
    def cancel(self) -> None: ...

@final
class Program:
    def __new__(
        cls,
        text: str,
        origin: tuple[int, int] | None = None,
        macros: dict[str, str] | None = None,
        observations: list[tuple[str, str, str]] | None = None,
        time_limit: float | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> Program: ...
    def statements(self) -> list[dict[str, Any]]: ...
    def holdings(self, index: int) -> dict[str, list[tuple[str, float]]] | None: ...
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
        precision_after: float | None = None,
    ) -> RunHandle: ...
    def exact_layout(
        self, index: int, trials: int, exact: bool | None = None, layout: int = 1
    ) -> tuple[int, int, str] | None: ...
    def run_chunks(
        self, index: int, trials: int, seed: int, lo: int, hi: int, threads: int | None = None
    ) -> list[Any]: ...
    def run_items(
        self,
        index: int,
        trials: int,
        exact: bool | None,
        seed: int,
        lo: int,
        hi: int,
        layout: int,
        threads: int | None = None,
    ) -> list[Any]: ...
    def merge_chunks(self, index: int, chunks: list[Any], seed: int, elapsed: float) -> dict[str, Any]: ...
    def merge_items(
        self,
        index: int,
        layout: tuple[int, int, str],
        items: list[Any],
        seed: int,
        elapsed: float,
        end: bool,
    ) -> dict[str, Any]: ...
