"""LED peg tracks: where they lie on the strips, and which LED shows which hole.

The layout values (``LedLayout`` of ``StripLayout`` and ``TrackLayout`` values, ``MarkColors``)
and ``hole_led``, the one mapping from a hole to an LED. ``ledtracks`` draws frames on them
(and names all of these too, as it always has).

*A track* is the row of LEDs that shows one side's pegs. It lives on a strip as one or more
*segments* (first LED, count, direction), so a strip snaked up one side of the board and back
down the other, or across several rows, is still one straight track from the start. The track's
LEDs are, in order: an optional *start LED* (hole 0, where pegs sit before the first score),
then the holes. A track shows ``laps`` laps: with one lap, holes 1..target are spread evenly over
the LEDs (121 LEDs on a 121-point board is one LED per hole; other lengths map proportionally);
with two laps (English boards: 60 holes a lap, twice round) each lap uses the same LEDs, a
peg in the second lap lighting a second LED beside its hole (``peg_leds``) in the track's
``lap2_color`` (by default its own colour), and an odd LED count keeps the last LED for the
game hole.

The layout comes from the config's ``[leds]`` tables (``pegboard.config.leds``), which also
give the wiring the strips to open: the tracks know each strip only by its name, its LED count
and its current draw (``StripLayout``), never by the adapter that drives it.
"""

from __future__ import annotations

from dataclasses import field
from functools import lru_cache

from pegboard.devices.ports import Color
from pegboard.errors import ConfigError, quote
from pegboard.frozen import frozen

__all__ = [
    "DEFAULT_SIDE_COLORS",
    "LedLayout",
    "MarkColors",
    "Segment",
    "StripLayout",
    "TrackLayout",
    "hole_led",
    "lap2_shade",
    "peg_leds",
]

DEFAULT_SIDE_COLORS: tuple[Color, ...] = ((69, 255, 255), (255, 255, 1), (157, 15, 255))
"""Sky (a light cyan), gold (yellow) and lilac (violet), ``engine.rules.DEFAULT_NAMES``, chosen
with the marks (``MarkColors``) so that every pair that can stand side by side
(``pegboard.ui.legibility``) is at least 30 apart in CAM02-UCS for normal vision and simulated
deuteranopia, protanopia and tritanopia at the default brightness, on one-lap and two-lap
tracks alike (a second lap shows in the side's own colour, told by a second LED:
``peg_leds``). ``tools/colour_search.py`` found the marks for these sides.
Red beside green, the old default, was 22 apart for a deuteranope."""


# -- the layout -------------------------------------------------------------------------------


@frozen
class Segment:
    """A straight run of a track on its strip: ``count`` LEDs from ``first`` by ``direction``."""

    first: int
    count: int
    direction: int = 1

    def __post_init__(self) -> None:
        if self.first < 0 or self.count < 1 or self.direction not in (1, -1):
            raise ConfigError(
                f"bad LED segment: {self!r} (expected first >= 0, count >= 1, direction 1 or -1)"
            )

    @property
    def leds(self) -> range:
        """The strip indexes of the segment, in track order."""
        return range(self.first, self.first + self.direction * self.count, self.direction)


@frozen
class TrackLayout:
    """Where one side's track lies and how it looks.

    Raises:
        ConfigError: no hole LEDs, or two laps on fewer than two.
    """

    strip: str
    segments: tuple[Segment, ...]
    color: Color
    lap2_color: Color
    start_led: bool = False
    laps: int = 1

    def __post_init__(self) -> None:
        if self.holes < 1:
            raise ConfigError(f"track on strip {quote(self.strip)} has no LEDs for holes")
        if self.laps not in (1, 2) or self.holes < self.laps:
            raise ConfigError(
                f"track on strip {quote(self.strip)}: laps must be 1 or 2 with an LED per lap,"
                f" got {self.laps!r}"
            )

    @property
    def length(self) -> int:
        """All LEDs of the track, the start LED included."""
        return sum(segment.count for segment in self.segments)

    @property
    def holes(self) -> int:
        """The LEDs that show holes."""
        return self.length - (1 if self.start_led else 0)

    @property
    def strip_leds(self) -> tuple[int, ...]:
        """The strip index of every track LED, from the start."""
        return _strip_leds(self.segments)


