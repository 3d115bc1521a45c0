"""The league's outbox: each finished game queued in the transaction that finished it.

With ``Journal(outbox=True)`` (when ``[league]`` is configured; and by every writer of a
journal that already has the outbox, ``pegboard game do`` and a headless replay included),
whenever a game is won, or a win is taken back by undo, a row for it goes into ``outbox`` in
the same transaction as the command, so a power cut can never lose it. A game keeps one id
(a uuid4 made here, in ``game_ids``) through undo and winning again; each change raises its
``revision``, and a withdrawn win says so; each row is an ``engine.summary.GameSummary``'s
payload (the ``finished`` topic's one wire type). ``league.publisher`` sends the rows through an
``Outbox`` (its own connection, made here: the outbox's schema has this one owning module) and
``acknowledge``s each once the league's receipt for it has come (``league.receipt``).

Versions of the outbox: version 1 is ``game_ids`` and ``outbox``; version 2 adds
``outbox_sent``, one row for each outbox row that the broker has taken (its PUBACK) but the
league has not yet confirmed: when it was last sent and how often, so the sender waits before
sending it again, across its own restarts too. The table stands beside ``outbox`` instead of
new columns in it, so an older pegboard still reads and empties an outbox of version 2 (it never
looks at the new table); an ``Outbox`` opened on an outbox of version 1 adds the table, and
forgets marks whose row an older sender deleted (row ids may be used again).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path

from pegboard.engine.game import GameState
from pegboard.errors import JournalError
from pegboard.frozen import frozen

from .readonly import hold_open
from .sqlite import connect

__all__ = ["OUTBOX_SCHEMA", "OUTBOX_VERSION", "Outbox", "OutboxRow", "write_outbox"]

_SENT = """
CREATE TABLE IF NOT EXISTS outbox_sent (
    id INTEGER PRIMARY KEY,
    sent REAL NOT NULL,
    tries INTEGER NOT NULL
)
"""

OUTBOX_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS game_ids (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    game INTEGER NOT NULL,
    game_id TEXT NOT NULL UNIQUE,
    revision INTEGER NOT NULL,
    started TEXT NOT NULL,
    end_seq INTEGER NOT NULL,
    PRIMARY KEY (match_id, game)
);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    created TEXT NOT NULL
);
"""
    + _SENT
    + ";"
)
"""The outbox's tables, version 2 (the module's notes)."""

OUTBOX_VERSION = 2
"""The outbox's version: 2 keeps a game until the league's receipt (the module's notes)."""


def write_outbox(
    conn: sqlite3.Connection, match_id: int | None, now: str, before: GameState, state: GameState
) -> None:
    """Queue each game this command won, won differently or took back (by undo)."""
    import uuid  # uuid and the summary: a game's end is their first use (not a start's)

    from pegboard.engine.summary import GameSummary

    old = {record.game: record for record in before.table.finished}
    new = {record.game: record for record in state.table.finished}
    for game in sorted(old.keys() | new.keys()):
        record = new.get(game)
        if record is not None and old.get(game) == record:
            continue
        row = conn.execute(
            "SELECT game_id, revision, started FROM game_ids WHERE match_id = ? AND game = ?",
            (match_id, game),
        ).fetchone()
        if row is None and record is None:
            continue
        (end_seq,) = conn.execute("SELECT MAX(seq) FROM journal").fetchone()
        if row is None:  # the game began with the first command after the last game's end
            (started,) = conn.execute(
                "SELECT at FROM journal WHERE match_id = ? AND seq > COALESCE((SELECT "
                "MAX(end_seq) FROM game_ids WHERE match_id = ? AND game < ?), 0) "
                "ORDER BY seq LIMIT 1",
                (match_id, match_id, game),
            ).fetchone()
            row = (str(uuid.uuid4()), 0, started)
        game_id, revision, started = row[0], row[1] + 1, row[2]
        conn.execute(
            "INSERT OR REPLACE INTO game_ids VALUES (?,?,?,?,?,?)",
            (match_id, game, game_id, revision, started, end_seq),
        )
        if record is None:  # a win taken back: the league forgets it
            summary = GameSummary(game_id, revision, withdrawn=True)
        else:
            summary = GameSummary.of(
                state, record, game_id=game_id, revision=revision, started=started, ended=now
            )
        conn.execute(
            "INSERT INTO outbox (kind, payload, created) VALUES ('finished', ?, ?)",
            (json.dumps(summary.to_payload(), separators=(",", ":")), now),
        )


