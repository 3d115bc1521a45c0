"""A read-only SQLite connection that creates, writes and renames nothing beside the file.

SQLite opens a WAL database in place only with its ``-wal`` and ``-shm`` files, and creates
them when they are missing, even read-only; and a reader in place beside a writer that died
(``kill -9`` leaves both files) rebuilds the ``-shm``, rewriting it. So:

- while a writer has the database open it is read in place, through the writer's files: that
  is SQLite's own shared-memory protocol for a reader beside a writer, and ``mode=ro`` writes
  nothing of the database. A writer is known by its lock: every SQLite connection in WAL mode
  holds a POSIX shared lock on byte 128 of the ``-shm`` (the "DMS" slot of SQLite's unix VFS)
  for as long as it is open, and ``F_GETLK`` sees another process's lock. It cannot see this
  process's own, so a writer in this process (the daemon's journal, which its history reader
  and pub page read beside it) says so with ``hold_open``; and the ``-shm`` is never
  opened here then, as closing any descriptor of a file drops this process's locks on it.
  Where the lock cannot be asked about (``F_GETLK`` fails), the reader reads in place as before;
- a ``-wal`` whose writer is gone (no ``-shm``: a writer always has it; or a ``-shm`` nobody
  holds: the writer crashed) is left over. Opening that in place would create or rewrite the
  ``-shm``, so the file and its ``-wal`` are copied into a private temporary folder, the copy's
  log is checkpointed there, and the result is read into memory; the folder is removed before
  returning;
- otherwise the file is read into memory and the copy is opened there.

The journal's readers and the league's standings all open their files this way.
"""

from __future__ import annotations

import collections
import fcntl
import os
import shutil
import sqlite3
import struct
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

__all__ = ["hold_open", "read_only_connection"]

_FLOCK = "hhqqi"  # struct flock: l_type, l_whence, l_start, l_len, l_pid
_DMS_BYTE = 128  # the -shm byte every open WAL connection holds a shared lock on (unix VFS)

# The databases this process has open in place, by (device, inode): POSIX locks belong to the
# process, so whether a connection is open here is a fact about the process, kept once for it.
_own_writers: collections.Counter[tuple[int, int]] = collections.Counter()
_own_writers_lock = threading.Lock()


def hold_open(path: Path) -> Callable[[], None]:
    """Note that this process has the database at *path* open in place (a writer, or a reader
    beside one), until the returned function is called: its readers here then read it in place
    too (``F_GETLK`` cannot see a lock this process holds itself).

    Raises:
        OSError: *path* cannot be looked at.
    """
    st = os.stat(path)
    key = (st.st_dev, st.st_ino)
    with _own_writers_lock:
        _own_writers[key] += 1
    released = False

    def release() -> None:
        nonlocal released
        with _own_writers_lock:
            if not released:
                released = True
                _own_writers[key] -= 1
                if _own_writers[key] <= 0:
                    del _own_writers[key]

    return release


def _held_here(path: Path) -> bool:
    """Whether this process has *path* open in place (``hold_open``)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    with _own_writers_lock:
        return (st.st_dev, st.st_ino) in _own_writers


def _writer_alive(shm: Path) -> bool:
    """Whether another process holds the ``-shm``'s DMS lock: a live connection to the
    database. True too when that cannot be asked (as before the lock was looked at).
    Only called when this process has no writer of its own on the file (the module's notes).
    """
    try:
        fd = os.open(shm, os.O_RDONLY)
    except OSError:
        return True
    try:
        probe = struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, _DMS_BYTE, 1, 0)
        answer = fcntl.fcntl(fd, fcntl.F_GETLK, probe)
    except OSError:
        return True
    finally:
        os.close(fd)
    return bool(struct.unpack(_FLOCK, answer)[0] != fcntl.F_UNLCK)


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
    if wal.exists() and not (shm.exists() and (_held_here(path) or _writer_alive(shm))):
        # left over: no writer has it open (no -shm, or a -shm nobody holds)
        return _in_memory(_checkpointed_copy(path, wal), check_same_thread), False
    if wal.exists():
        # a writer is running: read beside it through SQLite's own shared-memory protocol,
        # which is how WAL readers and writers meet
        uri = f"{path.resolve().as_uri()}?mode=ro"
        conn = sqlite3.connect(
            uri, uri=True, isolation_level=None, timeout=timeout,
            check_same_thread=check_same_thread, factory=_InPlace,
        )  # fmt: skip
        try:
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            conn.release = hold_open(path)
        except (sqlite3.Error, OSError):
            conn.close()
            raise
        return conn, True
    return _in_memory(path.read_bytes(), check_same_thread), False


class _InPlace(sqlite3.Connection):
    """A connection in place, noted as open in this process (``hold_open``) until closed."""

    release: Callable[[], None] = staticmethod(lambda: None)

    def close(self) -> None:
        self.release()
        super().close()


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
    if not data:
        return conn  # an empty file is an empty database to SQLite (deserialize cannot take it)
    try:
        conn.deserialize(bytes(data))
    except sqlite3.Error:
        conn.close()
        raise
    return conn
