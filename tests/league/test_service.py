"""The league service without a broker: its messages handed in, its page's payload."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pegboard.league.receipt import Receipt
from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from tests.league.parsed import count_parsed

FINISHED = "pegboard/v1/red-lion/t1/finished"
LIVE = "pegboard/v1/red-lion/t1/live"


def game(number: int) -> bytes:
    """Game *number*'s payload: Ann beats Bob, ending a minute after game *number* - 1."""
    return json.dumps(
        {
            "game_id": f"g{number}",
            "variant": "six-card",
            "target": 121,
            "sides": [
                {"name": "Ann", "score": 121, "won": True, "lurch": "none"},
                {"name": "Bob", "score": 100, "won": False, "lurch": "none"},
            ],
            "ended": f"2026-01-01T{number // 60:02d}:{number % 60:02d}:00",
        }
    ).encode()


@pytest.fixture
def service(tmp_path: Path) -> Iterator[LeagueService]:
    made = LeagueService(LeagueStore(tmp_path / "league.db"), Broker("127.0.0.1", 1))
    yield made
    made.store.close()


def test_the_live_views_lags_kept_are_the_latest_only(service: LeagueService) -> None:
    for number in range(2000):
        live = {"view": {"n": number}, "sent": time.time() - number}
        service.handle(LIVE, json.dumps(live).encode())
    assert service.counts.messages == 2000
    assert len(service.counts.lag) == 1000  # service.LAGS_KEPT
    assert min(service.counts.lag) > 999  # the later views, sent longer ago


