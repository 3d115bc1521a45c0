"""pegboard.colours against an independent reference (colorspacious) and published values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from colorspacious import cspace_convert
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.colours import (
    Viewing,
    Vision,
    ciecam02,
    distance,
    led_light,
    linear_to_srgb,
    simulate,
    srgb_to_linear,
    ucs,
)

# colorspacious's names for the same simulations (its "anomaly" at severity 100 is the -opia)
REFERENCE_NAME = {
    Vision.DEUTERANOPIA: "deuteranomaly",
    Vision.PROTANOPIA: "protanomaly",
    Vision.TRITANOPIA: "tritanomaly",
}


def reference_ucs(rgb: tuple[float, float, float], vision: Vision) -> np.ndarray:
    """colorspacious's CAM02-UCS of linear sRGB light as *vision* sees it."""
    if vision is Vision.NORMAL:
        return np.asarray(cspace_convert(rgb, "sRGB1-linear", "CAM02-UCS"))
    space = {"name": "sRGB1-linear+CVD", "cvd_type": REFERENCE_NAME[vision], "severity": 100}
    return np.asarray(cspace_convert(rgb, space, "CAM02-UCS"))


channel = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
light = st.tuples(channel, channel, channel)


@settings(max_examples=300, deadline=None)
@given(rgb=light, vision=st.sampled_from(Vision))
def test_ucs_agrees_with_colorspacious(rgb: tuple[float, float, float], vision: Vision) -> None:
    # the two differ only in the digits of their sRGB and white-point constants
    assert ucs(rgb, vision) == pytest.approx(reference_ucs(rgb, vision), abs=0.02)


@settings(max_examples=200, deadline=None)
@given(first=light, second=light, vision=st.sampled_from(Vision))
def test_distance_agrees_with_colorspacious(
    first: tuple[float, float, float], second: tuple[float, float, float], vision: Vision
) -> None:
    expected = float(np.linalg.norm(reference_ucs(first, vision) - reference_ucs(second, vision)))
    assert distance(first, second, vision) == pytest.approx(expected, abs=0.04)


@pytest.mark.parametrize("vision", list(REFERENCE_NAME), ids=lambda v: v.value)
def test_the_simulation_matrices_are_machados_at_full_severity(vision: Vision) -> None:
    space = {"name": "sRGB1-linear+CVD", "cvd_type": REFERENCE_NAME[vision], "severity": 100}
    for column, unit in enumerate(((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))):
        expected = cspace_convert(unit, space, "sRGB1-linear")
        assert simulate(unit, vision) == pytest.approx(expected, abs=1e-5), column


# CIECAM02's published worked examples: CIE 159:2004 (section 9), at two adapting luminances,
# and M. D. Fairchild's worked spreadsheet for "Color Appearance Models"
WORKED = [
    pytest.param(
        (19.31, 23.93, 10.14), Viewing((98.88, 90.0, 32.03), 200.0, 18.0),
        (48.0314, 38.7789, 191.0452, 38.7789), id="cie159-la200",
    ),
    pytest.param(
        (19.31, 23.93, 10.14), Viewing((98.88, 90.0, 32.03), 20.0, 18.0),
        (47.6856, 36.0527, 185.3445, 29.7580), id="cie159-la20",
    ),
    pytest.param(
        (57.06, 43.06, 31.96), Viewing((95.05, 100.0, 108.88), 31.830988618379, 20.0),
        (65.95523, 48.57050, 19.55739, 41.67327), id="fairchild-red",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("colour", "viewing", "expected"), WORKED)
def test_ciecam02_gives_the_published_worked_values(
    colour: tuple[float, float, float],
    viewing: Viewing,
    expected: tuple[float, float, float, float],
) -> None:
    seen = ciecam02(colour, viewing)
    got = (seen.lightness, seen.chroma, seen.hue, seen.colourfulness)
    assert got == pytest.approx(expected, abs=2e-3)


def test_red_beside_green_is_the_issue_s_classic_confusion() -> None:
    """Issue 26's figures: red and green about 76 apart to normal eyes, about 25 to deuteranopes."""
    red, green = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)
    assert round(distance(red, green)) == 76
    assert round(distance(red, green, Vision.DEUTERANOPIA)) == 25


@pytest.mark.parametrize(
    ("encoded", "linear"),
    [(0.0, 0.0), (0.04045, 0.0031308), (0.5, 0.2140411), (0.1, 0.0100228), (1.0, 1.0)],
)
def test_srgb_linearisation_gives_the_standard_values(encoded: float, linear: float) -> None:
    assert srgb_to_linear(encoded) == pytest.approx(linear, abs=1e-6)
    assert linear_to_srgb(linear) == pytest.approx(encoded, abs=1e-6)
    assert srgb_to_linear(encoded) == pytest.approx(
        cspace_convert([encoded] * 3, "sRGB1", "sRGB1-linear")[0], abs=1e-8
    )


@pytest.mark.parametrize(
    ("color", "brightness", "expected"),
    [
        pytest.param((255, 0, 0), 1.0, (1.0, 0.0, 0.0), id="full"),
        pytest.param((255, 64, 0), 0.5, (128 / 255, 32 / 255, 0.0), id="half"),
        pytest.param((1, 2, 0), 0.1, (1 / 255, 1 / 255, 0.0), id="faint-stays-on"),
        pytest.param((255, 255, 255), 0.0, (0.0, 0.0, 0.0), id="off"),
    ],
)
def test_led_light_is_the_dimmed_drive_value_as_light(
    color: tuple[int, int, int], brightness: float, expected: tuple[float, float, float]
) -> None:
    assert led_light(color, brightness) == pytest.approx(expected)


def test_a_colour_is_no_distance_from_itself_and_white_is_lightest() -> None:
    for vision in Vision:
        assert distance((0.3, 0.2, 0.1), (0.3, 0.2, 0.1), vision) == 0.0
    assert ucs((1.0, 1.0, 1.0))[0] == pytest.approx(100.0, abs=1e-3)
    assert math.isclose(ucs((0.0, 0.0, 0.0))[0], 0.0, abs_tol=1e-9)
