"""The golden screenshots' comparison itself, without a browser: what it lets pass, what it
catches, and where a failed screenshot goes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("tests/golden/web/_failed/the-play-1280x720.png", id="web"),
        pytest.param("tests/golden/_failed/128x64-play.png", id="oled"),
        pytest.param("tests/golden/league/_failed/board.png", id="league"),
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