@frozen
class OutboxRow:
    """One queued game: its row's id (to ``acknowledge``), its JSON as the board sends it, and,
    once the broker has taken it (``mark_sent``), when it was last sent (seconds since the epoch)
    and how many times: a row with ``sent`` waits for the league's receipt."""

    id: int
    payload: str
    sent: float | None = None
    tries: int = 0

    @property
    def game(self) -> tuple[str, int] | None:
        """The game's id and revision, as the league's receipt names them (None: unreadable)."""
        try:
            data = json.loads(self.payload)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        game_id, revision = data.get("game_id"), data.get("revision")
        if isinstance(game_id, str) and isinstance(revision, int):
            return game_id, revision
        return None


class Outbox:
    """The outbox of the journal at *path*, for its sender (``league.publisher``): a connection
    of its own, beside the journal's writer (WAL lets both in), made from the thread that uses
    it. ``close`` it.

    Raises:
        JournalError: the journal cannot be opened, or has no outbox.
    """

    def __init__(self, path: Path | str, *, timeout: float = 5.0) -> None:
        self.path = Path(path)
        shown = repr(str(self.path))
        try:
            # noted as open in this process before its first lock (``readonly.hold_open``):
            # nothing here then opens the file behind SQLite's back, and this process's readers
            # read beside it in place
            self._release: Callable[[], None] = hold_open(self.path)
        except OSError as e:
            raise JournalError(f"cannot read the outbox of {shown}: {e.strerror or e}") from e
        try:
            self._conn = connect(self.path, timeout=timeout)
        except sqlite3.Error as e:
            self._release()
            raise JournalError(f"cannot read the outbox of {shown}: {e}") from e
        try:
            # a delete lost in a power cut only sends a game again (the league keeps one)
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("SELECT COUNT(*) FROM outbox").fetchone()
            self._conn.execute(_SENT)  # an outbox of version 1 becomes version 2
            # marks whose row an older sender deleted: a new row may get the same id
            self._conn.execute("DELETE FROM outbox_sent WHERE id NOT IN (SELECT id FROM outbox)")
        except sqlite3.Error as e:
            self.close()
            raise JournalError(f"cannot read the outbox of {shown}: {e}") from e

    def pending(self, limit: int | None = None) -> list[OutboxRow]:
        """The queued games, oldest first (at most *limit*; None: all), each with when it was
        last sent, if the broker has taken it.

        Raises:
            JournalError: the outbox cannot be read now (locked, an I/O error).
        """
        try:
            rows = self._conn.execute(
                "SELECT outbox.id, payload, sent, tries FROM outbox LEFT JOIN outbox_sent "
                "USING (id) WHERE kind = 'finished' ORDER BY outbox.id LIMIT ?",
                (-1 if limit is None else limit,),
            ).fetchall()
        except sqlite3.Error as e:
            raise JournalError(f"cannot read the outbox: {e}") from e
        return [
            OutboxRow(
                int(row), str(payload), None if sent is None else float(sent), int(tries or 0)
            )
            for row, payload, sent, tries in rows
        ]

    def mark_sent(self, ids: Iterable[int], at: float) -> None:
        """Note the rows *ids* as taken by the broker at *at* (seconds since the epoch), now
        waiting for the league's receipt: one send more each. A row already gone is skipped.

        Raises:
            JournalError: not noted now (locked, an I/O error): note them again later.
        """
        rows = [int(i) for i in ids]
        if not rows:
            return
        marks = ",".join("?" * len(rows))
        try:  # one statement: its own transaction
            self._conn.execute(
                f"INSERT INTO outbox_sent (id, sent, tries) SELECT id, ?, 1 FROM outbox "
                f"WHERE id IN ({marks}) ON CONFLICT (id) DO UPDATE SET sent = excluded.sent, "
                "tries = tries + 1",
                [at, *rows],
            )
        except sqlite3.Error as e:
            raise JournalError(f"cannot note a game as sent in the outbox: {e}") from e

    def acknowledge(self, ids: Iterable[int]) -> None:
        """Delete the rows *ids* (the league has them), all in one transaction.

        Raises:
            JournalError: not deleted now (locked, an I/O error): acknowledge them again later.
        """
        rows = [int(i) for i in ids]
        if not rows:
            return
        marks = ",".join("?" * len(rows))
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute(f"DELETE FROM outbox WHERE id IN ({marks})", rows)
                self._conn.execute(f"DELETE FROM outbox_sent WHERE id IN ({marks})", rows)
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
        except sqlite3.Error as e:
            raise JournalError(f"cannot delete from the outbox: {e}") from e

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()
        self._release()  # only once the connection holds no lock
