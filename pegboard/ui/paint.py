"""Fonts and drawing for the OLED screens: the bundled bitmap font, a painter, text fitting.

Text is drawn with a bitmap font (Terminus, SIL Open Font License, bundled in
``pegboard/fonts``), one strike per size, so "1" mode images are crisp: no anti-aliasing to
threshold. In "L" (greyscale, e.g. SSD1322) and "RGB" modes secondary text is drawn dimmer.
Everything here is pure: a ``Painter`` draws on its own new image.

Pillow is imported by the first ``Painter`` or ``font_face``, not with this module: the styles
and sizes here are read by the config, and the daemon reports READY before it draws its first
frame, so it loads Pillow after READY (``tests/table/test_start.py``).

Two styles (``Style``): compact draws the secondary lines (the status, the count's calls, the
menu) in the smallest strike, 12 px, to fit the most; large draws the calls at 16 px and the
status at 14 px or more, to be read across a pub table. Large is the default on screens 64
pixels tall or more; a 128x32 screen is compact unless told otherwise.
"""

from __future__ import annotations

import enum
import functools
import io
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard.frozen import frozen

if TYPE_CHECKING:
    from PIL import ImageFont

__all__ = [
    "DIM",
    "FAINT",
    "FULL",
    "MIN_SIZE",
    "MODES",
    "STRIKES",
    "Face",
    "Painter",
    "Size",
    "Style",
    "fit",
    "fit_tail",
    "font_face",
    "largest_face",
    "typed_lines",
    "wrap",
]

MODES = ("1", "L", "RGB")
"""The Pillow image modes screens can be drawn in."""

MIN_SIZE = (64, 32)
"""The smallest screen the layouts are made for (width, height)."""

Size = tuple[int, int]

STRIKES = (12, 14, 16, 18, 20, 22, 24, 28, 32)  # the pixel sizes Terminus was drawn at
FULL = 255
DIM = 140  # secondary text in greyscale: still readable on an SSD1322 at low contrast
FAINT = 70  # rules and separators in greyscale


class Style(enum.Enum):
    """How large the screens draw their text: compact fits more, large reads from further."""

    COMPACT = "compact"
    LARGE = "large"

    @classmethod
    def default_for(cls, size: Size) -> Style:
        """Large on screens 64 pixels tall or more (128x64, 256x64), compact on shorter ones.

        >>> Style.default_for((128, 64)), Style.default_for((128, 32))
        (<Style.LARGE: 'large'>, <Style.COMPACT: 'compact'>)
        """
        return cls.LARGE if size[1] >= 64 else cls.COMPACT


@frozen
class Face:
    """One strike of the bundled bitmap font, with the metrics layouts need."""

    size: int
    bold: bool
    font: ImageFont.FreeTypeFont = field(compare=False)
    top: int  # first ink row of capitals and digits below the top of the line box
    base: int  # one past the last ink row of capitals and digits (the baseline)

    @property
    def advance(self) -> int:
        """Width of one character (the font is monospaced)."""
        return self.size // 2

    @property
    def digit_height(self) -> int:
        """Ink height of capitals and digits."""
        return self.base - self.top

    @property
    def text_height(self) -> int:
        """Ink height of a line of text, descenders included."""
        return self.size - self.top

    def width(self, text: str) -> int:
        """Width of *text* in pixels."""
        return len(text) * self.advance


_FONTS = Path(__file__).resolve().parent.parent / "fonts"
"""The bundled fonts, beside the package's modules (pip installs a package as files; a plain
path saves importing ``importlib.resources`` and ``zipfile`` on the way to the first frame)."""


@functools.cache
def font_face(size: int, bold: bool = True) -> Face:
    from PIL import Image, ImageDraw, ImageFont

    name = "terminus-bold.otb" if bold else "terminus-normal.otb"
    data = (_FONTS / name).read_bytes()
    font = ImageFont.truetype(io.BytesIO(data), size)
    probe = Image.new("1", (size * 2, size * 2))
    ImageDraw.Draw(probe).text((0, 0), "0H", font=font, fill=1)
    box = probe.getbbox()
    assert box is not None, "the bundled font has no glyph for '0H'"
    return Face(size, bold, font, top=box[1], base=box[3])


def largest_face(
    max_height: int, max_width: int, chars: int, *, digits: bool = True, smallest: int = 12
) -> Face:
    """The largest strike whose ink fits *max_height* and whose *chars* fit *max_width*."""
    best = font_face(smallest)
    for size in STRIKES:
        if size < smallest:
            continue
        face = font_face(size)
        height = face.digit_height if digits else face.text_height
        if height <= max_height and face.width("0" * chars) <= max_width:
            best = face
    return best


