"""A journal (or league database) with a left-over ``-wal`` and no ``-shm``: the readers read it,
the log's commits included, and create, change and rename nothing beside it.

No writer can be running then (a writer always has the ``-shm``), so opening the file in place
would make SQLite create a ``-shm`` of its own: the readers work on a private copy instead.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pegboard.cli.main import main
from pegboard.league.store import LeagueStore
from tests.journal.games import READERS, journal_with_a_log, listing


def _left_over(source: Path, folder: Path) -> Path:
    """*source* copied into *folder* with its ``-wal`` but no ``-shm``, as a writer that stopped
    without a checkpoint leaves it; the copy's log holds commits its file has not yet."""
    folder.mkdir()
    copy = folder / source.name
    shutil.copyfile(source, copy)
    shutil.copyfile(f"{source}-wal", f"{copy}-wal")
    return copy


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    """The scripted game finished, then a second match begun in the left-over log only."""
    return journal_with_a_log(tmp_path / "live", tmp_path / "walt")


@pytest.fixture
def league(tmp_path: Path) -> Path:
    """An empty league database whose tables are in its left-over log only."""
    store = LeagueStore(tmp_path / "service" / "league.db")
    try:
        return _left_over(store.path, tmp_path / "league")
    finally:
        store.close()


@pytest.mark.parametrize("argv", READERS)
def test_the_journal_readers_create_and_change_nothing(
    journal: Path, tmp_path: Path, argv: list[str]
) -> None:
    before = listing(journal.parent)
    assert sorted(before) == ["p.db", "p.db-wal"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    argv = [a.format(elsewhere=elsewhere) for a in argv]
    assert main([*argv, "--db", str(journal)]) == 0
    assert listing(journal.parent) == before


def test_the_left_over_log_is_read(journal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The second match is only in the log: the reader applies it, to its copy."""
    assert main(["history", "--db", str(journal)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("match 2  ") and "Cy v Di" in out
    assert "Ann v Bob: Ann won the match" in out


def test_league_standings_create_and_change_nothing(
    league: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = listing(league.parent)
    assert sorted(before) == ["league.db", "league.db-wal"]
    assert main(["league", "standings", "--db", str(league)]) == 0
    assert capsys.readouterr().err == ""
    assert listing(league.parent) == before


def test_the_private_copy_is_removed(
    journal: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The temporary copy goes too: nothing is left in the temporary folder."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr("tempfile.tempdir", None)  # read TMPDIR afresh
    assert main(["history", "--db", str(journal)]) == 0
    assert os.listdir(scratch) == []
