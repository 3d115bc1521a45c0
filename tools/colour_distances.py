"""Print how far apart the LED colours that stand side by side look, for every eye.

    .venv/bin/python tools/colour_distances.py [--config PATH]

One table per colour set: for every kind of pair that can stand side by side
(``pegboard.ui.legibility.lit_pairs`` on three tracks of 122 LEDs and as two-lap tracks of 61
and 60: ``legibility.boards``), the closest pair's CAM02-UCS distance for normal vision,
deuteranopia, protanopia and tritanopia. The sets: the default colours at the default
brightness and at full; the colours of issue 26's first pass (each second lap in a shade of
its own, the rear peg at a quarter of the colour, a second-lap peg on one LED); the old red,
blue and green; and a config file's ``[leds]`` as configured. ``pegboard selftest`` warns when
a config's pairs fall under 30.
"""

from __future__ import annotations

import argparse
import collections
import tomllib
from dataclasses import replace
from pathlib import Path

from pegboard.colours import Vision, distance, led_light
from pegboard.config.leds import parse_leds
from pegboard.devices.ports import Color
from pegboard.ui.ledlayout import LedLayout, MarkColors, lap2_shade
from pegboard.ui.legibility import (
    MIN_DISTANCE,
    REAR,
    Lit,
    boards,
    lit_color,
    lit_pairs,
    lowest_brightness,
    needs_colour,
    pair_class,
)

FIRST_PASS_SHADES = ((18, 66, 66), (70, 70, 0), (242, 224, 255))
FIRST_PASS_MARKS = MarkColors((24, 24, 24), (24, 0, 0), (2, 0, 33), (0, 0, 33))
OLD_SIDES = ((255, 0, 0), (0, 64, 255), (0, 255, 32))
OLD_MARKS = MarkColors((24, 24, 24), (48, 0, 40), (64, 24, 0), (72, 56, 24))
REAR_SHARE_BEFORE = 0.25


def recoloured(layout: LedLayout, sides: tuple[Color, ...], shades: tuple[Color, ...],
               marks: MarkColors) -> LedLayout:  # fmt: skip
    tracks = tuple(
        replace(t, color=c, lap2_color=s)
        for t, c, s in zip(layout.tracks, sides, shades, strict=False)
    )
    return replace(layout, tracks=tracks, marks=marks)


def table(title: str, layouts: tuple[LedLayout, ...], *, before: bool = False) -> None:
    """The closest pair of each kind over *layouts*; *before*: drawn as before this pass (a
    second-lap peg on one LED, the rear peg at a quarter, every pair told by colour)."""

    def colour(lit: Lit, layout: LedLayout) -> Color:
        c = lit_color(lit, layout)
        if before and lit.what == REAR:
            red, green, blue = (round(v * REAR_SHARE_BEFORE) for v in c)
            return (red, green, blue)
        return c

    rows: dict[str, list[float]] = collections.defaultdict(lambda: [1000.0] * 4)
    for layout in layouts:
        for a, b in lit_pairs(layout, second=not before):
            kind = pair_class(a, b)
            if not before and not needs_colour(a, b):
                kind += " (told apart by order and second LED)"
            one, two = (led_light(colour(x, layout), layout.brightness) for x in (a, b))
            for i, vision in enumerate(Vision):
                rows[kind][i] = min(rows[kind][i], distance(one, two, vision))
    print(f"{title} (brightness {layouts[0].brightness:g})")
    print(f"  {'pair':<72} {'normal':>7} {'deutan':>7} {'protan':>7} {'tritan':>7}")
    for kind, row in sorted(rows.items()):
        print(f"  {kind:<72} " + " ".join(f"{d:7.1f}" for d in row))
    needed = [min(row) for kind, row in rows.items() if before or "told apart by" not in kind]
    print(f"  smallest where colour is needed: {min(needed):.1f} (at least {MIN_DISTANCE:g})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, help="a pegboard TOML config to measure too")
    args = parser.parse_args()
    three = parse_leds({}, sides=3).layout
    table("default colours, three sides", boards(three))
    table("default colours, three sides", boards(replace(three, brightness=1.0)))
    print(
        f"the default colours keep {MIN_DISTANCE:g} from brightness {lowest_brightness(three)} up"
    )
    sides = tuple(t.color for t in three.tracks)
    first = recoloured(three, sides, FIRST_PASS_SHADES, FIRST_PASS_MARKS)
    table("issue 26's first pass, drawn as then", boards(first), before=True)
    old = recoloured(three, OLD_SIDES, tuple(map(lap2_shade, OLD_SIDES)), OLD_MARKS)
    table("old red, blue and green, drawn as then", boards(old), before=True)
    if args.config is not None:
        config = tomllib.loads(args.config.read_text(encoding="utf-8"))
        layout = parse_leds(config).layout
        table(f"{args.config}", (layout,))
        print(f"these colours keep {MIN_DISTANCE:g} from brightness {lowest_brightness(layout)} up")


if __name__ == "__main__":
    main()