@lru_cache(maxsize=64)
def _strip_leds(segments: tuple[Segment, ...]) -> tuple[int, ...]:
    return tuple(led for segment in segments for led in segment.leds)


@frozen
class MarkColors:
    """The faint marks, before brightness: streets, the two lines and the dealer.

    The defaults: faint dark red streets, both lines faint dark blue (a line is told by its
    hole) and a faint pale green dealer's mark, as ``tools/colour_search.py`` found them.
    """

    street: Color = (12, 0, 0)
    double_skunk: Color = (0, 0, 32)
    lurch: Color = (0, 0, 32)
    dealer: Color = (32, 64, 44)


@frozen
class StripLayout:
    """A strip as the tracks see it: its name, its LEDs and the current they draw.

    ``ma_per_channel`` is one channel at full (255), ``idle_ma`` an LED showing black (its
    driver chip); WS2812B and APA102 draw about 20 and 1 mA.

    Raises:
        ConfigError: no LEDs, or a negative current.
    """

    name: str
    count: int
    ma_per_channel: float = 20.0
    idle_ma: float = 1.0

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ConfigError(
                f"LED strip {quote(self.name)} needs at least 1 LED, got {self.count!r}"
            )
        if self.ma_per_channel < 0 or self.idle_ma < 0:
            raise ConfigError(
                f"LED strip {quote(self.name)}: currents must be >= 0 mA, got "
                f"{self.ma_per_channel!r} per channel and {self.idle_ma!r} idle"
            )


@frozen
class LedLayout:
    """Every strip, one track per side, the mark colours, brightness and the current limit.

    Raises:
        ConfigError: tracks that miss their strip, leave it, or share an LED; a brightness
            outside 0..1; a current limit at or below the LEDs' idle draw.
    """

    strips: tuple[StripLayout, ...]
    tracks: tuple[TrackLayout, ...]
    marks: MarkColors = field(default_factory=MarkColors)
    brightness: float = 0.5
    current_limit_ma: float = 500.0

    def __post_init__(self) -> None:
        names = [strip.name for strip in self.strips]
        for name in names:
            if names.count(name) > 1:
                raise ConfigError(f"config: leds.strips has two strips named {quote(name)}")
        if not self.tracks:
            raise ConfigError("config: leds.tracks needs one track per side, got none")
        owner: dict[tuple[str, int], int] = {}
        for index, track in enumerate(self.tracks):
            where = f"config: leds.tracks[{index}]"
            if track.strip not in names:
                raise ConfigError(
                    f"{where}.strip must name a strip ({', '.join(map(quote, names))}),"
                    f" got {quote(track.strip)}"
                )
            count = self.strip(track.strip).count
            for led in track.strip_leds:
                if not 0 <= led < count:
                    raise ConfigError(
                        f"{where} runs off strip {quote(track.strip)}: LED {led}"
                        f" (the strip has {count} LEDs, 0..{count - 1})"
                    )
                other = owner.setdefault((track.strip, led), index)
                if other != index:
                    raise ConfigError(
                        f"{where} shares LED {led} of strip {quote(track.strip)}"
                        f" with leds.tracks[{other}]"
                    )
        if not 0 <= self.brightness <= 1:
            raise ConfigError(
                f"config: leds.brightness must be a number from 0 to 1, got {self.brightness!r}"
            )
        idle = sum(strip.count * strip.idle_ma for strip in self.strips)
        if self.current_limit_ma <= idle:
            raise ConfigError(
                f"config: leds.current_limit_ma must be above the LEDs' idle draw of {idle:g} mA,"
                f" got {self.current_limit_ma!r}"
            )

    def strip(self, name: str) -> StripLayout:
        """The strip called *name*.

        Raises:
            KeyError: no such strip.
        """
        for strip in self.strips:
            if strip.name == name:
                return strip
        raise KeyError(name)

    @classmethod
    def default(cls) -> LedLayout:
        """Two sides on one 244-LED strip (WS2812 driven over SPI: ``LedsConfig.default()``).

        The strip runs up side 0's track (LED 0 its start hole, LEDs 1-121 holes 1-121) and
        back down side 1's (LED 243 its start hole, LED 122 its game hole), so one data wire
        serves the board. Sky and gold pegs, half brightness, 500 mA for the LEDs.
        """
        strip = StripLayout(name="board", count=244)
        tracks = (
            _track("board", (Segment(0, 122, 1),), 0, start_led=True),
            _track("board", (Segment(243, 122, -1),), 1, start_led=True),
        )
        return cls(strips=(strip,), tracks=tracks)


