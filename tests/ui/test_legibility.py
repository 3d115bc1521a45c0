"""Every pair of colours that can stand side by side is at least 30 apart for every eye."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from pegboard.colours import Vision, distance, led_light, linear_to_srgb, srgb_to_linear
from pegboard.config.leds import parse_leds
from pegboard.devices.ports import Color
from pegboard.ui.ledlayout import (
    DEFAULT_SIDE_COLORS,
    LedLayout,
    MarkColors,
    lap2_shade,
)
from pegboard.ui.ledtracks import SidePegs, TrackState, render_tracks
from pegboard.ui.legibility import (
    BOARDS,
    MIN_DISTANCE,
    Lit,
    Swatch,
    boards,
    closest,
    lit_color,
    lit_pairs,
    lowest_brightness,
    needs_colour,
    pair_class,
    shortfalls,
    side_by_side,
    two_lap,
)

HOUSE_CSS = Path(__file__).resolve().parents[2] / "pegboard" / "web" / "house" / "house.css"


def three_sides(**leds: object) -> LedLayout:
    return parse_leds({"leds": leds} if leds else {}, sides=3).layout


# -- which pairs stand side by side: worked out from the frames ---------------------------------


def tagged(layout: LedLayout) -> LedLayout:
    """*layout* with a colour of its own for each side's each lap and each mark, shown as it is
    (brightness 1, no current limit), so a frame says what each LED shows."""
    tracks = tuple(
        replace(t, color=(10 + i, 0, 0), lap2_color=(20 + i, 0, 0))
        for i, t in enumerate(layout.tracks)
    )
    marks = MarkColors((0, 0, 1), (0, 0, 2), (0, 0, 3), (0, 0, 4))
    return replace(layout, tracks=tracks, marks=marks, brightness=1.0, current_limit_ma=1e9)


def claimed(layout: LedLayout) -> set[frozenset[Color]]:
    """``lit_pairs`` as pairs of the tagged layout's colours (a side's two pegs share one)."""
    found = {frozenset((lit_color(a, layout), lit_color(b, layout))) for a, b in lit_pairs(layout)}
    return {pair for pair in found if len(pair) == 2}


def one_side_states(target: int) -> Iterator[SidePegs]:
    for front in range(target + 1):
        for rear in range(front + 1):
            yield SidePegs(front, rear, False)
            yield SidePegs(front, rear, True)


def track_colours(layout: LedLayout, side: int, frame: dict[str, tuple[Color, ...]]) -> list[Color]:
    track = layout.tracks[side]
    return [frame[track.strip][led] for led in track.strip_leds]


@pytest.mark.parametrize(
    "layout",
    [
        pytest.param(tagged(three_sides()), id="122-leds"),
        pytest.param(tagged(two_lap(three_sides(), 61)), id="two-laps-61"),
        pytest.param(tagged(two_lap(three_sides(), 60)), id="two-laps-60"),
    ],
)
def test_the_pairs_are_those_the_frames_show_side_by_side(layout: LedLayout) -> None:
    """Every state of a side, drawn by render_tracks: its track's neighbours, and what each LED
    can show; then the same hole on neighbouring tracks, each side in a state that shows it."""
    seen: set[frozenset[Color]] = set()
    for target, skunk, lurch in BOARDS:
        shows: list[dict[int, dict[Color, SidePegs]]] = []
        for side in range(len(layout.tracks)):
            can: dict[int, dict[Color, SidePegs]] = {}
            for pegs in one_side_states(target):
                sides = [SidePegs(0)] * len(layout.tracks)
                sides[side] = pegs
                state = TrackState(tuple(sides), target, lurch, skunk)
                leds = track_colours(layout, side, render_tracks(state, layout))
                for led, colour in enumerate(leds):
                    if colour != (0, 0, 0):
                        can.setdefault(led, {}).setdefault(colour, pegs)
                        after = leds[led + 1] if led + 1 < len(leds) else (0, 0, 0)
                        if after not in ((0, 0, 0), colour):
                            seen.add(frozenset((colour, after)))
            shows.append(can)
        for side in range(len(layout.tracks) - 1):
            for led in set(shows[side]) & set(shows[side + 1]):
                for pegs_a in shows[side][led].values():
                    for pegs_b in shows[side + 1][led].values():
                        sides = [SidePegs(0)] * len(layout.tracks)
                        sides[side], sides[side + 1] = pegs_a, pegs_b
                        state = TrackState(tuple(sides), target, lurch, skunk)
                        frame = render_tracks(state, layout)
                        shown = (
                            track_colours(layout, side, frame)[led],
                            track_colours(layout, side + 1, frame)[led],
                        )
                        if shown[0] != shown[1]:
                            seen.add(frozenset(shown))
    sides_named = {
        frozenset((a.color, b.color)) for a, b in itertools.combinations(layout.tracks, 2)
    }
    assert claimed(layout) == seen | sides_named


def test_the_pairs_named() -> None:
    one = {frozenset((str(a), str(b))) for a, b in lit_pairs(three_sides())}
    assert {"side 1's front peg", "side 3's front peg"} in one  # the sides' colours name them
    assert {"the dealer's mark", "the street mark"} in one  # holes 121 and 120, neighbours
    assert {"side 2's rear peg", "the double-skunk line"} in one
    assert not any("second lap" in name for pair in one for name in pair)
    two = {frozenset((str(a), str(b))) for a, b in lit_pairs(two_lap(three_sides(), 61))}
    assert {"the dealer's mark", "the double-skunk line"} in two  # holes 121 and 60, neighbours
    assert {"side 1's front peg in its second lap", "side 1's rear peg"} in two
    assert {"side 2's front peg", "side 3's rear peg in its second lap"} in two
    classes = sorted({pair_class(a, b) for a, b in lit_pairs(two_lap(three_sides(), 61))})
    assert classes == [
        "a mark beside a peg",
        "a side's front and rear peg",
        "a side's front and rear peg in different laps",
        "two marks",
        "two sides' front pegs",
        "two sides' front pegs in different laps",
        "two sides' pegs, a rear one among them",
        "two sides' pegs, a rear one among them in different laps",
    ]


def test_only_a_sides_own_two_pegs_need_no_colour() -> None:
    front, rear = Lit("front peg", 0), Lit("rear peg", 0, 1)
    assert not needs_colour(front, rear)  # one colour: told by order and the second LED
    assert needs_colour(front, Lit("rear peg", 1))
    assert needs_colour(Lit("lurch line"), rear)


# -- the defaults, the old colours, configured colours ------------------------------------------


@pytest.mark.parametrize(
    "layout",
    [
        pytest.param(LedLayout.default(), id="two-sides"),
        *(pytest.param(b, id=f"three-sides-{i}") for i, b in enumerate(boards(three_sides()))),
        *(
            pytest.param(replace(b, brightness=1.0), id=f"full-{i}")
            for i, b in enumerate(boards(three_sides()))
        ),
    ],
)
def test_the_default_colours_are_30_apart_for_every_eye(layout: LedLayout) -> None:
    found = closest(side_by_side(layout))
    assert [c.vision for c in found] == list(Vision)
    assert [c for c in found if c.distance < MIN_DISTANCE] == []
    assert shortfalls(layout) == ()


def test_the_default_brightness_keeps_the_default_colours_30_apart_from_045_up() -> None:
    for layout in boards(three_sides()):
        assert lowest_brightness(layout) == 0.45
        assert shortfalls(replace(layout, brightness=0.4)) != ()
    assert LedLayout.default().brightness >= 0.45


def old_design(layout: LedLayout) -> LedLayout:
    """The colours before (red, blue, green; a shade halfway to white; the old marks)."""
    tracks = tuple(
        replace(t, color=c, lap2_color=lap2_shade(c))
        for t, c in zip(layout.tracks, [(255, 0, 0), (0, 64, 255), (0, 255, 32)], strict=True)
    )
    marks = MarkColors((24, 24, 24), (48, 0, 40), (64, 24, 0), (72, 56, 24))
    return replace(layout, tracks=tracks, marks=marks)


def test_the_old_defaults_fall_short() -> None:
    """Red, blue and green with the old marks: issue 26's red-green confusion, and worse."""
    layout = old_design(three_sides())
    sides = [
        (Swatch(str(a), led_light(a.color, 0.5)), Swatch(str(b), led_light(b.color, 0.5)))
        for a, b in itertools.combinations(layout.tracks, 2)
    ]
    deutan = {c.vision: c for c in closest(sides)}[Vision.DEUTERANOPIA]
    assert round(deutan.distance, 1) == 22.3  # red beside green
    found = {c.vision: c for c in closest(side_by_side(layout))}
    protan = found[Vision.PROTANOPIA]
    assert (protan.first, protan.second) == ("side 1's front peg", "the lurch line")
    assert protan.distance < 2  # a red peg beside the lurch line: one dark orange to a protanope


