"""The league's running totals: equal to the table computed from scratch over every stored
game, whatever was stored, revised or withdrawn; built once for a database made before them;
and a new game reads no older one."""

from __future__ import annotations

import json
import logging
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pegboard.engine.rules import Rules, lurch_of
from pegboard.league.standings import FinishedGame, read_game, standings
from pegboard.league.store import SCHEMA_VERSION, LeagueStore
from tests.league.parsed import count_parsed

NAMES = ("Ann", "Bob", "Cat", "Dan")
BOARDS = (("red-lion", "t1"), ("red-lion", "t2"), ("crown", "t1"))


@st.composite
def payloads(draw: st.DrawFn, game_id: str, revision: int) -> dict[str, Any]:
    """A finished game a board could send: one winner on the target or a little past it, every
    loser below it with the lurch its score gives under the variant's lines."""
    rules = Rules.for_variant(draw(st.sampled_from(("six-card", "three-handed", "five-card"))))
    target = rules.target
    names = draw(st.lists(st.sampled_from(NAMES), min_size=rules.sides, max_size=rules.sides))
    winner = draw(st.integers(0, len(names) - 1))  # a name twice too, above
    top = draw(st.integers(target, target + 5))
    scores = [top if i == winner else draw(st.integers(0, target - 1)) for i in range(len(names))]
    sides = [
        {
            "name": name,
            "score": scores[i],
            "won": i == winner,
            "lurch": "none" if i == winner else lurch_of(rules, scores[i]).value,
        }
        for i, name in enumerate(names)
    ]
    ended = f"2026-01-01T00:{draw(st.integers(0, 9)):02d}"  # ties in the order they ended
    return {
        "game_id": game_id,
        "revision": revision,
        "variant": rules.variant.value,
        "target": target,
        "sides": sides,
        "ended": ended,
    }


@st.composite
def histories(draw: st.DrawFn) -> list[tuple[str, str, dict[str, Any]]]:
    """Messages as the service takes them: new games, copies, revisions (higher, lower, or
    from another board) and withdrawn wins (of stored games and of unknown ids)."""
    messages: list[tuple[str, str, dict[str, Any]]] = []
    for _ in range(draw(st.integers(1, 25))):
        game_id = f"g{draw(st.integers(0, 8))}"
        venue, board = draw(st.sampled_from(BOARDS))
        revision = draw(st.integers(1, 4))
        if draw(st.integers(0, 3)) == 0:
            messages.append((venue, board, {"game_id": game_id, "revision": revision,
                                            "withdrawn": True}))  # fmt: skip
        else:
            messages.append((venue, board, draw(payloads(game_id, revision))))
    return messages


def from_scratch(messages: list[tuple[str, str, dict[str, Any]]]) -> list[FinishedGame]:
    """The games that stand after *messages*, by the store's rules, without the store."""
    kept: dict[str, tuple[str, str, dict[str, Any]]] = {}
    order: list[str] = []
    for venue, board, payload in messages:
        old = kept.get(payload["game_id"])
        if old is not None and not (
            payload["revision"] > old[2]["revision"] and (venue, board) == old[:2]
        ):
            continue
        if old is None:
            order.append(payload["game_id"])
        kept[payload["game_id"]] = (venue, board, payload)
    games = [
        read_game(kept[i][2], kept[i][0], kept[i][1])
        for i in order
        if not kept[i][2].get("withdrawn")
    ]
    return sorted(games, key=lambda g: g.ended)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=histories(), one_by_one=st.booleans())
