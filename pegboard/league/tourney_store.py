"""A tournament night's own SQLite: every step of the night once, in order.

The night (``tourney.steps.Tourney``) is its steps applied in order, as a board's game is its
journal: ``steps`` holds one row a step (the director's entries, seatings as drawn, the boards'
results with the hands their games showed, corrections, the bracket, the lock), with who made
it and when. A step is checked
on the night as it stands before it is stored, inside the write transaction (``BEGIN
IMMEDIATE``, after reading any step another process stored meanwhile): a step the night refuses
is not stored and the database is as it was. ``refused`` keeps what the boards sent that the
night refused (a pairing that does not exist, a duplicate, a board not in the night), with the
reason, for the director to see.

A night holds a few hundred steps, so opening it replays them all (milliseconds); a process
that keeps the store open (the league service) reads only the steps added since it last looked.
A read-only store (``readonly``) opens the file as the league's standings do
(``journal.readonly``): nothing is written, nor made beside it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pegboard.errors import PegboardError, quote
from pegboard.frozen import frozen
from pegboard.journal.readonly import hold_open, read_only_connection
from pegboard.journal.sqlite import connect
from pegboard.tourney.night import Night, TourneyError
from pegboard.tourney.steps import Tourney, apply_step

__all__ = ["SCHEMA_VERSION", "Refusal", "TourneyStore", "TourneyStoreError"]

SCHEMA_VERSION = 1
APPLICATION_ID = 0x50475452
"""``PRAGMA application_id`` of a night's database ("PGTR"): no other file is taken for one."""

_SCHEMA = (
    """CREATE TABLE night (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    name TEXT NOT NULL,
    games INTEGER NOT NULL,
    bye_spread INTEGER NOT NULL,
    created TEXT NOT NULL
)""",
    """CREATE TABLE steps (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    by TEXT NOT NULL
)""",
    """CREATE TABLE refused (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    source TEXT NOT NULL,
    reason TEXT NOT NULL,
    payload TEXT NOT NULL
)""",
)


class TourneyStoreError(PegboardError):
    """A night's database that cannot be opened, made or read."""


@frozen
class Refusal:
    """Something a board sent that the night refused: when, from where, why, and what."""

    at: str
    source: str
    reason: str
    payload: str


