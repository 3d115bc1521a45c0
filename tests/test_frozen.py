"""``@frozen`` behaves as ``@dataclass(frozen=True, slots=True)`` does, method by method.

Each shape of class is made twice, once by each decorator, and the two are driven with the same
values (hypothesis): construction (positional, keyword, defaults, factories, ``__post_init__``),
equality, hashing, the repr, ``replace``, ``match`` patterns, copying, pickling and refusals.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegboard import frozen as frozen_module
from pegboard.frozen import frozen

values = st.one_of(st.integers(-5, 5), st.text(max_size=3), st.tuples(st.integers(0, 3)))


def make_pair() -> tuple[type, type]:
    """The same class body under each decorator: a required field, a default, a factory, a
    field left out of comparison and one left out of the repr."""

    def body() -> type:
        class Shape:
            side: Any
            points: Any = 1
            cards: Any = field(default_factory=tuple)
            note: Any = field(default="", compare=False)
            secret: Any = field(default=0, repr=False)

        return Shape

    return dataclass(frozen=True, slots=True)(body()), frozen(body())


PLAIN, FROZEN = make_pair()
# pickle finds a class by its module and name
PLAIN.__qualname__ = PLAIN.__name__ = "PLAIN"
FROZEN.__qualname__ = FROZEN.__name__ = "FROZEN"


def both(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
    return PLAIN(*args, **kwargs), FROZEN(*args, **kwargs)


def fields_of(obj: Any) -> tuple[Any, ...]:
    return tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))


@given(values, values, values, values)
def test_construction_equality_hash_and_repr_agree(a: Any, b: Any, c: Any, d: Any) -> None:
    for args, kwargs in [((a,), {}), ((a, b), {}), ((a,), {"note": c}), ((), {"side": a})]:
        plain, made = both(*args, **kwargs)
        assert fields_of(plain) == fields_of(made)
        assert repr(made) == repr(plain).replace("PLAIN", "FROZEN")
        plain2, made2 = both(a, b, (c,), note=d)
        assert (plain == plain2) == (made == made2)
        if made == made2:
            assert hash(made) == hash(made2)
    assert FROZEN(a, note=b) == FROZEN(a, note=c)  # a field left out of comparison
    assert FROZEN(a) != PLAIN(a) and FROZEN(a) != (a, 1, (), "", 0)


@given(values, values)
def test_replace_copy_and_pickle_give_equal_values(a: Any, b: Any) -> None:
    made = FROZEN(a, cards=(b,), secret=b)
    assert dataclasses.replace(made, points=b) == FROZEN(a, b, (b,), secret=b)
    for twin in (copy.copy(made), copy.deepcopy(made), pickle.loads(pickle.dumps(made))):
        assert twin == made and fields_of(twin) == fields_of(made)


@given(
    values, values, values, st.sets(st.sampled_from(["side", "points", "cards", "note", "secret"]))
)
def test_the_fast_replace_gives_what_dataclasses_replace_gives(
    a: Any, b: Any, c: Any, names: set[str]
) -> None:
    made = FROZEN(a, b, (c,), note=c, secret=a)
    changes = {name: (b, c) for name in names}
    fast = frozen_module.replace(made, **changes)
    slow = dataclasses.replace(made, **changes)
    assert type(fast) is FROZEN and fields_of(fast) == fields_of(slow)
    plain = PLAIN(a, b, (c,), note=c, secret=a)  # any other dataclass: dataclasses' own
    assert fields_of(frozen_module.replace(plain, **changes)) == fields_of(slow)


def test_the_fast_replace_refuses_what_dataclasses_replace_refuses() -> None:
    with pytest.raises(TypeError, match="'colour'"):
        frozen_module.replace(FROZEN(1), colour=2)
    with pytest.raises(TypeError):
        dataclasses.replace(FROZEN(1), colour=2)


def test_the_fast_replace_runs_post_init_and_leaves_a_subclass_to_dataclasses() -> None:
    @frozen
    class Score:
        points: int
        doubled: int = 0

        def __post_init__(self) -> None:
            object.__setattr__(self, "doubled", self.points * 2)

    assert frozen_module.replace(Score(3), points=4).doubled == 8

    class Kept(Score):  # a subclass: made again as its own class, by dataclasses
        __slots__ = ()

    kept = frozen_module.replace(Kept(1), points=5)
    assert (type(kept), kept.points, kept.doubled) == (Kept, 5, 10)


def test_a_factory_gives_each_instance_its_own_value() -> None:
    @frozen
    class Bag:
        items: list[int] = field(default_factory=list)

    first, second = Bag(), Bag()
    first.items.append(1)
    assert second.items == [] and first.items == [1]


def test_it_refuses_what_a_frozen_dataclass_refuses() -> None:
    made = FROZEN(1)
    with pytest.raises(FrozenInstanceError):
        made.side = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del made.side  # type: ignore[misc]
    with pytest.raises(AttributeError):
        made.other = 1  # type: ignore[attr-defined]
    for args, kwargs in [((), {}), ((1, 2, 3, 4, 5, 6), {}), ((1,), {"side": 2}), ((1,), {"x": 1})]:
        with pytest.raises(TypeError):
            PLAIN(*args, **kwargs)
        with pytest.raises(TypeError):
            FROZEN(*args, **kwargs)


def test_post_init_runs_and_may_check_or_derive() -> None:
    @frozen
    class Score:
        points: int
        doubled: int = 0

        def __post_init__(self) -> None:
            if self.points < 0:
                raise ValueError(f"points must not be negative: {self.points}")
            object.__setattr__(self, "doubled", 2 * self.points)

    assert Score(3).doubled == 6
    assert dataclasses.replace(Score(3), points=4).doubled == 8
    with pytest.raises(ValueError, match="negative"):
        Score(-1)


def test_match_patterns_slots_and_the_dataclass_api_work() -> None:
    made = FROZEN(7, 2)
    match made:
        case FROZEN(side, points):
            assert (side, points) == (7, 2)
        case _:
            pytest.fail("no match")
    assert FROZEN.__match_args__ == PLAIN.__match_args__
    assert dataclasses.is_dataclass(made) and not hasattr(made, "__dict__")
    assert dataclasses.asdict(made) == dataclasses.asdict(PLAIN(7, 2))


def test_subclasses_keep_the_fields_of_their_base() -> None:
    @frozen
    class Base:
        side: int

    @frozen
    class Pegged(Base):
        points: int = 0

    assert Pegged(1, 2) == Pegged(side=1, points=2) != Base(1)
    assert (
        repr(Pegged(1))
        == "test_subclasses_keep_the_fields_of_their_base.<locals>.Pegged(side=1, points=0)"
    )


def _described(cls: type) -> list[tuple[Any, ...]]:
    return [
        (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.compare, f.kw_only)
        for f in dataclasses.fields(cls)
    ]


def test_the_fields_are_the_ones_dataclasses_finds() -> None:
    assert _described(FROZEN) == _described(PLAIN)
    assert FROZEN.__match_args__ == PLAIN.__match_args__
    assert FROZEN.__slots__ == PLAIN.__slots__
    made = FROZEN(1, 2, (3,), note="n", secret=4)
    assert dataclasses.is_dataclass(made) and dataclasses.asdict(made) == dataclasses.asdict(
        PLAIN(1, 2, (3,), note="n", secret=4)
    )
    assert not hasattr(made, "__dict__")


def test_class_variables_are_not_fields_and_a_dataclass_may_derive_from_it() -> None:
    @frozen
    class Rack:
        LIMIT: ClassVar[int] = 3
        holes: int = 0

    assert [f.name for f in dataclasses.fields(Rack)] == ["holes"] and Rack.LIMIT == 3

    @dataclass(frozen=True)
    class Wide(Rack):
        colour: str = "red"

    assert Wide(2, "blue") == Wide(holes=2, colour="blue") and Wide().holes == 0


def test_it_refuses_the_defaults_dataclasses_refuses() -> None:
    with pytest.raises(ValueError, match="mutable default"):

        @frozen
        class Bag:
            cards: list[int] = []  # noqa: RUF012

    with pytest.raises(TypeError, match="non-default argument 'points'"):

        @frozen
        class Late:
            side: int = 0
            points: int


def test_it_records_the_parameters_of_a_frozen_slotted_dataclass() -> None:
    ours, theirs = FROZEN.__dataclass_params__, PLAIN.__dataclass_params__  # type: ignore[attr-defined]
    assert {name: getattr(ours, name) for name in type(theirs).__slots__} == {
        name: getattr(theirs, name) for name in type(theirs).__slots__
    }
