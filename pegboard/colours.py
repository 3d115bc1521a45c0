"""Colour science for telling colours apart: sRGB, CIECAM02, CAM02-UCS and simulated colour
vision deficiency, in plain Python (no numpy on the Pi).

Theory of operation
-------------------
Two colours are told apart by how far apart they look, and *look* depends on the eye. We
measure it the way the colour-science literature does:

1. **Light.** A colour arrives as linear RGB light, 0..1 a channel, on sRGB's primaries (an
   LED's drive value through ``led_light``; a web colour through ``srgb_to_linear``, the
   IEC 61966-2-1 curve).
2. **The eye.** ``simulate`` turns that light into what a dichromat sees, by the matrices of
   Machado, Oliveira and Fernandes (2009), "A physiologically-based model for simulation of
   color vision deficiency", at severity 1.0 (protanopia, deuteranopia, tritanopia), applied
   to linear RGB.
3. **Appearance.** ``ciecam02`` is the CIE's colour appearance model (CIE 159:2004): lightness
   J, colourfulness M and hue h under ``VIEWING`` (a D65 white of Y = 100, an adapting
   luminance of 64/π/5 cd/m², a background of Y = 20, an average surround: the usual
   conditions for an sRGB display).
4. **Distance.** ``ucs`` maps J, M and h onto CAM02-UCS (Luo, Cui and Li 2006: J' =
   1.7 J / (1 + 0.007 J), M' = ln(1 + 0.0228 M) / 0.0228), where straight-line distance tracks
   how different two colours look; ``distance`` is that, for one vision. Two colours about
   1 apart are just told apart side by side; 30 apart are told apart at a glance across a table.

The code is written from the published formulas; ``tests/test_colours.py`` checks it against
an independent implementation (the ``colorspacious`` package) and published worked values.

>>> round(distance((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)), 1)  # red and green, normal vision
76.1
>>> round(distance((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), Vision.DEUTERANOPIA), 1)
24.9
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence

from pegboard.frozen import frozen

__all__ = [
    "VIEWING",
    "Cam02",
    "Rgb",
    "Viewing",
    "Vision",
    "ciecam02",
    "distance",
    "led_light",
    "linear_to_srgb",
    "simulate",
    "srgb_to_linear",
    "ucs",
    "xyz",
]

Rgb = tuple[float, float, float]
"""Linear RGB light on sRGB's primaries, 0..1 a channel (1, 1, 1 is the white)."""

_Matrix = tuple[Rgb, Rgb, Rgb]


def _apply(matrix: _Matrix, v: Sequence[float]) -> Rgb:
    a, b, c = v
    return (
        matrix[0][0] * a + matrix[0][1] * b + matrix[0][2] * c,
        matrix[1][0] * a + matrix[1][1] * b + matrix[1][2] * c,
        matrix[2][0] * a + matrix[2][1] * b + matrix[2][2] * c,
    )


# -- light -------------------------------------------------------------------------------------


def srgb_to_linear(value: float) -> float:
    """An sRGB-encoded channel (0..1) as linear light (IEC 61966-2-1).

    >>> srgb_to_linear(0.0), srgb_to_linear(1.0), round(srgb_to_linear(0.5), 4)
    (0.0, 1.0, 0.214)
    """
    if value <= 0.04045:
        return value / 12.92
    return math.pow((value + 0.055) / 1.055, 2.4)


def linear_to_srgb(value: float) -> float:
    """Linear light (0..1) as an sRGB-encoded channel: ``srgb_to_linear`` undone.

    >>> round(linear_to_srgb(0.214), 3)
    0.5
    """
    if value <= 0.0031308:
        return value * 12.92
    return 1.055 * math.pow(value, 1 / 2.4) - 0.055


LED_GAMMA = 1.0
"""An LED's light against its drive value: a WS2812 or APA102 channel is pulse-width
modulated, so its light is proportional to its value (a gamma of 1). The terminal and the pub
page show the same light sRGB-encoded (``linear_to_srgb``), so they look alike."""


