"""A league board's journal (one with the outbox) queues its finished games whoever writes it:
``pegboard game do``, a headless replay and the daemon alike, and a replay whose config has
``[league]`` makes the outbox as the daemon does."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from pegboard.cli.main import main
from pegboard.journal import Journal
from tests.league.conftest import finish_games

KEYS = Path(__file__).parents[1] / "keys"
LEAGUE = '[league]\nbroker = "127.0.0.1"\nvenue = "red-lion"\nboard = "t1"\n'


def outbox(db: Path) -> list[dict[str, object]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT payload FROM outbox ORDER BY id").fetchall()
    return [json.loads(p) for (p,) in rows]


def league_journal(db: Path) -> None:
    """A board journal as the daemon with ``[league]`` leaves it: one game won and sent (the
    outbox emptied by the publisher)."""
    with Journal(db, outbox=True) as store:
        finish_games(store, 1)
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM outbox")


def test_game_do_on_a_league_boards_journal_queues_the_win_and_its_withdrawal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "j3.db"
    league_journal(db)
    argv = ["game", "do", "--db", str(db), "next", "starter 5C"]
    assert main([*argv, "peg Ann 60", "peg Ann 61"]) == 0
    assert "won by Ann" in capsys.readouterr().out
    [won] = outbox(db)
    assert won["winner"] == "Ann" and won["revision"] == 1
    assert main(["game", "do", "--db", str(db), "undo"]) == 0
    _, withdrawn = outbox(db)
    assert withdrawn == {"game_id": won["game_id"], "revision": 2, "withdrawn": True}


def test_game_do_on_a_journal_without_the_outbox_makes_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "home.db"
    with Journal(db) as store:
        finish_games(store, 1)
    argv = ["game", "do", "--db", str(db), "next", "starter 5C"]
    assert main([*argv, "peg Ann 60", "peg Ann 61"]) == 0
    with sqlite3.connect(db) as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    assert "outbox" not in tables and "game_ids" not in tables


def test_a_headless_replay_on_a_league_boards_journal_queues_its_win(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "board.db"
    with Journal(db, outbox=True):
        pass  # a board journal, made by the daemon with [league]; no match yet
    keys = KEYS / "six-card-lurch.keys"
    argv = ["run", "--simulate", "--headless", "--keys", str(keys), "--out", str(tmp_path / "o")]
    config = tmp_path / "plain.toml"
    config.write_text("")
    assert main([*argv, "--db", str(db), "--config", str(config)]) == 0
    [won] = outbox(db)
    assert won["winner"] == "Ann" and [s["score"] for s in won["sides"]] == [121, 73]  # type: ignore[attr-defined]


def _replay_with_a_league(tmp_path: Path) -> Path:
    """A lurch game replayed headless into a new journal with ``[league]`` configured; the
    journal."""
    db = tmp_path / "new.db"
    config = tmp_path / "league.toml"
    config.write_text(LEAGUE)
    keys = KEYS / "six-card-lurch.keys"
    argv = ["run", "--simulate", "--headless", "--keys", str(keys), "--out", str(tmp_path / "o")]
    assert main([*argv, "--db", str(db), "--config", str(config)]) == 0
    return db


def test_a_headless_replay_with_a_league_config_makes_the_outbox_as_the_daemon_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _replay_with_a_league(tmp_path)
    [won] = outbox(db)
    assert won["winner"] == "Ann" and won["revision"] == 1


def test_a_headless_replay_with_a_league_config_says_where_its_game_waits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not a silent exit: the finished game waits in the board's outbox, in the journal named."""
    db = _replay_with_a_league(tmp_path)
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"league: 1 finished game waits in the board's outbox in {str(db)!r}, sent by "
        "'pegboard run' with [league] on that journal"
    )


def test_a_headless_replay_on_a_throwaway_journal_says_the_league_never_gets_its_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "league.toml"
    config.write_text(LEAGUE)
    keys = KEYS / "six-card-lurch.keys"
    argv = ["run", "--simulate", "--headless", "--keys", str(keys), "--out", str(tmp_path / "o")]
    assert main([*argv, "--config", str(config)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "league: 1 finished game queued in a throwaway journal, deleted now, so the league "
        "never gets it (to keep it, replay with --db PATH)"
    )


def test_a_headless_replay_without_a_league_says_nothing_of_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "plain.toml"
    config.write_text("")
    keys = KEYS / "six-card-lurch.keys"
    argv = ["run", "--simulate", "--headless", "--keys", str(keys), "--out", str(tmp_path / "o")]
    assert main([*argv, "--config", str(config)]) == 0
    assert "league" not in capsys.readouterr().out
