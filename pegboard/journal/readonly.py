"""A read-only SQLite connection that creates, writes and renames nothing beside the file.

SQLite opens a WAL database in place only with its ``-wal`` and ``-shm`` files, and creates
them when they are missing, even read-only; and a reader in place beside a writer that died
(``kill -9`` leaves both files) rebuilds the ``-shm``, rewriting it. So:

- while a writer has the database open it is read in place, through the writer's files: that
  is SQLite's own shared-memory protocol for a reader beside a writer, and ``mode=ro`` writes
  nothing of the database. A writer is known by its lock: every SQLite connection in WAL mode
  holds a POSIX shared lock on byte 128 of the ``-shm`` (the "DMS" slot of SQLite's unix VFS)
  for as long as it is open, and ``F_GETLK`` sees another process's lock. It cannot see this
  process's own, so a connection in this process (the daemon's journal, which its history
  reader and pub page read beside it) says so with ``hold_open``, and a reader here then
  always reads in place. Where the lock cannot be asked about (``F_GETLK`` fails), the reader
  reads in place as before;
- a ``-wal`` whose writer is gone (no ``-shm``: a writer always has it; or a ``-shm`` nobody
  holds: the writer crashed) is left over. Opening that in place would create or rewrite the
  ``-shm``, so the file and its ``-wal`` are copied into a private temporary folder, the copy's
  log is checkpointed there, and the result is read into memory; the folder is removed before
  returning;
- otherwise (no writer, no log) the file is opened in place with ``mode=ro&immutable=1``:
  SQLite then takes no locks and makes no ``-wal``/``-shm`` (a WAL-mode file included: checked
  by a test), and reads only the pages a query needs, so memory stays flat however large the
  journal. Immutable means SQLite trusts the file not to change, so the file's marks
  (``file_marks``) are taken before it is opened and compared after the first read: a writer
  that came meanwhile means starting again (``_Moved``), and ``moved()`` on the connection
  tells a later reader whether a writer has changed the file since (the probe asks it before
  calling a file damaged). Such a connection is not live: it is opened afresh for each read.

Never behind SQLite's back. POSIX locks belong to the process, not to a descriptor: closing
ANY descriptor of a file drops every lock this process holds on it, the ones its SQLite
connections hold included (SQLite's documentation warns of it). A writer that lost its shared
lock on the database looks gone to the next process that closes the file, which then deletes
the ``-wal`` and ``-shm`` under it, and every later commit goes into a deleted log, lost at the
next power cut. So while a connection in this process has a database open, this process never
opens that file, its ``-wal`` or its ``-shm`` with its own I/O (the header probe, a copy, the
``F_GETLK`` probe): each such read happens inside ``_outside_sqlite``, which holds the registry
of open files while it looks and reads, and ``hold_open`` is called before a connection takes
its first lock, so no connection here can take one meanwhile.

The journal's readers and the league's standings all open their files this way.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import os
import sqlite3
import struct
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = [
    "Marks",
    "close_when_unused",
    "file_marks",
    "has_moved",
    "hold_open",
    "read_header",
    "read_only_connection",
    "wal_index_header",
]

_FLOCK = "hhqqi"  # struct flock: l_type, l_whence, l_start, l_len, l_pid
_DMS_BYTE = 128  # the -shm byte every open WAL connection holds a shared lock on (unix VFS)

# The databases this process has open in place, by (device, inode): POSIX locks belong to the
# process, so whether a connection is open here is a fact about the process, kept once for it.
# The lock is also held while this process reads such a file with its own I/O
# (``_outside_sqlite``), so that no connection is noted, nor takes its first lock, meanwhile.
_own_writers: collections.Counter[tuple[int, int]] = collections.Counter()
_own_writers_lock = threading.Lock()
# Descriptors of such a file that this process opened itself (the table's lock, ``writers``),
# closed only once no connection here has the file open: closing one earlier would drop the
# connections' locks. SQLite keeps its own descriptors the same way.
_unused_fds: dict[tuple[int, int], list[int]] = {}


def hold_open(path: Path) -> Callable[[], None]:
    """Note that this process has the database at *path* open in place (a writer, or a reader
    beside one), until the returned function is called. Call it BEFORE the connection takes
    its first lock (before its first statement), and the returned function after it is closed:
    meanwhile this process never opens the file with its own I/O (the module's notes), and its
    readers here read it in place (``F_GETLK`` cannot see a lock this process holds itself).

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
                    for fd in _unused_fds.pop(key, ()):
                        os.close(fd)

    return release


def close_when_unused(fd: int) -> None:
    """Close *fd*, a descriptor of a database this process opened with its own I/O, once no
    connection here has that file open (``hold_open``): at once if none has, else when the
    last one is released. Closing it earlier would drop their locks (the module's notes).
    """
    st = os.fstat(fd)
    key = (st.st_dev, st.st_ino)
    with _own_writers_lock:
        if key in _own_writers:
            _unused_fds.setdefault(key, []).append(fd)
        else:
            os.close(fd)  # under the lock: no connection here is noted meanwhile


@contextlib.contextmanager
def _outside_sqlite(path: Path) -> Iterator[bool]:
    """Whether this process may open *path* (and its ``-wal``/``-shm``) with its own I/O in the
    block: False while a connection here has it open (``hold_open``). No connection here is
    noted while the block runs, so the answer holds until it ends."""
    with _own_writers_lock:
        try:
            st = os.stat(path)
        except OSError:
            held = False  # nothing there to hold a lock on; the reads report it themselves
        else:
            held = (st.st_dev, st.st_ino) in _own_writers
        yield not held


def read_header(path: Path, size: int) -> bytes | None:
    """The first *size* bytes of the file at *path*, or None when a connection in this process
    has it open: opening the file beside it would drop that connection's locks (the module's
    notes), and its header was read when it was opened; SQLite reads it again itself.

    Raises:
        OSError: the file cannot be read.
    """
    with _outside_sqlite(path) as free:
        if not free:
            return None
        with path.open("rb") as f:
            return f.read(size)


_WAL_INDEX_HEADER = 96  # the -shm's first bytes: the wal-index header, written twice (48 each)


def wal_index_header(path: Path) -> bytes | None:
    """The wal-index header at the start of the database's ``-shm``: it changes when a commit
    becomes visible to readers, which is after the commit's frames are in the ``-wal`` (so
    the ``-wal``'s size and time can change before a reader can see the commit). None when
    there is no ``-shm``, it cannot be read, or a connection in this process has the database
    open (opening the ``-shm`` here would drop that connection's locks: the module's notes).
    """
    with _outside_sqlite(path) as free:
        if not free:
            return None
        try:
            with open(f"{path}-shm", "rb") as f:
                return f.read(_WAL_INDEX_HEADER)
        except OSError:
            return None


def _writer_alive(shm: Path) -> bool:
    """Whether another process holds the ``-shm``'s DMS lock: a live connection to the
    database. True too when that cannot be asked (as before the lock was looked at).
    Only called inside ``_outside_sqlite``: opening the ``-shm`` drops this process's locks.

    Raises:
        _Moved: the ``-shm`` is gone (its writer closed).
    """
    try:
        fd = os.open(shm, os.O_RDONLY)
    except FileNotFoundError:
        raise _Moved from None  # the writer closed meanwhile, and its -shm went with it
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


_ATTEMPTS = 5
"""How many times a read starts again when a writer comes or goes while it runs."""

Marks = tuple[tuple[int, int, int, int] | None, ...]


class _Moved(Exception):
    """A ``-wal`` or ``-shm`` (or the file itself) came, went or changed while the database
    was being looked at: a writer opened or closed it meanwhile. Read again from the start."""


def file_marks(path: Path, suffixes: tuple[str, ...] = ("", "-wal", "-shm")) -> Marks:
    """The (inode, size, mtime_ns, ctime_ns) of the database and, by default, its ``-wal`` and
    ``-shm`` (each file *path* + a suffix); None for one that is not there. ``os.stat`` opens
    nothing, so it is safe beside this process's own connections."""
    marks: list[tuple[int, int, int, int] | None] = []
    for suffix in suffixes:
        try:
            st = os.stat(f"{path}{suffix}")
        except OSError:
            marks.append(None)
        else:
            marks.append((st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(marks)


def read_only_connection(
    path: Path, *, timeout: float = 10.0, check_same_thread: bool = True
) -> tuple[sqlite3.Connection, bool]:
    """A connection to the database at *path* that cannot write, and whether it is live (it
    sees later commits of a writer: in place) or a copy in memory as the file was.

    A writer in another process may open or close the database at any moment, creating or
    removing its ``-wal`` and ``-shm`` (the last one to close folds the log into the file
    first, so the file is whole whenever no writer has it). A read that finds them come or go
    under it starts again from the start, up to ``_ATTEMPTS`` times.

    Raises:
        sqlite3.Error: the file cannot be opened or read as a database, or a writer kept
            opening and closing it for every attempt (``SQLITE_BUSY``).
        OSError: the file cannot be read.
    """
    for _ in range(_ATTEMPTS):
        try:
            return _read_only_connection_once(path, timeout, check_same_thread)
        except _Moved:
            continue
    raise sqlite3.OperationalError(
        f"database is busy: a writer opened or closed it during each of {_ATTEMPTS} reads"
    )


def _read_only_connection_once(
    path: Path, timeout: float, check_same_thread: bool
) -> tuple[sqlite3.Connection, bool]:
    """``read_only_connection``'s one attempt.

    Raises:
        _Moved: a writer came or went meanwhile.
        sqlite3.Error: the file cannot be opened or read as a database.
        OSError: the file cannot be read.
    """
    copy = None
    with _outside_sqlite(path) as free:
        if free:  # else a connection here: always in place, its files never opened behind it
            before = file_marks(path)
            copy = _copy_unless_beside_a_writer(path)
            if copy is not None and file_marks(path) != before:
                raise _Moved  # a writer opened or closed it while it was looked at
    if isinstance(copy, _Unchanged):
        return _immutable(path, before, check_same_thread), False
    if copy is not None:
        return _in_memory(copy, check_same_thread), False
    # a writer is running: read beside it through SQLite's own shared-memory protocol, which
    # is how WAL readers and writers meet
    uri = f"{path.resolve().as_uri()}?mode=ro"
    release = hold_open(path)  # before the connection's first lock
    try:
        conn = sqlite3.connect(
            uri, uri=True, isolation_level=None, timeout=timeout,
            check_same_thread=check_same_thread, factory=_InPlace,
        )  # fmt: skip
    except BaseException:
        release()
        raise
    conn.release = release
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except (sqlite3.Error, OSError):
        conn.close()
        raise
    return conn, True


class _Unchanged:
    """``_copy_unless_beside_a_writer``'s answer for a file with no writer and no log: read it
    in place, immutable."""


_UNCHANGED = _Unchanged()


def _copy_unless_beside_a_writer(path: Path) -> bytes | _Unchanged | None:
    """The database's bytes to read in memory (a left-over log applied), ``_UNCHANGED`` for a
    file with no ``-wal`` (read in place, immutable), or None while another process's writer
    has it open (a live ``-shm``: read in place then). Only called inside ``_outside_sqlite``.

    Raises:
        _Moved: the ``-wal`` or ``-shm`` went while it was looked at.
        sqlite3.Error: a left-over log cannot be applied to a copy.
        OSError: a file cannot be read.
    """
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    if not wal.exists():
        if os.stat(path).st_size == 0:  # SQLite's empty database: nothing to open in place
            return b""
        return _UNCHANGED
    if shm.exists() and _writer_alive(shm):
        return None
    # left over: no writer has it open (no -shm, or a -shm nobody holds)
    return _checkpointed_copy(path, wal)


class _InPlace(sqlite3.Connection):
    """A connection in place, noted as open in this process (``hold_open``) until closed."""

    release: Callable[[], None] = staticmethod(lambda: None)

    def close(self) -> None:
        super().close()  # a close that fails (another thread's) keeps the note: still open
        self.release()  # only once it holds no lock


class _Immutable(sqlite3.Connection):
    """A connection in place to a file no writer had open: ``moved()`` says whether one has
    changed it since."""

    path: Path = Path()
    marks: Marks = ()

    def moved(self) -> bool:
        """Whether the file (or a ``-wal``/``-shm`` beside it) changed since it was opened."""
        return file_marks(self.path) != self.marks


def has_moved(conn: sqlite3.Connection) -> bool:
    """Whether *conn* reads its file as immutable and a writer has changed the file since it
    was opened: what it read may be torn (a page from before a checkpoint, one from after), so
    a read that looked damaged, or any read, is started again instead of believed."""
    return isinstance(conn, _Immutable) and conn.moved()


def _immutable(path: Path, before: Marks, check_same_thread: bool) -> sqlite3.Connection:
    """The file at *path* opened in place, read-only and immutable (no locks, no files beside
    it), after its marks were *before*.

    Raises:
        _Moved: a writer came while it was opened.
        sqlite3.Error: the file cannot be opened or read as a database.
    """
    uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
    conn = sqlite3.connect(
        uri, uri=True, isolation_level=None, check_same_thread=check_same_thread,
        factory=_Immutable,
    )  # fmt: skip
    conn.path, conn.marks = path, before
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.Error:
        conn.close()
        if file_marks(path) != before:
            raise _Moved from None
        raise
    if conn.moved():
        conn.close()
        raise _Moved
    return conn


def _checkpointed_copy(path: Path, wal: Path) -> bytes:
    """The database at *path* with its left-over *wal* applied, as one file's bytes, made in a
    private temporary folder (removed again): nothing is created beside *path*.

    Raises:
        _Moved: the ``-wal`` went before it was copied.
        sqlite3.Error: the copy cannot be opened or checkpointed.
        OSError: a file cannot be read or copied.
    """
    import shutil  # only here: a left-over -wal is rare, and these cost a start 3 ms
    import tempfile

    with tempfile.TemporaryDirectory(prefix="pegboard-read-") as folder:
        copy = Path(folder) / "copy.db"
        shutil.copyfile(path, copy)
        try:
            shutil.copyfile(wal, Path(f"{copy}-wal"))
        except FileNotFoundError:
            raise _Moved from None  # a writer opened and closed it: its log is in the file
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
