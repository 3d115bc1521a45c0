"""The score sheet's files: a ``Drawing`` (``sheetshapes``, laid out by ``sheet``) as PNG,
PDF or SVG.

``render_png`` and ``render_pdf`` draw the shapes with Pillow (greyscale at ``DPI``; the PDF page
is exactly the paper's size), ``render_svg`` writes them as text. Neither measures anything:
the layout placed every shape, measuring its text with ``text_width``, the metrics of the very
font the PNG and PDF draw with. Pillow's default font (Aileron) draws ASCII only; a text with
other letters is drawn in DejaVu Sans where the system has it, else spelled without umlauts.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from .sheetshapes import DPI, FONT_FAMILY, WHITE, Dot, Drawing, Line, Rect, Text

__all__ = ["render_pdf", "render_png", "render_svg", "text_width"]


WIDE_FONT = "DejaVuSans.ttf"
"""The PNG's and PDF's font for text with letters beyond Pillow's default font (ASCII): DejaVu
Sans (Debian's fonts-dejavu-core), found among the system's fonts."""

_DEFAULT_CHARS = frozenset(map(chr, range(0x20, 0x7F))) | {"·", "…"}
"""The letters Pillow's default font (Aileron) draws; 'ä', 'ß' or the en dash it has not."""

_SPELLED = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss", "–": "-"}
)


_Font = Any
"""A Pillow font (``FreeTypeFont``, or the bitmap ``ImageFont`` of an old Pillow)."""


@functools.lru_cache(maxsize=128)
def _font(px: int, wide: bool) -> _Font:
    """Pillow's default font at *px* pixels, or DejaVu Sans (*wide*).

    Raises:
        OSError: *wide* and the system has no DejaVu Sans.
    """
    from PIL import ImageFont

    if wide:  # Pillow finds a bare file name among the system's fonts
        return ImageFont.truetype(WIDE_FONT, px)
    return ImageFont.load_default(size=px)


def _face(text: str, size: float) -> tuple[str, _Font]:
    """*text* as it is drawn at *size* points, and the font that has every letter of it."""
    px = round(size * DPI / 72)
    if set(text) <= _DEFAULT_CHARS:
        return text, _font(px, False)
    try:
        return text, _font(px, True)
    except OSError:  # no DejaVu Sans: German's own spelling without umlauts
        return text.translate(_SPELLED), _font(px, False)


