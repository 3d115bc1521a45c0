"""Benchmark the pub page: key press to the page's DOM updated, and what the web port costs.

Run: taskset -c 0 nice -n 5 .venv/bin/python bench/bench_web.py [--games N] [--runs N]

Latency: whole games of ``tests/keys/six-card-lurch.keys`` are played through the controller on
the simulator's ports, with ``on_change`` handing each view to a ``ViewPublisher`` and the real
``WebServer``, and the page open in headless Chromium (Debian's ``chromium``, as the tests
launch it). For every key that changed the game, the time runs from just before
``controller.handle(key)`` to the moment the page's script had applied that version to the DOM
(``window.pegboardApplied.at``, the page's ``performance.timeOrigin + performance.now()``, on
the same wall clock as Python's ``time.time()``), and to the page's next frame after it. The
time seen from Python (polling the page every 10 ms) is printed too, and the time spent in
``controller.handle`` itself (the game, the OLED frame, the LEDs and the publish). Target: p99
under 100 ms here.

The web port's cost: a real daemon (``pegboard run --simulate --headless --wait-for-signal``
under a fake systemd notify socket, as ``bench_daemon.py`` measures it) started with a config
whose ``[web]`` is enabled and one whose ``[web]`` is not: start to READY and RSS at READY.
Targets: at most 0.2 s and 8 MiB more.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' browser flags

from bench_daemon import bench_daemon as daemon_ready

from pegboard.config.settings import parse_config
from pegboard.devices.ports import FakeClock, KeyEvent
from pegboard.journal import Journal
from pegboard.table.keyscript import read_script
from pegboard.table.simulator import config_for_script
from pegboard.table.wiring import build_controller, sim_ports
from pegboard.web.publisher import ViewPublisher
from pegboard.web.server import WebServer
from tests.web.conftest import CHROMIUM_ARGS  # launched as the page's tests launch it

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "tests" / "keys" / "six-card-lurch.keys"
APPLIED_JS = "() => window.pegboardApplied"
handled: list[float] = []  # ms in controller.handle (the game, the OLED, the LEDs, the publish)


def percentiles(ms: list[float]) -> str:
    """ "p50 1.00 ms   p99 2.00 ms   max 3.00 ms" """
    lat = sorted(ms)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    return f"p50 {statistics.median(lat):.2f} ms   p99 {p99:.2f} ms   max {lat[-1]:.2f} ms"


def bench_latency(games: int) -> tuple[list[float], list[float], list[float]]:
    """Per key that changed the game: ms to the DOM, to the next frame, and seen from Python."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("bench_web: needs Debian's chromium: sudo apt-get install chromium")
    script = read_script(GAME)
    keys = [step for step in script.steps if isinstance(step, KeyEvent)]
    to_dom: list[float] = []
    to_frame: list[float] = []
    seen: list[float] = []
    handled.clear()
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        for game in range(games):
            base = parse_config(f'[game]\ndatabase = "{Path(tmp) / f"g{game}.db"}"\n')
            config = config_for_script(base, script)
            server = WebServer("127.0.0.1", 0)
            server.start()
            with Journal(config.game.database) as store:
                publisher = ViewPublisher(server, store)
                ctl = build_controller(
                    config,
                    store,
                    sim_ports(config),
                    clock=FakeClock(1000.0),
                    on_change=publisher.publish,
                )
                page.goto(server.url)
                page.locator(f'body[data-version="{server.version}"]').wait_for(state="attached")
                for key in keys:
                    before = server.version
                    start = time.time()
                    tick = time.perf_counter()
                    ctl.handle(key)
                    handled.append((time.perf_counter() - tick) * 1000)
                    version = server.version
                    if version == before:
                        continue
                    # poll gently (Playwright's own wait polls on every frame, and on one core
                    # that polling takes CPU from the page it is timing)
                    applied = page.evaluate(APPLIED_JS)
                    while applied["version"] != version or applied.get("frame") is None:
                        time.sleep(0.01)
                        applied = page.evaluate(APPLIED_JS)
                    seen.append((time.perf_counter() - tick) * 1000)
                    to_dom.append(applied["at"] - start * 1000)
                    to_frame.append(applied["frame"] - start * 1000)
            server.close()
        browser.close()
    return to_dom, to_frame, seen


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bench_daemon(web: bool) -> tuple[float, int]:
    """Start to READY (seconds) and RSS at READY (KiB) of a daemon with or without the page."""
    config = f'[web]\nenabled = {"true" if web else "false"}\nbind = "127.0.0.1"\n'
    return daemon_ready(config + f"port = {free_port()}\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3, help="whole games played with the page")
    parser.add_argument("--runs", type=int, default=9, help="daemon starts with and without")
    args = parser.parse_args()
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    to_dom, to_frame, seen = bench_latency(args.games)
    print(f"key -> pub page DOM updated: {len(to_dom)} changes over {args.games} games of "
          f"{GAME.name} (headless Chromium)")  # fmt: skip
    print(f"  to the DOM:             {percentiles(to_dom)}")
    print(f"  to the next frame:      {percentiles(to_frame)}")
    print(f"  seen from Python:       {percentiles(seen)}")
    print(f"  in controller.handle:   {percentiles(handled)} (every key)")
    runs = {web: [bench_daemon(web) for _ in range(args.runs)] for web in (False, True)}
    for web in (False, True):
        ready = min(r[0] for r in runs[web]) * 1000
        median = statistics.median(r[0] for r in runs[web]) * 1000
        rss = statistics.median(r[1] for r in runs[web]) / 1024
        name = "[web] enabled" if web else "[web] off    "
        print(f"daemon {name}: start to READY {ready:.0f} ms best, {median:.0f} ms median; "
              f"RSS at READY {rss:.1f} MiB (median of {args.runs})")  # fmt: skip
    more_ready = (
        statistics.median(r[0] for r in runs[True]) - statistics.median(r[0] for r in runs[False])
    ) * 1000
    more_rss = (
        statistics.median(r[1] for r in runs[True]) - statistics.median(r[1] for r in runs[False])
    ) / 1024
    print(f"the web port costs: {more_ready:+.0f} ms to READY (target <= 200), "
          f"{more_rss:+.1f} MiB RSS (target <= 8)")  # fmt: skip


if __name__ == "__main__":
    main()
