"""The journal's own tables, where it lives by default, and how a pegboard journal is known.

``Journal`` (the package) creates the tables below in every journal it writes; a file is
pegboard's when it has SQLite's header and the tables ``matches`` and ``journal`` with their
columns (``OWN_COLUMNS``). The marks (``marks``: a tournament lock on or off) sit beside the
commands, never among them (``marks.py``). The league's outbox (``outbox``) and the table's holder
(``writers``) own their tables themselves.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

__all__ = [
    "OWN_COLUMNS",
    "SCHEMA",
    "SQLITE_HEADER",
    "Damaged",
    "default_db_path",
    "header_damage",
    "is_corrupt",
    "read_error",
]

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    names TEXT NOT NULL,
    format TEXT NOT NULL,
    winner TEXT
);
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    command TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_by_match ON journal (match_id, seq);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    game INTEGER NOT NULL,
    variant TEXT NOT NULL,
    winner TEXT NOT NULL,
    scores TEXT NOT NULL,
    game_points INTEGER,
    UNIQUE (match_id, game)
);
CREATE TABLE IF NOT EXISTS game_sides (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    side TEXT NOT NULL,
    score INTEGER NOT NULL,
    won INTEGER NOT NULL,
    lurch TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS deal_points (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    deal INTEGER NOT NULL,
    dealer TEXT NOT NULL,
    dealer_side TEXT NOT NULL,
    starter TEXT,
    side TEXT NOT NULL,
    pegging INTEGER NOT NULL,
    hands INTEGER NOT NULL,
    crib INTEGER NOT NULL,
    heels INTEGER NOT NULL,
    other INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS shown_hands (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    deal INTEGER NOT NULL,
    side TEXT NOT NULL,
    seat TEXT NOT NULL,
    is_crib INTEGER NOT NULL,
    cards TEXT NOT NULL,
    starter TEXT NOT NULL,
    points INTEGER NOT NULL,
    claim INTEGER
);
CREATE TABLE IF NOT EXISTS marks (
    id INTEGER PRIMARY KEY,
    match_id INTEGER REFERENCES matches(id),
    after INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    at TEXT NOT NULL
);
"""


def default_db_path() -> Path:
    """Where the journal lives unless told: ``$PEGBOARD_DB``; else ``pegboard.db`` in systemd's
    ``$STATE_DIRECTORY`` (the service's ``StateDirectory=``, ``/var/lib/pegboard``); else the
    user's ``~/.local/share/pegboard/pegboard.db``.

    The daemon's config (``[game] database``) and ``pegboard game`` both start from here.
    """
    env = os.environ.get("PEGBOARD_DB")
    if env:
        return Path(env)
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        # systemd may pass several directories separated by colons; the first is ours
        return Path(state.split(":")[0]) / "pegboard.db"
    return Path.home() / ".local" / "share" / "pegboard" / "pegboard.db"


SQLITE_HEADER = b"SQLite format 3\x00"
OWN_COLUMNS: dict[str, frozenset[str]] = {
    # the tables (and their columns) that make a database pegboard's: another program may
    # well have a table called "matches" or "journal", but not with these columns
    "matches": frozenset({"id", "created", "variant", "rules", "names", "format"}),
    "journal": frozenset({"seq", "match_id", "command", "at"}),
}


class Damaged(Exception):
    """A file with SQLite's header that cannot be read as a database: a damaged journal."""


def is_corrupt(error: sqlite3.DatabaseError) -> bool:
    """Whether *error* says the file itself is damaged (not a database, or malformed).

    Other errors (locked, cannot open, read-only, disk I/O) say nothing about the file's
    contents, so the file must be left where it is.
    """
    return getattr(error, "sqlite_errorname", None) in ("SQLITE_NOTADB", "SQLITE_CORRUPT")


def read_error(path: Path, error: sqlite3.Error) -> str:
    """The message for a read of the journal at *path* that failed with *error*: a damaged
    page (found when it is read: the open does not read every page) says the journal is
    damaged; anything else says it cannot be read."""
    if isinstance(error, sqlite3.DatabaseError) and is_corrupt(error):
        return (
            f"{str(path)!r} is a damaged pegboard journal ({error}); a copy of it can be kept "
            "with SQLite's '.recover', and 'pegboard game new' starts afresh"
        )
    return f"cannot read {str(path)!r}: {error}"


def header_damage(header: bytes, size: int) -> str | None:
    """What is wrong with a database file of *size* bytes whose first 100 bytes are *header*,
    as far as its header tells, or None: a file shorter than the pages its header counts (a
    torn copy) is damaged. Only for a file without a ``-wal`` beside it."""
    if len(header) < 100:
        return f"the file has {size} bytes: its header is cut short"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    if header[24:28] != header[92:96] or pages == 0:  # the count is not kept: nothing to say
        return None
    if size < page_size * pages:
        return f"the file has {size} bytes, its header counts {pages} pages of {page_size}"
    return None
