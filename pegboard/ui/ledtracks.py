"""LED peg tracks: the layout, the frames, the peg animation and the current limit.

Pure functions of plain values: ``track_state`` maps a game view onto a ``TrackState``,
``render_tracks`` and ``animate_peg`` make frames of it (strip name -> colours), and the
controller's ``TrackAnimator`` turns two views into timed ``LedStep`` values (a peg's travel, an
undo, a win's flash), which the controller hands each strip at its own pace. Nothing here
sleeps or reads a clock.

Theory of operation
-------------------
*A track* is the row of LEDs that shows one side's pegs. It lives on a strip as one or more
*segments* (first LED, count, direction), so a strip snaked up one side of the board and back
down the other, or across several rows, is still one straight track from the start. The track's
LEDs are, in order: an optional *start LED* (hole 0, where pegs sit before the first score),
then the holes. A track shows ``laps`` laps: with one lap, holes 1..target are spread evenly over
the LEDs (121 LEDs on a 121-point board is one LED per hole; other lengths map proportionally);
with two laps (English boards: 60 holes a lap, twice round) each lap uses the same LEDs, the
second lap in the track's ``lap2_color``, and an odd LED count keeps the last LED for the game
hole.

*A frame* lights, from faint to bright (a brighter item covers a fainter one on the same LED):
street marks at every 30th hole, the double-skunk line (on hole 60: a side must pass it) and the
lurch line (hole 90), the dealer's mark (the dealer's game-hole LED glows warm white, since no
peg stands there before the game is won), the rear peg (the side's colour at a quarter) and the
front peg (full colour). When a side has won, odd ``phase`` numbers light the winner's whole track.

*Brightness and current.* Colours are scaled by ``brightness`` (a faint mark never rounds down to
off), then the whole frame is scaled down if its estimated current exceeds ``current_limit_ma``.
The estimate is linear, per strip: ``idle_ma`` for every LED (the driver chip, even when black)
plus ``ma_per_channel`` × value / 255 for each of red, green and blue. WS2812B and APA102 draw
about 20 mA per channel at full and roughly 1 mA idle; both figures are per-strip settings.

The layout comes from the config's ``[leds]`` tables (``pegboard.config.leds``), which also
give the wiring the strips to open: the tracks know each strip only by its name, its LED count
and its current draw (``StripLayout``), never by the adapter that drives it.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from pegboard.devices.ports import Color
from pegboard.engine.game import Phase
from pegboard.engine.view import GameView
from pegboard.errors import ConfigError, quote

__all__ = [
    "BLACK",
    "DEFAULT_SIDE_COLORS",
    "FLASH_HOLD",
    "FLASH_SECONDS",
    "FRAME_SECONDS",
    "PEG_FRAMES",
    "Frame",
    "LedFrame",
    "LedLayout",
    "LedStep",
    "MarkColors",
    "Segment",
    "SidePegs",
    "StripLayout",
    "TrackAnimator",
    "TrackLayout",
    "TrackState",
    "animate_peg",
    "estimate_current_ma",
    "hole_led",
    "lap2_shade",
    "limit_current",
    "render_ansi",
    "render_tracks",
    "track_state",
    "worst_case_current_ma",
]

Frame = dict[str, tuple[Color, ...]]
"""One frame for every strip: strip name -> one colour per LED, in the strip's order."""

BLACK: Color = (0, 0, 0)
REAR_SHARE = 0.25  # the rear peg glows at a quarter of the side's colour
FLASH_SHARE = 1 / 3  # a winner's whole track, on flash frames
WIN_FLASHES = 3  # flashes appended to the animation that wins the game
STREET = 30  # a street is 30 holes
DEFAULT_SIDE_COLORS: tuple[Color, ...] = ((255, 0, 0), (0, 64, 255), (0, 255, 32))


# -- the input value --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SidePegs:
    """One side's pegs: the front peg (latest score) and the rear peg (the score before).

    Hole 0 is the start. Scores past the target (at peg-out) show in the game hole.
    """

    front: int
    rear: int = 0
    is_dealer: bool = False


