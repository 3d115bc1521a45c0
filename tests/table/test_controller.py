"""The keypad grammar through the controller: a fake clock, a recording display, no sleeps."""

from __future__ import annotations

import json
import queue
import random
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from PIL import Image

from pegboard.config.leds import parse_leds
from pegboard.devices.leds import RecordingStrip as SimStrip
from pegboard.devices.ports import Color, FakeClock, KeyAction, KeyEvent
from pegboard.engine.game import Phase
from pegboard.engine.rules import Rules
from pegboard.engine.view import GameView
from pegboard.errors import HardwareError
from pegboard.i18n import Language
from pegboard.journal import Journal
from pegboard.table.controller import Controller, DisplayPower, ScreenTiming
from pegboard.table.outputs import StillAnimator
from pegboard.ui.keypad import Layout
from pegboard.ui.ledtracks import (
    BLINK_OFF,
    BLINK_ON,
    FLASH_HOLD,
    FLASH_SECONDS,
    FRAME_SECONDS,
    PEG_FRAMES,
    TrackAnimator,
    animate_peg,
    render_tracks,
)
from pegboard.ui.screens import Screen


class RecordingDisplay:
    """A display that keeps every frame; it can be told to fail the next *failures* shows."""

    def __init__(self, failures: int = 0) -> None:
        self.shown: list[Image.Image] = []
        self.failures = failures
        self.contrast: list[int] = []

    @property
    def size(self) -> tuple[int, int]:
        return (128, 64)

    @property
    def mode(self) -> str:
        return "1"

    def show(self, image: Image.Image) -> None:
        if self.failures:
            self.failures -= 1
            raise HardwareError("i2c: no ack from 0x3c")
        self.shown.append(image)

    def set_contrast(self, level: int) -> None:
        self.contrast.append(level)

    def close(self) -> None:
        self.shown.clear()


class RecordingStrip:
    def __init__(self, failures: int = 0) -> None:
        self.frames: list[list[Color]] = []
        self.failures = failures

    @property
    def length(self) -> int:
        return 4

    def show(self, pixels: Sequence[Color]) -> None:
        if self.failures:
            self.failures -= 1
            raise OSError(5, "spi write failed")
        self.frames.append(list(pixels))

    def close(self) -> None:
        self.frames.clear()


