"""A read-only SQLite connection that creates, writes and renames nothing beside the file.

SQLite opens a WAL database in place only with its ``-wal`` and ``-shm`` files, and creates
them when they are missing, even read-only. So while a writer has the database open (its
``-wal`` exists) it is read in place, through the writer's files; otherwise the file is read
into memory and the copy is opened there. The journal's readers and the league's standings
both open their files this way.
"""

from __future__ import annotations

import sqlite3
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
    if Path(str(path) + "-wal").exists():
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
    data = bytearray(path.read_bytes())
    if len(data) >= 20 and data[18:20] == b"\x02\x02":
        data[18:20] = b"\x01\x01"  # our copy only: an in-memory database has no WAL
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=check_same_thread)
    try:
        conn.deserialize(bytes(data))
    except sqlite3.Error:
        conn.close()
        raise
    return conn, False
