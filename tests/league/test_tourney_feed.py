"""The boards' games onto the night, through the league service (messages handed in, no
broker): counted once, tied to the board, the game and the pairing; a pairing that does not
exist, a duplicate and a board not in the night are refused, logged and shown to the
director, never counted."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from pegboard.league.tourney_feed import TourneyFeed
from pegboard.league.tourney_store import TourneyStore
from pegboard.tourney.night import seat
from pegboard.tourney.standings import scorecards
from pegboard.tourney.steps import seating_payload


def finished(game_id: str, winner: str, loser: str, score: int) -> bytes:
    """A board's finished game: *winner* 121, *loser* *score*."""
    lurch = "none" if score >= 91 else "lurched" if score >= 61 else "double-skunked"
    return json.dumps(
        {
            "game_id": game_id,
            "variant": "six-card",
            "target": 121,
            "sides": [
                {"name": winner, "score": 121, "won": True, "lurch": "none"},
                {"name": loser, "score": score, "won": False, "lurch": lurch},
            ],
            "ended": "2026-11-27T20:00:00",
        }
    ).encode()


@pytest.fixture
def service(tmp_path: Path, night: TourneyStore) -> Iterator[LeagueService]:
    made = LeagueService(
        LeagueStore(tmp_path / "league.db"),
        Broker("127.0.0.1", 1),
        on_game=TourneyFeed(night, clock=lambda: "20:00"),
    )
    yield made
    made.store.close()


def test_a_game_goes_on_both_cards_once_tied_to_its_board_and_game(
    night: TourneyStore, service: LeagueService
) -> None:
    p = night.night.rounds[0].pairings[0]
    for _ in range(3):  # QoS 1 may deliver it again: a copy changes nothing
        service.handle(
            f"pegboard/v1/pub/{p.board[4:]}/finished", finished("g1", p.second, p.first, 85)
        )
    result = night.night.final(1, p.table)
    assert result is not None
    assert (result.winner, result.loser_score, result.source) == (
        p.second,
        85,
        "board pub/b1, game g1",
    )
    cards = scorecards(night.night)
    assert [(x.opponent, x.game_points) for x in cards[p.second].lines] == [(p.first, 3)]
    assert [(x.opponent, x.spread) for x in cards[p.first].lines] == [(p.second, -36)]
    assert night.refused() == []


def test_refused_games_are_logged_and_shown_never_counted(
    night: TourneyStore, service: LeagueService, caplog: pytest.LogCaptureFixture
) -> None:
    p, q = night.night.rounds[0].pairings
    caplog.set_level(logging.WARNING)
    service.handle("pegboard/v1/pub/b1/finished", finished("g1", p.first, p.second, 100))
    before = night.night
    service.handle("pegboard/v1/pub/b9/finished", finished("g2", p.first, p.second, 100))
    service.handle("pegboard/v1/pub/b1/finished", finished("g3", p.first, q.first, 100))
    service.handle("pegboard/v1/pub/b1/finished", finished("g4", p.second, p.first, 100))
    service.handle("pegboard/v1/pub/b1/finished", finished("g4", p.second, p.first, 100))  # copy
    assert night.night == before
    board = "a game from a board not in the night"
    pairing = f"a result for a pairing that does not exist: {p.first} v {q.first} at pub/b1"
    duplicate = f"duplicate: round 1 table 1 ({p.second} v {p.first}) has its result already"
    reasons = [(r.source, r.reason) for r in night.refused()]
    assert reasons == [
        ("pub/b9", f"game g2: {board}"),
        ("pub/b1", f"game g3: {pairing}"),
        ("pub/b1", f"game g4: {duplicate}"),
    ]
    lines = [r.getMessage() for r in caplog.records if r.name == "pegboard.league.tourney_feed"]
    assert lines == [
        f"tourney: game g2 from pub/b9 refused: {board}",
        f"tourney: game g3 from pub/b1 refused: {pairing}",
        f"tourney: game g4 from pub/b1 refused: {duplicate}",
    ]
    # the league itself keeps every game (a friendly at pub/b9 is a league game)
    assert service.store.count() == 4


def test_a_failing_night_database_leaves_the_game_unacknowledged(
    night: TourneyStore, service: LeagueService
) -> None:
    from pegboard.league.store import LeagueStoreError

    p = night.night.rounds[0].pairings[0]
    night.close()  # the database is gone from under the feed
    with pytest.raises(LeagueStoreError):
        service.handle("pegboard/v1/pub/b1/finished", finished("g1", p.first, p.second, 100))


