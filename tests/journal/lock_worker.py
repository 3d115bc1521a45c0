"""The daemon's journal in one process, read there beside its writer, written by another.

``python lock_worker.py DB``: opens a writer on DB (a new match, the cut and the starter), reads
the journal as the daemon's history reader and pub page do, in this same process
(``Journal(readonly=True)`` and a ``HistoryReader`` read), then has ``pegboard game do`` peg in
another process. It prints the names of the files in DB's folder, commits one more command
itself, prints ``committed`` and waits for its standard input to close (or for SIGKILL).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules
from pegboard.journal import Journal
from pegboard.journal.reader import HistoryReader


def main(argv: list[str]) -> None:
    db = Path(argv[0])
    store = Journal(db)
    state = store.new_match(Rules.six_card(), ("Ann", "Bob"))
    store.do(parse_command("cut 9C 3D", state.names))
    store.do(parse_command("starter 5C", state.names))
    with Journal(db, readonly=True) as reader:  # the pub page's
        reader.load()
    history = HistoryReader(db)
    history.read_now()
    history.close()
    subprocess.run(
        [sys.executable, "-m", "pegboard", "game", "do", "--db", str(db), "peg Bob 5"],
        check=True, capture_output=True,
    )  # fmt: skip
    print(*sorted(p.name for p in db.parent.iterdir()), flush=True)
    store.do(parse_command("peg Ann 7", state.names))  # a key press on the daemon
    print("committed", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main(sys.argv[1:])
