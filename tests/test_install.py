"""``systemd/install.sh --dry-run``: the pegboard command goes on PATH, once.

The dry run changes nothing and needs no root, so it runs here as it would on a Pi, with every
path it would write pointed into a temporary folder.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

INSTALL = Path(__file__).resolve().parents[1] / "systemd" / "install.sh"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="install.sh is bash")


def dry_run(tmp_path: Path) -> list[str]:
    """install.sh --dry-run with its venv and the PATH link under *tmp_path*; its lines."""
    done = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--prefix", str(tmp_path / "opt"),
         "--bin-dir", str(tmp_path / "bin"), "--boot-config", str(tmp_path / "config.txt")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return (done.stdout + done.stderr).splitlines()


def test_the_dry_run_shows_the_link_that_puts_pegboard_on_path(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    lines = dry_run(tmp_path)
    command, link = tmp_path / "opt/venv/bin/pegboard", tmp_path / "bin/pegboard"
    assert f"would run: ln -sfn {command} {link}" in lines
    assert not link.exists() and not link.is_symlink()  # a dry run changes nothing
    assert lines[-1].startswith("==> test the wiring: sudo pegboard selftest --config ")


def test_a_link_already_in_place_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    command, link = tmp_path / "opt/venv/bin/pegboard", tmp_path / "bin/pegboard"
    link.symlink_to(command)
    lines = dry_run(tmp_path)
    assert f"ok: {link} links to {command}" in lines
    assert not any("ln -sfn" in line for line in lines)


def test_a_stale_link_is_replaced_and_a_file_of_someone_elses_is_kept(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    command, link = tmp_path / "opt/venv/bin/pegboard", tmp_path / "bin/pegboard"
    link.symlink_to(tmp_path / "old/venv/bin/pegboard")
    assert f"would run: ln -sfn {command} {link}" in dry_run(tmp_path)
    link.unlink()
    link.write_text("#!/bin/sh\n")
    lines = dry_run(tmp_path)
    assert f"install.sh: {link} is not a link; left as it is (the command is {command})" in lines
    assert not any("ln -sfn" in line for line in lines)


def test_a_missing_bin_dir_is_made_first(tmp_path: Path) -> None:
    lines = dry_run(tmp_path)
    made = lines.index(f"would run: install -d -m 0755 {tmp_path / 'bin'}")
    assert lines[made + 1].startswith("would run: ln -sfn ")
