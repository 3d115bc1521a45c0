"""bench/bench_scale.py at its smallest sizes (``--quick``), so it cannot rot: it builds its
journals and league, runs every command and prints every figure of the table."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROWS = [
    "first open by a writer, CPU ms",
    "history, CPU ms",
    "stats players, peak RSS MiB",
    "sheet, CPU ms",
    "game show, CPU ms",
    "serve, first view, CPU ms",
    "serve, first view, peak RSS MiB",
    "daemon start -> READY, s",
    "daemon peak RSS MiB",
    "one new game -> page, CPU ms",
    "league standings, CPU ms",
    "league standings, peak RSS MiB",
]


@pytest.mark.timeout(300)  # about 10 s on an idle 2-core machine
def test_the_quick_run_prints_every_figure(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_scale.py"), "--quick", "--cache", tmp_path],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    for name in ROWS:
        found = re.search(rf"^  {re.escape(name)} +[\d.]+ +[\d.]+ +[\d.]+x", done.stdout, re.M)
        assert found is not None, f"no row {name!r} in:\n{done.stdout}"
    assert sorted(p.name.split("-")[0] for p in tmp_path.glob("*.db")) == [
        "journal",
        "journal",
        "league",
        "league",
        "played",
    ]