class Painter:
    """A blank image and the few drawing helpers every screen uses.

    ``small`` is the smallest text the screen uses (12 px, 16 px on screens 96 pixels tall or
    more); ``status`` is the face of status lines: ``small`` in the compact style, two strikes
    up (14 px, 20 px) in the large one.
    """

    def __init__(self, size: Size, mode: str, style: Style = Style.COMPACT) -> None:
        if mode not in MODES:
            raise ValueError(f"unsupported image mode {mode!r} (expected one of {MODES!r})")
        width, height = size
        if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
            raise ValueError(
                f"screen too small: {size!r} (expected at least {MIN_SIZE[0]}x{MIN_SIZE[1]})"
            )
        from PIL import Image, ImageDraw

        self.mode = mode
        self.width, self.height = width, height
        self.image = Image.new(mode, size, 0)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.fontmode = "1"  # never anti-alias: the strikes are drawn pixel by pixel
        self.style = style
        self.small = font_face(12 if height < 96 else 16)
        self.status = self.small if style is Style.COMPACT else font_face(14 if height < 96 else 20)

    @property
    def large(self) -> bool:
        """True in the large style."""
        return self.style is Style.LARGE

    def ink(self, level: int = FULL) -> int | tuple[int, int, int]:
        """The colour for a grey *level*: full white on a monochrome screen."""
        if self.mode == "1":
            return 1 if level else 0
        if self.mode == "RGB":
            return (level, level, level)
        return level

    def text(self, x: int, y: int, text: str, face: Face, level: int = FULL) -> None:
        """Draw *text* with the top of its capitals at *y*."""
        self.draw.text((x, y - face.top), text, font=face.font, fill=self.ink(level))

    def text_right(self, right: int, y: int, text: str, face: Face, level: int = FULL) -> None:
        """Draw *text* ending at x = *right*."""
        self.text(right - face.width(text), y, text, face, level)

    def text_center(self, cx: int, y: int, text: str, face: Face, level: int = FULL) -> None:
        """Draw *text* centred on x = *cx*."""
        self.text(cx - face.width(text) // 2, y, text, face, level)

    def inverted(self, x: int, y: int, text: str, face: Face, width: int | None = None) -> None:
        """Draw *text* black on a white bar (a highlight), capitals' top at *y*."""
        w = face.width(text) + 2 if width is None else width
        self.draw.rectangle((x, y - 2, x + w - 1, y + face.text_height - 1), fill=self.ink(FULL))
        self.draw.text((x + 1, y - face.top), text, font=face.font, fill=self.ink(0))

    def hline(self, y: int, x0: int = 0, x1: int | None = None, level: int = FAINT) -> None:
        """A horizontal rule (dotted on a monochrome screen, faint in greyscale)."""
        end = self.width - 1 if x1 is None else x1
        if self.mode == "1":
            self.draw.point([(x, y) for x in range(x0, end + 1, 2)], fill=1)
        else:
            self.draw.line((x0, y, end, y), fill=self.ink(level))

    def vline(self, x: int, y0: int, y1: int, level: int = FAINT) -> None:
        """A vertical rule (dotted on a monochrome screen, faint in greyscale)."""
        if self.mode == "1":
            self.draw.point([(x, y) for y in range(y0, y1 + 1, 2)], fill=1)
        else:
            self.draw.line((x, y0, x, y1), fill=self.ink(level))

    def share_bar(self, y: int, share: float) -> None:
        """A bar 2 pixels high across the frame: *share* of it solid from the left, the rest
        dotted, with a notch above the middle (where 50% lies)."""
        split = round(max(0.0, min(1.0, share)) * self.width)
        if split:
            self.draw.rectangle((0, y, split - 1, y + 1), fill=self.ink(FULL))
        if split < self.width:
            self.hline(y + 1, split, self.width - 1)
        self.draw.point((self.width // 2, y - 1), fill=self.ink(FULL))

    def dot(self, cx: int, cy: int, r: int, level: int = FULL) -> None:
        """A filled disc (the dealer's mark)."""
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=self.ink(level))


def fit(text: str, face: Face, width: int) -> str:
    """*text* cut to *width* pixels, ending in "…" when cut."""
    room = width // face.advance
    if len(text) <= room:
        return text
    return text[: max(room - 1, 0)] + "…" if room > 0 else ""


def fit_tail(text: str, face: Face, width: int) -> str:
    """The end of *text* that fits *width*, starting with "…" when cut (typing scrolls left)."""
    room = width // face.advance
    if len(text) <= room:
        return text
    return "…" + text[len(text) - room + 1 :] if room > 1 else text[-room:]


def wrap(text: str, face: Face, width: int) -> list[str]:
    """*text* broken into lines of at most *width* pixels, at spaces where it can be."""
    room = max(width // face.advance, 1)
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            while len(word) > room:  # a word longer than a line is cut hard
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:room])
                word = word[room:]
            candidate = f"{line} {word}" if line else word
            if len(candidate) <= room:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def typed_lines(text: str, biggest: int, width: int, height: int) -> tuple[Face, list[str]]:
    """The strike and lines to draw what is typed in *width* x *height* (a cursor follows it).

    The largest strike up to *biggest* in which *text* fits one line; when even the smallest is
    too wide, two lines broken at a comma (the cut's "Bartholome 9," / "Maximilian _") rather
    than scroll the first name away; else its end, scrolled.
    """
    strikes = [font_face(size) for size in reversed(STRIKES) if size <= biggest]
    for face in strikes:
        if face.width(text) + face.advance + 2 <= width:
            return face, [text]
    for face in strikes:
        lines = wrap(text.replace(", ", ",\n"), face, width - face.advance - 2)
        if len(lines) == 2 and 2 * (face.text_height + 2) <= height:
            return face, lines
    smallest = strikes[-1]
    return smallest, [fit_tail(text, smallest, width - smallest.advance - 2)]
