"""Dies in the middle of a key press that means several commands; the journal keeps all or none.

Run as ``python press_worker.py DB KILL_AT``: it plays a deal through the controller up to the
press that re-enters the deal with other suits (A's hand from the play turns out to be a flush:
undos, then the deal's commands again, then the show). With KILL_AT >= 0 it SIGKILLs itself
just before the KILL_AT-th SQL statement of that press; with -1 it finishes the press. It prints
``before N`` (the journal's length before the press) and, if it lives, ``after N``.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent
from pegboard.engine.rules import Rules
from pegboard.journal import Journal
from pegboard.table.controller import Controller

BEFORE_THE_PRESS = "9 3 5 4 6 2 8 3 7 # # 9 C #"
"""Cut (B deals), starter 5, the play (A: 4 2 3 9, B: 6 8 7 K), then A's hand asks 'flush?'."""
THE_PRESS = "1"
"""'1': yes, a flush; the deal is taken back and entered again with one suit for A's cards."""


def _press(controller: Controller, keys: str) -> None:
    for key in keys.split():
        controller.handle(KeyEvent(key, KeyAction.PRESS))


def main(argv: list[str]) -> int:
    path, kill_at = Path(argv[0]), int(argv[1])
    with Journal(path) as store:
        controller = Controller(
            store=store, rules=Rules.six_card(), clock=FakeClock(), rng=random.Random(7)
        )
        _press(controller, BEFORE_THE_PRESS)
        print(f"before {len(store.commands())}", flush=True)
        statements = 0

        def trace(sql: str) -> None:
            nonlocal statements
            if statements == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)  # a power cut, mid-press
            statements += 1

        store._conn.set_trace_callback(trace)
        _press(controller, THE_PRESS)
        store._conn.set_trace_callback(None)
        print(f"after {len(store.commands())} statements {statements}", flush=True)
    return 0


def run(db: Path, kill_at: int) -> tuple[int, str]:
    """Run the worker; its exit status and what it printed."""
    done = subprocess.run(
        [sys.executable, __file__, str(db), str(kill_at)],
        capture_output=True,
        text=True,
        env=os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        check=False,
    )
    return done.returncode, done.stdout


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
