"""The league's own SQLite: every finished game once, by the id its board gave it.

QoS 1 delivers at least once, and a board sends a game again when it did not see the broker's
acknowledgement, so the same game may arrive several times: ``games`` is keyed by the game id
and a copy changes nothing. A board that took a win back by undo (or won it again with other
scores) sends the same id with a higher ``revision``; only a higher revision from the same
venue and board replaces a game, so no other board can overwrite it. A withdrawn win stays
stored, marked, and leaves the standings.

Running totals (schema version 1, ``PRAGMA user_version``): the table is not computed from
every game at each look. ``standings`` holds each side name's sums (played, won, match points,
spread, lurches) and ``tally`` how many games stand; ``add`` changes them in the same
transaction that stores the game: a new game adds its ``contributions``, a new revision
subtracts the old one's and adds its own, a withdrawn win subtracts. So a new game costs the
same at 100 games or 100,000, and ``standings``, ``count`` and ``latest`` (a bounded query on
an index) read no other game. ``games`` still reads them all, for checks and exports.
``counted`` marks the games in the totals: standing and readable (a game kept before the check
was this strict is left out, and logged). A database made before the totals (version 0) gets
them built once when a writer (the service) opens it; a reader of such a file computes the table
from scratch, as before.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pegboard.engine.summary import GameSummary, PayloadError
from pegboard.journal.readonly import has_moved, hold_open, read_only_connection
from pegboard.journal.sqlite import connect
from pegboard.league.standings import (
    FinishedGame,
    LeagueError,
    Standing,
    contributions,
    ranked,
    read_game,
    standings,
)

__all__ = ["SCHEMA_VERSION", "LeagueStore", "LeagueStoreError"]

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
"""``PRAGMA user_version`` of a league database with running totals (0: made before them)."""

_GAMES = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    revision INTEGER NOT NULL,
    venue TEXT NOT NULL,
    board TEXT NOT NULL,
    withdrawn INTEGER NOT NULL,
    payload TEXT NOT NULL,
    received TEXT NOT NULL,
    ended TEXT NOT NULL DEFAULT '',
    counted INTEGER NOT NULL DEFAULT 0
)
"""
_TOTALS = (
    "CREATE INDEX IF NOT EXISTS games_latest ON games (counted, ended)",
    """CREATE TABLE IF NOT EXISTS standings (
    name TEXT PRIMARY KEY,
    played INTEGER NOT NULL,
    won INTEGER NOT NULL,
    match_points INTEGER NOT NULL,
    spread INTEGER NOT NULL,
    lurches INTEGER NOT NULL
)""",
    "CREATE TABLE IF NOT EXISTS tally (one INTEGER PRIMARY KEY CHECK (one = 1), games INTEGER)",
    "INSERT OR IGNORE INTO tally VALUES (1, 0)",
)
_COLUMNS = frozenset({"game_id", "revision", "venue", "board", "withdrawn", "payload"})
"""The columns that make a ``games`` table the league's (a game journal has one too)."""


class LeagueStoreError(LeagueError):
    """The league's database failed to store a game (locked, full, an I/O error): the game was
    good, and may be stored when tried again."""


