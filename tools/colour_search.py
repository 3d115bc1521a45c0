"""Search for LED colours whose every side-by-side pair is far apart for every eye.

    .venv/bin/python tools/colour_search.py [--keep-sides] [--pure] [--starts 6] [--brightness 0.5]

The pairs are ``pegboard.ui.legibility.lit_pairs`` of three tracks as one-lap tracks of 122
LEDs and as two-lap tracks of 61 and of 60 (``legibility.boards``: a default colour serves every
board), those that need colour (``needs_colour``), and two more: a street mark beside each
line's colour (the double-skunk line stands on a street's hole, so it must not look like one).
The unknowns are the three side colours (with ``--keep-sides``, the defaults stay: their names)
and the four marks (kept faint: no channel above 64, so a mark never looks like a peg, and at
least one at 12, so it still glows). ``--pure`` searches how pegboard drew before: a shade of
its own for each side's second lap, the rear peg at a quarter of the colour, every pair told by
colour alone.

Each colour comes from a grid (every 15th drive value for the sides, every 4th for the marks),
its light as the LEDs show it at the brightness; the search maximises the smallest CAM02-UCS
distance over every pair and the four visions, by coordinate ascent (one colour at a time, every
grid value tried, the rest held) from several starting points drawn by a seeded
``random.Random``: two runs give the same answer. It prints the best found and its closest
pairs.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random

from pegboard.colours import Vision, led_light, ucs
from pegboard.config.leds import parse_leds
from pegboard.devices.ports import Color
from pegboard.ui.legibility import (
    DEALER,
    DOUBLE_SKUNK,
    LURCH,
    REAR,
    STREET,
    Lit,
    boards,
    lit_pairs,
    needs_colour,
)

PEG_GRID = [c for c in itertools.product(range(0, 256, 15), repeat=3) if max(c) == 255]
MARK_GRID = [c for c in itertools.product(range(0, 65, 4), repeat=3) if max(c) >= 12]
MARKS = (STREET, DOUBLE_SKUNK, LURCH, DEALER)
OLD_REAR_SHARE = 0.25  # before: the rear peg at a quarter of its side's colour

Slot = tuple[str, int]  # ("side", i), ("shade", i) or ("mark", i)
Unknown = tuple[Slot, bool]  # a slot, and whether it shows at the old rear peg's share


def unknown(lit: Lit, pure: bool) -> Unknown:
    """The unknown colour *lit* shows."""
    if lit.side < 0:
        return ("mark", MARKS.index(lit.what)), False
    kind = "shade" if lit.lap and pure else "side"
    return (kind, lit.side), pure and lit.what == REAR


class Search:
    """The pairs as pairs of unknowns, and each colour's appearance for every eye, kept."""

    def __init__(self, pairs: set[tuple[Lit, Lit]], brightness: float, pure: bool):
        self.brightness = brightness
        found = {tuple(sorted((unknown(a, pure), unknown(b, pure)))) for a, b in pairs}
        self.pairs = sorted(p for p in found if p[0] != p[1])
        self.slots = sorted({slot for pair in self.pairs for slot, _ in pair})
        self._seen: dict[Color, tuple[tuple[float, float, float], ...]] = {}

    def seen(self, color: Color, rear: bool) -> tuple[tuple[float, float, float], ...]:
        if rear:
            red, green, blue = (round(c * OLD_REAR_SHARE) for c in color)
            color = (red, green, blue)
        found = self._seen.get(color)
        if found is None:
            light = led_light(color, self.brightness)
            found = self._seen[color] = tuple(ucs(light, v) for v in Vision)
        return found

    def gaps(self, colors: dict[Slot, Color], only: Slot | None = None) -> list[float]:
        """For each pair (with *only*, each of its pairs), the smallest distance of any eye."""
        found = []
        for (a, rear_a), (b, rear_b) in self.pairs:
            if only is None or only in (a, b):
                seen_a, seen_b = self.seen(colors[a], rear_a), self.seen(colors[b], rear_b)
                found.append(min(math.dist(x, y) for x, y in zip(seen_a, seen_b, strict=True)))
        return found

    def ascend(self, colors: dict[Slot, Color], free: list[Slot]) -> dict[Slot, Color]:
        best = min(self.gaps(colors))
        for _ in range(8):
            for slot in free:
                score = []
                for color in MARK_GRID if slot[0] == "mark" else PEG_GRID:
                    colors[slot] = color
                    gaps = self.gaps(colors, slot)
                    # the smallest gap first; among equals, the sum of the small ones
                    score.append((min(gaps), sum(min(g, 45.0) for g in gaps), color))
                colors[slot] = max(score)[2]
            now = min(self.gaps(colors))
            if now <= best + 1e-9:
                break
            best = now
        return colors

    def run(self, starts: int, fixed: dict[Slot, Color]) -> tuple[float, dict[Slot, Color]]:
        """The best of *starts* ascents; the *fixed* colours stay as they are."""
        rnd = random.Random(26)
        free = [s for s in self.slots if s not in fixed]
        found: tuple[float, dict[Slot, Color]] | None = None
        for _ in range(starts):
            colors = {s: rnd.choice(MARK_GRID if s[0] == "mark" else PEG_GRID) for s in free}
            colors = self.ascend(colors | fixed, free)
            low = min(self.gaps(colors))
            if found is None or low > found[0]:
                found = (low, dict(colors))
        assert found is not None
        return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--brightness", type=float, default=0.5)
    parser.add_argument("--starts", type=int, default=6)
    parser.add_argument("--keep-sides", action="store_true", help="keep the default sides")
    parser.add_argument("--pure", action="store_true", help="colour alone: shades, dim rears")
    args = parser.parse_args()
    base = parse_leds({}, sides=3).layout
    pairs = {
        pair
        for board in boards(base)
        for pair in lit_pairs(board, second=not args.pure)
        if args.pure or needs_colour(*pair)
    }
    pairs |= {(Lit(STREET), Lit(DOUBLE_SKUNK)), (Lit(STREET), Lit(LURCH))}
    search = Search(pairs, args.brightness, args.pure)
    sides = {("side", i): t.color for i, t in enumerate(base.tracks)}
    low, colors = search.run(args.starts, sides if args.keep_sides else {})
    print(f"{len(search.pairs)} pairs of unknowns; the best smallest distance {low:.1f}")
    for slot in search.slots:
        name = MARKS[slot[1]] if slot[0] == "mark" else f"{slot[0]} {slot[1] + 1}"
        print(f"  {name:<18} {colors[slot]}")
    for gap, ((a, _), (b, _)) in sorted(zip(search.gaps(colors), search.pairs, strict=True))[:3]:
        print(f"  closest: {gap:5.1f} {a} / {b}")


if __name__ == "__main__":
    main()
