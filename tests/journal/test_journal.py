"""The journal: stored before shown, replayed on start, corrupt files kept, history queries."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, Phase
from pegboard.engine.rules import Rules, Variant
from pegboard.errors import IllegalCommandError, JournalError
from pegboard.journal import Journal, default_db_path, rules_from_json, rules_to_json


def do(store: Journal, *texts: str) -> GameState:
    state = store.state
    assert state is not None
    for text in texts:
        state, _ = store.do(parse_command(text, state.names))
    return state


def test_a_restart_resumes_mid_deal(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    with Journal(db) as store:
        store.new_match(Rules.six_card(), ("Ann", "Bob"))
        state = do(store, "cut 9C 3D", "starter 5C", "play KS", "play 6H", "undo", "play 6D")
    with Journal(db) as again:
        resumed = again.load()
    assert resumed == state
    assert resumed.phase is Phase.PLAY and resumed.table.play is not None
    assert resumed.table.play.count == 16


@pytest.mark.parametrize(
    ("env", "path"),
    [
        pytest.param(
            {"PEGBOARD_DB": "/tmp/p.db", "STATE_DIRECTORY": "/var/lib/pegboard"}, "/tmp/p.db",
            id="pegboard-db-first",
        ),
        pytest.param(
            {"STATE_DIRECTORY": "/var/lib/pegboard:/var/lib/other"},
            "/var/lib/pegboard/pegboard.db", id="systemds-state-directory",
        ),
        pytest.param({}, "/home/ann/.local/share/pegboard/pegboard.db", id="the-users"),
    ],
)  # fmt: skip
def test_the_default_journal_path(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], path: str
) -> None:
    monkeypatch.setenv("HOME", "/home/ann")
    for name in ("PEGBOARD_DB", "STATE_DIRECTORY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert default_db_path() == Path(path)


def test_a_refused_command_is_not_stored(tmp_path: Path) -> None:
    with Journal(tmp_path / "p.db") as store:
        store.new_match(Rules.six_card())
        do(store, "cut 9C 3D")
        with pytest.raises(IllegalCommandError, match="cannot accept 'cut 2C 3C'"):
            do(store, "cut 2C 3C")
        assert store.commands() == ["cut 9C 3D"]


def test_several_commands_are_stored_all_or_none(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    with Journal(db) as store:
        state = store.new_match(Rules.six_card())
        texts = ("cut 9C 3D", "starter 5C", "play KS")
        state, events = store.do_all([parse_command(t, state.names) for t in texts])
        assert store.commands() == list(texts) and events
        refused = [parse_command(t, state.names) for t in ("play 6H", "play 7H", "cut 2C 3C")]
        with pytest.raises(IllegalCommandError):
            store.do_all(refused)  # the last one is refused: none of them is stored
        assert store.commands() == list(texts)
        assert store.state == state
    with Journal(db) as again:
        assert again.load() == state


def test_the_journal_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    with Journal(tmp_path / "p.db") as store:
        assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_corrupt_database_is_moved_aside_not_replaced(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    damaged = b"SQLite format 3\x00" + b"then the pages went missing" * 100
    db.write_bytes(damaged)
    with Journal(db) as store:
        assert store.notice is not None
        assert "could not be read" in store.notice and "corrupt-" in store.notice
        assert store.load() is None
    kept = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(kept) == 1
    assert kept[0].read_bytes() == damaged


def test_a_file_that_is_not_a_database_is_refused_and_kept(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    db.write_bytes(b"this is not a database, it is a shopping list" * 100)
    with pytest.raises(JournalError, match=r"'.*p\.db' is not a pegboard journal \(it is not a"):
        Journal(db)
    assert db.read_bytes() == b"this is not a database, it is a shopping list" * 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.db"]


def test_a_journal_that_does_not_replay_is_reported(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    with Journal(db) as store:
        store.new_match(Rules.six_card())
        do(store, "cut 9C 3D")
    conn = sqlite3.connect(db)
    conn.execute("UPDATE journal SET command = 'play 5H'")
    conn.commit()
    conn.close()
    with Journal(db) as store, pytest.raises(JournalError, match="journal entry 1 'play 5H'"):
        store.load()


def test_no_match_to_do_anything_with(tmp_path: Path) -> None:
    with Journal(tmp_path / "p.db") as store, pytest.raises(JournalError, match="no match"):
        store.do(parse_command("go", ("A", "B")))


@pytest.mark.parametrize("variant", [pytest.param(v, id=v.value) for v in Variant])
def test_rules_round_trip_through_json(variant: Variant) -> None:
    rules = Rules.for_variant(variant, muggins=True)
    assert rules_from_json(rules_to_json(rules)) == rules


def test_history_records_games_deals_hands_and_lurches(tmp_path: Path) -> None:
    with Journal(tmp_path / "p.db") as store:
        store.new_match(Rules.six_card(), ("Ann", "Bob"))
        do(store, "cut 9C 3D", "starter 5C", "play KS", "play 6H", "play KD", "go", "play 2C")
        do(store, "play 2D", "play 8H", "play 7H", "play 9H", "show", "show", "crib AS 3S 4C QH")
        do(store, "peg Ann 60", "peg Ann 60")
        assert [g["winner"] for g in store.finished_games()] == ["Ann"]
        lurches = store.lurches()
        assert [(x.side, x.score, x.lurch) for x in lurches] == [("Bob", 26, "double-skunked")]
        best = store.best_hands(2)
        assert [(h.seat, h.cards, h.points) for h in best] == [
            ("Bob", "6H 8H 7H 9H", 13),
            ("Ann", "KS KD 2C 2D", 8),
        ]
        averages = {a.side: a for a in store.side_averages()}
        assert averages["Ann"].deals == 2 and averages["Ann"].pegging == 1.5
        assert averages["Bob"].crib == 7.0
        # taking back the winning peg takes the game out of the history again
        do(store, "undo")
        assert store.finished_games() == [] and store.lurches() == []


def test_a_malformed_database_is_moved_aside_too(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    with Journal(db) as store:
        store.new_match(Rules.six_card())
        do(store, "cut 9C 3D", "starter 5C")
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])  # a torn file: the header is fine, pages are missing
    with Journal(db) as store:
        assert store.notice is not None and "could not be read" in store.notice
        assert store.load() is None
    assert len([p for p in tmp_path.iterdir() if ".corrupt-" in p.name]) == 1


def test_a_folder_given_as_the_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "keep.txt").write_text("precious")
    with pytest.raises(JournalError, match=r"cannot open '.*games': .*\(expected a database file"):
        Journal(folder)
    assert (folder / "keep.txt").read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games"]


def test_a_database_locked_by_another_writer_is_refused_not_moved_aside(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    with Journal(db) as store:
        store.new_match(Rules.six_card())
        do(store, "cut 9C 3D")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(JournalError, match=r"cannot open '.*p\.db': database is locked"):
            Journal(db, timeout=0.01)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert sorted(p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name) == []
    with Journal(db) as store:
        state = store.load()
        assert state is not None and store.commands() == ["cut 9C 3D"]


def test_a_damaged_page_of_old_history_is_reported_when_read_and_the_rest_still_works(
    tmp_path: Path,
) -> None:
    """The open reads only the pages it needs (no whole-file check): a damaged page of an old
    match is found when something reads it, and said to be a damaged journal; the latest
    match and the stored summaries are read as ever."""
    from tests.journal.games import SCRIPT

    db = tmp_path / "p.db"
    with Journal(db) as store:
        for _ in range(6):
            store.new_match(Rules.six_card(), ("Ann", "Bob"))
            do(store, *SCRIPT)
        store.new_match(Rules.six_card(), ("Ann", "Bob"))
    with sqlite3.connect(db) as conn:
        (page,) = conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'journal' AND pagetype = 'leaf' "
            "ORDER BY pageno LIMIT 1"
        ).fetchone()
        (size,) = conn.execute("PRAGMA page_size").fetchone()
    data = bytearray(db.read_bytes())
    data[(page - 1) * size + 8 : page * size] = bytes(range(256)) * (size // 256 - 1) + bytes(248)
    db.write_bytes(bytes(data))
    with Journal(db, readonly=True) as store:
        assert store.load() is not None  # the latest match, on other pages
        assert store.final_book().games == 6
        with pytest.raises(JournalError, match=r"'.*p\.db' is a damaged pegboard journal \("):
            store.history()  # match 1's entries are on the damaged page
