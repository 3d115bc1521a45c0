"""The OLED screens in German: golden images (tests/golden/de/), and no word cut off."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from pegboard.engine.cards import Rank
from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, apply
from pegboard.engine.odds import win_probability
from pegboard.engine.rules import Rules
from pegboard.engine.view import GameView, render_view
from pegboard.i18n import Language, translator
from pegboard.ui import count
from pegboard.ui.hints import HINT_WIDTH, render_entry
from pegboard.ui.keypad import EntryState, Layout, Mode, Situation, rank_of_key
from pegboard.ui.menu import MenuChoice
from pegboard.ui.news import News, news_of
from pegboard.ui.paint import Style
from pegboard.ui.screens import HeadToHeadView, Screen, choose_screen, render_screen, screen_pages
from tests.conftest import compare_golden
from tests.ui.test_screens import ALL as ENGLISH
from tests.ui.test_screens import (
    CRIB,
    CUT,
    DOUBLE_SKUNK,
    LURCH_NEAR,
    LURCHED,
    MATCH_OVER,
    MUGGINS,
    NAMES,
    PEGGED,
    PLAY,
    PLAY_END,
    PLAY_GO,
    RECORD,
    SHOW_29,
    STYLES,
    UNDONE,
    through_dummy,
    view_after,
)

DE = Language.GERMAN
GOLDEN_DE = Path(__file__).resolve().parents[1] / "golden" / "de"


def state_after(commands: Sequence[str], rules: Rules | None = None) -> GameState:
    rules = rules or Rules.six_card()
    state = GameState.new(rules, NAMES if rules.sides == 2 else None)
    for text in commands:
        state, _ = apply(state, parse_command(text, state.names))
    return state


def told(commands: Sequence[str], rules: Rules | None = None) -> Screen:
    """The screen after *commands*, telling in German what the last one did."""
    state = state_after(commands[:-1], rules)
    before = render_view(state)
    state, events = apply(state, parse_command(commands[-1], state.names))
    after = render_view(state)
    return choose_screen(after, news=news_of(before, after, events, DE) or News())


def entry_screen(entry: EntryState, state: GameState) -> Screen:
    """The keypad's own German entry (its hint from the catalogue) on the screen."""
    shown = render_entry(replace(entry, language=DE), Situation.of(state))
    return choose_screen(render_view(state), entry=shown)


def screens_de() -> dict[str, Screen]:
    """Every screen of ``test_screens`` that has words, in German, by golden-image name."""
    show = state_after([*CUT, "starter 5C", "next"])
    hand = EntryState(ranks=(Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.JACK))
    three = Rules.three_handed()
    menu_state = state_after(CUT)
    choice = MenuChoice.of(render_view(menu_state), menu_state.rules)
    error = translator(DE).gettext("no fifth {rank}: all four are out this deal")
    return {
        "scoreboard-start": choose_screen(view_after(CUT)),
        "scoreboard-lurch": choose_screen(view_after(LURCH_NEAR)),
        "scoreboard-odds": choose_screen(
            view_after(LURCH_NEAR), chances=win_probability(state_after(LURCH_NEAR))
        ),
        "scoreboard-three-handed": ENGLISH["scoreboard-three-handed"],
        "scoreboard-three-handed-lurch-and-skunk": ENGLISH[
            "scoreboard-three-handed-lurch-and-skunk"
        ],
        "play": choose_screen(view_after(PLAY)),
        "entry": entry_screen(hand, show),
        "count-29-page1": choose_screen(view_after(SHOW_29), count_page=0),
        "count-29-page3": ENGLISH["count-29-page3"],
        "count-crib": choose_screen(view_after(CRIB)),
        "game-over-double-skunk": choose_screen(view_after(DOUBLE_SKUNK)),
        "game-over-lurched": choose_screen(view_after(LURCHED)),
        "match-over": choose_screen(view_after(MATCH_OVER)),
        "error": choose_screen(None, error=error.format(rank="5")),
        "paused": choose_screen(view_after(LURCH_NEAR), paused=True),
        "play-news": told(PLAY[:-1]),
        "play-go": told(PLAY_GO),
        "play-end": told(PLAY_END),
        "scoreboard-pegged": told(PEGGED),
        "scoreboard-undone": told(UNDONE),
        "count-29-last": told(SHOW_29),
        "count-muggins": told(MUGGINS, Rules.six_card(muggins=True)),
        "menu-keypad": entry_screen(
            EntryState(mode=Mode.MENU, menu=choice, menu_cursor=7), menu_state
        ),
        "cut": entry_screen(EntryState(), state_after([])),
        "cut-three-handed": entry_screen(
            EntryState(ranks=(Rank.NINE, Rank.THREE)), state_after([], three)
        ),
        "starter": entry_screen(EntryState(), state_after(CUT)),
        "play-entry": entry_screen(EntryState(ranks=(Rank.SEVEN,)), state_after(PLAY)),
        "head-to-head": choose_screen(view_after(CUT), record=RECORD),
        "head-to-head-unmet": choose_screen(view_after(CUT), record=HeadToHeadView(NAMES)),
    }


