"""The keypad's menu on a 128x64 screen: every line whole, in both styles and languages; a label
too long for a row goes on under itself ("0 starter in" / " play") instead of being cut."""

from __future__ import annotations

import pytest

from pegboard.engine.game import GameState
from pegboard.engine.rules import Rules
from pegboard.engine.view import render_view
from pegboard.i18n import Language
from pegboard.ui import menuscreen
from pegboard.ui.menu import MenuChoice, menu_lines
from pegboard.ui.menuscreen import MenuItem, MenuView, render_menu
from pegboard.ui.paint import Painter, Style

STYLES = [pytest.param(Style.COMPACT, id="compact"), pytest.param(Style.LARGE, id="large")]
LANGUAGES = [pytest.param(Language.ENGLISH, id="en"), pytest.param(Language.GERMAN, id="de")]


def _menu(language: Language, cursor: int) -> MenuView:
    state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
    choice = MenuChoice.of(render_view(state), state.rules)
    lines = menu_lines(choice, letters=True, language=language)
    items = tuple(MenuItem(label, value) for label, value in lines)
    return MenuView("menu", items, cursor % len(items))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("style", STYLES)
def test_no_menu_line_is_cut(style: Style, language: Language, cuts: list[str]) -> None:
    for cursor in range(len(_menu(language, 0).items)):
        render_menu(_menu(language, cursor), (128, 64), "1", style, language)
    assert cuts == []


def test_a_long_label_takes_rows_of_its_own_and_its_value_one_more() -> None:
    face = Painter((128, 64), "1", Style.LARGE).status
    room = 128 - face.advance - 4
    assert menuscreen._label_rows("0 starter in play", face, room) == ["0 starter in", " play"]
    assert menuscreen._label_rows("8 match", face, room) == ["8 match"]
    menu = _menu(Language.ENGLISH, 9)
    assert menu.items[9] == MenuItem("0 starter in play", "off")
