"""bench/bench_odds.py: a difference is flagged only beyond its target and three standard
errors, and each row prints the table, the games, the difference and its standard error."""

from __future__ import annotations

import re

import pytest

from pegboard.engine.rules import Variant
from tests.scripts import load_script


@pytest.mark.parametrize(
    ("diff", "error", "limit", "over"),
    [
        pytest.param(0.04, 0.0285, 0.02, False, id="beyond-the-target-within-3-se"),
        pytest.param(-0.04, 0.0285, 0.02, False, id="negative-within-3-se"),
        pytest.param(0.09, 0.0285, 0.02, True, id="beyond-both"),
        pytest.param(-0.09, 0.0285, 0.02, True, id="negative-beyond-both"),
        pytest.param(0.004, 0.0005, 0.005, False, id="beyond-3-se-within-the-target"),
        pytest.param(0.006, 0.0005, 0.005, True, id="start-beyond-both"),
    ],
)
def test_a_difference_is_over_only_beyond_the_target_and_three_standard_errors(
    diff: float, error: float, limit: float, over: bool
) -> None:
    assert load_script("bench/bench_odds.py").is_over(diff, error, limit) is over


def test_each_row_prints_both_chances_the_difference_and_its_standard_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    load_script("bench/bench_odds.py").compare(Variant.FIVE_CARD, 4, 2, seed=1)
    lines = capsys.readouterr().out.splitlines()
    assert "beyond both its target (0.5% from the start, 2% on the grid) and 3 standard" in lines[1]
    assert lines[2].split() == ["position", "games", "table", "games", "diff", "s.e."]
    row = re.compile(r"\s+\d+-\d+\s+\d+\s+\d+\.\d\d%\s+\d+\.\d\d%\s+[+-]\d+\.\d\d\s+\d+\.\d\d")
    rows = [line for line in lines[3:] if not line.startswith("  largest")]
    assert len(rows) == 6 and all(row.match(line) for line in rows), rows
    assert all("over" not in line or "s.e." in line for line in rows)
