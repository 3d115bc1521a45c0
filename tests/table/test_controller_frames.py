"""The key path does only what the key changed: an unchanged screen is not drawn again, and a
count is laid out in pages once however often its pages are asked for. A fake clock, no sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent
from pegboard.engine.rules import Rules
from pegboard.journal import Journal
from pegboard.table.controller import Controller, ScreenTiming
from pegboard.table.wiring import page_counter
from pegboard.ui.paint import Style
from pegboard.ui.screens import Screen, ScreenKind

PLAY = "4 6 2 8 3 7 # # 9 C"
"""Ann: 4 2 3 9, Bob: 6 8 7 K; Bob pegs 1 for the go and 1 for last."""


class Display:
    """A display that counts the images it is handed, and can fail the next few."""

    size = (128, 64)
    mode = "1"

    def __init__(self) -> None:
        self.shown = 0
        self.failures = 0
        self.contrast_failures = 0

    def show(self, image: Image.Image) -> None:
        if self.failures:
            self.failures -= 1
            raise OSError(121, "remote I/O error")
        self.shown += 1

    def set_contrast(self, level: int) -> None:
        if self.contrast_failures:
            self.contrast_failures -= 1
            raise OSError(121, "remote I/O error")

    def close(self) -> None:
        pass


class Spy:
    """A screen renderer and a page counter that keep what they were asked."""

    def __init__(self) -> None:
        self.drawn: list[Screen] = []
        self.paged: list[Screen] = []
        self.calls: list[str] = []  # "draw" and "pages", in order
        self._pages = page_counter((128, 64), Style.LARGE)

    def render(self, screen: Screen) -> Image.Image:
        self.drawn.append(screen)
        self.calls.append("draw")
        return Image.new("1", (128, 64))

    def pages(self, screen: Screen) -> int:
        self.paged.append(screen)
        self.calls.append("pages")
        return self._pages(screen)


class Desk:
    def __init__(self, path: Path, dim_after: float | None = None) -> None:
        self.clock = FakeClock()
        self.display = Display()
        self.spy = Spy()
        self.ctl = Controller(
            store=Journal(path),
            rules=Rules.six_card(),
            names=("Ann", "Bob"),
            display=self.display,
            render_screen=self.spy.render,
            count_pages=self.spy.pages,
            clock=self.clock,
            timing=ScreenTiming(dim_after=dim_after),
        )

    def keys(self, text: str) -> None:
        for word in text.split():
            self.ctl.handle(KeyEvent(word, KeyAction.PRESS))

    def wait(self, seconds: float, step: float = 0.25) -> None:
        for _ in range(round(seconds / step)):
            self.clock.advance(step)
            self.ctl.tick()


@pytest.fixture
def desk(tmp_path: Path) -> Desk:
    d = Desk(tmp_path / "frames.db")
    d.keys("9 3 5")  # Bob deals, a 5 turned: the play
    d.wait(10)
    return d


def test_a_key_that_changes_nothing_on_the_screen_draws_nothing(desk: Desk) -> None:
    drawn, shown = len(desk.spy.drawn), desk.display.shown
    desk.keys("*")  # the page key with no count up and nothing typed: nothing to do
    assert desk.ctl.screen == desk.spy.drawn[-1]
    assert (len(desk.spy.drawn), desk.display.shown) == (drawn, shown)


def test_a_refusal_said_again_is_not_drawn_again(desk: Desk) -> None:
    desk.keys("ok")  # "cannot say go": every card fits
    drawn = len(desk.spy.drawn)
    assert desk.spy.drawn[-1].kind is ScreenKind.ERROR
    desk.keys("ok")
    assert len(desk.spy.drawn) == drawn
    desk.keys("4")  # a card laid: the screen changes, and is drawn
    assert len(desk.spy.drawn) == drawn + 1
    assert desk.spy.drawn[-1] == desk.ctl.screen


def test_every_key_that_changes_the_screen_draws_it(desk: Desk) -> None:
    for key in PLAY.split():
        before = desk.ctl.screen
        drawn = len(desk.spy.drawn)
        desk.keys(key)
        changed = desk.ctl.screen != before
        assert len(desk.spy.drawn) == drawn + changed, key
        assert desk.spy.drawn[-1] == desk.ctl.screen


def test_a_display_that_failed_is_handed_the_same_screen_again(desk: Desk) -> None:
    shown = desk.display.shown
    desk.display.failures = 1
    desk.keys("4")
    assert (desk.display.shown, desk.display.failures) == (shown, 0)  # it failed
    desk.clock.advance(5)  # the retry is due
    desk.ctl.tick()
    assert desk.display.shown == shown + 1  # the screen it failed to show, though unchanged
    assert desk.spy.drawn[-1] == desk.spy.drawn[-2] == desk.ctl.screen


def test_a_display_that_failed_its_contrast_is_drawn_again(tmp_path: Path) -> None:
    desk = Desk(tmp_path / "frames.db", dim_after=60.0)
    desk.keys("9 3 5")
    desk.wait(10)
    desk.wait(61, step=61)  # dimmed
    shown = desk.display.shown
    desk.display.contrast_failures = 1
    desk.keys("*")  # brightens it (which fails: the panel may have reset), then changes nothing
    assert desk.display.shown == shown + 1


def test_each_count_is_laid_out_in_pages_once(desk: Desk) -> None:
    desk.keys(PLAY)
    assert desk.spy.paged == []  # no count yet: nothing laid out
    counts = []
    for typed in ("#", "#", "5 5 A 0 #"):  # Ann's hand, Bob's (both from the play), the crib
        desk.keys(typed)
        counts.append(desk.ctl.news)
        desk.wait(12)  # the news ends and every page turns by itself, the last one stays
        desk.keys("*")  # the page key on the last page: the count is read
    shown = [s for s in desk.spy.drawn if s.kind is ScreenKind.COUNT]
    assert {s.page for s in shown} >= {0, 1}  # the counts were paged
    assert len(desk.spy.paged) == 3
    assert [s.news.counted if s.news else () for s in desk.spy.paged] == [
        news.counted if news else () for news in counts
    ]


def test_a_count_is_drawn_before_its_pages_are_laid_out(desk: Desk) -> None:
    desk.keys(PLAY)
    desk.spy.calls.clear()
    desk.keys("#")  # Ann's hand counted: its first page is drawn, then its pages counted
    assert desk.spy.drawn[-1].kind is ScreenKind.COUNT
    assert desk.spy.calls == ["draw", "pages"]
    assert desk.spy.paged[-1] == desk.spy.drawn[-1]
    desk.wait(2.4, step=0.1)
    assert desk.ctl.screen.page == 0
    desk.wait(0.2, step=0.1)  # the next page is due page_seconds (2.5) after the count came
    assert desk.ctl.screen.page == 1