ALL = screens_de()
LAST_PAGE = {"count-29-last", "count-muggins"}
SMALL = [
    *("scoreboard-lurch", "play", "entry", "count-29-page1", "error", "play-end", "cut"),
    *("count-crib", "play-news", "head-to-head"),
]


def draw(name: str, size: tuple[int, int], style: Style, mode: str = "1") -> Image.Image:
    screen = ALL[name]
    if name in LAST_PAGE:
        screen = replace(screen, page=screen_pages(screen, size, style, DE) - 1)
    return render_screen(screen, size, mode, style, DE)


def golden_name(size: str, name: str, style: Style) -> str:
    return f"{size}-{style.value}-{name}"


@pytest.fixture
def golden_de(request: pytest.FixtureRequest) -> Callable[[Image.Image, str], None]:
    update = bool(request.config.getoption("--update-golden", default=False))

    def check(image: Image.Image, name: str) -> None:
        compare_golden(image, name, update=update, directory=GOLDEN_DE)

    return check


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", list(ALL), ids=list(ALL))
def test_every_german_screen_matches_its_golden_image_at_128x64(
    name: str, style: Style, golden_de: Callable[[Image.Image, str], None]
) -> None:
    golden_de(through_dummy(draw(name, (128, 64), style)), golden_name("128x64", name, style))


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", SMALL, ids=SMALL)
def test_short_german_screens_match_their_golden_images_at_128x32(
    name: str, style: Style, golden_de: Callable[[Image.Image, str], None]
) -> None:
    golden_de(through_dummy(draw(name, (128, 32), style)), golden_name("128x32", name, style))


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", list(ALL), ids=list(ALL))
@pytest.mark.parametrize("size", [(128, 64), (128, 32)], ids=["128x64", "128x32"])
def test_no_german_word_is_cut_off(
    name: str, style: Style, size: tuple[int, int], cuts: list[str]
) -> None:
    draw(name, size, style)
    assert cuts == []


def test_the_cut_check_catches_a_cut_title(cuts: list[str]) -> None:
    """The check fails on purpose: a long name cuts the count's title even in its short form."""
    view = view_after(SHOW_29)
    long = replace(view, seat_names=("Maximilianus", *view.seat_names[1:]))
    render_screen(choose_screen(long, count_page=0), (128, 32), "1", Style.COMPACT, DE)
    assert cuts == ["Maximilianus"]


def test_every_german_hint_line_fits_a_small_screen() -> None:
    for name, screen in ALL.items():
        if screen.entry is None:
            continue
        for line in screen.entry.hint.splitlines():
            assert len(line) <= HINT_WIDTH, (name, line)


def test_the_german_count_says_the_documents_words() -> None:
    view: GameView = view_after(SHOW_29)
    tally = count.tally_of(view, (), DE)
    assert tally.title == "Hand von Ann"
    assert tally.calls[0] == "Fünfzehn – zwei"
    assert tally.calls[-2:] == (
        "und ein Vierling macht achtundzwanzig",
        "plus einen für den Jack macht neunundzwanzig",
    )


def test_english_is_the_default_and_unchanged() -> None:
    """Without a language the screen is the English golden image, drawn before German came."""
    screen = choose_screen(view_after(SHOW_29), count_page=0)
    english = through_dummy(render_screen(screen, (128, 64), "1", Style.LARGE))
    compare_golden(english, "128x64-large-count-29-page1", update=False)
    german = through_dummy(render_screen(screen, (128, 64), "1", Style.LARGE, DE))
    assert german.tobytes() != english.tobytes()


_GERMAN_COURT = {"Bu": Rank.JACK, "Da": Rank.QUEEN, "Kö": Rank.KING}
"""The German court cards as the hints name them: Bube, Dame, König."""


@pytest.mark.parametrize("layout", list(Layout))
def test_the_german_hint_names_each_court_key_by_its_german_card(layout: Layout) -> None:
    """A German table calls the court cards B, D, K, so "B=Q" read as "B is the jack" (the key
    B gives the queen): each key the German hint names gives the card its German name says,
    and the English letters J, Q, K are not used."""
    state = state_after([])
    entry = EntryState(layout=layout, language=DE)
    hint = render_entry(entry, Situation.of(state)).hint.splitlines()[-1]
    words = hint.replace(",", " ").split()
    assert not {"J", "Q", "K"} & set(words)
    assert not any(w.endswith(("=J", "=Q", "=K")) for w in words)
    if layout is Layout.FOUR_BY_FOUR:
        named = dict(w.split("=") for w in words if "=" in w and w[0] in "ABC")
        assert {key: _GERMAN_COURT[card] for key, card in named.items()} == {
            key: rank_of_key(key, layout) for key in "ABC"
        }
    else:  # 0 again and again: 10, then the jack, the queen, the king
        assert words[-3:] == list(_GERMAN_COURT)
        assert all(len(line) <= HINT_WIDTH for line in hint.splitlines())
