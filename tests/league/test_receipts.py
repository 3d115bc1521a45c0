"""End-to-end acknowledgement (``league.receipt``): a real Mosquitto killed (SIGKILL) at each
point of a game's way, and every finished game is in the standings exactly once, its outbox row
gone only once the league confirmed it.

The broker saves only when told (``autosave_interval 3600``; SIGUSR1 is ``Mosquitto.save``),
so "before the save" and "after the save" are chosen, not timed. The board's clock is a fake
one: a wait for a receipt runs out when the test moves it on, never by itself.
"""

from __future__ import annotations

import signal
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pegboard.config.league import LeagueConfig
from pegboard.journal import Journal
from pegboard.league.publisher import RECEIPT_WAIT_MOST, LeaguePublisher
from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from tests.league.conftest import Mosquitto, finish_games, wait_until

Make = Callable[..., Mosquitto]

SAVE_ONLY_WHEN_TOLD = "allow_anonymous true\nautosave_interval 3600\n"


def rows(db: Path, table: str = "outbox") -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


class FakeClock:
    """Seconds since the epoch that move only when told."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class Pub:
    """A board in this process: its journal, its publisher (on a fake clock), and the league
    service, each started and closed by the test."""

    def __init__(self, tmp_path: Path, port: int) -> None:
        self.db = tmp_path / "board.db"
        self.league_db = tmp_path / "league.db"
        self.port = port
        self.clock = FakeClock()
        self.journal = Journal(self.db, outbox=True)
        self.board: LeaguePublisher | None = None
        self.league: LeagueService | None = None

    def board_on(self) -> LeaguePublisher:
        config = LeagueConfig("127.0.0.1", "red-lion", "t1", port=self.port)
        self.board = LeaguePublisher(config, self.db, poll=0.05, clock=self.clock)
        self.board.start()
        return self.board

    def board_off(self) -> None:
        if self.board is not None:
            self.board.close()
        self.board = None

    def league_on(self, *, timeout: float = 10.0) -> LeagueService:
        store = LeagueStore(self.league_db, timeout=timeout)
        self.league = LeagueService(store, Broker("127.0.0.1", self.port), client_id="league")
        self.league.start()
        assert self.league.wait_connected(30.0)
        return self.league

    def league_off(self) -> None:
        if self.league is not None:
            self.league.close()
            self.league.store.close()
        self.league = None

    def close(self) -> None:
        self.board_off()
        self.league_off()
        self.journal.close()

    def stored(self) -> int:
        assert self.league is not None
        return self.league.store.count()


@pytest.fixture
def pub(tmp_path: Path, mosquitto: Make) -> Iterator[tuple[Pub, Mosquitto]]:
    broker = mosquitto(extra=SAVE_ONLY_WHEN_TOLD).start()
    made = Pub(tmp_path, broker.port)
    yield made, broker
    made.close()


def restart(broker: Mosquitto) -> None:
    broker.kill()
    broker.start()


def settle(pub: Pub) -> None:
    """Both sides up, and the board's waits for receipts run out until every game is
    confirmed."""
    league = pub.league or pub.league_on()
    board = pub.board or pub.board_on()
    wait_until(lambda: league.wait_connected(0) and board.connected, 30.0, "both connected")
    moved = [0.0]

    def confirmed() -> bool:
        # the board's wait for a receipt runs out once a second of the test, not more often:
        # a send again that met a broker without the league's session is answered next time
        if time.monotonic() - moved[0] > 1.0:
            moved[0] = time.monotonic()
            pub.clock.now += RECEIPT_WAIT_MOST
        return rows(pub.db) == 0

    wait_until(confirmed, 30.0, "every game confirmed")


POINTS = [
    "before-puback",
    "after-puback-league-down",
    "after-puback-league-down-saved",
    "after-puback-league-busy",
    "stored-receipt-lost-board-away",
]


@pytest.mark.timeout(300)  # a hang guard: about 5 s alone
@pytest.mark.parametrize("point", POINTS)
def test_a_broker_killed_at_any_point_of_a_games_way_loses_no_game_and_counts_it_once(
    pub: tuple[Pub, Mosquitto], point: str
) -> None:
    league, broker = pub
    assert broker.process is not None
    league.league_on()  # the league's session exists: the broker queues for it from now on
    if "league-down" in point:
        league.league_off()
    board = league.board_on()
    wait_until(lambda: board.connected, 30.0, "the board connected")
    if point == "before-puback":
        broker.process.send_signal(signal.SIGSTOP)  # it takes nothing in, acknowledges nothing
        finish_games(league.journal, 1)
        wait_until(lambda: board.sends == 1, 30.0, "the game handed to paho")
        restart(broker)
        settle(league)
    else:
        busy = point in ("after-puback-league-busy", "stored-receipt-lost-board-away")
        if busy:  # the league takes the game but cannot store it yet: unacknowledged
            league.league_off()
            league.league_on(timeout=0.05)
            hold = sqlite3.connect(league.league_db, isolation_level=None)
            hold.execute("BEGIN EXCLUSIVE")
        finish_games(league.journal, 1)
        wait_until(lambda: rows(league.db, "outbox_sent") == 1, 30.0, "the broker's PUBACK")
        if busy:
            service = league.league
            assert service is not None
            wait_until(lambda: service.counts.unstored >= 1, 30.0, "the league trying to store")
        if point == "stored-receipt-lost-board-away":
            league.board_off()  # the receipt goes to nobody
            hold.execute("COMMIT")
            wait_until(lambda: league.stored() == 1, 30.0, "the game stored")
        if point == "after-puback-league-down-saved":
            broker.save()
        restart(broker)
        if point == "after-puback-league-busy":
            hold.execute("COMMIT")
        if busy:
            hold.close()
        settle(league)
    assert league.stored() == 1
    assert league.league is not None
    [ann, bob] = league.league.standings()
    assert (ann.name, ann.played, ann.won, bob.played) == ("Ann", 1, 1, 1)


@pytest.mark.timeout(300)  # a hang guard: about 3 s alone
def test_games_the_broker_dropped_from_a_full_queue_are_sent_again_and_arrive(
    tmp_path: Path, mosquitto: Make
) -> None:
    broker = mosquitto(extra=SAVE_ONLY_WHEN_TOLD + "max_queued_messages 5\n").start()
    league = Pub(tmp_path, broker.port)
    try:
        league.league_on()
        league.league_off()  # away: the broker queues at most 5 games for it
        league.board_on()
        finish_games(league.journal, 12)
        wait_until(lambda: rows(league.db, "outbox_sent") == 12, 30.0, "twelve PUBACKs")
        service = league.league_on()
        wait_until(lambda: service.counts.receipts >= 1, 30.0, "the queued games")
        settle(league)
        assert league.stored() == 12
        assert league.board is not None and league.board.resent >= 12 - 5  # dropped, sent again
    finally:
        league.close()


@pytest.mark.parametrize("name", ["pub.conf", "central.conf"])
def test_the_example_brokers_queue_a_league_services_absence_and_say_why(name: str) -> None:
    lines = (Path(__file__).resolve().parents[2] / "hardware" / "mosquitto" / name).read_text()
    said = lines.splitlines()
    settings = {
        line.split()[0]: (line.split()[1], said[i - 1])
        for i, line in enumerate(said)
        if line and not line.startswith("#")
    }
    assert int(settings["max_queued_messages"][0]) >= 10_000  # Mosquitto's 1000 lost games
    assert int(settings["max_queued_bytes"][0]) > 0
    assert settings["persistence"][0] == "true"
    assert settings["autosave_interval"][0] == "30"
    assert all(settings[key][1].startswith("#") for key in ("persistence", "max_queued_messages"))
