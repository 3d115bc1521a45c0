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

What an open checks, and why it does not read every page: ``probe.py``.

Several writers: one table holds the journal (``table=``; ``writers``), and short commands write
beside it. Every append runs in a ``BEGIN IMMEDIATE`` transaction that first checks the journal
still ends where this writer last read it (the latest match, and the last entry's ``seq``); a
writer that is behind replays the new entries (or the new match) first and then checks its
command against that state: stored if it still fits, else ``JournalMovedError`` and nothing is
stored. ``refresh`` is the table's cheap look for other writers' commits (``PRAGMA
data_version``). A match that cannot be replayed raises ``UnreplayableMatchError`` and is left
as it is.

History (``records.py``): the finished games' tables, rewritten in the transaction of the
command that changes them, and ``history()``, which replays every match from its commands. The
league's outbox (``outbox.py``, ``outbox=True`` when ``[league]`` is configured, and always
once the journal has it, whoever writes): each game won, or taken back, queued in the same
transaction, so a power cut can never lose it. The history
reader (``reader.py``): a thread of its own with its own read-only connection, which replays
the history beside the writer when poked, so the table's thread never does. Marks
(``marks.py``: a tournament lock on or off) are kept beside the commands, never replayed.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol, TypeVar

from pegboard.engine.commands import Command, parse_command
from pegboard.engine.events import Event
from pegboard.engine.game import GameState, apply
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules
from pegboard.errors import (
    JournalError,
    JournalInUseError,
    JournalMovedError,
    PegboardError,
    UnreplayableMatchError,
    quote,
)

from .marks import Mark, MarkTables
from .outbox import OUTBOX_SCHEMA, write_outbox
from .paths import PathKind, path_kind
from .probe import open_checked
from .readonly import has_moved, hold_open, read_only_connection
from .records import BestHand, HistoryTables, LurchRecord, SideAverage
from .rulesjson import rules_from_json, rules_to_json
from .schema import SCHEMA, Damaged, default_db_path, read_error
from .sqlite import connect
from .summaries import SCHEMA_VERSION, LeftOut, SummaryTables
from .writers import (
    in_use_message,
    let_go,
    note_holder,
    read_holder,
    remove_stale_drafts,
    take_table,
)

__all__ = [
    "BestHand",
    "Journal",
    "LeftOut",
    "LurchRecord",
    "Mark",
    "SideAverage",
    "default_db_path",
    "read_steadily",
    "rules_from_json",
    "rules_to_json",
]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _companion(path: Path, suffix: str) -> Path:
    return Path(str(path) + suffix)


