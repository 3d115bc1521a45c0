"""A read-only SQLite connection that creates, writes and renames nothing beside the file.

SQLite opens a WAL database in place only with its ``-wal`` and ``-shm`` files, and creates
them when they are missing, even read-only. So:

- while a writer has the database open (its ``-wal`` and ``-shm`` both exist) it is read in
  place, through the writer's files: that is SQLite's own shared-memory protocol for a reader
  beside a writer, and ``mode=ro`` writes nothing of the database;
- a ``-wal`` without its ``-shm`` is left over (a writer always has the ``-shm``; one that
  crashed or was copied without it left the ``-wal`` alone). Opening that in place would
  create the ``-shm``, so the file and its ``-wal`` are copied into a private temporary folder,
  the copy's log is checkpointed there, and the result is read into memory; the folder is
  removed before returning;
- otherwise the file is read into memory and the copy is opened there.

The journal's readers and the league's standings all open their files this way.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path

__all__ = ["read_only_connection"]


def read_only_connection(
    path: Path, *, timeout: float = 10.0, check_same_thread: bool = True
) -> tuple[sqlite3.Connection, bool]:
    """A connection to the database at *path* that cannot write, and whether it is live (it
    sees later commits of a writer: in place) or a copy in memory as the file was.

    Raises:
        sqlite3.Error: the file cannot be opened or read as a database.
        OSError: the file cannot be read.
    """
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    if wal.exists() and not shm.exists():
        return _in_memory(_checkpointed_copy(path, wal), check_same_thread), False
    if wal.exists():
        # a writer is running (it has both files): read beside it through SQLite's own
        # shared-memory protocol, which is how WAL readers and writers meet
        uri = f"{path.resolve().as_uri()}?mode=ro"
        conn = sqlite3.connect(
            uri, uri=True, isolation_level=None, timeout=timeout,
            check_same_thread=check_same_thread,
        )  # fmt: skip
        try:
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            conn.close()
            raise
        return conn, True
    return _in_memory(path.read_bytes(), check_same_thread), False


def _checkpointed_copy(path: Path, wal: Path) -> bytes:
    """The database at *path* with its left-over *wal* applied, as one file's bytes, made in a
    private temporary folder (removed again): nothing is created beside *path*.

    Raises:
        sqlite3.Error: the copy cannot be opened or checkpointed.
        OSError: a file cannot be read or copied.
    """
    with tempfile.TemporaryDirectory(prefix="pegboard-read-") as folder:
        copy = Path(folder) / "copy.db"
        shutil.copyfile(path, copy)
        shutil.copyfile(wal, Path(f"{copy}-wal"))
        conn = sqlite3.connect(copy, isolation_level=None)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            conn.execute("PRAGMA journal_mode=DELETE").fetchone()
        finally:
            conn.close()
        return copy.read_bytes()


def _in_memory(file: bytes, check_same_thread: bool) -> sqlite3.Connection:
    """A connection to an in-memory database holding a copy of *file*.

    Raises:
        sqlite3.Error: *file* is not a database SQLite can read.
    """
    data = bytearray(file)
    if len(data) >= 20 and data[18:20] == b"\x02\x02":
        data[18:20] = b"\x01\x01"  # our copy only: an in-memory database has no WAL
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=check_same_thread)
    try:
        conn.deserialize(bytes(data))
    except sqlite3.Error:
        conn.close()
        raise
    return conn
