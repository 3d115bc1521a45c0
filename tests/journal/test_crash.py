"""Crash safety: a journalling process killed with SIGKILL never loses an acknowledged command."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest

from pegboard.journal import Journal
from tests.journal import press_worker
from tests.journal.crash_worker import crash_trial

TRIALS = 50


@pytest.mark.timeout(300)  # a hang guard: 21 s with -n 2 beside other work
def test_sigkill_at_random_moments_loses_no_acknowledged_command(tmp_path: Path) -> None:
    rng = random.Random(20240603)
    db = tmp_path / "pegboard.db"
    acknowledged = 0
    for trial in range(TRIALS):
        acks, problems = crash_trial(db, rng)
        assert problems == [], f"trial {trial}: {problems}"
        acknowledged += acks
    assert acknowledged > TRIALS  # the kills really landed mid-game, not before the first ack


def test_a_press_of_many_commands_survives_a_kill_whole_or_not_at_all(tmp_path: Path) -> None:
    """SIGKILL before every SQL statement of one press: the journal holds all of it or none."""
    status, out = press_worker.run(tmp_path / "whole.db", -1)
    assert status == 0, out
    before, after, statements = (int(word) for word in out.split()[1::2])
    with Journal(tmp_path / "whole.db") as store:
        store.load()
        whole = store.commands()
    assert after - before > 10  # the press really means many commands (undos, the deal again)
    for kill_at in range(statements):
        db = tmp_path / f"killed-{kill_at}.db"
        status, out = press_worker.run(db, kill_at)
        assert status == -signal.SIGKILL and out == f"before {before}\n", out
        with Journal(db) as store:
            assert store.notice is None
            state = store.load()  # replays whatever is there
            assert state is not None
            kept = store.commands()
        assert kept in (whole[:before], whole), f"killed before statement {kill_at}: {len(kept)}"
