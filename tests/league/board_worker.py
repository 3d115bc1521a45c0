"""A board in its own process, for the tests that kill one: ``python board_worker.py DB PORT
VENUE BOARD GAMES [KEEPALIVE]``.

It opens the journal with the outbox, starts the league publisher (the broker may be down: it
keeps trying), finishes GAMES games, prints "ready" and waits to be killed.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from pegboard.config.league import LeagueConfig
from pegboard.engine.view import render_view
from pegboard.journal import Journal
from pegboard.league.publisher import LeaguePublisher

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.league.conftest import finish_games


def main(argv: list[str]) -> int:
    db, port, venue, board, games = Path(argv[0]), int(argv[1]), argv[2], argv[3], int(argv[4])
    keepalive = float(argv[5]) if len(argv) > 5 else 30.0
    store = Journal(db, outbox=True)
    store.load()
    config = LeagueConfig("127.0.0.1", venue, board, port=port, keepalive=keepalive)
    publisher = LeaguePublisher(config, db, poll=0.2)
    publisher.start()
    finish_games(store, games)
    if store.state is not None:
        publisher.on_change(store.state, render_view(store.state))
    print("ready", flush=True)
    threading.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
