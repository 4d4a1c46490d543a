"""Record classes (``@record``): what ``@dataclasses.dataclass`` gives the classes of the command's
path (an ``__init__`` of the fields in order with their defaults, ``==``, ``repr``, and with
``frozen=True`` immutability and a hash), without loading ``dataclasses`` or compiling code per
class. Both cost the ``pql`` command a third of its start (dataclasses loads ``inspect``, and
each dataclass compiles five methods), and scripts start on every run.

Fields are the class's annotations, in order; a class attribute is a field's default, and
``field(default_factory=...)`` makes a fresh one per instance. ``replace(obj, **changes)`` and
``fields(obj)`` stand for their ``dataclasses`` namesakes. Type checkers read ``record`` as a
dataclass (``dataclass_transform``). The interactive front ends keep ``dataclasses``: they load
it anyway.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar, dataclass_transform, overload

    T = TypeVar("T")
else:

    def dataclass_transform(**_specifiers):  # a marker for type checkers: nothing at run time
        return lambda f: f


_FIELDS = "__record_fields__"


class _Factory:
    """A default made afresh for each instance."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], Any]) -> Any:
    """A field whose default is ``default_factory()``, called for each instance."""
    return _Factory(default_factory)


class FrozenInstanceError(AttributeError):
    """Assigning to a field of a frozen record."""


_NO_DEFAULT = object()


if TYPE_CHECKING:

    @overload
    def record(cls: type[T], /) -> type[T]: ...

    @overload
    def record(*, frozen: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(field,))
def record(cls: type[T] | None = None, /, *, frozen: bool = False) -> Any:
    """Makes ``cls`` a record: ``@record`` or ``@record(frozen=True)``."""

    def build(cls: type[T]) -> type[T]:
        _make_record(cls, frozen)
        return cls

    return build if cls is None else build(cls)


def _make_record(cls: type, frozen: bool) -> None:
    names = tuple(cls.__dict__.get("__annotations__", {}))  # noqa: RUF063 (inspect is what we avoid)
    defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
    for n in defaults:
        delattr(cls, n)  # a default lives on the instance, as in a dataclass
    set_attr = object.__setattr__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__}() takes {len(names)} positional arguments, {len(args)} given")
        for name in kwargs:
            if name not in names:
                raise TypeError(f"{cls.__name__}() got an unexpected keyword argument '{name}'")
        for i, name in enumerate(names):
            if i < len(args):
                if name in kwargs:
                    raise TypeError(f"{cls.__name__}() got multiple values for argument '{name}'")
                value = args[i]
            else:
                value = kwargs.get(name, defaults.get(name, _NO_DEFAULT))
                if value is _NO_DEFAULT:
                    raise TypeError(f"{cls.__name__}() missing required argument: '{name}'")
                if isinstance(value, _Factory):
                    value = value.make()
            set_attr(self, name, value)

    def values(self: Any) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in names)

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(values(self) == values(other))

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{cls.__qualname__}({inner})"

    methods: dict[str, Any] = {"__init__": __init__, "__eq__": __eq__, "__repr__": __repr__}
    if frozen:

        def __setattr__(self: Any, name: str, value: Any) -> None:
            raise FrozenInstanceError(f"cannot assign to field '{name}'")

        def __delattr__(self: Any, name: str) -> None:
            raise FrozenInstanceError(f"cannot delete field '{name}'")

        def __hash__(self: Any) -> int:
            return hash(values(self))

        methods |= {"__setattr__": __setattr__, "__delattr__": __delattr__, "__hash__": __hash__}
    else:
        methods["__hash__"] = None  # mutable and compared by value: unhashable, as a dataclass
    for name, method in methods.items():
        if name not in cls.__dict__:  # what the class writes itself stays, as in a dataclass
            if method is not None:
                method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    setattr(cls, _FIELDS, names)


def fields(obj: object) -> tuple[str, ...]:
    """The field names of a record or record class, in order."""
    names: tuple[str, ...] = getattr(obj, _FIELDS)
    return names


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record ``obj`` with some fields changed."""
    for name in fields(obj):
        changes.setdefault(name, getattr(obj, name))
    return obj.__class__(**changes)
