"""``JournalFeed``, which follows a journal that ``pegboard game do`` writes in another process,
driven poll by poll from the test: no sleeping, no timing asserted."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from pegboard.cli.main import main
from pegboard.engine.game import GameState
from pegboard.journal import Journal
from pegboard.web import feed as feed_module
from pegboard.web.feed import JournalFeed
from pegboard.web.publisher import ViewPublisher
from pegboard.web.server import WebServer


def pegboard(*args: str | Path) -> None:
    """``pegboard ARGS`` in this process; it must succeed."""
    assert main([str(a) for a in args]) == 0


@pytest.fixture
def journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    db = tmp_path / "pub.db"
    pegboard("game", "new", "--db", db, "--players", "Ann,Bob")
    pegboard("game", "do", "--db", db, "cut 9C 3D")
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
    pegboard("game", "do", "--db", journal, "starter 5C")
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
