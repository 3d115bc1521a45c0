"""Whole games from ``tests/keys``, replayed through the device as wired (the default 128x64
display, large style) on a fake clock: what the table sees after every press.

The players here pause after each press that moves the game, long enough for the news to pass
and every page of a count to turn (the key files themselves rarely wait). For every game:
every hand and crib counted is shown page by page to its last, with its total, then what
happens next; every play that
ends on its last card is held on the play screen with that card's points; and once the pause is
over no screen still tells old news.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from pegboard.config.settings import parse_config
from pegboard.devices.ports import FakeClock, KeyEvent
from pegboard.engine.game import Phase
from pegboard.journal import Journal
from pegboard.table.keyscript import read_script
from pegboard.table.simulator import config_for_script
from pegboard.table.wiring import build_controller, page_counter, sim_ports
from pegboard.ui.count import tally_of
from pegboard.ui.news import News
from pegboard.ui.screens import Screen, ScreenKind

KEYS = Path(__file__).parents[1] / "keys"
KEY_FILES = sorted(KEYS.glob("*.keys"))
PAUSE = 30.0  # seconds: longer than any news and than any count's pages
TICK = 0.25  # the daemon's loop ticks far more often; this is often enough to see each page


@dataclass
class Press:
    """One press that moved the game: its news, the screen after it, and during the pause."""

    key: str
    news: News | None
    first: Screen
    paused: list[Screen]


def replay(keys: Path, tmp_path: Path) -> list[Press]:
    """Every press of *keys* that moved the game, with what the display was given."""
    script = read_script(keys)
    config = config_for_script(
        parse_config(f'[game]\ndatabase = "{tmp_path / "watched.db"}"\n'), script
    )
    clock = FakeClock(1000.0)
    shown: list[Screen] = []
    presses: list[Press] = []
    with Journal(config.game.database) as store:
        ctl = build_controller(config, store, sim_ports(config), clock=clock)
        draw = ctl._out.render
        assert draw is not None

        def keep(screen: Screen) -> Image.Image:
            shown.append(screen)
            return draw(screen)

        ctl._out.render = keep
        for step in script.steps:
            if not isinstance(step, KeyEvent):
                continue  # the players' own pauses are longer here
            before = ctl.view
            ctl.handle(step)
            if ctl.view == before:
                continue
            press = Press(str(step), ctl.news, ctl.screen, [])
            start = len(shown)
            for _ in range(int(PAUSE / TICK)):
                clock.advance(TICK)
                ctl.tick()
            press.paused = [*shown[start:], ctl.screen]
            presses.append(press)
    assert presses, f"{keys.name} moved no game"
    return presses


@pytest.fixture(scope="module", params=KEY_FILES, ids=[p.stem for p in KEY_FILES])
def presses(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> list[Press]:
    path: Path = request.param
    return replay(path, tmp_path_factory.mktemp(path.stem))


def test_every_count_is_shown_page_by_page_to_the_last_with_its_total(
    presses: list[Press],
) -> None:
    display = parse_config("").display  # the default display: 128x64, large
    pages_of = page_counter(display.frame_size, display.screen_style)
    counted = [p for p in presses if p.news is not None and p.news.counted]
    assert counted, "each key file counts a hand or a crib"
    for press in counted:
        if press.first.kind is not ScreenKind.COUNT:
            continue  # the count won the game: game over is shown instead
        pages = pages_of(press.first)
        seen = [s.page for s in (press.first, *press.paused) if s.kind is ScreenKind.COUNT]
        assert sorted(set(seen)) == list(range(pages)), press.key
        shown = [s for s in (press.first, *press.paused) if s.kind is ScreenKind.COUNT]
        last = shown[-1]
        assert last.page == pages - 1  # the last page is reached, then what is next
        after = press.paused[-1]  # the next hand's question, or the game with whose move
        assert after.kind is not ScreenKind.COUNT, press.key
        assert after.news is None or not after.news.line, press.key
        assert last.view is not None and last.news is not None
        tally = tally_of(last.view, last.news.counted)
        assert tally.total is not None and tally.pegged


def test_every_play_ended_by_its_last_card_is_held_with_its_points(
    presses: list[Press],
) -> None:
    for press in presses:
        if press.news is None or press.news.play_end is None:
            continue
        assert press.first.kind is ScreenKind.PLAY
        assert press.first.view is press.news.play_end and press.first.view.phase is Phase.PLAY
        assert press.first.news is not None and press.first.news.line  # "one for last", "31"


def test_no_screen_tells_old_news_after_the_pause(presses: list[Press]) -> None:
    for press in presses:
        last = press.paused[-1]
        if last.kind in (ScreenKind.SCOREBOARD, ScreenKind.PLAY):
            assert last.news is None or last.news.line == "", press.key
