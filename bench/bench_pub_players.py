"""The pub page's players figures on a journal of 200 finished games (issue 14).

Run: ``.venv/bin/python bench/bench_pub_players.py [GAMES]`` (pin it: ``taskset -c 0``). It
plays ``tests/keys/six-card-lurch.keys`` once through the simulator, then stores its commands
as GAMES single-game matches (200; four players in turn, every deal counted on the device), and
times, best of 5: ``Journal.history()`` (every match replayed), ``standings`` over it, the
publisher's first look (nothing kept: everything replayed) and a later look when the evening
changes (the older matches kept: only the latest replayed), and the evening's two queries.

Then what the controller's thread pays now that a ``HistoryReader`` reads the history in its
own thread: the D press as it was (``history()`` and the page's figures in the key path), the
reader's reads (in its thread), and, in the controller's thread, a publish and a D press with
the reader idle and while its first read (everything replayed) runs beside it: the press then
waits only for the GIL, which the reader's replay gives up every 5 ms (``sys.getswitchinterval``).
Last, READY with the page on (``run_daemon``): the reader starts after it.
"""

from __future__ import annotations

import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from pegboard.devices.ports import KeyAction, KeyEvent
from pegboard.engine.commands import parse_command
from pegboard.engine.match import MatchFormat
from pegboard.engine.players import standings
from pegboard.engine.rules import Rules
from pegboard.engine.view import render_view
from pegboard.journal import Journal
from pegboard.journal.reader import HistoryReader
from pegboard.table.controller import Controller
from pegboard.ui.results import head_to_head_view
from pegboard.web.players import PlayerFigures
from pegboard.web.publisher import ViewPublisher
from pegboard.web.server import WebServer

ROOT = Path(__file__).resolve().parents[1]


def best(fn: object, n: int = 5) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def build(folder: Path, games: int) -> Path:
    keys = ROOT / "tests" / "keys" / "six-card-lurch.keys"
    one = folder / "one.db"
    env = {**os.environ, "HOME": str(folder), "PEGBOARD_CONFIG": "", "PEGBOARD_DB": ""}
    subprocess.run(
        [sys.executable, "-m", "pegboard", "run", "--simulate", "--headless", "--keys", str(keys),
         "--out", str(folder / "out"), "--db", str(one)],
        check=True, capture_output=True, env=env, cwd=ROOT,
    )  # fmt: skip
    with Journal(one, readonly=True) as source:
        source.load()
        commands = source.commands()
    db = folder / "many.db"
    pairs = list(itertools.permutations(["Ann", "Bob", "Cat", "Dan"], 2))
    with Journal(db) as store:
        for n in range(games):
            a, b = pairs[n % len(pairs)]
            state = store.new_match(Rules.six_card(), (a, b), MatchFormat.SINGLE)
            named = [" ".join({"Ann": a, "Bob": b}.get(w, w) for w in c.split()) for c in commands]
            store.do_all([parse_command(text, state.names) for text in named])
    return db


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    with tempfile.TemporaryDirectory() as folder:
        db = build(Path(folder), games)
        with Journal(db, readonly=True) as journal:
            journal.load()
            history = journal.history()
            rows = journal._conn.execute("SELECT count(*) FROM journal").fetchone()[0]
            print(f"{len(history)} matches, {sum(len(m.games) for m in history)} finished games, "
                  f"{rows} journal rows; Python {sys.version.split()[0]}")  # fmt: skip
            print(f"  Journal.history()            {best(journal.history) * 1000:7.1f} ms")
            tally = best(lambda: standings(history))
            print(f"  standings(history)           {tally * 1000:7.1f} ms")
            cold = best(lambda: PlayerFigures().payload(journal))
            print(f"  first look (all replayed)    {cold * 1000:7.1f} ms")
            figures = PlayerFigures()
            figures.payload(journal)
            warm = best(lambda: figures.payload(journal))
            print(f"  evening change (latest only) {warm * 1000:7.1f} ms")
            queries = best(lambda: (journal.finished_games(), journal.lurches()))
            print(f"  finished_games() + lurches() {queries * 1000:7.1f} ms")
            names = history[-1].names
            before = best(lambda: head_to_head_view(journal.history(), *names[:2]), 3)
            print(f"  D press before (in the key path) {before * 1000:7.1f} ms")
        controller_thread(db)
        print(f"  READY with [web] (run_daemon, simulator's ports) {ready(db) * 1000:7.1f} ms")
    return 0


