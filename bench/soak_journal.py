"""Soak the journal: many SIGKILL trials against one database; prints trials and losses.

.venv/bin/python bench/soak_journal.py [TRIALS]   (default 500)
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.journal.crash_worker import crash_trial


def main() -> int:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    rng = random.Random()
    acknowledged, losses = 0, 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "soak.db"
        for trial in range(trials):
            acks, problems = crash_trial(db, rng)
            acknowledged += acks
            losses += len(problems)
            for problem in problems:
                print(f"trial {trial}: {problem}")
    seconds = time.perf_counter() - started
    print(
        f"journal soak: {trials} SIGKILL trials, {acknowledged} acknowledged commands, "
        f"{losses} lost or corrupt, {seconds:.1f} s"
    )
    return 1 if losses else 0


if __name__ == "__main__":
    sys.exit(main())
