"""The score sheet's shapes: a page (``Drawing``) of lines, boxes, dots and anchored text in
points (1/72 inch) on a ``Paper``, and the greys they are drawn in.

``sheet.layout_sheet`` makes a ``Drawing``; the renderers in ``sheetfiles`` draw one as PNG, PDF
or SVG. Both import the shapes from here, so neither imports the other for them.
"""

from __future__ import annotations

import enum

from pegboard.choices import parse_choice
from pegboard.frozen import frozen

__all__ = [
    "BLACK",
    "DARK",
    "DPI",
    "FONT_FAMILY",
    "LIGHT",
    "MID",
    "PALE",
    "WHITE",
    "Dot",
    "Drawing",
    "Line",
    "Paper",
    "Rect",
    "Shape",
    "Text",
]

DPI = 150
"""Resolution of the PNG and of the PDF's page image."""

FONT_FAMILY = "Aileron, 'Helvetica Neue', Helvetica, Arial, sans-serif"

BLACK, DARK, MID, LIGHT, PALE, WHITE = 0, 70, 130, 190, 235, 255
"""Greys, 0 black to 255 white: the sheet prints on any printer."""


class Paper(enum.Enum):
    """Paper sizes, valued by their command-line names; ``size`` in points."""

    A4 = "a4"
    LETTER = "letter"

    @classmethod
    def parse(cls, text: str) -> Paper:
        """Parse a paper name ("a4", "Letter").

        Raises:
            ConfigError: not a paper name.
        """
        return parse_choice(cls, text, "paper")

    @property
    def size(self) -> tuple[float, float]:
        """Width and height in points: A4 210 x 297 mm, letter 8.5 x 11 in."""
        if self is Paper.A4:
            return 210 / 25.4 * 72, 297 / 25.4 * 72
        return 8.5 * 72, 11 * 72

    @property
    def pixels(self) -> tuple[int, int]:
        """Width and height in pixels at ``DPI``."""
        width, height = self.size
        return round(width * DPI / 72), round(height * DPI / 72)


@frozen
class Line:
    """A straight line from (x1, y1) to (x2, y2), *width* points wide."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float = 0.6
    grey: int = BLACK


@frozen
class Rect:
    """A box: its top-left corner and size; filled and/or outlined (None: not)."""

    x: float
    y: float
    w: float
    h: float
    fill: int | None = None
    outline: int | None = BLACK
    width: float = 0.6


@frozen
class Dot:
    """A filled circle of radius *r* around (x, y)."""

    x: float
    y: float
    r: float
    grey: int = BLACK


@frozen
class Text:
    """Text whose baseline starts (``l``), centres (``m``) or ends (``r``) at (x, y)."""

    x: float
    y: float
    text: str
    size: float
    align: str = "l"
    bold: bool = False
    grey: int = BLACK


Shape = Line | Rect | Dot | Text


@frozen
class Drawing:
    """A page of shapes in points; *paper* gives its size. *cut* holds every text that was too
    wide for its place even at its least size, as it was before it was cut (ending in "…")."""

    paper: Paper
    shapes: tuple[Shape, ...]
    title: str = ""
    cut: tuple[str, ...] = ()
