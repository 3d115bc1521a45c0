"""Which colours of the LED tracks stand side by side, and how far apart every eye sees them.

A pair of colours is *legible* when it is at least ``MIN_DISTANCE`` apart in CAM02-UCS
(``pegboard.colours``) for normal vision and under simulated deuteranopia, protanopia and
tritanopia, as the LEDs show it: after the layout's brightness and the LED's light curve.

Which pairs stand side by side is not chosen by hand: ``lit_pairs`` works it out from how the
tracks are drawn. For every track it paints every state a side can be in (each front and rear
peg from the start hole to the game hole, dealing or not) the way ``ledtracks`` does (marks,
then the rear peg over them, then the front peg, which in its second lap lights a second LED:
``ledlayout.peg_leds``), on each board the rules give (121 holes with the double-skunk and
lurch lines, 61 holes with the lurch line alone). Two lit LEDs stand side by side when they are

- neighbours on one track (a peg beside its own other peg, a mark, or a mark beside a mark), or
- the same hole on neighbouring tracks (tracks in side order: side 1's beside side 2's, side
  2's beside side 3's; only one track shows the dealer's mark at a time).

What each LED shows is a ``Lit``: a side's front or rear peg in its first or second lap, or a
mark (a mark looks the same on every track, so the line beside the same line on the next track
is no pair). ``lit_pairs`` also holds every two sides' front pegs, neighbours or not: the
colours name the sides (Sky, Gold, Lilac). ``needs_colour`` says which pairs colour must tell
apart: all but a side's own two pegs, which share the side's colour as on a wooden board (the
front peg is the one ahead, and a peg in its second lap lights two LEDs). ``side_by_side``
gives those with the colours the layout shows them in. Not counted: a winner's whole track
while it flashes (the flashing tells it).

``tests/ui/test_legibility.py`` checks ``lit_pairs`` against the frames ``render_tracks``
draws, LED by LED.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache

from pegboard.colours import Rgb, Vision, distance, led_light
from pegboard.devices.ports import Color
from pegboard.frozen import frozen
from pegboard.ui.ledlayout import LedLayout, MarkColors, Segment, StripLayout, TrackLayout, peg_leds

__all__ = [
    "BOARDS",
    "DEALER",
    "DOUBLE_SKUNK",
    "FRONT",
    "LURCH",
    "MIN_DISTANCE",
    "REAR",
    "STREET",
    "Closest",
    "Lit",
    "Swatch",
    "boards",
    "closest",
    "lit_color",
    "lit_pairs",
    "lowest_brightness",
    "needs_colour",
    "pair_class",
    "shortfalls",
    "side_by_side",
    "two_lap",
]

MIN_DISTANCE = 30.0
"""CAM02-UCS distance that tells two colours apart at a glance across a table (issue 26)."""

FRONT, REAR = "front peg", "rear peg"
STREET, DOUBLE_SKUNK, LURCH = "street mark", "double-skunk line", "lurch line"
DEALER = "dealer's mark"
_STREET = 30

BOARDS: tuple[tuple[int, int | None, int | None], ...] = ((121, 60, 90), (61, None, 44))
"""The boards the rules give, as the tracks draw them: target, the double-skunk line and the
lurch line (the hole after which each sits; ``ledtracks.track_state``)."""


@frozen
class Lit:
    """What one LED can show: a side's *what* (front or rear peg) in *lap* (0 or 1), or a mark
    (*side* -1: a mark looks the same on every track)."""

    what: str
    side: int = -1
    lap: int = 0

    def __str__(self) -> str:
        if self.side < 0:
            return f"the {self.what}"
        lap = " in its second lap" if self.lap else ""
        return f"side {self.side + 1}'s {self.what}{lap}"


_Cell = tuple[str, int]  # what and lap, on one track


def _paint(
    track: TrackLayout, board: tuple[int, int | None, int | None], rear: int, front: int,
    dealer: bool, second: bool,
) -> dict[int, _Cell]:  # fmt: skip
    """The track LEDs lit for one state, as ``ledtracks._track_cells`` paints them (without
    *second*: as if a peg in its second lap lit one LED, the way pegboard drew it before)."""
    target, skunk, lurch = board
    cells: dict[int, _Cell] = {}
    marks = [(hole, STREET) for hole in range(_STREET, target, _STREET)]
    marks += [(line, name) for line, name in ((skunk, DOUBLE_SKUNK), (lurch, LURCH)) if line]
    marks += [(target, DEALER)] if dealer else []
    for hole, name in marks:
        for led, _ in peg_leds(track, hole, target, second=False):
            cells[led] = (name, 0)
    for led, lap in peg_leds(track, rear, target, second=second):
        cells[led] = (REAR, lap)
    for led, lap in peg_leds(track, front, target, second=second):
        cells[led] = (FRONT, lap)
    return cells


@lru_cache(maxsize=32)
def _track_pairs(
    track: TrackLayout, board: tuple[int, int | None, int | None], second: bool
) -> tuple[frozenset[tuple[_Cell, _Cell]], tuple[frozenset[_Cell], ...]]:
    """Neighbours on one track (unordered cell pairs), and what each track LED can show."""
    near: set[tuple[_Cell, _Cell]] = set()
    shows: list[set[_Cell]] = [set() for _ in range(track.length)]
    target = board[0]
    for front in range(target + 1):
        for rear in range(front + 1):
            for dealer in (False, True):
                cells = _paint(track, board, rear, front, dealer, second)
                for led, cell in cells.items():
                    shows[led].add(cell)
                    after = cells.get(led + 1)
                    if after is not None and after != cell:
                        near.add((min(cell, after), max(cell, after)))
    return frozenset(near), tuple(frozenset(s) for s in shows)


def _shape(track: TrackLayout) -> TrackLayout:
    """*track* as one run from LED 0, in no colour: what it lights depends on nothing else."""
    black = (0, 0, 0)
    return TrackLayout("", (Segment(0, track.length),), black, black, track.start_led, track.laps)


def _lit(cell: _Cell, side: int) -> Lit:
    what, lap = cell
    return Lit(what, side, lap) if what in (FRONT, REAR) else Lit(what)


def lit_pairs(layout: LedLayout, *, second: bool = True) -> frozenset[tuple[Lit, Lit]]:
    """Every pair of different things the tracks of *layout* can show side by side.

    *second* False: as if a peg in its second lap lit one LED (how pegboard drew it before its
    second LED; ``tools/colour_search.py --pure`` searches that).
    """
    pairs: set[tuple[Lit, Lit]] = set()

    def add(a: Lit, b: Lit) -> None:
        if a != b and not (a.what == b.what == DEALER):
            pairs.add((a, b) if (a.what, a.side, a.lap) <= (b.what, b.side, b.lap) else (b, a))

    for one, two in itertools.combinations(range(len(layout.tracks)), 2):
        add(Lit(FRONT, one), Lit(FRONT, two))  # the colours name the sides: all told apart
    for board in BOARDS:
        found = [_track_pairs(_shape(track), board, second) for track in layout.tracks]
        for side, (near, _) in enumerate(found):
            for a, b in near:
                add(_lit(a, side), _lit(b, side))
        for side in range(len(layout.tracks) - 1):
            here, next_ = layout.tracks[side], layout.tracks[side + 1]
            for hole in range(board[0] + 1):
                for (led, _), (other, _) in zip(
                    peg_leds(here, hole, board[0], second=False),
                    peg_leds(next_, hole, board[0], second=False),
                    strict=False,
                ):
                    for a in found[side][1][led]:
                        for b in found[side + 1][1][other]:
                            add(_lit(a, side), _lit(b, side + 1))
    return frozenset(pairs)


def needs_colour(a: Lit, b: Lit) -> bool:
    """Whether *a* and *b* must be told apart by colour: every pair but a side's own two pegs
    (one colour, as on a wooden board: the front peg is the one ahead, and a peg in its
    second lap lights two LEDs)."""
    return not (a.side >= 0 and a.side == b.side)


def pair_class(a: Lit, b: Lit) -> str:
    """The kind of pair *a* and *b* are, in words (for the figures, one line a kind)."""
    pegs = [lit for lit in (a, b) if lit.side >= 0]
    if len(pegs) < 2:
        return "two marks" if not pegs else "a mark beside a peg"
    laps = " in different laps" if a.lap != b.lap else ""
    if a.side == b.side:
        return f"a side's front and rear peg{laps}"
    kinds = "front pegs" if a.what == b.what == FRONT else "pegs, a rear one among them"
    return f"two sides' {kinds}{laps}"


def two_lap(layout: LedLayout, count: int) -> LedLayout:
    """*layout*'s tracks as two-lap tracks of *count* LEDs (an English board), a strip each."""
    strips = tuple(StripLayout(f"lap{i}", count) for i in range(len(layout.tracks)))
    tracks = tuple(
        replace(t, strip=f"lap{i}", segments=(Segment(0, count),), start_led=False, laps=2)
        for i, t in enumerate(layout.tracks)
    )
    return replace(layout, strips=strips, tracks=tracks)