def led_light(color: Sequence[int], brightness: float = 1.0, gamma: float = LED_GAMMA) -> Rgb:
    """The linear light of an LED driven at *color* (0..255 a channel) scaled by *brightness*.

    As the tracks dim it (``pegboard.ui.ledtracks``): each lit channel becomes
    ``max(1, round(value * brightness))``, then its light is ``(value / 255) ** gamma``.

    >>> led_light((255, 64, 0), 0.5)
    (0.5019607843137255, 0.12549019607843137, 0.0)
    """

    def light(value: int) -> float:
        if value <= 0 or brightness <= 0:
            return 0.0
        return math.pow(max(1, round(value * brightness)) / 255, gamma)

    red, green, blue = color
    return (light(red), light(green), light(blue))


# -- the eye -----------------------------------------------------------------------------------


class Vision(enum.Enum):
    """Normal vision and the three dichromacies, each with its simulation matrix on linear RGB
    (Machado et al. 2009, severity 1.0; the identity for normal vision)."""

    NORMAL = "normal"
    DEUTERANOPIA = "deuteranopia"
    PROTANOPIA = "protanopia"
    TRITANOPIA = "tritanopia"

    @property
    def matrix(self) -> _Matrix:
        """The matrix that maps linear RGB to what this eye sees, as linear RGB."""
        return _MACHADO[self]


