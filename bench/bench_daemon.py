"""Benchmark the daemon: key event to frame handed to the display, RSS, start to READY.

Run: .venv/bin/python bench/bench_daemon.py [--games N]

Latency is measured in process on the simulator's ports (the same controller, renderers and
journal as the Pi; the OLED's own transfer time, about 23 ms per full frame at 400 kHz I2C, comes
on top on real hardware), over whole games replayed from ``tests/keys/six-card-lurch.keys``
(deals counted card by card on the keypad, then pegged by hand). RSS and start-to-READY come
from a real daemon subprocess under a fake systemd notify socket.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random

from pegboard.config.settings import parse_config
from pegboard.devices.oled import RecordingDisplay
from pegboard.devices.ports import FakeClock
from pegboard.journal import Journal
from pegboard.table.keyscript import Wait, read_key_script
from pegboard.table.wiring import build_controller, sim_ports

ROOT = Path(__file__).resolve().parents[1]


GAME = ROOT / "tests" / "keys" / "six-card-lurch.keys"
"""A whole six-card game to a lurch: two deals counted card by card, two pegged by hand."""


def bench_latency(games: int) -> tuple[list[float], int]:
    """Play the game *games* times, each on a fresh journal; time every key that drew a frame.

    Returns the latencies and how many of the games ended with a winner (all of them, or the
    script or the controller is broken and the figures mean nothing).
    """
    steps = read_key_script(GAME)
    latencies: list[float] = []
    won = 0
    for game in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            config = parse_config(f'[game]\ndatabase = "{Path(tmp) / "g.db"}"')
            ports = sim_ports(config)
            display = ports.display
            assert isinstance(display, RecordingDisplay)
            clock = FakeClock(1000.0)
            with Journal(config.game.database) as store:
                controller = build_controller(config, store, ports, clock=clock, rng=Random(game))
                controller.tick()
                for step in steps:
                    if isinstance(step, Wait):
                        clock.advance(step.seconds)
                        controller.tick()
                        continue
                    before = len(display.shown)
                    start = time.perf_counter()
                    controller.handle(step)
                    if len(display.shown) > before:
                        latencies.append(time.perf_counter() - start)
                    del display.shown[:-1]
                won += controller.view.winner is not None
    return latencies, won


def bench_daemon() -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        path = str(Path(tmp) / "notify")
        sock.bind(path)
        sock.settimeout(60)
        env = dict(os.environ, NOTIFY_SOCKET=path, HOME=tmp)
        cmd = [sys.executable, "-m", "pegboard", "run", "--simulate", "--headless",
               "--wait-for-signal", "--out", str(Path(tmp) / "out"),
               "--db", str(Path(tmp) / "g.db"), "--log-level", "WARNING"]  # fmt: skip
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, cwd=ROOT)
        while b"READY=1" not in sock.recv(4096):
            pass
        ready = time.perf_counter() - start
        rss_kb = 0
        for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss_kb = int(line.split()[1])
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        sock.close()
    return ready, rss_kb


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    latencies, won = bench_latency(args.games)
    lat = sorted(latencies)
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    print(
        f"key -> frame handed to the display: {len(lat)} frames over {args.games} games of "
        f"{GAME.name} ({won} of {args.games} ended with a winner)"
    )
    print(f"  p50 {p50:.2f} ms   p99 {p99:.2f} ms   max {lat[-1] * 1000:.2f} ms")
    runs = [bench_daemon() for _ in range(3)]
    print(f"daemon start to READY: {min(r[0] for r in runs) * 1000:.0f} ms (best of 3), "
          f"{max(r[0] for r in runs) * 1000:.0f} ms (worst)")  # fmt: skip
    print(f"daemon RSS at READY: {max(r[1] for r in runs) / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
