"""The daemon as systemd runs it: a subprocess, a fake notify socket, signals and restarts."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from pegboard.config.settings import parse_config
from pegboard.devices.leds import RecordingStrip
from pegboard.devices.oled import RecordingDisplay
from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState
from pegboard.engine.rules import Rules
from pegboard.engine.view import render_view
from pegboard.journal import Journal, summaries
from pegboard.table.daemon import run_daemon
from pegboard.table.wiring import paused_frame, sim_ports

from .notices import RecordingNotifier

ROOT = Path(__file__).resolve().parents[2]


def _start(args: list[str], notify_path: str, tmp_path: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, NOTIFY_SOCKET=notify_path, WATCHDOG_USEC="200000")
    env.pop("PEGBOARD_CONFIG", None)
    env["HOME"] = str(tmp_path)  # no stray user config
    cmd = [sys.executable, "-m", "pegboard", "run", "--log-level", "WARNING", *args]
    return subprocess.Popen(cmd, env=env, cwd=ROOT, stderr=subprocess.PIPE)


def _until(sock: socket.socket, wanted: str) -> list[str]:
    """Every message up to and including the first with *wanted* (the socket times out)."""
    seen = []
    while True:
        message = sock.recv(4096).decode()
        seen.append(message)
        if wanted in message.split("\n"):
            return seen


def test_daemon_reports_ready_pings_the_watchdog_and_pauses_on_sigterm(
    notify_socket: tuple[socket.socket, str], tmp_path: Path
) -> None:
    sock, path = notify_socket
    out = tmp_path / "out"
    proc = _start(
        ["--simulate", "--headless", "--wait-for-signal", "--out", str(out),
         "--db", str(tmp_path / "g.db")],
        path,
        tmp_path,
    )  # fmt: skip
    try:
        ready = _until(sock, "READY=1")
        assert f"MAINPID={proc.pid}" in ready[-1]
        _until(sock, "WATCHDOG=1")
        _until(sock, "WATCHDOG=1")  # pinged again from the loop, at half of WATCHDOG_USEC
        proc.send_signal(signal.SIGTERM)
        _until(sock, "STOPPING=1")
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err.decode()
    state = json.loads((out / "state.json").read_text())
    view = render_view(GameState.new(Rules.six_card()))
    assert state == view.to_dict()
    shown = Image.open(out / "oled.png")
    expected = paused_frame(view, (128, 64), "1")
    assert ImageChops.difference(shown.convert("L"), expected.convert("L")).getbbox() is None
    leds = json.loads((out / "leds.json").read_text())
    assert len(leds["strips"]["board"]) == 244
    assert all(c == [0, 0, 0] for c in leds["strips"]["board"])


def test_kill_9_mid_game_then_restart_resumes_from_the_journal(
    notify_socket: tuple[socket.socket, str], tmp_path: Path
) -> None:
    sock, path = notify_socket
    db = tmp_path / "g.db"
    first = tmp_path / "first.keys"
    first.write_text("5\n3\n")  # cut: A cuts a five, B a three, so B deals
    proc = _start(
        [
            "--simulate", "--headless", "--wait-for-signal", "--keys", str(first),
            "--out", str(tmp_path / "o1"), "--db", str(db),
        ],
        path,
        tmp_path,
    )  # fmt: skip
    try:
        _until(sock, "STATUS=keys replayed: 2 steps")
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == -signal.SIGKILL
    second = tmp_path / "second.keys"
    second.write_text("A\n")  # the starter: a jack, two for his heels to the dealer
    proc = _start(
        ["--simulate", "--headless", "--keys", str(second), "--out", str(tmp_path / "o2"),
         "--db", str(db)],
        path,
        tmp_path,
    )  # fmt: skip
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    state = json.loads((tmp_path / "o2" / "state.json").read_text())
    assert state["phase"] == "play"
    assert state["cut"] == ["5H", "3D"]
    assert [side["score"] for side in state["sides"]] == [0, 2]


def test_run_daemon_in_process_stops_and_leaves_paused(tmp_path: Path) -> None:
    config = parse_config(f'[game]\ndatabase = "{tmp_path / "g.db"}"')
    ports = sim_ports(config)
    display = ports.display
    assert isinstance(display, RecordingDisplay)
    recorder = RecordingNotifier()
    notices = recorder.notices

    def on_ready(controller: object) -> None:
        stop.set()

    stop = threading.Event()
    result = run_daemon(
        config, ports, notifier=recorder, stop=stop, install_signals=False,
        on_ready=on_ready,
    )  # fmt: skip
    assert "READY=1" in notices and "STOPPING=1" in notices
    assert result.ready_after is not None
    assert len(display.shown) >= 2  # the first frame, then "paused"
    last = display.shown[-1]
    expected = paused_frame(result.controller.view, display.size, display.mode)
    assert last.tobytes() == expected.tobytes()
    strip = ports.strips["board"]
    assert isinstance(strip, RecordingStrip) and strip.closed
    assert set(strip.last) == {(0, 0, 0)}


def test_install_script_dry_run_changes_nothing_and_skips_what_is_done(tmp_path: Path) -> None:
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n")
    before = boot.read_text()
    done = subprocess.run(
        ["bash", str(ROOT / "systemd" / "install.sh"), "--dry-run", "--boot-config", str(boot),
         "--example", "pi5"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert boot.read_text() == before
    assert f"ok: {boot} already has dtparam=i2c_arm_baudrate=400000" in out
    if "raspi-config" not in out:  # off a Pi: config.txt lines instead of raspi-config
        assert f"ok: {boot} already has dtparam=i2c_arm=on" in out
        assert f"would append to {boot}: dtparam=spi=on" in out
    assert "pi5-sh1106-apa102.toml" in out or "ok: /etc/pegboard/config.toml exists" in out
    assert "would run: systemctl enable pegboard.service" in out


def test_install_script_refuses_unknown_options() -> None:
    done = subprocess.run(
        ["bash", str(ROOT / "systemd" / "install.sh"), "--dry-rnu"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "unknown option: --dry-rnu" in done.stderr


def test_the_terminal_simulator_without_a_terminal_says_what_to_do(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "pegboard", "run", "--simulate"]
    cmd += ["--db", str(tmp_path / "g.db")]
    done = subprocess.run(
        cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert done.stderr.strip().endswith("(for scripts: --headless --keys FILE --out DIR)")
    assert done.stderr.count("\n") == 1


def test_an_older_journal_summarised_at_start_asks_systemd_for_time_batch_by_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "g.db"
    for _ in range(3):
        with Journal(db) as store:
            store.new_match(Rules.six_card(), ("Ann", "Bob"))
            for text in ("cut 9H 3C", "starter 5C", "peg Ann 61", "peg Ann 60"):
                store.do(parse_command(text, ("Ann", "Bob")))
    with sqlite3.connect(db) as conn:  # as a journal of the version before summaries
        conn.execute("PRAGMA user_version = 0")
        conn.execute("DELETE FROM match_summaries")
        conn.execute("DELETE FROM standings_books")
    monkeypatch.setattr(summaries, "MIGRATE_BATCH", 1)
    config = parse_config(f'[game]\ndatabase = "{db}"')
    recorder = RecordingNotifier()
    notices = recorder.notices

    stop = threading.Event()
    run_daemon(
        config, sim_ports(config), notifier=recorder, stop=stop, install_signals=False,
        on_ready=lambda controller: stop.set(),
    )  # fmt: skip
    extended = [n for n in notices[: notices.index("READY=1")] if n.startswith("EXTEND_")]
    assert extended == ["EXTEND_TIMEOUT_USEC=60000000"] * 2  # one a batch: matches 1 and 2
    assert "STATUS=summarising the journal's history: 1 of 2 matches" in notices
    assert "STATUS=summarising the journal's history: 1 of 1 matches" in notices
