"""A path the file system refuses (a name too long, a file where a folder should be) gives one
line naming it and the reason, never a traceback, and changes nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pegboard.errors import JournalError
from pegboard.journal import Journal
from tests.cli.helpers import cli

LONG = "a" * 300  # over every file system's 255 bytes for one name
KEYS = Path(__file__).parents[1] / "keys" / "six-card-lurch.keys"
RUN = ("run", "--simulate", "--headless", "--out", "out")

COMMANDS = [
    pytest.param(("history", "--db", "{path}"), id="history"),
    pytest.param(("stats", "players", "--db", "{path}"), id="stats-players"),
    pytest.param(("game", "show", "--db", "{path}"), id="game-show"),
    pytest.param(("game", "do", "--db", "{path}", "next"), id="game-do"),
    pytest.param(("game", "new", "--db", "{path}"), id="game-new"),
    pytest.param(("sheet", "--db", "{path}", "--out", "s.png"), id="sheet-db"),
    pytest.param(("sheet", "--db", "p.db", "--out", "{path}"), id="sheet-out"),
    pytest.param((*RUN, "--keys", str(KEYS), "--config", "{path}"), id="run-config"),
    pytest.param((*RUN, "--keys", "{path}"), id="run-keys"),
]


@pytest.mark.parametrize("argv", COMMANDS)
@pytest.mark.parametrize(
    ("name", "reason"),
    [
        pytest.param(LONG + ".db", "File name too long", id="too-long"),
        pytest.param("file.txt/x.db", "'file.txt' is a file, not a folder", id="through-a-file"),
    ],
)
def test_a_path_the_file_system_refuses_is_one_line(
    argv: tuple[str, ...],
    name: str,
    reason: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file.txt").write_text("mine\n")
    if argv[-1] == "{path}":
        name = name.replace(".db", ".png")
    status, out, err = cli(capsys, *(a.replace("{path}", name) for a in argv))
    assert status == 1 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("pegboard: error: cannot open ")
    assert err.endswith(f": {reason}\n")
    assert name[:20] in err  # the path is named
    assert len(err) < 200  # a long name shortened (quote), never printed whole
    assert sorted(os.listdir(tmp_path)) == ["file.txt"]
    assert (tmp_path / "file.txt").read_text() == "mine\n"


def test_the_journal_names_a_path_too_long(tmp_path: Path) -> None:
    path = tmp_path / (LONG + ".db")
    for readonly in (True, False):
        with pytest.raises(JournalError, match=r"^cannot open '.*'\.\.\.: File name too long$"):
            Journal(path, readonly=readonly)
    assert os.listdir(tmp_path) == []


def test_any_command_names_a_path_the_file_system_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the simulator's --out folder is made by the run itself: main turns the OSError into a line
    monkeypatch.chdir(tmp_path)
    argv = ("run", "--simulate", "--headless", "--keys", os.devnull, "--out", LONG)
    status, _, err = cli(capsys, *argv)
    assert status == 1
    assert err == f"pegboard: error: cannot open '{LONG[:55]}'...: File name too long\n"
    assert os.listdir(tmp_path) == []