def boards(layout: LedLayout) -> tuple[LedLayout, ...]:
    """*layout*, and its tracks as two-lap tracks of 61 and of 60 LEDs: a default colour
    serves every board, so the defaults are held to the pairs of all three."""
    return (layout, two_lap(layout, 61), two_lap(layout, 60))


def lit_color(lit: Lit, layout: LedLayout) -> Color:
    """The colour *layout* shows *lit* in, before brightness."""
    marks: MarkColors = layout.marks
    named = {STREET: marks.street, DOUBLE_SKUNK: marks.double_skunk, LURCH: marks.lurch}
    if lit.what in named:
        return named[lit.what]
    if lit.what == DEALER:
        return marks.dealer

    track = layout.tracks[lit.side]
    return track.lap2_color if lit.lap else track.color  # both pegs in the side's colour


@frozen
class Swatch:
    """A colour with the words that name what shows it ("side 2's front peg")."""

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


def side_by_side(layout: LedLayout) -> tuple[tuple[Swatch, Swatch], ...]:
    """Every pair of colours of *layout* that can stand side by side and must be told apart by
    colour (``lit_pairs``, ``needs_colour``), as the LEDs show them, in a fixed order."""
    b = layout.brightness

    def swatch(lit: Lit) -> Swatch:
        return Swatch(str(lit), led_light(lit_color(lit, layout), b))

    needed = [pair for pair in lit_pairs(layout) if needs_colour(*pair)]
    ordered = sorted(needed, key=lambda pair: (str(pair[0]), str(pair[1])))
    return tuple((swatch(a), swatch(c)) for a, c in ordered)


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


def lowest_brightness(layout: LedLayout) -> float | None:
    """The lowest brightness, in steps of 0.05, from which *layout*'s colours keep
    ``MIN_DISTANCE`` all the way up to 1 (dimmer is closer), or None: short even at 1.

    >>> lowest_brightness(LedLayout.default())
    0.45
    """
    colours = {
        (lit_color(a, layout), lit_color(b, layout))
        for a, b in lit_pairs(layout)
        if needs_colour(a, b)
    }
    found = None
    for step in range(20, 0, -1):
        b = step / 20
        lights = [(led_light(one, b), led_light(two, b)) for one, two in colours]
        if any(distance(*pair, vision) < MIN_DISTANCE for pair in lights for vision in Vision):
            break
        found = b
    return found
