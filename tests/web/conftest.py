"""The pub page in a real browser: Debian's headless Chromium, driven by Playwright.

Playwright's Python package brings its own driver but never its own browser here: the system's
``chromium`` is launched through ``executable_path`` (``make test`` installs it with apt-get
when it is missing; see ``tools/need_system_packages.sh``). Without it the browser tests skip
with one line saying what to install, except in CI (``CI=true``), where they fail.

Screenshots are compared with golden PNGs in ``tests/golden/web`` with a tolerance (fonts and
anti-aliasing may differ by a shade between Chromium builds); ``--update-golden`` rewrites them.
The tolerance is local as well as global: noise spread thinly over the page passes, but a lost
peg, digit or badge changes one small region a lot, and fails (``screenshot_differs``).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest
from PIL import Image, ImageChops, ImageStat

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM_ARGS = [
    "--no-sandbox",  # Chromium refuses to run as root without it (CI runs as root)
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
INSTALL_HINT = "needs Debian's chromium: sudo apt-get install chromium (make test installs it)"

GOLDEN_WEB = Path(__file__).parents[1] / "golden" / "web"
MEAN_DIFFERENCE = 2.0  # mean absolute difference per channel, 0-255
DIFFERING_SHARE = 0.01  # share of pixels that may differ by more than ...
DIFFERING_BY = 32  # ... this much in any channel
TILE = 16  # the page is also compared in squares of this many pixels a side ...
TILE_SHARE = 0.25  # ... each of which may have at most this share of its pixels differing

ScreenshotCheck = Callable[[bytes, str], None]
HANG_GUARD_S = 60.0  # a hang guard, not a speed check: a loaded CI machine may be slow


def wait_for_latest(page: Page, latest: Callable[[], int], limit: float = HANG_GUARD_S) -> int:
    """Wait until *page* has applied a payload at least as new as the server's latest (asked
    again each look, as ``latest()``); the version it shows. The stream sends only the newest
    payload, so a page may skip a version a busy server made and replaced at once: waiting for
    one exact version would race with the server's next publish."""
    deadline = time.monotonic() + limit
    while True:
        target = latest()
        shown = int(page.get_attribute("body", "data-version") or 0)
        if target and shown >= target:
            return shown
        if time.monotonic() > deadline:
            raise AssertionError(f"the page shows version {shown}; the server is at {target}")
        time.sleep(0.02)


def browser_missing(reason: str) -> NoReturn:
    """Skip with *reason*, or fail in CI, where the browser tests must run."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI: {reason}", pytrace=False)
    pytest.skip(reason)


def chromium_path() -> str:
    """The system's Chromium, or a skip (a failure in CI) naming what to install."""
    path = shutil.which("chromium")
    if path is None:
        browser_missing(INSTALL_HINT)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole test module (launching takes about a second)."""
    path = chromium_path()
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        browser_missing("needs playwright: pip install -e '.[dev]'")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def screenshot_differs(golden: Image.Image, actual: Image.Image) -> str | None:
    """Why *actual* is not *golden* within the tolerance, or None when it is."""
    if golden.size != actual.size:
        return f"size {actual.size} is not {golden.size}"
    diff = ImageChops.difference(golden.convert("RGB"), actual.convert("RGB"))
    mean = sum(ImageStat.Stat(diff).mean) / 3
    red, green, blue = diff.split()
    most = ImageChops.lighter(ImageChops.lighter(red, green), blue)  # each pixel's worst channel
    share = sum(most.histogram()[DIFFERING_BY + 1 :]) / (golden.width * golden.height)
    if mean >= MEAN_DIFFERENCE or share >= DIFFERING_SHARE:
        return f"mean difference {mean:.2f} (< {MEAN_DIFFERENCE}), {share:.2%} of pixels differ"
    # each tile's share of differing pixels: the mask's mean over the tile (a box reduce)
    differing = most.point(lambda v: 255 if v > DIFFERING_BY else 0)
    tiled = differing.reduce(TILE)  # one pixel a tile (a partial tile at the edge included)
    shares = tiled.tobytes()  # row by row
    top = max(shares)
    y, x = divmod(shares.index(top), tiled.width)
    tile_share = top / 255
    if tile_share > TILE_SHARE:
        return (
            f"{tile_share:.0%} of the pixels of the {TILE}x{TILE} square at "
            f"({x * TILE}, {y * TILE}) differ (at most {TILE_SHARE:.0%} may)"
        )
    return None


def compare_screenshot(
    png: bytes, name: str, *, update: bool, directory: Path = GOLDEN_WEB
) -> None:
    """Compare a screenshot with ``<directory>/<name>.png`` within the tolerance.

    A mismatch writes the actual image to ``<directory>/_failed/<name>.png`` and fails.
    """
    path = directory / f"{name}.png"
    with Image.open(BytesIO(png)) as shot:
        actual = shot.convert("RGB")
    if update:
        directory.mkdir(parents=True, exist_ok=True)
        actual.save(path, optimize=True)
        return
    if not path.exists():
        pytest.fail(f"no golden image {path.name}: run pytest with --update-golden to make it")
    with Image.open(path) as stored:
        golden = stored.convert("RGB")
    why = screenshot_differs(golden, actual)
    if why is not None:
        failed = directory / "_failed"
        failed.mkdir(exist_ok=True)
        actual.save(failed / f"{name}.png")
        pytest.fail(f"{name}: {why} (actual image written to {failed.name}/{name}.png)")


@pytest.fixture
def screenshot_golden(request: pytest.FixtureRequest) -> ScreenshotCheck:
    """``check(png_bytes, name)``: compare with (or, with --update-golden, rewrite) a golden PNG."""
    update = bool(request.config.getoption("--update-golden", default=False))

    def check(png: bytes, name: str) -> None:
        compare_screenshot(png, name, update=update)

    return check
