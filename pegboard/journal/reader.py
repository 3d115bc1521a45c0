"""Reading the history beside the game: a thread of its own, with its own read-only connection.

Theory of operation
-------------------
``Journal.history`` replays every match from its commands: about 3.5 ms a finished game here,
so 200 games take ~0.7 s, several seconds on a Pi Zero 2 W. The controller's thread must never
wait for that (a key press, a frame, READY), so the figures that need the history (the pub
page's players, the menu's head-to-head page) are read by a ``HistoryReader`` instead:

- it owns one thread and one read-only ``Journal`` of its own, opened in that thread on its
  first read. While the controller's writer has the file open, SQLite reads it in place through
  the writer's ``-wal`` (WAL lets a reader run beside a writer; ``mode=ro`` writes nothing);
  without a writer it reads a copy in memory, afresh for each read. It creates, writes and
  renames nothing;
- the controller only ``poke``\\ s it (an ``Event`` set and a counter: never waits) when the
  evening changes: a new match, a game finished or a win taken back;
- each read is one read transaction (the matches, their commands, the finished games and the
  lurches agree), replays only what ``HistoryCache`` does not keep (every match but the latest
  is final, so usually just the current one), and ends in a new immutable ``HistorySnapshot``;
- ``snapshot`` is the latest one (None before the first): a plain attribute read, never a wait.
  Each callback given to ``listen`` is called with every new snapshot in the reader's thread;
  a callback does its own slow work there (the page's standings) and then only hands values
  over (a publish, a wake-up on the controller's queue).

Pokes that come while a read runs are folded into one more read; ``asked`` says which pokes a
snapshot includes, so a consumer can tell a snapshot that is current from one that is not yet.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.errors import JournalError
from pegboard.frozen import frozen

from .records import LurchRecord

if TYPE_CHECKING:
    from pegboard.engine.history import MatchHistory

    from . import Journal

__all__ = ["HistoryCache", "HistoryReader", "HistorySnapshot"]

log = logging.getLogger(__name__)


@frozen
class HistorySnapshot:
    """The journal's history as one read found it; never changed after it is made.

    ``asked``: the pokes it includes (``HistoryReader.poke``'s numbers up to this one).
    ``matches``: every match, oldest first (``Journal.history``); the last is the current one.
    ``games``: every finished game (``Journal.finished_games``'s dicts: read them, never change
    them). ``lurches``: ``Journal.lurches``.
    """

    asked: int
    matches: tuple[MatchHistory, ...]
    games: tuple[dict[str, Any], ...] = ()
    lurches: tuple[LurchRecord, ...] = ()

    @property
    def current(self) -> MatchHistory | None:
        """The latest match (the one the table plays), or None in an empty journal."""
        return self.matches[-1] if self.matches else None


class HistoryCache:
    """The journal's history kept match by match: each read replays only the latest match.

    Only the latest match ever takes new commands (a new match makes the one before it final,
    decided or abandoned), so every match but the latest is kept, and each read replays just
    the matches after the ones kept (``history(after=...)``).
    """

    def __init__(self) -> None:
        self._kept: list[MatchHistory] = []  # every match but the latest, oldest first
        self._after = 0  # the id of the last match kept
        self.replayed = 0
        """Matches replayed so far (the tests and the benchmark read it)."""

    def read(self, journal: Journal) -> tuple[MatchHistory, ...]:
        """Every match in *journal*: the ones kept and those after them, replayed now.

        Raises:
            JournalError: a stored command cannot be replayed, or the database cannot be read.
        """
        fresh = journal.history(after=self._after)
        self.replayed += len(fresh)
        if len(fresh) > 1:  # all but the latest are final: keep them
            self._kept.extend(fresh[:-1])
            self._after = fresh[-2].match_id
        return (*self._kept, *fresh[-1:])


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
        with self._opened() as journal, journal.reading():
            matches = self._cache.read(journal)
            games = tuple(journal.finished_games())
            lurches = tuple(journal.lurches())
        snapshot = HistorySnapshot(asked, matches, games, lurches)
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
