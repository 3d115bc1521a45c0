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
