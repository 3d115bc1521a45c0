"""A night's hub and one board, both real, for the end-to-end tournament tests: the league
service (its feed counting the night's games, its notifier telling the boards) on a real
Mosquitto, and ``run_daemon`` with ``[league]`` as board ``club/b1``, its keys pressed from the
test's thread as a keypad's would be."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pegboard.config.settings import parse_config
from pegboard.devices.ports import KeyAction, KeyEvent, KeySink
from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from pegboard.league.tourney_feed import TourneyFeed
from pegboard.league.tourney_notify import BoardNotifier
from pegboard.league.tourney_store import TourneyStore
from pegboard.table.controller import Controller
from pegboard.table.daemon import RunResult, run_daemon
from pegboard.table.wiring import sim_ports
from tests.table.notices import RecordingNotifier

HANG_GUARD = 60.0


class HandKeys:
    """A key source pressed from the test's thread (``press``), into the daemon's queue;
    "ok:long" is held (a long press)."""

    def __init__(self) -> None:
        self.sink: KeySink | None = None

    def start(self, sink: KeySink) -> None:
        self.sink = sink

    def close(self) -> None:
        self.sink = None

    def press(self, text: str) -> None:
        assert self.sink is not None
        for word in text.split():
            key, _, long = word.partition(":")
            self.sink(KeyEvent(key, KeyAction.LONG_PRESS if long else KeyAction.PRESS))


@dataclass
class Hub:
    """The running hub and board: the feed, the notifier, the board's controller and keys."""

    feed: TourneyFeed
    notifier: BoardNotifier
    ctl: Controller
    keys: HandKeys


@contextmanager
def hub_and_board(tmp_path: Path, port: int, night: TourneyStore) -> Iterator[Hub]:
    """The hub for *night* and board ``club/b1`` (names Red and Blue until told otherwise),
    both connected to the broker on *port*; stopped on the way out, where the daemon must have
    ended with its result."""
    feed = TourneyFeed(night)
    service = LeagueService(
        LeagueStore(tmp_path / "league.db"), Broker("127.0.0.1", port), on_game=feed
    )
    service.start()
    config = parse_config(
        f'[game]\ndatabase = "{tmp_path / "b1.db"}"\nnames = ["Red", "Blue"]\n'
        f'[league]\nbroker = "127.0.0.1"\nport = {port}\nvenue = "club"\nboard = "b1"\n'
    )
    keys = HandKeys()
    stop = threading.Event()
    ready = threading.Event()
    got: list[Controller] = []
    outcome: list[RunResult | BaseException] = []

    def on_ready(controller: Controller) -> None:
        got.append(controller)
        ready.set()

    def run() -> None:
        try:
            ports = sim_ports(config, [keys])
            notifier = RecordingNotifier()
            done = run_daemon(
                config,
                ports,
                notifier=notifier,
                stop=stop,
                install_signals=False,
                on_ready=on_ready,
            )
            outcome.append(done)
        except BaseException as e:  # shown by the assertion below
            outcome.append(e)

    daemon = threading.Thread(target=run, name="daemon")
    daemon.start()
    try:
        assert service.wait_connected(HANG_GUARD) and ready.wait(HANG_GUARD)
        yield Hub(feed, BoardNotifier(service.publish_retained), got[0], keys)
    finally:
        stop.set()  # the loop sees it within its poll
        daemon.join(HANG_GUARD)
        service.close()
        service.store.close()
    assert outcome and isinstance(outcome[0], RunResult), outcome