@dataclass(frozen=True, slots=True)
class TrackState:
    """What the tracks show: every side's pegs and the board's lines.

    ``lurch_line`` and ``double_skunk_line`` are the holes after which the lines sit (90 and
    60 on a 121 board), or None for no line. ``winner`` is a side index or None.

    Raises:
        ValueError: a negative score, a line off the board, or no such winner.
    """

    sides: tuple[SidePegs, ...]
    target: int = 121
    lurch_line: int | None = 90
    double_skunk_line: int | None = 60
    winner: int | None = None

    def __post_init__(self) -> None:
        if not self.sides:
            raise ValueError("a track state needs at least one side")
        if self.target < 3:
            raise ValueError(f"target must be at least 3, got {self.target!r}")
        for index, side in enumerate(self.sides):
            if side.front < 0 or side.rear < 0:
                raise ValueError(f"side {index} has a peg below 0: {side!r}")
        for name, line in (
            ("lurch_line", self.lurch_line),
            ("double_skunk_line", self.double_skunk_line),
        ):
            if line is not None and not 0 < line < self.target:
                raise ValueError(f"{name} must be a hole from 1 to {self.target - 1}, got {line!r}")
        if self.winner is not None and not 0 <= self.winner < len(self.sides):
            raise ValueError(
                f"winner must be a side from 0 to {len(self.sides) - 1}, got {self.winner!r}"
            )


