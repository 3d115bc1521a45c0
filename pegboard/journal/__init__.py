"""The journal: every accepted command, stored before its effect is shown, and the history.

Theory of operation
-------------------
The engine's state is a fold of ``apply`` over commands (undo and redo included), so the only
thing that must survive a power cut is the list of accepted commands. ``Journal.do`` applies a
command to the current state first (a refused command is never stored), then writes it in its
own transaction and commits before returning; the caller shows the effect only after that.
SQLite runs in WAL mode with ``synchronous=FULL``, so a committed command survives a crash of
the process or of the machine. On start ``Journal.load`` replays the current match's journal and
resumes exactly where it stopped, mid-deal included.

Never harm a file that is not ours. Only a recognisable pegboard journal is opened: SQLite's
header and pegboard's tables. Anything else (a text file, a config, a picture, another
program's database, an empty file) is refused with a clear error and left byte for byte as it
was. A file with the header that cannot be read (malformed, failed integrity check) is a damaged
journal: a command that writes moves it aside with its ``-wal``/``-shm`` companions to
``<name>.corrupt-<time>``, ``Journal.notice`` says so (the CLI prints it), and a fresh journal is
started; a reader only reports it. Readers (``readonly=True``) create, write and rename nothing.
A new journal is built under a hidden name and linked into place whole.

History (``records.py``): the finished games' tables, rewritten in the transaction of the
command that changes them, and ``history()``, which replays every match from its commands. The
league's outbox (``outbox.py``, ``outbox=True`` when ``[league]`` is configured, and always
once the journal has it, whoever writes): each game won, or taken back, queued in the same
transaction, so a power cut can never lose it. The history
reader (``reader.py``): a thread of its own with its own read-only connection, which replays
the history beside the writer when poked, so the table's thread never does.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from pegboard.engine.commands import Command, parse_command
from pegboard.engine.events import Event
from pegboard.engine.game import GameState, apply
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules
from pegboard.errors import JournalError, PegboardError, UnreplayableMatchError

from .outbox import OUTBOX_SCHEMA, write_outbox
from .paths import PathKind, path_kind
from .readonly import hold_open, read_header, read_only_connection
from .records import BestHand, HistoryTables, LurchRecord, SideAverage
from .rulesjson import rules_from_json, rules_to_json
from .summaries import SCHEMA_VERSION, LeftOut, SummaryTables

__all__ = [
    "BestHand",
    "Journal",
    "LeftOut",
    "LurchRecord",
    "SideAverage",
    "default_db_path",
    "rules_from_json",
    "rules_to_json",
]

_SCHEMA = """
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


_SQLITE_HEADER = b"SQLite format 3\x00"
_OWN_COLUMNS: dict[str, frozenset[str]] = {
    # the tables (and their columns) that make a database pegboard's: another program may
    # well have a table called "matches" or "journal", but not with these columns
    "matches": frozenset({"id", "created", "variant", "rules", "names", "format"}),
    "journal": frozenset({"seq", "match_id", "command", "at"}),
}


class _Damaged(Exception):
    """A file with SQLite's header that cannot be read as a database: a damaged journal."""


def _is_corrupt(error: sqlite3.DatabaseError) -> bool:
    """Whether *error* says the file itself is damaged (not a database, or malformed).

    Other errors (locked, cannot open, read-only, disk I/O) say nothing about the file's
    contents, so the file must be left where it is.
    """
    return getattr(error, "sqlite_errorname", None) in ("SQLITE_NOTADB", "SQLITE_CORRUPT")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _companion(path: Path, suffix: str) -> Path:
    return Path(str(path) + suffix)


