"""A tournament night of 18 boards on a real Mosquitto on 127.0.0.1: each board plays its
table's pairing under the pairing's names and its journal's outbox sends the game; the league
service puts every game on the night's cards exactly once, though the broker is restarted in
the middle of a round (the boards that finish meanwhile keep their games in their outboxes)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pegboard.config.league import LeagueConfig
from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules
from pegboard.journal import Journal
from pegboard.league.publisher import LeaguePublisher
from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from pegboard.league.tourney_feed import TourneyFeed
from pegboard.league.tourney_store import TourneyStore
from pegboard.tourney.night import seat
from pegboard.tourney.seating import Pairing
from pegboard.tourney.standings import scorecards, standings
from pegboard.tourney.steps import seating_payload
from tests.league.conftest import Mosquitto, wait_until

BOARDS = 18
PLAYERS = 2 * BOARDS


class Board:
    """One board: its journal with the outbox and its league publisher."""

    def __init__(self, folder: Path, name: str, port: int) -> None:
        self.journal = Journal(folder / f"{name}.db", outbox=True)
        config = LeagueConfig("127.0.0.1", "club", name, port=port)
        self.publisher = LeaguePublisher(config, folder / f"{name}.db", poll=0.05)
        self.publisher.start()

    def play(self, pairing: Pairing, rng: random.Random) -> None:
        """The pairing's game, to the end: a random winner, the loser on a random score."""
        state = self.journal.new_match(Rules.six_card(), pairing.players)
        winner, loser = (pairing.first, pairing.second)
        if rng.random() < 0.5:
            winner, loser = loser, winner
        score = rng.randint(40, 120)

        def do(text: str) -> None:
            self.journal.do(parse_command(text, state.names))

        do("cut 9C 3D")
        do("starter 5C")
        while score:
            step = min(score, 60)
            do(f"peg {loser} {step}")
            score -= step
        do(f"peg {winner} 60")
        do(f"peg {winner} 61")

    def close(self) -> None:
        self.publisher.close()
        self.journal.close()


@pytest.fixture
def night(tmp_path: Path) -> Iterator[TourneyStore]:
    store = TourneyStore.create(tmp_path / "tourney.db", "club", 3)
    for i in range(1, PLAYERS + 1):
        store.add("enter", {"name": f"P{i}"}, at="t", by="director")
    boards = [f"club/b{i}" for i in range(1, BOARDS + 1)]
    store.add("boards", {"boards": boards}, at="t", by="director")
    yield store
    store.close()


@pytest.mark.timeout(600)
def test_eighteen_boards_every_game_counted_once_across_a_broker_restart(
    tmp_path: Path, mosquitto: Callable[..., Mosquitto], night: TourneyStore
) -> None:
    broker = mosquitto().start()
    feed = TourneyFeed(night)
    service = LeagueService(
        LeagueStore(tmp_path / "league.db"), Broker("127.0.0.1", broker.port), on_game=feed
    )
    service.start()
    boards = [Board(tmp_path, f"b{i}", broker.port) for i in range(1, BOARDS + 1)]
    rng = random.Random(24)
    try:
        assert service.wait_connected(30.0)
        for number in (1, 2, 3):
            drawn = seat(night.night, rng).rounds[-1]
            night.add("seat", seating_payload(drawn), at="t", by="director")
            pairings = list(drawn.pairings)
            assert len(pairings) == BOARDS and all(p.board for p in pairings)
            half = len(pairings) // 2 if number == 2 else len(pairings)
            for p in pairings[:half]:
                boards[p.table - 1].play(p, rng)
            if number == 2:
                # the broker goes down mid-round: the rest finish meanwhile, into their outboxes
                some = BOARDS + half // 2
                wait_until(lambda s=some: len(night.night.results) >= s, 60.0, "half the round")
                broker.stop()
                for p in pairings[half:]:
                    boards[p.table - 1].play(p, rng)
                broker.start()
            want = BOARDS * number
            wait_until(lambda want=want: len(night.night.results) == want, 120.0, f"{want} results")
        # and the last copies QoS 1 may still deliver change nothing
        wait_until(lambda: service.store.count() == 3 * BOARDS, 60.0, "the league's games")
    finally:
        for board in boards:
            board.close()
        service.close()
        service.store.close()
    final = night.night
    assert len(final.results) == 3 * BOARDS and night.refused() == []
    assert len({r.game_id for r in final.results}) == 3 * BOARDS
    assert feed.counted == 3 * BOARDS
    cards = scorecards(final)
    assert all(len(card.lines) == 3 for card in cards.values())
    for r in final.results:  # each tied to the board of its table
        assert r.board == f"club/b{r.table}"
    assert sum(line.played for line in standings(final)) == 2 * 3 * BOARDS
