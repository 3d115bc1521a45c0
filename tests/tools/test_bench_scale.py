"""bench/bench_scale.py at its smallest sizes (``--quick``), so it cannot rot: it builds its
journals and league, runs every command and prints every figure of the table.

Each peak RSS must be the command's own. On Linux ``ru_maxrss`` from ``wait4`` also keeps the
high-water mark of the parent's address space at the child's ``exec``, so it can never be less
than the bench process's own size; the quick run is made here in this test's process, with a
ballast that makes that size larger than any of the commands, and every figure must be below it.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import ROOT, load_script

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
BALLAST_MIB = 160  # above every RSS target of the table (at most 80 MiB) with room to spare


@pytest.fixture
def bench_scale(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "bench"))  # its own imports (pi_quota)
    return load_script("bench/bench_scale.py")


@pytest.mark.timeout(300)  # about 10 s on an idle 2-core machine
def test_the_quick_run_prints_every_figure_each_peak_rss_the_command_s_own(
    bench_scale: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ballast = b"\x01" * (BALLAST_MIB << 20)  # written, so resident
    assert bench_scale.main(["--quick", "--cache", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    floor = load_script("bench/_peak.py").vm_hwm_kib() / 1024
    assert floor >= BALLAST_MIB and len(ballast) == BALLAST_MIB << 20
    for name in ROWS:
        found = re.search(rf"^  {re.escape(name)} +[\d.]+ +[\d.]+ +[\d.]+x", out, re.M)
        assert found is not None, f"no row {name!r} in:\n{out}"
    peaks = re.findall(r"^  (.+?RSS MiB) +([\d.]+) +([\d.]+) +[\d.]+x", out, re.M)
    assert len(peaks) == 8, f"not 8 rows of RSS in:\n{out}"
    for name, *figures in peaks:
        for figure in map(float, figures):
            assert 5.0 < figure < BALLAST_MIB, f"{name}: {figure} MiB (this process: {floor:.1f})"
    assert sorted(p.name.split("-")[0] for p in tmp_path.glob("*.db")) == [
        "journal",
        "journal",
        "league",
        "league",
        "played",
    ]