class Journal(HistoryTables, SummaryTables):
    """The SQLite journal and history at *path*.

    Only a pegboard journal is ever opened: a file that does not start with SQLite's header, or
    a database without pegboard's tables (another program's), is refused and left byte for
    byte as it was. A file with the header that cannot be read (malformed, failed integrity
    check) is a damaged journal: a writer moves it aside with its ``-wal``/``-shm`` companions
    to ``<name>.corrupt-<time>``, says so in ``notice``, and starts a fresh one; a reader
    refuses it.

    A writer (the default) creates a missing journal, with its folder. A reader
    (``readonly=True``: ``game show`` and every later reader) creates, writes and renames
    nothing: a missing path is an error, and when no writer has the journal open it reads a
    copy of the file in memory, so SQLite makes no ``-wal``/``-shm`` files beside it.

    ``state`` is the current match after ``load`` or ``new_match``. *timeout* is how many
    seconds to wait for another process's lock. *outbox* (a writer only): queue each finished
    game for the league (the module's notes; the tables are added to an older journal). A
    writer of a journal that already has the outbox (a league board's) queues them whatever
    *outbox* says.

    Raises:
        JournalError: *path* is not a pegboard journal, a reader finds no journal or a damaged
            one, or the database cannot be created or opened (a folder not writable, *path* is
            a folder, its name is too long, a part of it is a file and not a folder, the file
            is locked by another process for longer than *timeout*); such a file is left where
            it is.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        timeout: float = 10.0,
        readonly: bool = False,
        outbox: bool = False,
    ) -> None:
        self.path = Path(path)
        self._outbox = outbox and not readonly
        self.notice: str | None = None
        self.state: GameState | None = None
        self.match_id: int | None = None
        self.readonly = readonly
        self.live = not readonly
        """Whether later commits are seen: a writer, or a reader that reads the file in place
        beside a writer (not a reader of a copy in memory)."""
        self._timeout = timeout
        self._release: Callable[[], None] = lambda: None
        shown = repr(str(self.path))
        kind = path_kind(self.path, JournalError)
        if kind is PathKind.MISSING:
            if readonly:
                raise JournalError(
                    f"no journal at {shown}: start one with 'pegboard game new --db {self.path}'"
                )
            self._conn = self._create()
            return
        if kind is not PathKind.FILE:
            raise JournalError(
                f"cannot open {shown}: it is not a file (expected a database file, "
                "e.g. pegboard.db)"
            )
        try:
            probe = self._probe()
        except _Damaged as e:
            if readonly:
                raise JournalError(
                    f"{shown} is a damaged pegboard journal ({e}); a command that writes "
                    "(e.g. 'pegboard game new') moves it aside and starts a fresh one"
                ) from e
            aside = self._move_aside()
            self.notice = (
                f"the database {shown} could not be read ({e}); it was kept as "
                f"{str(aside)!r} and a fresh one was started"
            )
            self._conn = self._create()
            return
        if readonly:
            self._conn = probe
            return
        probe.close()
        self._hold()
        try:
            self._conn = self._connect(self.path)
        except sqlite3.Error as e:
            self._release()
            raise JournalError(f"cannot open {shown}: {e}") from e

    def _hold(self) -> None:
        """Note this process as a writer of the journal until ``close``, BEFORE its connection
        takes a lock: this process then never opens the file behind SQLite's back (which would
        drop the writer's locks: ``readonly``'s notes), and its own readers (the history
        reader, the pub page) read beside it in place (``readonly.hold_open``).

        Raises:
            JournalError: the journal cannot be looked at.
        """
        try:
            self._release = hold_open(self.path)
        except OSError as e:
            raise JournalError(f"cannot open {str(self.path)!r}: {e.strerror or e}") from e

    def _probe(self) -> sqlite3.Connection:
        """A read-only connection to the journal at ``path``, checked to be pegboard's.

        Raises:
            _Damaged: SQLite's header, but not readable as a database.
            JournalError: not a pegboard journal, or it cannot be read (locked, no permission).
        """
        shown = repr(str(self.path))
        try:
            # None: a connection in this process has the file open, so it is a journal already
            # probed, and reading it here would drop that connection's locks
            header = read_header(self.path, len(_SQLITE_HEADER))
        except OSError as e:
            raise JournalError(f"cannot open {shown}: {e.strerror or e}") from e
        if header is not None and header != _SQLITE_HEADER:
            what = "it is empty" if not header else "it is not a SQLite database"
            raise JournalError(
                f"{shown} is not a pegboard journal ({what}); it was left as it is (expected "
                "a journal made by pegboard, or a path that does not exist yet)"
            )
        try:
            conn = self._read_only()
        except sqlite3.DatabaseError as e:
            if _is_corrupt(e):
                raise _Damaged(str(e)) from e
            raise JournalError(f"cannot open {shown}: {e}") from e
        except OSError as e:  # e.g. the file went between the look and the read
            raise JournalError(f"cannot open {shown}: {e.strerror or e}") from e
        try:
            check = conn.execute("PRAGMA quick_check").fetchone()
            ours = all(
                {row[1] for row in conn.execute(f"PRAGMA table_info({table})")} >= columns
                for table, columns in _OWN_COLUMNS.items()
            )
        except sqlite3.DatabaseError as e:
            conn.close()
            if _is_corrupt(e):
                raise _Damaged(str(e)) from e
            raise JournalError(f"cannot open {shown}: {e}") from e
        if check is None or check[0] != "ok":
            conn.close()
            raise _Damaged(f"integrity check failed: {check[0] if check else None!r}")
        if not ours:
            conn.close()
            raise JournalError(
                f"{shown} is not a pegboard journal (a SQLite database without pegboard's "
                "tables); it was left as it is"
            )
        return conn

    def _read_only(self) -> sqlite3.Connection:
        """A connection that can neither write the journal nor create files beside it
        (``read_only_connection``: in place beside a writer, else a copy in memory)."""
        conn, live = read_only_connection(self.path, timeout=self._timeout)
        self.live = live or not self.readonly
        return conn

    def _create(self) -> sqlite3.Connection:
        """Make a new journal at ``path``: whole or not at all, never over an existing file.

        It is built beside *path* under a hidden name and linked into place only when complete,
        so a power cut while creating it leaves no half-made file to be refused on restart.

        Raises:
            JournalError: the folder or the file cannot be created.
        """
        shown = repr(str(self.path))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise JournalError(f"cannot create the folder for {shown}: {e}") from e
        draft = self.path.with_name(f".{self.path.name}.new-{os.getpid()}")
        try:
            try:
                conn = self._connect(draft)
                conn.close()
                try:
                    os.link(draft, self.path)
                except FileExistsError:
                    raise JournalError(
                        f"cannot create {shown}: a file appeared there meanwhile; it was left "
                        "as it is"
                    ) from None
                except OSError:  # a file system without hard links (e.g. FAT)
                    if self.path.exists():
                        raise JournalError(
                            f"cannot create {shown}: a file appeared there meanwhile"
                        ) from None
                    os.rename(draft, self.path)
            finally:
                for suffix in ("", "-wal", "-shm", "-journal"):
                    _companion(draft, suffix).unlink(missing_ok=True)
        except (sqlite3.Error, OSError) as e:
            raise JournalError(f"cannot create {shown}: {e}") from e
        self._hold()
        try:
            return self._connect(self.path)
        except sqlite3.Error as e:
            self._release()
            raise JournalError(f"cannot create {shown}: {e}") from e

    def _connect(self, path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(path, isolation_level=None, timeout=self._timeout)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.executescript(_SCHEMA)
            if not self._outbox:
                # a journal with the outbox is a league board's: every writer of it queues
                # its finished games (``game do``, the simulator, the daemon), not only the
                # one whose config has [league], or a game finished elsewhere never arrives
                self._outbox = (
                    conn.execute(
                        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox'"
                    ).fetchone()
                    is not None
                )
            if self._outbox:
                conn.executescript(OUTBOX_SCHEMA)
            self._conn = conn
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            if version < SCHEMA_VERSION:  # an older journal: its summaries, once (summaries.py)
                self._migrate()
        except sqlite3.Error:
            conn.close()
            raise
        return conn

    def _move_aside(self) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            src = _companion(self.path, suffix)
            if src.exists():
                src.rename(_companion(aside, suffix))
        return aside

    def _check_writable(self) -> None:
        if self.readonly:
            raise JournalError(f"{str(self.path)!r} was opened read-only: nothing is written")

    def close(self) -> None:
        """Close the database."""
        self._conn.close()  # a close that fails keeps the note below: the file is still open
        self._release()  # only once the connection holds no lock

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the journal ------------------------------------------------------------------------

    def new_match(
        self,
        rules: Rules,
        names: Sequence[str] | None = None,
        match_format: MatchFormat | None = None,
    ) -> GameState:
        """Start a new match (it becomes the current one) and return its first state.

        Raises:
            ConfigError, InvalidCommandError: bad names or format for the rules.
            JournalError: the database cannot be written.
        """
        self._check_writable()
        state = GameState.new(rules, names, match_format)
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                # the latest match becomes final now: its summary and totals in this transaction
                self._finalise_latest()
                cur = self._conn.execute(
                    "INSERT INTO matches (created, variant, rules, names, format) "
                    "VALUES (?,?,?,?,?)",
                    (
                        _now(),
                        rules.variant.value,
                        rules_to_json(rules),
                        json.dumps(state.names),
                        state.match.format.value,
                    ),
                )
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            raise JournalError(f"cannot write to {str(self.path)!r}: {e}") from e
        assert cur.lastrowid is not None
        self.match_id, self.state = cur.lastrowid, state
        return state

    def load(self) -> GameState | None:
        """Replay the current (latest) match's journal; None when there is no match yet.

        Raises:
            UnreplayableMatchError: a stored command cannot be replayed.
            JournalError: the database cannot be read.
        """
        try:
            row = self._conn.execute(
                "SELECT id, rules, names, format FROM matches ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            match_id, rules_text, names_text, fmt = row
            rows = self._conn.execute(
                "SELECT seq, command FROM journal WHERE match_id = ? ORDER BY seq", (match_id,)
            ).fetchall()
        except sqlite3.Error as e:
            raise JournalError(f"cannot read {str(self.path)!r}: {e}") from e
        rules = rules_from_json(rules_text)
        state = GameState.new(rules, json.loads(names_text), MatchFormat.parse(fmt))
        for seq, text in rows:
            try:
                state, _ = apply(state, parse_command(text, state.names))
            except PegboardError as e:
                raise UnreplayableMatchError(
                    f"journal entry {seq} {text!r} of match {match_id} cannot be replayed: {e}",
                    match_id=match_id,
                    seq=seq,
                    entry=text,
                ) from e
        self.match_id, self.state = match_id, state
        return state

    def commands(self) -> list[str]:
        """The current match's journal, as command texts in order."""
        if self.match_id is None:
            return []
        rows = self._conn.execute(
            "SELECT command FROM journal WHERE match_id = ? ORDER BY seq", (self.match_id,)
        ).fetchall()
        return [text for (text,) in rows]

    def do(self, command: Command) -> tuple[GameState, list[Event]]:
        """Apply *command* to the current match and store it; committed before returning.

        Raises:
            PegboardError: the game refuses the command (nothing is stored).
            JournalError: no current match, or the database cannot be written.
        """
        return self.do_all((command,))

    def do_all(self, commands: Sequence[Command]) -> tuple[GameState, list[Event]]:
        """Apply *commands* in order and store them in ONE transaction: all or none.

        For what one key press means several commands (the keypad taking a deal back and
        entering it again with other suits): a power cut never leaves half of it.

        Raises:
            PegboardError: the game refuses one of the commands (nothing is stored).
            JournalError: no current match, or the database cannot be written.
        """
        self._check_writable()
        if self.state is None or self.match_id is None:
            raise JournalError("no match in progress: start one with 'pegboard game new'")
        before = state = self.state
        events: list[Event] = []
        texts: list[str] = []
        for command in commands:
            state, more = apply(state, command)
            events += more
            texts.append(state.command_text(command))
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.executemany(
                    "INSERT INTO journal (match_id, command, at) VALUES (?,?,?)",
                    [(self.match_id, text, _now()) for text in texts],
                )
                if state.table.finished != before.table.finished:
                    self._write_history(state)
                    if self._outbox:
                        write_outbox(self._conn, self.match_id, _now(), before, state)
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            shown = "; ".join(texts)
            raise JournalError(f"cannot store {shown!r} in {str(self.path)!r}: {e}") from e
        self.state = state
        return state, events
