"""What the command line's tests share: a command run with its output captured, and the score
sheet compared with its golden image."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from pegboard.cli.main import main
from pegboard.ui.sheet import Paper


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``pegboard *argv``: its exit status, stdout and stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_like_golden_sheet(image: Image.Image, path: Path) -> None:
    """*image* is the A4 sheet at *path* but for font rendering: under 0.2% of its pixels off by
    more than 64 grey levels, and a mean difference under 0.5."""
    with Image.open(path) as stored:
        golden = stored.convert("L")
    assert golden.size == image.size == Paper.A4.pixels
    difference = ImageChops.difference(golden, image.convert("L"))
    changed = sum(difference.point(lambda v: 255 if v > 64 else 0).histogram()[255:])
    assert changed < 0.002 * image.size[0] * image.size[1], f"{changed} pixels differ"
    assert ImageStat.Stat(difference).mean[0] < 0.5
