"""LED peg tracks: the frames, the peg animation and the current limit.

Pure functions of plain values: ``track_state`` maps a game view onto a ``TrackState``,
``render_tracks`` and ``animate_peg`` make frames of it (strip name -> colours), and the
controller's ``TrackAnimator`` turns two views into timed ``LedStep`` values (a peg's travel, an
undo, a win's flash), which the controller hands each strip at its own pace. Nothing here
sleeps or reads a clock. The layout the frames are drawn on, and which LED shows which hole,
are ``ledlayout``'s (named here too).

Theory of operation
-------------------
*A frame* lights, from faint to bright (a brighter item covers a fainter one on the same LED):
street marks at every 30th hole, the double-skunk line (on hole 60: a side must pass it) and the
lurch line (hole 90), the dealer's mark (the dealer's game-hole LED glows faintly, since no
peg stands there before the game is won), the rear peg and the front peg, both in the side's
colour as on a wooden board (the front peg is the one ahead). On a two-lap track a peg in its
second lap lights a second LED beside its hole (``ledlayout.peg_leds``): the lap is told by
that, not by a colour. When a side has won, odd ``phase`` numbers light the winner's whole track.

*Brightness and current.* Colours are scaled by ``brightness`` (a faint mark never rounds down to
off), then the whole frame is scaled down if its estimated current exceeds ``current_limit_ma``.
The estimate is linear, per strip: ``idle_ma`` for every LED (the driver chip, even when black)
plus ``ma_per_channel`` × value / 255 for each of red, green and blue. WS2812B and APA102 draw
about 20 mA per channel at full and roughly 1 mA idle; both figures are per-strip settings.

*Cost* (issue 11: a key's frame on a Pi Zero 2 W). A frame paints only the LEDs that are lit (a
few marks and pegs a track, or a whole track on a flash), over a strip that starts black, and
sums the current of those alone; what only the layout decides (each track's marks, a colour at
the layout's brightness) is worked out once and kept. The animator's steps carry frames that are
drawn the first time they are read, so a key shows its first step at once and the frames a
later key skips are never drawn.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from pegboard.devices.ports import Color
from pegboard.engine.game import Phase
from pegboard.engine.view import GameView
from pegboard.frozen import frozen
from pegboard.ui.ledlayout import (
    DEFAULT_SIDE_COLORS,
    LedLayout,
    MarkColors,
    Segment,
    StripLayout,
    TrackLayout,
    hole_led,
    lap2_shade,
    peg_leds,
)

__all__ = [
    "BLACK",
    "BLINK_OFF",
    "BLINK_ON",
    "BLINK_SIDE",
    "DEFAULT_SIDE_COLORS",
    "FLASH_HOLD",
    "FLASH_SECONDS",
    "FRAME_SECONDS",
    "PEG_FRAMES",
    "Frame",
    "LazyFrame",
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
FLASH_SHARE = 1 / 3  # a winner's whole track, on flash frames
WIN_FLASHES = 3  # flashes appended to the animation that wins the game
STREET = 30  # a street is 30 holes


# -- the input value --------------------------------------------------------------------------


@frozen
class SidePegs:
    """One side's pegs: the front peg (latest score) and the rear peg (the score before).

    Hole 0 is the start. Scores past the target (at peg-out) show in the game hole.
    """

    front: int
    rear: int = 0
    is_dealer: bool = False


@frozen
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


# -- frames -----------------------------------------------------------------------------------


def _scaled(color: Color, share: float) -> Color:
    red, green, blue = (round(channel * share) for channel in color)
    return (red, green, blue)


@lru_cache(maxsize=1024)
def _dimmed(color: Color, brightness: float) -> Color:
    """Apply brightness; a channel that was on stays at least 1, so faint marks never vanish.

    Kept: a layout has a handful of colours (marks, pegs, flashes), each dimmed once.
    """
    if brightness <= 0:
        return BLACK
    red, green, blue = (max(1, round(c * brightness)) if c else 0 for c in color)
    return (red, green, blue)


def _peg_color(track: TrackLayout, lap: int) -> Color:
    return track.lap2_color if lap else track.color


@lru_cache(maxsize=256)
def _marks(
    track: TrackLayout,
    target: int,
    double_skunk_line: int | None,
    lurch_line: int | None,
    marks: MarkColors,
    is_dealer: bool,
) -> tuple[tuple[int, Color], ...]:
    """The faint marks of *track* (track LED, colour), a later mark covering an earlier one.

    Kept: they change only with the layout, the board's lines and who deals.
    """
    cells: dict[int, Color] = {}

    def paint(hole: int, color: Color) -> None:
        spot = hole_led(track, hole, target)
        if spot is not None:
            cells[spot[0]] = color

    for hole in range(STREET, target, STREET):
        paint(hole, marks.street)
    if double_skunk_line is not None:
        paint(double_skunk_line, marks.double_skunk)
    if lurch_line is not None:
        paint(lurch_line, marks.lurch)
    if is_dealer:
        paint(target, marks.dealer)
    return tuple(cells.items())


def _track_cells(
    track: TrackLayout,
    side: SidePegs,
    state: TrackState,
    marks: MarkColors,
    flash: bool,
    front_peg: bool = True,
) -> dict[int, Color]:
    """The lit LEDs of one side's track (track LED -> colour, before brightness)."""
    target = state.target
    if flash:
        cells = dict.fromkeys(range(track.length), _scaled(track.color, FLASH_SHARE))
    else:
        cells = dict(
            _marks(track, target, state.double_skunk_line, state.lurch_line, marks, side.is_dealer)
        )
    front = peg_leds(track, side.front, target)
    hidden = () if front_peg else {led for led, _ in front}  # a blink's dark half: no peg there
    for led, lap in peg_leds(track, side.rear, target):
        if led not in hidden:
            cells[led] = _peg_color(track, lap)
    for led, lap in front if front_peg else ():
        cells[led] = _peg_color(track, lap)
    return cells


