"""Crash safety: a journalling process killed with SIGKILL never loses an acknowledged command."""

from __future__ import annotations

import random
from pathlib import Path

from tests.app.crash_worker import crash_trial

TRIALS = 50


def test_sigkill_at_random_moments_loses_no_acknowledged_command(tmp_path: Path) -> None:
    rng = random.Random(20240603)
    db = tmp_path / "pegboard.db"
    acknowledged = 0
    for trial in range(TRIALS):
        acks, problems = crash_trial(db, rng)
        assert problems == [], f"trial {trial}: {problems}"
        acknowledged += acks
    assert acknowledged > TRIALS  # the kills really landed mid-game, not before the first ack