def test_a_page_refresh_reads_no_stored_game_however_many_there_are(
    service: LeagueService, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = count_parsed(monkeypatch)
    for stored in (20, 400):
        for number in range(service.counts.finished, stored):
            service.handle(FINISHED, game(number))
        service.payload()  # the first after new games reads them
        read.clear()
        for number in range(5):
            service.handle(LIVE, json.dumps({"view": {"n": number}}).encode())
            page = service.payload()
        assert read == [], f"a refresh with {stored} games read {len(read)} of them"
        assert page["games"] == stored and len(page["recent"]) == 12
        assert page["recent"][0]["ended"] == json.loads(game(stored - 1))["ended"]
        assert page["standings"][0]["played"] == stored


def test_a_game_whose_loser_reached_the_target_is_refused_counted_and_logged_once(
    service: LeagueService, caplog: pytest.LogCaptureFixture
) -> None:
    bad = json.loads(game(1))
    bad["sides"][1]["score"] = 121  # the loser at the target: no board ends a game so
    with caplog.at_level(logging.WARNING, logger="pegboard.league"):
        service.handle(FINISHED, json.dumps(bad).encode())
    assert service.counts.refused == 1 and service.store.count() == 0
    said = [r.getMessage() for r in caplog.records if r.name.startswith("pegboard")]
    assert len(said) == 1 and said[0].startswith("league: a game from red-lion/t1 was refused: ")
    assert "the loser 'Bob' scored 121, the target 121 or more" in said[0]
    service.handle(FINISHED, game(2))  # a real game still counts
    assert service.counts.refused == 1 and service.store.count() == 1


def test_a_stored_game_the_check_now_refuses_is_left_out_and_said_once(
    service: LeagueService, caplog: pytest.LogCaptureFixture
) -> None:
    """A database kept before the check was strict may hold an impossible game: the standings
    and the page leave it out (logged once) rather than fail."""
    service.handle(FINISHED, game(1))
    bad = json.loads(game(2))
    bad["sides"][1]["score"] = 130  # stored by an older version, straight into the table
    with service.store._lock:
        service.store._conn.execute(
            "INSERT INTO games (game_id, revision, venue, board, withdrawn, payload, received) "
            "VALUES ('g2', 1, 'red-lion', 't1', 0, ?, '2026-01-01T00:00:00')",
            (json.dumps(bad),),
        )
    with caplog.at_level(logging.WARNING, logger="pegboard.league"):
        assert [g.game_id for g in service.store.games()] == ["g1"]
        assert [g.game_id for g in service.store.games()] == ["g1"]
        page = service.payload()
    assert page["standings"][0]["played"] == 1
    said = [r.getMessage() for r in caplog.records if r.name.startswith("pegboard")]
    assert len(said) == 1 and said[0].startswith("league: a stored game of red-lion/t1 is left out")


def test_a_new_game_reaches_the_page_reading_only_the_latest_games(
    service: LeagueService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cost follows new work: the page after a new game reads the stored totals and the
    latest games, not every game stored (it read all 301 before the running totals)."""
    for number in range(300):
        service.handle(FINISHED, game(number))
    service.payload()
    read = count_parsed(monkeypatch)
    service.handle(FINISHED, game(300))
    page = service.payload()
    assert len(read) <= 1 + 12, f"one new game read {len(read)} stored games"
    assert page["games"] == 301 and page["standings"][0]["played"] == 301
    assert page["recent"][0]["ended"] == json.loads(game(300))["ended"]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        pytest.param({"variant": "chess"}, "unknown variant 'chess'", id="chess"),
        pytest.param(
            {
                "sides": [
                    {"name": "Ann", "score": 121, "won": True, "lurch": "none"},
                    {"name": "Bob", "score": 100, "won": False, "lurch": "lurched"},
                ]
            },
            "the loser 'Bob' on 100 marked 'lurched' (expected 'none'",
            id="lurched-on-100",
        ),
    ],
)
def test_a_game_its_variant_could_not_finish_is_refused_and_logged_once(
    service: LeagueService, caplog: pytest.LogCaptureFixture, change: dict[str, Any], why: str
) -> None:
    bad = {**json.loads(game(1)), **change}
    with caplog.at_level(logging.WARNING, logger="pegboard.league"):
        service.handle(FINISHED, json.dumps(bad).encode())
    assert service.counts.refused == 1 and service.store.count() == 0
    said = [r.getMessage() for r in caplog.records if r.name.startswith("pegboard")]
    assert len(said) == 1 and said[0].startswith("league: a game from red-lion/t1 was refused: ")
    assert why in said[0]
    assert service.payload()["standings"] == []


def test_an_oversize_message_is_refused_before_it_is_read(
    service: LeagueService, caplog: pytest.LogCaptureFixture
) -> None:
    """A 300 KB live view (a 30 MB one raised the service to 273 MiB) and a 300 KB finished
    game are refused unread: nothing is kept, and the page shows no live view for the board."""
    view = json.dumps({"view": {"pad": "x" * 300_000}, "sent": time.time()}).encode()
    finished = json.loads(game(1))
    finished["deals"] = [{"number": 1, "dealer": "Ann", "points": [1, 0], "pad": "y" * 300_000}]
    with caplog.at_level(logging.WARNING, logger="pegboard.league"):
        service.handle(LIVE, view)
        service.handle(FINISHED, json.dumps(finished).encode())
    said = [r.getMessage() for r in caplog.records if r.name.startswith("pegboard")]
    assert said == [
        f"league: {LIVE} refused: {len(view)} bytes (at most 262144)",
        f"league: {FINISHED} refused: {len(json.dumps(finished))} bytes (at most 262144)",
    ]
    assert service.store.count() == 0
    assert all(board.live is None for board in service._boards.values())
    service.handle(FINISHED, game(2))  # a real game still counts
    assert service.store.count() == 1


def test_a_refused_game_sent_again_is_said_once_and_its_board_told(
    service: LeagueService, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board keeps each game until the league's receipt: a game the league refuses must get
    one too (saying it was refused), else the board sends it again for ever and the hub logs
    it each time (before: three copies, three warnings, no receipt)."""
    told: list[tuple[str, str]] = []
    monkeypatch.setattr(
        service._client, "publish", lambda name, body, qos=0: told.append((name, body))
    )
    bad = {**json.loads(game(1)), "variant": "chess"}
    with caplog.at_level(logging.WARNING, logger="pegboard.league"):
        for _ in range(3):  # the first send and two sends again
            service.handle(FINISHED, json.dumps(bad).encode())
    said = [r.getMessage() for r in caplog.records if r.name.startswith("pegboard")]
    assert len(said) == 1 and "unknown variant 'chess'" in said[0], said
    assert service.counts.refused == 3 and service.store.count() == 0
    assert len(told) == 3
    name, body = told[0]
    assert name == "pegboard/v1/red-lion/t1/receipt"
    receipt = Receipt.from_payload(body)
    assert (receipt.game_id, receipt.revision) == ("g1", 1)
    assert receipt.refused is not None and "unknown variant 'chess'" in receipt.refused
