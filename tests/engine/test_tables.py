"""The engine's shipped tables are what their builders compute (they cannot go stale)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

from pegboard.engine import scoring

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_five_rank_points_are_a_fresh_build() -> None:
    built = scoring.build_five_rank_points()
    shipped = scoring._five_rank_table()
    assert len(shipped) == 6188
    assert shipped == built
    assert list(shipped) == list(itertools.combinations_with_replacement(range(1, 14), 5))


def test_rank_points_of_five_cards_read_the_table_and_agree_with_counting() -> None:
    for ranks in itertools.combinations_with_replacement(range(1, 14), 5):
        assert scoring.rank_points(reversed(ranks)) == scoring._counted_rank_points(ranks)


def test_the_generator_checks_the_shipped_file() -> None:
    done = subprocess.run(
        [sys.executable, "tools/make_tables.py", "--check"], cwd=ROOT, capture_output=True,
        text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "up to date" in done.stdout
