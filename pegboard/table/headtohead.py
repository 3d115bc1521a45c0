"""The menu's head-to-head page for the controller: asked for in its thread, made in the reader's.

Theory of operation
-------------------
The page's figures are over the journal's whole history (its stored totals and the latest match
replayed: ``journal.reader``), so the controller's thread never reads it. ``RecordPage.changed``
is told the evening after every state change (the match, the game and their winners) and pokes
the journal's ``HistoryReader`` when it changed: an ``Event`` set, never a wait. When a read
ends, the reader's thread calls ``_history_read``, which makes the current match's first two
sides' ``HeadToHeadView`` there and then wakes the controller's loop (``wake``: ``None`` on its
event queue). ``record`` hands the controller the page as it stands: the figures when the latest
read includes the last poke, else the page that says "reading the scores…"; the controller's
``tick`` asks again while that one is up and draws the figures once they came.

Without a reader (a scripted run, where what the screen shows must not depend on a thread's
timing), ``record`` reads the history in the caller's thread (``HistoryCache``: the stored
totals, the latest match replayed).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from pegboard.journal import Journal
from pegboard.journal.reader import HistoryCache, HistoryReader, HistorySnapshot
from pegboard.ui.results import HeadToHeadView, book_head_to_head

__all__ = ["RecordPage"]


class RecordPage:
    """The head-to-head page's figures over *store*'s history, read by *reader* if given."""

    def __init__(self, store: Journal, reader: HistoryReader | None = None) -> None:
        self._store = store
        self._reader = reader
        self._cache = HistoryCache()
        self._key: Hashable = None
        self._asked = 0  # the reader's number for the last poke
        # the latest read and the page made from it, in the reader's thread (replaced whole)
        self._made: tuple[HistorySnapshot, HeadToHeadView | None] | None = None
        self.wake: Callable[[], None] | None = None
        """Called in the reader's thread when new figures are ready (the controller's ``run``
        sets it to put ``None`` on its event queue)."""
        if reader is not None:
            reader.listen(self._history_read)

    def changed(self, key: Hashable) -> None:
        """The evening as it stands after a state change; a new one pokes the reader."""
        if key != self._key and self._reader is not None:
            self._key = key
            self._asked = self._reader.poke()

    def record(self, first: str, second: str) -> HeadToHeadView:
        """The page for *first* and *second* now: with the figures when they are read, else
        ``reading``. Never waits when there is a reader.

        Raises:
            JournalError: (without a reader) the history cannot be read or replayed.
        """
        if self._reader is None:
            return book_head_to_head(self._cache.read(self._store).book(), first, second)
        made = self._made
        if made is None or made[0].asked < self._asked:
            return HeadToHeadView((first, second), reading=True)
        snapshot, record = made
        if record is None or record.names != (first, second):  # not the sides it made: rare
            return book_head_to_head(snapshot.book(), first, second)
        return record

    def _history_read(self, snapshot: HistorySnapshot) -> None:
        """A new read (in the reader's thread): the current match's first two sides' page."""
        current = snapshot.current
        record = None
        if current is not None and len(current.names) >= 2:
            record = book_head_to_head(snapshot.book(), current.names[0], current.names[1])
        self._made = (snapshot, record)
        wake = self.wake
        if wake is not None:
            wake()
