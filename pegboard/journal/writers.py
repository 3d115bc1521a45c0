"""Who writes the journal: one table at a time, and any number of short commands beside it.

Theory of operation
-------------------
A table (``pegboard run``, the simulator, a headless run) keeps the game's state in memory for
as long as it runs. Two tables on one journal would each append what fits their own state, and
the journal would soon hold a command its replay cannot accept. So a table holds the journal
alone: ``Journal(path, table="pegboard run")`` takes an ``flock`` on a descriptor of the file
that it keeps for its whole life, and notes itself in the journal's one-row ``table_holder``
table (pid, host, program, since when). A second table finds the ``flock`` taken, reads that
row and is refused (``JournalInUseError``) with a message naming the first. The kernel drops an
``flock`` when its holder dies, however it dies, so a crashed table never blocks its restart;
the row it left is only read while somebody holds the lock, and the holder rewrites it first.

The ``flock`` and SQLite's own locks: SQLite locks with POSIX record locks, which belong to the
process, and closing ANY descriptor of the file drops them all (``readonly``'s notes). On Linux
``flock`` and POSIX locks are independent, so the ``flock`` itself does not disturb SQLite; the
descriptor that carries it is opened once the journal is noted as open here (``hold_open``) and
closed only when no connection of this process has the file open any more
(``close_when_unused``). Its ``flock`` is let go at once on close, so a restart can take it.

Short commands (``pegboard game do``, ``game new``, ``game show``) take no ``flock``: they work
beside a running table. Every append checks, inside its write transaction, that the journal
still ends where this writer last read it (``Journal.do_all``), and a table looks for other
writers' commits on each turn of its loop (``Journal.refresh``), so both sides stay one game.

Drafts: a new journal is built under a hidden name, ``.<name>.new-<pid>``, and linked into place
whole (``Journal._create``). A writer killed while it builds one leaves the draft behind; the
next writer to open the journal removes the drafts of processes that are gone (with their
``-wal``, ``-shm`` and ``-journal``), never a live process's.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from pegboard.frozen import frozen

from .readonly import close_when_unused

__all__ = [
    "HOLDER_SCHEMA",
    "Holder",
    "in_use_message",
    "let_go",
    "note_holder",
    "read_holder",
    "remove_stale_drafts",
    "take_table",
]

HOLDER_SCHEMA = """
CREATE TABLE IF NOT EXISTS table_holder (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    program TEXT NOT NULL,
    started TEXT NOT NULL
);
"""


@frozen
class Holder:
    """The table that holds a journal: its process id, host, program and start (ISO, UTC)."""

    pid: int
    host: str
    program: str
    started: str

    def describe(self) -> str:
        """ "pegboard run (pid 1234, since 14:02:11)": the start in local time, and the host
        too when it is another machine (a journal on a shared folder)."""
        try:
            since = datetime.fromisoformat(self.started).astimezone().strftime("%H:%M:%S")
        except ValueError:
            since = self.started
        host = f" on {self.host}" if self.host != os.uname().nodename else ""
        return f"{self.program} (pid {self.pid}{host}, since {since})"


def take_table(path: Path) -> int | None:
    """A descriptor of the journal at *path* carrying its table lock, or None when another
    process (or another table in this one) holds it. Call it once the journal is noted as
    open here (``hold_open``), and give the descriptor back with ``let_go``.

    Raises:
        OSError: the file cannot be opened or locked.
    """
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        close_when_unused(fd)
        return None
    except OSError:
        close_when_unused(fd)
        raise
    return fd


def let_go(fd: int) -> None:
    """Give up the table lock on *fd* now, and close *fd* once no connection here needs it."""
    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_UN)
    close_when_unused(fd)


def note_holder(conn: sqlite3.Connection, program: str) -> None:
    """Note this process as the table that holds the journal of *conn* (its one row).

    Raises:
        sqlite3.Error: the journal cannot be written.
    """
    conn.executescript(HOLDER_SCHEMA)
    conn.execute(
        "INSERT OR REPLACE INTO table_holder (id, pid, host, program, started) "
        "VALUES (1, ?, ?, ?, ?)",
        (
            os.getpid(),
            os.uname().nodename,
            program,
            datetime.now(UTC).isoformat(timespec="seconds"),
        ),
    )


def read_holder(conn: sqlite3.Connection) -> Holder | None:
    """The table noted in the journal of *conn*, or None (none noted, or an older journal)."""
    try:
        row = conn.execute(
            "SELECT pid, host, program, started FROM table_holder WHERE id = 1"
        ).fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else Holder(int(row[0]), str(row[1]), str(row[2]), str(row[3]))


def in_use_message(path: Path, holder: Holder | None) -> str:
    """Why a second table may not start on the journal at *path*, and what to do instead."""
    who = holder.describe() if holder is not None else "another pegboard table"
    return (
        f"the journal {str(path)!r} is in use by {who}; stop it first "
        "(sudo systemctl stop pegboard), or use 'pegboard game do', which works beside it"
    )


def remove_stale_drafts(path: Path) -> list[Path]:
    """Remove the drafts of a journal at *path* (``.<name>.new-<pid>`` and its ``-wal``,
    ``-shm``, ``-journal``) whose process is gone; a live process's are kept. Returns the
    files removed. A folder that cannot be listed, or a file that cannot be removed, is
    left as it is: the drafts are only clutter.
    """
    pattern = re.compile(rf"\.{re.escape(path.name)}\.new-(\d+)(?:-wal|-shm|-journal)?")
    removed: list[Path] = []
    try:
        names = os.listdir(path.parent)
    except OSError:
        return removed
    for name in sorted(names):
        found = pattern.fullmatch(name)
        if found is None or _alive(int(found[1])):
            continue
        draft = path.parent / name
        try:
            draft.unlink()  # never opened: a link removed drops nobody's locks
        except OSError:
            continue
        removed.append(draft)
    return removed


def _alive(pid: int) -> bool:
    """Whether a process with *pid* runs (this one included; another user's too)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid > 0  # another user's process: alive
    return True
