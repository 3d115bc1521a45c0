"""Opening a journal: is it pegboard's, and is it whole? Checked in a time that does not grow
with the history.

Theory of operation
-------------------
What an open checks must not grow with the history: SQLite's ``quick_check`` reads every page
(0.28 s of CPU for a journal of 10,000 games here, seconds on a Pi, on every ``game do``, every
page view of ``serve`` and before the daemon's READY). So an open checks what tells a torn or
scrambled file cheaply: the header (a file shorter than the pages its header counts is torn),
pegboard's tables in the schema, and the pages every open reads next (the roots of ``matches``
and ``journal``, and their latest rows). The price: a damaged page deep in the history is not
found at the open, only when something reads it. It then fails as SQLITE_CORRUPT, which every
read turns into a ``JournalError`` that says the journal is damaged (``schema.read_error``):
never a crash, and the summaries and the latest match, on other pages, still read as before.
Such a journal is not moved aside by a writer (it opened fine); the message names the way out.

A reader of a file no writer has open reads it in place as immutable (``readonly``); a writer
that opens and checkpoints it during the look can make the look fail as if the file were
damaged. Such a failure, on a file whose marks changed meanwhile (``readonly.has_moved``), is
a look started again, never a damaged journal (a writer would move it aside).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from pegboard.errors import JournalError

from .readonly import file_marks, has_moved, read_header
from .schema import OWN_COLUMNS, SQLITE_HEADER, Damaged, header_damage, is_corrupt

__all__ = ["PROBES", "open_checked"]

PROBES = 5
"""How many times an open looks again when a writer changed the file under its look."""


class _Moved(Exception):
    """A look that failed while a writer changed the file under an immutable read."""


def open_checked(path: Path, connect: Callable[[], sqlite3.Connection]) -> sqlite3.Connection:
    """A read-only connection to the journal at *path* (made by *connect*), checked to be
    pegboard's; a look that failed while a writer changed the file under an immutable read is
    started again, up to ``PROBES`` times.

    Raises:
        Damaged: SQLite's header, but not readable as a database.
        JournalError: not a pegboard journal, or it cannot be read (locked, no permission).
    """
    for _ in range(PROBES - 1):
        try:
            return _look(path, connect)
        except _Moved:
            continue
    try:
        return _look(path, connect)
    except _Moved as e:
        raise JournalError(
            f"cannot open {str(path)!r}: a writer changed it during each of {PROBES} looks"
        ) from e.__cause__


def _look(path: Path, connect: Callable[[], sqlite3.Connection]) -> sqlite3.Connection:
    """``open_checked``'s one look.

    Raises:
        _Moved: the read looked damaged, and a writer had changed the file meanwhile.
        Damaged: SQLite's header, but not readable as a database.
        JournalError: not a pegboard journal, or it cannot be read (locked, no permission).
    """
    shown = repr(str(path))
    try:
        before = file_marks(path)  # os.stat only: safe beside this process's connections
        # None: a connection in this process has the file open, so it is a journal already
        # probed, and reading it here would drop that connection's locks
        header = read_header(path, 100)
        size = path.stat().st_size
    except OSError as e:
        raise JournalError(f"cannot open {shown}: {e.strerror or e}") from e
    if header is not None and header[: len(SQLITE_HEADER)] != SQLITE_HEADER:
        what = "it is empty" if not header else "it is not a SQLite database"
        raise JournalError(
            f"{shown} is not a pegboard journal ({what}); it was left as it is (expected "
            "a journal made by pegboard, or a path that does not exist yet)"
        )
    if header is not None and not Path(f"{path}-wal").exists():
        torn = header_damage(header, size)
        if torn is not None:
            if file_marks(path) != before or before[1] is not None:
                # a writer's checkpoint writes page 1 (the new page count) before the pages
                # that make the file longer, then removes its -wal: what was read may be
                # half of that, so it is looked at again, never called damaged
                raise _Moved
            raise Damaged(torn)
    try:
        conn = connect()
    except sqlite3.DatabaseError as e:
        if is_corrupt(e):
            raise Damaged(str(e)) from e
        raise JournalError(f"cannot open {shown}: {e}") from e
    except OSError as e:  # e.g. the file went between the look and the read
        raise JournalError(f"cannot open {shown}: {e.strerror or e}") from e
    try:
        ours = all(
            {row[1] for row in conn.execute(f"PRAGMA table_info({table})")} >= columns
            for table, columns in OWN_COLUMNS.items()
        )
        if ours:  # the pages every open reads next: the tables' roots, the latest entries
            conn.execute(
                "SELECT (SELECT MAX(id) FROM matches), (SELECT MAX(seq) FROM journal)"
            ).fetchone()
    except sqlite3.DatabaseError as e:
        moved = has_moved(conn)
        conn.close()
        if moved:  # torn by a writer that came meanwhile, not damaged: look again
            raise _Moved from e
        if is_corrupt(e):
            raise Damaged(str(e)) from e
        raise JournalError(f"cannot open {shown}: {e}") from e
    if not ours:
        conn.close()
        raise JournalError(
            f"{shown} is not a pegboard journal (a SQLite database without pegboard's "
            "tables); it was left as it is"
        )
    return conn
