"""The side pots fed for real: whole games played on boards' journals, sent as the boards send
them, through the league service and the night's feed, onto the night's pots, its printout
and its exports (the 29 and 24/28 hands, four of a kind, who and when)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from pegboard.league.tourney_feed import TourneyFeed
from pegboard.league.tourney_store import TourneyStore
from pegboard.tourney.night import Result, TourneyError
from pegboard.tourney.steps import apply_step, result_payload
from tests.cli.helpers import cli
from tests.engine.test_summary_shows import big_game_payload
from tests.league.test_tourney_feed import finished


def fed(tmp_path: Path, night: TourneyStore) -> tuple[str, str, str]:
    """Table 1's game played on a board's journal (a 29 and a 28 by points for the first
    player, four sevens for the second, a skunk) and table 2's from an older board (no shows,
    no skunk), both through the league service: the first player, the second, the end time."""
    service = LeagueService(
        LeagueStore(tmp_path / "league.db"),
        Broker("127.0.0.1", 1),
        on_game=TourneyFeed(night, clock=lambda: "20:00"),
    )
    try:
        one, two = night.night.rounds[0].pairings
        (tmp_path / "b1").mkdir()
        payload = big_game_payload(tmp_path / "b1", one.first, one.second)
        for _ in range(2):  # a copy changes nothing: its hands are not listed twice
            service.handle(f"pegboard/v1/{one.board}/finished", payload.encode())
        service.handle(
            f"pegboard/v1/{two.board}/finished", finished("g2", two.first, two.second, 100)
        )
    finally:
        service.store.close()
    return one.first, one.second, json.loads(payload)["ended"]


def test_a_night_fed_real_games_lists_its_pots(
    tmp_path: Path, night: TourneyStore, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, ended = fed(tmp_path, night)
    db = str(tmp_path / "tourney.db")
    status, out, err = cli(capsys, "tourney", "pots", "--db", db)
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "skunk: 1",
        f"  {first}, round 1 table 1, {ended}: {first} 121, {second} 29",
        "24: none",
        "28: 1",
        f"  {first}, round 1 table 1, {ended}: deal 2: by points (cards not entered), starter 7C",
        "29: 1",
        f"  {first}, round 1 table 1, {ended}: deal 1: 5H 5D 5S JC, starter 5C",
        "four of a kind: 2",
        f"  {first}, round 1 table 1, {ended}: deal 1: 5H 5D 5S JC, starter 5C",
        f"  {second}, round 1 table 1, {ended}: deal 2: 7H 7D 7S 8C, starter 7C",
    ]
    status, out, _ = cli(capsys, "tourney", "export", "json", "--db", db)
    pots = [
        (e["pot"], e["player"], e["round"], e["table"], e["when"]) for e in json.loads(out)["pots"]
    ]
    assert pots == [
        ("skunk", first, 1, 1, ended),
        ("29", first, 1, 1, ended),
        ("four of a kind", first, 1, 1, ended),
        ("four of a kind", second, 1, 1, ended),
        ("28", first, 1, 1, ended),
    ]
    status, out, _ = cli(capsys, "tourney", "export", "pots", "--db", db)
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["pot", "player", "round", "table", "when", "detail"]
    assert rows[2] == ["29", first, "1", "1", ended, "deal 1: 5H 5D 5S JC, starter 5C"]
    assert len(rows) == 6


def test_an_old_result_step_still_replays_and_a_bad_show_is_one_line(night: TourneyStore) -> None:
    """A result stored before the shows (no "shown") replays as it did; a show the night cannot
    take refuses the whole step in one line, and the night stays as it was."""
    one = night.night.rounds[0].pairings[0]
    step = result_payload_of(one.first, one.second)
    tourney = apply_step(night.tourney, "report", step)
    assert tourney.shown == () and tourney.night.final(1, 1) is not None
    for shown, message in (
        ([{"player": "Zed", "crib": False, "cards": [], "points": 29}], "who is neither"),
        ([{"player": one.first, "crib": False, "cards": [], "points": 30}], "counting 30"),
        ([{"player": one.first, "crib": False, "cards": ["ZZ"], "points": 2}], "invalid card"),
        ("29", "must be a list"),
    ):
        with pytest.raises(TourneyError, match=message) as e:
            night.add("report", {**step, "shown": shown}, at="t", by="pub/b1")
        assert "\n" not in str(e.value)
    assert night.night.final(1, 1) is None and night.tourney.shown == ()


def result_payload_of(winner: str, loser: str) -> dict[str, object]:
    return result_payload(Result(1, 1, winner, loser, 121, 100, "pub/b1", "g9", "20:30"))
