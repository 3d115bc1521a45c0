"""Following a journal that another process writes, for ``pegboard serve``.

Theory of operation
-------------------
``pegboard game do`` writes the journal in its own process, so nothing calls us when a command
lands. ``JournalFeed.poll`` looks at the file instead, every ``interval`` seconds (0.1): the
journal's and its ``-wal`` companion's inode, modification time (in nanoseconds) and size, and
the wal-index header at the start of its ``-shm``. A commit changes the ``-wal`` file, and the
writer's last close folds it into the journal and removes it, so any new command changes what
``poll`` sees. Then the journal is opened afresh, read-only (``Journal(path, readonly=True)``:
it creates, writes and renames nothing), replayed, and its view handed to the
``ViewPublisher``; a view equal to the last one is not published again (unless the tournament
lock its marks record came on or went off: ``journal.marks``; the page then shows the standings
only). The first poll after a command is stored publishes it, so it shows within ``interval``
and the time to read it.

A read beside a live writer can land after the commit's frames are in the ``-wal`` (its size
and time changed) but before the commit is visible to readers, which happens when the writer
writes the wal-index header in the ``-shm``: such a read sees the old state. Two things keep
that from being missed: the ``-shm``'s header is part of what ``poll`` looks at, so the
commit becoming visible is a change; and the read that follows a change is confirmed by one
more read at the next poll (and again while the reads still differ), in case a change lands
where no look can see it (a file system with coarse times, say).

No connection is kept open between reads, which is why SQLite's ``PRAGMA data_version`` (a
per-connection counter) is not used: a reader that stays connected would keep the writer's
last close from removing its ``-wal`` and ``-shm`` files, and the reader in memory that a
journal without them is read through never sees another process's commit anyway.

A journal no writer has open is read in place as immutable (``journal.readonly``); a writer that
opens and checkpoints it during the read can tear what is read, so a read that ``Journal.moved``
says was under such a writer is started again, failed or not (up to ``READ_ATTEMPTS`` times). A
read that fails otherwise (a commit caught halfway, the writer closing under it, for instance)
is logged in one line and keeps the page as it was; it is tried again at the next poll. The
signature is taken before each read, so a change during the read is read again.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from pegboard.engine.view import GameView, render_view
from pegboard.errors import JournalError
from pegboard.journal import Journal
from pegboard.journal.reader import READ_ATTEMPTS
from pegboard.journal.readonly import Marks, file_marks, wal_index_header
from pegboard.web.publisher import ViewPublisher

__all__ = ["POLL_SECONDS", "JournalFeed"]

log = logging.getLogger(__name__)

POLL_SECONDS = 0.1
"""How often ``pegboard serve`` looks at the journal: a command shows within 0.2 s."""

Signature = tuple[Marks, bytes | None]


class _Torn(Exception):
    """A read that a writer changed the file under (``Journal.moved``): read again."""


class JournalFeed:
    """Publishes the journal at *path* to *publisher* whenever the file changes.

    ``load`` reads it now; ``poll`` reads it when it has changed; ``run`` polls every
    *interval* seconds until a stop event is set. ``polls`` counts the looks taken.
    """

    def __init__(
        self, path: Path, publisher: ViewPublisher, *, interval: float = POLL_SECONDS
    ) -> None:
        self.path = path
        self.publisher = publisher
        self.interval = interval
        self.polls = 0
        self._seen: Signature | None = None
        self._view: GameView | None = None
        self._locked = False  # the tournament lock the journal's marks say holds
        self._failed = ""
        self._confirm = False  # read again at the next poll even if nothing seems changed
        self.retries = 0
        """Reads started again because a writer changed the file under them."""

    def signature(self) -> Signature:
        """The journal's and its ``-wal`` file's marks (``file_marks``: inode, size and times,
        None for a file that is not there), and the ``-shm``'s wal-index header
        (``wal_index_header``)."""
        return file_marks(self.path, ("", "-wal")), wal_index_header(self.path)

    def load(self) -> bool:
        """Read the journal now and publish its view if it changed; True when published.

        Raises:
            JournalError: not a pegboard journal, none at *path*, a damaged one, or one with
                no match yet (the messages are ``pegboard game show``'s).
        """
        for _ in range(READ_ATTEMPTS - 1):
            try:
                return self._load_once()
            except _Torn:
                self.retries += 1
        return self._load_once(last=True)

    def _load_once(self, *, last: bool = False) -> bool:
        """``load``'s one read.

        Raises:
            _Torn: (unless *last*) a writer changed the file under an immutable read.
            JournalError: as ``load`` says.
        """
        seen = self.signature()
        journal = Journal(self.path, readonly=True)
        try:
            try:
                state = journal.load()
            except JournalError:
                if last or not journal.moved():
                    raise
                raise _Torn from None
            if journal.moved() and not last:  # what it read may be torn: read again
                raise _Torn
            if state is None:
                raise JournalError(
                    f"no match in {str(self.path)!r}: start one with 'pegboard game new'"
                )
            self._seen = seen
            view = render_view(state)
            locked = journal.locked() is not None  # a league board's tournament lock
            if view == self._view and locked == self._locked:
                return False
            self._locked = locked
            self.publisher.locked = lambda: locked  # the page then shows the standings only
            self.publisher.journal = journal
            self.publisher.publish(state, view)
            self._view = view
            if journal.moved():  # the figures may be torn: read at the next poll (it changed)
                self.publisher.forget()
                self._view = None
            return True
        finally:
            self.publisher.journal = None
            journal.close()

    def poll(self) -> bool:
        """Read the journal if it changed since the last read, or to confirm the read that
        followed a change (the module's notes); True when a view was published.

        A read that fails is logged (once per distinct failure) and tried again at the next
        poll; the page keeps the last view.
        """
        self.polls += 1
        changed = self.signature() != self._seen
        if not changed and not self._confirm:
            return False
        try:
            published = self.load()
        except (JournalError, OSError) as e:  # tried again at the next poll
            if str(e) != self._failed:
                log.warning("serve: %s (the page keeps the last view)", e)
                self._failed = str(e)
            return False
        self._failed = ""
        # a read after a change is confirmed by the next; a confirming read that still found
        # something new is confirmed in turn
        self._confirm = changed or published
        return published

    def run(self, stop: threading.Event) -> None:
        """Poll every ``interval`` seconds until *stop* is set."""
        while not stop.wait(self.interval):
            self.poll()