def test_a_counted_game_reaches_the_projector_and_a_director_step_too(
    tmp_path: Path, night: TourneyStore
) -> None:
    from pegboard.league.tourney_projector import PROJECTOR_DIR, Projector
    from pegboard.web.server import WebServer
    from tests.league.conftest import wait_until

    web = WebServer("127.0.0.1", 0, static_dir=PROJECTOR_DIR)
    web.start()
    projector = Projector(night, web, language="de", poll=0.05)
    projector.start()
    made = LeagueService(
        LeagueStore(tmp_path / "league.db"),
        Broker("127.0.0.1", 1),
        on_game=TourneyFeed(night, on_counted=projector.poke),
    )
    try:
        first = json.loads(web.latest()[1])
        assert first["language"] == "de" and all(t["playing"] for t in first["tables"])
        p = night.night.rounds[0].pairings[0]
        made.handle("pegboard/v1/pub/b1/finished", finished("g1", p.first, p.second, 100))

        def shown() -> dict[str, object]:
            return json.loads(web.latest()[1])  # type: ignore[no-any-return]

        wait_until(lambda: shown()["recent"] != [], 10.0, "the game on the projector")
        assert shown()["standings"][0]["name"] == p.first  # type: ignore[index]
        # a step the director's command line stores (another connection) shows too
        director = TourneyStore(night.path)
        director.add("lock", {"on": True}, at="t", by="director")
        director.close()
        wait_until(lambda: shown()["locked"] is True, 10.0, "the lock on the projector")
    finally:
        projector.close()
        made.store.close()
        web.close()


def test_a_playoff_match_is_played_and_reported_by_a_board(
    night: TourneyStore, service: LeagueService
) -> None:
    from pegboard.tourney.night import Result
    from pegboard.tourney.steps import result_payload

    for number in (1, 2, 3):  # every round played on paper: 2-0 to the first-named player
        if number > 1:
            drawn = seat(night.night, random.Random(number)).rounds[-1]
            night.add("seat", seating_payload(drawn), at="t", by="director")
        for p in night.night.rounds[-1].pairings:
            result = Result(number, p.table, p.first, p.second, 121, 100)
            night.add("report", result_payload(result), at="t", by="director")
    names = ["Ann", "Bob", "Cy", "Di"]
    night.add("bracket", {"qualifiers": names, "best_of": 3}, at="t", by="director")
    # seeds 1-4: Ann v Di and Bob v Cy in round 1; Cy wins two games of three on board b2
    topic = "pegboard/v1/pub/b2/finished"
    service.handle(topic, finished("p1", "Cy", "Bob", 100))
    service.handle(topic, finished("p1", "Cy", "Bob", 100))  # a copy: counted once
    assert night.tourney.wins(1, 1, "Cy") == 1
    service.handle(topic, finished("p2", "Cy", "Bob", 110))
    bracket = night.tourney.bracket
    assert bracket is not None and bracket.match(1, 1).winner == "Cy"  # type: ignore[union-attr]
    assert bracket.match(2, 0).low == "Cy"  # type: ignore[union-attr]
    assert night.refused() == []


def test_a_playoff_game_counts_from_its_matchs_board_only_and_a_decided_match_takes_no_more(
    night: TourneyStore, service: LeagueService, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bracket drawn with the night's boards: Ann v Di on pub/b1, Bob v Cy on pub/b2. A game
    of Bob v Cy from pub/b1 is refused (moved there, it counts); a game after the match is
    decided is a duplicate; the director's ``bracket`` shows the games so far."""
    from pegboard.cli.main import main
    from pegboard.tourney.night import Result
    from pegboard.tourney.steps import result_payload

    for number in (1, 2, 3):  # every round played on paper
        if number > 1:
            drawn = seat(night.night, random.Random(number)).rounds[-1]
            night.add("seat", seating_payload(drawn), at="t", by="director")
        for p in night.night.rounds[-1].pairings:
            result = Result(number, p.table, p.first, p.second, 121, 100)
            night.add("report", result_payload(result), at="t", by="director")
    night.add("bracket", {"qualifiers": ["Ann", "Bob", "Cy", "Di"], "best_of": 3,
                          "boards": ["pub/b1", "pub/b2"]}, at="t", by="director")  # fmt: skip
    service.handle("pegboard/v1/pub/b1/finished", finished("x1", "Cy", "Bob", 90))
    assert night.tourney.playoff == () and len(night.refused()) == 1
    assert "playoff round 1 match 2 (Bob v Cy) is played on pub/b2, not pub/b1" in (
        night.refused()[0].reason
    )
    service.handle("pegboard/v1/pub/b2/finished", finished("p1", "Cy", "Bob", 90))
    night.add("playoff_board", {"round": 1, "slot": 1, "board": "pub/b1"}, at="t", by="director")
    service.handle("pegboard/v1/pub/b1/finished", finished("p2", "Cy", "Bob", 95))
    bracket = night.tourney.bracket
    assert bracket is not None and bracket.match(1, 1).winner == "Cy"  # type: ignore[union-attr]
    service.handle("pegboard/v1/pub/b1/finished", finished("p3", "Bob", "Cy", 95))  # played on
    assert [g.game_id for g in night.tourney.playoff] == ["p1", "p2"]
    assert night.refused()[-1].reason == (
        "game p3: duplicate: playoff round 1 match 2 (Bob v Cy) was won by Cy already"
    )
    assert main(["tourney", "bracket", "--db", str(night.path)]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert shown[:3] == [
        "round 1 match 1: Ann v Di (best of 3) on pub/b1",
        "round 1 match 2: Bob v Cy (best of 3) on pub/b1: Cy 2-0 (Cy 121-90 pub/b2, "
        "Cy 121-95 pub/b1)  -> Cy",
        "round 2 match 1: ? v Cy (best of 3) on pub/b1",
    ]
