"""The journal's marks: what happened at the table that is not a move of the game.

A tournament lock turned on or off at the hub (``table.tourney``) is part of the table's
record: when it held, which games were played under it. It is not a command: the game's
state does not change, undo must never take it back, and a journal replays to the same state
with or without it. So a mark is a row of its own table, ``marks``, beside the ``journal``
table of commands, never in it: every reader that replays the commands (``Journal.load``,
``history``, the summaries, the score sheet, ``pegboard game repair``, and a pegboard older
than the marks, which knows no ``marks`` table and never asks for it) reads exactly what it
read before. A mark names the current match and the last command stored before it (``after``:
the journal's ``seq``, 0 before the first), so a listing can put it in its place among the
commands; ``at`` is when it was written (UTC).

The table is made with the others (``schema.SCHEMA``) by every writer; a journal that never
had a writer of this version has none, and reads as having no marks.

Kinds: ``lock`` and ``unlock`` (``LOCK``, ``UNLOCK``), their ``text`` the night's name.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard.errors import JournalError
from pegboard.frozen import frozen

from .schema import read_error

__all__ = ["LOCK", "UNLOCK", "Mark", "MarkTables"]

LOCK = "lock"
"""A tournament lock came on: no advice, odds or hints at this table until ``UNLOCK``."""
UNLOCK = "unlock"
"""The tournament lock went off."""


@frozen
class Mark:
    """One mark: its kind and text, the match it was made in and the command it follows."""

    kind: str
    text: str
    match_id: int | None
    after: int
    at: str


class MarkTables:
    """The marks' half of ``Journal``: written in a transaction of their own, and read."""

    _conn: sqlite3.Connection
    match_id: int | None
    path: Path
    readonly: bool

    if TYPE_CHECKING:  # Journal's own: a read-only journal refused, one transaction

        def _check_writable(self) -> None: ...

        def _transaction(self, begin: str) -> AbstractContextManager[None]: ...

    def mark(self, kind: str, text: str = "") -> Mark:
        """Write a mark of *kind* in the current match (after its last command), committed
        before returning; the game's state is not touched.

        Raises:
            JournalError: a read-only journal, or the database cannot be written.
        """
        self._check_writable()
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        conn = self._conn
        try:
            with self._transaction("BEGIN IMMEDIATE"):
                (after,) = conn.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM journal WHERE match_id IS ?",
                    (self.match_id,),
                ).fetchone()
                conn.execute(
                    "INSERT INTO marks (match_id, after, kind, text, at) VALUES (?,?,?,?,?)",
                    (self.match_id, after, kind, text, at),
                )
        except sqlite3.Error as e:
            raise JournalError(f"cannot write to {str(self.path)!r}: {e}") from e
        return Mark(kind, text, self.match_id, after, at)

    def marks(self, kinds: Sequence[str] = (), *, match_id: int | None = None) -> list[Mark]:
        """The marks (of *kinds*, when given; of match *match_id*, when given), oldest first;
        none in a journal that has no marks table (made before them).

        Raises:
            JournalError: the database cannot be read.
        """
        where: list[str] = []
        values: list[object] = []
        if kinds:
            where.append(f"kind IN ({','.join('?' * len(kinds))})")
            values += list(kinds)
        if match_id is not None:
            where.append("match_id = ?")
            values.append(match_id)
        query = "SELECT kind, text, match_id, after, at FROM marks"
        if where:
            query += " WHERE " + " AND ".join(where)
        try:
            rows = self._conn.execute(query + " ORDER BY id", values).fetchall()
        except sqlite3.OperationalError as e:
            if "no such table" in str(e):
                return []
            raise JournalError(read_error(self.path, e)) from e
        except sqlite3.Error as e:
            raise JournalError(read_error(self.path, e)) from e
        return [Mark(*row) for row in rows]

    def locked(self) -> Mark | None:
        """The ``LOCK`` mark that holds now (the last lock mark is a lock), else None.

        Raises:
            JournalError: the database cannot be read.
        """
        lock = self.marks((LOCK, UNLOCK))[-1:]
        return lock[0] if lock and lock[0].kind == LOCK else None
