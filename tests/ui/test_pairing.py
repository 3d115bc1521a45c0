"""The tournament's next pairing on the OLED (issue 24): its line in English and German, and its
screen at each size and style, as golden images."""

from __future__ import annotations

import pytest

from pegboard.i18n import Language
from pegboard.ui.paint import Style
from pegboard.ui.pairing import PairingView, pairing_line, render_pairing
from pegboard.ui.screens import Screen, ScreenKind, choose_screen, render_screen
from tests.conftest import GoldenCheck

ANN_BOB = PairingView(table=7, round=3, first="Ann", second="Bob")
LONG = PairingView(table=17, round=9, first="Maximilian", second="Wilhelmina")


def test_the_pairing_says_the_table_the_players_and_who_cuts() -> None:
    assert pairing_line(ANN_BOB) == "table 7: Ann v Bob, Ann cuts"
    assert pairing_line(ANN_BOB, Language.GERMAN) == "Tisch 7: Ann gegen Bob, Ann hebt ab"


@pytest.mark.parametrize(
    ("name", "pairing", "size", "mode", "style", "language"),
    [
        ("128x64-pairing", ANN_BOB, (128, 64), "1", Style.COMPACT, Language.ENGLISH),
        ("128x64-large-pairing", ANN_BOB, (128, 64), "1", Style.LARGE, Language.ENGLISH),
        ("128x64-pairing-de-long", LONG, (128, 64), "1", Style.COMPACT, Language.GERMAN),
        ("128x32-pairing", ANN_BOB, (128, 32), "1", Style.COMPACT, Language.ENGLISH),
        ("128x32-pairing-de-long", LONG, (128, 32), "1", Style.COMPACT, Language.GERMAN),
        ("256x64-pairing-de", ANN_BOB, (256, 64), "L", Style.LARGE, Language.GERMAN),
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
