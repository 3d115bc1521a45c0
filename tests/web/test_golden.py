"""The golden screenshots' comparison itself, without a browser: what it lets pass, what it
catches, and where a failed screenshot goes."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from .conftest import GOLDEN_WEB, screenshot_differs

ROOT = Path(__file__).parents[2]
PANEL = (0x16, 0x1C, 0x24)  # a panel's background
WOOD = (0x5A, 0x3A, 0x20)  # the board's


def the_play() -> Image.Image:
    with Image.open(GOLDEN_WEB / "the-play-1280x720.png") as image:
        return image.convert("RGB")


def painted(
    golden: Image.Image, box: tuple[int, int, int, int], fill: tuple[int, ...]
) -> Image.Image:
    image = golden.copy()
    ImageDraw.Draw(image).rectangle(box, fill=fill)
    return image


# the reviewer's paint-overs of the-play-1280x720.png: each loses one thing a player reads
@pytest.mark.parametrize(
    ("box", "fill", "where"),
    [
        pytest.param((90, 312, 104, 356), WOOD, "(96, 320)", id="ann-front-peg"),
        pytest.param((520, 90, 615, 210), PANEL, "(576, 176)", id="a-score-digit"),
        pytest.param((115, 510, 235, 585), PANEL, "(128, 560)", id="the-count-26"),
        pytest.param((520, 530, 770, 565), PANEL, "(528, 544)", id="the-calls"),
        pytest.param((805, 88, 875, 114), PANEL, "(816, 96)", id="the-crib-badge"),
    ],
)
def test_a_lost_peg_digit_or_badge_fails_the_comparison(
    box: tuple[int, int, int, int], fill: tuple[int, ...], where: str
) -> None:
    golden = the_play()
    why = screenshot_differs(golden, painted(golden, box, fill))
    assert why is not None and why.endswith(f"square at {where} differ (at most 25% may)"), why


def test_the_odds_bar_lost_fails_the_comparison() -> None:
    golden = the_play()
    why = screenshot_differs(
        golden, painted(golden, (156, 248, 1258, 278), golden.getpixel((5, 700)))
    )
    assert why is not None and why.startswith("mean difference 6.27"), why


def test_noise_spread_thinly_passes_the_comparison() -> None:
    golden = the_play()
    assert screenshot_differs(golden, golden.copy()) is None
    shaded = golden.point(lambda v: min(v + 1, 255))  # a shade lighter everywhere
    assert screenshot_differs(golden, shaded) is None
    speckled = golden.copy()  # 0.5% of the pixels off by 64, scattered (anti-aliasing)
    rng = random.Random(13)
    for _ in range(golden.width * golden.height // 200):
        xy = (rng.randrange(golden.width), rng.randrange(golden.height))
        speckled.putpixel(xy, tuple((v + 64) % 256 for v in golden.getpixel(xy)))
    assert screenshot_differs(golden, speckled) is None
    # far fewer pixels, gathered in one place (a 13x13 speck), are a change there
    gathered = painted(golden, (600, 300, 612, 312), (255, 0, 255))
    assert screenshot_differs(golden, gathered) is not None


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("tests/golden/web/_failed/the-play-1280x720.png", id="web"),
        pytest.param("tests/golden/_failed/128x64-play.png", id="oled"),
        pytest.param("tests/golden/league/_failed/board.png", id="league"),
        pytest.param("tests/golden/de/_failed/128x64-play.png", id="oled-de"),
        pytest.param("docs/screens/_failed/scoreboard-128x64.png", id="docs"),
    ],
)
def test_failed_screenshots_are_never_committed(path: str) -> None:
    git = shutil.which("git")
    assert git is not None, "git is needed to read .gitignore as git does"
    done = subprocess.run(
        [git, "check-ignore", "--no-index", "--quiet", path],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, f"{path} is not ignored by .gitignore ({done.stderr.strip()})"
