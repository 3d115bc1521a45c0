"""Every text on the score sheet lies inside its cell or box and overlaps no other text, measured
with the font the PNG draws it in (its ink on Pillow's own layout, not an estimate): capitals,
three and four sides, English and German, A4 and letter."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC
from itertools import combinations

import pytest
from PIL import Image, ImageDraw, ImageFont

from pegboard.engine.history import GameHistory, MatchHistory, replay_match
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules
from pegboard.i18n import Language
from pegboard.ui.sheet import DPI, Drawing, Line, Paper, Rect, Text, layout_sheet
from pegboard.ui.sheetfiles import _estimate, text_width
from tests.journal.games import SCRIPT

MARGIN = 36.0
"""The page's margin in points: no text reaches into it."""

SLACK = 0.5
"""A pixel at 150 dpi, in points: a bold text's stroke may touch its wall."""

_DRAW = ImageDraw.Draw(Image.new("L", (1, 1)))

Box = tuple[float, float, float, float]


def extent(text: Text) -> Box:
    """Where *text*'s letters are on the page, in points (left, top, right, bottom): Pillow's
    own box for the text, in the font and at the size ``render_png`` draws it with: Pillow's
    default font in whole pixels, DejaVu Sans for letters beyond ASCII, bold as a stroke of a
    pixel from 8 points up."""
    scale = DPI / 72
    px = round(text.size * scale)
    ascii_only = all(" " <= ch <= "~" or ch in "·…" for ch in text.text)
    font = ImageFont.load_default(px) if ascii_only else ImageFont.truetype("DejaVuSans.ttf", px)
    x0, y0, x1, y1 = _DRAW.textbbox(
        (text.x * scale, text.y * scale),
        text.text,
        font=font,
        anchor=f"{text.align}s",
        stroke_width=1 if text.bold and text.size >= 8 else 0,
    )
    return x0 / scale, y0 / scale, x1 / scale, y1 / scale


def _walls(drawing: Drawing, y: float) -> list[float]:
    """The x of every vertical line and box edge crossing height *y*, and of the margins."""
    width, _ = drawing.paper.size
    walls = [MARGIN, width - MARGIN]
    for shape in drawing.shapes:
        if isinstance(shape, Line) and shape.x1 == shape.x2:
            if min(shape.y1, shape.y2) <= y <= max(shape.y1, shape.y2):
                walls.append(shape.x1)
        elif (
            isinstance(shape, Rect)
            and shape.outline is not None
            and shape.y <= y <= shape.y + shape.h
        ):
            walls += [shape.x, shape.x + shape.w]
    return sorted(walls)


def misfits(drawing: Drawing) -> list[str]:
    """What is wrong with the texts of *drawing*: each text wider than the cell its anchor is
    in (between the nearest lines or box edges on its left and right at its middle, the page's
    margins included), and each two texts whose letters overlap."""
    texts = [s for s in drawing.shapes if isinstance(s, Text)]
    boxes = [extent(t) for t in texts]
    wrong = []
    for text, (x0, y0, x1, y1) in zip(texts, boxes, strict=True):
        walls = _walls(drawing, (y0 + y1) / 2)
        # a text starts right of the wall at its anchor (left), ends left of it (right)
        left = max(w for w in walls if w < text.x or (text.align == "l" and w == text.x))
        right = min(w for w in walls if w > text.x or (text.align == "r" and w == text.x))
        if x0 < left - SLACK or x1 > right + SLACK:
            wrong.append(f"{text.text!r} at {text.size} pt spans {x0:.1f}-{x1:.1f}, its cell "
                         f"{left:.1f}-{right:.1f}")  # fmt: skip
    for (a, (ax0, ay0, ax1, ay1)), (b, (bx0, by0, bx1, by1)) in combinations(
        zip(texts, boxes, strict=True), 2
    ):
        if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1:
            wrong.append(f"{a.text!r} overlaps {b.text!r}")
    return wrong


