"""The outbox's sender side (``journal.outbox.Outbox``): its rows, their deletion, and its
connection noted as open in this process for exactly as long as it is open."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules
from pegboard.errors import JournalError
from pegboard.journal import Journal
from pegboard.journal.outbox import Outbox
from pegboard.journal.readonly import _own_writers


def board_journal(db: Path, games: int) -> None:
    """A league board's journal with *games* won by Ann and queued, none sent."""
    with Journal(db, outbox=True) as journal:
        for _ in range(games):
            state = journal.new_match(Rules.six_card(), ("Ann", "Bob"))
            for text in ("cut 9C 3D", "starter 5C", "peg Bob 50", "peg Ann 60", "peg Ann 61"):
                journal.do(parse_command(text, state.names))


def held_here(db: Path) -> bool:
    st = db.stat()
    return (st.st_dev, st.st_ino) in _own_writers


def test_the_outbox_gives_its_rows_oldest_first_and_forgets_the_acknowledged(
    tmp_path: Path,
) -> None:
    db = tmp_path / "board.db"
    board_journal(db, 3)
    outbox = Outbox(db)
    try:
        rows = outbox.pending()
        assert [json.loads(r.payload)["winner"] for r in rows] == ["Ann"] * 3
        assert [r.id for r in rows] == sorted(r.id for r in rows)
        assert outbox.pending(limit=2) == rows[:2]
        outbox.acknowledge([rows[0].id, rows[2].id])
        outbox.acknowledge([])
        assert outbox.pending() == [rows[1]]
    finally:
        outbox.close()


def test_the_outbox_is_noted_as_open_until_closed(tmp_path: Path) -> None:
    db = tmp_path / "board.db"
    board_journal(db, 0)
    assert not held_here(db)
    outbox = Outbox(db)
    assert held_here(db)
    outbox.close()
    assert not held_here(db)


def test_a_journal_without_an_outbox_is_refused_and_not_left_noted(tmp_path: Path) -> None:
    db = tmp_path / "plain.db"
    Journal(db).close()
    with pytest.raises(JournalError, match=r"cannot read the outbox of '.*plain.db': .*outbox"):
        Outbox(db)
    assert not held_here(db)


def test_a_sent_row_waits_for_its_receipt_with_when_and_how_often_it_was_sent(
    tmp_path: Path,
) -> None:
    db = tmp_path / "board.db"
    board_journal(db, 2)
    outbox = Outbox(db)
    try:
        first, second = outbox.pending()
        assert (first.sent, first.tries) == (None, 0)
        outbox.mark_sent([first.id], 100.0)
        outbox.mark_sent([first.id], 160.5)
        assert [(r.sent, r.tries) for r in outbox.pending()] == [(160.5, 2), (None, 0)]
        assert first.game == (json.loads(first.payload)["game_id"], 1)
        outbox.acknowledge([first.id])
        outbox.mark_sent([first.id], 170.0)  # a PUBACK after the receipt: the row is gone
        assert [r.id for r in outbox.pending()] == [second.id]
    finally:
        outbox.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT id FROM outbox_sent").fetchall() == []


def test_an_outbox_of_version_1_still_works_and_forgets_marks_of_deleted_rows(
    tmp_path: Path,
) -> None:
    db = tmp_path / "board.db"
    board_journal(db, 2)
    with sqlite3.connect(db) as conn:  # as an older pegboard made it: no outbox_sent
        conn.execute("DROP TABLE outbox_sent")
    outbox = Outbox(db)
    try:
        first, second = outbox.pending()
        outbox.mark_sent([first.id, second.id], 5.0)
    finally:
        outbox.close()
    with sqlite3.connect(db) as conn:  # an older sender deletes on PUBACK, marks left behind
        conn.execute("DELETE FROM outbox WHERE id = ?", (second.id,))
    outbox = Outbox(db)
    try:
        assert [(r.id, r.tries) for r in outbox.pending()] == [(first.id, 1)]
    finally:
        outbox.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT id FROM outbox_sent").fetchall() == [(first.id,)]