class TextScreen:
    """A screen renderer that records the text it would draw, and the screens."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.screens: list[Screen] = []

    def __call__(self, screen: Screen) -> Image.Image:
        view, entry = screen.view, screen.entry
        scores = " ".join(f"{s.name}{s.score}" for s in view.sides) if view is not None else ""
        self.lines.append(f"{scores} | {entry.line if entry else ''} | {screen.message}")
        self.screens.append(screen)
        return Image.new("1", (128, 64))


def score_leds(view: GameView) -> Mapping[str, Sequence[Color]]:
    return {"track": [(0, 0, 255) if s.score else (0, 0, 0) for s in view.sides]}


class Table:
    """A controller with recording ports, and a press counter."""

    def __init__(
        self,
        path: Path,
        rules: Rules | None = None,
        *,
        layout: Layout = Layout.FOUR_BY_FOUR,
        display: RecordingDisplay | None = None,
        strip: RecordingStrip | None = None,
        names: Sequence[str] | None = None,
        roster: Sequence[str] = (),
        dim_after: float | None = None,
        sleep_after: float | None = None,
        language: Language = Language.ENGLISH,
    ) -> None:
        self.clock = FakeClock()
        self.display = display or RecordingDisplay()
        self.strip = strip or RecordingStrip()
        self.screen = TextScreen()
        self.store = Journal(path)
        self.ctl = Controller(
            store=self.store,
            rules=rules or Rules.six_card(),
            names=names,
            roster=roster,
            layout=layout,
            language=language,
            display=self.display,
            strips={"track": self.strip},
            render_screen=self.screen,
            animate_leds=StillAnimator(score_leds),
            clock=self.clock,
            rng=random.Random(7),
            timing=ScreenTiming(dim_after=dim_after, sleep_after=sleep_after),
        )
        self.presses = 0

    def keys(self, text: str) -> int:
        """Press each key of *text* (``ok:long`` holds a button); return how many."""
        count = 0
        for word in text.split():
            key, _, long = word.partition(":")
            action = KeyAction.LONG_PRESS if long else KeyAction.PRESS
            self.ctl.handle(KeyEvent(key, action))
            count += 1
        self.presses += count
        return count

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(side.score for side in self.ctl.view.sides)

    def deal(self, cut: str = "9 3", starter: str = "5") -> None:
        """Cut (B deals: 3 is lower) and turn the starter."""
        self.keys(f"{cut} {starter}")


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path / "pegboard.db")


# --- the cut and the starter ------------------------------------------------------------------


def test_cut_ranks_choose_the_dealer_in_two_presses(table: Table) -> None:
    assert table.keys("9 3") == 2
    assert table.ctl.view.phase is Phase.STARTER
    assert table.ctl.view.dealer_name == "Gold"


def test_hash_with_nothing_typed_cuts_at_random(table: Table) -> None:
    table.keys("#")
    assert len(table.ctl.view.cut) == 2
    assert table.store.commands()[0].startswith("cut ")


def test_starter_is_one_press_and_a_jack_pegs_heels(table: Table) -> None:
    table.keys("9 3")
    assert table.keys("A") == 1
    assert table.scores == (0, 2)
    assert table.ctl.view.starter is not None and table.ctl.view.starter.rank.label == "J"


def test_his_heels_can_win_the_game(table: Table) -> None:
    table.keys("9 3")
    for _ in range(2):
        table.keys("D 5 9 B")  # B pegs 59 twice: 118
    table.keys("D 1 B")  # 119
    table.keys("ok:long 2")  # menu: end the deal; A deals now
    table.keys("ok:long 2")  # and again: B deals
    assert table.ctl.view.dealer_name == "Gold"
    table.keys("A")  # the jack turned: 2 for his heels
    assert table.ctl.view.phase is Phase.GAME_OVER
    assert table.ctl.view.winner_name == "Gold"


# --- the play ---------------------------------------------------------------------------------


def test_cards_laid_in_the_play_score_fifteen_and_a_run(table: Table) -> None:
    table.deal()
    assert table.keys("4 6 5") == 3  # one press per card: 5 on 4-6 is fifteen 2 and a run of 3
    assert table.scores == (5, 0)
    assert table.ctl.view.count == 15


def test_hash_says_go_and_the_last_card_pegs_one(table: Table) -> None:
    table.deal()
    table.keys("C B 5 #")  # K Q 5 = 25; B says go
    assert table.ctl.view.said_go == (1,)
    table.keys("#")  # A cannot play either: A laid the last card and pegs 1 for the go
    assert table.scores == (1, 0)
    assert table.ctl.view.count == 0


@pytest.mark.parametrize(
    ("cards", "refused", "message"),
    [
        pytest.param("C B 5", "7", "count 25: a 7 makes 32, over 31", id="25+7"),
        pytest.param("C B 0", "2", "count 30: a 2 makes 32, over 31", id="30+2"),
    ],
)
def test_a_card_over_31_is_refused_and_nothing_changes(
    table: Table, cards: str, refused: str, message: str
) -> None:
    table.deal()
    table.keys(cards)
    before, journal = table.ctl.state, table.store.commands()
    table.keys(refused)
    assert table.ctl.last_error == message
    assert table.ctl.state == before
    assert table.store.commands() == journal
    assert message in table.screen.lines[-1]


def test_a_fifth_five_is_refused_in_the_play(table: Table) -> None:
    table.deal(starter="5")
    table.keys("5 5 5")  # the starter and three laid: all four fives are out
    before = table.ctl.state
    table.keys("5")
    assert table.ctl.last_error == "no fifth 5: all four are out this deal"
    assert table.ctl.state == before


def test_a_go_the_engine_refuses_is_shown_and_changes_nothing(table: Table) -> None:
    table.deal()
    before = table.ctl.state
    table.keys("#")  # a go at count 0: every card fits
    assert table.ctl.last_error.startswith("cannot say go")
    assert table.ctl.state == before
    assert "cannot say go" in table.screen.lines[-1]


# --- the show ---------------------------------------------------------------------------------


PLAY = "4 6 2 8 3 7 # # 9 C"
"""A: 4 2 3 9, B: 6 8 7 K. At 30 both say go (B pegs 1), then 9 K: B pegs 1 for last."""


def _to_show_without_play(table: Table) -> None:
    table.deal(starter="5")
    table.keys("ok:long 1")  # menu 1: end the play without entering cards


def test_a_hand_whose_suits_cannot_matter_takes_five_presses(table: Table) -> None:
    _to_show_without_play(table)
    presses = table.keys("5 5 4 6 #")  # a pair, no jack: neither flush nor nobs is asked
    assert presses <= 12
    assert presses == 5
    assert table.scores == (23, 0)  # pair royal 6, three runs 4-5-6: 9, fifteens 8


def test_a_hand_with_a_jack_asks_nobs_only(table: Table) -> None:
    _to_show_without_play(table)
    presses = table.keys("5 5 A 0")  # 5 5 J 10 with the 5 turned: no flush possible
    # a jack is in the hand, so nobs is asked as soon as the hand is whole
    assert table.ctl.entry.hint.startswith("nobs")
    presses += table.keys("#")  # no: the answer counts it
    assert presses == 5
    assert table.scores == (20, 0)  # fifteens: 5+J x3, 5+10 x3, 5+5+5: 14; pair royal 6
    assert table.ctl.view.last is not None
    assert table.ctl.view.last.points == 20


def test_a_five_card_hand_with_distinct_ranks_asks_the_flush_once(table: Table) -> None:
    _to_show_without_play(table)
    presses = table.keys("2 3 4 6")
    assert table.ctl.entry.hint.startswith("flush?")  # asked once the hand is whole
    presses += table.keys("#")  # no flush: counted
    assert presses == 5
    assert table.scores == (9, 0)  # run of five 5, fifteens 2+3+4+6 and 4+5+6: 4


@pytest.mark.parametrize(
    ("answer", "points"),
    [
        pytest.param("#", 5, id="4-7-8-9+5"),
        pytest.param("1", 9, id="4H-7H-8H-9H+5S"),
        pytest.param("2", 10, id="4H-7H-8H-9H+5H"),
    ],
)
def test_the_flush_answer_makes_the_count_exact(table: Table, answer: str, points: int) -> None:
    _to_show_without_play(table)
    table.keys(f"4 7 8 9 {answer}")  # run 7-8-9: 3, fifteen 7+8: 2; flush 4 or 5
    assert table.scores == (points, 0)


def test_a_jack_starter_never_asks_nobs(table: Table) -> None:
    table.deal(starter="A")  # a jack turned: 2 for his heels to the dealer, B
    table.keys("ok:long 1")  # end the play without entering cards
    presses = table.keys("A 5 0 0 #")  # J 5 10 10 with a jack turned: no flush can be
    assert presses == 5  # and nobs is not asked: the jack of the starter's suit is the starter
    assert not table.ctl.entry.hint.startswith("nobs")
    assert table.scores == (12, 2)  # the 5 with J, 10, 10 and the starter J: 8; two pairs: 4


@pytest.mark.parametrize(
    ("answer", "points"), [pytest.param("#", 10, id="J-J-2-3+5"), pytest.param("1", 11, id="nobs")]
)
def test_the_nobs_answer_makes_the_count_exact(table: Table, answer: str, points: int) -> None:
    _to_show_without_play(table)
    table.keys(f"A A 2 3 {answer}")  # fifteens J+5 x2 and 2+3+J x2: 8; the pair of jacks: 2
    assert table.scores == (points, 0)


def test_backspace_erases_the_last_rank(table: Table) -> None:
    _to_show_without_play(table)
    table.keys("7 8 9")
    assert table.ctl.entry.line == "Sky's hand: 7 8 9 _"
    table.keys("*")
    assert table.ctl.entry.line == "Sky's hand: 7 8 _ _"


def test_a_fifth_rank_in_a_hand_is_refused(table: Table) -> None:
    _to_show_without_play(table)
    table.keys("5 5 5")
    table.keys("5")
    assert table.ctl.last_error == "no fifth 5: all four are out this deal"
    assert table.ctl.entry.line == "Sky's hand: 5 5 5 _"


def test_a_hand_known_from_the_play_counts_with_one_press(table: Table) -> None:
    table.deal(starter="5")
    table.keys(PLAY)
    assert table.ctl.view.phase is Phase.SHOW
    assert table.scores == (0, 2)  # B: 1 for the go at 30, 1 for the last card
    assert table.ctl.entry.line == "Sky's hand: 4 2 3 9"
    assert table.ctl.entry.asks  # the idle keypad's next key answers "flush?"
    assert table.ctl.entry.hint.startswith("flush?")
    assert table.keys("#") == 1  # not a flush: counted
    assert table.scores == (6, 2)  # run 2-3-4-5: 4, fifteen 2+4+9: 2


def test_a_flush_in_a_hand_laid_in_the_play_re_enters_the_deal_with_one_suit(
    table: Table,
) -> None:
    table.deal(starter="5")
    table.keys(PLAY)
    table.keys("1")  # A's 4 2 3 9 were one suit after all
    assert table.scores == (10, 2)
    journal = table.store.commands()
    hand = journal[-1].split()
    assert hand[0] == "show" and len({card[-1] for card in hand[1:]}) == 1
    assert "undo" in journal
    # the play re-entered with the new suits scores as before
    assert table.ctl.state.table.record is not None
    assert table.ctl.state.table.record.pegging == (0, 2)


def test_muggins_claim_short_gives_the_difference_to_the_opponent(tmp_path: Path) -> None:
    table = Table(tmp_path / "m.db", Rules.six_card(muggins=True))
    table.deal(starter="5")
    table.keys("ok:long 1")
    table.keys("5 5 A 0 #")  # 5 5 J 10 + 5: 20 points (nobs no)
    assert table.ctl.entry.hint.startswith("claim: points")
    table.keys("1 2 #")
    assert table.scores == (12, 8)


def test_the_crib_asks_only_for_a_five_card_flush(table: Table) -> None:
    _to_show_without_play(table)
    table.keys("5 5 A 0 #")  # A's hand
    table.keys("2 2 3 3 #")  # B's hand: pairs, no flush possible
    assert table.ctl.view.up_for_counting == "crib"
    table.keys("7 8 9 0")
    assert table.ctl.entry.hint == "flush? # no, 1 yes\n(all five one suit)"
    table.keys("1")
    assert table.ctl.view.last is not None and table.ctl.view.last.points == 13


# --- manual pegs ------------------------------------------------------------------------------


def test_a_manual_peg_takes_three_presses(table: Table) -> None:
    table.deal()
    assert table.keys("D 7 B") == 3
    assert table.scores == (0, 7)


def test_a_manual_peg_of_two_digits_to_a_side_chosen_by_number(table: Table) -> None:
    table.deal()
    table.keys("D 1 2 # 1")
    assert table.scores == (12, 0)


def test_a_peg_over_61_is_refused(table: Table) -> None:
    table.deal()
    table.keys("D 6 2")
    assert table.ctl.last_error == "a peg is at most 61"
    assert table.ctl.entry.line == "peg: 6"


def test_peg_button_presses_combine_and_commit_after_idle(table: Table) -> None:
    table.deal()
    table.keys("peg0 peg0 peg0")
    assert table.ctl.entry.line == "peg: Sky +3"
    assert table.scores == (0, 0)
    table.clock.advance(1.4)
    table.ctl.tick()
    assert table.scores == (0, 0)
    table.clock.advance(0.1)
    table.ctl.tick()
    assert table.scores == (3, 0)
    assert table.store.commands()[-1] == "peg Sky 3"


def test_another_key_commits_the_combined_peg_at_once_then_acts(table: Table) -> None:
    table.deal()
    table.keys("peg1 peg1 4")  # B +2, then A lays a 4
    assert table.scores == (0, 2)
    assert table.ctl.view.count == 4


def test_ok_commits_the_combined_peg_without_saying_go(table: Table) -> None:
    table.deal()
    table.keys("peg1 ok")
    assert table.scores == (0, 1)
    assert table.ctl.view.said_go == ()


def test_undo_drops_a_peg_not_yet_committed(table: Table) -> None:
    table.deal()
    table.keys("peg0 peg0 undo")
    table.clock.advance(5)
    table.ctl.tick()
    assert table.scores == (0, 0)


def test_the_peg_button_of_another_side_commits_the_first(table: Table) -> None:
    table.deal()
    table.keys("peg0 peg0 peg1")
    assert table.scores == (2, 0)
    assert table.ctl.entry.line == "peg: Gold +1"


# --- undo, redo, the menu -----------------------------------------------------------------------


def test_undo_and_redo_reach_across_deals(table: Table) -> None:
    table.deal()
    table.keys("D 5 A ok:long 2")  # peg, then end the deal
    assert table.ctl.view.deal == 2
    table.keys("undo undo")
    assert table.ctl.view.deal == 1 and table.scores == (0, 0)
    table.keys("undo:long undo:long")
    assert table.ctl.view.deal == 2 and table.scores == (5, 0)


def test_the_menu_starts_a_new_match_of_another_variant(table: Table) -> None:
    table.keys("ok:long 4")  # variant: the next one after six-card
    assert ("4 variant", "three-handed") in table.ctl.entry.menu
    table.keys("5 3")  # muggins on, new match
    assert table.ctl.view.variant == "three-handed"
    assert table.ctl.state.rules.muggins
    assert len(table.ctl.view.names) == 3


def test_the_menu_starts_a_match_with_every_option_chosen(table: Table) -> None:
    table.keys("ok:long 8 9 0 5 5 3")  # first to two, double skunk 4, starter in play, muggins x2
    rules = table.ctl.state.rules
    assert table.ctl.view.match.format.value == "first-to-two"
    assert rules.double_skunk_points == 4 and rules.starter_counts_in_play
    assert rules.muggins and rules.muggins_in_play


def test_a_short_claim_in_the_play_gives_the_rest_to_the_opponent(table: Table) -> None:
    table.keys("ok:long 5 5 3")  # muggins in the hands and in the play
    table.deal(starter="2")  # B deals: A leads
    table.keys("4 #")  # A lays a 4, no claim
    table.keys("6 #")  # B lays a 6, no claim
    table.keys("5 2 #")  # A lays a 5 (15 and a run of 3: 5) but claims only 2
    assert table.scores == (2, 3)


def test_a_key_that_means_nothing_is_refused(table: Table) -> None:
    table.deal()
    table.keys("ok:long 5:long")
    assert table.ctl.last_error == "5 has no long press"


# --- the sides' names: the roster, the menu, the journal --------------------------------------

ROSTER = ("Ann", "Bob", "Cy", "Di")


def _name_lines(table: Table) -> list[tuple[str, str | None]]:
    return [line for line in table.ctl.entry.menu if " side " in line[0]]


def test_a_table_with_no_names_is_red_and_blue_never_a_keypad_letter(table: Table) -> None:
    assert table.ctl.view.names == ("Sky", "Gold")
    table.keys("9 3 5 D 4")  # a manual peg: the hint names the sides by key
    assert table.ctl.entry.hint == "points, then side\nA=Sky B=Gold"


def test_the_menu_picks_names_from_the_roster_for_a_new_match(tmp_path: Path) -> None:
    table = Table(tmp_path / "p.db", roster=ROSTER)
    table.keys("9 3 D 5 A")  # a match under way: cut, 5 to Sky
    table.keys("ok:long A A B")  # side 1: Ann, then Bob; side 2: Ann
    assert _name_lines(table) == [("A side 1", "Bob"), ("B side 2", "Ann")]
    assert table.ctl.view.names == ("Sky", "Gold")  # nothing changes until the new match
    table.keys("3")
    assert table.ctl.view.names == ("Bob", "Ann")
    assert table.ctl.view.phase is Phase.CUT and table.scores == (0, 0)
    assert table.ctl.entry.typing is False  # back to the game


def test_picked_names_are_journalled_and_a_restart_resumes_them(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    table = Table(path, roster=ROSTER)
    table.keys("ok:long B B 3 9 3 D 7 A")  # side 2: Bob; new match; cut; 7 to Sky
    table.store.close()
    again = Table(path, roster=ROSTER)  # a restart: a new journal on the same file
    assert again.ctl.view.names == ("Sky", "Bob")
    assert again.scores == (7, 0)
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT names FROM matches ORDER BY id").fetchall()
    assert [json.loads(names) for (names,) in rows] == [["Sky", "Gold"], ["Sky", "Bob"]]
    again.keys("ok:long")  # the menu starts from the names on the table
    assert _name_lines(again) == [("A side 1", "Sky"), ("B side 2", "Bob")]


def test_a_rematch_keeps_the_names_picked(tmp_path: Path) -> None:
    table = Table(tmp_path / "p.db", roster=ROSTER)
    table.keys("ok:long A 8 8 3")  # side 1: Ann; a single-game match
    table.keys("9 3 D 6 1 A D 6 0 A")  # Ann pegs out
    assert table.ctl.view.phase is Phase.MATCH_OVER
    table.keys("#")  # a new match
    assert table.ctl.view.phase is Phase.CUT and table.ctl.view.names == ("Ann", "Gold")


def test_the_configured_names_are_on_offer_in_the_menu_too(tmp_path: Path) -> None:
    table = Table(tmp_path / "p.db", names=("Ed", "Flo"), roster=("Ann",))
    assert table.ctl.view.names == ("Ed", "Flo")
    table.keys("ok:long A")
    assert _name_lines(table)[0] == ("A side 1", "Ann")
    table.keys("B")  # side 2, Flo: the next name on offer is Ann, which side 1 holds, then Ed
    assert _name_lines(table)[1] == ("B side 2", "Ed")


def test_peg_buttons_pick_names_on_a_3x4_keypad(tmp_path: Path) -> None:
    table = Table(tmp_path / "p.db", layout=Layout.THREE_BY_FOUR, roster=ROSTER)
    table.keys("ok:long peg0 peg1 3")
    assert table.ctl.view.names == ("Ann", "Bob")


def test_a_three_handed_match_from_the_menu_names_its_third_side(tmp_path: Path) -> None:
    table = Table(tmp_path / "p.db", roster=ROSTER)
    table.keys("ok:long 4 C C 3")  # three-handed; side 3: Ann, then Bob
    assert table.ctl.view.names == ("Sky", "Gold", "Bob")


# --- 3x4 keypad -------------------------------------------------------------------------------


def test_on_a_3x4_keypad_zero_again_makes_jack_queen_king(tmp_path: Path) -> None:
    table = Table(tmp_path / "k.db", layout=Layout.THREE_BY_FOUR)
    table.keys("9 3 5 ok:long 1")  # starter 5, then end the play from the menu
    table.keys("0 0 0 # 0 # 0 0 5")  # Q; # ends it; 10; J; 5
    assert table.ctl.entry.line == "Sky's hand: Q 10 J 5"
    table.keys("#")  # neither a flush (ranks differ) nor nobs (a jack): one question
    assert table.scores == (17, 0)  # run 10-J-Q 3; fifteens 10/J/Q with each 5: 12; pair 2


def test_on_a_3x4_keypad_star_with_nothing_typed_pegs(tmp_path: Path) -> None:
    table = Table(tmp_path / "k.db", layout=Layout.THREE_BY_FOUR)
    table.keys("9 3 5")
    table.keys("* 4 # 2")
    assert table.scores == (0, 4)


def test_on_a_3x4_keypad_a_ten_in_the_play_waits_for_the_next_key(tmp_path: Path) -> None:
    table = Table(tmp_path / "k.db", layout=Layout.THREE_BY_FOUR)
    table.keys("9 3 5 0 0")  # A: a jack, not laid yet
    assert table.ctl.view.count == 0
    table.keys("5")  # lays the jack, then B's 5: fifteen
    assert table.ctl.view.count == 15
    assert table.scores == (0, 2)


# --- ports, restart, the loop ------------------------------------------------------------------


def test_every_press_is_echoed_in_a_frame(table: Table) -> None:
    before = len(table.display.shown)
    table.keys("9 3 5 4")
    assert len(table.display.shown) == before + 4


def test_a_failing_display_is_retried_and_the_game_goes_on(tmp_path: Path) -> None:
    table = Table(tmp_path / "d.db", display=RecordingDisplay(failures=3))
    table.keys("9 3 5")
    assert table.ctl.view.phase is Phase.PLAY  # the game went on
    shown = len(table.display.shown)
    table.ctl.tick()  # too early to retry
    assert len(table.display.shown) == shown
    table.clock.advance(5)
    table.ctl.tick()
    assert len(table.display.shown) == shown + 1


def test_a_failing_led_strip_is_retried(tmp_path: Path) -> None:
    table = Table(tmp_path / "l.db", strip=RecordingStrip(failures=1))
    table.keys("9 3 5 D 2 A")
    table.clock.advance(5)
    table.ctl.tick()
    assert table.strip.frames[-1] == [(0, 0, 255), (0, 0, 0)]


def test_a_bug_in_a_renderer_propagates(tmp_path: Path) -> None:
    table = Table(tmp_path / "b.db")

    def broken(screen: Screen) -> Image.Image:
        raise RuntimeError("renderer bug")

    table.ctl._out.render = broken
    with pytest.raises(RuntimeError, match="renderer bug"):
        table.keys("9")


def test_a_restart_resumes_the_game_from_the_journal(tmp_path: Path) -> None:
    table = Table(tmp_path / "r.db")
    table.keys("9 3 5 4 6")
    table.store.close()
    again = Table(tmp_path / "r.db")
    assert again.ctl.view.count == 10
    assert again.ctl.view.phase is Phase.PLAY


def test_the_display_dims_when_idle_and_wakes_on_a_key(tmp_path: Path) -> None:
    table = Table(tmp_path / "dim.db", dim_after=60.0)
    table.clock.advance(61)
    table.ctl.tick()
    table.keys("9")
    assert table.display.contrast == [16, 255]


def test_run_takes_keys_off_the_queue_and_beats_the_heart(table: Table) -> None:
    events: queue.Queue[KeyEvent | None] = queue.Queue()
    for key in "93546":
        events.put(KeyEvent(key))
    stop = threading.Event()
    beats = []

    def heartbeat() -> None:
        beats.append(1)
        if events.empty():
            stop.set()

    table.ctl.run(events, stop, heartbeat=heartbeat, poll=0)
    assert table.ctl.view.count == 10
    assert len(beats) == 6


# --- whole games ------------------------------------------------------------------------------


def test_a_whole_game_pegged_by_hand_to_121(table: Table) -> None:
    table.keys("9 3")
    presses = 0
    while table.ctl.view.phase is not Phase.GAME_OVER:
        table.keys("ok:long 1")  # no starter: straight to pegging
        presses += table.keys("D 2 9 A D 1 B")  # A 29, B 1 per deal
        if table.ctl.view.phase is not Phase.GAME_OVER:
            table.keys("ok:long 2")
    assert table.ctl.view.winner_name == "Sky"
    assert table.ctl.view.game_points == 3  # B below 61: a double skunk
    table.keys("#")  # the next game of the match
    assert table.ctl.view.game == 2


def test_a_counting_mode_deal_from_cut_to_next_deal(table: Table) -> None:
    table.keys("9 3 5")  # B deals, 5 turned
    table.keys(PLAY)  # the play
    table.keys("#")  # A's hand from the play: "flush?" no
    table.keys("#")  # B's hand from the play: its ranks differ too, so again "flush?" no
    assert table.scores == (6, 10)  # B: 2 in the play, 8 for 5-6-7-8 with 7+8 and 5+K
    table.keys("5 5 A 0 #")  # the crib: 5 5 J 10, "nobs?" no
    assert table.scores == (6, 30)
    assert table.ctl.view.phase is Phase.STARTER
    assert table.ctl.view.deal == 2
    assert table.ctl.view.dealer_name == "Sky"


# --- LED animation ----------------------------------------------------------------------------


class Board:
    """A controller driving the default LED layout through the tracks' ``TrackAnimator``."""

    def __init__(
        self, path: Path, *, display: RecordingDisplay | None = None, sides: int = 2
    ) -> None:
        self.clock = FakeClock()
        self.layout = parse_leds({}, sides=sides).layout
        self.strip = SimStrip(self.layout.strips[0].count, name="board")
        self.display = display or RecordingDisplay()
        self.store = Journal(path)
        self.animator = TrackAnimator(self.layout)
        self.ctl = Controller(
            store=self.store,
            rules=Rules.six_card() if sides == 2 else Rules.three_handed(),
            display=self.display,
            strips={"board": self.strip},
            render_screen=TextScreen(),
            animate_leds=self.animator,
            clock=self.clock,
            rng=random.Random(7),
        )
        self.ctl.tick()  # the first frame

    def keys(self, text: str) -> None:
        for word in text.split():
            key, _, long = word.partition(":")
            self.ctl.handle(KeyEvent(key, KeyAction.LONG_PRESS if long else KeyAction.PRESS))

    def shown(self) -> list[tuple[Color, ...]]:
        return list(self.strip.frames)

    def frame(self, view: GameView, phase: int = 0) -> tuple[Color, ...]:
        return render_tracks(self.animator.state(view), self.layout, phase)["board"]

    def run_for(self, seconds: float, step: float = FRAME_SECONDS) -> None:
        """Let *seconds* pass, ticking every *step* as the run loop would."""
        for _ in range(round(seconds / step)):
            self.clock.advance(step)
            self.ctl.tick()


