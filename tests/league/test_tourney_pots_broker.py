"""The side pots end to end on a real Mosquitto on 127.0.0.1: a board plays its table's game
(a 29, a 28 told by points, four sevens), its journal's outbox sends the finished game with its
shows, the league service hands it to the night, and the night's pots list the hands with
who and when; a game with no big hand adds none."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules
from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from pegboard.league.tourney_feed import TourneyFeed
from pegboard.league.tourney_store import TourneyStore
from pegboard.tourney.night import seat
from pegboard.tourney.pots import side_pots
from pegboard.tourney.steps import seating_payload
from tests.engine.test_summary_shows import BIG_GAME
from tests.league.conftest import Mosquitto, wait_until
from tests.league.test_tourney_broker import Board


@pytest.mark.timeout(300)
def test_a_boards_big_hands_reach_the_nights_pots_through_the_broker(
    tmp_path: Path, mosquitto: Callable[..., Mosquitto]
) -> None:
    night = TourneyStore.create(tmp_path / "tourney.db", "club", 3)
    for name in ("Ann", "Bob", "Cy", "Di"):
        night.add("enter", {"name": name}, at="t", by="director")
    night.add("boards", {"boards": ["club/b1", "club/b2"]}, at="t", by="director")
    drawn = seat(night.night, random.Random(5)).rounds[-1]
    night.add("seat", seating_payload(drawn), at="t", by="director")
    one, two = drawn.pairings
    broker = mosquitto().start()
    service = LeagueService(
        LeagueStore(tmp_path / "league.db"),
        Broker("127.0.0.1", broker.port),
        on_game=TourneyFeed(night),
    )
    service.start()
    boards = [Board(tmp_path, f"b{i}", broker.port) for i in (1, 2)]
    try:
        assert service.wait_connected(30.0)
        journal = boards[0].journal
        state = journal.new_match(Rules.six_card(), one.players)
        for line in BIG_GAME:
            state, _ = journal.do(parse_command(line.format(first=one.first), state.names))
        boards[1].play(two, random.Random(1))
        wait_until(lambda: len(night.night.results) == 2, 120.0, "both tables' results")
    finally:
        for board in boards:
            board.close()
        service.close()
        service.store.close()
    tourney = night.tourney
    night.close()
    [result] = [r for r in tourney.night.results if r.table == one.table]
    hands = [
        (e.pot, e.player, e.round, e.table, e.when, e.detail)
        for e in side_pots(tourney.night, tourney.shown)
        if e.pot != "skunk"
    ]
    assert result.ended and hands == [
        ("29", one.first, 1, 1, result.ended, "deal 1: 5H 5D 5S JC, starter 5C"),
        ("four of a kind", one.first, 1, 1, result.ended, "deal 1: 5H 5D 5S JC, starter 5C"),
        ("four of a kind", one.second, 1, 1, result.ended, "deal 2: 7H 7D 7S 8C, starter 7C"),
        ("28", one.first, 1, 1, result.ended,
         "deal 2: by points (cards not entered), starter 7C"),
    ]  # fmt: skip
    assert {s.table for s in tourney.shown} == {one.table}  # table 2 pegged by hand: no shows
