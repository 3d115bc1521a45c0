"""The league over a real Mosquitto on loopback: board-to-standings latency, and 50 boards.

    .venv/bin/python bench/bench_league.py [--games 40] [--boards 50] [--rate 2] [--seconds 20]
                                           [--stored 5000] [--payload-only]

1. Latency: a board (the journal with its outbox and the league publisher, in this process)
   finishes games one after another; each is timed from the moment its winning peg is
   committed (``Journal.do`` returns; the controller then hands the view to the publisher) to
   the moment the league page's event stream (``pegboard league serve``, its own process)
   shows it in the standings. p50 and p99.
2. Load: *boards* simulated boards (paho clients in this process) each publish a real live
   view (retained, QoS 0, as a board does) *rate* times a second for *seconds*. Printed: the
   messages the league service took per second, the page's lag (a payload's arrival on the
   stream minus the newest board view it carries: the 0.25 s refresh is part of it), and the
   league service's CPU (its process's user+system time over the window).
3. The page's payload (``LeagueService.payload``, no broker) with *stored* games in the league's
   database: the mean time of a refresh (a live view changed, no new game), and of the first
   payload after a new game.

Loopback only; mosquitto must be installed (``make test`` installs it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from pegboard.config.league import LeagueConfig
from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, Phase, apply
from pegboard.engine.rules import Rules
from pegboard.engine.view import render_view
from pegboard.journal import Journal
from pegboard.league.publisher import LeaguePublisher, live_payload
from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_broker(folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    port = free_port()
    (folder / "data").mkdir()
    user = "user root\n" if os.geteuid() == 0 else ""
    conf = folder / "mosquitto.conf"
    conf.write_text(
        f"{user}listener {port} 127.0.0.1\nallow_anonymous true\npersistence true\n"
        f"persistence_location {folder / 'data'}/\nmax_queued_messages 100000\n"
        "set_tcp_nodelay true\n"
    )
    broker = subprocess.Popen([binary, "-c", str(conf)], stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return broker, port
        except OSError:
            time.sleep(0.02)
    raise SystemExit("mosquitto did not start")


class Stream:
    """The league page's event stream, read in a thread: (arrival time, payload) of each."""

    def __init__(self, url: str) -> None:
        host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)))
        self.sock.sendall(b"GET /events HTTP/1.1\r\nHost: league\r\n\r\n")
        self.payloads: list[tuple[float, dict[str, object]]] = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buffer = b""
        while chunk := self.sock.recv(1 << 20):
            now = time.perf_counter()
            buffer += chunk
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                for line in event.split(b"\n"):
                    if line.startswith(b"data: "):
                        with self.cond:
                            self.payloads.append((now, json.loads(line[6:])))
                            self.cond.notify_all()

    def wait_games(self, games: int, timeout: float = 10.0) -> float:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for at, payload in reversed(self.payloads):
                    if payload.get("games") == games:
                        return at
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SystemExit(f"game {games} never reached the page")
                self.cond.wait(left)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def latency(port: int, stream: Stream, folder: Path, games: int) -> list[float]:
    db = folder / "board.db"
    store = Journal(db, outbox=True)
    publisher = LeaguePublisher(LeagueConfig("127.0.0.1", "red-lion", "t1", port=port), db)
    publisher.start()
    times = []
    try:
        while not publisher.connected:
            time.sleep(0.01)
        for number in range(1, games + 1):
            state = store.state
            if state is None or state.phase is Phase.MATCH_OVER:
                state = store.new_match(Rules.six_card(), ("Ann", "Bob"))
            names = state.names
            texts = ["next"] if state.phase is Phase.GAME_OVER else []
            texts += ["cut 9C 3D"] if state.phase is Phase.CUT else []
            texts += ["starter 5C", "peg Bob 50", "peg Ann 60"]
            for text in texts:
                if (
                    store.state is not None
                    and text == "cut 9C 3D"
                    and store.state.phase is not Phase.CUT
                ):
                    continue
                store.do(parse_command(text, names))
            store.do(parse_command("peg Ann 61", names))
            started = time.perf_counter()
            assert store.state is not None
            publisher.on_change(store.state, render_view(store.state))
            times.append(stream.wait_games(number) - started)
    finally:
        publisher.close()
        store.close()
    return times