# -- the layout -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class MarkColors:
    """The faint marks, before brightness: streets, the two lines and the dealer."""

    street: Color = (24, 24, 24)
    double_skunk: Color = (48, 0, 40)
    lurch: Color = (64, 24, 0)
    dealer: Color = (72, 56, 24)


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
        serves the board. Red and blue pegs, half brightness, 500 mA for the LEDs.
        """
        strip = StripLayout(name="board", count=244)
        tracks = (
            _track("board", (Segment(0, 122, 1),), DEFAULT_SIDE_COLORS[0], start_led=True),
            _track("board", (Segment(243, 122, -1),), DEFAULT_SIDE_COLORS[1], start_led=True),
        )
        return cls(strips=(strip,), tracks=tracks)


def lap2_shade(color: Color) -> Color:
    """The second lap's shade: halfway to white.

    >>> lap2_shade((255, 0, 0))
    (255, 127, 127)
    """
    red, green, blue = ((channel + 255) // 2 for channel in color)
    return (red, green, blue)


def _track(
    strip: str, segments: tuple[Segment, ...], color: Color, *, start_led: bool
) -> TrackLayout:
    return TrackLayout(strip, segments, color, lap2_shade(color), start_led=start_led)


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


# -- frames -----------------------------------------------------------------------------------


def _scaled(color: Color, share: float) -> Color:
    red, green, blue = (round(channel * share) for channel in color)
    return (red, green, blue)


def _dimmed(color: Color, brightness: float) -> Color:
    """Apply brightness; a channel that was on stays at least 1, so faint marks never vanish."""
    if brightness <= 0:
        return BLACK
    red, green, blue = (max(1, round(c * brightness)) if c else 0 for c in color)
    return (red, green, blue)


def _peg_color(track: TrackLayout, lap: int) -> Color:
    return track.lap2_color if lap else track.color


def _paint_track(
    cells: list[Color],
    track: TrackLayout,
    side: SidePegs,
    state: TrackState,
    marks: MarkColors,
    flash: bool,
) -> None:
    target = state.target

    def paint(hole: int, color: Color) -> None:
        spot = hole_led(track, hole, target)
        if spot is not None:
            cells[spot[0]] = color

    if flash:
        cells[:] = [_scaled(track.color, FLASH_SHARE)] * len(cells)
    else:
        for hole in range(STREET, target, STREET):
            paint(hole, marks.street)
        if state.double_skunk_line is not None:
            paint(state.double_skunk_line, marks.double_skunk)
        if state.lurch_line is not None:
            paint(state.lurch_line, marks.lurch)
        if side.is_dealer:
            paint(target, marks.dealer)
    rear = hole_led(track, side.rear, target)
    if rear is not None:
        cells[rear[0]] = _scaled(_peg_color(track, rear[1]), REAR_SHARE)
    front = hole_led(track, side.front, target)
    if front is not None:
        cells[front[0]] = _peg_color(track, front[1])


def _frame(state: TrackState, layout: LedLayout, phase: int) -> Frame:
    if len(state.sides) > len(layout.tracks):
        raise ValueError(
            f"{len(state.sides)} sides but the LED layout has {len(layout.tracks)} tracks"
        )
    raw = {strip.name: [BLACK] * strip.count for strip in layout.strips}
    for index, side in enumerate(state.sides):
        track = layout.tracks[index]
        cells = [BLACK] * track.length
        flash = state.winner == index and phase % 2 == 1
        _paint_track(cells, track, side, state, layout.marks, flash)
        pixels = raw[track.strip]
        for led, color in zip(track.strip_leds, cells, strict=True):
            pixels[led] = color
    brightness = layout.brightness
    frame = {name: tuple(_dimmed(c, brightness) for c in pixels) for name, pixels in raw.items()}
    return limit_current(frame, layout)


def render_tracks(state: TrackState, layout: LedLayout, phase: int = 0) -> Frame:
    """The colours of every strip for *state*, brightness and current limit applied.

    *phase* counts frames: when a side has won, odd phases light its whole track (pace them
    at about 3 a second for a flash).

    Raises:
        ValueError: more sides than the layout has tracks.
    """
    return _frame(state, layout, phase)


def _between(start: int, end: int, step: int, steps: int) -> int:
    return start + round((end - start) * step / steps)


def animate_peg(
    before: TrackState, after: TrackState, layout: LedLayout, frames: int = 12
) -> tuple[Frame, ...]:
    """The frames that take the tracks from *before* to *after*, the last showing *after*.

    A side that pegged (its new rear peg is its old front peg) sees its rear peg travel past
    the front peg to the new score over *frames* frames; an undo (the reverse step) runs the
    same travel backwards. Other changes (a new game, a corrected score) jump in one frame.
    When *after* wins the game, ``2 * WIN_FLASHES`` flash frames follow; carry on with
    ``render_tracks(after, layout, phase)`` to keep flashing.

    Raises:
        ValueError: *frames* below 1, or the two states have different sides.
    """
    if frames < 1:
        raise ValueError(f"an animation needs at least 1 frame, got {frames!r}")
    if len(before.sides) != len(after.sides):
        raise ValueError(f"cannot animate {len(before.sides)} sides into {len(after.sides)}")
    # per side: the peg's travel (from, to, the peg standing still, backwards?) or None
    travels: list[tuple[int, int, int, bool] | None] = []
    for old, new in zip(before.sides, after.sides, strict=True):
        if new.rear == old.front and new.front > old.front:
            travels.append((old.rear, new.front, old.front, False))  # a peg
        elif old.rear == new.front and old.front > new.front:
            travels.append((new.rear, old.front, new.front, True))  # an undo: that peg backwards
        else:
            travels.append(None)
    steps = frames if any(travels) else 1
    result: list[Frame] = []
    for step in range(1, steps):
        sides = tuple(
            SidePegs(
                _between(t[0], t[1], steps - step if t[3] else step, steps), t[2], new.is_dealer
            )
            if t
            else new
            for t, new in zip(travels, after.sides, strict=True)
        )
        moving = TrackState(sides, after.target, after.lurch_line, after.double_skunk_line, None)
        result.append(render_tracks(moving, layout))
    result.append(render_tracks(after, layout))
    if after.winner is not None and before.winner is None:
        result.extend(
            render_tracks(after, layout, phase) for phase in range(1, 2 * WIN_FLASHES + 1)
        )
    return tuple(result)


# -- current ----------------------------------------------------------------------------------


def estimate_current_ma(frame: Mapping[str, Sequence[Color]], layout: LedLayout) -> float:
    """The estimated current of *frame* in mA: idle draw plus each channel's share of full.

    Raises:
        KeyError: a strip in *frame* the layout does not have.
    """
    total = 0.0
    for name, pixels in frame.items():
        strip = layout.strip(name)
        channels = sum(sum(pixel) for pixel in pixels)
        total += len(pixels) * strip.idle_ma + channels * strip.ma_per_channel / 255
    return total


def limit_current(frame: Frame, layout: LedLayout) -> Frame:
    """*frame*, scaled down evenly if needed so its estimate stays within the current limit.

    Raises:
        KeyError: a strip in *frame* the layout does not have.
    """
    total = estimate_current_ma(frame, layout)
    if total <= layout.current_limit_ma:
        return frame
    idle = sum(len(pixels) * layout.strip(name).idle_ma for name, pixels in frame.items())
    share = (layout.current_limit_ma - idle) / (total - idle)
    # rounding down keeps the result under the limit
    return {
        name: tuple(
            (math.floor(r * share), math.floor(g * share), math.floor(b * share))
            for r, g, b in pixels
        )
        for name, pixels in frame.items()
    }


def worst_case_current_ma(layout: LedLayout, *, limited: bool = True) -> float:
    """The most current the layout's LEDs can draw, in mA.

    Unlimited, that is every LED of every strip white at the layout's brightness; limited
    (what ``render_tracks`` can ever ask for), the smaller of that and the current limit.
    """
    full = _dimmed((255, 255, 255), layout.brightness)[0]
    unlimited = sum(
        strip.count * (strip.idle_ma + 3 * full * strip.ma_per_channel / 255)
        for strip in layout.strips
    )
    return min(unlimited, layout.current_limit_ma) if limited else unlimited


# -- the terminal -----------------------------------------------------------------------------


def _screen_level(value: int) -> int:
    """An LED's drive level as a screen level: LEDs look brighter than their duty cycle."""
    return round(255 * math.pow(value / 255, 1 / 2.2))


