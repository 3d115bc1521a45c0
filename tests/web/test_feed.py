"""``JournalFeed``, which follows a journal that ``pegboard game do`` writes in another process,
driven poll by poll from the test: no sleeping, no timing asserted."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pegboard.engine.game import GameState
from pegboard.journal import Journal
from pegboard.web import feed as feed_module
from pegboard.web.feed import POLL_SECONDS, JournalFeed
from pegboard.web.publisher import ViewPublisher
from pegboard.web.server import WebServer
from tests.journal.games import cli, pub_journal


@pytest.fixture
def journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    db = pub_journal(tmp_path / "pub.db")
    capsys.readouterr()
    return db


def current(db: Path) -> GameState:
    reader = Journal(db, readonly=True)
    try:
        state = reader.load()
        assert state is not None
        return state
    finally:
        reader.close()


def test_a_read_that_fails_keeps_serving(
    journal: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The writer closing the journal under the read (its -wal gone) once killed serve."""
    server = WebServer()
    feed = JournalFeed(journal, ViewPublisher(server))
    assert feed.load() and server.version == 1
    cli("game", "do", "--db", journal, "starter 5C")
    failures = 1

    def failing_once(path: Path, **kwargs: Any) -> Journal:
        nonlocal failures
        if failures:
            failures -= 1
            raise FileNotFoundError(2, "No such file or directory", f"{path}-wal")
        return Journal(path, **kwargs)

    monkeypatch.setattr(feed_module, "Journal", failing_once)
    assert not feed.poll()  # failed: the page keeps the last view
    assert server.version == 1
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(said) == 1 and said[0].startswith("serve: "), said
    assert "pub.db-wal" in said[0] and "the page keeps the last view" in said[0]
    assert feed.poll() and server.version == 2  # read again at the next poll


def test_a_stale_read_is_read_again(journal: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read that lands after the commit's frames are in the -wal but before the commit is
    visible sees the old state, while the files already look changed: the next poll reads
    again and publishes the new state, with nothing changed on disk in between."""
    server = WebServer()
    feed = JournalFeed(journal, ViewPublisher(server))
    assert feed.load() and server.version == 1
    old = current(journal)
    cli("game", "do", "--db", journal, "starter 5C")
    stale = 1

    class CaughtEarly(Journal):
        def load(self) -> GameState | None:
            nonlocal stale
            if stale:
                stale -= 1
                super().load()
                return old  # as a read in place before the commit became visible
            return super().load()

    monkeypatch.setattr(feed_module, "Journal", CaughtEarly)
    assert not feed.poll() and server.version == 1  # the stale read: nothing new
    seen = feed.signature()
    assert feed.poll() and server.version == 2  # read again: the new state is published
    assert feed.signature() == seen  # nothing changed on disk meanwhile
    assert json.loads(server.latest()[1])["view"]["starter"] == "5C"
    assert not feed.poll() and not feed.poll()  # then it settles: nothing more is read
    assert server.version == 2


def test_the_commit_becoming_visible_is_a_change(journal: Path) -> None:
    """Beside a live writer a commit becomes visible when the writer writes the wal-index
    header in the -shm, after the -wal is written: the feed sees that header change alone."""
    feed = JournalFeed(journal, ViewPublisher(WebServer()))
    shm = Path(f"{journal}-shm")
    shm.write_bytes(bytes(32768))
    st = shm.stat()
    before = feed.signature()
    with shm.open("r+b") as f:
        f.write((7).to_bytes(4, "little") * 4)  # a new mxFrame, say, in the same bytes
    os.utime(shm, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert feed.signature() != before


class ScriptedStop(threading.Event):
    """A stop event for ``JournalFeed.run`` driven by the test: each ``wait`` records its
    timeout and runs the next step at once instead of waiting; with no steps left it stops."""

    def __init__(self, *steps: Any) -> None:
        super().__init__()
        self.steps = list(steps)
        self.timeouts: list[float | None] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.timeouts.append(timeout)
        if not self.steps:
            return True
        self.steps.pop(0)()
        return False


def test_the_first_poll_after_a_command_publishes_it(
    journal: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """So a command shows within one poll interval (0.1 s) and the time to read it: no
    second look, settling time or back-off before it is published, and no sleeping in a
    poll (the only wait is the stop event's, between polls)."""

    def no_sleeping(seconds: float) -> None:
        raise AssertionError(f"a poll slept {seconds} s")

    server = WebServer()
    feed = JournalFeed(journal, ViewPublisher(server))
    assert feed.load() and server.version == 1
    took: list[float] = []

    def command() -> None:
        cli("game", "do", "--db", journal, "starter 5C")
        took.append(time.perf_counter())

    def published() -> None:
        took[0] = time.perf_counter() - took[0]
        assert feed.polls == 1 and server.version == 2

    stop = ScriptedStop(command, published, lambda: None)
    monkeypatch.setattr(time, "sleep", no_sleeping)
    feed.run(stop)
    monkeypatch.undo()
    assert stop.timeouts == [POLL_SECONDS] * 4 and POLL_SECONDS == 0.1
    assert feed.polls == 3 and server.version == 2  # confirmed, not published again
    capsys.readouterr()
    with capsys.disabled():
        print(f"\ngame do -> the feed's first poll published it in {took[0] * 1000:.1f} ms")


def test_the_journals_tournament_lock_leaves_the_served_page_the_standings_only(
    journal: Path,
) -> None:
    server = WebServer()
    feed = JournalFeed(journal, ViewPublisher(server))
    assert feed.load()
    first = json.loads(server.latest()[1])
    assert first["locked"] is False
    with Journal(journal) as store:  # a league board's table records the hub's lock
        store.load()
        store.mark("lock", "club")
    assert feed.poll()  # the view is the same, the lock is new: published again
    locked = json.loads(server.latest()[1])
    assert locked["locked"] is True and locked["players"] is None
    assert locked["win_probability"] is None and locked["view"] == first["view"]
    assert not feed.poll() or json.loads(server.latest()[1])["locked"] is True
    with Journal(journal) as store:
        store.load()
        store.mark("unlock", "club")
    assert feed.poll()
    assert json.loads(server.latest()[1])["locked"] is False
