"""The ``[leds]`` tables: the strips the wiring opens, and the layout the tracks are drawn on.

One table describes both. ``parse_leds`` reads it into a ``LedsConfig``: ``strips`` holds a
``StripSpec`` per strip (what ``pegboard.devices.leds.open_strip`` needs: the kind, its pins or
SPI bus, the channel order), and ``layout`` the ``LedLayout`` that ``pegboard.ui.ledtracks``
renders (each strip's name, LED count and current draw, the tracks, the mark colours, the
brightness and the current limit). So the renderer knows nothing of the LED adapters, and the
wiring nothing of the tracks.

Config (TOML)::

    [leds]
    brightness = 0.5            # 0..1, applied to every colour; dimmer is closer: below 0.45
                                # the default colours fall under 30 apart for some eyes
                                # (pegboard selftest warns, naming the pair)
    current_limit_ma = 500      # for all strips together
    [[leds.strips]]
    name = "board"
    kind = "spi-ws2812"         # ws281x | spi-ws2812 | apa102 | sim
    count = 244
    [[leds.tracks]]             # one per side, in side order
    strip = "board"
    first = 0
    direction = 1               # or -1: the track runs down the strip
    length = 122
    start_led = true
    color = [255, 0, 0]         # or "#ff0000"
    lap2_color = [255, 0, 0]    # two-lap tracks: the second lap's colour (default: color; a
                                # peg in its second lap lights two LEDs either way)

Without a ``[leds]`` table: one WS2812 strip on SPI, snaked under a 122-LED track per side
(``LedsConfig.default()`` for two sides).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pegboard.config.fields import REQUIRED, Fields
from pegboard.devices.leds import StripKind, StripSpec
from pegboard.errors import ConfigError
from pegboard.frozen import frozen
from pegboard.ui.ledtracks import (
    BLACK,
    DEFAULT_SIDE_COLORS,
    LedLayout,
    MarkColors,
    Segment,
    StripLayout,
    TrackLayout,
)

__all__ = ["MAX_STRIP_LEDS", "LedsConfig", "parse_leds"]

MAX_STRIP_LEDS = 10_000
"""The most LEDs a strip or track may have: far past any board, and small enough that a
mistyped count is refused before the daemon builds a frame for it."""


@frozen
class LedsConfig:
    """``[leds]``: the strips to open (``strips``) and the tracks drawn on them (``layout``).

    Raises:
        ConfigError: the two name different strips or LED counts (a parsed config never does).
    """

    strips: tuple[StripSpec, ...]
    layout: LedLayout

    def __post_init__(self) -> None:
        opened = [(spec.name, spec.count) for spec in self.strips]
        drawn = [(strip.name, strip.count) for strip in self.layout.strips]
        if opened != drawn:
            raise ConfigError(
                f"LED strips {opened!r} do not match the layout's strips {drawn!r}"
                " (expected the same names and LED counts)"
            )

    @classmethod
    def default(cls) -> LedsConfig:
        """``LedLayout.default()`` on one 244-LED WS2812 strip driven over SPI (any Pi, no root)."""
        layout = LedLayout.default()
        (strip,) = layout.strips
        return cls((StripSpec(strip.name, StripKind.SPI_WS2812, strip.count),), layout)


_LEDS_KEYS = ("brightness", "current_limit_ma", "strips", "tracks", "colors")
_STRIP_KEYS = (
    "name", "kind", "count", "order", "pin", "dma", "channel", "freq_hz", "invert", "bus",
    "device", "spi_hz", "global_brightness", "ma_per_channel", "idle_ma",
)  # fmt: skip
_TRACK_KEYS = (
    "strip", "first", "direction", "length", "segments", "start_led", "laps", "color",
    "lap2_color",
)  # fmt: skip
_SEGMENT_KEYS = ("first", "count", "direction")
_MARK_KEYS = ("street", "double_skunk", "lurch", "dealer")


def parse_leds(config: Mapping[str, Any], *, sides: int = 2) -> LedsConfig:
    """The strips and the LED layout from a whole config mapping (as ``tomllib`` reads it).

    Without a ``leds`` table: one strip snaked under a 122-LED track for each of *sides* sides
    (two sides: ``LedsConfig.default()``). Keys missing from the table take
    ``LedsConfig.default()``'s values; tracks must be given whenever strips are.

    >>> parse_leds({}) == LedsConfig.default()
    True
    >>> len(parse_leds({}, sides=3).layout.tracks)
    3

    Raises:
        ConfigError: a key that is unknown, missing or has a bad value, naming it, e.g.
            ``config: leds.tracks[1].first must be a whole number from 0 to 10000, got 'x'``.
    """
    if "leds" not in config:
        config = _default_leds(sides)
    leds = Fields(config).sub("leds")
    leds.known(_LEDS_KEYS)
    default = LedsConfig.default()
    if "strips" in leds:
        parsed = [_parse_strip(f) for f in leds.subs("strips")]
        specs = tuple(spec for spec, _ in parsed)
        strips = tuple(strip for _, strip in parsed)
        if "tracks" not in leds:
            raise ConfigError(
                "config: leds.tracks is required when leds.strips is given (one track per side)"
            )
    else:
        specs, strips = default.strips, default.layout.strips
    if "tracks" in leds:
        tracks = tuple(_parse_track(f, i, strips) for i, f in enumerate(leds.subs("tracks")))
    else:
        tracks = default.layout.tracks
    layout = LedLayout(
        strips=strips,
        tracks=tracks,
        marks=_parse_marks(leds.sub("colors")),
        brightness=leds.number("brightness", default.layout.brightness, low=0, high=1),
        current_limit_ma=leds.number(
            "current_limit_ma", default.layout.current_limit_ma, low=1, high=100_000
        ),
    )
    return LedsConfig(specs, layout)


def _default_leds(sides: int) -> dict[str, Any]:
    """The ``[leds]`` table of one WS2812 strip snaked under one 122-LED track per side.

    Two sides is ``LedsConfig.default()`` exactly; a third side continues the snake.
    """
    tracks = [
        {"first": i * 122 if i % 2 == 0 else i * 122 + 121, "length": 122,
         "direction": 1 if i % 2 == 0 else -1, "start_led": True}
        for i in range(max(sides, 2))
    ]  # fmt: skip
    strip = {"name": "board", "kind": "spi-ws2812", "count": 122 * len(tracks)}
    return {"leds": {"strips": [strip], "tracks": tracks}}


def _parse_strip(f: Fields) -> tuple[StripSpec, StripLayout]:
    """One ``[[leds.strips]]`` table: how to open the strip, and what the renderer needs."""
    f.known(_STRIP_KEYS)
    name = f.string("name", REQUIRED)
    kind = f.member("kind", StripKind, REQUIRED)
    order = f.table.get("order", "")
    if not isinstance(order, str) or (order and sorted(order.upper()) != ["B", "G", "R"]):
        raise f.error("order", "a channel order like 'GRB'", order)
    count = f.whole("count", REQUIRED, low=1, high=MAX_STRIP_LEDS)
    spec = StripSpec(
        name=name,
        kind=kind,
        count=count,
        order=order.upper(),
        pin=f.pin("pin", 18),
        dma=f.whole("dma", 10, low=0, high=14),
        channel=f.choice("channel", 0, (0, 1)),
        freq_hz=f.whole("freq_hz", 800_000, low=1, high=10_000_000),
        invert=f.flag("invert", False),
        bus=f.whole("bus", 0, low=0, high=6),  # a Pi 4 has SPI0..SPI6
        device=f.whole("device", 0, low=0, high=9),
        spi_hz=f.whole("spi_hz", 4_000_000, low=1, high=125_000_000),
        global_brightness=f.whole("global_brightness", 31, low=0, high=31),
    )
    strip = StripLayout(
        name=name,
        count=count,
        ma_per_channel=f.number("ma_per_channel", 20.0, low=0, high=1000),
        idle_ma=f.number("idle_ma", 1.0, low=0, high=1000),
    )
    return spec, strip


def _parse_segment(f: Fields, *, count: str) -> Segment:
    """A straight run of LEDs: ``first``, the *count* key (``count``, or a track's ``length``)
    and ``direction``."""
    return Segment(
        f.whole("first", REQUIRED, low=0, high=MAX_STRIP_LEDS),
        f.whole(count, REQUIRED, low=1, high=MAX_STRIP_LEDS),
        f.choice("direction", 1, (1, -1)),
    )


def _parse_track(f: Fields, index: int, strips: Sequence[StripLayout]) -> TrackLayout:
    """One ``[[leds.tracks]]`` table: side *index*'s track."""
    f.known(_TRACK_KEYS)
    # with one strip, tracks need not name it
    one = len(strips) == 1 and "strip" not in f
    strip = strips[0].name if one else f.string("strip", REQUIRED)
    if "segments" in f:
        clash = [key for key in ("first", "length", "direction") if key in f]
        if clash:
            raise ConfigError(
                f"config: {f.path} has segments and {', '.join(clash)}: give one or the other"
            )
        segments = []
        for item in f.subs("segments"):
            item.known(_SEGMENT_KEYS)
            segments.append(_parse_segment(item, count="count"))
    else:
        segments = [_parse_segment(f, count="length")]
    start_led = f.flag("start_led", False)
    holes = sum(segment.count for segment in segments) - (1 if start_led else 0)
    if holes < 1:
        raise ConfigError(f"config: {f.path} has no LEDs left for holes after its start LED")
    laps = f.choice("laps", 2 if holes in (60, 61) else 1, (1, 2))
    default_color = DEFAULT_SIDE_COLORS[index] if index < len(DEFAULT_SIDE_COLORS) else None
    if default_color is None and "color" not in f:
        raise ConfigError(f"config: {f.name('color')} is required beyond the third side")
    color = f.color("color", default_color or BLACK)
    # the second lap is told by a second LED (ledlayout.peg_leds): by default in the same colour
    lap2 = f.color("lap2_color", color)
    return TrackLayout(strip, tuple(segments), color, lap2, start_led=start_led, laps=laps)


def _parse_marks(f: Fields) -> MarkColors:
    """``[leds.colors]``: the faint marks' colours."""
    f.known(_MARK_KEYS)
    base = MarkColors()
    return MarkColors(
        street=f.color("street", base.street),
        double_skunk=f.color("double_skunk", base.double_skunk),
        lurch=f.color("lurch", base.lurch),
        dealer=f.color("dealer", base.dealer),
    )
