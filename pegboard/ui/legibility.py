"""Which colours of the LED tracks stand side by side, and how far apart every eye sees them.

A pair of colours is *legible* when it is at least ``MIN_DISTANCE`` apart in CAM02-UCS
(``pegboard.colours``) for normal vision and under simulated deuteranopia, protanopia and
tritanopia, as the LEDs show it: after the layout's brightness and the LED's light curve.

The pairs that can stand side by side (``side_by_side``):

- two sides' colours (tracks run beside each other, with two or three sides);
- a side's colour and its second lap's shade, on a two-lap track (the shade tells the lap);
- every mark (the double-skunk line, the lurch line, the dealer's game hole) and every peg
  colour a track shows (a peg can stand beside a mark, on its track or the next);
- the dealer's mark and the double-skunk line: on a two-lap track of 61 LEDs the game hole is
  the LED after hole 60's.

Not among them: two sides' second-lap shades, or one side's colour and another's shade (the
tracks' places tell the sides apart; a lap is read against the side's own colour), the street
marks (grey, the faintest; a peg covers the one it stands on) and the rear pegs (the side's
colour at a quarter, always right behind its front peg).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from pegboard.colours import Rgb, Vision, distance, led_light
from pegboard.devices.ports import Color
from pegboard.frozen import frozen
from pegboard.ui.ledlayout import LedLayout

__all__ = ["MIN_DISTANCE", "Closest", "Swatch", "closest", "shortfalls", "side_by_side"]

MIN_DISTANCE = 30.0
"""CAM02-UCS distance that tells two colours apart at a glance across a table (issue 26)."""


@frozen
class Swatch:
    """A colour with the words that name what shows it ("side 2", "the lurch line")."""

    name: str
    light: Rgb


@frozen
class Closest:
    """The closest pair of colours for one vision, and how far apart it looks."""

    vision: Vision
    distance: float
    first: str
    second: str

    def __str__(self) -> str:
        return (
            f"{self.first} and {self.second} are {self.distance:.1f} apart"
            f" for {self.vision.value} vision"
        )


def side_by_side(
    layout: LedLayout, *, laps: bool | None = None
) -> tuple[tuple[Swatch, Swatch], ...]:
    """Every pair of colours of *layout* that can stand side by side, as the LEDs show them.

    *laps* says whether the second lap's shades count: None counts them on two-lap tracks
    only, True on every track (a default colour must serve a two-lap board too).
    """
    b = layout.brightness

    def swatch(name: str, color: Color) -> Swatch:
        return Swatch(name, led_light(color, b))

    sides = [swatch(f"side {i + 1}", track.color) for i, track in enumerate(layout.tracks)]
    shades = [
        swatch(f"side {i + 1}'s second lap", track.lap2_color)
        if (track.laps == 2 if laps is None else laps)
        else None
        for i, track in enumerate(layout.tracks)
    ]
    marks = layout.marks
    skunk = swatch("the double-skunk line", marks.double_skunk)
    lurch = swatch("the lurch line", marks.lurch)
    dealer = swatch("the dealer's mark", marks.dealer)
    pegs = [*sides, *(shade for shade in shades if shade is not None)]
    pairs: list[tuple[Swatch, Swatch]] = list(itertools.combinations(sides, 2))
    pairs += [(side, shade) for side, shade in zip(sides, shades, strict=True) if shade]
    pairs += [(mark, peg) for mark in (skunk, lurch, dealer) for peg in pegs]
    pairs.append((dealer, skunk))
    return tuple(pairs)


def closest(
    pairs: Iterable[tuple[Swatch, Swatch]], visions: Sequence[Vision] = tuple(Vision)
) -> tuple[Closest, ...]:
    """The closest pair for each of *visions* (normal and the three dichromacies).

    Raises:
        ValueError: no pairs.
    """
    pairs = tuple(pairs)
    if not pairs:
        raise ValueError("no colours to compare")
    found = []
    for vision in visions:
        far, first, second = min(
            (distance(a.light, b.light, vision), a.name, b.name) for a, b in pairs
        )
        found.append(Closest(vision, far, first, second))
    return tuple(found)


def shortfalls(layout: LedLayout) -> tuple[Closest, ...]:
    """The visions under which *layout*'s closest pair is under ``MIN_DISTANCE``, with it."""
    return tuple(c for c in closest(side_by_side(layout)) if c.distance < MIN_DISTANCE)
