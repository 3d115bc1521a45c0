"""Reading the history beside the game: a thread of its own, with its own read-only connection.

Theory of operation
-------------------
The figures that need the whole history (the pub page's players and evening, the menu's
head-to-head page) are read by a ``HistoryReader``, so the controller's thread never waits for
a read (a key press, a frame, READY):

- it owns one thread and one read-only ``Journal`` of its own, opened in that thread on its
  first read. While the controller's writer has the file open, SQLite reads it in place through
  the writer's ``-wal`` (WAL lets a reader run beside a writer; ``mode=ro`` writes nothing);
  without a writer it opens the file afresh for each read. It creates, writes and renames
  nothing;
- the controller only ``poke``\\ s it (an ``Event`` set and a counter: never waits) when the
  evening changes: a new match, a game finished or a win taken back;
- each read is one read transaction and ends in a new immutable ``HistorySnapshot``;
- ``snapshot`` is the latest one (None before the first): a plain attribute read, never a wait.
  Each callback given to ``listen`` is called with every new snapshot in the reader's thread;
  a callback does its own slow work there (the page's standings) and then only hands values
  over (a publish, a wake-up on the controller's queue).

What a read costs (``HistoryCache``) follows the new work, not the history. Only the latest
match ever takes new commands; the journal keeps the final ones summarised
(``journal.summaries``: a ``Book`` of totals per variant, and each final game's listing), written
in the transaction that makes a match final. So a read replays the latest match alone, and
reads the stored totals, the last final games and the matches left out again only when they
changed (a new latest match, or other stored totals: ``summary_mark``). A journal that keeps no
summaries (an older version, until a writer opens it) is replayed as before: every match once,
then the latest. A match that cannot be replayed is named once in the log and left out.

Pokes that come while a read runs are folded into one more read; ``asked`` says which pokes a
snapshot includes, so a consumer can tell a snapshot that is current from one that is not yet.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard.engine.rules import Variant
from pegboard.errors import JournalError
from pegboard.frozen import frozen

from .summaries import LeftOut

if TYPE_CHECKING:
    from pegboard.engine.history import MatchHistory
    from pegboard.engine.listing import GameListing
    from pegboard.engine.players import Book

    from . import Journal

__all__ = ["RECENT_GAMES", "HistoryCache", "HistoryReader", "HistorySnapshot"]

log = logging.getLogger(__name__)

READ_ATTEMPTS = 5
"""How many times a read starts again when a writer changes the file under it."""

RECENT_GAMES = 10
"""How many of the latest finished games a snapshot keeps (the pub page's evening)."""


@frozen
class HistorySnapshot:
    """The journal's history as one read found it; never changed after it is made.

    ``asked``: the pokes it includes (``HistoryReader.poke``'s numbers up to this one).
    ``current``: the latest match replayed (the one the table plays), or None (an empty
    journal, or a latest match that cannot be replayed). ``finals``: the standings' totals of
    the final matches (every match but the latest), per variant (read them, never change them).
    ``recent``: the last ``RECENT_GAMES`` finished games by match and game, the current match's
    included, oldest first. ``left_out``: the matches that cannot be replayed.
    """

    asked: int
    current: MatchHistory | None = None
    finals: Mapping[Variant, Book] = field(default_factory=dict)
    recent: tuple[GameListing, ...] = ()
    left_out: tuple[LeftOut, ...] = ()

    def book(self, variant: Variant | None = None) -> Book:
        """The totals of every match so far (only *variant*'s when given): the final matches'
        merged with the current one's; a new ``Book``."""
        from pegboard.engine.players import Book

        book = Book()
        for kind, finals in self.finals.items():
            if variant is None or kind is variant:
                book = book.merged(finals)
        current = self.current
        if current is not None and (variant is None or current.variant is variant):
            mine = Book()
            mine.add_match(current)
            book = book.merged(mine)
        return book


class HistoryCache:
    """What a read of the history keeps for the next: the final matches' stored totals, last
    games and left-out matches (read again only when they changed), or, in a journal without
    summaries, every final match replayed once. Each read replays the latest match.
    """

    def __init__(self) -> None:
        self._mark: object = None  # what the finals below were read at (``summary_mark``)
        self._finals: dict[Variant, Book] = {}
        self._recent: tuple[GameListing, ...] = ()  # the final matches' last games
        self._left_out: tuple[LeftOut, ...] = ()
        self._after = 0  # (no summaries) the id of the last final match replayed
        self._named: set[int] = set()  # the matches left out that the log has named
        self.replayed = 0
        """Matches replayed so far (the tests and the benchmark read it)."""
        self.finals_read = 0
        """How often the final matches' stored summaries were read (the tests read it)."""

    def read(self, journal: Journal, asked: int = 0) -> HistorySnapshot:
        """The history in *journal* now, as a snapshot numbered *asked*, in one read
        transaction.

        Raises:
            JournalError: the database cannot be read, or a stored summary cannot be.
        """
        from pegboard.engine.listing import GameListing

        with journal.reading():
            if journal.summarised():
                current = self._read_summarised(journal)
            else:
                current = self._read_replayed(journal)
        left_out = self._left_out
        if isinstance(current, LeftOut):
            left_out, current = (*left_out, current), None
        for match in left_out:
            if match.match_id not in self._named:
                self._named.add(match.match_id)
                log.warning("history: %s", match)
        games = [] if current is None else [GameListing.of(g) for g in current.games]
        recent = (*self._recent, *games)[-RECENT_GAMES:]
        return HistorySnapshot(asked, current, dict(self._finals), recent, left_out)

    def forget(self) -> None:
        """Read the final matches again next time (a read that a writer tore kept them)."""
        self._mark = None

    def _read_summarised(self, journal: Journal) -> MatchHistory | LeftOut | None:
        mark = ("summaries", journal.summary_mark())
        if mark != self._mark:  # a new latest match (the older one final now), or new totals
            self._finals = journal.final_books()
            self._recent = tuple(journal.latest_final_games(RECENT_GAMES))
            self._left_out = tuple(journal.left_out_matches())
            self._mark = mark
            self.finals_read += 1
        latest = journal.latest_match()
        self.replayed += latest is not None
        return latest

    def _read_replayed(self, journal: Journal) -> MatchHistory | LeftOut | None:
        from pegboard.engine.listing import GameListing
        from pegboard.engine.players import Book

        if self._mark != "replayed":  # first read, or the journal was replaced meanwhile
            self._mark, self._after = "replayed", 0
            self._finals, self._recent, self._left_out = {}, (), ()
        fresh = journal.replayed_after(self._after)
        self.replayed += len(fresh)
        for match in fresh[:-1]:  # all but the latest are final: kept as totals
            if isinstance(match, LeftOut):
                self._left_out += (match,)
                continue
            mine = Book()
            mine.add_match(match)  # a new book: the snapshots handed out keep theirs
            self._finals[match.variant] = self._finals.get(match.variant, Book()).merged(mine)
            games = (GameListing.of(g) for g in match.games)
            self._recent = (*self._recent, *games)[-RECENT_GAMES:]
        if len(fresh) > 1:
            self._after = fresh[-2].match_id
        return fresh[-1] if fresh else None


Listener = Callable[[HistorySnapshot], None]


class HistoryReader:
    """Reads the journal at *path*'s history in its own thread whenever it is poked.

    ``listen`` before ``start``; ``poke`` (any thread, never waits) asks for a read;
    ``snapshot`` is the latest read; ``close`` stops the thread. *timeout* is how long a read
    waits for a lock (SQLite's, while the writer checkpoints).
    """

    def __init__(self, path: Path | str, *, timeout: float = 10.0) -> None:
        self.path = Path(path)
        self._timeout = timeout
        self._listeners: list[Listener] = []
        self._cache = HistoryCache()
        self._journal: Journal | None = None
        self._lock = threading.Lock()  # guards _asked only: held for no more than a counter
        self._asked = 0
        self._wanted = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.snapshot: HistorySnapshot | None = None
        """The latest snapshot (None before the first read): replaced whole, never changed."""
        self.reads = 0
        """Reads done so far (the tests read it)."""
        self.retries = 0
        """Reads started again because a writer changed the file under them."""

    @property
    def replayed(self) -> int:
        """Matches replayed so far, over every read."""
        return self._cache.replayed

    @property
    def asked(self) -> int:
        """The number of the latest poke (0: none yet)."""
        with self._lock:
            return self._asked

    def listen(self, listener: Listener) -> None:
        """Call *listener* with each new snapshot, in the reader's thread (before ``start``).

        An exception in it is logged; the reader and the other listeners go on.
        """
        self._listeners.append(listener)

    def start(self) -> None:
        """Start the reader's thread (a daemon thread); returns at once."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="pegboard-history", daemon=True)
        self._thread.start()

    def poke(self) -> int:
        """Ask for a read soon; returns this poke's number. Never waits for the read."""
        with self._lock:
            self._asked += 1
            asked = self._asked
        self._wanted.set()
        return asked

    def is_current(self, asked: int) -> bool:
        """Whether the latest snapshot includes poke number *asked*."""
        snapshot = self.snapshot
        return snapshot is not None and snapshot.asked >= asked

    def close(self, timeout: float = 1.0) -> None:
        """Stop the thread (a read under way is given *timeout* seconds to end) and close the
        reader's connection. Safe to call more than once, and before ``start``."""
        self._stop.set()
        self._wanted.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            if thread.is_alive():
                log.info("history: a read is still under way; the process ends it")
                return
        self._close_journal()

    def read_now(self) -> HistorySnapshot:
        """Read the history in the calling thread and hand the snapshot to the listeners (for
        scripted runs and tests; the daemon only pokes).

        Raises:
            JournalError: the journal cannot be opened, read or replayed.
        """
        with self._lock:
            asked = self._asked
        return self._read(asked)

    # --- the reader's thread -----------------------------------------------------------------

    def _run(self) -> None:
        try:
            while True:
                self._wanted.wait()
                if self._stop.is_set():
                    return
                self._wanted.clear()  # a poke from now on asks for one more read
                with self._lock:
                    asked = self._asked
                try:
                    self._read(asked)
                except JournalError as e:  # keep the last snapshot; the next poke tries again
                    log.warning("history: %s", e)
                    self._close_journal()
                except Exception:  # a bug here never stops the game: logged, tried again
                    log.exception("history: the read failed")
                    self._close_journal()
        finally:
            self._close_journal()

    def _read(self, asked: int) -> HistorySnapshot:
        """One read; started again when a writer changed the file under an immutable read
        (``Journal.moved``), whether it failed or seemed to succeed.

        Raises:
            JournalError: the journal cannot be opened or read.
        """
        for attempt in range(READ_ATTEMPTS):
            last = attempt == READ_ATTEMPTS - 1
            with self._opened() as journal:
                try:
                    snapshot = self._cache.read(journal, asked)
                except JournalError:
                    if last or not journal.moved():
                        raise
                    self._cache.forget()
                    continue
                if not journal.moved():
                    break
                self._cache.forget()  # what it read may be torn: read it all again
                self.retries += 1
        else:
            raise JournalError(
                f"cannot read {str(self.path)!r}: a writer changed it during each of "
                f"{READ_ATTEMPTS} reads"
            )
        self.snapshot = snapshot
        self.reads += 1
        for listener in self._listeners:
            try:
                listener(snapshot)
            except Exception:
                log.exception("history: a listener failed; the reader goes on")
        return snapshot

    @contextlib.contextmanager
    def _opened(self) -> Iterator[Journal]:
        """The reader's journal: kept open while it reads the writer's file in place, else
        (a copy in memory, which never sees a later commit) opened afresh for each read."""
        from . import Journal

        journal = self._journal
        if journal is None:
            journal = Journal(self.path, readonly=True, timeout=self._timeout)
        self._journal = journal if journal.live else None
        try:
            yield journal
        finally:
            if not journal.live:
                journal.close()

    def _close_journal(self) -> None:
        journal, self._journal = self._journal, None
        if journal is not None:
            journal.close()
