"""The field kit: every reader's value, its default, and its one message style."""

from __future__ import annotations

import enum
from typing import Any

import pytest

from pegboard.config.fields import REQUIRED, Fields, alternatives, did_you_mean
from pegboard.errors import ConfigError


class Shape(enum.Enum):
    SNAKE = "snake"
    TWO_ROWS = "two-rows"


def fields(**table: Any) -> Fields:
    return Fields(table, "leds.strips[0]")


@pytest.mark.parametrize(
    ("read", "value"),
    [
        pytest.param(lambda f: f.string("name", REQUIRED), "board", id="string"),
        pytest.param(lambda f: f.flag("on", False), True, id="flag"),
        pytest.param(lambda f: f.whole("count", REQUIRED, low=1, high=10), 10, id="whole"),
        pytest.param(lambda f: f.number("share", 0.0, low=0, high=1), 0.5, id="number"),
        pytest.param(lambda f: f.seconds("wait", 0.0), 2.0, id="seconds"),
        pytest.param(lambda f: f.pin("pin", REQUIRED), 27, id="pin"),
        pytest.param(lambda f: f.pins("rows", (1,)), (5, 6), id="pins"),
        pytest.param(lambda f: f.choice("dir", 1, (1, -1)), -1, id="choice"),
        pytest.param(lambda f: f.member("shape", Shape, REQUIRED), Shape.TWO_ROWS, id="member"),
        pytest.param(lambda f: f.color("hex", (0, 0, 0)), (255, 128, 0), id="colour-hex"),
        pytest.param(lambda f: f.color("rgb", (0, 0, 0)), (1, 2, 3), id="colour-list"),
        pytest.param(lambda f: f.names("who", (), expected="names"), ("Ann", "Bob"), id="names"),
    ],
)
def test_each_reader_returns_the_value_typed(read: Any, value: object) -> None:
    f = fields(
        name=" board ", on=True, count=10, share=0.5, wait=2, pin=27, rows=[5, 6], dir=-1,
        shape="TWO_ROWS", hex="#ff8000", rgb=[1, 2, 3], who=["Ann", "Bob"],
    )  # fmt: skip
    got = read(f)
    assert got == value and type(got) is type(value)


def test_a_missing_key_takes_the_default() -> None:
    f = fields()
    assert f.string("name", "x") == "x" and f.whole("n", 3, low=0, high=9) == 3
    assert f.choice("mode", "RGB", ("1", "RGB")) == "RGB"
    assert f.member("shape", Shape, Shape.SNAKE) is Shape.SNAKE
    assert f.names("who", ("Sky",), expected="names") == ("Sky",)
    assert f.sub("colors").table == {} and f.sub("colors").path == "leds.strips[0].colors"