def lap2_shade(color: Color) -> Color:
    """The second lap's shade: halfway to white.

    >>> lap2_shade((255, 0, 0))
    (255, 127, 127)
    """
    red, green, blue = ((channel + 255) // 2 for channel in color)
    return (red, green, blue)


def _track(strip: str, segments: tuple[Segment, ...], side: int, *, start_led: bool) -> TrackLayout:
    color = DEFAULT_SIDE_COLORS[side]
    return TrackLayout(strip, segments, color, color, start_led=start_led)


# -- holes to LEDs ----------------------------------------------------------------------------


def hole_led(track: TrackLayout, hole: int, target: int = 121) -> tuple[int, int] | None:
    """Which LED of *track* (0 = its first) shows *hole*, and on which lap (0 or 1).

    Hole 0 is the start LED (None without one); scores past *target* show in the game hole.

    >>> t = TrackLayout("s", (Segment(0, 121),), (255, 0, 0), (255, 128, 128))
    >>> hole_led(t, 1), hole_led(t, 121), hole_led(t, 130), hole_led(t, 0)
    ((0, 0), (120, 0), (120, 0), None)
    >>> two = TrackLayout("s", (Segment(0, 61),), (255, 0, 0), (255, 128, 128), laps=2)
    >>> hole_led(two, 60), hole_led(two, 61), hole_led(two, 121)
    ((59, 0), (0, 1), (60, 1))
    """
    offset = 1 if track.start_led else 0
    hole = min(hole, target)
    if hole <= 0:
        return (0, 0) if track.start_led else None
    holes = track.holes
    if track.laps == 1:
        return offset + _spread(hole - 1, target, holes), 0
    lap_holes = (target - 1) // 2  # 60 holes a lap on a 121 board, 30 for 61
    lap_leds = (
        holes - 1 if holes % 2 else holes
    )  # an odd count keeps the last LED for the game hole
    if hole > 2 * lap_holes:
        return offset + holes - 1, 1
    lap, within = divmod(hole - 1, lap_holes)
    return offset + _spread(within, lap_holes, lap_leds), lap


def _spread(index: int, count: int, leds: int) -> int:
    """Place item *index* of *count* on *leds* LEDs evenly, first on first and last on last."""
    if count <= 1 or leds <= 1:
        return 0
    # round half up, in integers: index * (leds - 1) / (count - 1) + 1/2
    return (2 * index * (leds - 1) + count - 1) // (2 * (count - 1))


def peg_leds(
    track: TrackLayout, hole: int, target: int = 121, *, second: bool = True
) -> tuple[tuple[int, int], ...]:
    """The LEDs (track LED, lap) that show a peg in *hole*: ``hole_led``'s, and in the second
    lap of a two-lap track a *second* LED beside it (the next toward the game hole; on the
    lap's last LED, the one before), so the lap is told without a colour of its own. The game
    hole is one LED.

    >>> two = TrackLayout("s", (Segment(0, 61),), (255, 0, 0), (255, 0, 0), laps=2)
    >>> peg_leds(two, 10), peg_leds(two, 70), peg_leds(two, 120), peg_leds(two, 121)
    (((9, 0),), ((9, 1), (10, 1)), ((59, 1), (58, 1)), ((60, 1),))
    """
    spot = hole_led(track, hole, target)
    if spot is None:
        return ()
    led, lap = spot
    if not second or not lap or min(hole, target) > 2 * ((target - 1) // 2):
        return (spot,)
    offset = 1 if track.start_led else 0
    last = offset + (track.holes - 1 if track.holes % 2 else track.holes) - 1
    return (spot, (led + 1 if led < last else led - 1, lap))