def _frame(state: TrackState, layout: LedLayout, phase: int, hidden: int | None = None) -> Frame:
    if len(state.sides) > len(layout.tracks):
        raise ValueError(
            f"{len(state.sides)} sides but the LED layout has {len(layout.tracks)} tracks"
        )
    brightness = layout.brightness
    lit: dict[str, dict[int, Color]] = {strip.name: {} for strip in layout.strips}
    for index, side in enumerate(state.sides):
        track = layout.tracks[index]
        flash = state.winner == index and phase % 2 == 1
        leds, on_strip = track.strip_leds, lit[track.strip]
        cells = _track_cells(track, side, state, layout.marks, flash, index != hidden)
        for cell, color in cells.items():
            on_strip[leds[cell]] = _dimmed(color, brightness)
    # the strips start black; only the lit LEDs are painted, and only they add to the current
    frame: Frame = {}
    total = 0.0
    for strip in layout.strips:
        pixels = [BLACK] * strip.count
        channels = 0
        for led, color in lit[strip.name].items():
            pixels[led] = color
            channels += color[0] + color[1] + color[2]
        frame[strip.name] = tuple(pixels)
        total += _strip_ma(strip, strip.count, channels)
    return frame if total <= layout.current_limit_ma else _scaled_down(frame, layout, total)


def render_tracks(
    state: TrackState, layout: LedLayout, phase: int = 0, *, hidden: int | None = None
) -> Frame:
    """The colours of every strip for *state*, brightness and current limit applied.

    *phase* counts frames: when a side has won, odd phases light its whole track (pace them
    at about 3 a second for a flash). Side *hidden*'s front peg is left out (a blink's dark
    half: its LEDs show the marks under the peg, not its rear peg if that shares one).

    Raises:
        ValueError: more sides than the layout has tracks.
    """
    return _frame(state, layout, phase, hidden)


def _between(start: int, end: int, step: int, steps: int) -> int:
    return start + round((end - start) * step / steps)


_Travel = tuple[int, int, int, bool] | None
"""A side's peg travel: from, to, the peg standing still, backwards (None: no travel)."""


def _travels(before: TrackState, after: TrackState) -> tuple[_Travel, ...]:
    """Per side, the travel that takes *before*'s pegs to *after*'s, or None.

    Raises:
        ValueError: the two states have different sides.
    """
    if len(before.sides) != len(after.sides):
        raise ValueError(f"cannot animate {len(before.sides)} sides into {len(after.sides)}")
    travels: list[_Travel] = []
    for old, new in zip(before.sides, after.sides, strict=True):
        if new.rear == old.front and new.front > old.front:
            travels.append((old.rear, new.front, old.front, False))  # a peg
        elif old.rear == new.front and old.front > new.front:
            travels.append((new.rear, old.front, new.front, True))  # an undo: that peg backwards
        else:
            travels.append(None)
    return tuple(travels)