@pytest.mark.parametrize(
    ("read", "message"),
    [
        pytest.param(
            lambda f: f.string("name", REQUIRED),
            r"^config: leds\.strips\[0\]\.name is required \(a non-empty string\)$",
            id="string",
        ),
        pytest.param(
            lambda f: f.whole("count", REQUIRED, low=1, high=10000),
            r"^config: leds\.strips\[0\]\.count is required \(a whole number from 1 to 10000\)$",
            id="whole",
        ),
        pytest.param(
            lambda f: f.pin("pin", REQUIRED),
            r"^config: leds\.strips\[0\]\.pin is required \(a BCM GPIO number from 0 to 27\)$",
            id="pin",
        ),
        pytest.param(
            lambda f: f.member("shape", Shape, REQUIRED),
            r"^config: leds\.strips\[0\]\.shape is required \('snake' or 'two-rows'\)$",
            id="member",
        ),
    ],
)
def test_a_required_key_says_what_it_wants(read: Any, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        read(fields())


@pytest.mark.parametrize(
    ("key", "value", "read", "message"),
    [
        pytest.param(
            "count", "x", lambda f: f.whole("count", 1, low=1, high=10000),
            "count must be a whole number from 1 to 10000, got 'x'", id="whole-text",
        ),
        pytest.param(
            "count", True, lambda f: f.whole("count", 1, low=1, high=10000),
            "count must be a whole number from 1 to 10000, got True", id="whole-bool",
        ),
        pytest.param(
            "count", 2.0, lambda f: f.whole("count", 1, low=1, high=10000),
            "count must be a whole number from 1 to 10000, got 2.0", id="whole-float",
        ),
        pytest.param(
            "name", "  ", lambda f: f.string("name", "x"),
            "name must be a non-empty string, got '  '", id="string-blank",
        ),
        pytest.param(
            "on", 1, lambda f: f.flag("on", False), "on must be true or false, got 1", id="flag",
        ),
        pytest.param(
            "share", True, lambda f: f.number("share", 0.0, low=0, high=1),
            "share must be a number from 0 to 1, got True", id="number-bool",
        ),
        pytest.param(
            "wait", -1, lambda f: f.seconds("wait", 0.0, high=1.0),
            "wait must be a number of seconds from 0 to 1, got -1", id="seconds",
        ),
        pytest.param(
            "pin", 40, lambda f: f.pin("pin", 18),
            "pin must be a BCM GPIO number from 0 to 27, got 40", id="pin",
        ),
        pytest.param(
            "rows", [5, True], lambda f: f.pins("rows", (1,)),
            "rows must be a list of BCM GPIO numbers from 0 to 27, got [5, True]", id="pins",
        ),
        pytest.param(
            "rows", list(range(9)), lambda f: f.pins("rows", (1,)),
            "rows must be a list of BCM GPIO numbers from 0 to 27, got [0, 1, 2, 3, 4, 5, ...]",
            id="pins-nine",
        ),
        pytest.param(
            "dir", 0, lambda f: f.choice("dir", 1, (1, -1)), "dir must be 1 or -1, got 0",
            id="choice",
        ),
        pytest.param(
            "dir", True, lambda f: f.choice("dir", 1, (1, -1)), "dir must be 1 or -1, got True",
            id="choice-bool",
        ),
        pytest.param(
            "turn", 90, lambda f: f.choice("turn", 0, (0, 1, 2, 3), note="quarter turns"),
            "turn must be 0, 1, 2 or 3 (quarter turns), got 90", id="choice-note",
        ),
        pytest.param(
            "mode", "rgb", lambda f: f.choice("mode", "1", ("1", "RGB")),
            "mode must be '1' or 'RGB', got 'rgb' (did you mean 'RGB'?)", id="choice-case",
        ),
        pytest.param(
            "shape", "snak", lambda f: f.member("shape", Shape, Shape.SNAKE),
            "shape must be 'snake' or 'two-rows', got 'snak' (did you mean 'snake'?)",
            id="member",
        ),
        pytest.param(
            "shape", 1, lambda f: f.member("shape", Shape, Shape.SNAKE),
            "shape must be 'snake' or 'two-rows', got 1", id="member-type",
        ),
        pytest.param(
            "rgb", [1, 2], lambda f: f.color("rgb", (0, 0, 0)),
            "rgb must be a colour [r, g, b] of 0..255 or '#rrggbb', got [1, 2]", id="colour",
        ),
        pytest.param(
            "colors", [], lambda f: f.sub("colors"), "colors must be a table, got []", id="sub",
        ),
        pytest.param(
            "tracks", {}, lambda f: f.subs("tracks"),
            "tracks must be a non-empty list of tables, got {}", id="subs",
        ),
        pytest.param(
            "tracks", [{}, 3], lambda f: f.subs("tracks"),
            "tracks[1] must be a table, got 3", id="subs-item",
        ),
        pytest.param(
            "who", ["Ann"], lambda f: f.names("who", (), expected="two names", count=2),
            "who must be two names, got ['Ann']", id="names-count",
        ),
        pytest.param(
            "who", ["Ann", "Bob"], lambda f: f.names("who", (), expected="names", most=1),
            "who has 2 names (expected at most 1)", id="names-most",
        ),
        pytest.param(
            "who", ["Ann", "Bobby"], lambda f: f.names("who", (), expected="names", longest=4),
            "who has a name too long for the screen: 'Bobby' (expected at most 4 characters)",
            id="names-longest",
        ),
        pytest.param(
            "who", ["Ann", "A\tB"], lambda f: f.names("who", (), expected="names"),
            "who must be names, got ['Ann', 'A\\tB']", id="names-tab",
        ),
        pytest.param(
            "who", ["Ann", "ANN"], lambda f: f.names("who", (), expected="names"),
            "who must all differ, got ['Ann', 'ANN']", id="names-twice",
        ),
    ],
)  # fmt: skip
def test_a_bad_value_names_the_key_the_value_and_what_was_expected(
    key: str, value: object, read: Any, message: str
) -> None:
    with pytest.raises(ConfigError) as info:
        read(fields(**{key: value}))
    assert str(info.value).startswith(f"config: leds.strips[0].{message}")


def test_array_tables_are_named_by_index() -> None:
    tracks = Fields({"tracks": [{"first": 0}, {"first": 1}]}, "leds").subs("tracks")
    assert [t.path for t in tracks] == ["leds.tracks[0]", "leds.tracks[1]"]
    assert tracks[1].name("first") == "leds.tracks[1].first"


@pytest.mark.parametrize(
    ("table", "allowed", "options", "message"),
    [
        pytest.param(
            {"undoo": 21}, ("peg0", "undo", "ok"), {},
            "config: buttons.undoo is not a known key (did you mean 'undo'?)", id="close",
        ),
        pytest.param(
            {"fps": 30}, ("scale", "color"), {},
            "config: buttons.fps is not a known key (expected one of scale, color)", id="far",
        ),
        pytest.param(
            {"PLUS": "5"}, ("KEY_KP5",), {"expected": "a Linux key name like 'KEY_KP5'"},
            "config: buttons.PLUS is not a known key (expected a Linux key name like 'KEY_KP5')",
            id="expected",
        ),
        pytest.param(
            {"two words": 1}, ("scale",), {},
            "config: buttons.'two words' is not a known key (expected one of scale)",
            id="quoted-key",
        ),
    ],
)  # fmt: skip
def test_unknown_keys_get_a_did_you_mean_or_the_list(
    table: dict[str, Any], allowed: tuple[str, ...], options: dict[str, str], message: str
) -> None:
    with pytest.raises(ConfigError) as info:
        Fields(table, "buttons").known(allowed, **options)
    assert str(info.value) == message


def test_a_top_level_name_has_no_dot() -> None:
    with pytest.raises(ConfigError) as info:
        Fields({"dispaly": {}}).known(("display", "game"), what="section")
    assert str(info.value) == "config: dispaly is not a known section (did you mean 'display'?)"


def test_a_huge_key_or_value_makes_a_short_message() -> None:
    huge = "x" * 1_000_000
    for read in (
        lambda: Fields({huge: 1}, "game").known(("variant",)),
        lambda: Fields({"variant": huge}, "game").choice("variant", "a", ("a", "b")),
        lambda: Fields({"shape": huge}, "game").member("shape", Shape, Shape.SNAKE),
    ):
        with pytest.raises(ConfigError) as info:
            read()
        assert len(str(info.value)) < 200


def test_the_wording_helpers() -> None:
    assert alternatives([1]) == "1"
    assert alternatives(["a", "b", "c"]) == "'a', 'b' or 'c'"
    assert did_you_mean("colr", ["color", "laps"]) == " (did you mean 'color'?)"
    assert did_you_mean("zzz", ["color", "laps"]) == ""
