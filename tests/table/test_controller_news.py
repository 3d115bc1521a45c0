"""What the table sees after each press: the news for a moment, then whose turn; the count paged
by itself and by a key; the play's last card held. A fake clock, no sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent
from pegboard.engine.game import Phase
from pegboard.engine.rules import Rules
from pegboard.journal import Journal
from pegboard.table.controller import Controller, ScreenTiming
from pegboard.table.wiring import page_counter
from pegboard.ui.count import tally_of
from pegboard.ui.keypad import Layout, Mode
from pegboard.ui.news import News
from pegboard.ui.paint import Style
from pegboard.ui.screens import Screen, ScreenKind
from pegboard.ui.screentext import screen_text

NAMES = ("Ann", "Bob")
PLAY = "4 6 2 8 3 7 # # 9 C"
"""Ann: 4 2 3 9, Bob: 6 8 7 K. At 30 both say go (Bob pegs 1), then 9 K: Bob pegs 1 for last."""
NEWS_SECONDS = 4.0
PAGE_SECONDS = 2.5


class Screens:
    """A screen renderer that keeps the screens it is asked to draw, and when."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.shown: list[Screen] = []
        self.times: list[float] = []

    def __call__(self, screen: Screen) -> Image.Image:
        self.shown.append(screen)
        self.times.append(self.clock.monotonic())
        return Image.new("1", (128, 64))


class Display:
    size = (128, 64)
    mode = "1"

    def show(self, image: Image.Image) -> None:
        pass

    def set_contrast(self, level: int) -> None:
        pass

    def close(self) -> None:
        pass


