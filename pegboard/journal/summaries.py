"""Stored summaries: what the history lists of each final match, and the standings' running totals.

Theory of operation
-------------------
Only the latest match ever takes new commands: starting a match makes the one before it final
(decided, or abandoned). So ``Journal.new_match`` summarises that one in the transaction of its
own ``INSERT`` (``_summarise``): it is replayed once, its ``MatchListing`` is kept in
``match_summaries`` (what ``pegboard history`` lists), each of its finished games in
``summary_games`` (with its finish time; the pub page's evening reads the latest of them
through the key), and its games are added to the running ``Book`` of its variant in
``standings_books``. A read of "everything so far" reads
those rows and replays only the latest match: its cost follows the new work, not the history.

A journal of an older version (``PRAGMA user_version`` below ``SCHEMA_VERSION``) is summarised
once, by the first writer that opens it, in batches that each commit (a start cut short goes
on where it stopped next time); the last batch sets the version. A
reader of such a journal never writes: it replays every match as before (``_replayed``).

One bad entry never breaks everything. A match that cannot be replayed (a damaged entry, or
one written by a later version) is kept as ``left out`` with the entry that fails
(``LeftOut``); it adds nothing to the totals, and readers name it instead of failing.
``Journal.repair`` ends such a match at its last entry that replays, then summarises it.

The history's engine (``engine.history``, ``listing``, ``players``) is imported by the functions
that replay or total matches, not with this module: opening a journal and replaying its latest
match (the daemon's start, up to READY) needs none of it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, apply
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Variant
from pegboard.errors import JournalError, PegboardError
from pegboard.frozen import frozen

from .rulesjson import rules_from_json
from .schema import read_error

if TYPE_CHECKING:
    from pegboard.engine.history import MatchHistory
    from pegboard.engine.listing import GameListing, MatchListing
    from pegboard.engine.players import Book

__all__ = ["SCHEMA_VERSION", "SUMMARY_SCHEMA", "LeftOut", "SummaryTables"]

SCHEMA_VERSION = 1
"""``PRAGMA user_version`` of a journal whose final matches are summarised (0: none are)."""

MIGRATE_BATCH = 50
"""Matches an older journal's migration summarises in one transaction (``_migrate``): about
0.25 s of work here, a few seconds on a Pi Zero 2 W, well inside systemd's start timeout."""

SUMMARY_SCHEMA = """
CREATE TABLE IF NOT EXISTS match_summaries (
    match_id INTEGER PRIMARY KEY REFERENCES matches(id),
    names TEXT NOT NULL,
    listing TEXT,
    left_out TEXT
);
CREATE TABLE IF NOT EXISTS summary_games (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    game INTEGER NOT NULL,
    finished TEXT NOT NULL,
    listing TEXT NOT NULL,
    PRIMARY KEY (match_id, game)
);
CREATE INDEX IF NOT EXISTS summary_games_by_time ON summary_games (finished);
CREATE TABLE IF NOT EXISTS standings_books (
    variant TEXT PRIMARY KEY,
    book TEXT NOT NULL
);
"""


@frozen
class LeftOut:
    """A match that cannot be replayed: the first entry that fails (*seq*, *entry*; None when
    the match's own row is bad) and why. ``str()`` is the line the readers print."""

    match_id: int
    seq: int | None
    entry: str | None
    reason: str

    def __str__(self) -> str:
        where = (
            "its stored rules" if self.seq is None else f"journal entry {self.seq} {self.entry!r}"
        )
        return (
            f"match {self.match_id} left out: {where} cannot be replayed ({self.reason}); "
            "'pegboard game repair' keeps the rest"
        )

    def to_payload(self) -> dict[str, object]:
        """The JSON readers' field for it."""
        return {
            "match": self.match_id,
            "seq": self.seq,
            "entry": self.entry,
            "reason": self.reason,
            "message": str(self),
        }


_Head = tuple[int, str, str, str, str]  # id, created, rules, names, format


