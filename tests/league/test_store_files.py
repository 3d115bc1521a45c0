"""``league standings`` on files that are not a league database: one line, nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard.cli.main import main


def test_an_empty_file_is_not_a_league_database_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    assert main(["league", "standings", "--db", str(empty)]) == 1
    assert capsys.readouterr().err == (
        f"pegboard: error: {str(empty)!r} is not a league database (it has no league games "
        "table; expected the --db of 'pegboard league serve', e.g. league.db)\n"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["empty.db"] and empty.read_bytes() == b""


def test_standings_read_again_when_a_service_changes_the_file_under_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No service holds the file, so ``league standings`` reads it as immutable; a service that
    stores a game and closes during that read leaves it stale: it reads again, and shows the
    game (before, it printed the table without it)."""
    from pegboard.league.store import LeagueStore
    from tests.league.test_totals import game

    db = tmp_path / "league.db"
    writer = LeagueStore(db)
    writer.add("red-lion", "t1", game(1, "Ann", "Bob", 100))
    writer.close()
    standings = LeagueStore.standings
    served = []

    def a_service_stores_a_game_meanwhile(self: LeagueStore) -> object:
        found = standings(self)
        if not served:
            served.append(1)
            service = LeagueStore(db)
            service.add("red-lion", "t1", game(2, "Cat", "Dan", 80))
            service.close()
        return found

    monkeypatch.setattr(LeagueStore, "standings", a_service_stores_a_game_meanwhile)
    assert main(["league", "standings", "--db", str(db)]) == 0
    shown = capsys.readouterr().out
    assert "Cat" in shown and "Ann" in shown, shown
