"""One bad entry never breaks everything: a match that cannot be replayed is named once and
left out by the readers, and ``pegboard game repair`` ends it at its last good entry."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.journal.games import SCRIPT
from tests.journal.games import cli as ok

from .helpers import cli


def forged(folder: Path) -> Path:
    """Two finished games, the second match given an entry it refuses, then a third begun."""
    db = folder / "p.db"
    for _ in range(2):
        ok("game", "new", "--players", "Ann,Bob", "--match", "single", "--db", db)
        ok("game", "do", "--db", db, *SCRIPT)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO journal (match_id, command, at) VALUES (2, 'starter 9H', "
            "'2025-03-01T20:00:00.000+00:00')"
        )
    ok("game", "new", "--players", "Ann,Bob", "--db", db)
    return db


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["history"], id="history"),
        pytest.param(["stats", "players"], id="stats players"),
        pytest.param(["stats", "players", "--json"], id="stats players --json"),
    ],
)
def test_a_match_that_cannot_be_replayed_is_named_once_and_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    db = forged(tmp_path)
    capsys.readouterr()
    status, out, err = cli(capsys, *argv, "--db", str(db))
    assert status == 0
    assert err.count("match 2 left out") == 1
    assert "journal entry" in err and "'starter 9H'" in err and "game repair" in err
    if argv[-1] == "--json":
        data = json.loads(out)
        assert [item["match"] for item in data["left_out"]] == [2]
        assert data["players"][0]["games_played"] == 1
    elif argv == ["history"]:
        assert "match 1 " in out and "match 2 " not in out


def test_the_sheet_of_another_match_is_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = forged(tmp_path)
    capsys.readouterr()
    status, out, _ = cli(capsys, "sheet", "1:1", "--out", str(tmp_path / "s.svg"), "--db", str(db))
    assert status == 0 and "match 1 game 1" in out


def test_repair_keeps_a_copy_and_ends_the_match_at_its_last_good_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = forged(tmp_path)
    capsys.readouterr()
    status, out, _ = cli(capsys, "game", "repair", "--db", str(db))
    assert status == 0
    assert "match 2: ended before journal entry" in out
    (copy,) = tmp_path.glob("p.db.before-repair-*")
    assert str(copy) in out
    with sqlite3.connect(copy) as conn:  # the copy has the bad entry still
        assert conn.execute("SELECT COUNT(*) FROM journal WHERE command = 'starter 9H'").fetchone()
    status, out, err = cli(capsys, "stats", "players", "--json", "--db", str(db))
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["left_out"] == [] and data["players"][0]["games_played"] == 2


def test_repair_of_a_good_journal_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "p.db"
    ok("game", "new", "--players", "Ann,Bob", "--match", "single", "--db", db)
    ok("game", "do", "--db", db, *SCRIPT)
    capsys.readouterr()
    before = db.read_bytes()
    status, out, _ = cli(capsys, "game", "repair", "--db", str(db))
    assert status == 0 and "nothing to repair" in out
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.db"]


def test_repair_cuts_nothing_of_a_match_stored_as_left_out_that_replays_now(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pegboard.journal import LeftOut, summaries

    db = tmp_path / "p.db"
    ok("game", "new", "--players", "Ann,Bob", "--match", "single", "--db", db)
    ok("game", "do", "--db", db, *SCRIPT)
    real = summaries._replay

    def older(head: Any, rows: Any, *, latest: bool) -> Any:
        # a version that did not know entry 3 of match 1 (a downgrade, then an upgrade)
        if head[0] == 1 and not latest:
            return LeftOut(1, rows[2][0], rows[2][1], "unknown command")
        return real(head, rows, latest=latest)

    with monkeypatch.context() as then:
        then.setattr(summaries, "_replay", older)
        ok("game", "new", "--players", "Ann,Bob", "--db", db)  # match 1 final: left out
    with sqlite3.connect(db) as conn:
        entries = conn.execute("SELECT seq, command FROM journal WHERE match_id = 1").fetchall()
    capsys.readouterr()
    status, out, _ = cli(capsys, "game", "repair", "--db", str(db))
    assert status == 0
    with sqlite3.connect(db) as conn:
        after = conn.execute("SELECT seq, command FROM journal WHERE match_id = 1").fetchall()
    assert after == entries  # the match replays now: nothing of it is cut
    status, out, err = cli(capsys, "stats", "players", "--json", "--db", str(db))
    assert "left out" not in err
    assert json.loads(out)["players"][0]["games_played"] == 1  # its summary made again
