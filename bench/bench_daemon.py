"""Benchmark the daemon: key event to frame handed to the display, RSS, start to READY.

Run: .venv/bin/python bench/bench_daemon.py [--games N] [--slowest N] [--pace SECONDS]

Latency is measured in process on the simulator's ports (the same controller, renderers and
journal as the Pi; the OLED's own transfer time, about 23 ms per full frame at 400 kHz I2C, comes
on top on real hardware), over whole games replayed from ``tests/keys/six-card-lurch.keys``
(deals counted card by card on the keypad, then pegged by hand). Each key that drew a frame is
timed from the key to the moment its frame is handed to the display (the figure); the LEDs
take their first step after that, so the time to the end of the key (the LEDs too) is printed
as well. ``--slowest N`` lists the N slowest keys with the screen they drew.

The keys are replayed back to back (the figure's method). Under a CPU quota (``pi_quota.py``)
that makes a key wait for the CPU the keys before it used, as a player's keys on the Pi do not:
``--pace SECONDS`` idles that long (real time) before each key, a player's pace, and is printed
as a second figure, never in place of the first. RSS and
start-to-READY come from a real daemon subprocess under a fake systemd notify socket.
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
from dataclasses import dataclass
from pathlib import Path
from random import Random

from PIL.Image import Image

from pegboard.config.settings import parse_config
from pegboard.devices.oled import RecordingDisplay
from pegboard.devices.ports import FakeClock
from pegboard.journal import Journal
from pegboard.table.controller import ScreenRenderer
from pegboard.table.keyscript import Wait, read_key_script
from pegboard.table.wiring import build_controller, sim_ports
from pegboard.ui.screens import Screen

ROOT = Path(__file__).resolve().parents[1]


GAME = ROOT / "tests" / "keys" / "six-card-lurch.keys"
"""A whole six-card game to a lurch: two deals counted card by card, two pegged by hand."""


@dataclass(frozen=True)
class KeyTime:
    """One key that drew a frame: seconds to the frame handed over, and to the key's end."""

    to_frame: float
    to_end: float
    game: int
    line: int
    key: str
    screen: str


class TimedDisplay(RecordingDisplay):
    """The simulator's display, noting when it is handed each frame (and which screen it is)."""

    def __init__(self, size: tuple[int, int], mode: str) -> None:
        super().__init__(size, mode)
        self.handed: float | None = None
        self.kind = ""

    def show(self, image: Image) -> None:
        self.handed = time.perf_counter()
        super().show(image)


def noting_kind(render: ScreenRenderer, display: TimedDisplay) -> ScreenRenderer:
    """*render*, noting on *display* the kind of screen it draws (for ``--slowest``)."""

    def draw(screen: Screen) -> Image:
        display.kind = screen.kind.value
        return render(screen)

    return draw


def bench_keys(games: int, pace: float = 0.0) -> tuple[list[KeyTime], int]:
    """Play the game *games* times, each on a fresh journal; time every key that drew a frame.

    *pace* is real seconds idled before each key (0: back to back). Returns the times and how
    many of the games ended with a winner (all of them, or the script or the controller is
    broken and the figures mean nothing).
    """
    steps = read_key_script(GAME)
    times: list[KeyTime] = []
    won = 0
    for game in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            config = parse_config(f'[game]\ndatabase = "{Path(tmp) / "g.db"}"')
            ports = sim_ports(config)
            display = TimedDisplay(config.display.frame_size, config.display.frame_mode)
            ports.display = display
            clock = FakeClock(1000.0)
            with Journal(config.game.database) as store:
                controller = build_controller(config, store, ports, clock=clock, rng=Random(game))
                render = controller._out.render
                assert render is not None
                controller._out.render = noting_kind(render, display)
                controller.tick()
                for line, step in enumerate(steps):
                    if isinstance(step, Wait):
                        clock.advance(step.seconds)
                        controller.tick()
                        continue
                    if pace:
                        time.sleep(pace)
                    display.handed = None
                    start = time.perf_counter()
                    controller.handle(step)
                    end = time.perf_counter()
                    if display.handed is not None:
                        to_frame, to_end = display.handed - start, end - start
                        times.append(KeyTime(to_frame, to_end, game, line, str(step), display.kind))
                    del display.shown[:-1]
                won += controller.view.winner is not None
    return times, won


def bench_latency(games: int) -> tuple[list[float], int]:
    """Key -> frame handed to the display, in seconds, for every key that drew a frame."""
    times, won = bench_keys(games)
    return [t.to_frame for t in times], won


def percentiles(seconds: list[float]) -> str:
    """ "p50 1.00 ms   p99 2.00 ms   max 3.00 ms" (pi_quota.py reads the first two)."""
    lat = sorted(seconds)
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    return f"p50 {p50:.2f} ms   p99 {p99:.2f} ms   max {lat[-1] * 1000:.2f} ms"


def bench_daemon(config: str | None = None) -> tuple[float, int]:
    """Start to READY (seconds) and RSS at READY (KiB) of a simulated daemon, with *config*
    (a TOML text) as its ``--config`` when given. bench_web.py times the pub page's cost so."""
    with tempfile.TemporaryDirectory() as tmp:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        path = str(Path(tmp) / "notify")
        sock.bind(path)
        sock.settimeout(60)
        options = []
        if config is not None:
            conf = Path(tmp) / "pegboard.toml"
            conf.write_text(config)
            options = ["--config", str(conf)]
        env = dict(os.environ, NOTIFY_SOCKET=path, HOME=tmp)
        cmd = [sys.executable, "-m", "pegboard", "run", "--simulate", "--headless",
               "--wait-for-signal", *options, "--out", str(Path(tmp) / "out"),
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
    parser.add_argument("--slowest", type=int, default=0, help="list the N slowest keys")
    parser.add_argument(
        "--pace", type=float, default=0.0, help="also time keys SECONDS apart (a player's pace)"
    )
    args = parser.parse_args()
    times, won = bench_keys(args.games)
    print(
        f"key -> frame handed to the display: {len(times)} frames over {args.games} games of "
        f"{GAME.name} ({won} of {args.games} ended with a winner)"
    )
    print(f"  {percentiles([t.to_frame for t in times])}")
    print(f"  to the key's end (the LEDs' first step too): "
          f"{percentiles([t.to_end for t in times]).replace('   ', ', ')}")  # fmt: skip
    for t in sorted(times, key=lambda t: -t.to_frame)[: args.slowest]:
        print(f"  {t.to_frame * 1000:7.2f} ms ({t.to_end * 1000:.2f} to the end)  game {t.game} "
              f"step {t.line:3d} key {t.key:<6} -> {t.screen}")  # fmt: skip
    if args.pace:
        paced, _ = bench_keys(args.games, args.pace)
        print(f"  keys {args.pace:g} s apart (a player's pace, not back to back): "
              f"{percentiles([t.to_frame for t in paced]).replace('   ', ', ')}")  # fmt: skip
    runs = [bench_daemon() for _ in range(3)]
    print(f"daemon start to READY: {min(r[0] for r in runs) * 1000:.0f} ms (best of 3), "
          f"{max(r[0] for r in runs) * 1000:.0f} ms (worst)")  # fmt: skip
    print(f"daemon RSS at READY: {max(r[1] for r in runs) / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