def _stroke(size: float, bold: bool) -> int:
    """The stroke, in pixels, that draws bold text (Pillow has no bold default font)."""
    return 1 if bold and size >= 8 else 0


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width in points of *text* at *size* points, as ``render_png`` and ``render_pdf``
    draw it: the same font, its size in whole pixels, bold's stroke on both sides. The SVG
    names the same family first, so these metrics stand in for its too. Without Pillow (an SVG
    made without the ``hw`` extra) a generous estimate: capitals as wide as "W".

    >>> text_width("", 10), text_width("W", 10) > text_width("i", 10)
    (0.0, True)
    """
    if not text:
        return 0.0
    try:
        shown, font = _face(text, size)
    except ImportError:
        return _estimate(text, size)
    return (float(font.getlength(shown)) + 2 * _stroke(size, bold)) * 72 / DPI


def _estimate(text: str, size: float) -> float:
    """A generous width of *text* in points at *size*, bold or not, for when there is no Pillow
    to measure it: a capital (or m, w) a whole size wide, any other letter 0.62 of it."""
    wide = sum(1 for ch in text if ch.isupper() or ch in "mw@%&")
    return size * (wide + (len(text) - wide) * 0.62)


def _image(drawing: Drawing) -> object:
    """The page drawn with Pillow, greyscale at ``DPI``."""
    from PIL import Image, ImageDraw

    scale = DPI / 72
    image = Image.new("L", drawing.paper.pixels, WHITE)
    draw = ImageDraw.Draw(image)

    def px(v: float) -> float:
        return v * scale

    for shape in drawing.shapes:
        match shape:
            case Rect(x, y, w, h, fill, outline, width):
                draw.rectangle(
                    (px(x), px(y), px(x + w), px(y + h)),
                    fill=fill,
                    outline=outline,
                    width=0 if outline is None else max(1, round(px(width))),
                )
            case Line(x1, y1, x2, y2, width, grey):
                draw.line(
                    (px(x1), px(y1), px(x2), px(y2)), fill=grey, width=max(1, round(px(width)))
                )
            case Dot(x, y, r, grey):
                draw.ellipse((px(x - r), px(y - r), px(x + r), px(y + r)), fill=grey)
            case Text(x, y, text, size, align, bold, grey):
                shown, typeface = _face(text, size)
                draw.text(
                    (px(x), px(y)),
                    shown,
                    fill=grey,
                    font=typeface,
                    anchor=f"{align}s",
                    stroke_width=_stroke(size, bold),
                    stroke_fill=grey,
                )
    return image


def render_png(drawing: Drawing) -> bytes:
    """The page as a PNG (greyscale, ``DPI`` dots per inch)."""
    from PIL import Image

    image = _image(drawing)
    assert isinstance(image, Image.Image)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", dpi=(DPI, DPI), optimize=True)
    return buffer.getvalue()


def render_pdf(drawing: Drawing) -> bytes:
    """The page as a one-page PDF of the paper's size (Pillow's PDF writer, ``DPI``)."""
    from PIL import Image

    image = _image(drawing)
    assert isinstance(image, Image.Image)
    buffer = io.BytesIO()
    image.save(buffer, "PDF", resolution=float(DPI), title=drawing.title, creator="pegboard")
    return buffer.getvalue()


def render_pdf_pages(drawings: Sequence[Drawing], title: str = "") -> bytes:
    """The pages as one PDF, each of its paper's size (Pillow's PDF writer, ``DPI``).

    Raises:
        ValueError: no pages.
    """
    from PIL import Image

    if not drawings:
        raise ValueError("no pages to print")
    images = [_image(d) for d in drawings]
    assert all(isinstance(image, Image.Image) for image in images)
    buffer = io.BytesIO()
    first = images[0]
    assert isinstance(first, Image.Image)
    first.save(
        buffer,
        "PDF",
        resolution=float(DPI),
        title=title or drawings[0].title,
        creator="pegboard",
        save_all=True,
        append_images=images[1:],
    )
    return buffer.getvalue()


_ANCHOR = {"l": "start", "m": "middle", "r": "end"}


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold at all, not even escaped (control characters, lone
surrogates, U+FFFE, U+FFFF)."""


def _xml(text: str) -> str:
    """*text* as an SVG element's or attribute's content: &, <, > and quotes escaped, and any
    character XML cannot hold shown as U+FFFD (a name from an old journal may have one).

    >>> _xml('Bar & <Grill> "x"\\x01') == 'Bar &amp; &lt;Grill&gt; &quot;x&quot;\\ufffd'
    True
    """
    return escape(_NOT_XML.sub("\ufffd", text), {'"': "&quot;"})


def _grey(value: int) -> str:
    return f"#{value:02x}{value:02x}{value:02x}"


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def render_svg(drawing: Drawing) -> str:
    """The page as an SVG document (sizes in millimetres; coordinates in points)."""
    width, height = drawing.paper.size
    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width / 72 * 25.4)}mm" '
        f'height="{_num(height / 72 * 25.4)}mm" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'font-family="{_xml(FONT_FAMILY)}">',
        f"<title>{_xml(drawing.title)}</title>",
        f'<rect width="{_num(width)}" height="{_num(height)}" fill="#ffffff"/>',
    ]
    for shape in drawing.shapes:
        match shape:
            case Rect(x, y, w, h, fill, outline, line):
                paint = _grey(fill) if fill is not None else "none"
                stroke = (
                    f' stroke="{_grey(outline)}" stroke-width="{_num(line)}"'
                    if outline is not None
                    else ""
                )
                out.append(
                    f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
                    f'fill="{paint}"{stroke}/>'
                )
            case Line(x1, y1, x2, y2, line, grey):
                out.append(
                    f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
                    f'stroke="{_grey(grey)}" stroke-width="{_num(line)}"/>'
                )
            case Dot(x, y, r, grey):
                out.append(
                    f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" fill="{_grey(grey)}"/>'
                )
            case Text(x, y, text, size, align, bold, grey):
                weight = ' font-weight="bold"' if bold else ""
                out.append(
                    f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" '
                    f'text-anchor="{_ANCHOR[align]}" fill="{_grey(grey)}"{weight}>'
                    f"{_xml(text)}</text>"
                )
    out.append("</svg>")
    return "\n".join(out) + "\n"
