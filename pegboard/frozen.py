"""``@frozen``: a frozen, slotted dataclass that costs a fifth as much to define.

``@dataclass(frozen=True, slots=True)`` writes six methods of every class as source text and
compiles them (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``) each time the module is imported: about 0.5 ms a class here, 5 ms on a
Pi Zero 2 W, and pegboard has about ninety of them on the way to the daemon's first frame. That
was the largest part of its start-up. ``@frozen`` compiles nothing: the methods are shared
functions that read the class's fields. Nor does it go through ``dataclasses.dataclass``,
whose look at each string annotation (is it a ``ClassVar``?) and rebuild of the class for its
slots cost another 0.1 ms a class: it finds the fields itself (``_fields``: the annotations
in order, with their defaults and ``field(...)``s) and makes the slotted class once
(``_slotted``), with the marks ``dataclasses`` reads, so ``fields``, ``replace``, ``asdict``,
``is_dataclass``, ``match`` patterns and a dataclass deriving from it work as before.
``replace`` here is ``dataclasses.replace`` without its loops over the fields.

What stays the same as ``@dataclass(frozen=True, slots=True)``: the fields and their order,
defaults and ``field(default_factory=...)``, ``field(compare=False)`` and ``field(repr=False)``,
``__post_init__``, ``__match_args__``, ``__slots__``, equality only with the same class,
``FrozenInstanceError`` on assignment, hashing by the compared fields, the repr, copying and
pickling. What differs: ``__init__`` takes ``*args, **kwargs`` and binds them itself, which
makes creating an instance about 1 µs slower. Classes made in hot loops (a card, a score
item) stay plain dataclasses.

>>> @frozen
... class Peg:
...     side: int
...     points: int = 1
>>> Peg(0), Peg(0) == Peg(side=0, points=1), Peg(1, 2)
(Peg(side=0, points=1), True, Peg(side=1, points=2))
>>> Peg(0).points = 3
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'points'
"""

from __future__ import annotations

import dataclasses
import inspect
import operator
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

__all__ = ["frozen", "replace"]

_T = TypeVar("_T", bound=type)
_V = TypeVar("_V")
_MISSING: Any = dataclasses.MISSING
_set = object.__setattr__


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen(cls: _T) -> _T:
    """Make *cls* a frozen, slotted dataclass whose methods are shared, not compiled."""
    fields = _fields(cls)
    names = tuple(f.name for f in fields)
    made: Any = _slotted(cls, fields)
    made.__init__ = _init(made, names, fields)
    made.__repr__ = _repr(tuple(f.name for f in fields if f.repr))
    compared = _getter(tuple(f.name for f in fields if f.compare))
    made.__eq__ = _eq(compared)
    made.__hash__ = _hash(compared)
    made.__setattr__ = _refuse_set
    made.__delattr__ = _refuse_delete
    values = _getter(names)
    made.__getstate__ = _getstate(values)
    made.__setstate__ = _setstate(names)
    made._frozen_values = staticmethod(values)
    made._frozen_places = {name: place for place, name in enumerate(names)}
    return made  # type: ignore[no-any-return]


def replace(obj: _V, /, **changes: Any) -> _V:
    """``dataclasses.replace(obj, **changes)``, faster for a ``@frozen`` class (the game's
    table is copied this way at every command a replay applies): the values are read by one
    getter and the class is called with them in order, its fast path. Any other dataclass
    goes to ``dataclasses.replace`` itself.

    Raises:
        TypeError: a name in *changes* that is not a field, as ``dataclasses.replace`` does.
    """
    values_of = type(obj).__dict__.get("_frozen_values")  # its own: not a subclass's
    if values_of is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    values = list(values_of(obj))
    places: dict[str, int] = type(obj)._frozen_places  # type: ignore[attr-defined]
    for name, value in changes.items():
        place = places.get(name)
        if place is None:
            what = type(obj).__qualname__
            raise TypeError(f"{what}.__init__() got an unexpected argument {name!r}")
        values[place] = value
    return type(obj)(*values)


_CLASS_VAR = ("ClassVar", "typing.ClassVar")


def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    """*cls*'s fields, in order, as ``dataclasses`` would find them (the module's notes).

    Raises:
        TypeError: an ``InitVar``, an ``init=False`` or ``kw_only`` field, a
            field without a default after one with a default (as ``dataclasses`` says).
        ValueError: a list, dict or set as a default (as ``dataclasses`` says).
    """
    found: dict[str, dataclasses.Field[Any]] = {}
    for base in reversed(cls.__mro__[1:]):  # a dataclass base's fields come first
        found |= base.__dict__.get(_FIELDS, {})
    defaulted = next((f.name for f in found.values() if _has_default(f)), "")
    for name, kind in inspect.get_annotations(cls).items():
        text = kind if isinstance(kind, str) else repr(kind)
        if text.partition("[")[0] in _CLASS_VAR or text.startswith("typing.ClassVar"):
            continue  # a class variable, not a field
        if "InitVar" in text:
            raise TypeError(f"@frozen {cls.__qualname__}.{name}: InitVar is not supported")
        default = cls.__dict__.get(name, _MISSING)
        made = default if isinstance(default, dataclasses.Field) else dataclasses.field()
        if made is not default:
            made.default = default
        if isinstance(made.default, (list, dict, set)):
            raise ValueError(
                f"mutable default {type(made.default)} for field {name} is not allowed: "
                "use default_factory"
            )
        if not made.init or made.kw_only is True:
            raise TypeError(
                f"@frozen {cls.__qualname__}.{name}: init=False and kw_only fields are not "
                "supported; use @dataclass(frozen=True, slots=True)"
            )
        if _has_default(made):
            defaulted = name
        elif defaulted:
            raise TypeError(f"non-default argument {name!r} follows default argument")
        made.name, made.type, made.kw_only = name, kind, False
        made._field_type = _FIELD  # type: ignore[union-attr]
        found[name] = made
    return tuple(found.values())


