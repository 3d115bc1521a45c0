"""Print how far apart the LED colours that stand side by side look, for every eye.

    .venv/bin/python tools/colour_distances.py [--config PATH]

For the default colours (three sides, two-lap shades counted, at the default brightness and at
full brightness) and for the old defaults (red, blue, green) or a config file's ``[leds]``: the
closest pair in CAM02-UCS for normal vision, deuteranopia, protanopia and tritanopia
(``pegboard.ui.legibility``). ``pegboard selftest`` warns when a config's pairs fall under 30.
"""

from __future__ import annotations

import argparse
import tomllib
from dataclasses import replace
from pathlib import Path

from pegboard.config.leds import parse_leds
from pegboard.ui.ledlayout import LedLayout, MarkColors, TrackLayout, lap2_shade
from pegboard.ui.legibility import closest, side_by_side

OLD_SIDES = ((255, 0, 0), (0, 64, 255), (0, 255, 32))
OLD_MARKS = MarkColors((24, 24, 24), (48, 0, 40), (64, 24, 0), (72, 56, 24))


def old_defaults(layout: LedLayout) -> LedLayout:
    """*layout* in the colours pegboard had before issue 26 (the lap shade halfway to white)."""
    tracks = tuple(
        TrackLayout(t.strip, t.segments, c, lap2_shade(c), t.start_led, t.laps)
        for t, c in zip(layout.tracks, OLD_SIDES, strict=False)
    )
    return replace(layout, tracks=tracks, marks=OLD_MARKS)


def report(title: str, layout: LedLayout, laps: bool | None) -> None:
    print(f"{title} (brightness {layout.brightness:g})")
    for c in closest(side_by_side(layout, laps=laps)):
        print(f"  {c.vision.value:<13} {c.distance:5.1f}  {c.first} / {c.second}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, help="a pegboard TOML config to measure too")
    args = parser.parse_args()
    three = parse_leds({}, sides=3).layout
    report("default colours, three sides, both laps", three, True)
    report("default colours, three sides, both laps", replace(three, brightness=1.0), True)
    report("old colours, three sides, both laps", old_defaults(three), True)
    report("old colours, three sides, first lap", old_defaults(three), False)
    if args.config is not None:
        config = tomllib.loads(args.config.read_text(encoding="utf-8"))
        report(f"{args.config}", parse_leds(config).layout, None)


if __name__ == "__main__":
    main()
