"""``pegboard run --simulate --headless`` as the README writes it: no config, the user's saved
game left alone, every key file in the repository playing the game its header describes."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pegboard.app import run_cli

KEYS = Path(__file__).parent / "keys"
KEY_FILES = sorted(KEYS.glob("*.keys"))


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user with no config and no saved game: $HOME in a temp folder, which is also the cwd."""
    home = tmp_path / "home"
    home.mkdir()
    for name in ("PEGBOARD_CONFIG", "PEGBOARD_DB", "STATE_DIRECTORY", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    return home


def _readme_run(keys: Path, *extra: str) -> int:
    """The README's command: ``pegboard run --simulate --headless --keys FILE --out out/``."""
    argv = ["run", "--simulate", "--headless", "--keys", str(keys), "--out", "out/", *extra]
    return run_cli.main(argv)


def _state(out: Path = Path("out")) -> dict[str, Any]:
    state: dict[str, Any] = json.loads((out / "state.json").read_text())
    return state


def _scores(state: dict[str, Any]) -> list[int]:
    return [side["score"] for side in state["sides"]]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# --------------------------------------------------------------------------- the saved game


def _saved_game(path: Path, tmp_path: Path) -> None:
    """A game in progress in the journal *path*: the cut made, Bob to deal."""
    keys = tmp_path / "cut.keys"
    keys.write_text("5\n3\n")
    argv = ["run", "--simulate", "--headless", "--keys", str(keys), "--out", str(tmp_path / "o")]
    assert run_cli.main([*argv, "--db", str(path)]) == 0
    assert _state(tmp_path / "o")["phase"] == "starter"


def test_a_headless_run_leaves_the_saved_game_in_pegboard_db_byte_for_byte(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "saved" / "pegboard.db"
    _saved_game(saved, tmp_path)
    monkeypatch.setenv("PEGBOARD_DB", str(saved))
    before = _files(saved.parent)
    assert _readme_run(KEYS / "six-card-lurch.keys", "--gif", "out/game.gif") == 0
    assert _files(saved.parent) == before
    assert _state()["phase"] == "game over"
    assert _scores(_state()) == [121, 73]  # a new game, not the saved one played on


def test_a_headless_run_leaves_the_saved_game_in_home_byte_for_byte(
    home: Path, tmp_path: Path
) -> None:
    saved = home / ".local" / "share" / "pegboard" / "pegboard.db"
    _saved_game(saved, tmp_path)
    before = _files(home)
    assert _readme_run(KEYS / "six-card-lurch.keys") == 0
    assert _files(home) == before
    assert _scores(_state()) == [121, 73]


def test_a_headless_run_makes_no_default_journal(home: Path) -> None:
    assert _readme_run(KEYS / "six-card-lurch.keys") == 0
    assert _files(home) == {}


def test_two_headless_runs_in_a_row_each_play_a_new_game(home: Path) -> None:
    assert _readme_run(KEYS / "six-card-lurch.keys") == 0
    first = _state()
    assert _readme_run(KEYS / "six-card-lurch.keys") == 0
    assert _state() == first


def test_an_explicit_db_keeps_the_headless_game(home: Path, tmp_path: Path) -> None:
    db = tmp_path / "kept.db"
    _saved_game(db, tmp_path)
    keys = tmp_path / "starter.keys"
    keys.write_text("A\n")  # the starter: a jack, two for his heels to Bob
    assert _readme_run(keys, "--db", str(db)) == 0
    assert _state()["phase"] == "play"
    assert _scores(_state()) == [0, 2]  # the saved game played on


# --------------------------------------------------------------------------- no key file


def test_headless_without_keys_is_a_usage_error(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        run_cli.main(["run", "--simulate", "--headless", "--out", "out/"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: pegboard run ")
    assert err.endswith(
        "pegboard run: error: --headless needs --keys FILE to replay "
        "(or --wait-for-signal to run until SIGTERM or SIGINT)\n"
    )
    assert not Path("out").exists() and _files(home) == {}


def test_headless_wait_for_signal_without_keys_runs_until_sigterm(
    notify_socket: tuple[socket.socket, str], home: Path, tmp_path: Path
) -> None:
    sock, path = notify_socket
    env = {k: v for k, v in os.environ.items() if k not in ("PEGBOARD_CONFIG", "PEGBOARD_DB")}
    env.update(NOTIFY_SOCKET=path, HOME=str(home))
    command = [sys.executable, "-m", "pegboard.app.cli", "run", "--simulate", "--headless"]
    command += ["--wait-for-signal", "--out", "out/", "--log-level", "WARNING"]
    proc = subprocess.Popen(command, env=env, cwd=tmp_path, stderr=subprocess.PIPE)
    try:
        while "READY=1" not in sock.recv(4096).decode().split("\n"):
            pass
        assert proc.poll() is None  # waiting for the signal
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err.decode()
    assert _state()["phase"] == "cut"  # the paused first frame of a new game
    assert _files(home) == {}  # on a throwaway journal too
