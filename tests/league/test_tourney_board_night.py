"""A tournament night's board end to end (issue 24), on a real Mosquitto on 127.0.0.1: the
director seats a round; the hub's notice reaches the daemon (``run_daemon`` with ``[league]``,
its keys pressed from this thread as a keypad's would be); its OLED shows "table 1: ..."; ok
starts the match under the pairing's names; the game played on the board's keys goes out of
its journal's outbox, and the hub's feed counts it for that pairing, round and table."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from pathlib import Path

from pegboard.config.settings import parse_config
from pegboard.devices.ports import KeyAction, KeyEvent, KeySink
from pegboard.engine.game import Phase
from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from pegboard.league.tourney_feed import TourneyFeed
from pegboard.league.tourney_notify import BoardNotifier
from pegboard.league.tourney_store import TourneyStore
from pegboard.table.controller import Controller
from pegboard.table.daemon import RunResult, run_daemon
from pegboard.table.wiring import sim_ports
from pegboard.tourney.night import seat
from pegboard.tourney.steps import seating_payload
from pegboard.ui.pairing import PairingView
from pegboard.ui.screens import ScreenKind
from tests.league.conftest import Mosquitto, wait_until
from tests.table.notices import RecordingNotifier

HANG_GUARD = 60.0


class HandKeys:
    """A key source pressed from the test's thread (``press``), into the daemon's queue."""

    def __init__(self) -> None:
        self.sink: KeySink | None = None

    def start(self, sink: KeySink) -> None:
        self.sink = sink

    def close(self) -> None:
        self.sink = None

    def press(self, text: str) -> None:
        assert self.sink is not None
        for key in text.split():
            self.sink(KeyEvent(key, KeyAction.PRESS))


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
    feed = TourneyFeed(night)
    service = LeagueService(
        LeagueStore(tmp_path / "league.db"), Broker("127.0.0.1", broker.port), on_game=feed
    )
    service.start()
    notifier = BoardNotifier(service.publish_retained)
    config = parse_config(
        f'[game]\ndatabase = "{tmp_path / "b1.db"}"\nnames = ["Red", "Blue"]\n'
        f'[league]\nbroker = "127.0.0.1"\nport = {broker.port}\nvenue = "club"\nboard = "b1"\n'
    )
    keys = HandKeys()
    ports = sim_ports(config, [keys])
    stop = threading.Event()
    ready = threading.Event()
    got: dict[str, Controller] = {}
    outcome: list[RunResult | BaseException] = []

    def on_ready(controller: Controller) -> None:
        got["ctl"] = controller
        ready.set()

    def run() -> None:
        try:
            outcome.append(run_daemon(config, ports, notifier=RecordingNotifier(), stop=stop,
                                      install_signals=False, on_ready=on_ready))  # fmt: skip
        except BaseException as e:  # shown by the assertion below
            outcome.append(e)

    daemon = threading.Thread(target=run, name="daemon")
    daemon.start()
    try:
        assert service.wait_connected(HANG_GUARD) and ready.wait(HANG_GUARD)
        ctl = got["ctl"]
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
    finally:
        stop.set()  # the loop sees it within its poll
        daemon.join(HANG_GUARD)
        service.close()
        service.store.close()
    assert outcome and isinstance(outcome[0], RunResult), outcome
    (result,) = night.night.results
    assert (result.round, result.table, result.board) == (1, pairing.table, "club/b1")
    assert (result.winner, result.loser, result.loser_score) == (
        pairing.first, pairing.second, 0,
    )  # fmt: skip
    assert feed.counted == 1 and night.refused() == []
    night.close()
