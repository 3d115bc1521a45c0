"""The tournament lock at the table (issue 24): obeyed on the controller's next turn after the
hub's notice (no odds bar, no play hint, a hint open closed, the badge up, the pub page and the
league's live view without odds or figures), recorded in the journal as a lock and an unlock,
and kept across a restart from the journal."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent
from pegboard.engine.game import GameState
from pegboard.engine.rules import Rules
from pegboard.i18n import Language
from pegboard.journal import Journal
from pegboard.journal.marks import LOCK, UNLOCK
from pegboard.league.publisher import live_payload
from pegboard.table.controller import Controller
from pegboard.table.playhint import PlayHinter
from pegboard.table.tourney import TourneyBoard
from pegboard.tourney.notices import TableNotice
from pegboard.ui.keypad import Layout
from pegboard.ui.playhint import hint_allowed
from pegboard.ui.screens import ScreenKind
from pegboard.web.publisher import ViewPublisher
from pegboard.web.server import WebServer

LOCKED = TableNotice("club", locked=True)
UNLOCKED = TableNotice("club", locked=False)


def keys(ctl: Controller, text: str) -> None:
    for word in text.split():
        ctl.handle(KeyEvent(word, KeyAction.PRESS))


def odds(state: GameState) -> tuple[float, ...]:
    return (0.6, 0.4)


def table(path: Path, **more: Any) -> tuple[Controller, TourneyBoard]:
    store = Journal(path)
    board = TourneyBoard(rules=Rules.six_card(), store=store)
    hinter = PlayHinter(
        language=Language.ENGLISH, layout=Layout.FOUR_BY_FOUR,
        allowed=lambda: hint_allowed(True, board.locked), submit=lambda work: work(),
    )  # fmt: skip
    ctl = Controller(store=store, names=("Ann", "Bob"), clock=FakeClock(), win_chances=odds,
                     play_hint=hinter, tourney=board, **more)  # fmt: skip
    return ctl, board


def test_the_lock_drops_the_odds_and_puts_the_badge_up_and_is_journalled(tmp_path: Path) -> None:
    ctl, board = table(tmp_path / "g.db")
    keys(ctl, "9 3")  # cut: the scoreboard, with the odds bar
    screen = ctl.screen
    assert screen.kind is ScreenKind.SCOREBOARD
    assert screen.chances == (0.6, 0.4) and not screen.locked
    commands = ctl.store.commands()
    board.take(LOCKED)
    ctl.tick()
    screen = ctl.screen
    assert screen.locked and screen.chances is None
    assert ctl.store.commands() == commands  # the game did not move
    assert [(m.kind, m.text) for m in ctl.store.marks()] == [(LOCK, "club")]
    board.take(TableNotice("club", 1, 4, "Cy", "Di", True))  # a pairing: the lock unchanged
    ctl.tick()
    assert len(ctl.store.marks()) == 1
    board.take(UNLOCKED)
    ctl.tick()
    assert not ctl.screen.locked and ctl.screen.chances == (0.6, 0.4)
    assert [m.kind for m in ctl.store.marks()] == [LOCK, UNLOCK]
    assert ctl.store.marks()[0].after == len(commands)  # in its place among the commands
    keys(ctl, "5 C")  # the play goes on; locked again, its screen carries the badge too
    board.take(LOCKED)
    ctl.tick()
    assert ctl.screen.kind is ScreenKind.PLAY and ctl.screen.locked
    assert [m.kind for m in ctl.store.marks()] == [LOCK, UNLOCK, LOCK]


def test_the_lock_closes_an_open_hint_and_keeps_the_key_shut(tmp_path: Path) -> None:
    ctl, board = table(tmp_path / "g.db")
    keys(ctl, "9 3 5 C *")  # Bob to lay: the hint opens
    assert ctl.screen.kind is ScreenKind.ENTRY and ctl.screen.entry is not None
    assert ctl.screen.entry.title == "hint"
    board.take(LOCKED)
    ctl.tick()
    assert ctl.screen.kind is ScreenKind.PLAY and ctl.screen.locked  # closed at once
    keys(ctl, "*")
    assert ctl.screen.kind is ScreenKind.PLAY  # "*" opens nothing now
    board.take(UNLOCKED)
    ctl.tick()
    keys(ctl, "*")
    assert ctl.screen.entry is not None and ctl.screen.entry.title == "hint"


def test_a_restarted_board_keeps_the_lock_its_journal_recorded(tmp_path: Path) -> None:
    ctl, board = table(tmp_path / "g.db")
    board.take(LOCKED)
    ctl.tick()
    ctl.store.close()
    ctl, board = table(tmp_path / "g.db")  # no notice yet: the hub is away
    keys(ctl, "9 3")
    assert board.locked and ctl.screen.locked and ctl.screen.chances is None
    board.take(LOCKED)  # the retained notice comes: nothing new to record
    ctl.tick()
    assert [m.kind for m in ctl.store.marks()] == [LOCK]
    ctl.store.close()


def test_the_pub_page_shows_the_standings_only_while_locked(tmp_path: Path) -> None:
    server = WebServer("127.0.0.1", 0)
    server.start()
    try:
        store = Journal(tmp_path / "g.db")
        holder: list[TourneyBoard] = []
        publisher = ViewPublisher(server, store, locked=lambda: holder[0].locked)
        board = TourneyBoard(rules=Rules.six_card(), store=store)
        holder.append(board)
        ctl = Controller(store=store, names=("Ann", "Bob"), clock=FakeClock(), tourney=board,
                         on_change=publisher.publish)  # fmt: skip
        keys(ctl, "9 3 5")
        payload = page(server.url)
        assert payload["locked"] is False and payload["win_probability"] is not None
        assert payload["players"] is not None
        board.take(LOCKED)
        ctl.tick()  # the page hears of it on the same turn
        payload = page(server.url)
        assert payload["locked"] is True
        assert payload["win_probability"] is None and payload["players"] is None
        assert payload["view"] == ctl.view.to_dict()  # the scores stay
        live = live_payload(ctl.state, ctl.view, "club", "b1", locked=True)
        assert live["win_probability"] is None and live["locked"] is True
        assert live_payload(ctl.state, ctl.view, "club", "b1")["win_probability"] is not None
        store.close()
    finally:
        server.close()


def page(url: str) -> dict[str, Any]:
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        conn.request("GET", "/view.json")
        payload: dict[str, Any] = json.loads(conn.getresponse().read())
        return payload
    finally:
        conn.close()