def _has_default(f: dataclasses.Field[Any]) -> bool:
    return f.default is not _MISSING or f.default_factory is not _MISSING


def _slotted(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> type:
    """*cls* made again with a slot for each field and the marks of a dataclass (its fields
    for ``fields``, ``replace`` and ``asdict``, its parameters, ``__match_args__``)."""
    names = tuple(f.name for f in fields)
    inherited = {name for base in cls.__mro__[1:] for name in base.__dict__.get("__slots__", ())}
    body = {k: v for k, v in cls.__dict__.items() if k not in names}
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    body["__slots__"] = tuple(name for name in names if name not in inherited)
    body["__match_args__"] = names
    body[_FIELDS] = {f.name: f for f in fields}
    body[_PARAMS] = _PARAMS_OF_FROZEN
    if body.get("__doc__") is None:  # as dataclasses writes it, less the types
        body["__doc__"] = f"{cls.__name__}({', '.join(names)})"
    made = type(cls)(cls.__name__, cls.__bases__, body)
    made.__qualname__ = cls.__qualname__
    return made


_FIELD: Any = getattr(dataclasses, "_FIELD")  # noqa: B009 (what dataclasses.fields keeps)
_FIELDS = "__dataclass_fields__"
_PARAMS = "__dataclass_params__"


def _frozen_params() -> Any:
    """The parameters ``@dataclass(frozen=True, slots=True)`` records, which a dataclass
    deriving from this one reads (whether its base is frozen). Filled in by name: the fields
    of ``_DataclassParams`` grow with Python's versions, and making a dataclass to copy them
    from costs as much as making five ``@frozen`` classes."""
    kind: Any = getattr(dataclasses, "_DataclassParams")  # noqa: B009
    made = kind.__new__(kind)
    chosen = {"order": False, "unsafe_hash": False, "kw_only": False, "weakref_slot": False}
    for name in kind.__slots__:
        setattr(made, name, chosen.get(name, True))
    return made


_PARAMS_OF_FROZEN = _frozen_params()


def _init(cls: type, names: tuple[str, ...], fields: tuple[dataclasses.Field[Any], ...]) -> Any:
    size = len(names)
    defaults = {f.name: f.default for f in fields if f.default is not _MISSING}
    factories: dict[str, Any] = {
        f.name: f.default_factory for f in fields if f.default_factory is not _MISSING
    }
    post_init = getattr(cls, "__post_init__", None)
    what = cls.__qualname__

    def bind(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        if len(args) > size:
            raise TypeError(f"{what}() takes {size} arguments but {len(args)} were given")
        values = list(args)
        for name in names[len(args) :]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in defaults:
                values.append(defaults[name])
            elif name in factories:
                values.append(factories[name]())
            else:
                raise TypeError(f"{what}() missing required argument: {name!r}")
        for name in kwargs:
            got = "multiple values for argument" if name in names else "an unexpected argument"
            raise TypeError(f"{what}() got {got} {name!r}")
        return values

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        values = args if len(args) == size and not kwargs else bind(args, kwargs)
        for name, value in zip(names, values, strict=True):
            _set(self, name, value)
        if post_init is not None:
            post_init(self)

    return __init__


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the values of *names* as a tuple (C code for two names or more)."""
    if len(names) >= 2:
        return operator.attrgetter(*names)
    if len(names) == 1:
        get = operator.attrgetter(names[0])
        return lambda self: (get(self),)
    return lambda self: ()


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__qualname__}({shown})"

    return __repr__


def _eq(compared: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, object], bool]:
    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(compared(self) == compared(other))
        return NotImplemented

    return __eq__


def _hash(compared: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    return lambda self: hash(compared(self))


def _refuse_set(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_delete(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], tuple[Any, ...]]:
    # a function, not the getter itself: only functions become methods when read off a class
    def __getstate__(self: Any) -> tuple[Any, ...]:
        return values(self)

    return __getstate__


def _setstate(names: tuple[str, ...]) -> Callable[[Any, tuple[Any, ...]], None]:
    def __setstate__(self: Any, state: tuple[Any, ...]) -> None:
        for name, value in zip(names, state, strict=True):
            _set(self, name, value)

    return __setstate__