def _ruler(track: TrackLayout, target: int) -> str:
    """Hole numbers over their LEDs: first-lap streets, then the game hole if there is room."""
    cells = [" "] * track.length
    for hole in [*range(STREET, target, STREET), target]:
        spot = hole_led(track, hole, target)
        text = str(hole)
        if spot is None or (spot[1] and hole != target) or spot[0] + 1 < len(text):
            continue  # hole numbers of the second lap would sit on the first lap's
        start = spot[0] + 1 - len(text)
        span = range(max(0, start - 1), min(track.length, spot[0] + 2))
        if all(cells[i] == " " for i in span):
            cells[start : spot[0] + 1] = list(text)
    return "".join(cells).rstrip()


def _cells(track: TrackLayout, pixels: Sequence[Color]) -> Iterator[str]:
    """One glyph per LED, with a colour escape only where the colour changes."""
    previous: tuple[int, ...] | None = None
    for led in track.strip_leds:
        color = pixels[led]
        shown: tuple[int, ...] = (
            _UNLIT if color == BLACK else tuple(_screen_level(c) for c in color)
        )
        escape = "" if shown == previous else "\x1b[38;2;{};{};{}m".format(*shown)
        previous = shown
        yield escape + ("·" if color == BLACK else "●")


_UNLIT = (48, 48, 48)


def render_ansi(strips: Mapping[str, Sequence[Color]], layout: LedLayout, target: int = 121) -> str:
    """The tracks for a terminal: a hole ruler, then one line per side in 24-bit colour.

    Lit LEDs are ``●`` in their colour (brightened the way the eye sees LEDs, so a faint mark
    stays visible), dark ones a grey ``·``. A ruler line names the street holes and the game hole.

    Raises:
        KeyError: a strip of the layout missing from *strips*.
    """
    lines: list[str] = []
    last_ruler = None
    for index, track in enumerate(layout.tracks):
        ruler = _ruler(track, target)
        if ruler != last_ruler:
            lines.append("   " + ruler)
            last_ruler = ruler
        lines.append(f"{index + 1:>2} " + "".join(_cells(track, strips[track.strip])) + "\x1b[0m")
    return "\n".join(lines)


# -- a game view on the tracks, and the peg animator -------------------------------------------

log = logging.getLogger(__name__)

PEG_FRAMES = 12
"""Frames of a peg's travel (the rear peg moving past the front peg to the new score)."""

FRAME_SECONDS = 0.035
"""Seconds per animation frame: 12 frames make a 0.42 s peg; a 244-LED WS2812 frame is 7.6 ms."""

FLASH_SECONDS = 3.0
"""How long a win flashes the winner's track (a key ends it sooner); then the track stays lit."""

FLASH_HOLD = 0.25
"""Seconds per flash phase (lit, then not): two flashes a second."""

LedFrame = Mapping[str, Sequence[Color]]
"""The colours for each LED strip, by the strip's name (a ``Frame`` is one)."""


@dataclass(frozen=True, slots=True)
class LedStep:
    """One step of an LED animation: the colours, and the seconds they stay before the next.

    The last step of an animation stays until the next change, so its *hold* is not used.
    """

    frame: LedFrame
    hold: float = 0.0