class Desk:
    """A controller on a fake clock whose count pages as on a 128x64 screen in the large style."""

    def __init__(
        self, path: Path, rules: Rules | None = None, layout: Layout = Layout.FOUR_BY_FOUR
    ) -> None:
        self.clock = FakeClock()
        self.screens = Screens(self.clock)
        self.store = Journal(path)
        self.ctl = Controller(
            store=self.store,
            rules=rules or Rules.six_card(),
            names=NAMES,
            layout=layout,
            display=Display(),
            render_screen=self.screens,
            count_pages=page_counter((128, 64), Style.LARGE),
            clock=self.clock,
            timing=ScreenTiming(news_seconds=NEWS_SECONDS, page_seconds=PAGE_SECONDS),
        )

    def keys(self, text: str) -> None:
        for word in text.split():
            key, _, long = word.partition(":")
            self.ctl.handle(KeyEvent(key, KeyAction.LONG_PRESS if long else KeyAction.PRESS))

    def wait(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.ctl.tick()

    @property
    def screen(self) -> Screen:
        """What the display was last given."""
        return self.screens.shown[-1]

    @property
    def line(self) -> str:
        """The news line the screen shows (the scoreboard's or the play's status row)."""
        news = self.screen.news
        return news.line if news is not None else ""

    @property
    def news_line(self) -> str:
        """What the last press did, while it is news (a count's screen shows its pages)."""
        news = self.ctl.news
        return news.line if news is not None else ""

    def count_up(self, typed: str = "") -> None:
        """Count the hand or crib up: type *typed*, then # until it is counted (the questions
        the keypad asks on the way, answered no)."""
        shown = self.ctl.view.up_for_counting
        self.keys(typed)
        for _ in range(4):
            self.keys("#")
            if self.ctl.entry.mode is Mode.CLAIM:
                self.keys("#")  # muggins: no claim
            if self.ctl.view.up_for_counting != shown or self.ctl.view.phase is not Phase.SHOW:
                return
        raise AssertionError(f"the hand up was not counted: {self.ctl.entry}")

    def to_crib_count(self) -> None:
        """A deal played through to the crib's count: 5 5 J 10 with a 5 turned, 20 points."""
        self.keys(f"9 3 5 {PLAY}")
        self.count_up()  # Ann's hand, from the play
        self.count_up()  # Bob's hand
        self.count_up("5 5 A 0")


@pytest.fixture
def desk(tmp_path: Path) -> Desk:
    return Desk(tmp_path / "news.db")


# --- the whole count ------------------------------------------------------------------------


def test_the_count_turns_its_pages_by_itself_then_the_scoreboard_says_what_is_next(
    desk: Desk,
) -> None:
    desk.to_crib_count()
    assert desk.screen.kind is ScreenKind.COUNT and desk.screen.page == 0
    pages = page_counter((128, 64), Style.LARGE)(desk.screen)
    assert pages >= 3  # 20 for the crib: six fifteens, a pair royal, 2 calls a page
    desk.wait(PAGE_SECONDS - 0.1)
    assert desk.screen.page == 0
    desk.wait(0.1)
    for page in range(1, pages):
        assert (desk.screen.kind, desk.screen.page) == (ScreenKind.COUNT, page)
        desk.wait(PAGE_SECONDS - 0.1)  # the last page too stays its whole time
        assert (desk.screen.kind, desk.screen.page) == (ScreenKind.COUNT, page)
        desk.wait(0.1)
    # then, nothing pending, the scoreboard: the next deal's dealer and its starter to come
    assert desk.screen.kind is ScreenKind.SCOREBOARD and desk.screen.news is None
    assert desk.ctl.view.phase is Phase.STARTER


def test_the_page_key_turns_the_page_at_once_and_the_pace_starts_again(desk: Desk) -> None:
    desk.to_crib_count()
    desk.wait(2.0)
    desk.keys("*")
    assert desk.screen.page == 1 and not desk.ctl.last_error
    desk.wait(PAGE_SECONDS - 0.1)  # a whole page's time from the key, not from the last turn
    assert desk.screen.page == 1
    desk.wait(0.1)
    assert desk.screen.page == 2


def test_the_page_key_on_the_last_page_means_what_it_meant(desk: Desk) -> None:
    desk.to_crib_count()
    pages = page_counter((128, 64), Style.LARGE)(desk.screen)
    desk.keys(" ".join("*" * (pages - 1)))
    assert desk.screen.page == pages - 1
    before = desk.ctl.view
    desk.keys("*")  # on a 4x4 keypad * with nothing typed erases nothing
    assert desk.ctl.view == before and not desk.ctl.last_error
    assert (desk.screen.kind, desk.screen.page) == (ScreenKind.COUNT, pages - 1)


def test_on_a_3x4_keypad_star_turns_the_page_then_pegs_on_the_last(tmp_path: Path) -> None:
    desk = Desk(tmp_path / "3x4.db", layout=Layout.THREE_BY_FOUR)
    desk.keys(f"9 3 5 {PLAY.replace('C', '0 0 0 0 #')}")  # 3x4: 0 0 0 0 is a king, # lays it
    assert desk.ctl.view.phase is Phase.SHOW
    desk.count_up()
    desk.count_up()
    desk.count_up("5 5 0 0 # 0")  # the crib: 5 5 J 10 (# ends the jack so 0 starts a ten)
    assert desk.store.commands()[-1].startswith("crib ")
    pages = page_counter((128, 64), Style.LARGE)(desk.screen)
    assert pages >= 3
    for page in range(1, pages):
        desk.keys("*")
        assert desk.screen.page == page and desk.ctl.entry.mode is Mode.TYPING
    desk.keys("*")  # on the last page * means what it always meant with nothing typed: peg
    assert desk.ctl.entry.mode is Mode.PEG


def test_every_call_and_the_total_are_shown_on_some_page(desk: Desk) -> None:
    desk.to_crib_count()
    pages = page_counter((128, 64), Style.LARGE)(desk.screen)
    for _ in range(pages):
        desk.wait(PAGE_SECONDS)
    counts = [screen for screen in desk.screens.shown if screen.kind is ScreenKind.COUNT]
    assert {screen.page for screen in counts} == set(range(pages))
    news = counts[-1].news
    assert news is not None
    tally = tally_of(desk.ctl.view, news.counted)
    assert tally.total == 20 and tally.calls[-1] == "and pair royal is 20"
    assert tally.pegged[0] == "Bob +20 → 30"


def test_a_count_left_up_by_a_restart_pages_too(tmp_path: Path) -> None:
    desk = Desk(tmp_path / "restart.db")
    desk.to_crib_count()
    desk.store.close()
    again = Desk(tmp_path / "restart.db")
    again.ctl.tick()
    assert (again.screen.kind, again.screen.page) == (ScreenKind.COUNT, 0)
    again.wait(PAGE_SECONDS)
    assert again.screen.page == 1


# --- the last card of the play ----------------------------------------------------------------


def test_the_last_card_of_the_play_is_held_on_the_play_screen(desk: Desk) -> None:
    desk.keys(f"9 3 5 {PLAY}")
    assert desk.ctl.view.phase is Phase.SHOW  # the game has moved on ...
    screen = desk.screen  # ... the screen holds the play as the last card left it
    assert screen.kind is ScreenKind.PLAY and screen.view is not None
    assert screen.view.count == 19 and [c.rank.label for c in screen.view.series] == ["9", "K"]
    assert desk.line == "Bob: one for last"
    desk.wait(NEWS_SECONDS - 0.1)
    assert desk.screen.kind is ScreenKind.PLAY
    desk.wait(0.1)
    # then the show: Ann's hand was laid in the play, so its one question is up to be answered
    screen = desk.screen
    assert screen.kind is ScreenKind.ENTRY and screen.entry is not None and screen.entry.asks
    assert screen.entry.hint.startswith("flush?")


def test_the_next_key_ends_the_hold_on_the_play(desk: Desk) -> None:
    desk.keys(f"9 3 5 {PLAY}")
    desk.keys("*")  # means nothing here: only ends the news
    screen = desk.screen
    assert screen.kind is ScreenKind.ENTRY and desk.line == ""  # the hand's question
    assert screen.entry is not None and screen.entry.hint.startswith("flush?")


def test_a_question_a_key_will_answer_is_on_the_screen_once_the_news_is_read(desk: Desk) -> None:
    """A hand laid in the play takes its answer as the first key: the question must be seen."""
    desk.keys(f"9 3 5 {PLAY}")
    assert desk.ctl.entry.asks and desk.screen.kind is ScreenKind.PLAY  # the news is up first
    desk.wait(NEWS_SECONDS)
    assert desk.screen.kind is ScreenKind.ENTRY
    desk.keys("#")  # no flush: A's hand is counted, and its count is the news
    assert desk.screen.kind is ScreenKind.COUNT


# --- the score after every action ---------------------------------------------------------------


def test_a_peg_shows_the_side_what_it_pegged_and_its_score(desk: Desk) -> None:
    desk.keys("9 3 peg0 peg0 peg0")
    desk.wait(1.5)  # the peg buttons' presses commit together
    assert desk.screen.kind is ScreenKind.SCOREBOARD
    assert desk.line == "Ann +3 → 3"
    assert desk.screen.news is not None and desk.screen.news.gains == (3, 0)


def test_a_hand_counted_tells_what_it_pegged(desk: Desk) -> None:
    desk.keys(f"9 3 5 {PLAY}")
    desk.count_up()
    assert desk.screen.kind is ScreenKind.COUNT
    assert desk.news_line == "Ann +6 → 6"


def test_undo_and_redo_say_what_they_took_back_and_put_back(desk: Desk) -> None:
    desk.keys(f"9 3 5 {PLAY}")
    desk.count_up()
    desk.keys("undo")
    assert desk.line == "undone: Ann's hand, 6"
    assert desk.screen.kind is ScreenKind.SCOREBOARD
    assert desk.screen.news is not None and desk.screen.news.gains == (-6, 0)
    desk.keys("undo:long")
    assert desk.line == "redone: Ann's hand, 6"
    desk.keys("undo")
    desk.keys("undo")  # Bob's last card: one for last
    assert desk.line == "undone: Bob's K, 1"


def test_the_crib_tells_the_score_it_leaves(desk: Desk) -> None:
    desk.to_crib_count()
    assert desk.ctl.view.phase is Phase.STARTER  # the next deal: the crib's count stays up
    assert desk.news_line == "Bob +20 → 30"


# --- whose turn, not stale news -------------------------------------------------------------------


def test_the_news_gives_way_to_whose_turn(desk: Desk) -> None:
    desk.keys("9 3 5 4 6")  # Ann 4, Bob 6
    desk.keys("5")  # Ann's 5: fifteen and a run of 3
    assert desk.line == "Ann: fifteen for 2, a run of 3 for 3"
    desk.wait(NEWS_SECONDS)
    assert desk.screen.kind is ScreenKind.PLAY and desk.line == ""  # now: Bob to lay, 15


def test_the_next_key_ends_the_news(desk: Desk) -> None:
    desk.keys("9 3 5 4 6 5")
    desk.keys("8")  # Bob's 8: 23, nothing to peg
    assert desk.line == ""
    assert desk.ctl.view.turn_name == "Ann"


def test_a_go_is_shown(desk: Desk) -> None:
    desk.keys("9 3 5 4 6 2 8 3 7")  # 30
    desk.keys("#")
    assert desk.line == "Ann: go"
    desk.keys("#")
    assert desk.line == "Bob: go, one for the go"


# --- muggins ---------------------------------------------------------------------------------


def test_a_short_claim_shows_the_count_then_the_muggins_points(tmp_path: Path) -> None:
    desk = Desk(tmp_path / "muggins.db", Rules.six_card(muggins=True))
    desk.keys(f"9 3 5 {PLAY}")
    for _ in range(3):
        if desk.ctl.entry.mode is Mode.CLAIM:
            break
        desk.keys("#")
    assert desk.ctl.entry.mode is Mode.CLAIM
    desk.keys("2 #")  # Ann claims 2 of her 6
    assert desk.ctl.view.sides[0].score == 2 and desk.ctl.view.sides[1].score == 6
    screen = desk.screen
    assert screen.kind is ScreenKind.COUNT and screen.news is not None
    tally = tally_of(desk.ctl.view, screen.news.counted)
    assert tally.title == "Ann's hand" and tally.total == 6
    assert tally.calls[-1] == "claimed 2\nmuggins: Bob +4"  # what was missed, after the count
    assert tally.calls[0].startswith("fifteen")
    assert tally.pegged[0] == "Ann +2 → 2 · Bob +4 → 6"


# --- the first screen -------------------------------------------------------------------------


def test_the_first_cut_screen_says_what_to_press(desk: Desk) -> None:
    desk.ctl.tick()
    assert desk.screen.kind is ScreenKind.ENTRY and desk.screen.entry is not None
    assert "# random" in desk.screen.entry.hint


def test_a_new_news_value_starts_empty() -> None:
    assert News().faded() == News()
    assert not News().line and News().play_end is None


def test_news_without_a_clock_stays_until_the_next_key(desk: Desk) -> None:
    desk.keys("9 3 5 4 6 5")
    desk.ctl.tick()  # no time passes
    assert desk.line.startswith("Ann: fifteen")
    assert desk.clock.monotonic() == FakeClock().monotonic()


# --- the timeline: a question waits for the count's last page -------------------------------


def _count_then_question(desk: Desk, answer: str) -> list[tuple[float, Screen]]:
    """(time, screen) of each frame drawn from *answer* on, the clock ticking 0.25 s; a
    screen drawn again on the same page (its news faded) is left out."""
    start = len(desk.screens.shown)
    desk.keys(answer)
    for _ in range(200):
        desk.wait(0.25)
    frames: list[tuple[float, Screen]] = []
    for at, screen in zip(desk.screens.times[start:], desk.screens.shown[start:], strict=True):
        if frames and (frames[-1][1].kind, frames[-1][1].page) == (screen.kind, screen.page):
            continue
        frames.append((at, screen))
    return frames


def test_the_29_hand_shows_its_last_page_for_its_time_before_the_next_question(
    desk: Desk,
) -> None:
    """Ann (pone) lays 5 5 5 J and a 5 is turned: the 29 hand. Bob's A 2 3 4 asks "flush?"."""
    desk.keys("9 3 5  5 1 5 2 5 3 A 4")
    desk.wait(NEWS_SECONDS)
    assert desk.screen.entry is not None and desk.screen.entry.hint.startswith("nobs?")
    frames = _count_then_question(desk, "1")  # yes: the jack is the starter's suit
    counts = [(t, s) for t, s in frames if s.kind is ScreenKind.COUNT]
    pages = page_counter((128, 64), Style.LARGE)(counts[0][1])
    assert [s.page for _, s in counts] == list(range(pages))
    last_at, last = counts[-1]
    assert last.news is not None
    tally = tally_of(last.view, last.news.counted)  # type: ignore[arg-type]
    assert tally.calls[-1] == "and nobs is 29" and tally.pegged[0] == "Ann +29 → 31"  # 2 for the 31
    after = [(t, s) for t, s in frames if t > last_at]
    assert after and after[0][1].kind is ScreenKind.ENTRY  # then Bob's question ...
    assert after[0][0] - last_at >= PAGE_SECONDS  # ... once the last page had its time
    assert after[0][1].entry is not None and after[0][1].entry.hint.startswith("flush?")


def test_the_next_key_answers_the_waiting_question_at_once(desk: Desk) -> None:
    desk.keys("9 3 5  5 1 5 2 5 3 A 4")
    desk.wait(NEWS_SECONDS)
    desk.keys("1")  # Ann's 29 counted: its pages are up, Bob's "flush?" waits ...
    assert desk.screen.kind is ScreenKind.COUNT
    desk.keys("#")  # ... and a player who knows it answers it now: Bob's hand is counted
    assert desk.store.commands()[-1].startswith("show ")
    assert desk.screen.kind is ScreenKind.COUNT and desk.news_line.startswith("Bob +")


@pytest.mark.parametrize("after", ["9 3", "9 3 5"], ids=["before-the-starter", "in-the-play"])
def test_the_peg_buttons_show_the_points_and_the_new_score_once_committed(
    desk: Desk, after: str
) -> None:
    """Not at the clock's zero: the keypad went back to idle only when its peg time was 0."""
    desk.keys(after)
    desk.wait(7.0)
    desk.keys("peg1 peg1 peg1")
    assert desk.screen.kind is ScreenKind.ENTRY  # "Bob +3": the presses are combining
    desk.wait(1.5)  # the peg buttons' presses commit together
    assert not desk.ctl.entry.typing
    assert desk.screen.kind is not ScreenKind.ENTRY and desk.line == "Bob +3 → 3"
    desk.wait(NEWS_SECONDS)
    assert desk.line == ""  # then what is next


def _status(desk: Desk) -> str:
    """The status row's words of the screen up (``ui.screentext``)."""
    return screen_text(desk.screen, (128, 64), Style.LARGE).footer


def test_after_the_crib_the_scoreboard_the_next_dealer_and_the_starter_come_by_themselves(
    desk: Desk,
) -> None:
    desk.to_crib_count()
    for _ in range(40):  # no key: the count's pages, then what is next
        desk.wait(0.5)
    assert desk.screen.kind is ScreenKind.SCOREBOARD
    assert _status(desk) == "deal 2: Ann deals · starter?"
    assert screen_text(desk.screen).lines == ("Ann 6 ●", "Bob 30")  # Ann deals next


def test_after_the_cut_the_scoreboard_asks_for_the_starter(desk: Desk) -> None:
    desk.keys("9 3")
    assert desk.screen.kind is ScreenKind.SCOREBOARD
    assert _status(desk) == "deal 1: Bob deals · starter?"


def test_a_deal_pegged_by_hand_shows_the_scores_not_a_count(desk: Desk) -> None:
    desk.keys("9 3 #")  # no starter: the play is pegged by hand, no cards, no count
    assert desk.ctl.view.phase is Phase.PLAY
    assert desk.screen.kind is ScreenKind.SCOREBOARD
    assert _status(desk) == "the play: peg by hand"
    desk.keys("2 B")
    assert desk.screen.kind is ScreenKind.SCOREBOARD and desk.line == "Bob +2 → 2"


def test_a_restart_before_the_crib_pages_the_hand_then_asks_for_the_crib(tmp_path: Path) -> None:
    desk = Desk(tmp_path / "crib.db")
    desk.keys(f"9 3 5 {PLAY}")
    desk.count_up()  # Ann's hand
    desk.count_up()  # Bob's hand: the crib is next
    desk.store.close()
    again = Desk(tmp_path / "crib.db")  # the daemon restarted
    again.ctl.tick()
    assert (again.screen.kind, again.screen.page) == (ScreenKind.COUNT, 0)  # Bob's hand, again
    pages = page_counter((128, 64), Style.LARGE)(again.screen)
    for page in range(1, pages):
        again.wait(PAGE_SECONDS)
        assert (again.screen.kind, again.screen.page) == (ScreenKind.COUNT, page)
    again.wait(PAGE_SECONDS)
    assert again.screen.kind is ScreenKind.SCOREBOARD
    assert _status(again) == "count Bob's crib"
    again.keys("5")  # the crib's first card: the entry, as before the restart
    assert again.screen.kind is ScreenKind.ENTRY and again.screen.entry is not None
    assert again.screen.entry.title == "Bob's crib"


def test_a_short_claims_last_page_says_who_took_what_before_the_next_question(
    tmp_path: Path,
) -> None:
    desk = Desk(tmp_path / "muggins-read.db", Rules.six_card(muggins=True))
    desk.keys(f"9 3 5 {PLAY}")
    desk.wait(NEWS_SECONDS)
    while desk.ctl.entry.mode is not Mode.CLAIM:
        desk.keys("#")
    desk.keys("2")
    frames = _count_then_question(desk, "#")  # Ann claims 2 of her 6: Bob takes 4
    counts = [(t, s) for t, s in frames if s.kind is ScreenKind.COUNT]
    last_at, last = counts[-1]
    assert last.news is not None and last.view is not None
    pages = page_counter((128, 64), Style.LARGE)(last)
    assert [s.page for _, s in counts] == list(range(pages))
    words = screen_text(last, (128, 64), Style.LARGE)
    assert words.lines[-2:] == ("claimed 2", "muggins: Bob +4")
    assert words.footer == "Ann +2 → 2 · Bob +4 → 6"
    after = [(t, s) for t, s in frames if t > last_at]
    assert after[0][0] - last_at >= PAGE_SECONDS and after[0][1].kind is ScreenKind.ENTRY


def test_the_menu_over_a_count_holds_its_page(desk: Desk) -> None:
    desk.to_crib_count()
    assert (desk.screen.kind, desk.screen.page) == (ScreenKind.COUNT, 0)
    desk.keys("ok:long")  # the menu, over the crib's count
    assert desk.screen.kind is ScreenKind.MENU
    desk.wait(30.0)
    desk.keys("*")  # back: the keypad idle, and the count's first page with its whole time
    assert not desk.ctl.entry.typing  # (it kept the menu's choice, so "starter _" showed)
    assert (desk.screen.kind, desk.screen.page) == (ScreenKind.COUNT, 0)
    desk.wait(PAGE_SECONDS - 0.1)
    assert desk.screen.page == 0
    desk.wait(0.1)
    assert desk.screen.page == 1