@pytest.fixture
def board(tmp_path: Path) -> Board:
    b = Board(tmp_path / "leds.db")
    b.keys("9 3 5")  # B deals, starter 5
    b.run_for(1)
    return b


def _travel(board: Board, before: GameView, after: GameView) -> list[tuple[Color, ...]]:
    """animate_peg's frames, each written once (a strip is not sent the frame it shows)."""
    frames = animate_peg(
        board.animator.state(before), board.animator.state(after), board.layout, PEG_FRAMES
    )
    written: list[tuple[Color, ...]] = []
    for frame in frames:
        if not written or written[-1] != frame["board"]:
            written.append(frame["board"])
    return written


def test_a_peg_steps_the_rear_peg_past_the_front_peg_frame_by_frame(board: Board) -> None:
    board.keys("D 3 A")
    first = board.ctl.view
    board.run_for(1)
    start = len(board.shown())
    board.keys("D 2 0 A")  # A's rear peg (0) travels past the front peg (3) to 23
    after = board.ctl.view
    assert board.ctl.animating
    board.run_for(PEG_FRAMES * FRAME_SECONDS)
    frames = board.shown()[start:]
    assert frames == _travel(board, first, after)
    assert len(frames) == PEG_FRAMES  # 20 holes over 12 frames: every frame moves the peg
    assert frames[-1] == board.frame(after)
    assert not board.ctl.animating


