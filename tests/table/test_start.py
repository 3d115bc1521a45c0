"""The daemon's start loads only what taking keys needs: READY comes before the heavy modules.

On a Pi Zero 2 W every module imported before READY costs about ten times what it costs here,
so the start is held to what the board needs to take keys: the journal opened and its match
replayed, the key sources started, the controller built. Pillow, the fonts and the OLED's
driver load for the first frame, after READY; the pub page, the league, the odds and the other
commands only when they are used. Each test starts the daemon as a process and lists the
modules it has loaded at the moment it sends ``READY=1`` (a functional check, not a timing:
``bench/pi_quota.py`` and ``bench/bench_scale.py`` measure the time).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.cli.main import main as pegboard_main

ROOT = Path(__file__).resolve().parents[2]

NOT_BEFORE_READY = (
    "PIL",  # the first frame's: drawn after READY
    "luma",  # the OLED's driver: opened by the first frame
    "pegboard.ui.sheet",
    "pegboard.web",  # the pub page: only with [web] enabled or --web
    "http.server",
    "pegboard.league",  # the league: only with [league]
    "pegboard.tourney",  # a tournament night's notices: only with [league]
    "pegboard.table.tourney",
    "paho",
    "pegboard.engine.odds",  # win probability: only with [display] win_probability
    "pegboard.engine.advice",
    "pegboard.engine.stats",
    "pegboard.engine.history",  # the history's engine: the reader's thread, after READY
    "pegboard.engine.players",
    "pegboard.engine.listing",
    "pegboard.engine.summary",  # a finished game's summary: when a game ends
    "pegboard.i18n.po",  # a catalogue: English reads none, German its own after READY
    "pegboard.cli.game",  # the other commands
    "pegboard.cli.history",
    "pegboard.cli.league",
    "pegboard.cli.odds",
    "pegboard.cli.serve",
    "pegboard.cli.sheet",
    "pegboard.cli.stats",
    "tomllib",  # no config file to read here
    "uuid",  # a finished game's league id: made when a game ends
    "hypothesis",
)

BOOT = """\
import json, sys
from pegboard.table import sdnotify

send = sdnotify.Notifier.ready


def ready(self, status=""):
    with open(sys.argv[1], "w") as report:
        json.dump(sorted(sys.modules), report)
    return send(self, status)


sdnotify.Notifier.ready = ready
from pegboard.cli.main import main

sys.exit(main(sys.argv[2:]))
"""
"""Runs ``pegboard *argv[2:]``, writing the names in ``sys.modules`` to ``argv[1]`` as READY is
sent (``sdnotify``'s own imports, socket and logging, are the daemon's anyway)."""


def _loaded(modules: list[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


def _modules_at_ready(
    args: list[str], notify: tuple[socket.socket, str], tmp_path: Path
) -> list[str]:
    """The modules ``pegboard run *args`` has loaded when it sends READY (then stopped)."""
    sock, path = notify
    report = tmp_path / "modules.json"
    env = {k: v for k, v in os.environ.items() if k not in ("PEGBOARD_CONFIG", "PEGBOARD_DB")}
    env.update(NOTIFY_SOCKET=path, HOME=str(tmp_path))  # no user config: built-in defaults
    argv = [sys.executable, "-c", BOOT, str(report), "run", "--log-level", "ERROR", *args]
    proc = subprocess.Popen(argv, env=env, cwd=ROOT, stderr=subprocess.PIPE)
    try:
        while "READY=1" not in sock.recv(4096).decode().split("\n"):
            pass
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err.decode()
    modules: list[str] = json.loads(report.read_text())
    return modules


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """A journal with one whole game played into it (a match finished: its summary stored)."""
    db = tmp_path / "played.db"
    keys = ROOT / "tests" / "keys" / "six-card-lurch.keys"
    argv = ["run", "--simulate", "--headless", "--keys", str(keys), "--db", str(db)]
    assert pegboard_main([*argv, "--out", str(tmp_path / "replayed")]) == 0
    return db


@pytest.mark.parametrize(
    ("args", "also"),
    [
        # the benchmarks' start; a journal given, so no throwaway folder (tempfile); systemd's
        # notify datagram and the journal's host name need no socket module (its enums cost
        # 2 ms here, 20 ms on a Zero 2 W), nor --help's width shutil (cli/helpformat.py)
        (
            ["--simulate", "--headless", "--wait-for-signal", "--out", "out"],
            ("tempfile", "socket", "shutil"),
        ),
        # a German table reads its catalogue for the first frame's words, after READY
        (["--simulate", "--headless", "--wait-for-signal", "--out", "out", "--lang", "de"], ()),
        # the device: real ports, none of them here (each logged and retried); its GPIO key
        # sources are opened before READY (gpiozero, which loads tempfile and socket itself)
        ([], ()),
    ],
    ids=["simulator", "simulator in German", "device"],
)
def test_the_daemon_is_ready_before_it_loads_pillow_the_page_or_the_league(
    args: list[str],
    also: tuple[str, ...],
    played: Path,
    notify_socket: tuple[socket.socket, str],
    tmp_path: Path,
) -> None:
    modules = _modules_at_ready(
        [*args, "--db", str(played)], notify_socket, tmp_path
    )  # fmt: skip
    # what READY means was done: the journal, the game and the controller are loaded
    assert {"pegboard.journal", "pegboard.engine.game", "pegboard.table.controller"} <= set(modules)
    assert [name for name in (*NOT_BEFORE_READY, *also) if _loaded(modules, name)] == []


def test_the_first_frame_follows_ready(
    played: Path, notify_socket: tuple[socket.socket, str], tmp_path: Path
) -> None:
    """READY before the first frame: the daemon still shows the game the journal holds, as
    the replay that played it left it."""
    out = tmp_path / "out"
    args = ["--simulate", "--headless", "--wait-for-signal", "--out", str(out)]
    _modules_at_ready([*args, "--db", str(played)], notify_socket, tmp_path)
    state = json.loads((out / "state.json").read_text())
    assert state["phase"] == "game over"
    assert state == json.loads((tmp_path / "replayed" / "state.json").read_text())
    assert (out / "oled.png").stat().st_size > 0
