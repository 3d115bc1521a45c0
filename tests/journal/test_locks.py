"""A connection's POSIX locks survive readers in its own process (``readonly``'s notes).

Closing any descriptor of a file drops every POSIX lock the process holds on it; a writer whose
shared lock is gone looks gone to the next process that closes the journal, which deletes the
``-wal`` and ``-shm`` under it, and its later commits are lost at a power cut.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from pegboard.engine.rules import Rules
from pegboard.journal import Journal
from pegboard.journal.reader import HistoryReader
from pegboard.journal.readonly import _own_writers, read_only_connection
from pegboard.league.store import LeagueStore

WORKER = Path(__file__).with_name("lock_worker.py")
ROOT = Path(__file__).resolve().parents[2]


def _locks_held_here(path: Path) -> list[tuple[str, str, str]]:
    """The POSIX locks this process holds on *path*, as ``/proc/locks`` lists them (Linux):
    (READ or WRITE, first byte, last byte)."""
    inode, pid = os.stat(path).st_ino, os.getpid()
    held = []
    for line in Path("/proc/locks").read_text().splitlines():
        # "3: POSIX  ADVISORY  READ 4242 08:01:123456 128 128"; a waiter's has "->" after "3:"
        fields = line.split()
        if fields[1] != "POSIX" or int(fields[4]) != pid:
            continue
        if int(fields[5].rsplit(":", 1)[1]) == inode:
            held.append((fields[3], fields[6], fields[7]))
    return sorted(held)


def test_readers_in_the_writers_own_process_leave_its_locks_on_the_journal(
    tmp_path: Path,
) -> None:
    db, shm = tmp_path / "p.db", tmp_path / "p.db-shm"
    writer = Journal(db)
    writer.new_match(Rules.six_card(), ("Ann", "Bob"))
    before = _locks_held_here(db), _locks_held_here(shm)
    # the writer's shared lock on the file, and on the -shm's DMS byte (128)
    assert before[0] and ("READ", "128", "128") in before[1]
    with Journal(db, readonly=True) as reader:  # the pub page's
        reader.load()
    history = HistoryReader(db)  # the daemon's history reader
    history.read_now()
    history.close()
    Journal(db).close()  # a second writer here probes the file as well
    assert (_locks_held_here(db), _locks_held_here(shm)) == before
    writer.close()
    assert not Path(f"{db}-wal").exists() and not shm.exists()  # the last one out tidies up
    assert _locks_held_here(db) == []


def test_a_league_reader_in_the_services_own_process_leaves_its_locks(tmp_path: Path) -> None:
    db, shm = tmp_path / "league.db", tmp_path / "league.db-shm"
    service = LeagueStore(db)
    before = _locks_held_here(db), _locks_held_here(shm)
    assert before[0] and ("READ", "128", "128") in before[1]
    reader = LeagueStore(db, readonly=True)  # 'league standings' beside it, in its process
    assert reader.count() == 0
    reader.close()
    assert (_locks_held_here(db), _locks_held_here(shm)) == before
    service.close()


def test_a_writer_read_in_its_own_process_keeps_its_log_and_commits_when_another_writes(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.db"
    worker = subprocess.Popen(
        [sys.executable, str(WORKER), str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        assert worker.stdout is not None
        # 'pegboard game do' closed beside a live writer: it must leave the writer's log alone
        assert worker.stdout.readline() == "p.db p.db-shm p.db-wal\n"
        assert worker.stdout.readline() == "committed\n"
    finally:
        os.kill(worker.pid, signal.SIGKILL)  # the power cut
        worker.wait()
    with Journal(db, readonly=True) as reader:
        reader.load()
        assert reader.commands()[-2:] == ["peg Bob 5", "peg Ann 7"]


def test_a_close_that_fails_keeps_the_connection_noted_as_open(tmp_path: Path) -> None:
    """A connection closed from another thread is not closed (sqlite3 refuses): it still
    holds its locks, so this process must still count it as open."""
    db = tmp_path / "p.db"
    writer = Journal(db)
    try:
        conn, live = read_only_connection(db)
        assert live  # in place, beside this process's writer
        key = (db.stat().st_dev, db.stat().st_ino)
        before = _own_writers[key]
        failed: list[BaseException] = []

        def close_elsewhere() -> None:
            try:
                conn.close()
            except sqlite3.ProgrammingError as e:
                failed.append(e)

        other = threading.Thread(target=close_elsewhere)
        other.start()
        other.join(30)
        assert failed and _own_writers[key] == before
        assert conn.execute("SELECT 1").fetchone() == (1,)  # still open
        conn.close()
        assert _own_writers[key] == before - 1
    finally:
        writer.close()
