"""The README's pictures of the OLED screens are the screens as they are drawn now.

Each picture in ``docs/screens`` is rendered here from the same screens as the golden images
(``tests/ui/test_screens.py``), four times the size, and compared pixel for pixel: a change to a
screen fails here until ``pytest --update-golden`` (or ``make docs``) draws the pictures again,
so they cannot go stale. A picture nobody draws any more fails too.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from pegboard.ui.paint import Style
from tests.ui.test_screens import draw

DOCS = Path(__file__).resolve().parents[1] / "docs" / "screens"
SCALE = 4

PICTURES: dict[str, tuple[str, tuple[int, int], str, Style]] = {
    # picture name: (screen in tests/ui/test_screens.py, size, mode, style)
    "scoreboard-lurch-128x64": ("scoreboard-lurch", (128, 64), "1", Style.LARGE),
    "play-128x64": ("play-news", (128, 64), "1", Style.LARGE),
    "play-go-128x64": ("play-go", (128, 64), "1", Style.LARGE),
    "play-end-128x64": ("play-end", (128, 64), "1", Style.LARGE),
    "scoreboard-pegged-128x64": ("scoreboard-pegged", (128, 64), "1", Style.LARGE),
    "scoreboard-odds-128x64": ("scoreboard-odds", (128, 64), "1", Style.LARGE),
    "undone-128x64": ("scoreboard-undone", (128, 64), "1", Style.LARGE),
    "count-29-page1-128x64": ("count-29-page1", (128, 64), "1", Style.LARGE),
    "count-29-last-128x64": ("count-29-last", (128, 64), "1", Style.LARGE),
    "count-muggins-128x64": ("count-muggins", (128, 64), "1", Style.LARGE),
    "count-29-page1-128x64-compact": ("count-29-page1", (128, 64), "1", Style.COMPACT),
    "count-29-page1-128x32": ("count-29-page1", (128, 32), "1", Style.COMPACT),
    "cut-128x64": ("cut", (128, 64), "1", Style.LARGE),
    "entry-128x64": ("entry", (128, 64), "1", Style.LARGE),
    "menu-128x64": ("menu-keypad", (128, 64), "1", Style.LARGE),
    "game-over-lurched-256x64": ("game-over-lurched", (256, 64), "L", Style.LARGE),
    "pairing-128x64": ("pairing", (128, 64), "1", Style.LARGE),
    "scoreboard-locked-128x64": ("scoreboard-locked", (128, 64), "1", Style.LARGE),
}


def picture(name: str) -> Image.Image:
    """The README picture *name*: its screen, drawn, in grey, four times the size."""
    screen, size, mode, style = PICTURES[name]
    image = draw(screen, size, mode, style).convert("L")
    return image.resize((size[0] * SCALE, size[1] * SCALE), Image.Resampling.NEAREST)


@pytest.mark.parametrize("name", list(PICTURES))
def test_each_readme_picture_is_the_screen_as_drawn_now(
    name: str, request: pytest.FixtureRequest, golden_compare: Callable[..., None]
) -> None:
    update = bool(request.config.getoption("--update-golden", default=False))
    golden_compare(picture(name), name, update=update, directory=DOCS)


def test_no_picture_is_left_that_nothing_draws() -> None:
    stale = sorted(p.stem for p in DOCS.glob("*.png") if p.stem not in PICTURES)
    assert stale == [], f"docs/screens has pictures no screen draws: {stale} (delete them)"


def test_the_readme_shows_only_pictures_that_exist() -> None:
    readme = (DOCS.parents[1] / "README.md").read_text(encoding="utf-8")
    shown = {part.split(")")[0] for part in readme.split("(docs/screens/")[1:]}
    missing = sorted(name for name in shown if not (DOCS / name).exists())
    assert missing == []
