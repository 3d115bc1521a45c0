"""The tournament night on the OLED (issue 24): the next pairing (its line in English and German,
its screen at each size and style) and the lock's badge on the scoreboard and the play, as
golden images."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from pegboard.i18n import Language
from pegboard.ui.paint import Style
from pegboard.ui.pairing import PairingView, pairing_line, render_pairing
from pegboard.ui.screens import Screen, ScreenKind, choose_screen, render_screen
from tests.conftest import GoldenCheck
from tests.ui.test_screens import LURCH_NEAR, PEGGED, PLAY, view_after

ANN_BOB = PairingView(table=7, round=3, first="Ann", second="Bob")
LONG = PairingView(table=17, round=9, first="Maximilian", second="Wilhelmina")
PLAYOFF = PairingView(table=0, round=2, first="Ann", second="Cy", match=3, games=5)


def test_the_pairing_says_the_table_the_players_and_who_cuts() -> None:
    assert pairing_line(ANN_BOB) == "table 7: Ann v Bob, Ann cuts"
    assert pairing_line(ANN_BOB, Language.GERMAN) == "Tisch 7: Ann gegen Bob, Ann hebt ab"


def test_a_playoff_match_says_which_match_and_its_length() -> None:
    assert pairing_line(PLAYOFF) == "playoff 2.3: Ann v Cy, best of 5, Ann cuts"
    assert pairing_line(PLAYOFF, Language.GERMAN) == (
        "Play-off 2.3: Ann gegen Cy, Best-of-5, Ann hebt ab"
    )


@pytest.mark.parametrize(
    ("name", "pairing", "size", "mode", "style", "language"),
    [
        ("128x64-pairing-de-long", LONG, (128, 64), "1", Style.COMPACT, Language.GERMAN),
        ("128x32-pairing-de-long", LONG, (128, 32), "1", Style.COMPACT, Language.GERMAN),
        ("256x64-pairing-de", ANN_BOB, (256, 64), "L", Style.LARGE, Language.GERMAN),
        ("128x64-playoff", PLAYOFF, (128, 64), "1", Style.COMPACT, Language.ENGLISH),
        ("128x64-playoff-de", PLAYOFF, (128, 64), "1", Style.COMPACT, Language.GERMAN),
        ("128x32-playoff-de", PLAYOFF, (128, 32), "1", Style.COMPACT, Language.GERMAN),
        ("256x64-playoff", PLAYOFF, (256, 64), "L", Style.LARGE, Language.ENGLISH),
    ],
)
def test_the_pairing_screen(
    golden: GoldenCheck,
    name: str,
    pairing: PairingView,
    size: tuple[int, int],
    mode: str,
    style: Style,
    language: Language,
) -> None:
    screen = choose_screen(None, pairing=pairing)
    assert screen == Screen(ScreenKind.PAIRING, pairing=pairing)
    image = render_screen(screen, size, mode, style, language)
    assert image == render_pairing(pairing, size, mode, style, language)
    golden(image, name)


def test_an_error_and_the_menu_come_before_the_pairing() -> None:
    assert choose_screen(None, pairing=ANN_BOB, error="no").kind is ScreenKind.ERROR
    assert choose_screen(None, pairing=ANN_BOB, paused=True).kind is ScreenKind.PAUSED


@pytest.mark.parametrize(
    ("name", "commands", "size", "style", "chances"),
    [
        ("128x32-play-locked", PLAY, (128, 32), Style.COMPACT, None),
    ],
)
def test_the_lock_puts_its_badge_on_the_scoreboard_and_the_play(
    golden: GoldenCheck,
    name: str,
    commands: list[str],
    size: tuple[int, int],
    style: Style,
    chances: tuple[float, ...] | None,
) -> None:
    view = view_after(commands)
    screen = choose_screen(view, locked=True, chances=chances)
    assert screen.locked and screen.kind in (ScreenKind.SCOREBOARD, ScreenKind.PLAY)
    image = render_screen(screen, size, "1", style)
    assert image != render_screen(choose_screen(view), size, "1", style)
    golden(image, name)


def test_the_scoreboards_badge_takes_nothing_from_its_text() -> None:
    """The padlock sits on the line between the scores: the names, the scores, "to go" and
    the status row are drawn as they are without it."""
    for commands, size in ((LURCH_NEAR, (128, 64)), (PEGGED, (128, 32))):
        view = view_after(commands)
        locked = render_screen(choose_screen(view, locked=True), size, "1")
        plain = render_screen(choose_screen(view), size, "1")
        difference = ImageChops.difference(locked, plain).getbbox()
        assert difference is not None
        left, _, right, _ = difference
        assert left >= 58 and right <= 70  # only around the line at x = 64
