"""``pegboard run --simulate --headless`` as the README writes it: no config, the user's saved
game left alone, every key file in the repository playing the game its header describes."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pegboard.cli.main import main as pegboard_main

KEYS = Path(__file__).parents[1] / "keys"
ROOT = Path(__file__).resolve().parents[2]
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
    return pegboard_main(argv)


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
    assert pegboard_main([*argv, "--db", str(path)]) == 0
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
        pegboard_main(["run", "--simulate", "--headless", "--out", "out/"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err == (
        "pegboard run: error: --headless needs --keys FILE to replay "
        "(or --wait-for-signal to run until SIGTERM or SIGINT) (see 'pegboard run --help')\n"
    )
    assert not Path("out").exists() and _files(home) == {}


def test_headless_wait_for_signal_without_keys_runs_until_sigterm(
    notify_socket: tuple[socket.socket, str], home: Path, tmp_path: Path
) -> None:
    sock, path = notify_socket
    env = {k: v for k, v in os.environ.items() if k not in ("PEGBOARD_CONFIG", "PEGBOARD_DB")}
    env.update(NOTIFY_SOCKET=path, HOME=str(home))
    command = [sys.executable, "-m", "pegboard", "run", "--simulate", "--headless"]
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


# --------------------------------------------------------------------------- key file headers


def _header(path: Path) -> dict[str, str]:
    """The ``# key: value`` lines before the first key, read here without pegboard's parser."""
    header: dict[str, str] = {}
    for line in path.read_text().splitlines():
        text = line.strip()
        if text == "#" or (text and not text.startswith("#")):
            break  # the first key
        found = re.fullmatch(r"#\s*([a-z_]+)\s*:\s*(.*)", text)
        if found:
            header[found[1]] = found[2]
    return header


def _listed(text: str) -> list[str]:
    return [item.strip() for item in text.split(",")]


@pytest.mark.parametrize("keys", [pytest.param(p, id=p.stem) for p in KEY_FILES])
def test_every_key_file_plays_the_game_its_header_states_with_the_readme_command(
    home: Path, keys: Path
) -> None:
    header = _header(keys)
    assert {"variant", "final_scores"} <= header.keys(), f"{keys.name} needs a header"
    assert _readme_run(keys, "--gif", "out/game.gif") == 0
    state = _state()
    assert state["variant"] == header["variant"]
    assert _scores(state) == [int(score) for score in _listed(header["final_scores"])]
    if "names" in header:
        assert [side["name"] for side in state["sides"]] == _listed(header["names"])
    if "match" in header:
        assert state["match"]["format"] == header["match"]
    assert Path("out/game.gif").is_file()
    assert _files(home) == {}


