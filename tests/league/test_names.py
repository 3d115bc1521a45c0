"""Names are the players (README, "Names are the players"): one name played at a second venue is
one player to the league, and the hub says so once, so that two people who share a name are a
question for the director, never a silent merge."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from pegboard.league.store import LeagueStore


def game(number: int, loser: str = "Bob") -> dict[str, object]:
    return {
        "game_id": f"g{number}",
        "revision": 1,
        "variant": "six-card",
        "target": 121,
        "sides": [
            {"name": "Ann", "score": 121, "won": True, "lurch": "none"},
            {"name": loser, "score": 100, "won": False, "lurch": "none"},
        ],
        "ended": f"2026-01-01T20:{number:02d}:00",
    }


def said(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("pegboard")]


def test_a_name_at_a_second_venue_is_said_once_and_counted_as_one_player(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="pegboard.league")
    store = LeagueStore(tmp_path / "league.db")
    store.add("red-lion", "t1", game(1))
    store.add("red-lion", "t2", game(2))  # another board of the same pub: nothing to ask
    assert said(caplog) == []
    store.add("royal-oak", "t1", game(3, loser="Cat"))
    store.add("royal-oak", "t2", game(4, loser="Cat"))
    store.add("red-lion", "t1", game(3, loser="Cat"))  # a copy, from elsewhere: not stored
    store.close()
    store = LeagueStore(tmp_path / "league.db")  # and after a restart, not again
    store.add("royal-oak", "t1", game(5, loser="Cat"))
    assert said(caplog) == [
        "league: 'Ann' has played at red-lion and now at royal-oak: the league counts one "
        "player by one name (two people who share it need a name each: ask the director)"
    ]
    [ann] = [line for line in store.standings() if line.name == "Ann"]
    assert ann.played == 5  # g1 to g5: one player, the copy not counted
    store.close()


def test_a_database_made_before_the_venues_were_kept_learns_them_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = LeagueStore(tmp_path / "league.db")
    store.add("red-lion", "t1", game(1))
    store.close()
    with sqlite3.connect(tmp_path / "league.db") as conn:
        conn.execute("DROP TABLE IF EXISTS venues")  # as an older pegboard left it
    caplog.set_level(logging.INFO, logger="pegboard.league")
    store = LeagueStore(tmp_path / "league.db")
    store.add("royal-oak", "t1", game(2, loser="Cat"))
    store.close()
    assert [line for line in said(caplog) if "has played at" in line] == [
        "league: 'Ann' has played at red-lion and now at royal-oak: the league counts one "
        "player by one name (two people who share it need a name each: ask the director)"
    ]
