"""A tournament night at the table (issue 24): the hub's notice is only queued by the network's
thread; the controller's thread shows the pairing while no match is in progress or once the
current one is over, and ok starts its match, through the journal, under the pairing's names."""

from __future__ import annotations

import threading
from pathlib import Path

from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent
from pegboard.engine.game import Phase
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules, Variant
from pegboard.journal import Journal
from pegboard.table.controller import Controller
from pegboard.table.tourney import TourneyBoard, tourney_rules
from pegboard.tourney.notices import TableNotice
from pegboard.ui.pairing import PairingView
from pegboard.ui.screens import ScreenKind

CY_DI = TableNotice("club", 2, 7, "Cy", "Di")


def keys(ctl: Controller, text: str) -> None:
    for word in text.split():
        key, _, long = word.partition(":")
        ctl.handle(KeyEvent(key, KeyAction.LONG_PRESS if long else KeyAction.PRESS))


def table(tmp_path: Path) -> tuple[Controller, TourneyBoard]:
    board = TourneyBoard(rules=Rules.six_card())
    ctl = Controller(store=Journal(tmp_path / "g.db"), names=("Ann", "Bob"), clock=FakeClock(),
                     tourney=board)  # fmt: skip
    return ctl, board


def win_the_game(ctl: Controller) -> None:
    """Cut, and peg the first side to 121 by hand (the match is one game: over at once)."""
    keys(ctl, "9 3 D 6 0 A D 6 0 A D 1 A")


def test_a_notice_is_only_queued_and_the_controllers_tick_shows_it(tmp_path: Path) -> None:
    ctl, board = table(tmp_path)
    woken = threading.Event()
    board.wake = woken.set
    taken = threading.Thread(target=board.take, args=(CY_DI,))  # as paho's thread would
    taken.start()
    taken.join(10)
    assert woken.is_set()
    assert board.notice is None and ctl.screen.kind is ScreenKind.ENTRY  # not taken in yet
    ctl.tick()
    assert board.notice == CY_DI
    screen = ctl.screen
    assert screen.kind is ScreenKind.PAIRING
    assert screen.pairing == PairingView(7, 2, "Cy", "Di")


def test_ok_starts_the_pairings_match_through_the_journal(tmp_path: Path) -> None:
    ctl, board = table(tmp_path)
    first = ctl.store.match_id
    board.take(CY_DI)
    ctl.tick()
    keys(ctl, "ok")
    state = ctl.state
    assert state.names == ("Cy", "Di") and state.phase is Phase.CUT
    assert state.match.format is MatchFormat.SINGLE and state.rules == Rules.six_card()
    assert ctl.store.match_id != first
    assert ctl.screen.kind is ScreenKind.ENTRY  # the cut, as for any new match
    with Journal(ctl.store.path, readonly=True) as reader:  # what another process reads
        assert reader.load() == state
    win_the_game(ctl)
    assert ctl.state.phase is Phase.MATCH_OVER and ctl.view.match.winner_name == "Cy"
    ctl.tick()
    assert ctl.screen.kind is ScreenKind.GAME_OVER  # played: not offered again


def test_a_notice_mid_match_waits_for_its_end(tmp_path: Path) -> None:
    ctl, board = table(tmp_path)
    keys(ctl, "9 3 D 6 0 A")  # Ann and Bob's match is in progress
    board.take(CY_DI)
    ctl.tick()
    assert ctl.screen.kind is not ScreenKind.PAIRING
    keys(ctl, "ok")  # means what it meant: the pairing is not started
    assert ctl.state.names == ("Ann", "Bob")
    keys(ctl, "D 6 0 A D 1 A")
    assert ctl.state.phase is Phase.GAME_OVER  # best of three: the match goes on
    assert ctl.screen.kind is not ScreenKind.PAIRING
    keys(ctl, "ok:long 1")  # the menu's first line: the next game
    win_the_game(ctl)
    assert ctl.state.phase is Phase.MATCH_OVER
    assert ctl.screen.kind is ScreenKind.PAIRING
    keys(ctl, "#")
    assert ctl.state.names == ("Cy", "Di") and ctl.state.phase is Phase.CUT