def test_the_animation_keeps_pace_with_the_clock_not_the_ticks(board: Board) -> None:
    before = board.ctl.view
    board.keys("D 2 4 A")
    start = len(board.shown())
    board.clock.advance(FRAME_SECONDS * 5.5)
    board.ctl.tick()  # a late tick skips to the step that is due now
    assert len(board.shown()) == start + 1
    assert board.shown()[-1] == _travel(board, before, board.ctl.view)[5]


def test_undo_runs_the_peg_back_the_way_it_came(board: Board) -> None:
    board.keys("D 4 B")
    board.run_for(1)
    before = board.ctl.view
    start = len(board.shown())
    board.keys("D 3 0 B")
    after = board.ctl.view
    board.run_for(1)
    forward = board.shown()[start:]
    board.keys("undo")
    assert board.ctl.view.sides == before.sides
    board.run_for(1)
    back = board.shown()[start + len(forward) :]
    assert back == [*reversed(forward[:-1]), board.frame(before)]
    assert forward == _travel(board, before, after)


def test_a_key_during_an_animation_finishes_it_at_once(board: Board) -> None:
    board.keys("D 2 0 A")
    board.run_for(2 * FRAME_SECONDS)
    assert board.ctl.animating
    pegged = board.ctl.view
    board.keys("4")  # A lays a 4: no peg, so the LEDs jump to where the peg was going
    assert not board.ctl.animating
    assert board.shown()[-1] == board.frame(pegged)


