"""The journal's marks (issue 24: the tournament lock and its end): stored beside the commands,
readable in their place among them, and invisible to everything that replays the game: the
state, the history, the summaries, the score sheet and a reader older than the marks."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from pegboard.cli.main import main
from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules
from pegboard.errors import JournalError
from pegboard.journal import Journal, _replay
from pegboard.journal.marks import LOCK, UNLOCK, Mark
from tests.journal.games import SCRIPT


def play(store: Journal, commands: tuple[str, ...] | list[str]) -> None:
    for text in commands:
        assert store.state is not None
        store.do(parse_command(text, store.state.names))


def test_a_mark_sits_after_the_last_command_and_changes_no_state(tmp_path: Path) -> None:
    with Journal(tmp_path / "g.db") as store:
        store.new_match(Rules.six_card(), ("Ann", "Bob"))
        assert store.locked() is None
        play(store, SCRIPT[:3])
        state, commands = store.state, store.commands()
        lock = store.mark(LOCK, "club")
        assert store.state == state and store.commands() == commands
        play(store, SCRIPT[3:5])
        store.mark(UNLOCK, "club")
        assert store.locked() is None
        store.mark(LOCK, "club")
        marks = store.marks()
    assert [(m.kind, m.text, m.after) for m in marks] == [
        (LOCK, "club", 3), (UNLOCK, "club", 5), (LOCK, "club", 5),
    ]  # fmt: skip
    assert marks[0] == lock and all(m.match_id == lock.match_id for m in marks)
    with Journal(tmp_path / "g.db", readonly=True) as reader:  # readable by a reader
        assert reader.marks() == marks
        assert reader.locked() == marks[-1]
        assert reader.marks((UNLOCK,)) == [marks[1]]
        assert reader.marks(match_id=(lock.match_id or 0) + 1) == []


def test_replay_history_and_the_sheet_read_the_same_with_marks(tmp_path: Path) -> None:
    plain, marked = tmp_path / "plain.db", tmp_path / "marked.db"
    for path in (plain, marked):
        with Journal(path) as store:
            store.new_match(Rules.six_card(), ("Ann", "Bob"))
            for n, text in enumerate(SCRIPT):
                if path == marked and n % 7 == 0:
                    store.mark(LOCK if n % 2 == 0 else UNLOCK, "club")
                play(store, [text])
            store.new_match(Rules.six_card(), ("Ann", "Bob"))  # the first one made final
            if path == marked:
                store.mark(UNLOCK, "club")
    with Journal(plain, readonly=True) as a, Journal(marked, readonly=True) as b:
        assert b.marks()  # the marks are there
        assert b.load() == a.load()
        assert untimed(b.history()) == untimed(a.history())
        assert b.finished_games() == a.finished_games()
        assert b.side_averages() == a.side_averages()
    for path in (plain, marked):  # the score sheet of the finished game
        out = tmp_path / f"{path.stem}.png"
        assert main(["sheet", "1:1", "--db", str(path), "--out", str(out)]) == 0
    with Image.open(tmp_path / "plain.png") as a_png, Image.open(tmp_path / "marked.png") as b_png:
        assert ImageChops.difference(a_png.convert("L"), b_png.convert("L")).getbbox() is None


def untimed(value: object) -> str:
    """*value*'s repr with its times (when a match began, a game ended) left out."""
    return re.sub(r"'\d{4}-\d\d-\d\dT[^']*'", "'T'", repr(value))


def test_an_older_reader_replays_the_journal_table_as_before(tmp_path: Path) -> None:
    """A pegboard older than the marks reads only ``matches`` and ``journal`` (and knows no
    ``marks``): every row it replays is still a command of the game."""
    with Journal(tmp_path / "g.db") as store:
        state = store.new_match(Rules.six_card(), ("Ann", "Bob"))
        store.mark(LOCK, "club")
        play(store, SCRIPT[:4])
        store.mark(UNLOCK, "club")
        want, match_id = store.state, store.match_id
    conn = sqlite3.connect(tmp_path / "g.db")
    rows = conn.execute(
        "SELECT seq, command FROM journal WHERE match_id = ? ORDER BY seq", (match_id,)
    ).fetchall()
    names = json.loads(conn.execute("SELECT names FROM matches").fetchone()[0])
    conn.close()
    assert [text for _, text in rows] == list(SCRIPT[:4]) and names == ["Ann", "Bob"]
    assert match_id is not None and _replay(match_id, state, rows) == want


def test_a_journal_made_before_the_marks_has_none(tmp_path: Path) -> None:
    with Journal(tmp_path / "g.db") as store:
        store.new_match(Rules.six_card(), ("Ann", "Bob"))
    conn = sqlite3.connect(tmp_path / "g.db")
    conn.execute("DROP TABLE marks")  # as an older pegboard left it
    conn.commit()
    conn.close()
    with Journal(tmp_path / "g.db", readonly=True) as reader:
        assert reader.marks() == [] and reader.locked() is None
        with pytest.raises(JournalError, match="read-only"):
            reader.mark(LOCK, "club")
    with Journal(tmp_path / "g.db") as writer:  # a writer of this version adds the table
        writer.load()
        assert writer.mark(LOCK, "club") == Mark(LOCK, "club", 1, 0, writer.marks()[0].at)