def test_other_keys_are_the_keypads_and_a_pairing_gone_is_not_shown(tmp_path: Path) -> None:
    ctl, board = table(tmp_path)
    board.take(CY_DI)
    ctl.tick()
    keys(ctl, "9")  # Ann cuts a 9: the keypad's, as ever; the offer waits on the idle keypad
    assert ctl.screen.kind is ScreenKind.ENTRY and ctl.state.names == ("Ann", "Bob")
    keys(ctl, "3")  # the cut is done: a match is in progress now
    assert ctl.screen.kind is not ScreenKind.PAIRING
    board.take(TableNotice("club"))  # played elsewhere, or the board dropped: nothing to play
    ctl.tick()
    assert board.pairing() is None


def test_a_restarted_board_does_not_offer_the_pairing_it_played(tmp_path: Path) -> None:
    ctl, board = table(tmp_path)
    board.take(CY_DI)
    ctl.tick()
    keys(ctl, "ok")
    win_the_game(ctl)
    ctl.store.close()
    again = TourneyBoard(rules=Rules.six_card())
    ctl = Controller(store=Journal(tmp_path / "g.db"), clock=FakeClock(), tourney=again)
    again.take(CY_DI)  # the retained notice comes again: the hub has not counted the game yet
    ctl.tick()
    assert ctl.state.phase is Phase.MATCH_OVER and ctl.screen.kind is ScreenKind.GAME_OVER
    again.take(TableNotice("club", 3, 2, "Cy", "Ann"))  # the next round
    ctl.tick()
    assert ctl.screen.kind is ScreenKind.PAIRING


def test_a_pairing_is_six_card_to_121() -> None:
    house = Rules.for_variant("six-card", muggins=True)
    assert tourney_rules(house) == house
    assert tourney_rules(Rules.five_card()) == Rules.six_card()
    assert tourney_rules(None).variant is Variant.SIX_CARD


PLAYOFF = TableNotice("club", 2, 0, "Cy", "Di", playoff=True, match=1, games=3)


def test_a_playoff_notice_starts_a_best_of_three_by_games_won_and_is_played_out(
    tmp_path: Path,
) -> None:
    """The hub's playoff match (best of 3): ok starts first to two under its names; the match
    goes game after game with no offer between; once over it is not offered again, and the
    hub's next match for this board is."""
    ctl, board = table(tmp_path)
    board.take(PLAYOFF)
    ctl.tick()
    assert ctl.screen.kind is ScreenKind.PAIRING
    assert ctl.screen.pairing == PairingView(0, 2, "Cy", "Di", 1, 3)
    keys(ctl, "ok")
    state = ctl.state
    assert state.names == ("Cy", "Di") and state.match.format is MatchFormat.FIRST_TO_TWO
    win_the_game(ctl)  # Cy 1-0
    assert ctl.state.phase is Phase.GAME_OVER
    ctl.tick()
    assert ctl.screen.kind is not ScreenKind.PAIRING
    keys(ctl, "ok:long 1")  # the menu's first line: the next game
    assert ctl.screen.kind is not ScreenKind.PAIRING and ctl.state.names == ("Cy", "Di")
    keys(ctl, "9 3 D 6 0 A D 6 0 A D 1 A")  # Cy again: 2-0, the match is Cy's
    assert ctl.state.phase is Phase.MATCH_OVER and ctl.view.match.winner_name == "Cy"
    assert ctl.state.match.games_won == (2, 0)
    ctl.tick()
    assert ctl.screen.kind is ScreenKind.GAME_OVER  # played: not offered again
    final = TableNotice("club", 3, 0, "Ann", "Cy", playoff=True, match=1, games=5)
    board.take(final)
    ctl.tick()
    assert ctl.screen.kind is ScreenKind.PAIRING
    keys(ctl, "ok")
    assert ctl.state.names == ("Ann", "Cy")
    assert ctl.state.match.format is MatchFormat.FIRST_TO_THREE


def test_a_notice_of_no_length_is_one_game_and_five_is_first_to_three() -> None:
    from pegboard.table.tourney import match_format

    assert [match_format(n) for n in (1, 3, 5)] == [
        MatchFormat.SINGLE,
        MatchFormat.FIRST_TO_TWO,
        MatchFormat.FIRST_TO_THREE,
    ]
    assert TableNotice.from_payload(CY_DI.to_payload()).games == 1
