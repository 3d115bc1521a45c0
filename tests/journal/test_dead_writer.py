"""Readers beside a writer's ``-wal`` and ``-shm``: in place while the writer lives; once it was
killed (``kill -9`` leaves both files), on a private copy, so that SQLite does not rebuild the
dead writer's ``-shm`` beside the file. Either way they see the last committed data."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.cli.main import main
from pegboard.engine.rules import Rules
from pegboard.journal import Journal
from pegboard.journal.readonly import read_only_connection
from tests.journal.games import READERS, listing, scripted_journal
from tests.league.conftest import finish_games

WORKER = Path(__file__).with_name("writer_worker.py")
ROOT = Path(__file__).resolve().parents[2]


def _writer(*argv: str) -> subprocess.Popen[str]:
    """The worker started with *argv*, once it has committed and said ``ready``."""
    process = subprocess.Popen(
        [sys.executable, str(WORKER), *argv],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    return process


def _killed(process: subprocess.Popen[str]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """The scripted game finished, then a writer in another process that began a second match
    (in its log only) and is still running."""
    (tmp_path / "board").mkdir()
    db = scripted_journal(tmp_path / "board" / "p.db")
    writer = _writer("journal", str(db))
    yield db, writer
    if writer.poll() is None:
        _killed(writer)


@pytest.fixture
def league(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """A league service's database with two games, its writer still running."""
    with Journal(tmp_path / "b.db", outbox=True) as store:
        finish_games(store, 2, loser=100)
    with sqlite3.connect(tmp_path / "b.db") as conn:
        rows = conn.execute("SELECT payload FROM outbox ORDER BY id").fetchall()
    payloads = tmp_path / "payloads.json"
    payloads.write_text(json.dumps([json.loads(p) for (p,) in rows]))
    (tmp_path / "service").mkdir()
    db = tmp_path / "service" / "league.db"
    writer = _writer("league", str(db), str(payloads))
    yield db, writer
    if writer.poll() is None:
        _killed(writer)


def test_a_reader_beside_a_live_writer_reads_in_place_and_changes_neither_file_nor_log(
    journal: tuple[Path, subprocess.Popen[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = journal
    names = sorted(p.name for p in db.parent.iterdir())
    assert names == ["p.db", "p.db-shm", "p.db-wal"]
    data, log = db.read_bytes(), Path(f"{db}-wal").read_bytes()
    with Journal(db, readonly=True) as reader:
        assert reader.live  # in place: it would see the writer's next commit
    assert main(["history", "--db", str(db)]) == 0
    assert "Cy v Di" in capsys.readouterr().out
    # a reader in place may touch the -shm (SQLite's read marks), never the file or its log
    assert sorted(p.name for p in db.parent.iterdir()) == names
    assert (db.read_bytes(), Path(f"{db}-wal").read_bytes()) == (data, log)


def test_a_reader_beside_this_processs_own_writer_reads_in_place(tmp_path: Path) -> None:
    """``F_GETLK`` cannot see this process's own lock: the writer says it is here."""
    db = scripted_journal(tmp_path / "p.db")
    with Journal(db) as writer:
        writer.load()
        with Journal(db, readonly=True) as reader:
            assert reader.live
            before = reader.history()
            writer.new_match(Rules.six_card(), ("Cy", "Di"))
            assert len(reader.history()) == len(before) + 1  # the writer's commit, seen
    with Journal(db, readonly=True) as reader:
        assert not reader.live  # no writer now: a copy


@pytest.mark.parametrize("argv", READERS)
def test_readers_beside_a_killed_writer_leave_every_file_as_it_was(
    journal: tuple[Path, subprocess.Popen[str]],
    tmp_path: Path,
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    db, writer = journal
    _killed(writer)
    before = listing(db.parent)
    assert sorted(before) == ["p.db", "p.db-shm", "p.db-wal"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    argv = [a.format(elsewhere=elsewhere) for a in argv]
    assert main([*argv, "--db", str(db)]) == 0
    assert listing(db.parent) == before


def test_history_beside_a_killed_writer_sees_its_last_commit(
    journal: tuple[Path, subprocess.Popen[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, writer = journal
    _killed(writer)
    with Journal(db, readonly=True) as reader:
        assert not reader.live  # a copy: nobody will commit again
    assert main(["history", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("match 2  ") and "Cy v Di" in out  # only in the dead writer's log
    assert "Ann v Bob: Ann won the match" in out


def test_league_standings_beside_a_killed_service_leave_every_file_and_see_its_games(
    league: tuple[Path, subprocess.Popen[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, writer = league
    _killed(writer)
    before = listing(db.parent)
    assert sorted(before) == ["league.db", "league.db-shm", "league.db-wal"]
    assert main(["league", "standings", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["1", "Ann", "2", "2", "0", "4", "+42"]
    assert listing(db.parent) == before


def test_league_standings_beside_a_live_service_read_in_place(
    league: tuple[Path, subprocess.Popen[str]],
) -> None:
    db, _ = league
    conn, live = read_only_connection(db)
    try:
        assert live and conn.execute("SELECT COUNT(*) FROM games").fetchone() == (2,)
    finally:
        conn.close()