def load(port: int, stream: Stream, pid: int, boards: int, rate: float, seconds: float) -> None:
    state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
    for text in ("cut 9C 3D", "starter 5C", "peg Bob 30", "peg Ann 40"):
        state, _ = apply(state, parse_command(text, state.names))
    view = render_view(state)
    clients = []
    for i in range(boards):
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"sim-{i}", protocol=mqtt.MQTTv5)
        c.connect("127.0.0.1", port)
        c.loop_start()
        clients.append(c)
    base = live_payload(state, view, "sim", "t0")
    size = len(json.dumps(base))
    sent = 0
    first = len(stream.payloads)
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    period = 1.0 / rate
    next_round = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for i, c in enumerate(clients):
            body = json.dumps(base | {"board": f"t{i}", "sent": time.time()})
            c.publish(f"pegboard/v1/sim/t{i}/live", body, qos=0, retain=True)
            sent += 1
        next_round += period
        time.sleep(max(0.0, next_round - time.perf_counter()))
    sending = time.perf_counter() - t0
    time.sleep(0.5)
    elapsed, cpu = time.perf_counter() - t0, cpu_seconds(pid) - cpu0
    for c in clients:
        c.disconnect()
        c.loop_stop()
    window = stream.payloads[first:]
    handled = (int(window[-1][1]["messages"]) - int(window[0][1]["messages"])) if window else 0  # type: ignore[call-overload]
    span = window[-1][0] - window[0][0] if len(window) > 1 else 1.0
    lags = []
    wall = time.time() - time.perf_counter()
    for at, payload in window:
        stamps = [b["sent"] for b in payload["boards"] if b.get("sent")]  # type: ignore[union-attr]
        if stamps:
            lags.append(at + wall - max(stamps))
    lags.sort()
    print(f"load: {boards} boards x {rate:g}/s for {seconds:g} s, live views of {size} bytes")
    print(f"  sent {sent} ({sent / sending:.0f}/s); the league took {handled / span:.0f}/s")
    print(f"  page payloads: {len(window)} ({len(window) / span:.1f}/s)")
    if lags:
        print(
            f"  page lag: p50 {1000 * statistics.median(lags):.0f} ms, "
            f"p99 {1000 * lags[int(0.99 * (len(lags) - 1))]:.0f} ms"
        )
    print(f"  league service CPU: {100 * cpu / elapsed:.1f}% of one core ({cpu:.2f} s)")


def stored_game(number: int, names: list[str]) -> dict[str, object]:
    """A finished game's payload as a board sends it, between two of *names*."""
    winner, loser = names[number % len(names)], names[(7 * number + 3) % len(names)]
    if loser == winner:
        loser = names[(number + 1) % len(names)]
    return {
        "game_id": f"bench-{number}",
        "revision": 1,
        "variant": "six-card",
        "target": 121,
        "game_points": 2,
        "winner": winner,
        "sides": [
            {"name": winner, "players": [winner], "score": 121, "won": True, "lurch": "none"},
            {"name": loser, "players": [loser], "score": 100, "won": False, "lurch": "none"},
        ],
        "deals": [
            {"number": i, "dealer": winner, "starter": "5C", "points": [10, 8]}
            for i in range(1, 10)
        ],
        "started": "2026-01-01T00:00:00",
        "ended": f"2026-01-01T{number:08d}",
    }


def payload_cost(folder: Path, stored: int, refreshes: int = 50) -> None:
    store = LeagueStore(folder / "payload.db")
    names = [f"P{i}" for i in range(40)]
    # one transaction (``add_all``): the same path as ``add``, without a commit per game
    store.add_all(("red-lion", "t1", stored_game(number, names)) for number in range(stored))
    service = LeagueService(store, Broker("127.0.0.1", 1))
    live = json.dumps({"view": None, "sent": time.time()}).encode()
    try:
        service.payload()
        started = time.perf_counter()
        for _ in range(refreshes):
            service.handle("pegboard/v1/red-lion/t1/live", live)
            service.payload()
        refresh = (time.perf_counter() - started) / refreshes
        finished = json.dumps(stored_game(stored, names)).encode()
        started = time.perf_counter()
        service.handle("pegboard/v1/red-lion/t1/finished", finished)
        service.payload()
        after_game = time.perf_counter() - started
    finally:
        store.close()
    print(
        f"page payload with {stored} games: a refresh {1000 * refresh:.2f} ms, "
        f"after a new game {1000 * after_game:.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--boards", type=int, default=50)
    parser.add_argument("--rate", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--stored", type=int, default=5000, help="games for the payload's cost")
    parser.add_argument("--payload-only", action="store_true", help="only the payload's cost")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        payload_cost(folder, args.stored)
        if args.payload_only:
            return 0
        broker, port = start_broker(folder)
        serve = subprocess.Popen(
            [sys.executable, "-m", "pegboard", "league", "serve", "--broker",
             f"127.0.0.1:{port}", "--db", str(folder / "league.db"), "--web-port", "0"],
            stdout=subprocess.PIPE, text=True, cwd=ROOT,
        )  # fmt: skip
        try:
            assert serve.stdout is not None
            url = serve.stdout.readline().split("standings at ")[1].split()[0]
            stream = Stream(url)
            times = sorted(latency(port, stream, folder, args.games))
            p50, p99 = statistics.median(times), times[int(0.99 * (len(times) - 1))]
            print(
                f"board to standings: {len(times)} games, "
                f"p50 {1000 * p50:.1f} ms, p99 {1000 * p99:.1f} ms"
            )
            load(port, stream, serve.pid, args.boards, args.rate, args.seconds)
        finally:
            serve.send_signal(signal.SIGTERM)
            serve.wait(10)
            broker.terminate()
            broker.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
