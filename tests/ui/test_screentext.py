"""A screen's words (``ui.screentext``), as the headless trace writes them, and the game-over
screen's words: who won, and who was lurched."""

from __future__ import annotations

import pytest

from pegboard.engine.rules import Rules
from pegboard.i18n import Language
from pegboard.ui.news import News
from pegboard.ui.paint import Style
from pegboard.ui.results import game_over_words
from pegboard.ui.screens import ScreenKind, choose_screen
from pegboard.ui.screentext import ScreenText, screen_text
from tests.ui.test_screens import (
    DOUBLE_SKUNK,
    ENTRY,
    LURCHED,
    PLAY,
    SHOW_29,
    view_after,
)


def test_the_29_hands_pages_read_as_the_count_draws_them() -> None:
    view = view_after(SHOW_29)
    first = screen_text(choose_screen(view, count_page=0), (128, 64), Style.LARGE)
    assert first == ScreenText(
        "count", "Ann's hand 29", ("fifteen 2", "fifteen 4"), "* next page", "1/6"
    )
    last = screen_text(choose_screen(view, count_page=5), (128, 64), Style.LARGE)
    assert last.lines[-1] == "and nobs is 29" and last.footer == "Ann +29 → 29"
    assert last.page == "6/6" and last.to_dict()["page"] == "6/6"
    compact = screen_text(choose_screen(view, count_page=0), (128, 64), Style.COMPACT)
    assert compact.page == "1/4" and len(compact.lines) == 3


def test_the_play_and_the_scoreboard_read_scores_count_and_what_is_next() -> None:
    view = view_after(PLAY)
    play = screen_text(choose_screen(view))
    assert play == ScreenText("play", "Ann 0 · Bob 2 ●", ("20", "5 10 5"), "Bob to lay · 20")
    told = screen_text(choose_screen(view, news=News("Bob +2 → 2", (0, 2))))
    assert told.footer == "Bob +2 → 2"
    board = screen_text(choose_screen(view_after(["cut 9H 3C"])))
    assert board.kind == "scoreboard" and board.lines == ("Ann 0", "Bob 0 ●")


def test_the_entry_reads_its_title_text_and_hint() -> None:
    text = screen_text(choose_screen(view_after(SHOW_29), entry=ENTRY))
    assert text == ScreenText(
        "entry", "Ann's hand", ("4 5 6 J",), "flush? # no 1=4 2=5 / (cards of one suit)"
    )
    assert text.to_dict()["page"] is None


@pytest.mark.parametrize(
    ("commands", "rules", "language", "said"),
    [
        pytest.param(LURCHED, None, Language.ENGLISH, "Bob lurched!", id="lurched"),
        pytest.param(DOUBLE_SKUNK, None, Language.ENGLISH, "Bob double-skunked!", id="skunk"),
        pytest.param(LURCHED, None, Language.GERMAN, "Bob: Schneider!", id="lurched-de"),
        pytest.param(
            ["cut 9H 3C 4D", "peg Sky 61", "peg Sky 60"],
            Rules.three_handed(),
            Language.ENGLISH,
            "Gold, Lilac double-skunked!",
            id="three-handed",
        ),
    ],
)
def test_game_over_says_who_was_lurched(
    commands: list[str], rules: Rules | None, language: Language, said: str
) -> None:
    view = view_after(commands, rules)
    assert game_over_words(view, language)[1] == said
    screen = choose_screen(view)
    assert screen.kind is ScreenKind.GAME_OVER
    assert screen_text(screen, language=language).lines[0] == said