class LeagueStore:
    """The league's games at *path* (created, with its folder, unless *readonly*). A write
    waits up to *timeout* seconds for another connection's lock. A writer builds the running
    totals of a database made before them (the module's notes).

    Raises:
        LeagueError: the database cannot be opened or created, or (*readonly*) is missing, or
            it was made by a newer pegboard (a schema version this one does not know).
    """

    def __init__(self, path: Path | str, *, readonly: bool = False, timeout: float = 10.0) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()  # the subscriber's thread writes, the page's reads
        self._release: Callable[[], None] = lambda: None
        self._skipped: set[tuple[str, str, str]] = set()  # stored games left out, said once
        self._version = SCHEMA_VERSION
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
                    (self._version,) = self._conn.execute("PRAGMA user_version").fetchone()
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
                    self._upgrade()
                except (sqlite3.Error, LeagueError):
                    self._conn.close()
                    self._release()
                    raise
        except (sqlite3.Error, OSError) as e:
            raise LeagueError(f"cannot open the league database {shown}: {e}") from e
        if self._version > SCHEMA_VERSION:
            self.close()
            raise LeagueError(
                f"{shown} was made by a newer pegboard (league schema {self._version}; this "
                f"one knows {SCHEMA_VERSION}): upgrade pegboard to read it"
            )

    def _upgrade(self) -> None:
        """Bring the schema to ``SCHEMA_VERSION`` in one transaction: a new database gets the
        tables; one made before the running totals gets them built from its games, once.

        Raises:
            sqlite3.Error: the database failed.
        """
        with self._transaction():
            (version,) = self._conn.execute("PRAGMA user_version").fetchone()
            if version >= SCHEMA_VERSION:
                self._version = int(version)
                return
            columns = {row[1] for row in self._conn.execute("PRAGMA table_info(games)")}
            self._conn.execute(_GAMES)
            for column in ("ended TEXT NOT NULL DEFAULT ''", "counted INTEGER NOT NULL DEFAULT 0"):
                if columns and column.split()[0] not in columns:
                    self._conn.execute(f"ALTER TABLE games ADD COLUMN {column}")
            for statement in _TOTALS:
                self._conn.execute(statement)
            rows = self._conn.execute(
                "SELECT rowid, venue, board, payload FROM games WHERE withdrawn = 0 ORDER BY rowid"
            ).fetchall()
            if rows:
                log.info("league: building the standings' totals of %d stored games", len(rows))
            for rowid, venue, board, payload in rows:
                game = self._readable(venue, board, payload)
                if game is not None:
                    self._conn.execute(
                        "UPDATE games SET ended = ?, counted = 1 WHERE rowid = ?",
                        (game.ended, rowid),
                    )
                    self._count(game, +1)
            self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _transaction(self) -> _Transaction:
        return _Transaction(self._conn)

    def close(self) -> None:
        """Close the database."""
        self._conn.close()
        self._release()  # only once the connection holds no lock

    def moved(self) -> bool:
        """Whether a service has changed the file since this reader opened it as immutable (no
        writer had it open then), so that what it read may be torn or stale: the command line
        reads again (``journal.read_steadily``). Always False for a writer or a reader in place."""
        return has_moved(self._conn)

    def add(self, venue: str, board: str, payload: dict[str, Any]) -> bool:
        """Store a game *board* of *venue* published; whether it changed anything (False for a
        copy, an older revision, or an id that belongs to another board). The standings' totals
        change in the same transaction. Committed on return.

        Raises:
            LeagueStoreError: the database failed (the game may be stored when tried again).
            LeagueError: not a finished game (nor a withdrawn one).
        """
        return self.add_all([(venue, board, payload)]) > 0

    def add_all(self, games: Iterable[tuple[str, str, dict[str, Any]]]) -> int:
        """Store each (venue, board, payload) as ``add`` does, in ONE transaction (all or
        none); how many changed anything. For building a league at once (benchmarks, imports).

        Raises:
            LeagueStoreError: the database failed (nothing was stored).
            LeagueError: one is not a finished game (nor a withdrawn one): nothing was stored.
        """
        changed = 0
        try:
            with self._lock, self._transaction():
                for venue, board, payload in games:
                    changed += self._add(venue, board, payload)
        except sqlite3.Error as e:
            raise LeagueStoreError(f"cannot store the games: {e}") from e
        return changed

    def _add(self, venue: str, board: str, payload: dict[str, Any]) -> bool:
        """``add`` inside the caller's transaction.

        Raises:
            LeagueError: not a finished game (nor a withdrawn one).
            LeagueStoreError: the database failed.
        """
        try:
            summary = GameSummary.from_payload(payload)  # checked before it is kept
        except PayloadError as e:
            raise LeagueError(str(e)) from e
        withdrawn, game_id, revision = summary.withdrawn, summary.game_id, summary.revision
        game = None if withdrawn else FinishedGame.of(summary, venue, board)
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        try:
            old = self._conn.execute(
                "SELECT revision, venue, board, counted, payload FROM games WHERE game_id = ?",
                (game_id,),
            ).fetchone()
            if old is not None:
                # only a higher revision from the same venue and board replaces a game
                if not (revision > old[0] and (venue, board) == (old[1], old[2])):
                    return False
                if old[3]:
                    self._count(read_game(json.loads(old[4]), venue, board), -1)
            row = (
                revision,
                int(withdrawn),
                json.dumps(payload),
                now,
                game.ended if game is not None else "",
                int(game is not None),
                game_id,
            )
            if old is None:
                self._conn.execute(
                    "INSERT INTO games (revision, withdrawn, payload, received, ended, counted, "
                    "game_id, venue, board) VALUES (?,?,?,?,?,?,?,?,?)",
                    (*row, venue, board),
                )
            else:
                self._conn.execute(
                    "UPDATE games SET revision = ?, withdrawn = ?, payload = ?, received = ?, "
                    "ended = ?, counted = ? WHERE game_id = ?",
                    row,
                )
            if game is not None:
                self._count(game, +1)
        except sqlite3.Error as e:
            raise LeagueStoreError(f"cannot store game {game_id!r}: {e}") from e
        return True

    def _count(self, game: FinishedGame, sign: int) -> None:
        """Add *game*'s contributions to the totals (*sign* -1: take them away)."""
        for line in contributions(game):
            values = [sign * v for v in (line.played, line.won, line.match_points)]
            values += [sign * line.spread, sign * line.lurches]
            self._conn.execute(
                "INSERT INTO standings VALUES (?,?,?,?,?,?) ON CONFLICT (name) DO UPDATE SET "
                "played = played + excluded.played, won = won + excluded.won, "
                "match_points = match_points + excluded.match_points, "
                "spread = spread + excluded.spread, lurches = lurches + excluded.lurches",
                (line.name, *values),
            )
            if sign < 0:  # a side left with no game leaves the table, as it would from scratch
                self._conn.execute(
                    "DELETE FROM standings WHERE name = ? AND played = 0", (line.name,)
                )
        self._conn.execute("UPDATE tally SET games = games + ?", (sign,))

    def _readable(self, venue: str, board: str, payload: str) -> FinishedGame | None:
        """The stored game, or None (logged once) when the check now refuses it."""
        try:
            return read_game(json.loads(payload), venue, board)
        except LeagueError as e:  # kept before the check was this strict: left out, said
            if (venue, board, payload) not in self._skipped:
                self._skipped.add((venue, board, payload))
                log.error("league: a stored game of %s/%s is left out: %s", venue, board, e)
            return None

    def games(self) -> list[FinishedGame]:
        """Every game that stands (not withdrawn), in the order they ended: a read of all of
        them (for checks and exports; the page and the table read the totals)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT venue, board, payload FROM games WHERE withdrawn = 0 ORDER BY rowid"
            ).fetchall()
        games = [self._readable(venue, board, payload) for venue, board, payload in rows]
        return sorted((g for g in games if g is not None), key=lambda g: g.ended)

    def standings(self) -> list[Standing]:
        """The table over every game that stands (``league.standings``), from the totals."""
        if self._version < SCHEMA_VERSION:  # a reader of a file made before the totals
            return standings(self.games())
        with self._lock:
            rows = self._conn.execute(
                "SELECT name, played, won, match_points, spread, lurches FROM standings"
            ).fetchall()
        return ranked(Standing(*row) for row in rows)

    def latest(self, limit: int) -> list[FinishedGame]:
        """The *limit* games that ended last, the latest first (ties: the later stored)."""
        if self._version < SCHEMA_VERSION:
            return self.games()[::-1][:limit]
        with self._lock:
            rows = self._conn.execute(
                "SELECT venue, board, payload FROM games WHERE counted = 1 "
                "ORDER BY ended DESC, rowid DESC LIMIT ?",
                (limit,),
            ).fetchall()
        games = [self._readable(venue, board, payload) for venue, board, payload in rows]
        return [g for g in games if g is not None]

    def count(self) -> int:
        """How many games stand (and are counted in the table)."""
        if self._version < SCHEMA_VERSION:
            return len(self.games())
        with self._lock:
            (n,) = self._conn.execute("SELECT games FROM tally").fetchone()
        return int(n)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __enter__(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None:
            try:
                self._conn.execute("COMMIT")
                return
            except sqlite3.Error:  # not committed (busy, full): undone, so the next can begin
                self._conn.execute("ROLLBACK")
                raise
        self._conn.execute("ROLLBACK")
