"""The package's door to SQLite: every connection pegboard opens is made here.

STYLE §11: one door to each resource. The journal, its outbox's sender (``outbox.Outbox``) and
the league's own database (``league.store``) all connect through ``connect``, so how a
connection is made (autocommit, so each module says where its transactions begin; the lock
timeout) is decided once; ``readonly`` keeps its own reader's connections beside it, in this
room. ``tests/test_house.py`` fails on a ``sqlite3.connect`` outside ``journal/``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

__all__ = ["connect"]


def connect(
    path: Path | str, *, timeout: float = 10.0, check_same_thread: bool = True
) -> sqlite3.Connection:
    """A connection to the database at *path* in autocommit mode (``BEGIN`` is the caller's);
    a write waits up to *timeout* seconds for another connection's lock. The caller notes it
    with ``readonly.hold_open`` BEFORE its first statement when the file may be read beside it.

    Raises:
        sqlite3.Error: the database cannot be opened.
    """
    return sqlite3.connect(
        path, isolation_level=None, timeout=timeout, check_same_thread=check_same_thread
    )
