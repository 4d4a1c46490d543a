"""``pql_repl.base.records``: records behave as the dataclasses they stand for, checked against
``dataclasses`` itself on the same class."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from pql_repl.base import records


@records.record(frozen=True)
class Point:
    x: int
    y: int = 0
    tags: list[str] = records.field(default_factory=list)

    def norm(self) -> int:
        return abs(self.x) + abs(self.y)


@dataclasses.dataclass(frozen=True)
class DataPoint:
    x: int
    y: int = 0
    tags: list[str] = dataclasses.field(default_factory=list)


@records.record
class Settings:
    trials: int = 10
    seed: int | None = None


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}),
    ((1, 2), {}),
    ((), {"x": 3, "y": 4}),
    ((5,), {"tags": ["a"]}),
]
BAD_CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((), {}),
    ((1, 2, [], 4), {}),
    ((1,), {"z": 2}),
    ((1,), {"x": 1}),
]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_construction_defaults_and_factories_match_dataclasses(args: Any, kwargs: Any) -> None:
    p, d = Point(*args, **kwargs), DataPoint(*args, **kwargs)
    assert (p.x, p.y, p.tags) == (d.x, d.y, d.tags)


def test_defaults_repr_and_methods() -> None:
    assert Point(1).tags is not Point(1).tags  # a fresh default for each
    assert repr(Point(1, 2)) == "Point(x=1, y=2, tags=[])"
    assert Point(3, -4).norm() == 7


@pytest.mark.parametrize(("args", "kwargs"), BAD_CALLS)
def test_bad_arguments_are_type_errors_as_in_a_dataclass(args: Any, kwargs: Any) -> None:
    with pytest.raises(TypeError):
        DataPoint(*args, **kwargs)
    with pytest.raises(TypeError):
        Point(*args, **kwargs)


def test_frozen_records_compare_hash_and_refuse_assignment() -> None:
    assert Point(1, 2) == Point(1, 2)
    assert Point(1, 2) != Point(2, 1)
    other: object = DataPoint(1, 2)
    assert Point(1, 2) != other
    assert hash(Point(1, 2, ())) == hash(Point(1, 2, ()))  # type: ignore[arg-type]
    p: Any = Point(1)
    with pytest.raises(AttributeError):
        p.x = 2
    with pytest.raises(AttributeError):
        del p.x


def test_mutable_records_assign_and_are_unhashable() -> None:
    s = Settings()
    s.trials = 20
    assert s == Settings(trials=20)
    with pytest.raises(TypeError):
        hash(s)


def test_replace_and_fields() -> None:
    p = Point(1, 2, ["a"])
    q = records.replace(p, y=5)
    assert (q.x, q.y, q.tags, p.y) == (1, 5, ["a"], 2)
    assert records.fields(p) == records.fields(Point) == ("x", "y", "tags")
    assert records.fields(Point) == tuple(f.name for f in dataclasses.fields(DataPoint))
    assert records.fields(Settings) == ("trials", "seed")
