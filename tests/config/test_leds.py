"""The [leds] tables: the strips the wiring opens and the layout the tracks are drawn on."""

from __future__ import annotations

from typing import Any

import pytest

from pegboard.config.leds import LedsConfig, parse_leds
from pegboard.devices.leds import StripKind
from pegboard.errors import ConfigError
from pegboard.ui.ledtracks import LedLayout, MarkColors, StripLayout

MARKS = MarkColors()


def test_no_leds_table_gives_the_default_strip_and_layout() -> None:
    assert parse_leds({}) == LedsConfig.default()
    assert parse_leds({}).layout == LedLayout.default()
    assert parse_leds({"leds": {"brightness": 0.25}}).layout.brightness == 0.25


def test_the_default_strip_is_ws2812_over_spi_under_the_default_layout() -> None:
    default = LedsConfig.default()
    (spec,) = default.strips
    assert (spec.name, spec.kind, spec.count) == ("board", StripKind.SPI_WS2812, 244)
    assert default.layout.strips == (StripLayout("board", 244, ma_per_channel=20, idle_ma=1),)


def test_three_sides_without_a_leds_table_continue_the_snake() -> None:
    leds = parse_leds({}, sides=3)
    assert [spec.count for spec in leds.strips] == [366]
    assert leds.layout.tracks[2].strip_leds == tuple(range(244, 366))


def test_a_full_config_parses() -> None:
    config = {
        "leds": {
            "brightness": 0.3,
            "current_limit_ma": 900,
            "strips": [
                {"name": "left", "kind": "apa102", "count": 61, "spi_hz": 8_000_000},
                {"name": "right", "kind": "ws281x", "count": 61, "pin": 13, "channel": 1},
            ],
            "tracks": [
                {"strip": "left", "first": 0, "length": 61, "color": "#ff8000"},
                {
                    "strip": "right",
                    "segments": [
                        {"first": 30, "count": 31, "direction": -1},
                        {"first": 31, "count": 30},
                    ],
                    "color": [0, 255, 0],
                    "lap2_color": [200, 255, 200],
                },
            ],
            "colors": {"dealer": [255, 255, 255]},
        }
    }
    leds = parse_leds(config)
    parsed = leds.layout
    assert parsed.brightness == 0.3 and parsed.current_limit_ma == 900
    assert leds.strips[0].spi_hz == 8_000_000 and leds.strips[0].wire_order == "BGR"
    assert (leds.strips[1].pin, leds.strips[1].channel) == (13, 1)
    assert [(s.name, s.count) for s in parsed.strips] == [("left", 61), ("right", 61)]
    left, right = parsed.tracks
    # the second lap in the side's own colour unless given: a second LED tells the lap
    assert (left.laps, left.color, left.lap2_color) == (2, (255, 128, 0), (255, 128, 0))
    assert right.strip_leds == (*range(30, -1, -1), *range(31, 61))
    assert right.lap2_color == (200, 255, 200)
    assert parsed.marks.dealer == (255, 255, 255) and parsed.marks.street == MARKS.street


def test_with_one_strip_tracks_need_not_name_it() -> None:
    config = {
        "leds": {
            "strips": [{"name": "only", "kind": "sim", "count": 121}],
            "tracks": [{"first": 0, "length": 121}],
        }
    }
    assert parse_leds(config).layout.tracks[0].strip == "only"


def test_a_strips_current_draw_goes_to_the_layout() -> None:
    config = leds_with(strips=[{"name": "board", "kind": "sim", "count": 242,
                                "ma_per_channel": 12.5, "idle_ma": 0.5}])  # fmt: skip
    (strip,) = parse_leds(config).layout.strips
    assert (strip.ma_per_channel, strip.idle_ma) == (12.5, 0.5)


def leds_with(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "strips": [{"name": "board", "kind": "sim", "count": 242}],
        "tracks": [{"first": 0, "length": 121}, {"first": 121, "length": 121}],
    }
    return {"leds": {**base, **changes}}


def track_with(**changes: Any) -> dict[str, Any]:
    return leds_with(tracks=[{"first": 0, "length": 121}, {"first": 121, "length": 121, **changes}])


