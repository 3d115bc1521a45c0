"""Every pair of colours that can stand side by side is at least 30 apart for every eye."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from pathlib import Path

import pytest

from pegboard.colours import Vision, distance, led_light, linear_to_srgb, srgb_to_linear
from pegboard.config.leds import parse_leds
from pegboard.ui.ledlayout import DEFAULT_SIDE_COLORS, LedLayout, MarkColors, lap2_shade
from pegboard.ui.legibility import (
    MIN_DISTANCE,
    Swatch,
    closest,
    shortfalls,
    side_by_side,
)

HOUSE_CSS = Path(__file__).resolve().parents[2] / "pegboard" / "web" / "house" / "house.css"


def three_sides(**leds: object) -> LedLayout:
    return parse_leds({"leds": leds} if leds else {}, sides=3).layout


@pytest.mark.parametrize(
    "layout",
    [
        pytest.param(LedLayout.default(), id="two-sides"),
        pytest.param(three_sides(), id="three-sides"),
        pytest.param(
            LedLayout(three_sides().strips, three_sides().tracks, brightness=1.0), id="full"
        ),
    ],
)
def test_the_default_colours_are_30_apart_for_every_eye(layout: LedLayout) -> None:
    pairs = side_by_side(layout, laps=True)  # the defaults serve two-lap boards too
    found = closest(pairs)
    assert [c.vision for c in found] == list(Vision)
    assert [c for c in found if c.distance < MIN_DISTANCE] == []


def test_the_pairs_are_the_ones_that_stand_side_by_side() -> None:
    names = {(a.name, b.name) for a, b in side_by_side(three_sides(), laps=True)}
    assert ("side 1", "side 3") in names
    assert ("side 2", "side 2's second lap") in names
    assert ("the lurch line", "side 3's second lap") in names
    assert ("the dealer's mark", "the double-skunk line") in names
    # 3 sides, 3 laps, 3 marks by 6 peg colours, dealer by double skunk
    assert len(names) == 3 + 3 + 18 + 1
    # one-lap tracks: no second-lap shade shows
    assert not any("second lap" in a.name + b.name for a, b in side_by_side(three_sides()))


def test_the_old_defaults_fall_short() -> None:
    """Red, blue and green with the old marks: issue 26's red-green confusion, and worse."""
    base = three_sides()
    tracks = tuple(
        replace(t, color=c, lap2_color=lap2_shade(c))
        for t, c in zip(base.tracks, [(255, 0, 0), (0, 64, 255), (0, 255, 32)], strict=True)
    )
    marks = MarkColors((24, 24, 24), (48, 0, 40), (64, 24, 0), (72, 56, 24))
    layout = replace(base, tracks=tracks, marks=marks)
    sides = {c.vision: c for c in closest(side_by_side(layout)[:3])}
    deutan = sides[Vision.DEUTERANOPIA]
    assert (deutan.first, deutan.second, round(deutan.distance, 1)) == ("side 1", "side 3", 22.3)
    found = {c.vision: c for c in closest(side_by_side(layout))}
    protan = found[Vision.PROTANOPIA]
    assert (protan.first, protan.second) == ("the lurch line", "side 1")
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
        "side 1 and side 2 are 21.0 apart for deuteranopia vision",
        "the double-skunk line and side 1 are 23.8 apart for protanopia vision",
    ]
    (deutan,) = (c for c in shortfalls(red_green) if c.vision is Vision.DEUTERANOPIA)
    assert deutan.distance == pytest.approx(
        distance(led_light((255, 0, 0), 0.5), led_light((0, 255, 0), 0.5), Vision.DEUTERANOPIA)
    )
    assert shortfalls(three_sides()) == ()
    assert shortfalls(LedLayout.default()) == ()


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
    assert [c for c in closest(pairs) if c.distance < MIN_DISTANCE] == []