def _replay(
    head: _Head, rows: Sequence[tuple[int, str, str]], *, latest: bool
) -> MatchHistory | LeftOut:
    """One match replayed from its stored rows (seq, text, time), or what makes it fail."""
    from pegboard.engine.history import replay_match

    match_id, created, rules_text, names_text, fmt = head
    try:
        rules = rules_from_json(rules_text)
        names = tuple(json.loads(names_text))
        match_format = MatchFormat.parse(fmt)
        state = GameState.new(rules, names, match_format)
    except (PegboardError, ValueError, TypeError) as e:
        return LeftOut(match_id, None, None, str(e))
    try:
        match = replay_match(
            rules, names, match_format, [(t, at) for _, t, at in rows], match_id=match_id,
            created=created,
        )  # fmt: skip
    except (PegboardError, ValueError) as e:
        for seq, text, _ in rows:  # the entry that fails: the first the game refuses
            try:
                state, _ = apply(state, parse_command(text, state.names))
            except (PegboardError, ValueError) as bad:
                return LeftOut(match_id, seq, text, str(bad))
        return LeftOut(match_id, None, None, str(e))
    if match.winner is None and not latest:
        match = replace(match, abandoned=True)
    return match


def _names_key(names: Sequence[str]) -> str:
    """The names a ``--player`` matches, lower case, one a line: each side and its members."""
    from pegboard.engine.history import members_of

    keys = [n.casefold() for name in names for n in (name, *members_of(name))]
    return "\n".join(keys)


def _plays(key: str, player: str) -> bool:
    return player.strip().casefold() in key.split("\n")


