"""The league's own SQLite: every finished game once, by the id its board gave it.

QoS 1 delivers at least once, and a board sends a game again when it did not see the broker's
acknowledgement, so the same game may arrive several times: ``games`` is keyed by the game id
and a copy changes nothing. A board that took a win back by undo (or won it again with other
scores) sends the same id with a higher ``revision``; only a higher revision from the same
venue and board replaces a game, so no other board can overwrite it. A withdrawn win stays
stored, marked, and leaves the standings.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pegboard.journal.readonly import hold_open, read_only_connection
from pegboard.journal.sqlite import connect
from pegboard.league.standings import FinishedGame, LeagueError, Standing, standings

__all__ = ["LeagueStore", "LeagueStoreError"]

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    revision INTEGER NOT NULL,
    venue TEXT NOT NULL,
    board TEXT NOT NULL,
    withdrawn INTEGER NOT NULL,
    payload TEXT NOT NULL,
    received TEXT NOT NULL
);
"""
_COLUMNS = frozenset({"game_id", "revision", "venue", "board", "withdrawn", "payload"})
"""The columns that make a ``games`` table the league's (a game journal has one too)."""


class LeagueStoreError(LeagueError):
    """The league's database failed to store a game (locked, full, an I/O error): the game was
    good, and may be stored when tried again."""


class LeagueStore:
    """The league's games at *path* (created, with its folder, unless *readonly*). A write
    waits up to *timeout* seconds for another connection's lock.

    Raises:
        LeagueError: the database cannot be opened or created, or (*readonly*) is missing.
    """

    def __init__(self, path: Path | str, *, readonly: bool = False, timeout: float = 10.0) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()  # the subscriber's thread writes, the page's reads
        self._release: Callable[[], None] = lambda: None
        self._skipped: set[tuple[str, str, str]] = set()  # stored games left out, said once
        shown = repr(str(self.path))
        try:
            if readonly:
                if not self.path.is_file():
                    raise LeagueError(
                        f"no league database at {shown} (start one with 'pegboard league serve "
                        f"--db {self.path}')"
                    )
                # in place beside a running service, else a copy: no -wal/-shm made beside it
                self._conn, _ = read_only_connection(self.path, check_same_thread=False)
                try:
                    columns = {row[1] for row in self._conn.execute("PRAGMA table_info(games)")}
                except sqlite3.Error:
                    self._conn.close()
                    raise
                if not columns >= _COLUMNS:
                    self._conn.close()
                    raise LeagueError(
                        f"{shown} is not a league database (it has no league games table; "
                        "expected the --db of 'pegboard league serve', e.g. league.db)"
                    )
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._conn = connect(self.path, timeout=timeout, check_same_thread=False)
                # noted before the first statement takes a lock: this process's readers then
                # read in place, and nothing here opens the file behind SQLite's back
                self._release = hold_open(self.path)
                try:
                    self._conn.execute("PRAGMA journal_mode=WAL")
                    self._conn.execute("PRAGMA synchronous=FULL")
                    self._conn.executescript(_SCHEMA)
                except sqlite3.Error:
                    self._conn.close()
                    self._release()
                    raise
        except (sqlite3.Error, OSError) as e:
            raise LeagueError(f"cannot open the league database {shown}: {e}") from e

    def close(self) -> None:
        """Close the database."""
        self._conn.close()
        self._release()  # only once the connection holds no lock

    def add(self, venue: str, board: str, payload: dict[str, Any]) -> bool:
        """Store a game *board* of *venue* published; whether it changed anything (False for a
        copy, an older revision, or an id that belongs to another board). Committed on return.

        Raises:
            LeagueStoreError: the database failed (the game may be stored when tried again).
            LeagueError: not a finished game (nor a withdrawn one).
        """
        withdrawn = bool(payload.get("withdrawn"))
        if not withdrawn:
            FinishedGame.from_payload(payload, venue, board)  # checked before it is kept
        try:
            game_id, revision = str(payload["game_id"]), int(payload.get("revision", 1))
        except (KeyError, TypeError, ValueError) as e:
            raise LeagueError(f"a game without a game id: {payload!r:.80}") from e
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        try:
            with self._lock:
                cur = self._conn.execute(
                    "INSERT INTO games VALUES (?,?,?,?,?,?,?) ON CONFLICT (game_id) DO UPDATE "
                    "SET revision = excluded.revision, withdrawn = excluded.withdrawn, "
                    "payload = excluded.payload, received = excluded.received "
                    "WHERE excluded.revision > games.revision AND games.venue = excluded.venue "
                    "AND games.board = excluded.board",
                    (game_id, revision, venue, board, int(withdrawn), json.dumps(payload), now),
                )
        except sqlite3.Error as e:
            raise LeagueStoreError(f"cannot store game {game_id!r}: {e}") from e
        return cur.rowcount > 0

    def games(self) -> list[FinishedGame]:
        """Every game that stands (not withdrawn), in the order they ended."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT venue, board, payload FROM games WHERE withdrawn = 0 ORDER BY rowid"
            ).fetchall()
        games = []
        for venue, board, payload in rows:
            try:
                games.append(FinishedGame.from_payload(json.loads(payload), venue, board))
            except LeagueError as e:  # kept before the check was this strict: left out, said
                if (venue, board, payload) not in self._skipped:
                    self._skipped.add((venue, board, payload))
                    log.error("league: a stored game of %s/%s is left out: %s", venue, board, e)
        return sorted(games, key=lambda g: g.ended)

    def standings(self) -> list[Standing]:
        """The table over every game that stands (``league.standings``)."""
        return standings(self.games())

    def count(self) -> int:
        """How many games stand."""
        with self._lock:
            (n,) = self._conn.execute("SELECT COUNT(*) FROM games WHERE withdrawn = 0").fetchone()
        return int(n)