def _moving(after: TrackState, travels: tuple[_Travel, ...], step: int, steps: int) -> TrackState:
    """The tracks at *step* of *steps* of *travels* towards *after* (nobody has won yet)."""
    sides = tuple(
        SidePegs(_between(t[0], t[1], steps - step if t[3] else step, steps), t[2], new.is_dealer)
        if t
        else new
        for t, new in zip(travels, after.sides, strict=True)
    )
    return TrackState(sides, after.target, after.lurch_line, after.double_skunk_line, None)


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
    travels = _travels(before, after)
    steps = frames if any(travels) else 1
    result = [
        render_tracks(_moving(after, travels, step, steps), layout) for step in range(1, steps)
    ]
    result.append(render_tracks(after, layout))
    if after.winner is not None and before.winner is None:
        result.extend(
            render_tracks(after, layout, phase) for phase in range(1, 2 * WIN_FLASHES + 1)
        )
    return tuple(result)


# -- current ----------------------------------------------------------------------------------


def _strip_ma(strip: StripLayout, leds: int, channels: int) -> float:
    """The current of *leds* LEDs of *strip* whose channel values add up to *channels*."""
    return leds * strip.idle_ma + channels * strip.ma_per_channel / 255


def estimate_current_ma(frame: Mapping[str, Sequence[Color]], layout: LedLayout) -> float:
    """The estimated current of *frame* in mA: idle draw plus each channel's share of full.

    Raises:
        KeyError: a strip in *frame* the layout does not have.
    """
    total = 0.0
    for name, pixels in frame.items():
        total += _strip_ma(layout.strip(name), len(pixels), sum(map(sum, pixels)))
    return total


def limit_current(frame: Frame, layout: LedLayout) -> Frame:
    """*frame*, scaled down evenly if needed so its estimate stays within the current limit.

    Raises:
        KeyError: a strip in *frame* the layout does not have.
    """
    total = estimate_current_ma(frame, layout)
    if total <= layout.current_limit_ma:
        return frame
    return _scaled_down(frame, layout, total)


def _scaled_down(frame: Frame, layout: LedLayout, total: float) -> Frame:
    """*frame*, whose estimate is *total*, scaled to the current limit."""
    idle = sum(len(pixels) * layout.strip(name).idle_ma for name, pixels in frame.items())
    share = (layout.current_limit_ma - idle) / (total - idle)
    # rounding down keeps the result under the limit; a frame has few colours, each scaled once
    scaled: Frame = {}
    for name, pixels in frame.items():
        to = {
            (r, g, b): (math.floor(r * share), math.floor(g * share), math.floor(b * share))
            for r, g, b in set(pixels)
        }
        scaled[name] = tuple(map(to.__getitem__, pixels))
    return scaled


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


