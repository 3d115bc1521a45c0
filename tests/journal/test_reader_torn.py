"""A reader of a journal no writer has open reads it in place as immutable; a real writer in
another process that opens it, commits and checkpoints during the read makes the read start
again (``Journal.moved``), never a torn snapshot or a damaged journal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.engine.players import standings
from pegboard.journal import Journal
from pegboard.journal.reader import HistoryReader
from tests.journal.games import SCRIPT
from tests.journal.games import cli as ok

HANG_GUARD = 60.0  # seconds: only for a writer that never ends


def _a_writer_starts_a_match(db: Path) -> None:
    """``pegboard game new`` in a process of its own: it opens the journal, makes the latest
    match final (its summary written), commits, and folds its log into the file at close."""
    subprocess.run(
        [sys.executable, "-m", "pegboard", "game", "new", "--players", "Cy,Di", "--db", str(db)],
        check=True, timeout=HANG_GUARD, capture_output=True,
    )  # fmt: skip


def test_a_writer_that_checkpoints_during_a_read_makes_it_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.db"
    for _ in range(2):
        ok("game", "new", "--players", "Ann,Bob", "--match", "single", "--db", db)
        ok("game", "do", "--db", db, *SCRIPT)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.db"]  # no writer: read immutable
    final_books = Journal.final_books
    calls = 0

    def meanwhile(store: Journal) -> object:
        nonlocal calls
        calls += 1
        found = final_books(store)  # match 1's totals: match 2 is the latest yet
        if calls == 1:
            _a_writer_starts_a_match(db)  # now match 2 is final too, and 3 the latest
        return found

    monkeypatch.setattr(Journal, "final_books", meanwhile)
    reader = HistoryReader(db)
    try:
        snapshot = reader.read_now()
    finally:
        reader.close()
    assert reader.retries >= 1
    with Journal(db, readonly=True) as store:
        matches = store.history()
    assert snapshot.current == matches[-1] and snapshot.current.names == ("Cy", "Di")
    assert snapshot.book().games == 2  # match 2's game is counted once, not lost between reads
    assert snapshot.book().standings() == standings(matches)
