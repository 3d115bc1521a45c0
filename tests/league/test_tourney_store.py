"""A tournament night's SQLite: the night is its steps replayed; a refused step stores
nothing; two writers (the service and the director's command line) see each other's steps."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from pegboard.league.tourney_store import TourneyStore, TourneyStoreError
from pegboard.tourney.night import Result, TourneyError, seat
from pegboard.tourney.steps import result_payload, seating_payload


def new_night(path: Path) -> TourneyStore:
    store = TourneyStore.create(path, "club", 3, bye_spread=10, at="t0")
    for name in ("Ann", "Bob", "Cy", "Di", "Eve"):
        store.add("enter", {"name": name}, at="t1", by="director")
    store.add("boards", {"boards": ["pub/b1", "pub/b2"]}, at="t1", by="director")
    drawn = seat(store.night, random.Random(4))
    store.add("seat", seating_payload(drawn.rounds[-1]), at="t2", by="director")
    return store


def test_the_night_is_its_steps_replayed(tmp_path: Path) -> None:
    store = new_night(tmp_path / "t.db")
    p = store.night.rounds[0].pairings[0]
    store.add(
        "report",
        result_payload(Result(1, p.table, p.first, p.second, 121, 99, p.board, "g1", "20:01")),
        at="t3",
        by=p.board,
    )
    before = store.tourney
    store.close()
    again = TourneyStore(tmp_path / "t.db", readonly=True)
    assert again.tourney == before
    assert [row[1] for row in again.steps()] == ["enter"] * 5 + ["boards", "seat", "report"]
    again.close()


def test_a_refused_step_stores_nothing(tmp_path: Path) -> None:
    store = new_night(tmp_path / "t.db")
    count = len(store.steps())
    with pytest.raises(TourneyError, match=r"^result for a pairing that does not exist"):
        store.add("report", result_payload(Result(1, 7, "Ann", "Bob", 121, 9)), at="t", by="x")
    with pytest.raises(TourneyError, match=r"^unknown step 'reset'"):
        store.add("reset", {}, at="t", by="x")
    with pytest.raises(TourneyError, match=r"^a step's 'name' must be str, got 5$"):
        store.add("enter", {"name": 5}, at="t", by="x")
    assert len(store.steps()) == count
    store.refuse("pub/b9", "a board not in the night", '{"game_id": "g"}', at="t4")
    assert [(r.source, r.reason) for r in store.refused()] == [
        ("pub/b9", "a board not in the night")
    ]
    store.close()


def test_two_writers_see_each_others_steps(tmp_path: Path) -> None:
    service = new_night(tmp_path / "t.db")
    director = TourneyStore(tmp_path / "t.db")
    director.add("enter", {"name": "Fay"}, at="t", by="director")
    assert service.night.entrant("Fay") is not None  # read back before it is shown
    p = service.night.rounds[0].pairings[0]
    service.add("report", result_payload(Result(1, p.table, p.first, p.second, 121, 80)), at="t",
                by="pub/b1")  # fmt: skip
    with pytest.raises(TourneyError, match=r"^duplicate result for round 1 table"):
        # the director's store had not read the service's result yet: checked inside the write
        director.add(
            "report", result_payload(Result(1, p.table, p.second, p.first, 121, 80)), at="t",
            by="director",
        )  # fmt: skip
    service.close()
    director.close()


def test_a_database_that_is_not_a_night_or_does_not_replay_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TourneyStoreError, match=r"^no tournament night at "):
        TourneyStore(tmp_path / "none.db")
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE x (y)").connection.close()
    with pytest.raises(TourneyStoreError, match=r"is not a tournament night's database"):
        TourneyStore(other, readonly=True)
    new_night(tmp_path / "t.db").close()
    conn = sqlite3.connect(tmp_path / "t.db")
    conn.execute('UPDATE steps SET payload = \'{"name": "Ann"}\' WHERE seq = 2')
    conn.commit()
    conn.close()
    with pytest.raises(TourneyStoreError, match=r"a stored step does not replay: cannot enter Ann"):
        TourneyStore(tmp_path / "t.db")
    conn = sqlite3.connect(tmp_path / "t.db")
    conn.execute("PRAGMA user_version = 9")
    conn.close()
    with pytest.raises(TourneyStoreError, match=r"made by a newer pegboard \(night schema 9"):
        TourneyStore(tmp_path / "t.db", readonly=True)