def test_the_header_plays_its_game_whatever_the_config_says(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[game]\nvariant = "five-card"\nnames = ["Mum", "Dad"]\nmuggins = true\n')
    monkeypatch.setenv("PEGBOARD_CONFIG", str(config))
    assert _readme_run(KEYS / "three-handed-deal.keys") == 0
    state = _state()
    assert state["variant"] == "three-handed"
    assert _scores(state) == [4, 19, 9]
    assert len(json.loads(Path("out/leds.json").read_text())["tracks"]) == 3


def test_a_key_file_without_settings_plays_the_configs_game(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[game]\nvariant = "five-card"\nnames = ["Mum", "Dad"]\n')
    monkeypatch.setenv("PEGBOARD_CONFIG", str(config))
    keys = tmp_path / "cut.keys"
    keys.write_text("# just a cut\n5\n3\n")
    assert _readme_run(keys) == 0
    assert (_state()["variant"], _state()["dealer_name"]) == ("five-card", "Dad")


def _run_keys(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run *text* as ``game.keys`` with the README's command: the status and stderr's lines."""
    keys = tmp_path / "game.keys"
    keys.write_text(text)
    status = _readme_run(keys)
    err = capsys.readouterr().err
    return status, err


CUT = "# variant: six-card\n5\n3\n"  # a cut: 5 for A, 3 for B; B deals, A leads


def test_a_refused_key_exits_1_naming_its_line(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = CUT + "4\nhash   # a go at count 0: every card fits\n9\n"
    status, err = _run_keys(tmp_path, keys, capsys)
    assert status == 1
    assert err.count("\n") == 1
    assert re.fullmatch(
        r"pegboard: error: .*game\.keys line 5: key '#' was refused \(.+\); "
        r"mark the line '!#' if that is expected\n",
        err,
    ), err
    assert _state()["phase"] == "play"  # the outputs show where it stopped ...
    assert _state()["count"] == 0  # ... and the 9 after it was not played


def test_a_key_marked_refused_may_be_refused(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = CUT + "4\n!hash  # a go at count 0: refused\n9\n"
    status, err = _run_keys(tmp_path, keys, capsys)
    assert (status, err) == (0, "")
    assert _state()["count"] == 9


def test_a_key_marked_refused_that_is_accepted_exits_1(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = _run_keys(tmp_path, CUT + "!4\n", capsys)
    assert status == 1
    assert re.fullmatch(
        r"pegboard: error: .*game\.keys line 4: key '4' is marked '!' as refused, "
        r"but it was accepted\n",
        err,
    ), err


def test_other_final_scores_exit_1_naming_the_header_line(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "# variant: six-card\n# final_scores: 0, 2\n5\n3\n4\n"  # no heels: still 0, 0
    status, err = _run_keys(tmp_path, text, capsys)
    assert status == 1
    assert re.fullmatch(
        r"pegboard: error: .*game\.keys line 2: the game ended with scores 0, 0 "
        r"\(expected final_scores 0, 2\)\n",
        err,
    ), err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "# variant: four-card\n5\n",
            r"line 1: unknown variant: 'four-card' \(expected one of six-card, three-handed, ",
            id="unknown-variant",
        ),
        pytest.param(
            "# variant: three-handed\n# names: Ann, Bob\n5\n",
            r"line 2: names 'Ann, Bob' are 2 names, and three-handed has 3 sides "
            r"\(expected one name per side, like 'Ann, Bob, Cy'\)$",
            id="two-names-for-three",
        ),
        pytest.param(
            "# names: Ann, Bob, Cy\n5\n",
            r"line 1: names 'Ann, Bob, Cy' are 3 names, and six-card has 2 sides",
            id="three-names-for-the-default",
        ),
        pytest.param(
            "# varient: three-handed\n5\n",
            r"line 1: unknown header 'varient' \(did you mean 'variant'\?\) \(expected one of "
            r"variant, names, ",
            id="misspelt",
        ),
        pytest.param(
            "# variant: three-handed\n# match: best-of-three\n5\n",
            r"line 2: match 'best-of-three' ",  # the rest is the config's own reason
            id="settings-that-do-not-go-together",
        ),
        pytest.param(
            "# variant: six-card\n# final_scores: 121\n5\n",
            r"line 2: final_scores '121' are 1 scores, and six-card has 2 sides",
            id="one-score-for-two",
        ),
    ],
)
def test_a_bad_header_exits_1_naming_the_file_line_and_what_was_expected(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    status, err = _run_keys(tmp_path, text, capsys)
    assert status == 1
    assert err.count("\n") == 1
    assert err.startswith(f"pegboard: error: {tmp_path / 'game.keys'} line ")
    assert re.search(message, err.rstrip("\n")), err
    assert not Path("out").exists()


def test_a_refused_key_stops_a_run_that_would_wait_for_a_signal(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = tmp_path / "game.keys"
    keys.write_text(CUT + "4\nhash\n")  # a go at count 0
    assert _readme_run(keys, "--wait-for-signal") == 1  # at once, not at SIGTERM
    assert "game.keys line 5: key '#' was refused" in capsys.readouterr().err
    assert _state()["phase"] == "play"


def test_a_config_with_too_few_led_tracks_for_the_header_is_an_error(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ROOT / "hardware" / "pi-zero-2w-ssd1306-ws2812.toml"  # two tracks of its own
    keys = KEYS / "three-handed-deal.keys"
    assert _readme_run(keys, "--config", str(config)) == 1
    assert capsys.readouterr().err == (
        f"pegboard: error: {keys} line 4: three-handed has 3 sides, and the config "
        f"{str(config)!r} has 2 LED tracks (expected one track per side, or a config "
        "without [leds])\n"
    )
    assert _readme_run(KEYS / "six-card-lurch.keys", "--config", str(config)) == 0
    assert [side["name"] for side in _state()["sides"]] == ["Ann", "Bob"]  # not Sky and Gold


# --------------------------------------------------------------------------- the roster


def test_a_key_file_header_gives_the_roster_the_menu_picks_names_from(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = home.parent / "roster.keys"
    keys.write_text("# roster: Ann, Bob, Cy\nok:long\nA\nB\nB\n3\n")  # side 1 Ann; side 2 Bob, Cy
    assert _readme_run(keys) == 0
    assert [side["name"] for side in _state()["sides"]] == ["Ann", "Cy"]
    keys.write_text("# roster: Ann, Bartholomew\n#\n")
    assert _readme_run(keys) == 1
    err = capsys.readouterr().err
    assert "roster.keys line 1: " in err and "too long for the screen: 'Bartholomew'" in err