def test_configured_colours_that_fall_short_are_found() -> None:
    red_green = parse_leds(
        {
            "leds": {
                "tracks": [
                    {"first": 0, "length": 122, "color": [255, 0, 0]},
                    {"first": 243, "direction": -1, "length": 122, "color": [0, 255, 0]},
                ]
            }
        }
    ).layout
    assert [str(c) for c in shortfalls(red_green)] == [
        "side 1's front peg and side 2's front peg are 21.0 apart for deuteranopia vision",
        "the dealer's mark and side 1's front peg are 20.2 apart for protanopia vision",
        "the dealer's mark and side 2's front peg are 29.9 apart for tritanopia vision",
    ]
    (deutan,) = (c for c in shortfalls(red_green) if c.vision is Vision.DEUTERANOPIA)
    assert deutan.distance == pytest.approx(
        distance(led_light((255, 0, 0), 0.5), led_light((0, 255, 0), 0.5), Vision.DEUTERANOPIA)
    )
    assert lowest_brightness(red_green) is None  # too close at any brightness
    assert shortfalls(three_sides()) == ()
    assert shortfalls(LedLayout.default()) == ()


def test_a_configured_second_lap_shade_is_held_to_the_pairs_too() -> None:
    two = two_lap(three_sides(), 61)
    shaded = replace(
        two, tracks=(replace(two.tracks[0], lap2_color=(255, 255, 0)), *two.tracks[1:])
    )
    (worst,) = (c for c in shortfalls(shaded) if c.vision is Vision.NORMAL)
    assert {worst.first, worst.second} == {
        "side 1's front peg in its second lap",
        "side 2's front peg",
    }


