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

History: ``history()`` replays every match from its commands (``engine/history.py``), so it
reads any journal, however old. Whenever the set of finished games of a match changes (a game
won, or a win taken back by undo), the match's rows in ``games``, ``deal_points`` and
``shown_hands`` are rewritten in the same transaction as the command. ``side_averages``,
``best_hands`` and ``lurches`` query them; sides are stored by name.

The league's outbox (``outbox=True``, when ``[league]`` is configured): whenever a game is won,
or a win is taken back by undo, a row for it goes into ``outbox`` in the same transaction as the
command, so a power cut can never lose it. A game keeps one id (a uuid4 made here, in
``game_ids``) through undo and winning again; each change raises its ``revision``, and a
withdrawn win says so. ``league.publisher`` sends the rows through its own connection and
deletes each once the broker has acknowledged it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pegboard.engine.cards import format_cards
from pegboard.engine.commands import Command, parse_command
from pegboard.engine.events import Event
from pegboard.engine.game import GameState, apply
from pegboard.engine.history import MatchHistory, replay_matches
from pegboard.engine.match import MatchFormat
from pegboard.engine.records import GameRecord
from pegboard.engine.rules import Rules, Variant
from pegboard.engine.summary import game_summary
from pegboard.errors import JournalError, PegboardError
from pegboard.frozen import frozen