def ready(db: Path) -> float:
    """Seconds from ``run_daemon`` to READY with the page on: the best of 3."""
    import dataclasses

    from pegboard.config.settings import config_from_mapping
    from pegboard.table.daemon import run_daemon
    from pegboard.table.sdnotify import Notifier
    from pegboard.table.wiring import sim_ports

    config = config_from_mapping({"game": {"database": str(db)}})
    web = dataclasses.replace(config.web, enabled=True, bind="127.0.0.1", port=0)
    config = dataclasses.replace(config, web=web)
    times = []
    for _ in range(3):
        stop = threading.Event()
        result = run_daemon(
            config, sim_ports(config), notifier=Notifier(env={}), stop=stop,
            install_signals=False, on_ready=lambda ctl, s=stop: s.set(),
        )  # fmt: skip
        assert result.ready_after is not None
        times.append(result.ready_after)
    return min(times)


MENU, D, LEAVE = KeyEvent("ok", KeyAction.LONG_PRESS), KeyEvent("D"), KeyEvent("5")


def press_d(ctl: Controller) -> float:
    """One D press (the menu, D), timed, then a key that leaves the page."""
    ctl.handle(MENU)
    start = time.perf_counter()
    ctl.handle(D)
    took = time.perf_counter() - start
    shown.append(ctl.screen.record)
    ctl.handle(LEAVE)
    return took


shown: list[object] = []  # the page each press showed


def controller_thread(db: Path) -> None:
    """What the controller's thread pays with the history read beside it."""
    print("with the HistoryReader (the daemon's way):")
    store = Journal(db)
    server = WebServer()  # never started: publish only swaps bytes
    reader = HistoryReader(db)
    publisher = ViewPublisher(server, reader=reader)
    reads: list[float] = []
    done = threading.Event()
    started = [0.0]

    def finished(snapshot: object) -> None:
        reads.append(time.perf_counter() - started[0])
        done.set()

    ctl = Controller(store=store, history=reader, on_change=publisher.publish)
    reader.listen(finished)  # after the page's and the publisher's: both are done then
    busy: list[float] = []
    started[0] = time.perf_counter()
    reader.start()  # the first read: every match replayed, beside the presses below
    while not done.is_set():
        busy.append(press_d(ctl))
    waiting = sum(1 for r in shown if getattr(r, "reading", False))
    idle = [press_d(ctl) for _ in range(50)]
    print(f"  reader: first read (everything) {reads[0] * 1000:7.1f} ms, in its own thread")
    done.clear()
    started[0] = time.perf_counter()
    reader.poke()  # an evening change: only the latest match replayed
    done.wait(60)
    print(f"  reader: an evening change       {reads[1] * 1000:7.1f} ms, in its own thread")
    state = ctl.state
    view = render_view(state)
    publish = best(lambda: publisher.publish(state, view), 20)
    print(f"  publish (controller's thread)   {publish * 1000:7.2f} ms (no journal read)")
    print(f"  D press, reader idle            median {statistics.median(idle) * 1000:6.2f} ms,"
          f" max {max(idle) * 1000:6.2f} ms ({len(idle)} presses)")  # fmt: skip
    print(f"  D press, reader's first read    median {statistics.median(busy) * 1000:6.2f} ms,"
          f" max {max(busy) * 1000:6.2f} ms ({len(busy)} presses; GIL shared)")  # fmt: skip
    print(f"  presses that showed 'reading the scores…': {waiting}; after the read: {shown[-1]}")
    reader.close()
    store.close()


if __name__ == "__main__":
    sys.exit(main())
