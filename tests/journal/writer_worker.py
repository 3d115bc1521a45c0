"""A writer that keeps its database open until killed, for the readers-beside-a-writer tests.

``python writer_worker.py journal DB``: opens the journal at DB, begins a second match (Cy v
Di) and cuts; ``python writer_worker.py league DB PAYLOADS``: opens the league database at DB
and stores each game of the JSON list in PAYLOADS. Either then prints ``ready`` and waits for
its standard input to close (or for SIGKILL), its commits in the ``-wal`` only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules
from pegboard.journal import Journal
from pegboard.league.store import LeagueStore


def main(argv: list[str]) -> None:
    kind, db = argv[0], Path(argv[1])
    if kind == "journal":
        store = Journal(db)
        store.load()
        store.new_match(Rules.six_card(), ("Cy", "Di"))
        store.do(parse_command("cut 9C 3D", ("Cy", "Di")))
    else:
        league = LeagueStore(db)
        for payload in json.loads(Path(argv[2]).read_text()):
            league.add("red-lion", "t1", payload)
    print("ready", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main(sys.argv[1:])
