"""A league service away for a fortnight: 1,100 finished games from four boards reach the pub's
broker while it is down, through the shipped ``hardware/mosquitto/pub.conf`` and ``acl`` (only
their paths and port swapped for the test's), and every one is in the standings once when it is
back.

Before: Mosquitto's default queue for an offline session (``max_queued_messages 1000``, the
boards' "online" among them) dropped the last 104 without a word, and the boards, which deleted
each game on the broker's PUBACK, had lost them: 996 of 1,100 stored. Now the shipped config
queues 50,000, so all 1,100 come from the broker's queue (the boards' clocks are fake ones that
never move, so no board sends a game again by its timer: a game the broker dropped would never
arrive); and with Mosquitto's default queue, the boards keep the dropped ones until the league's
receipt and send them again. Either way the receipts empty every board's outbox.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from pegboard.config.league import LeagueConfig
from pegboard.journal import Journal
from pegboard.league.publisher import RECEIPT_WAIT, LeaguePublisher
from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from tests.league.conftest import Mosquitto, finish_games, wait_until
from tests.league.shipped import BOARDS, shipped_pub_broker
from tests.league.test_receipts import FakeClock, rows

Make = Callable[..., Mosquitto]

GAMES = 1100  # past Mosquitto's default queue of 1000 for an offline session
HANG_GUARD_S = 120.0


def league_service(tmp_path: Path, port: int) -> LeagueService:
    (tmp_path / "league.pw").write_text("l-secret\n")
    service = LeagueService(
        LeagueStore(tmp_path / "league.db"),
        Broker("127.0.0.1", port, "league", tmp_path / "league.pw"),
    )
    service.start()
    assert service.wait_connected(30.0)
    return service


def board_publisher(tmp_path: Path, port: int, board: str, db: Path) -> LeaguePublisher:
    (tmp_path / f"{board}.pw").write_text(f"{board}-secret\n")
    config = LeagueConfig(
        "127.0.0.1", "red-lion", board, port=port, password_file=tmp_path / f"{board}.pw"
    )
    return LeaguePublisher(config, db, poll=0.05, clock=FakeClock())


def play(db: Path) -> None:
    """A board's share of the games, finished on its journal (each in its outbox)."""
    with Journal(db, outbox=True) as journal:
        finish_games(journal, GAMES // len(BOARDS))


def quiet(service: LeagueService, journals: dict[str, Path], still: float) -> None:
    """Wait until every board's outbox is empty (each game confirmed), or until the league has
    stored nothing new for *still* seconds (what the broker had queued has come)."""
    last, since = -1, time.monotonic()
    while any(rows(db) for db in journals.values()):
        count = service.store.count()
        if count != last:
            last, since = count, time.monotonic()
        elif time.monotonic() - since > still:
            return
        time.sleep(0.1)


class Outage:
    """The pub: its broker (*queue*: as ``shipped_pub_broker``), the league service's session
    made and the service gone, and each board's share of ``GAMES`` finished and PUBACKed."""

    def __init__(self, tmp_path: Path, mosquitto: Make, *, queue: bool) -> None:
        self.tmp_path = tmp_path
        self.boards: list[LeaguePublisher] = []
        self.service: LeagueService | None = None
        began = time.monotonic()
        self.broker = shipped_pub_broker(tmp_path, mosquitto, queue)
        service = league_service(tmp_path, self.broker.port)  # queued for from now on
        service.close()
        service.store.close()
        self.journals = {board: tmp_path / f"{board}.db" for board in BOARDS}
        with ThreadPoolExecutor(len(BOARDS)) as pool:  # the boards play side by side
            list(pool.map(play, self.journals.values()))
        self.took = {"built": time.monotonic() - began}

    def send(self) -> None:
        """Every board sends its games; returns once the broker has taken them all."""
        began = time.monotonic()
        self.boards = [
            board_publisher(self.tmp_path, self.broker.port, b, db)
            for b, db in self.journals.items()
        ]
        for board in self.boards:
            board.start()
        wait_until(
            lambda: sum(rows(db, "outbox_sent") for db in self.journals.values()) == GAMES,
            HANG_GUARD_S,
            f"the broker's {GAMES} PUBACKs",
        )
        self.took["PUBACKed"] = time.monotonic() - began

    def back(self) -> LeagueService:
        """The league service, back."""
        self.service = league_service(self.tmp_path, self.broker.port)
        return self.service

    def close(self) -> None:
        for board in self.boards:
            board.close()
        if self.service is not None:
            self.service.close()
            self.service.store.close()

    def dropped(self) -> int:
        """How often the broker said it dropped messages for a full queue."""
        log = (self.broker.folder / "mosquitto.log").read_text(errors="replace")
        return log.count("Outgoing messages are being dropped")

    def resent(self) -> int:
        return sum(board.resent for board in self.boards)

    def stored_once(self) -> tuple[int, int, int]:
        """The games in the store: counted, distinct ids and rows."""
        assert self.service is not None
        with sqlite3.connect(self.tmp_path / "league.db") as conn:
            query = "SELECT COUNT(DISTINCT game_id), COUNT(*) FROM games"
            ids, rows_ = conn.execute(query).fetchone()
        return self.service.store.count(), int(ids), int(rows_)

    def table(self) -> dict[str, tuple[int, int]]:
        assert self.service is not None
        return {s.name: (s.played, s.won) for s in self.service.standings()}


@pytest.mark.timeout(600)  # a hang guard: about 11 s alone
def test_eleven_hundred_games_sent_while_the_league_is_down_are_all_stored_once(
    tmp_path: Path, mosquitto: Make
) -> None:
    pub = Outage(tmp_path, mosquitto, queue=True)
    try:
        pub.send()
        came = time.monotonic()
        service = pub.back()
        quiet(service, pub.journals, still=30)  # a hang guard: 30 s with nothing new
        confirmed = time.monotonic() - came
        stored, table, dropped, resent = pub.stored_once(), pub.table(), pub.dropped(), pub.resent()
    finally:
        pub.close()
    print(
        f"\n{GAMES} games from {len(BOARDS)} boards while the league was down (shipped "
        f"pub.conf): {stored[0]} stored, {resent} sent again, the broker dropped messages "
        f"{dropped} time(s); built {pub.took['built']:.1f} s, PUBACKed "
        f"{pub.took['PUBACKed']:.1f} s, stored and confirmed {confirmed:.1f} s"
    )
    assert stored == (GAMES, GAMES, GAMES)
    assert table == {"Ann": (GAMES, GAMES), "Bob": (GAMES, 0)}
    assert (resent, dropped) == (0, 0)  # all from the broker's queue: none dropped


@pytest.mark.timeout(600)  # a hang guard: about 15 s alone
def test_past_mosquittos_default_queue_the_boards_send_the_dropped_games_again(
    tmp_path: Path, mosquitto: Make
) -> None:
    """Without the shipped queue limits the broker keeps 1000 messages for the league (the
    boards' "online" among them) and drops the rest: the boards, which keep each game until its
    receipt, send the missing ones again once their wait runs out, and all 1,100 count once."""
    pub = Outage(tmp_path, mosquitto, queue=False)
    try:
        pub.send()
        service = pub.back()
        quiet(service, pub.journals, still=3)  # the broker's queue has come
        first = service.store.count()
        for board in pub.boards:  # each board's wait for its receipts runs out
            assert isinstance(board.clock, FakeClock)
            board.clock.now += RECEIPT_WAIT
        quiet(service, pub.journals, still=30)  # a hang guard: 30 s with nothing new
        stored, table, dropped, resent = pub.stored_once(), pub.table(), pub.dropped(), pub.resent()
    finally:
        pub.close()
    print(
        f"\n{GAMES} games while the league was down, Mosquitto's default queue: the broker "
        f"dropped messages ({dropped} notice), {first} came from its queue, {resent} sent "
        f"again by the boards, {stored[0]} stored"
    )
    assert dropped >= 1 and first < GAMES  # the broker did drop some
    assert resent >= GAMES - first
    assert stored == (GAMES, GAMES, GAMES)
    assert table == {"Ann": (GAMES, GAMES), "Bob": (GAMES, 0)}