__all__ = [
    "BestHand",
    "Journal",
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

_OUTBOX_SCHEMA = """
CREATE TABLE IF NOT EXISTS game_ids (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    game INTEGER NOT NULL,
    game_id TEXT NOT NULL UNIQUE,
    revision INTEGER NOT NULL,
    started TEXT NOT NULL,
    end_seq INTEGER NOT NULL,
    PRIMARY KEY (match_id, game)
);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    created TEXT NOT NULL
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


def rules_to_json(rules: Rules) -> str:
    """The rules as a JSON object (every field; the variant by name)."""
    data = dataclasses.asdict(rules)
    data["variant"] = rules.variant.value
    return json.dumps(data, sort_keys=True)


def rules_from_json(text: str) -> Rules:
    """Rules back from ``rules_to_json``.

    Raises:
        JournalError: not rules written by ``rules_to_json``.
    """
    try:
        data = json.loads(text)
        data["variant"] = Variant.parse(data["variant"])
        data["teams"] = tuple(tuple(team) for team in data["teams"])
        data["start_scores"] = tuple(data["start_scores"])
        return Rules(**data)
    except (ValueError, KeyError, TypeError) as e:
        raise JournalError(f"stored rules cannot be read: {text!r} ({e})") from e


@frozen
class SideAverage:
    """Average points per deal for one side name in one variant, over finished games."""

    variant: str
    side: str
    deals: int
    pegging: float
    hands: float
    crib: float


@frozen
class BestHand:
    """A counted hand or crib from a finished game."""

    variant: str
    side: str
    seat: str
    cards: str
    starter: str
    points: int
    is_crib: bool


@frozen
class LurchRecord:
    """A finished game in which a side ended behind a line."""

    match_id: int
    game: int
    variant: str
    side: str
    score: int
    lurch: str
    winner: str


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


class Journal:
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
    game for the league (the module's notes; the tables are added to an older journal).

    Raises:
        JournalError: *path* is not a pegboard journal, a reader finds no journal or a damaged
            one, or the database cannot be created or opened (a folder not writable, *path* is
            a folder, the file is locked by another process for longer than *timeout*); such a
            file is left where it is.
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
        self._timeout = timeout
        shown = repr(str(self.path))
        if not self.path.exists():
            if readonly:
                raise JournalError(
                    f"no journal at {shown}: start one with 'pegboard game new --db {self.path}'"
                )
            self._conn = self._create()
            return
        if not self.path.is_file():
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
        try:
            self._conn = self._connect(self.path)
        except sqlite3.Error as e:
            raise JournalError(f"cannot open {shown}: {e}") from e

    def _probe(self) -> sqlite3.Connection:
        """A read-only connection to the journal at ``path``, checked to be pegboard's.

        Raises:
            _Damaged: SQLite's header, but not readable as a database.
            JournalError: not a pegboard journal, or it cannot be read (locked, no permission).
        """
        shown = repr(str(self.path))
        try:
            with self.path.open("rb") as f:
                header = f.read(len(_SQLITE_HEADER))
        except OSError as e:
            raise JournalError(f"cannot open {shown}: {e.strerror or e}") from e
        if header != _SQLITE_HEADER:
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
        """A connection that can neither write the journal nor create files beside it.

        While a writer has the journal open (its ``-wal`` file exists), SQLite reads it in place
        read-only, through the writer's ``-wal``/``-shm``. Otherwise the file is read into memory
        (SQLite would create ``-wal``/``-shm`` to read a WAL database in place).
        """
        if _companion(self.path, "-wal").exists():
            uri = f"{self.path.resolve().as_uri()}?mode=ro"
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=self._timeout)
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return conn
        data = bytearray(self.path.read_bytes())
        if len(data) >= 20 and data[18:20] == b"\x02\x02":
            data[18:20] = b"\x01\x01"  # our copy only: an in-memory database has no WAL
        conn = sqlite3.connect(":memory:", isolation_level=None)
        try:
            conn.deserialize(bytes(data))
        except sqlite3.Error:
            conn.close()
            raise
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
            return self._connect(self.path)
        except (sqlite3.Error, OSError) as e:
            raise JournalError(f"cannot create {shown}: {e}") from e

    def _connect(self, path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(path, isolation_level=None, timeout=self._timeout)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.executescript(_SCHEMA)
            if self._outbox:
                conn.executescript(_OUTBOX_SCHEMA)
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
        self._conn.close()

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
            cur = self._conn.execute(
                "INSERT INTO matches (created, variant, rules, names, format) VALUES (?,?,?,?,?)",
                (
                    _now(),
                    rules.variant.value,
                    rules_to_json(rules),
                    json.dumps(state.names),
                    state.match.format.value,
                ),
            )
        except sqlite3.Error as e:
            raise JournalError(f"cannot write to {str(self.path)!r}: {e}") from e
        assert cur.lastrowid is not None
        self.match_id, self.state = cur.lastrowid, state
        return state

    def load(self) -> GameState | None:
        """Replay the current (latest) match's journal; None when there is no match yet.

        Raises:
            JournalError: a stored command cannot be replayed, or the database cannot be read.
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
                raise JournalError(
                    f"journal entry {seq} {text!r} of match {match_id} cannot be replayed: {e}"
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
                        self._write_outbox(before, state)
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            shown = "; ".join(texts)
            raise JournalError(f"cannot store {shown!r} in {str(self.path)!r}: {e}") from e
        self.state = state
        return state, events

    # --- history ----------------------------------------------------------------------------

    def _write_history(self, state: GameState) -> None:
        conn, match_id = self._conn, self.match_id
        conn.execute("DELETE FROM games WHERE match_id = ?", (match_id,))
        winner = state.match.winner
        conn.execute(
            "UPDATE matches SET winner = ? WHERE id = ?",
            (state.names[winner] if winner is not None else None, match_id),
        )
        for record in state.table.finished:
            self._write_game(state, record)

    def _write_game(self, state: GameState, record: GameRecord) -> None:
        names, rules, result = state.names, state.rules, record.result
        cur = self._conn.execute(
            "INSERT INTO games (match_id, game, variant, winner, scores, game_points) "
            "VALUES (?,?,?,?,?,?)",
            (
                self.match_id,
                record.game,
                rules.variant.value,
                names[result.winner],
                json.dumps(result.scores),
                result.game_points,
            ),
        )
        game_id = cur.lastrowid
        for side, name in enumerate(names):
            self._conn.execute(
                "INSERT INTO game_sides (game_id, side, score, won, lurch) VALUES (?,?,?,?,?)",
                (
                    game_id,
                    name,
                    result.scores[side],
                    int(side == result.winner),
                    result.lurches[side].value,
                ),
            )
        for deal in record.deals:
            starter = str(deal.starter) if deal.starter is not None else None
            for side, name in enumerate(names):
                self._conn.execute(
                    "INSERT INTO deal_points (game_id, deal, dealer, dealer_side, starter, side, "
                    "pegging, hands, crib, heels, other) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        game_id,
                        deal.number,
                        state.seat_name(deal.dealer),
                        names[rules.side_of(deal.dealer)],
                        starter,
                        name,
                        deal.pegging[side],
                        deal.hands[side],
                        deal.crib[side],
                        deal.heels[side],
                        deal.other[side],
                    ),
                )
            for hand in deal.shown:
                owner = deal.dealer if hand.seat is None else hand.seat
                self._conn.execute(
                    "INSERT INTO shown_hands (game_id, deal, side, seat, is_crib, cards, starter,"
                    " points, claim) VALUES (?,?,?,?,?,?,?,?,?)",
                    (
                        game_id,
                        deal.number,
                        names[hand.side],
                        state.seat_name(owner),
                        int(hand.seat is None),
                        format_cards(hand.cards),
                        str(deal.starter),
                        hand.points,
                        hand.claim,
                    ),
                )

    def _write_outbox(self, before: GameState, state: GameState) -> None:
        """Queue each game this command won, won differently or took back (by undo)."""
        conn, match_id, now = self._conn, self.match_id, _now()
        old = {record.game: record for record in before.table.finished}
        new = {record.game: record for record in state.table.finished}
        for game in sorted(old.keys() | new.keys()):
            record = new.get(game)
            if record is not None and old.get(game) == record:
                continue
            row = conn.execute(
                "SELECT game_id, revision, started FROM game_ids WHERE match_id = ? AND game = ?",
                (match_id, game),
            ).fetchone()
            if row is None and record is None:
                continue
            (end_seq,) = conn.execute("SELECT MAX(seq) FROM journal").fetchone()
            if row is None:  # the game began with the first command after the last game's end
                (started,) = conn.execute(
                    "SELECT at FROM journal WHERE match_id = ? AND seq > COALESCE((SELECT "
                    "MAX(end_seq) FROM game_ids WHERE match_id = ? AND game < ?), 0) "
                    "ORDER BY seq LIMIT 1",
                    (match_id, match_id, game),
                ).fetchone()
                row = (str(uuid.uuid4()), 0, started)
            game_id, revision, started = row[0], row[1] + 1, row[2]
            conn.execute(
                "INSERT OR REPLACE INTO game_ids VALUES (?,?,?,?,?,?)",
                (match_id, game, game_id, revision, started, end_seq),
            )
            payload: dict[str, Any] = {"game_id": game_id, "revision": revision}
            if record is None:
                payload["withdrawn"] = True  # a win taken back: the league forgets it
            else:
                payload |= game_summary(state, record) | {"started": started, "ended": now}
            conn.execute(
                "INSERT INTO outbox (kind, payload, created) VALUES ('finished', ?, ?)",
                (json.dumps(payload, separators=(",", ":")), now),
            )

    def side_averages(self, variant: str | None = None) -> list[SideAverage]:
        """Average pegging, hand and crib points per deal, per side name and variant.

        The crib average is over the deals the side dealt.
        """
        rows = self._conn.execute(
            "SELECT g.variant, d.side, COUNT(*), AVG(d.pegging), AVG(d.hands), "
            "COALESCE(SUM(d.crib) * 1.0 / NULLIF(SUM(d.dealer_side = d.side), 0), 0.0) "
            "FROM deal_points d JOIN games g ON g.id = d.game_id "
            "WHERE ? IS NULL OR g.variant = ? "
            "GROUP BY g.variant, d.side ORDER BY g.variant, d.side",
            (variant, variant),
        ).fetchall()
        return [SideAverage(*row) for row in rows]

    def best_hands(self, limit: int = 10, *, variant: str | None = None) -> list[BestHand]:
        """The highest counted hands and cribs of finished games, best first."""
        rows = self._conn.execute(
            "SELECT g.variant, h.side, h.seat, h.cards, h.starter, h.points, h.is_crib "
            "FROM shown_hands h JOIN games g ON g.id = h.game_id "
            "WHERE ? IS NULL OR g.variant = ? ORDER BY h.points DESC, g.id, h.deal LIMIT ?",
            (variant, variant, limit),
        ).fetchall()
        return [
            BestHand(variant, side, seat, cards, starter, points, bool(is_crib))
            for variant, side, seat, cards, starter, points, is_crib in rows
        ]

    def lurches(self) -> list[LurchRecord]:
        """Every losing side of a finished game that ended behind a lurch or skunk line."""
        rows = self._conn.execute(
            "SELECT g.match_id, g.game, g.variant, s.side, s.score, s.lurch, g.winner "
            "FROM game_sides s JOIN games g ON g.id = s.game_id "
            "WHERE s.lurch != 'none' ORDER BY g.match_id, g.game, s.side"
        ).fetchall()
        return [LurchRecord(*row) for row in rows]

    def finished_games(self) -> list[dict[str, Any]]:
        """Every finished game: match, number, variant, winner, scores, game points."""
        rows = self._conn.execute(
            "SELECT match_id, game, variant, winner, scores, game_points FROM games "
            "ORDER BY match_id, game"
        ).fetchall()
        keys = ("match_id", "game", "variant", "winner", "scores", "game_points")
        return [dict(zip(keys, row, strict=True)) | {"scores": json.loads(row[4])} for row in rows]

    def history(self) -> list[MatchHistory]:
        """Every match, oldest first, replayed from its commands (``replay_matches``); reads only.

        Raises:
            JournalError: a stored command cannot be replayed, or the database cannot be read.
        """
        try:
            matches = self._conn.execute(
                "SELECT id, created, rules, names, format FROM matches ORDER BY id"
            ).fetchall()
            rows = self._conn.execute(
                "SELECT match_id, command, at FROM journal ORDER BY match_id, seq"
            ).fetchall()
        except sqlite3.Error as e:
            raise JournalError(f"cannot read {str(self.path)!r}: {e}") from e
        try:
            return replay_matches(
                [(m, at, rules_from_json(r), json.loads(n), MatchFormat.parse(f))
                 for m, at, r, n, f in matches],
                rows,
            )  # fmt: skip
        except (PegboardError, ValueError) as e:
            raise JournalError(f"{str(self.path)!r} cannot be replayed: {e}") from e