class SummaryTables:
    """The summaries' half of ``Journal``: written when a match becomes final, and read."""

    _conn: sqlite3.Connection
    path: Path
    _memo: tuple[list[MatchHistory | LeftOut], int] | None = None
    _progress: Callable[[int, int], None] | None = None

    # --- writing (inside the caller's transaction) --------------------------------------------

    def _summarise(self, match_id: int, *, latest: bool = False) -> None:
        """Keep match *match_id*'s listing and games, and add it to its variant's book."""
        from pegboard.engine.listing import MatchListing
        from pegboard.engine.players import Book

        conn = self._conn
        head = conn.execute(
            "SELECT id, created, rules, names, format FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        rows = conn.execute(
            "SELECT seq, command, at FROM journal WHERE match_id = ? ORDER BY seq", (match_id,)
        ).fetchall()
        done = _replay(head, rows, latest=latest)
        try:
            names = _names_key(json.loads(head[3]))
        except (ValueError, TypeError):
            names = ""
        conn.execute("DELETE FROM match_summaries WHERE match_id = ?", (match_id,))
        if isinstance(done, LeftOut):
            conn.execute(
                "INSERT INTO match_summaries (match_id, names, left_out) VALUES (?,?,?)",
                (match_id, names, json.dumps(done.to_payload())),
            )
            return
        listing = MatchListing.of(done)
        conn.execute(
            "INSERT INTO match_summaries (match_id, names, listing) VALUES (?,?,?)",
            (match_id, names, json.dumps(listing.to_payload(), separators=(",", ":"))),
        )
        conn.executemany(
            "INSERT OR REPLACE INTO summary_games (match_id, game, finished, listing) "
            "VALUES (?,?,?,?)",
            [
                (match_id, g.game, g.finished, json.dumps(g.to_payload(), separators=(",", ":")))
                for g in listing.games
            ],
        )
        row = conn.execute(
            "SELECT book FROM standings_books WHERE variant = ?", (done.variant.value,)
        ).fetchone()
        book = Book() if row is None else Book.from_json(row[0])
        book.add_match(done)
        conn.execute(
            "INSERT OR REPLACE INTO standings_books (variant, book) VALUES (?,?)",
            (done.variant.value, book.to_json()),
        )

    def _finalise_latest(self) -> None:
        """Summarise the latest match, about to become final (inside ``new_match``'s
        transaction), unless the journal keeps no summaries (an older version)."""
        if not self.summarised():
            return
        row = self._conn.execute("SELECT MAX(id) FROM matches").fetchone()
        if row[0] is not None:
            self._summarise(row[0])

    def _unsummarised(self) -> bool:
        """Whether a final match has no summary: a journal of an older version, a migration
        cut short, or matches an older pegboard added after a downgrade (it knows nothing of
        the summaries). Summaries are written oldest first (a migration goes from the oldest,
        and each new match summarises the one before it), so the newest final match (the
        second newest) tells: two lookups by key, so a writer's open asks every time at the
        same cost however long the history (two counts of the tables took 3 ms of a start at
        10,000 games)."""
        newest_final = self._conn.execute(
            "SELECT id FROM matches ORDER BY id DESC LIMIT 1 OFFSET 1"
        ).fetchone()
        if newest_final is None:
            return False  # one match or none: nothing is final
        summary = self._conn.execute(
            "SELECT 1 FROM match_summaries WHERE match_id = ?", newest_final
        ).fetchone()
        return summary is None

    def _migrate(self) -> None:
        """Summarise every final match that has no summary yet: the first writer's open of an
        older journal does it, oldest match first, ``MIGRATE_BATCH`` matches a transaction, and
        sets ``user_version`` with the last; after each batch ``progress`` (the journal's) is
        told how many matches it summarised and how many were left before it. A writer stopped
        part way (systemd's start timeout on a slow Pi, a power cut) leaves whole batches
        behind, and the next open goes on with the matches still without one, so every start
        gets further and none starts again."""
        conn = self._conn
        conn.executescript(SUMMARY_SCHEMA)
        missing = (
            "FROM matches m WHERE m.id < (SELECT MAX(id) FROM matches) AND NOT EXISTS "
            "(SELECT 1 FROM match_summaries s WHERE s.match_id = m.id)"
        )
        while True:
            conn.execute("BEGIN IMMEDIATE")
            try:
                (left,) = conn.execute(f"SELECT COUNT(*) {missing}").fetchone()
                ids = [
                    i
                    for (i,) in conn.execute(
                        f"SELECT m.id {missing} ORDER BY m.id LIMIT ?", (MIGRATE_BATCH,)
                    )
                ]
                for match_id in ids:
                    self._summarise(match_id)
                if not ids:  # every match but the latest is summarised
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            if not ids:
                return
            if self._progress is not None:  # the daemon tells systemd it is still starting
                self._progress(len(ids), left)

    def repair(self) -> tuple[Path | None, list[LeftOut], list[LeftOut]]:
        """End each match that cannot be replayed at its last entry that replays (the entries
        from the first bad one on are deleted), after a copy of the whole journal is written
        beside it (``<name>.before-repair-<UTC time>``, by SQLite's ``VACUUM INTO`` through this
        connection); a journal with nothing to repair is not touched. Returns the copy (None:
        nothing to repair), the matches repaired, and those that cannot be (their stored rules
        are bad: nothing of them replays).

        Raises:
            JournalError: the journal is read-only, or cannot be read, copied or written.
        """
        if getattr(self, "readonly", False):
            raise JournalError(f"{str(self.path)!r} was opened read-only: nothing is repaired")
        broken, stale = self._still_broken()
        fixable = [m for m in broken if m.seq is not None]
        if not fixable and not stale:
            return None, [], broken
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        copy = self.path.with_name(f"{self.path.name}.before-repair-{stamp}")
        conn = self._conn
        try:
            conn.execute("VACUUM INTO ?", (str(copy),))
            conn.execute("BEGIN IMMEDIATE")
            try:
                # looked at again under the write lock: what is cut is what fails now
                broken, stale = self._still_broken()
                fixable = [m for m in broken if m.seq is not None]
                (top,) = conn.execute("SELECT MAX(id) FROM matches").fetchone()
                for bad in fixable:
                    conn.execute(
                        "DELETE FROM journal WHERE match_id = ? AND seq >= ?",
                        (bad.match_id, bad.seq),
                    )
                for match_id in sorted({m.match_id for m in fixable} | set(stale)):
                    if match_id != top:  # a final match: its summary and totals now
                        self._summarise(match_id)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            raise JournalError(f"cannot repair {str(self.path)!r}: {e}") from e
        return copy, fixable, [m for m in broken if m.seq is None]

    def _still_broken(self) -> tuple[list[LeftOut], list[int]]:
        """The matches that fail when replayed now (the latest, and each one stored as left
        out, replayed again: a verdict kept from a downgrade may no longer hold), and the ids
        of those stored as left out that replay now (their summaries are stale).

        Raises:
            JournalError: the database cannot be read.
        """
        broken: list[LeftOut] = []
        stale: list[int] = []
        for stored in self.left_out_matches():
            now = self.match_history(stored.match_id)
            if isinstance(now, LeftOut):
                broken.append(now)
            elif now is not None:
                stale.append(stored.match_id)
        latest = self.latest_match()
        if isinstance(latest, LeftOut) and all(m.match_id != latest.match_id for m in broken):
            broken.append(latest)
        return broken, stale

    # --- reading --------------------------------------------------------------------------------

    def summarised(self) -> bool:
        """Whether the journal keeps summaries of its final matches (else readers replay all)."""
        (version,) = self._conn.execute("PRAGMA user_version").fetchone()
        return bool(version >= SCHEMA_VERSION)

    def _read_error(self, e: sqlite3.Error) -> JournalError:
        return JournalError(read_error(self.path, e))

    def _all_replayed(self) -> tuple[list[MatchHistory | LeftOut], int]:
        """Every match replayed (a journal without summaries), once per open; and the latest id."""
        if self._memo is None:
            heads = self._conn.execute(
                "SELECT id, created, rules, names, format FROM matches ORDER BY id"
            ).fetchall()
            by_match: dict[int, list[tuple[int, str, str]]] = {}
            for match_id, seq, text, at in self._conn.execute(
                "SELECT match_id, seq, command, at FROM journal ORDER BY match_id, seq"
            ):
                by_match.setdefault(match_id, []).append((seq, text, at))
            done = [
                _replay(h, by_match.get(h[0], []), latest=i == len(heads) - 1)
                for i, h in enumerate(heads)
            ]
            self._memo = (done, heads[-1][0] if heads else 0)
        return self._memo

    def latest_match(self) -> MatchHistory | LeftOut | None:
        """The latest match replayed (it alone takes new commands), what makes it fail, or None
        in an empty journal.

        Raises:
            JournalError: the database cannot be read.
        """
        try:
            return self.match_history(None)
        except sqlite3.Error as e:
            raise self._read_error(e) from e

    def match_history(self, match_id: int | None) -> MatchHistory | LeftOut | None:
        """Match *match_id* (None: the latest) replayed alone, what makes it fail, or None when
        there is no such match.

        Raises:
            JournalError: the database cannot be read.
        """
        try:
            with self.reading():  # type: ignore[attr-defined]
                (latest,) = self._conn.execute("SELECT MAX(id) FROM matches").fetchone()
                wanted = latest if match_id is None else match_id
                head = self._conn.execute(
                    "SELECT id, created, rules, names, format FROM matches WHERE id = ?",
                    (wanted,),
                ).fetchone()
                if head is None:
                    return None
                rows = self._conn.execute(
                    "SELECT seq, command, at FROM journal WHERE match_id = ? ORDER BY seq",
                    (wanted,),
                ).fetchall()
        except sqlite3.Error as e:
            raise self._read_error(e) from e
        return _replay(head, rows, latest=wanted == latest)

    def final_listings(
        self, *, limit: int | None = None, player: str | None = None, since: str | None = None
    ) -> tuple[list[MatchListing], int, list[LeftOut]]:
        """The final matches (every match but the latest), newest first: at most *limit* of
        them, only *player*'s, only those with a game finished at or after *since* (an ISO
        time in UTC); how many there are in all; and the final matches left out.

        Raises:
            JournalError: the database cannot be read, or a stored summary cannot be.
        """
        from pegboard.engine.listing import MatchListing

        try:
            if not self.summarised():
                return self._listings_replayed(limit, player, since)
            with self.reading():  # type: ignore[attr-defined]
                query = "SELECT match_id, names, left_out IS NOT NULL FROM match_summaries"
                params: tuple[str, ...] = ()
                if since is not None:
                    query += (
                        " WHERE match_id IN "
                        "(SELECT match_id FROM summary_games WHERE finished >= ?)"
                    )
                    params = (since,)
                rows = self._conn.execute(query + " ORDER BY match_id DESC", params).fetchall()
                chosen = [
                    m
                    for m, names, bad in rows
                    if not bad and (player is None or _plays(names, player))
                ]
                shown = chosen if limit is None else chosen[:limit]
                listings = [
                    MatchListing.from_payload(json.loads(text))
                    for (text,) in (
                        self._conn.execute(
                            "SELECT listing FROM match_summaries WHERE match_id = ?", (m,)
                        ).fetchone()
                        for m in shown
                    )
                ]
                left_out = self.left_out_matches()
        except sqlite3.Error as e:
            raise self._read_error(e) from e
        except ValueError as e:
            raise JournalError(f"{str(self.path)!r} has a summary that cannot be read: {e}") from e
        return listings, len(chosen), left_out

    def _listings_replayed(
        self, limit: int | None, player: str | None, since: str | None
    ) -> tuple[list[MatchListing], int, list[LeftOut]]:
        from pegboard.engine.listing import MatchListing

        done, latest = self._all_replayed()
        finals = [m for m in done if _id(m) != latest]
        left_out = [m for m in finals if isinstance(m, LeftOut)]
        chosen = [
            MatchListing.of(m)
            for m in reversed(finals)
            if not isinstance(m, LeftOut)
            and (player is None or _plays(_names_key(m.names), player))
            and (since is None or any(g.finished and g.finished >= since for g in m.games))
        ]
        return (chosen if limit is None else chosen[:limit]), len(chosen), left_out

    def left_out_matches(self) -> list[LeftOut]:
        """The final matches that cannot be replayed, oldest first.

        Raises:
            JournalError: the database cannot be read.
        """
        try:
            if not self.summarised():
                done, latest = self._all_replayed()
                return [m for m in done if isinstance(m, LeftOut) and m.match_id != latest]
            rows = self._conn.execute(
                "SELECT left_out FROM match_summaries WHERE left_out IS NOT NULL ORDER BY match_id"
            ).fetchall()
            return [_left_out(json.loads(text)) for (text,) in rows]
        except sqlite3.Error as e:
            raise self._read_error(e) from e

    def latest_match_ids(self, count: int) -> list[int]:
        """The ids of the newest *count* matches, oldest first.

        Raises:
            JournalError: the database cannot be read.
        """
        try:
            rows = self._conn.execute(
                "SELECT id FROM matches ORDER BY id DESC LIMIT ?", (count,)
            ).fetchall()
        except sqlite3.Error as e:
            raise self._read_error(e) from e
        return sorted(i for (i,) in rows)

    def last_final_with_games(self) -> int | None:
        """The newest final match with a finished game, or None.

        Raises:
            JournalError: the database cannot be read.
        """
        try:
            if not self.summarised():
                done, latest = self._all_replayed()
                ids = [
                    m.match_id
                    for m in done
                    if not isinstance(m, LeftOut) and m.games and m.match_id != latest
                ]
                return ids[-1] if ids else None
            (found,) = self._conn.execute("SELECT MAX(match_id) FROM summary_games").fetchone()
            return None if found is None else int(found)
        except sqlite3.Error as e:
            raise self._read_error(e) from e

    def final_book(self, variant: Variant | None = None) -> Book:
        """The standings' totals over the final matches (only *variant*'s when given).

        Raises:
            JournalError: the database cannot be read, or a stored book cannot be.
        """
        from pegboard.engine.players import Book

        book = Book()
        try:
            if not self.summarised():
                done, latest = self._all_replayed()
                for m in done:
                    ours = variant is None or (not isinstance(m, LeftOut) and m.variant is variant)
                    if not isinstance(m, LeftOut) and m.match_id != latest and ours:
                        book.add_match(m)
                return book
            rows = self._conn.execute(
                "SELECT book FROM standings_books WHERE ? IS NULL OR variant = ?",
                (None if variant is None else variant.value,) * 2,
            ).fetchall()
            for (text,) in rows:
                book = book.merged(Book.from_json(text))
        except sqlite3.Error as e:
            raise self._read_error(e) from e
        except ValueError as e:
            raise JournalError(f"{str(self.path)!r} has totals that cannot be read: {e}") from e
        return book

    def summary_mark(self) -> tuple[object, ...]:
        """What changes whenever the final matches' summaries do: the latest match (its id and
        time: a new one makes the one before it final) and the stored totals' text (a repair).
        Costs a few small reads, however long the history.

        Raises:
            JournalError: the database cannot be read.
        """
        try:
            latest = self._conn.execute(
                "SELECT id, created FROM matches ORDER BY id DESC LIMIT 1"
            ).fetchone()
            books = self._conn.execute("SELECT variant, book FROM standings_books").fetchall()
        except sqlite3.Error as e:
            raise self._read_error(e) from e
        return latest, tuple(sorted(books))

    def final_books(self) -> dict[Variant, Book]:
        """The standings' totals over the final matches, per variant (only those with one).

        Raises:
            JournalError: the database cannot be read, or a stored book cannot be.
        """
        from pegboard.engine.players import Book

        if not self.summarised():
            found = {v: self.final_book(v) for v in Variant}
            return {v: book for v, book in found.items() if book.tallies}
        try:
            rows = self._conn.execute("SELECT variant, book FROM standings_books").fetchall()
            return {Variant(v): Book.from_json(text) for v, text in rows}
        except sqlite3.Error as e:
            raise self._read_error(e) from e
        except ValueError as e:
            raise JournalError(f"{str(self.path)!r} has totals that cannot be read: {e}") from e

    def latest_final_games(self, count: int) -> list[GameListing]:
        """The last *count* games of the final matches by match and game (not by time: what
        the pub page's evening is chosen from), oldest first; read through the index.

        Raises:
            JournalError: the database cannot be read, or a stored summary cannot be.
        """
        from pegboard.engine.listing import GameListing

        try:
            if not self.summarised():
                done, latest = self._all_replayed()
                games = [
                    GameListing.of(g)
                    for m in done
                    if not isinstance(m, LeftOut) and m.match_id != latest
                    for g in m.games
                ]
                return games[-count:] if count else []
            rows = self._conn.execute(
                "SELECT listing FROM summary_games ORDER BY match_id DESC, game DESC LIMIT ?",
                (count,),
            ).fetchall()
            return [GameListing.from_payload(json.loads(text)) for (text,) in reversed(rows)]
        except sqlite3.Error as e:
            raise self._read_error(e) from e
        except ValueError as e:
            raise JournalError(f"{str(self.path)!r} has a summary that cannot be read: {e}") from e

    def replayed_after(self, after: int) -> list[MatchHistory | LeftOut]:
        """Every match with an id above *after*, oldest first, each replayed alone (or what
        makes it fail); the last is the latest match. For a journal without summaries.

        Raises:
            JournalError: the database cannot be read.
        """
        try:
            with self.reading():  # type: ignore[attr-defined]
                heads = self._conn.execute(
                    "SELECT id, created, rules, names, format FROM matches WHERE id > ? "
                    "ORDER BY id",
                    (after,),
                ).fetchall()
                by_match: dict[int, list[tuple[int, str, str]]] = {}
                for match_id, seq, text, at in self._conn.execute(
                    "SELECT match_id, seq, command, at FROM journal WHERE match_id > ? "
                    "ORDER BY match_id, seq",
                    (after,),
                ):
                    by_match.setdefault(match_id, []).append((seq, text, at))
        except sqlite3.Error as e:
            raise self._read_error(e) from e
        return [
            _replay(h, by_match.get(h[0], []), latest=i == len(heads) - 1)
            for i, h in enumerate(heads)
        ]


def _id(match: MatchHistory | LeftOut) -> int:
    return match.match_id


def _left_out(data: dict[str, object]) -> LeftOut:
    seq, entry = data.get("seq"), data.get("entry")
    return LeftOut(
        int(str(data["match"])),
        None if seq is None else int(str(seq)),
        None if entry is None else str(entry),
        str(data["reason"]),
    )