class TourneyStore:
    """The night at *path* (``create`` makes a new one). A write waits up to *timeout*
    seconds for another connection's lock.

    Raises:
        TourneyStoreError: no such database (or *readonly* and missing), not a night's
            database, made by a newer pegboard, or one that cannot be opened or whose steps
            do not replay.
    """

    def __init__(self, path: Path | str, *, readonly: bool = False, timeout: float = 10.0) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._lock = threading.Lock()  # the service's subscriber writes, its page reads
        self._release: Callable[[], None] = lambda: None
        shown = quote(str(self.path))
        if not self.path.is_file():
            raise TourneyStoreError(
                f"no tournament night at {shown} (start one with 'pegboard tourney new NAME "
                f"--games N --db {self.path}')"
            )
        try:
            if readonly:
                self._conn, _ = read_only_connection(self.path, check_same_thread=False)
            else:
                self._conn = connect(self.path, timeout=timeout, check_same_thread=False)
                self._release = hold_open(self.path)
            self._check(shown)
            row = self._conn.execute("SELECT name, games, bye_spread FROM night").fetchone()
        except (sqlite3.Error, OSError) as e:
            self.close()
            raise TourneyStoreError(f"cannot open the tournament night {shown}: {e}") from e
        except TourneyStoreError:
            self.close()
            raise
        self._seq = 0
        try:
            self._tourney = Tourney(Night(row[0], row[1], bye_spread=row[2]))
            self._catch_up()
        except TourneyError as e:
            self.close()
            raise TourneyStoreError(f"{shown}: a stored step does not replay: {e}") from e

    def _check(self, shown: str) -> None:
        (app,) = self._conn.execute("PRAGMA application_id").fetchone()
        (version,) = self._conn.execute("PRAGMA user_version").fetchone()
        if app != APPLICATION_ID:
            raise TourneyStoreError(
                f"{shown} is not a tournament night's database (expected the --db of "
                "'pegboard tourney new', e.g. tourney.db)"
            )
        if version > SCHEMA_VERSION:
            raise TourneyStoreError(
                f"{shown} was made by a newer pegboard (night schema {version}; this one "
                f"knows {SCHEMA_VERSION}): upgrade pegboard to read it"
            )

    @classmethod
    def create(
        cls, path: Path | str, name: str, games: int, *, bye_spread: int = 0, at: str = ""
    ) -> TourneyStore:
        """A new night called *name* of *games* games at *path* (a new file; its folder is
        made).

        Raises:
            TourneyError: a bad name, number of games or bye spread.
            TourneyStoreError: *path* exists, or cannot be made.
        """
        Night(name, games, bye_spread=bye_spread)  # checks the games
        if not name.strip() or len(name) > 80 or not name.isprintable():
            raise TourneyError(f"a night's name is 1 to 80 printable characters, got {quote(name)}")
        if not -121 <= bye_spread <= 121:
            raise TourneyError(f"--bye-spread must be from -121 to 121, got {quote(bye_spread)}")
        path = Path(path)
        if path.exists():
            raise TourneyStoreError(
                f"{quote(str(path))} exists already (a night is made once: choose another --db)"
            )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = connect(path)
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("BEGIN IMMEDIATE")
                for statement in _SCHEMA:
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO night VALUES (1, ?, ?, ?, ?)", (name, games, bye_spread, at)
                )
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                conn.execute("COMMIT")
            finally:
                conn.close()
        except sqlite3.Error as e:
            raise TourneyStoreError(f"cannot make the night {quote(str(path))}: {e}") from e
        return cls(path)

    def close(self) -> None:
        """Close the database."""
        conn = getattr(self, "_conn", None)
        if conn is not None:
            conn.close()
        self._release()

    def _catch_up(self) -> None:
        """Apply the steps stored since the last look (another process's too).

        Raises:
            TourneyError: a stored step does not replay.
            sqlite3.Error: the database failed.
        """
        rows = self._conn.execute(
            "SELECT seq, kind, payload FROM steps WHERE seq > ? ORDER BY seq", (self._seq,)
        ).fetchall()
        for seq, kind, payload in rows:
            self._tourney = apply_step(self._tourney, kind, json.loads(payload))
            self._seq = seq

    @property
    def tourney(self) -> Tourney:
        """The night as stored now (with steps another process stored since).

        Raises:
            TourneyStoreError: the database failed.
        """
        with self._lock:
            if not self.readonly:
                try:
                    self._catch_up()
                except (sqlite3.Error, TourneyError) as e:
                    raise TourneyStoreError(f"cannot read {quote(str(self.path))}: {e}") from e
            return self._tourney

    @property
    def night(self) -> Night:
        """The night itself (``tourney.night``)."""
        return self.tourney.night

    def add(self, kind: str, payload: Mapping[str, Any], *, at: str, by: str) -> Tourney:
        """Store the step *kind* with *payload*, made *by* someone *at* a time, if the night
        takes it; the night after it.

        Raises:
            TourneyError: the night refuses the step (nothing is stored).
            TourneyStoreError: the database failed (nothing is stored), or it is read-only.
        """
        if self.readonly:
            raise TourneyStoreError(f"{quote(str(self.path))} is open read-only")
        text = json.dumps(payload, sort_keys=True)
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    self._catch_up()
                    after = apply_step(self._tourney, kind, payload)
                    cursor = self._conn.execute(
                        "INSERT INTO steps (kind, payload, at, by) VALUES (?, ?, ?, ?)",
                        (kind, text, at, by),
                    )
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as e:
                raise TourneyStoreError(f"cannot store in {quote(str(self.path))}: {e}") from e
            self._tourney = after
            self._seq = int(cursor.lastrowid or self._seq)
            return after

    def refuse(self, source: str, reason: str, payload: str, *, at: str) -> None:
        """Keep a refusal of what *source* sent, for the director.

        Raises:
            TourneyStoreError: the database failed, or it is read-only.
        """
        if self.readonly:
            raise TourneyStoreError(f"{quote(str(self.path))} is open read-only")
        with self._lock:
            try:
                self._conn.execute(
                    "INSERT INTO refused (at, source, reason, payload) VALUES (?, ?, ?, ?)",
                    (at, source, reason, payload[:2000]),
                )
            except sqlite3.Error as e:
                raise TourneyStoreError(f"cannot store in {quote(str(self.path))}: {e}") from e

    def refused(self) -> list[Refusal]:
        """Every refusal, oldest first.

        Raises:
            TourneyStoreError: the database failed.
        """
        with self._lock:
            try:
                rows = self._conn.execute(
                    "SELECT at, source, reason, payload FROM refused ORDER BY seq"
                ).fetchall()
            except sqlite3.Error as e:
                raise TourneyStoreError(f"cannot read {quote(str(self.path))}: {e}") from e
        return [Refusal(*row) for row in rows]

    def steps(self) -> list[tuple[int, str, str, str, str]]:
        """Every step as stored: (seq, kind, payload, at, by), oldest first.

        Raises:
            TourneyStoreError: the database failed.
        """
        with self._lock:
            try:
                return list(
                    self._conn.execute("SELECT seq, kind, payload, at, by FROM steps ORDER BY seq")
                )
            except sqlite3.Error as e:
                raise TourneyStoreError(f"cannot read {quote(str(self.path))}: {e}") from e