def _game(
    rules: Rules, names: tuple[str, ...], commands: list[str]
) -> tuple[MatchHistory, GameHistory]:
    times = [(text, f"2025-03-01T20:{i:02d}:00+00:00") for i, text in enumerate(commands)]
    form = MatchFormat.BEST_OF_THREE if len(names) == 2 else MatchFormat.FIRST_TO_TWO
    match = replay_match(rules, names, form, times, match_id=1)
    game = match.current if match.current is not None else match.games[-1]
    return match, game


CAPS = ("WOLFGANGWWW", "MMMMMMMMMMMM")
THREE = ("Bartholomew", "Maximiliane", "Zoe")
VENUE = "WOLVERHAMPTON WORKING MEN'S CLUB AND INSTITUTE, MAIN HALL WWW"

GAMES = {
    "caps": (
        Rules.six_card(),
        CAPS,
        ["cut 9C 3D", "next", f"peg {CAPS[0]} 12", f"peg {CAPS[1]} 13", "deal"],
        VENUE,
    ),
    "scripted": (Rules.six_card(), ("Ann", "Bob"), list(SCRIPT), "The Red Lion"),
    "three-handed": (
        Rules.three_handed(),
        THREE,
        [
            "cut 9C 3D 5H",
            "next",
            *(f"peg {n} {p}" for n, p in zip(THREE, (30, 61, 12), strict=True)),
            "deal",
        ],
        "The Red Lion",
    ),
    # three sides past 100 after deal 10: "105" beside "d11" in the narrow hole column, and
    # three digits in the deals table's narrow score column (``pegboard sheet 23:1``)
    "three-handed-past-100": (
        Rules.three_handed(),
        ("Ann", "Bob", "Cy"),
        [
            "cut 9C 3D 5H",
            "next",
            *(text for d in range(11) for text in (f"peg Ann {10 if d < 10 else 5}", "deal")),
        ],
        "The Red Lion",
    ),
    # two scores a hole apart (40 after deal 1, 41 after deal 2; 60 and 61 for Bob): each
    # keeps its label
    "a-hole-apart": (
        Rules.six_card(),
        ("Ann", "Bob"),
        ["cut 9C 3D", "next", "peg Ann 40", "peg Bob 60", "deal", "peg Ann 1", "peg Bob 1"],
        "",
    ),
    "four-handed": (
        Rules.four_handed(),
        ("Annabel+Catriona", "Bartholomew+Dan"),
        ["cut 5H 3C", "next", "peg Bartholomew+Dan 61", "peg Bartholomew+Dan 60"],
        "",
    ),
}


def unlabelled(drawing: Drawing) -> list[str]:
    """Each hole column whose scores reached (its ticks) are not all labelled, as "N ticks, M
    labels at x": a label is the bold score drawn 15 points right of its tick's start."""
    ticks: dict[float, int] = {}
    for shape in drawing.shapes:
        if isinstance(shape, Line) and shape.width == 1.6:
            ticks[shape.x1] = ticks.get(shape.x1, 0) + 1
    wrong = []
    for x, count in sorted(ticks.items()):
        labels = sum(
            1
            for s in drawing.shapes
            if isinstance(s, Text) and s.bold and s.x == x + 15 and s.text.isdigit()
        )
        if labels != count:
            wrong.append(f"{count} ticks, {labels} labels at {x:.1f}")
    return wrong


def _sheet(case: str, language: Language, paper: Paper) -> Drawing:
    rules, names, commands, venue = GAMES[case]
    match, game = _game(rules, names, commands)
    return layout_sheet(game, venue=venue, match=match, tz=UTC, language=language, paper=paper)