def test_a_peg_during_an_animation_starts_from_where_the_last_one_ends(board: Board) -> None:
    board.keys("D 2 0 A")
    board.run_for(FRAME_SECONDS)
    middle = board.ctl.view
    board.keys("D 1 0 A")  # rear 20 travels past... no: front 20 stays, rear goes 20 -> 30
    board.run_for(1)
    assert board.shown()[-PEG_FRAMES:] == _travel(board, middle, board.ctl.view)


def test_a_win_flashes_the_winners_track_then_leaves_it_lit(board: Board) -> None:
    board.keys("D 6 1 B")
    board.run_for(1)
    board.keys("D 6 1 B")
    won = board.ctl.view
    assert won.phase is Phase.GAME_OVER and won.winner == 1
    board.run_for(PEG_FRAMES * FRAME_SECONDS)
    lit, still = board.frame(won, 1), board.frame(won)
    assert board.shown()[-1] == still  # the peg has arrived
    assert lit != still
    arrived = len(board.shown())
    board.run_for(FLASH_SECONDS + 2 * FLASH_HOLD)
    flashes = round(FLASH_SECONDS / FLASH_HOLD)
    assert board.shown()[arrived:] == [lit, still] * (flashes // 2)
    assert not board.ctl.animating
    board.run_for(5)
    assert len(board.shown()) == arrived + flashes  # then it stays lit, unchanged


def test_a_key_ends_the_win_flash_and_the_track_stays_lit(board: Board) -> None:
    board.keys("D 6 1 A")
    board.run_for(1)
    board.keys("D 6 1 A")
    won = board.ctl.view
    board.run_for(PEG_FRAMES * FRAME_SECONDS + FLASH_HOLD * 1.5)
    assert board.shown()[-1] == board.frame(won, 1)  # lit mid-flash
    board.keys("*")
    assert board.shown()[-1] == board.frame(won)
    assert not board.ctl.animating


def test_a_plain_led_renderer_still_shows_one_frame_per_change(table: Table) -> None:
    table.deal()
    table.keys("D 2 A")
    assert table.strip.frames[-1] == [(0, 0, 255), (0, 0, 0)]
    assert not table.ctl.animating


def test_an_unchanged_led_frame_is_not_written_again(table: Table) -> None:
    table.deal()
    written = len(table.strip.frames)
    table.keys("4 6")  # cards laid, nobody pegs
    assert len(table.strip.frames) == written


def test_run_waits_no_longer_than_the_next_animation_step(board: Board) -> None:
    events: queue.Queue[KeyEvent | None] = queue.Queue()
    for key in "D9A":
        events.put(KeyEvent(key))
    stop = threading.Event()
    waits: list[float | None] = []

    def heartbeat() -> None:
        waits.append(board.ctl.next_due())
        board.clock.advance(FRAME_SECONDS)
        if len(waits) > 3 + PEG_FRAMES:
            stop.set()

    board.ctl.run(events, stop, heartbeat=heartbeat, poll=0)
    assert waits[:3] == [None, None, None]
    assert waits[3] == pytest.approx(FRAME_SECONDS)  # the peg's next step
    assert waits[-1] is None  # and the animation is over
    assert board.shown()[-1] == board.frame(board.ctl.view)


# --- dim and sleep ----------------------------------------------------------------------------


class SleepyDisplay(RecordingDisplay):
    """A recording display with a panel switch, like ``LumaDisplay``."""

    def __init__(self) -> None:
        super().__init__()
        self.power: list[str] = []

    def sleep(self) -> None:
        self.power.append("sleep")

    def wake(self) -> None:
        self.power.append("wake")


def _idle_table(path: Path, display: RecordingDisplay) -> Table:
    table = Table(path, display=display, dim_after=60.0, sleep_after=600.0)
    table.deal()
    return table


def test_the_display_dims_after_dim_after_idle_seconds(tmp_path: Path) -> None:
    table = _idle_table(tmp_path / "d.db", SleepyDisplay())
    table.clock.advance(59.9)
    table.ctl.tick()
    assert table.ctl.display_power is DisplayPower.ON
    table.clock.advance(0.1)
    table.ctl.tick()
    assert table.ctl.display_power is DisplayPower.DIMMED
    assert table.display.contrast == [16]


def test_a_key_on_a_dimmed_display_brightens_it_and_acts(tmp_path: Path) -> None:
    table = _idle_table(tmp_path / "d.db", SleepyDisplay())
    table.clock.advance(61)
    table.ctl.tick()
    table.keys("4")
    assert table.ctl.display_power is DisplayPower.ON
    assert table.display.contrast == [16, 255]
    assert table.ctl.view.count == 4


def test_the_display_sleeps_after_sleep_after_idle_seconds(tmp_path: Path) -> None:
    display = SleepyDisplay()
    table = _idle_table(tmp_path / "s.db", display)
    table.clock.advance(599)
    table.ctl.tick()
    assert display.power == []
    table.clock.advance(1)
    table.ctl.tick()
    assert table.ctl.display_power is DisplayPower.ASLEEP
    assert display.power == ["sleep"]


def test_the_key_that_wakes_a_sleeping_display_is_swallowed(tmp_path: Path) -> None:
    display = SleepyDisplay()
    table = _idle_table(tmp_path / "s.db", display)
    table.clock.advance(600)
    table.ctl.tick()
    journal = table.store.commands()
    shown = len(display.shown)
    table.keys("4")
    assert display.power == ["sleep", "wake"]
    assert table.display.contrast[-1] == 255
    assert table.store.commands() == journal and table.ctl.view.count == 0
    assert len(display.shown) == shown + 1  # the current frame, drawn again
    table.keys("4")  # awake: this one is laid
    assert table.ctl.view.count == 4


def test_a_display_without_a_panel_switch_sleeps_on_a_blank_frame(tmp_path: Path) -> None:
    table = _idle_table(tmp_path / "b.db", RecordingDisplay())

    def lit(screen: Screen) -> Image.Image:
        return Image.new("1", (128, 64), 1)

    table.ctl._out.render = lit
    table.keys("4")
    assert table.display.shown[-1].getbbox() is not None
    table.clock.advance(600)
    table.ctl.tick()
    assert table.display.shown[-1].getbbox() is None  # all dark
    entry = table.ctl.entry_state
    table.keys("peg0")  # wakes only: no peg pending
    assert table.ctl.entry_state == entry
    assert table.display.shown[-1].getbbox() is not None


def test_nothing_is_drawn_while_the_display_sleeps(tmp_path: Path) -> None:
    table = _idle_table(tmp_path / "n.db", SleepyDisplay())
    table.clock.advance(600)
    table.ctl.tick()
    lines = len(table.screen.lines)
    for _ in range(10):
        table.clock.advance(60)
        table.ctl.tick()
    assert len(table.screen.lines) == lines


def test_the_third_sides_front_peg_blinks_until_a_key(
    tmp_path: Path,
) -> None:
    board = Board(tmp_path / "three.db", sides=3)
    board.run_for(0.1)
    still = board.frame(board.ctl.view)
    assert board.shown()[-1] == still and board.ctl.animating
    board.run_for(BLINK_ON)  # the peg in the start hole goes dark...
    dark = board.shown()[-1]
    assert dark != still
    assert [i for i, (a, b) in enumerate(zip(still, dark, strict=True)) if a != b] == [
        board.layout.tracks[2].strip_leds[0]  # the third track's start hole
    ]
    board.run_for(BLINK_OFF + BLINK_ON + BLINK_OFF)  # ...lit, dark, lit, round and round
    assert board.shown()[-4:] == [dark, still, dark, still]
    board.run_for(BLINK_ON / 2)
    board.keys("*")  # a key that changes nothing finishes the blink with the peg lit
    assert board.shown()[-1] == still and not board.ctl.animating


@pytest.mark.parametrize(
    ("language", "names"),
    [
        pytest.param(Language.ENGLISH, ("Sky", "Gold", "Lilac"), id="en"),
        pytest.param(Language.GERMAN, ("Azur", "Gold", "Lila"), id="de"),
    ],
)
def test_unnamed_sides_are_their_tracks_colours_in_the_tables_language(
    tmp_path: Path, language: Language, names: tuple[str, ...]
) -> None:
    table = Table(tmp_path / "names.db", language=language)
    assert table.ctl.view.names == names[:2]
    for _ in range(4):  # the menu's variants, round to three-handed: a side added gets a colour
        table.keys("ok:long 4 3")
        if len(table.ctl.view.names) == 3:
            break
    assert table.ctl.view.names == names