def track_state(view: GameView) -> TrackState:
    """The LED tracks' input for *view*: pegs, dealer, lines (after holes 90 and 60) and winner.

    >>> from pegboard.engine.game import GameState
    >>> from pegboard.engine.rules import Rules
    >>> from pegboard.engine.view import render_view
    >>> t = track_state(render_view(GameState.new(Rules.six_card())))
    >>> t.target, t.lurch_line, t.double_skunk_line, [s.front for s in t.sides]
    (121, 90, 60, [0, 0])
    """

    def line(rule_line: int | None) -> int | None:
        # Rules: "a loser below 91 is lurched"; the tracks: "the line sits after hole 90"
        if rule_line is None or not 1 < rule_line <= view.target:
            return None
        return rule_line - 1

    sides = tuple(
        SidePegs(front=s.front, rear=min(s.rear, s.front), is_dealer=s.is_dealer)
        for s in view.sides
    )
    winner = view.winner if view.phase in (Phase.GAME_OVER, Phase.MATCH_OVER) else None
    return TrackState(
        sides, view.target, line(view.lurch_line), line(view.double_skunk_line), winner
    )


class TrackAnimator:
    """The controller's LED animator for the peg tracks of *layout*: game views in, steps out.

    A peg moves like a real one: the rear peg travels past the front peg to the new score in
    *frames* frames of *frame_seconds* (``PEG_FRAMES`` of ``FRAME_SECONDS``); an undo runs the
    travel backwards; a win then flashes the winner's track for *flash_seconds* (phases of
    *flash_hold* seconds) and leaves it lit. Other changes (a new game or match) jump in one
    step. The animator only says how long each step stays; the controller shows each one when
    its time comes, by its own clock.

    A game with more sides than the layout has tracks (a three-handed game chosen from the menu
    on a two-track board) lights the tracks there are (the sides without one are left out, and
    logged once), so no menu choice can crash the daemon.
    """

    def __init__(
        self,
        layout: LedLayout,
        *,
        frames: int = PEG_FRAMES,
        frame_seconds: float = FRAME_SECONDS,
        flash_seconds: float = FLASH_SECONDS,
        flash_hold: float = FLASH_HOLD,
    ) -> None:
        self._layout = layout
        self._frames = frames
        self._frame_seconds = frame_seconds
        self._flashes = max(0, round(flash_seconds / flash_hold)) if flash_hold > 0 else 0
        self._flash_hold = flash_hold
        self._warned: set[int] = set()

    @property
    def layout(self) -> LedLayout:
        """The LED layout the tracks are drawn on."""
        return self._layout

    def state(self, view: GameView) -> TrackState:
        """The tracks' input for *view*, cut to the tracks the layout has."""
        state = track_state(view)
        tracks = len(self._layout.tracks)
        if len(state.sides) <= tracks:
            return state
        if len(state.sides) not in self._warned:
            self._warned.add(len(state.sides))
            log.warning(
                "%d sides but the LED layout has %d tracks: sides %s are not shown on the LEDs",
                len(state.sides),
                tracks,
                ", ".join(str(i + 1) for i in range(tracks, len(state.sides))),
            )
        winner = state.winner if state.winner is not None and state.winner < tracks else None
        return replace(state, sides=state.sides[:tracks], winner=winner)

    def render(self, view: GameView) -> Frame:
        """The still frame for *view* (the winner's track lit, not flashing)."""
        return render_tracks(self.state(view), self._layout)

    def animate(self, before: GameView | None, after: GameView) -> tuple[LedStep, ...]:
        """The steps from *before*'s tracks to *after*'s; the last is *after*'s still frame."""
        new = self.state(after)
        if before is None:
            return (LedStep(render_tracks(new, self._layout)),)
        old = self.state(before)
        if len(old.sides) != len(new.sides):  # a new match of another variant
            return (LedStep(render_tracks(new, self._layout)),)
        # the peg's travel without animate_peg's own flash: the flash is paced here
        frames = animate_peg(old, replace(new, winner=None), self._layout, self._frames)
        steps = [LedStep(frame, self._frame_seconds) for frame in frames]
        if new.winner is not None and old.winner is None and self._flashes:
            lit = render_tracks(new, self._layout, 1)
            still = frames[-1]
            steps[-1] = LedStep(still, self._flash_hold)
            steps += [
                LedStep(lit if phase % 2 else still, self._flash_hold)
                for phase in range(1, self._flashes + 1)
            ]
            steps.append(LedStep(still))
        return tuple(steps)
