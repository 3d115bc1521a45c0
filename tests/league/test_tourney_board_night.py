"""A tournament night's board end to end (issue 24), on a real Mosquitto on 127.0.0.1: the
director seats a round; the hub's notice reaches the daemon (``run_daemon`` with ``[league]``,
its keys pressed from this thread as a keypad's would be); its OLED shows "table 1: ..."; ok
starts the match under the pairing's names; the game played on the board's keys goes out of
its journal's outbox, and the hub's feed counts it for that pairing, round and table."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from pegboard.engine.game import Phase
from pegboard.league.tourney_store import TourneyStore
from pegboard.tourney.night import seat
from pegboard.tourney.steps import seating_payload
from pegboard.ui.pairing import PairingView
from pegboard.ui.screens import ScreenKind
from tests.league.boards import HANG_GUARD, hub_and_board
from tests.league.conftest import Mosquitto, wait_until


def test_the_board_shows_its_pairing_starts_it_on_ok_and_the_night_counts_the_game(
    tmp_path: Path, mosquitto: Callable[..., Mosquitto]
) -> None:
    broker = mosquitto().start()
    night = TourneyStore.create(tmp_path / "tourney.db", "club", 3)
    for name in ("Ann", "Bob", "Cy", "Di"):
        night.add("enter", {"name": name}, at="t", by="director")
    night.add("boards", {"boards": ["club/b1", "club/b2"]}, at="t", by="director")
    drawn = seat(night.night, random.Random(1)).rounds[-1]
    night.add("seat", seating_payload(drawn), at="t", by="director")
    pairing = next(p for p in drawn.pairings if p.board == "club/b1")
    with hub_and_board(tmp_path, broker.port, night) as hub:
        feed, notifier, ctl, keys = hub.feed, hub.notifier, hub.ctl, hub.keys
        assert ctl.state.names == ("Red", "Blue")
        notifier.update(night.tourney)  # the hub tells the boards (the projector's look)
        offered = PairingView(pairing.table, 1, pairing.first, pairing.second)
        wait_until(lambda: ctl.drawn is not None and ctl.drawn.pairing == offered, HANG_GUARD,
                   "the pairing on the board's screen")  # fmt: skip
        assert ctl.drawn is not None and ctl.drawn.kind is ScreenKind.PAIRING
        keys.press("ok")
        wait_until(lambda: ctl.state.names == pairing.players, HANG_GUARD, "the pairing's match")
        # the first player cuts a 9, the second a 3; then the first pegs out by hand
        keys.press("9 3 D 6 0 A D 6 0 A D 1 A")
        wait_until(lambda: ctl.state.phase is Phase.MATCH_OVER, HANG_GUARD, "the game's end")
        wait_until(lambda: len(night.night.results) == 1, HANG_GUARD, "the result on the night")
        notifier.update(night.tourney)  # counted: the board has nothing more to play
        wait_until(lambda: ctl.drawn is not None and ctl.drawn.kind is ScreenKind.GAME_OVER,
                   HANG_GUARD, "the game over screen")  # fmt: skip
    (result,) = night.night.results
    assert (result.round, result.table, result.board) == (1, pairing.table, "club/b1")
    assert (result.winner, result.loser, result.loser_score) == (
        pairing.first, pairing.second, 0,
    )  # fmt: skip
    assert feed.counted == 1 and night.refused() == []
    night.close()
