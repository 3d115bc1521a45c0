"""A tournament night's playoff on a board end to end (issue 24), on a real Mosquitto on
127.0.0.1: the director draws the bracket onto the night's boards; the hub's notice reaches
the daemon (``run_daemon`` with ``[league]``, its keys pressed from this thread); its OLED shows
the playoff match, best of 3; ok starts it first to two under the two names, the higher seed
first; the two games played on the board's keys go out of its journal's outbox one by one, the
hub's feed counts each for that bracket match, and the second win advances the bracket, once;
the board is then told its next match."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pegboard.engine.game import Phase
from pegboard.engine.match import MatchFormat
from pegboard.league.tourney_store import TourneyStore
from pegboard.tourney.night import Result
from pegboard.tourney.steps import result_payload
from pegboard.ui.pairing import PairingView
from pegboard.ui.screens import ScreenKind
from tests.league.boards import HANG_GUARD, hub_and_board
from tests.league.conftest import Mosquitto, wait_until

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def test_a_best_of_three_playoff_match_played_on_a_board_advances_the_bracket(
    tmp_path: Path, mosquitto: Callable[..., Mosquitto]
) -> None:
    broker = mosquitto().start()
    night = TourneyStore.create(tmp_path / "tourney.db", "club", 1)
    for name in PLAYERS:
        night.add("enter", {"name": name}, at="t", by="director")
    night.add("boards", {"boards": ["club/b1", "club/b2"]}, at="t", by="director")
    seating = {
        "pairings": [
            {"table": t + 1, "first": PLAYERS[2 * t], "second": PLAYERS[2 * t + 1],
             "board": f"club/b{t + 1}" if t < 2 else ""}
            for t in range(4)
        ],
        "bye": None, "movement": False, "repeats": 0,
    }  # fmt: skip
    night.add("seat", seating, at="t", by="director")
    for t in range(4):  # played on paper: Ann, Cy, Eve, Gus win; Ann and Cy by the most
        result = Result(1, t + 1, PLAYERS[2 * t], PLAYERS[2 * t + 1], 121, 60 + 10 * t)
        night.add("report", result_payload(result), at="t", by="director")
    # the cut of 8 is 2: Ann (seed 1) v Cy (seed 2), the final itself, best of 3 on club/b1
    night.add("bracket", {"qualifiers": ["Ann", "Cy"], "best_of": 3,
                          "boards": ["club/b1", "club/b2"]}, at="t", by="director")  # fmt: skip
    with hub_and_board(tmp_path, broker.port, night) as hub:
        feed, notifier, ctl, keys = hub.feed, hub.notifier, hub.ctl, hub.keys
        notifier.update(night.tourney)  # the hub tells the boards (the projector's look)
        offered = PairingView(0, 1, "Ann", "Cy", 1, 3)
        wait_until(lambda: ctl.drawn is not None and ctl.drawn.pairing == offered, HANG_GUARD,
                   "the playoff match on the board's screen")  # fmt: skip
        keys.press("ok")
        wait_until(lambda: ctl.state.names == ("Ann", "Cy"), HANG_GUARD, "the playoff's match")
        assert ctl.state.match.format is MatchFormat.FIRST_TO_TWO
        # game 1: Ann cuts a 9, Cy a 3; then Ann pegs out by hand
        keys.press("9 3 D 6 0 A D 6 0 A D 1 A")
        wait_until(lambda: len(night.tourney.playoff) == 1, HANG_GUARD, "game 1 on the match")
        assert ctl.state.phase is Phase.GAME_OVER
        bracket = night.tourney.bracket
        assert bracket is not None and bracket.champion is None  # 1-0: the match goes on
        notifier.update(night.tourney)  # nothing changed for the board: nothing sent
        keys.press("ok:long 1")  # the menu's first line: the next game
        keys.press("9 3 D 6 0 A D 6 0 A D 1 A")  # game 2, Ann again
        wait_until(lambda: night.tourney.bracket.champion is not None,  # type: ignore[union-attr]
                   HANG_GUARD, "the match's winner on the bracket")  # fmt: skip
        assert ctl.state.phase is Phase.MATCH_OVER and ctl.state.match.games_won == (2, 0)
        notifier.update(night.tourney)  # decided: the board has nothing more to play
        wait_until(lambda: ctl.drawn is not None and ctl.drawn.kind is ScreenKind.GAME_OVER,
                   HANG_GUARD, "the match over screen")  # fmt: skip
    tourney = night.tourney
    assert tourney.bracket is not None and tourney.bracket.champion == "Ann"
    assert [(g.winner, g.board, g.loser_score) for g in tourney.playoff] == [
        ("Ann", "club/b1", 0),
        ("Ann", "club/b1", 0),
    ]
    assert len({g.game_id for g in tourney.playoff}) == 2
    assert feed.counted == 2 and night.refused() == [] and night.night.results[4:] == ()
    night.close()