class Journal(HistoryTables, SummaryTables, MarkTables):
    """The SQLite journal and history at *path*.

    Only a pegboard journal is ever opened: a file that does not start with SQLite's header, or
    a database without pegboard's tables (another program's), is refused and left byte for
    byte as it was. A file with the header that cannot be read (malformed, failed integrity
    check) is a damaged journal: a writer moves it aside with its ``-wal``/``-shm`` companions
    to ``<name>.corrupt-<time>``, says so in ``notice``, and starts a fresh one; a reader
    refuses it.

    A writer (the default) creates a missing journal, with its folder. A reader
    (``readonly=True``: ``game show`` and every later reader) creates, writes and renames
    nothing: a missing path is an error, and when no writer has the journal open it reads the
    file in place, read-only and immutable (``readonly``), so SQLite makes no ``-wal``/``-shm``
    files beside it and nothing of the file is copied into memory.

    *table* (a writer only) names the program that runs a table on the journal
    (``"pegboard run"``): the journal is then held for it alone until ``close``, and a second
    table is refused, named (``writers``). Short commands (``game do``) pass none: they work
    beside a table, since every append first checks that the journal still ends where this
    writer last read it (``do_all``), and ``refresh`` catches up with other writers' commits.

    ``state`` is the current match after ``load`` or ``new_match``. *timeout* is how many
    seconds to wait for another process's lock. *outbox* (a writer only): queue each finished
    game for the league (the module's notes; the tables are added to an older journal). A
    writer of a journal that already has the outbox (a league board's) queues them whatever
    *outbox* says. *progress* (a writer only) is told, after each batch, how far the one-time
    summaries of an older journal have got (``summaries``): matches done, and how many were
    left before that batch; the daemon passes it on to systemd while it starts.

    Raises:
        JournalError: *path* is not a pegboard journal, a reader finds no journal or a damaged
            one, or the database cannot be created or opened (a folder not writable, *path* is
            a folder, its name is too long, a part of it is a file and not a folder, the file
            is locked by another process for longer than *timeout*); such a file is left where
            it is.
        JournalInUseError: *table* given, and another table holds the journal.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        timeout: float = 10.0,
        readonly: bool = False,
        outbox: bool = False,
        table: str | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.path = Path(path)
        self._progress = progress
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
        # where this process last read the journal: its last entry and SQLite's count of other
        # connections' commits (``PRAGMA data_version``), so a move by another writer is seen
        self._seq = 0
        self._version: int | None = None
        self._table: int | None = None  # the descriptor carrying the table lock (``writers``)
        self.catch_ups = 0
        """How often this journal's state jumped to take in other writers' commits (``refresh``,
        or an append that found the journal moved): a caller that shows the state redraws."""
        shown = repr(str(self.path))
        kind = path_kind(self.path, JournalError)
        if not readonly:
            remove_stale_drafts(self.path)  # a killed 'game new' left its draft behind
        if kind is PathKind.MISSING:
            if readonly:
                raise JournalError(
                    f"no journal at {shown}: start one with 'pegboard game new --db {self.path}'"
                )
            self._conn = self._create()
            self._hold_table(table)
            return
        if kind is not PathKind.FILE:
            raise JournalError(
                f"cannot open {shown}: it is not a file (expected a database file, "
                "e.g. pegboard.db)"
            )
        try:
            probe = open_checked(self.path, self._read_only)
        except Damaged as e:
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
        self._hold_table(table)

    def _hold_table(self, program: str | None) -> None:
        """Hold the journal for the table *program* alone (none: a short command holds
        nothing), and note it in the journal for a second table's message.

        Raises:
            JournalInUseError: another table holds it (this journal is closed again).
            JournalError: the journal cannot be locked or written.
        """
        if program is None:
            return
        try:
            self._table = take_table(self.path)
            if self._table is None:
                message = in_use_message(self.path, read_holder(self._conn))
                self.close()
                raise JournalInUseError(message)
            note_holder(self._conn, program)
        except (OSError, sqlite3.Error) as e:
            self.close()
            raise JournalError(f"cannot hold {str(self.path)!r} for {program}: {e}") from e

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
        conn = connect(path, timeout=self._timeout)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.executescript(SCHEMA)
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
            if version < SCHEMA_VERSION or self._unsummarised():  # summaries.py's notes
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

    def moved(self) -> bool:
        """Whether a writer has changed the file since this reader opened it as immutable (no
        writer had it open then: ``readonly``'s notes), so what it read may be torn: a long
        reader reads again when it has. Always False for a writer or a reader in place."""
        return has_moved(self._conn)

    def close(self) -> None:
        """Close the database (and let a table's hold go)."""
        self._conn.close()  # a close that fails keeps the note below: the file is still open
        if self._table is not None:
            let_go(self._table)  # its descriptor closes once no connection here has the file
            self._table = None
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
            with self._transaction("BEGIN IMMEDIATE"):
                version = self._data_version()
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
                (last,) = self._conn.execute("SELECT MAX(seq) FROM journal").fetchone()
        except sqlite3.Error as e:
            raise JournalError(f"cannot write to {str(self.path)!r}: {e}") from e
        assert cur.lastrowid is not None
        self.match_id, self.state = cur.lastrowid, state
        self._seq, self._version = last or 0, version
        return state

    def load(self) -> GameState | None:
        """Replay the current (latest) match's journal; None when there is no match yet.

        Raises:
            UnreplayableMatchError: a stored command cannot be replayed (the match is left as
                it is).
            JournalError: the database cannot be read.
        """
        try:
            version = self._data_version()
            with self._transaction("BEGIN"):  # the match and its entries as one read sees them
                latest = self._read_latest()
                (last,) = self._conn.execute("SELECT MAX(seq) FROM journal").fetchone()
        except sqlite3.Error as e:
            raise JournalError(read_error(self.path, e)) from e
        if latest is None:
            return None
        self.match_id, self.state = latest
        self._seq, self._version = last or 0, version
        return self.state

    def _read_latest(self) -> tuple[int, GameState] | None:
        """The latest match's id and state, replayed (None: no match yet), in a transaction.

        Raises:
            UnreplayableMatchError: a stored command cannot be replayed.
            sqlite3.Error: the database cannot be read.
        """
        row = self._conn.execute(
            "SELECT id, rules, names, format FROM matches ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        match_id, rules_text, names_text, fmt = row
        rows = self._conn.execute(
            "SELECT seq, command FROM journal WHERE match_id = ? ORDER BY seq", (match_id,)
        ).fetchall()
        rules = rules_from_json(rules_text)
        state = GameState.new(rules, json.loads(names_text), MatchFormat.parse(fmt))
        return match_id, _replay(match_id, state, rows)

    def _data_version(self) -> int:
        """SQLite's count for this connection of other connections' commits: it changes only
        when another writer commits, and costs microseconds to ask.

        Raises:
            sqlite3.Error: the database cannot be read.
        """
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    @contextlib.contextmanager
    def _transaction(self, begin: str) -> Iterator[None]:
        """One transaction: committed when the block ends, rolled back when it raises.

        Raises:
            sqlite3.Error: it cannot begin or commit.
        """
        self._conn.execute(begin)
        try:
            yield
            self._conn.execute("COMMIT")
        except BaseException:
            if self._conn.in_transaction:  # a failed COMMIT may have rolled back already
                self._conn.execute("ROLLBACK")
            raise

    def _catch_up(self) -> str | None:
        """Take in what other writers committed since this writer last read the journal (in a
        transaction): the current match's new entries, replayed, or the latest match when
        another writer started one. Returns what changed, in words ("'starter 9H' was stored
        meanwhile"), or None when the journal still ends where this writer left it.

        Raises:
            UnreplayableMatchError: a new entry cannot be replayed (the state stays as it was).
            sqlite3.Error: the database cannot be read.
        """
        last, latest = self._conn.execute(
            "SELECT (SELECT MAX(seq) FROM journal), (SELECT MAX(id) FROM matches)"
        ).fetchone()
        last = last or 0
        if latest == self.match_id and last == self._seq:
            return None
        if (
            self.state is None
            or self.match_id is None
            or latest != self.match_id
            or last < self._seq
        ):
            loaded = self._read_latest()
            what = f"match {latest} was started meanwhile"
            self.match_id, self.state = loaded if loaded is not None else (None, None)
        else:
            rows = self._conn.execute(
                "SELECT seq, command FROM journal WHERE match_id = ? AND seq > ? ORDER BY seq",
                (self.match_id, self._seq),
            ).fetchall()
            self.state = _replay(self.match_id, self.state, rows)
            texts = [quote(text) for _, text in rows]
            more = f" and {len(texts) - 3} more" if len(texts) > 3 else ""
            stored = ", ".join(texts[:3]) + more if texts else "nothing of this match"
            what = f"{stored} {'was' if len(texts) == 1 else 'were'} stored meanwhile"
        self._seq = last
        self.catch_ups += 1
        return what

    def refresh(self) -> bool:
        """Catch up with other writers' commits (a ``pegboard game do`` beside the table): True
        when the state changed, so the caller redraws. Asking costs microseconds when nothing
        was committed elsewhere (``PRAGMA data_version``); only new entries are replayed.

        Raises:
            UnreplayableMatchError: another writer stored what this match cannot replay (said
                once; the state stays as it was).
            JournalError: the database cannot be read.
        """
        try:
            version = self._data_version()
            if version == self._version:
                return False
            try:
                with self._transaction("BEGIN"):
                    what = self._catch_up()
            except UnreplayableMatchError:
                self._version = version  # told once, not on every turn of the loop
                raise
        except sqlite3.Error as e:
            raise JournalError(read_error(self.path, e)) from e
        self._version = version
        return what is not None

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
            JournalMovedError: another writer changed the journal and the command does not fit
                the state it left (nothing is stored; ``state`` is that state now).
            JournalError: no current match, or the database cannot be written.
        """
        return self.do_all((command,))

    def do_all(self, commands: Sequence[Command]) -> tuple[GameState, list[Event]]:
        """Apply *commands* in order and store them in ONE transaction: all or none.

        For what one key press means several commands (the keypad taking a deal back and
        entering it again with other suits): a power cut never leaves half of it.

        Inside the write transaction the journal is first checked to end where this writer
        last read it; a writer that is behind (a ``game do`` beside the table) catches up
        first, and the commands are then checked against the state it finds. ``catch_ups``
        says whether the state jumped meanwhile.

        Raises:
            PegboardError: the game refuses one of the commands (nothing is stored).
            JournalMovedError: another writer changed the journal and the commands do not fit
                the state it left (nothing is stored; ``state`` is that state now).
            UnreplayableMatchError: another writer stored what this match cannot replay.
            JournalError: no current match, or the database cannot be written.
        """
        self._check_writable()
        if self.state is None or self.match_id is None:
            raise JournalError("no match in progress: start one with 'pegboard game new'")
        try:
            with self._transaction("BEGIN IMMEDIATE"):
                version = self._data_version()
                # no other connection committed since this one last looked: nothing to catch up
                moved = None if version == self._version else self._catch_up()
                state, events, last = self._append(commands, moved)
        except sqlite3.Error as e:
            shown = "; ".join(self.state.command_text(c) for c in commands)
            raise JournalError(f"cannot store {shown!r} in {str(self.path)!r}: {e}") from e
        self.state, self._version, self._seq = state, version, max(self._seq, last)
        return state, events

    def _append(
        self, commands: Sequence[Command], moved: str | None
    ) -> tuple[GameState, list[Event], int]:
        """Apply *commands* to the current state and write them, in the open transaction;
        the new state, its events and the last entry's seq.

        Raises:
            PegboardError, JournalMovedError: as ``do_all`` says.
            sqlite3.Error: the database cannot be written.
        """
        assert self.state is not None and self.match_id is not None
        before = state = self.state
        events: list[Event] = []
        texts: list[str] = []
        for command in commands:
            try:
                state, more = apply(state, command)
            except PegboardError as e:
                if moved is None:
                    raise
                shown = quote(before.command_text(command))
                raise JournalMovedError(
                    f"not stored: {shown} no longer fits; another writer changed the journal "
                    f"({moved}), and now {e}"
                ) from e
            events += more
            texts.append(state.command_text(command))
        last = 0
        for text in texts:
            cur = self._conn.execute(
                "INSERT INTO journal (match_id, command, at) VALUES (?,?,?)",
                (self.match_id, text, _now()),
            )
            last = cur.lastrowid or last
        if state.table.finished != before.table.finished:
            self._write_history(state)
            if self._outbox:
                write_outbox(self._conn, self.match_id, _now(), before, state)
        return state, events, last


_T = TypeVar("_T")


class Rereadable(Protocol):
    """A reader ``read_steadily`` can read again: it closes, and tells whether a writer changed
    its file under it (a ``Journal``, a league store)."""

    def moved(self) -> bool: ...  # pragma: no cover - a protocol

    def close(self) -> None: ...  # pragma: no cover - a protocol


_R = TypeVar("_R", bound=Rereadable)

READS = 5
"""How many times ``read_steadily`` reads when a writer keeps changing the file under it."""


def read_steadily(open_reader: Callable[[], _R], read: Callable[[_R], _T]) -> _T:
    """What *read* finds in a file that *open_reader* opens read-only (a journal, a league's
    database), read again (up to ``READS`` times) while a writer changed the file under it: a
    reader without a writer reads the file as immutable, and a short writer (``game do``, a
    league service starting) that commits and checkpoints meanwhile can leave it a torn view,
    stale figures or a page that looks damaged (``moved``). The command-line readers read
    through it.

    Raises:
        PegboardError: the file cannot be opened or read (a ``JournalError`` when a writer
            changed it during each of the reads).
    """
    for _ in range(READS):
        reader = open_reader()
        try:
            try:
                found = read(reader)
            except (PegboardError, sqlite3.Error):
                if reader.moved():
                    continue  # torn by a writer, not damaged: read again
                raise
            if not reader.moved():
                return found
        finally:
            reader.close()
    raise JournalError(f"a writer changed the file during each of {READS} reads; try again")


def _replay(match_id: int, state: GameState, rows: Sequence[tuple[int, str]]) -> GameState:
    """*state* with the journal's *rows* (seq, command text) of match *match_id* applied.

    Raises:
        UnreplayableMatchError: an entry the game does not accept.
    """
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
    return state