def test_closest_names_the_pair_and_needs_one() -> None:
    black, white = Swatch("black", (0.0, 0.0, 0.0)), Swatch("white", (1.0, 1.0, 1.0))
    (normal,) = closest([(black, white)], [Vision.NORMAL])
    assert (normal.vision, normal.first, normal.second) == (Vision.NORMAL, "black", "white")
    assert normal.distance == pytest.approx(100.0, abs=0.03)
    assert str(normal) == "black and white are 100.0 apart for normal vision"
    with pytest.raises(ValueError, match="no colours to compare"):
        closest([])


def page_colours() -> dict[str, dict[str, str]]:
    """house.css's --c (pegs) and --t (names) of each side."""
    found: dict[str, dict[str, str]] = {}
    for side, body in re.findall(r'\[data-side="(\d)"\] \{([^}]*)\}', HOUSE_CSS.read_text()):
        found[side] = dict(re.findall(r"--(\w+): (#[0-9a-f]{6})", body))
    return found


def css_light(hex_colour: str) -> tuple[float, float, float]:
    r, g, b = (srgb_to_linear(int(hex_colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return (r, g, b)


def test_the_pub_page_shows_the_leds_colours() -> None:
    colours = page_colours()
    for side, color in enumerate(DEFAULT_SIDE_COLORS):
        encoded = "#" + "".join(f"{round(255 * linear_to_srgb(v / 255)):02x}" for v in color)
        assert colours[str(side)]["c"] == encoded


@pytest.mark.parametrize("key", ["c", "t"], ids=["pegs", "names"])
def test_the_pub_page_sides_are_30_apart_for_every_eye(key: str) -> None:
    colours = page_colours()
    pairs = [
        (Swatch(a, css_light(colours[a][key])), Swatch(b, css_light(colours[b][key])))
        for a, b in itertools.combinations(sorted(colours), 2)
    ]
    assert len(pairs) == 3
    assert [c for c in closest(pairs) if c.distance < MIN_DISTANCE] == []


PUB_CSS = HOUSE_CSS.parents[1] / "static" / "pub.css"


def test_the_pub_pages_lines_stand_apart_from_the_pegs_the_wood_and_each_other() -> None:
    css = PUB_CSS.read_text()
    found = dict(re.findall(r"--(lurch-line|skunk-line|wood-hi|wood-lo): (#[0-9a-f]{6})", css))
    lines = [Swatch(name, css_light(found[name])) for name in ("lurch-line", "skunk-line")]
    pegs = [Swatch(f"side {side}", css_light(c["c"])) for side, c in page_colours().items()]
    wood = [Swatch(name, css_light(found[name])) for name in ("wood-hi", "wood-lo")]
    pairs = [(line, other) for line in lines for other in (*pegs, *wood)]
    pairs.append((lines[0], lines[1]))
    assert len(pairs) == 11
    # both pegs in the side's colour, as on the LEDs: nothing dims or mixes the rear one
    rear = re.search(r"\.peg\.rear \{([^}]*)\}", css)
    assert rear is not None and "opacity" not in rear.group(1) and "background" not in rear.group(1)
    assert [c for c in closest(pairs) if c.distance < MIN_DISTANCE] == []