_MACHADO: dict[Vision, _Matrix] = {
    Vision.NORMAL: ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    # Machado, Oliveira and Fernandes 2009, table of simulation matrices, severity 1.0
    Vision.PROTANOPIA: (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    Vision.DEUTERANOPIA: (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    Vision.TRITANOPIA: (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def simulate(rgb: Sequence[float], vision: Vision) -> Rgb:
    """The linear RGB light that looks to normal vision as *rgb* looks to *vision*.

    Not clipped: a channel may fall a little outside 0..1, and CIECAM02 takes it as it is.

    >>> [round(c, 3) for c in simulate((1.0, 0.0, 0.0), Vision.DEUTERANOPIA)]
    [0.367, 0.28, -0.012]
    """
    return _apply(vision.matrix, rgb)


# -- appearance ---------------------------------------------------------------------------------

_SRGB_TO_XYZ: _Matrix = (
    (0.4124, 0.3576, 0.1805),
    (0.2126, 0.7152, 0.0722),
    (0.0193, 0.1192, 0.9505),
)  # IEC 61966-2-1's primaries and D65 white


def xyz(rgb: Sequence[float]) -> Rgb:
    """CIE XYZ (Y = 100 for the white) of linear sRGB light.

    >>> [round(v, 2) for v in xyz((1.0, 1.0, 1.0))]
    [95.05, 100.0, 108.9]
    """
    x, y, z = _apply(_SRGB_TO_XYZ, rgb)
    return (100 * x, 100 * y, 100 * z)


_CAT02: _Matrix = (
    (0.7328, 0.4296, -0.1624),
    (-0.7036, 1.6975, 0.0061),
    (0.0030, 0.0136, 0.9834),
)
_HPE: _Matrix = (
    (0.38971, 0.68898, -0.07868),
    (-0.22981, 1.18340, 0.04641),
    (0.0, 0.0, 1.0),
)


def _inverse(m: _Matrix) -> _Matrix:
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return (
        ((e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det),
        ((f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det),
        ((d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det),
    )


def _product(m: _Matrix, n: _Matrix) -> _Matrix:
    first, second, third = (_apply(m, column) for column in zip(*n, strict=True))
    row0, row1, row2 = zip(first, second, third, strict=True)  # the columns back into rows
    return (row0, row1, row2)


_HPE_FROM_CAT02 = _product(_HPE, _inverse(_CAT02))


@frozen
class Viewing:
    """CIECAM02's viewing conditions, and the constants that follow from them.

    *white* is the adopted white's XYZ, *adapting* the adapting field's luminance L_A in cd/m²,
    *background* its relative luminance Y_b; *surround* is F, c and N_c (average: 1.0, 0.69,
    1.0).
    """

    white: Rgb = (95.047, 100.0, 108.883)
    adapting: float = 64 / math.pi / 5
    background: float = 20.0
    surround: Rgb = (1.0, 0.69, 1.0)

    @property
    def _constants(self) -> tuple[float, float, float, float, float, Rgb, float]:
        """F_L, n, z, N_bb, A_w, the white's discounting factors and its achromatic response."""
        f, _, _ = self.surround
        la = self.adapting
        y_w = self.white[1]
        d = min(1.0, max(0.0, f * (1 - (1 / 3.6) * math.exp((-la - 42) / 92))))
        k = 1 / (5 * la + 1)
        f_l = 0.2 * k**4 * (5 * la) + 0.1 * (1 - k**4) ** 2 * (5 * la) ** (1 / 3)
        n = self.background / y_w
        z = 1.48 + math.sqrt(n)
        n_bb = 0.725 * (1 / n) ** 0.2
        rgb_w = _apply(_CAT02, self.white)
        factors = (
            y_w * d / rgb_w[0] + 1 - d,
            y_w * d / rgb_w[1] + 1 - d,
            y_w * d / rgb_w[2] + 1 - d,
        )
        adapted = _adapt(rgb_w, factors, f_l)
        a_w = (2 * adapted[0] + adapted[1] + adapted[2] / 20 - 0.305) * n_bb
        return f_l, n, z, n_bb, a_w, factors, d


VIEWING = Viewing()
"""An sRGB display's usual conditions (those ``colorspacious`` assumes too)."""


def _compress(value: float, f_l: float) -> float:
    """CIECAM02's post-adaptation response, odd in *value* (a simulated eye may go negative)."""
    t = (f_l * abs(value) / 100) ** 0.42
    return math.copysign(400 * t / (t + 27.13), value) + 0.1


def _adapt(rgb: Rgb, factors: Rgb, f_l: float) -> Rgb:
    """Cone responses after the chromatic adaptation and the response compression."""
    adapted = (rgb[0] * factors[0], rgb[1] * factors[1], rgb[2] * factors[2])
    r, g, b = _apply(_HPE_FROM_CAT02, adapted)
    return (_compress(r, f_l), _compress(g, f_l), _compress(b, f_l))


@frozen
class Cam02:
    """A colour's appearance: lightness J, chroma C, hue angle h (degrees) and colourfulness M."""

    lightness: float
    chroma: float
    hue: float
    colourfulness: float


def ciecam02(colour_xyz: Sequence[float], viewing: Viewing = VIEWING) -> Cam02:
    """CIECAM02's J, C, h and M of a colour given as XYZ (Y = 100 for the white).

    >>> round(ciecam02(xyz((1.0, 1.0, 1.0))).lightness, 3)  # the white is J = 100
    100.0
    """
    f_l, n, z, n_bb, a_w, factors, _ = viewing._constants
    _, c, n_c = viewing.surround
    r, g, b = _adapt(_apply(_CAT02, colour_xyz), factors, f_l)
    a = r - 12 * g / 11 + b / 11
    bb = (r + g - 2 * b) / 9
    hue = math.degrees(math.atan2(bb, a)) % 360
    e_t = (math.cos(math.radians(hue) + 2) + 3.8) / 4
    achromatic = (2 * r + g + b / 20 - 0.305) * n_bb
    lightness = 100 * (max(0.0, achromatic) / a_w) ** (c * z)
    t = (50000 / 13 * n_c * n_bb * e_t * math.hypot(a, bb)) / (r + g + 21 * b / 20)
    chroma = abs(t) ** 0.9 * math.sqrt(lightness / 100) * (1.64 - 0.29**n) ** 0.73
    return Cam02(lightness, chroma, hue, chroma * f_l**0.25)


def ucs(rgb: Sequence[float], vision: Vision = Vision.NORMAL, viewing: Viewing = VIEWING) -> Rgb:
    """CAM02-UCS J', a', b' of linear RGB light as *vision* sees it.

    >>> [round(v, 2) for v in ucs((1.0, 1.0, 1.0))]
    [100.0, -1.91, -1.15]
    """
    seen = ciecam02(xyz(simulate(rgb, vision)), viewing)
    j = seen.lightness
    m = math.log1p(0.0228 * seen.colourfulness) / 0.0228
    h = math.radians(seen.hue)
    return (1.7 * j / (1 + 0.007 * j), m * math.cos(h), m * math.sin(h))


def distance(
    first: Sequence[float], second: Sequence[float], vision: Vision = Vision.NORMAL
) -> float:
    """How far apart two colours of linear RGB light look to *vision*: CAM02-UCS distance."""
    return math.dist(ucs(first, vision), ucs(second, vision))
