"""The hub tells each board of the night its next pairing and the lock, retained, over a real
Mosquitto: a board gets its table's pairing when the round is seated, the lock when the
director turns it on, an empty notice once its game is counted, and a board that connects
late gets its notice at once."""

from __future__ import annotations

import queue
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from pegboard.config.league import LeagueConfig
from pegboard.league.publisher import LeaguePublisher
from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from pegboard.league.tourney_notify import BoardNotifier
from pegboard.league.tourney_store import TourneyStore
from pegboard.tourney.night import Result, TourneyError, seat
from pegboard.tourney.notices import TableNotice, board_notices
from pegboard.tourney.steps import Tourney, result_payload, seating_payload
from tests.league.conftest import Mosquitto

HANG_GUARD = 30.0


def board(tmp_path: Path, name: str, port: int) -> tuple[LeaguePublisher, queue.Queue[TableNotice]]:
    got: queue.Queue[TableNotice] = queue.Queue()
    config = LeagueConfig("127.0.0.1", "club", name, port=port)
    publisher = LeaguePublisher(config, tmp_path / f"{name}.db", on_tourney=got.put)
    publisher.start()
    return publisher, got


def next_notice(got: queue.Queue[TableNotice]) -> TableNotice:
    return got.get(timeout=HANG_GUARD)


def test_each_board_gets_its_pairing_the_lock_and_a_late_board_its_notice(
    tmp_path: Path, mosquitto: Callable[..., Mosquitto]
) -> None:
    broker = mosquitto().start()
    night = TourneyStore.create(tmp_path / "tourney.db", "club", 3)
    for name in ("Ann", "Bob", "Cy", "Di"):
        night.add("enter", {"name": name}, at="t", by="director")
    night.add("boards", {"boards": ["club/b1", "club/b2"]}, at="t", by="director")
    service = LeagueService(LeagueStore(tmp_path / "league.db"), Broker("127.0.0.1", broker.port))
    service.start()
    notifier = BoardNotifier(service.publish_retained)
    b1, got1 = board(tmp_path, "b1", broker.port)
    b2 = None
    try:
        assert service.wait_connected(HANG_GUARD)
        assert notifier.update(night.tourney) == 2
        assert next_notice(got1) == TableNotice("club")  # in the night, nothing to play yet
        drawn = seat(night.night, random.Random(1)).rounds[-1]
        night.add("seat", seating_payload(drawn), at="t", by="director")
        assert notifier.update(night.tourney) == 2
        p = drawn.pairings[0]
        assert next_notice(got1) == TableNotice("club", 1, 1, p.first, p.second, False)
        assert notifier.update(night.tourney) == 0  # nothing changed: nothing sent
        night.add("lock", {"on": True}, at="t", by="director")
        notifier.update(night.tourney)
        assert next_notice(got1).locked is True
        result = Result(1, 1, p.first, p.second, 121, 100, "club/b1", "g1")
        night.add("report", result_payload(result), at="t", by="club/b1")
        notifier.update(night.tourney)
        assert next_notice(got1) == TableNotice("club", locked=True)  # played: none now
        # a board that connects now gets its retained notice at once
        b2, got2 = board(tmp_path, "b2", broker.port)
        q = drawn.pairings[1]
        assert next_notice(got2) == TableNotice("club", 1, 2, q.first, q.second, True)
    finally:
        for publisher in (b1, b2):
            if publisher is not None:
                publisher.close()
        service.close()
        service.store.close()
        night.close()


def test_the_notices_follow_the_last_round_and_a_bad_notice_is_refused() -> None:
    from tests.tourney.build import night_of

    night = night_of([[("Ann", "Bob", 100), ("Cy", "Di", 90)]])
    assert board_notices(Tourney(night)) == {}  # no boards: nothing to tell
    with pytest.raises(TourneyError, match=r"players are not a pairing"):
        TableNotice.from_payload(
            {"night": "x", "round": 1, "table": 2, "first": "Ann", "second": "Ann", "locked": False}
        )
