"""A reader beside ``pegboard game do``, which opens and closes the journal at any moment: a
``-wal`` or ``-shm`` that goes while it is read makes the read start again, and the reader
gets the journal's data (the last writer to close folds its log into the file), creates
nothing beside it, and never fails for it.

The writer's close is made to happen exactly between two steps of the read (a hook on the
step), so no timing is involved.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pegboard.errors import JournalError
from pegboard.journal import Journal, readonly
from tests.journal.games import cli as ok
from tests.journal.games import journal_with_a_log, scripted_journal


def _journal_with_a_log(tmp_path: Path, *, shm: bool) -> Path:
    """A journal whose second match (Cy v Di) is in its ``-wal`` only, and, with *shm*, a
    ``-shm`` nobody holds: as a writer that is about to close, or that was killed, leaves it."""
    return journal_with_a_log(tmp_path / "live", tmp_path / "k", shm=shm)


def _the_last_writer_closes(db: Path) -> None:
    """What ``game do``'s close does: fold the log into the file, remove the -wal and -shm."""
    conn = sqlite3.connect(db)
    conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    conn.close()
    assert sorted(p.name for p in db.parent.iterdir()) == ["p.db"]


def _closing_before(step: Callable[..., object], db: Path) -> Callable[..., object]:
    """*step*, with the writer closing the journal just before its first call."""
    calls = 0

    def hooked(*args: object) -> object:
        nonlocal calls
        calls += 1
        if calls == 1:
            _the_last_writer_closes(db)
        return step(*args)

    return hooked


def _names(db: Path) -> tuple[str, ...]:
    reader = Journal(db, readonly=True)
    try:
        state = reader.load()
        assert state is not None
        return state.names
    finally:
        reader.close()


def test_a_log_that_goes_before_it_is_copied_is_read_from_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _journal_with_a_log(tmp_path, shm=False)
    hooked = _closing_before(readonly._checkpointed_copy, db)
    monkeypatch.setattr(readonly, "_checkpointed_copy", hooked)
    assert _names(db) == ("Cy", "Di")
    assert sorted(p.name for p in db.parent.iterdir()) == ["p.db"]


def test_a_shm_that_goes_before_its_lock_is_asked_is_read_from_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Taken for a live writer, it was read in place, and SQLite made a -wal and -shm anew."""
    db = _journal_with_a_log(tmp_path, shm=True)
    hooked = _closing_before(readonly._writer_alive, db)
    monkeypatch.setattr(readonly, "_writer_alive", hooked)
    assert _names(db) == ("Cy", "Di")
    assert sorted(p.name for p in db.parent.iterdir()) == ["p.db"]


def test_game_show_reads_on_when_the_writer_closes_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _journal_with_a_log(tmp_path, shm=False)
    capsys.readouterr()
    hooked = _closing_before(readonly._checkpointed_copy, db)
    monkeypatch.setattr(readonly, "_checkpointed_copy", hooked)
    ok("game", "show", "--db", str(db))
    assert "Cy" in capsys.readouterr().out


def test_a_file_that_keeps_moving_is_one_line_after_a_few_tries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _journal_with_a_log(tmp_path, shm=False)
    tries = 0

    def moving(path: Path, wal: Path) -> bytes:
        nonlocal tries
        tries += 1
        raise readonly._Moved

    monkeypatch.setattr(readonly, "_checkpointed_copy", moving)
    with pytest.raises(JournalError, match=r"^cannot open '.*p\.db': database is busy: a writer "):
        Journal(db, readonly=True)
    assert tries == readonly._ATTEMPTS


def test_a_commit_made_while_the_file_is_copied_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``game do`` in another process opens, commits and closes (folding its log into the
    file) while the reader copies the file: the copy may be torn, so it is read again."""
    db = scripted_journal(tmp_path / "p.db")
    real = readonly._copy_unless_beside_a_writer
    calls = 0

    def a_writer_meanwhile(path: Path) -> bytes | None:
        nonlocal calls
        calls += 1
        copy = real(path)
        if calls == 1:
            new = ["game", "new", "--players", "Cy,Di", "--db", str(db)]
            subprocess.run(
                [sys.executable, "-m", "pegboard", *new], check=True, capture_output=True
            )
        return copy

    monkeypatch.setattr(readonly, "_copy_unless_beside_a_writer", a_writer_meanwhile)
    assert _names(db) == ("Cy", "Di")
    assert calls == 2
