"""The LED frames and animation steps made the slow, plain way: an oracle for ``ledtracks``.

This is how ``ledtracks`` drew before issue 11 ("instant on a Pi Zero 2 W"): every LED of every
strip painted, dimmed and summed for the current one by one, and every frame of an animation
drawn up front. ``ledtracks`` now paints only the lit LEDs, keeps what the layout decides, and
draws each step's frame when it is first read; these functions say what it must still give,
colour for colour and hold for hold.
"""

from __future__ import annotations

import math
from dataclasses import replace

from pegboard.devices.ports import Color
from pegboard.engine.view import GameView
from pegboard.ui.ledlayout import peg_leds
from pegboard.ui.ledtracks import (
    BLACK,
    Frame,
    LedLayout,
    SidePegs,
    TrackAnimator,
    TrackLayout,
    TrackState,
    hole_led,
)

FLASH_SHARE = 1 / 3
WIN_FLASHES = 3
STREET = 30

Step = tuple[Frame, float]
"""A step as plain values: its frame and its hold."""


def _scaled(color: Color, share: float) -> Color:
    red, green, blue = (round(channel * share) for channel in color)
    return (red, green, blue)


def _dimmed(color: Color, brightness: float) -> Color:
    if brightness <= 0:
        return BLACK
    red, green, blue = (max(1, round(c * brightness)) if c else 0 for c in color)
    return (red, green, blue)


def _cells(
    track: TrackLayout, side: SidePegs, state: TrackState, layout: LedLayout, flash: bool
) -> list[Color]:
    target, marks = state.target, layout.marks
    cells = [BLACK] * track.length

    def paint(hole: int, color: Color) -> None:
        spot = hole_led(track, hole, target)
        if spot is not None:
            cells[spot[0]] = color

    if flash:
        cells = [_scaled(track.color, FLASH_SHARE)] * track.length
    else:
        for hole in range(STREET, target, STREET):
            paint(hole, marks.street)
        if state.double_skunk_line is not None:
            paint(state.double_skunk_line, marks.double_skunk)
        if state.lurch_line is not None:
            paint(state.lurch_line, marks.lurch)
        if side.is_dealer:
            paint(target, marks.dealer)
    for hole in (side.rear, side.front):  # both pegs in the side's colour, the front on top
        for led, lap in peg_leds(track, hole, target):  # a second LED in the second lap
            cells[led] = track.lap2_color if lap else track.color
    return cells


def reference_current_ma(frame: Frame, layout: LedLayout) -> float:
    total = 0.0
    for name, pixels in frame.items():
        strip = layout.strip(name)
        channels = sum(sum(pixel) for pixel in pixels)
        total += len(pixels) * strip.idle_ma + channels * strip.ma_per_channel / 255
    return total


def reference_limit(frame: Frame, layout: LedLayout) -> Frame:
    total = reference_current_ma(frame, layout)
    if total <= layout.current_limit_ma:
        return frame
    idle = sum(len(pixels) * layout.strip(name).idle_ma for name, pixels in frame.items())
    share = (layout.current_limit_ma - idle) / (total - idle)
    return {
        name: tuple(
            (math.floor(r * share), math.floor(g * share), math.floor(b * share))
            for r, g, b in pixels
        )
        for name, pixels in frame.items()
    }


def reference_frame(state: TrackState, layout: LedLayout, phase: int = 0) -> Frame:
    """``render_tracks`` as it was: every LED of every strip, one by one."""
    raw = {strip.name: [BLACK] * strip.count for strip in layout.strips}
    for index, side in enumerate(state.sides):
        track = layout.tracks[index]
        flash = state.winner == index and phase % 2 == 1
        cells = _cells(track, side, state, layout, flash)
        for led, color in zip(track.strip_leds, cells, strict=True):
            raw[track.strip][led] = color
    frame = {
        name: tuple(_dimmed(c, layout.brightness) for c in pixels) for name, pixels in raw.items()
    }
    return reference_limit(frame, layout)


def reference_peg(
    before: TrackState, after: TrackState, layout: LedLayout, frames: int = 12
) -> tuple[Frame, ...]:
    """``animate_peg`` as it was: every frame drawn up front."""
    travels: list[tuple[int, int, int, bool] | None] = []
    for old, new in zip(before.sides, after.sides, strict=True):
        if new.rear == old.front and new.front > old.front:
            travels.append((old.rear, new.front, old.front, False))
        elif old.rear == new.front and old.front > new.front:
            travels.append((new.rear, old.front, new.front, True))
        else:
            travels.append(None)
    steps = frames if any(travels) else 1
    result: list[Frame] = []
    for step in range(1, steps):
        sides = tuple(
            SidePegs(
                t[0] + round((t[1] - t[0]) * (steps - step if t[3] else step) / steps),
                t[2],
                new.is_dealer,
            )
            if t
            else new
            for t, new in zip(travels, after.sides, strict=True)
        )
        moving = TrackState(sides, after.target, after.lurch_line, after.double_skunk_line, None)
        result.append(reference_frame(moving, layout))
    result.append(reference_frame(after, layout))
    if after.winner is not None and before.winner is None:
        result.extend(
            reference_frame(after, layout, phase) for phase in range(1, 2 * WIN_FLASHES + 1)
        )
    return tuple(result)


def reference_steps(
    animator: TrackAnimator,
    before: GameView | None,
    after: GameView,
    *,
    frames: int = 12,
    frame_seconds: float = 0.035,
    flashes: int = 12,
    flash_hold: float = 0.25,
) -> tuple[Step, ...]:
    """``TrackAnimator.animate`` as it was (with the animator's defaults), as plain values."""
    layout = animator.layout
    new = animator.state(after)
    if before is None:
        return ((reference_frame(new, layout), 0.0),)
    old = animator.state(before)
    if len(old.sides) != len(new.sides):
        return ((reference_frame(new, layout), 0.0),)
    travel = reference_peg(old, replace(new, winner=None), layout, frames)
    steps = [(frame, frame_seconds) for frame in travel]
    if new.winner is not None and old.winner is None and flashes:
        lit = reference_frame(new, layout, 1)
        still = travel[-1]
        steps[-1] = (still, flash_hold)
        steps += [(lit if phase % 2 else still, flash_hold) for phase in range(1, flashes + 1)]
        steps.append((still, 0.0))
    return tuple(steps)