@pytest.mark.parametrize(
    ("config", "message"),
    [
        pytest.param(
            track_with(first="x"),
            r"config: leds\.tracks\[1\]\.first must be a whole number from 0 to 10000, got 'x'",
            id="first-x",
        ),
        pytest.param(
            track_with(first=True),
            r"leds\.tracks\[1\]\.first must be a whole number from 0 to 10000, got True",
            id="first-bool",
        ),
        pytest.param(
            track_with(length=10**12),
            r"leds\.tracks\[1\]\.length must be a whole number from 1 to 10000, got 1000000000000",
            id="length-huge",
        ),
        pytest.param(
            leds_with(strips=[{"name": "board", "kind": "sim", "count": 10**12}]),
            r"leds\.strips\[0\]\.count must be a whole number from 1 to 10000, got 1000000000000",
            id="count-huge",
        ),
        pytest.param(
            leds_with(strips=[{"name": "board", "kind": "ws281x", "count": 242, "pin": 40}]),
            r"leds\.strips\[0\]\.pin must be a BCM GPIO number from 0 to 27, got 40",
            id="pin-40",
        ),
        pytest.param(
            leds_with(strips=[{"name": "board", "kind": "apa102", "count": 242, "bus": 99}]),
            r"leds\.strips\[0\]\.bus must be a whole number from 0 to 6, got 99",
            id="spi-bus-99",
        ),
        pytest.param(
            track_with(direction=0),
            r"leds\.tracks\[1\]\.direction must be 1 or -1, got 0",
            id="direction-0",
        ),
        pytest.param(
            track_with(colour=[1, 2, 3]),
            r"leds\.tracks\[1\]\.colour is not a known key \(did you mean 'color'\?\)$",
            id="typo",
        ),
        pytest.param(
            track_with(color="#zzzzzz"),
            r"leds\.tracks\[1\]\.color must be a colour \[r, g, b\] of 0\.\.255 or '#rrggbb'",
            id="colour-hex",
        ),
        pytest.param(
            track_with(color=[0, 256, 0]),
            r"leds\.tracks\[1\]\.color must be a colour .*got \[0, 256, 0\]",
            id="colour-256",
        ),
        pytest.param(
            track_with(first=130),
            r"leds\.tracks\[1\] runs off strip 'board': LED 242 \(the strip has 242 LEDs",
            id="off-strip",
        ),
        pytest.param(
            track_with(first=100),
            r"leds\.tracks\[1\] shares LED 100 of strip 'board' with leds\.tracks\[0\]",
            id="overlap",
        ),
        pytest.param(
            track_with(strip="nope"),
            r"leds\.tracks\[1\]\.strip must name a strip \('board'\), got 'nope'",
            id="no-such-strip",
        ),
        pytest.param(
            track_with(segments=[{"first": 121, "count": 121}]),
            r"leds\.tracks\[1\] has segments and first, length: give one or the other",
            id="segments-and-first",
        ),
        pytest.param(
            track_with(laps=3),
            r"leds\.tracks\[1\]\.laps must be 1 or 2, got 3",
            id="laps",
        ),
        pytest.param(
            leds_with(brightness=2),
            r"config: leds\.brightness must be a number from 0 to 1, got 2",
            id="brightness",
        ),
        pytest.param(
            leds_with(current_limit_ma=200),
            r"leds\.current_limit_ma must be above the LEDs' idle draw of 242 mA, got 200",
            id="limit-below-idle",
        ),
        pytest.param(
            leds_with(strips=[{"name": "board", "kind": "neopixel", "count": 242}]),
            r"leds\.strips\[0\]\.kind must be 'ws281x', 'spi-ws2812', 'apa102' or 'sim', "
            r"got 'neopixel'$",
            id="kind",
        ),
        pytest.param(
            leds_with(strips=[{"name": "board", "kind": "sim"}]),
            r"leds\.strips\[0\]\.count is required",
            id="count-missing",
        ),
        pytest.param(
            leds_with(strips=[{"name": "board", "kind": "sim", "count": 242, "order": "RGX"}]),
            r"leds\.strips\[0\]\.order must be a channel order like 'GRB', got 'RGX'",
            id="order",
        ),
        pytest.param(
            {"leds": {"strips": [{"name": "board", "kind": "sim", "count": 242}]}},
            r"leds\.tracks is required when leds\.strips is given",
            id="strips-without-tracks",
        ),
        pytest.param(
            leds_with(tracks=[]),
            r"leds\.tracks must be a non-empty list of tables, got \[\]",
            id="no-tracks",
        ),
        pytest.param(
            track_with(colr=[1, 2, 3], lenght=121),
            r"leds\.tracks\[1\]\.colr is not a known key \(did you mean 'color'\?\)$",
            id="typo-first-of-two",
        ),
        pytest.param(
            track_with(shape="snake"),
            r"leds\.tracks\[1\]\.shape is not a known key \(expected one of strip, first, "
            r"direction, length, segments, start_led, laps, color, lap2_color\)$",
            id="unknown-key-lists-the-keys",
        ),
        pytest.param(
            leds_with(
                tracks=[
                    {"first": 0, "length": 121},
                    {"segments": [{"first": 121, "count": 121, "dir": -1}]},
                ]
            ),
            r"leds\.tracks\[1\]\.segments\[0\]\.dir is not a known key \(expected one of "
            r"first, count, direction\)$",
            id="segment-key",
        ),
        pytest.param(
            leds_with(
                strips=[{"name": "board", "kind": "apa102", "count": 242, "global_brightness": 32}]
            ),
            r"leds\.strips\[0\]\.global_brightness must be a whole number from 0 to 31, got 32$",
            id="global-brightness",
        ),
        pytest.param(
            leds_with(
                tracks=[
                    {"first": 0, "length": 80},
                    {"first": 80, "length": 80},
                    {"first": 160, "length": 80},
                    {"first": 240, "length": 2},
                ]
            ),
            r"leds\.tracks\[3\]\.color is required beyond the third side$",
            id="fourth-colour",
        ),
        pytest.param(
            leds_with(colors={"dealr": [1, 2, 3]}),
            r"config: leds\.colors\.dealr is not a known key \(did you mean 'dealer'\?\)$",
            id="mark-typo",
        ),
        pytest.param(
            {"leds": "bright"},
            r"config: leds must be a table, got 'bright'",
            id="not-a-table",
        ),
    ],
)
def test_bad_configs_name_the_key_and_the_value(config: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_leds(config)