def _ruler(track: TrackLayout, target: int, per: int = 1) -> str:
    """Hole numbers over their LEDs (*per* LEDs a character): first-lap streets, then the game
    hole if there is room."""
    length = -(-track.length // per)
    cells = [" "] * length
    for hole in [*range(STREET, target, STREET), target]:
        spot = hole_led(track, hole, target)
        text = str(hole)
        at = spot[0] // per if spot is not None else 0
        if spot is None or (spot[1] and hole != target) or at + 1 < len(text):
            continue  # hole numbers of the second lap would sit on the first lap's
        start = at + 1 - len(text)
        span = range(max(0, start - 1), min(length, at + 2))
        if all(cells[i] == " " for i in span):
            cells[start : at + 1] = list(text)
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


def _pairs(track: TrackLayout, pixels: Sequence[Color]) -> Iterator[str]:
    """Two LEDs a character, for a narrow terminal: a half block in each lit one's colour (the
    left one's as the glyph's, the right one's as its background), a grey ``·`` for two dark
    ones."""
    leds = [pixels[led] for led in track.strip_leds]
    for i in range(0, len(leds), 2):
        left, right = leds[i], leds[i + 1] if i + 1 < len(leds) else BLACK
        if left == BLACK and right == BLACK:
            yield "\x1b[49m\x1b[38;2;{};{};{}m·".format(*_UNLIT)
            continue
        shown = [tuple(_screen_level(c) for c in color) for color in (left, right)]
        if right == BLACK:
            yield "\x1b[49m\x1b[38;2;{};{};{}m▌".format(*shown[0])
        elif left == BLACK:
            yield "\x1b[49m\x1b[38;2;{};{};{}m▐".format(*shown[1])
        else:
            yield "\x1b[38;2;{};{};{}m\x1b[48;2;{};{};{}m▌".format(*shown[0], *shown[1])


_UNLIT = (48, 48, 48)


def render_ansi(
    strips: Mapping[str, Sequence[Color]],
    layout: LedLayout,
    target: int = 121,
    *,
    narrow: bool = False,
) -> str:
    """The tracks for a terminal: a hole ruler, then one line per side in 24-bit colour.

    Lit LEDs are ``●`` in their colour (brightened the way the eye sees LEDs, so a faint mark
    stays visible), dark ones a grey ``·``. A ruler line names the street holes and the game hole.
    *narrow* (an 80-column terminal) draws two LEDs a character, as half blocks.

    Raises:
        KeyError: a strip of the layout missing from *strips*.
    """
    lines: list[str] = []
    last_ruler = None
    per = 2 if narrow else 1
    cells = _pairs if narrow else _cells
    for index, track in enumerate(layout.tracks):
        ruler = _ruler(track, target, per)
        if ruler != last_ruler:
            lines.append("   " + ruler)
            last_ruler = ruler
        lines.append(f"{index + 1:>2} " + "".join(cells(track, strips[track.strip])) + "\x1b[0m")
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

BLINK_SIDE = 2
"""The side whose front peg blinks: the third, so three tracks are told apart without colour."""

BLINK_ON, BLINK_OFF = 0.7, 0.3
"""Seconds the blinking front peg is lit, then dark: a slow blink, the peg mostly shown."""

LedFrame = Mapping[str, Sequence[Color]]
"""The colours for each LED strip, by the strip's name (a ``Frame`` is one)."""


@frozen
class LedStep:
    """One step of an LED animation: the colours, and the seconds they stay before the next.

    The last step of an animation stays until the next change, so its *hold* is not used,
    unless it says *again*: then after *hold* the animation goes on from step *again* (a
    blinking peg), and finishing the animation early stops on this last step.
    """

    frame: LedFrame
    hold: float = 0.0
    again: int | None = None


class LazyFrame(Mapping[str, Sequence[Color]]):
    """A frame drawn the first time a strip's colours are read, then kept.

    An animation's steps carry these, so only the steps that are shown are ever drawn.
    """

    __slots__ = ("_draw", "_frame")

    def __init__(self, draw: Callable[[], Frame]) -> None:
        self._draw = draw
        self._frame: Frame | None = None

    def _drawn(self) -> Frame:
        if self._frame is None:
            self._frame = self._draw()
        return self._frame

    def __getitem__(self, name: str) -> tuple[Color, ...]:
        return self._drawn()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._drawn())

    def __len__(self) -> int:
        return len(self._drawn())


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
        blink: bool = True,
    ) -> None:
        self._layout = layout
        self._blink = blink
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
        """The steps from *before*'s tracks to *after*'s; the last is *after*'s still frame
        (with three sides, the third's front peg then blinks: the last step goes round again).

        Each step's frame (a ``LazyFrame``) is drawn when it is first read, so asking for the
        steps costs next to nothing and a key that ends the animation early skips the rest.
        """
        return self._blinking(self._steps(before, after), self.state(after))

    def _blinking(self, steps: tuple[LedStep, ...], new: TrackState) -> tuple[LedStep, ...]:
        """*steps*, then the third side's front peg blinking for good (a cue without colour);
        finishing early stops on the peg lit. Two sides: *steps* as they are."""
        if len(new.sides) <= BLINK_SIDE or not self._blink:
            return steps
        layout, last = self._layout, len(steps)
        dark = LazyFrame(lambda: render_tracks(new, layout, hidden=BLINK_SIDE))
        lit = replace(steps[-1], hold=BLINK_ON)
        return (*steps[:-1], lit, LedStep(dark, BLINK_OFF), replace(lit, again=last))

    def _steps(self, before: GameView | None, after: GameView) -> tuple[LedStep, ...]:
        layout = self._layout
        new = self.state(after)
        old = self.state(before) if before is not None else None
        if old is None or len(old.sides) != len(new.sides):  # nothing shown, or a new variant
            return (LedStep(LazyFrame(lambda: render_tracks(new, layout))),)
        if self._frames < 1:
            raise ValueError(f"an animation needs at least 1 frame, got {self._frames!r}")
        # the peg's travel as animate_peg makes it, without its own flash: the flash is paced here
        end = replace(new, winner=None)
        travels = _travels(old, end)
        count = self._frames if any(travels) else 1

        def moving(step: int) -> LazyFrame:
            return LazyFrame(lambda: render_tracks(_moving(end, travels, step, count), layout))

        still = LazyFrame(lambda: render_tracks(end, layout))
        hold = self._frame_seconds
        steps = [LedStep(moving(step), hold) for step in range(1, count)]
        steps.append(LedStep(still, hold))
        if new.winner is not None and old.winner is None and self._flashes:
            lit = LazyFrame(lambda: render_tracks(new, layout, 1))
            steps[-1] = LedStep(still, self._flash_hold)
            steps += [
                LedStep(lit if phase % 2 else still, self._flash_hold)
                for phase in range(1, self._flashes + 1)
            ]
            steps.append(LedStep(still))
        return tuple(steps)