@pytest.mark.parametrize("paper", [Paper.A4, Paper.LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("language", [Language.ENGLISH, Language.GERMAN], ids=["en", "de"])
@pytest.mark.parametrize("case", list(GAMES))
def test_every_text_fits_its_cell_and_overlaps_no_other(
    case: str, language: Language, paper: Paper
) -> None:
    """And every score reached in a hole column keeps its label (these games have room)."""
    drawing = _sheet(case, language, paper)
    assert misfits(drawing) + unlabelled(drawing) == []


def test_the_fit_check_sees_a_text_too_wide_and_two_that_overlap() -> None:
    """The check above can fail: a header drawn larger than its cell, a name drawn twice."""
    drawing = _sheet("scripted", Language.ENGLISH, Paper.A4)
    shapes = list(drawing.shapes)
    at = next(n for n, s in enumerate(shapes) if isinstance(s, Text) and s.text == "crib")
    crib = shapes[at]
    assert isinstance(crib, Text)
    shapes[at] = replace(crib, size=20)
    name = next(s for s in shapes if isinstance(s, Text) and s.text == "Bob")
    shapes.append(replace(name, x=name.x + 1))
    wrong = misfits(replace(drawing, shapes=tuple(shapes)))
    assert any(w.startswith("'crib' at 20 pt spans") for w in wrong), wrong
    assert "'Bob' overlaps 'Bob'" in wrong


def test_capitals_are_measured_as_wide_as_they_are() -> None:
    """The venue and the names in capitals are drawn smaller, or cut, to stay in their boxes."""
    drawing = _sheet("caps", Language.ENGLISH, Paper.A4)
    texts = [s for s in drawing.shapes if isinstance(s, Text)]
    venue = next(t for t in texts if t.text.startswith("WOLVERHAMPTON"))
    assert venue.size < 11
    dealer = [t for t in texts if t.text == CAPS[1] and not t.bold]
    assert dealer, "the dealer's column names the dealer"


@pytest.mark.parametrize(
    "text",
    [CAPS[0], CAPS[1], VENUE, "Bartholomew", "Auslegen", "Krippe", "Zählbogen", "1 4 1 2h", "iii"],
)
def test_without_pillow_the_estimate_is_never_narrower(text: str) -> None:
    """An SVG made without Pillow is laid out with an estimate that is at least the real width,
    so it overflows nothing either."""
    for size in (5.0, 6.5, 9.0, 13.0):
        assert _estimate(text, size) >= text_width(text, size, bold=True), (text, size)


@pytest.mark.parametrize(
    ("language", "key"),
    [
        pytest.param(Language.ENGLISH, "H = hand, C = crib, S = score", id="en"),
        pytest.param(Language.GERMAN, "H = Hand, K = Krippe, S = Stand", id="de"),
    ],
)
def test_a_header_too_wide_for_three_sides_is_its_initial_and_the_legend_says_so(
    language: Language, key: str
) -> None:
    texts = [
        s.text for s in _sheet("three-handed", language, Paper.A4).shapes if isinstance(s, Text)
    ]
    assert key in texts
    initials = [k.split(" = ")[0] for k in key.split(", ")]
    assert all(texts.count(initial) == 3 for initial in initials)  # one a side
    two = [s.text for s in _sheet("scripted", language, Paper.A4).shapes if isinstance(s, Text)]
    assert not any(" = " in text for text in two)  # two sides: every header whole, no key


@pytest.mark.parametrize("case", ["scripted", "three-handed"])
def test_fitting_the_headers_leaves_the_rows_size_alone(case: str) -> None:
    """Every cell of a deal's row is drawn at the row's size, as its deal number is (9 points on
    a sheet of a few deals), however small its column's header had to be."""
    drawing = _sheet(case, Language.ENGLISH, Paper.A4)
    texts = [s for s in drawing.shapes if isinstance(s, Text)]
    first = next(t for t in texts if t.text == "1" and t.align == "m" and t.y > 200)
    row = [t for t in texts if t.y == first.y]
    assert len(row) >= 5 and first.size == 9
    assert {t.size for t in row} == {9}, [(t.text, t.size) for t in row]
