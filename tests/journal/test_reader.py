"""The history reader: its own thread and read-only connection beside the writer; never writes."""

from __future__ import annotations

import os
import queue
import threading
from pathlib import Path

import pytest

from pegboard.engine.commands import parse_command
from pegboard.engine.match import MatchFormat
from pegboard.engine.players import standings
from pegboard.engine.rules import Rules
from pegboard.errors import JournalError
from pegboard.journal import Journal
from pegboard.journal.reader import HistoryReader, HistorySnapshot

BOUND = 10.0  # seconds: the most a read may take to show up on a loaded machine

# Ann wins a single game with Bob double skunked, once cut (the web tests' short game)
GAME = (
    "cut 9C 3D", "starter 5C", "play KS", "play 6H", "play KD", "go", "play 2C", "play 2D",
    "play 8H", "play 7H", "play 9H", "show", "show", "crib AS 3S 4C QH", "peg Ann 60",
    "peg Ann 60",
)  # fmt: skip


def do(store: Journal, *texts: str) -> None:
    for text in texts:
        assert store.state is not None
        store.do(parse_command(text, store.state.names))


def play_a_match(store: Journal, names: tuple[str, str] = ("Ann", "Bob")) -> None:
    store.new_match(Rules.six_card(), names, MatchFormat.SINGLE)
    do(store, *GAME)


class Snapshots:
    """A reader's snapshots as they come, in the test's thread (``get`` waits at most BOUND)."""

    def __init__(self, reader: HistoryReader) -> None:
        self._queue: queue.Queue[HistorySnapshot] = queue.Queue()
        reader.listen(self._queue.put)

    def get(self, asked: int) -> HistorySnapshot:
        """The first snapshot that includes poke *asked*."""
        while True:
            snapshot = self._queue.get(timeout=BOUND)
            if snapshot.asked >= asked:
                return snapshot


def test_the_reader_sees_what_the_writer_commits(tmp_path: Path) -> None:
    with Journal(tmp_path / "p.db") as store:
        play_a_match(store)
        reader = HistoryReader(store.path)
        seen = Snapshots(reader)
        reader.start()
        try:
            first = seen.get(reader.poke())
            assert first.current is not None and first.current.match_id == 1
            assert [(g.match_id, g.names[g.result.winner]) for g in first.recent] == [(1, "Ann")]
            assert [lurch.value for lurch in first.recent[0].result.lurches] == [
                "none",
                "double-skunked",
            ]
            play_a_match(store, ("Ann", "Cat"))  # committed by the writer, after the first read
            second = seen.get(reader.poke())
            assert second.current == store.history()[-1]
            assert second.current is not None and second.current.names == ("Ann", "Cat")
            assert [g.match_id for g in second.recent] == [1, 2]
            assert second.book().standings() == standings(store.history())
            assert reader.snapshot is second and reader.is_current(second.asked)
            # each read replays the latest match only: the one a newer match made final is
            # summarised by the writer in that match's transaction
            assert reader.replayed == 1 + 1
        finally:
            reader.close()


def test_pokes_during_a_read_are_folded_into_one_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Journal(tmp_path / "p.db") as store:
        play_a_match(store)
        gate, inside = threading.Event(), threading.Event()
        latest_match = Journal.latest_match

        def slow(self: Journal) -> object:
            inside.set()
            assert gate.wait(BOUND)
            return latest_match(self)

        monkeypatch.setattr(Journal, "latest_match", slow)
        reader = HistoryReader(store.path)
        seen = Snapshots(reader)
        reader.start()
        try:
            reader.poke()
            assert inside.wait(BOUND)  # the first read is under way
            for _ in range(5):
                last = reader.poke()
            gate.set()
            assert seen.get(last).asked == last
            assert reader.reads == 2
        finally:
            gate.set()
            reader.close()


def test_a_reader_without_a_writer_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    with Journal(path) as store:
        play_a_match(store)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    assert set(before) == {"p.db"}  # the writer's last close folded its -wal in
    reader = HistoryReader(path)
    seen = Snapshots(reader)
    reader.start()
    try:
        snapshot = seen.get(reader.poke())
        assert snapshot.current is not None and snapshot.current.match_id == 1
        again = seen.get(reader.poke())  # the file is opened afresh for each read
        assert again.current == snapshot.current
    finally:
        reader.close()
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    assert after == before


def test_a_reader_beside_a_writer_leaves_the_journal_to_the_writer(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    store = Journal(path)
    play_a_match(store)
    reader = HistoryReader(path)
    seen = Snapshots(reader)
    reader.start()
    try:
        seen.get(reader.poke())
        main = path.read_bytes()
        wal = Path(f"{path}-wal").read_bytes()
        seen.get(reader.poke())
        assert path.read_bytes() == main and Path(f"{path}-wal").read_bytes() == wal
        assert not any(p.name.startswith((".p.db", "p.db.")) for p in tmp_path.iterdir())
    finally:
        reader.close()
        store.close()
    assert sorted(os.listdir(tmp_path)) == ["p.db"]  # the reader closed first: all tidied


def test_a_journal_that_cannot_be_read_keeps_the_last_snapshot(tmp_path: Path) -> None:
    reader = HistoryReader(tmp_path / "nothing.db")
    with pytest.raises(JournalError, match=r"no journal at '.*nothing\.db'"):
        reader.read_now()
    assert reader.snapshot is None
    assert list(tmp_path.iterdir()) == []