def test_the_running_totals_equal_the_table_from_scratch(
    messages: list[tuple[str, str, dict[str, Any]]], one_by_one: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = LeagueStore(Path(folder) / "league.db")
        try:
            if one_by_one:
                for venue, board, payload in messages:
                    store.add(venue, board, payload)
            else:
                store.add_all(messages)
            games = from_scratch(messages)
            assert store.standings() == standings(games) == standings(store.games())
            assert store.count() == len(games)
            assert store.latest(3) == games[::-1][:3]
        finally:
            store.close()


def old_league(db: Path, games: list[tuple[str, str, dict[str, Any]]]) -> None:
    """A league database as pegboard kept it before the running totals (schema 0)."""
    with sqlite3.connect(db) as conn:
        conn.execute(
            "CREATE TABLE games (game_id TEXT PRIMARY KEY, revision INTEGER NOT NULL, venue "
            "TEXT NOT NULL, board TEXT NOT NULL, withdrawn INTEGER NOT NULL, payload TEXT NOT "
            "NULL, received TEXT NOT NULL)"
        )
        conn.executemany(
            "INSERT INTO games VALUES (?,?,?,?,?,?,'2026-01-01')",
            [
                (p["game_id"], p["revision"], v, b, int(bool(p.get("withdrawn"))), json.dumps(p))
                for v, b, p in games
            ],
        )
    conn.close()


def game(number: int, winner: str, loser: str, score: int) -> dict[str, Any]:
    return {
        "game_id": f"g{number}",
        "revision": 1,
        "variant": "six-card",
        "target": 121,
        "sides": [
            {"name": winner, "score": 121, "won": True, "lurch": "none"},
            {
                "name": loser,
                "score": score,
                "won": False,
                "lurch": "lurched" if score < 91 else "none",
            },
        ],
        "ended": f"2026-01-01T00:{number:02d}",
    }


def test_an_older_league_gets_its_totals_built_once_when_the_service_opens_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "league.db"
    bad = game(3, "Cat", "Dan", 130)  # stored before the check was strict: left out
    bad["sides"][1]["lurch"] = "none"
    stored = [
        ("red-lion", "t1", game(1, "Ann", "Bob", 80)),
        ("red-lion", "t1", game(2, "Bob", "Ann", 100)),
        ("red-lion", "t1", bad),
        ("red-lion", "t2", {"game_id": "g4", "revision": 2, "withdrawn": True}),
    ]
    old_league(db, stored)
    reader = LeagueStore(db, readonly=True)  # a reader computes it from scratch, as before
    before = reader.standings(), reader.count(), reader.latest(12)
    reader.close()
    assert [line.name for line in before[0]] == ["Ann", "Bob"] and before[1] == 2
    caplog.set_level(logging.INFO, logger="pegboard.league")
    store = LeagueStore(db)
    assert "building the standings' totals of 3 stored games" in caplog.text
    try:
        assert (store.standings(), store.count(), store.latest(12)) == before
        assert store._conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        store.add("red-lion", "t1", game(5, "Ann", "Cat", 120))
        assert store.standings() == standings(store.games())
    finally:
        store.close()
    caplog.clear()
    again = LeagueStore(db)  # built once: opening it again reads no stored game
    again.close()
    assert "building the standings' totals" not in caplog.text
    reader = LeagueStore(db, readonly=True)
    try:
        assert reader.count() == 3 and reader.standings()[0].name == "Ann"
    finally:
        reader.close()


def test_a_league_made_by_a_newer_pegboard_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    LeagueStore(db).close()
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(Exception, match=r"made by a newer pegboard \(league schema 2; this one"):
        LeagueStore(db)


@pytest.mark.parametrize("stored", [pytest.param(n, id=f"{n}-stored") for n in (10, 300)])
def test_a_new_game_reads_only_the_latest_games_however_many_are_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stored: int
) -> None:
    store = LeagueStore(tmp_path / "league.db")
    store.add_all([("red-lion", "t1", game(n % 60, "Ann", "Bob", 100) | {"game_id": f"x{n}"})
                   for n in range(stored)])  # fmt: skip
    read = count_parsed(monkeypatch)
    try:
        store.add("red-lion", "t1", game(59, "Ann", "Bob", 100) | {"game_id": "new"})
        table, latest, count = store.standings(), store.latest(12), store.count()
    finally:
        store.close()
    assert len(read) <= 1 + 12, f"one new game read {len(read)} games of {stored + 1}"
    assert count == stored + 1 and table[0].played == stored + 1 and latest[0].game_id == "new"
