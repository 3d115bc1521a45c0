"""Several writers of one journal (issue 21): appends that check where the journal ends, a cheap
look for other writers' commits, one table per journal, and drafts a killed writer left."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.engine.cards import Card, parse_cards
from pegboard.engine.commands import Cut, Peg, Play, Starter
from pegboard.engine.game import Phase
from pegboard.engine.rules import Rules
from pegboard.errors import (
    JournalError,
    JournalInUseError,
    JournalMovedError,
    UnreplayableMatchError,
)
from pegboard.journal import Journal

from .games import cli


def _dealt(db: Path) -> Path:
    """A journal of Ann v Bob after the cut (Bob deals): the starter is next."""
    cli("game", "new", "--db", db, "--players", "Ann,Bob")
    cli("game", "do", "--db", db, "cut 9H 3C")
    return db


def _replays(db: Path) -> None:
    with Journal(db, readonly=True) as reader:
        assert reader.load() is not None
        reader.history()


def test_a_writer_behind_the_journal_is_refused_when_its_command_no_longer_fits(
    tmp_path: Path,
) -> None:
    db = _dealt(tmp_path / "g.db")
    table, other = Journal(db), Journal(db)
    table.load()
    other.load()
    other.do(Starter(Card.parse("9H")))  # 'pegboard game do' beside the table
    before = table.catch_ups
    with pytest.raises(
        JournalMovedError,
        match=r"not stored: 'starter 9H' no longer fits; another writer changed the journal "
        r"\('starter 9H' was stored meanwhile\), and now cannot accept 'starter 9H' in phase PLAY",
    ):
        table.do(Starter(Card.parse("9H")))
    # nothing half-stored; the state jumped to the journal's, and the caller can tell
    assert table.catch_ups == before + 1
    assert table.state is not None and table.state.phase is Phase.PLAY
    assert table.commands() == ["cut 9H 3C", "starter 9H"]
    _replays(db)
    table.close()
    other.close()


def test_a_writer_behind_the_journal_applies_a_command_that_still_fits(tmp_path: Path) -> None:
    db = _dealt(tmp_path / "g.db")
    table, other = Journal(db), Journal(db)
    table.load()
    other.load()
    other.do(Starter(Card.parse("9H")))
    state, _ = table.do(Play(Card.parse("5D")))  # caught up first: the play fits the new state
    assert table.catch_ups == 1
    assert state.table.play is not None and state.table.play.count == 5
    assert table.commands() == ["cut 9H 3C", "starter 9H", "play 5D"]
    assert other.do(Peg(0, 2))[0].table.scores[0] == 2  # and the other writer catches up too
    _replays(db)
    table.close()
    other.close()


def test_refresh_says_whether_another_writer_committed_and_replays_only_what_is_new(
    tmp_path: Path,
) -> None:
    db = _dealt(tmp_path / "g.db")
    with Journal(db) as table, Journal(db) as other:
        table.load()
        other.load()
        assert table.refresh() is False
        table.do(Starter(Card.parse("9H")))
        assert table.refresh() is False  # its own commit is not news
        assert other.refresh() is True
        assert other.state == table.state
        assert other.refresh() is False
        other.new_match(Rules.six_card(), ("Cy", "Di"))  # 'pegboard game new' beside it
        assert table.refresh() is True
        assert table.match_id == other.match_id and table.state is not None
        assert table.state.names == ("Cy", "Di")
        other.do(Cut(parse_cards("9H 3C")))
        assert table.refresh() is True and table.state == other.state


def test_a_second_table_on_one_journal_is_refused_naming_the_first(tmp_path: Path) -> None:
    db = _dealt(tmp_path / "g.db")
    with Journal(db, table="pegboard run") as first:
        first.load()
        with pytest.raises(
            JournalInUseError,
            match=rf"the journal '{db}' is in use by pegboard run \(pid {os.getpid()}, since "
            r"\d\d:\d\d:\d\d\); stop it first \(sudo systemctl stop pegboard\), or use "
            r"'pegboard game do', which works beside it",
        ):
            Journal(db, table="pegboard run --simulate")
        with Journal(db) as beside:  # a short command holds nothing: it works beside it
            beside.load()
            beside.do(Starter(Card.parse("9H")))
        # the refused table's descriptor did not drop the first's locks: it still writes
        assert first.refresh() is True
        first.do(Play(Card.parse("5D")))
    with Journal(db, table="pegboard run") as again:  # let go on close: a restart takes it
        assert again.load() is not None
    _replays(db)


def test_a_table_in_another_process_is_named_by_its_pid(tmp_path: Path) -> None:
    db = _dealt(tmp_path / "g.db")
    holder = (
        "import sys\n"
        "from pegboard.journal import Journal\n"
        "j = Journal(sys.argv[1], table='pegboard run')\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n"
        "j.close()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", holder, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        with pytest.raises(JournalInUseError, match=rf"in use by pegboard run \(pid {proc.pid},"):
            Journal(db, table="pegboard run --simulate")
    finally:
        proc.communicate("", timeout=60)
    with Journal(db, table="pegboard run --simulate") as table:  # gone: free again
        assert table.load() is not None


def test_a_match_that_cannot_be_replayed_names_its_entry(tmp_path: Path) -> None:
    db = _dealt(tmp_path / "g.db")
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "INSERT INTO journal (match_id, command, at) VALUES (1, 'play 5D', '2026-01-01')"
        )
    conn.close()
    replay = r"journal entry 2 'play 5D' of match 1 cannot be replayed: cannot accept 'play 5D'"
    with Journal(db) as store, pytest.raises(UnreplayableMatchError, match=replay) as caught:
        store.load()
    assert (caught.value.match_id, caught.value.seq, caught.value.entry) == (1, 2, "play 5D")
    assert isinstance(caught.value, JournalError)


def _dead_pid() -> int:
    """The pid of a process that has ended."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait(timeout=60)
    return proc.pid


def test_a_writer_removes_drafts_of_dead_processes_and_keeps_a_live_ones(tmp_path: Path) -> None:
    db = _dealt(tmp_path / "g.db")
    dead, live = _dead_pid(), os.getppid()
    stale = [tmp_path / f".g.db.new-{dead}{suffix}" for suffix in ("", "-wal", "-shm", "-journal")]
    kept = [tmp_path / f".g.db.new-{live}", tmp_path / f".g.db.new-{live}-wal"]
    other = tmp_path / f".other.db.new-{dead}"
    for path in (*stale, *kept, other):
        path.write_bytes(b"draft")
    with Journal(db, readonly=True):
        assert all(path.exists() for path in stale)  # a reader removes nothing
    with Journal(db):
        pass
    assert not any(path.exists() for path in stale)
    assert all(path.exists() for path in kept) and other.exists()


def test_a_new_journal_removes_a_dead_processes_draft_too(tmp_path: Path) -> None:
    draft = tmp_path / f".g.db.new-{_dead_pid()}"
    draft.write_bytes(b"half a journal")
    with Journal(tmp_path / "g.db"):
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"]
