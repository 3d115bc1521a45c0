"""``pegboard game show --json`` carries each side's chance to win at this moment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pegboard.cli.main import main
from pegboard.engine.odds import start_of_deal, win_probability
from pegboard.journal import Journal


def show(capsys: pytest.CaptureFixture[str], db: str) -> dict[str, object]:
    capsys.readouterr()  # what the commands before printed
    assert main(["game", "show", "--db", db, "--json"]) == 0
    payload: dict[str, object] = json.loads(capsys.readouterr().out)
    return payload


def test_game_show_gives_the_chances_of_the_moment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "g.db")
    assert main(["game", "new", "--players", "Ann,Bob", "--match", "single", "--db", db]) == 0
    assert show(capsys, db)["win_probability"] is None  # before the cut: nobody deals yet
    assert main(["game", "do", "--db", db, "cut 9C 3D"]) == 0  # Bob deals first
    chances = show(capsys, db)["win_probability"]
    assert isinstance(chances, list) and len(chances) == 2
    assert chances[1] == pytest.approx(start_of_deal("six-card", 0, 0))  # Bob, the dealer
    assert sum(chances) == pytest.approx(1)
    assert main(["game", "do", "--db", db, "starter 5C", "play KS", "play 6H"]) == 0
    with Journal(Path(db), readonly=True) as store:
        state = store.load()
    assert state is not None
    assert show(capsys, db)["win_probability"] == list(win_probability(state) or ())


def test_three_separate_players_have_no_chances_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "g.db")
    assert main(["game", "new", "--variant", "three-handed", "--db", db]) == 0
    assert main(["game", "do", "--db", db, "cut 9C 3D 5H"]) == 0
    assert show(capsys, db)["win_probability"] is None
