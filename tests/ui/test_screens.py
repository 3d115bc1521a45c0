"""The OLED screens: golden images through luma's dummy device, layouts at every display size."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from luma.core.device import dummy
from PIL import Image

from pegboard.devices.oled import LumaDisplay
from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, apply
from pegboard.engine.odds import win_probability
from pegboard.engine.rules import Rules
from pegboard.engine.view import GameView, render_view
from pegboard.i18n import Language, translator
from pegboard.ui import paint
from pegboard.ui import status as status_module
from pegboard.ui.keypad import EntryView, Mode
from pegboard.ui.news import News, news_of
from pegboard.ui.paint import Style
from pegboard.ui.pairing import PairingView
from pegboard.ui.screens import (
    HeadToHeadView,
    MenuItem,
    MenuView,
    Screen,
    ScreenKind,
    choose_screen,
    count_pages,
    render_count,
    render_entry,
    render_error,
    render_menu,
    render_play,
    render_scoreboard,
    render_screen,
    screen_pages,
)

GoldenCheck = Callable[[Image.Image, str], None]

NAMES = ("Ann", "Bob")
# Bob cuts low and deals the first deal; Ann (pone) leads.
CUT = ["cut 9H 3C"]
PLAY = [*CUT, "starter 5C", "play 5H", "play 10D", "play 5S"]
SHOW_29 = [*CUT, "starter 5C", "next", "show 5H 5D 5S JC"]
CRIB = [*SHOW_29, "show AH 2D 3C 4S", "crib 6H 7H 8H 9H"]
LURCH_NEAR = [*CUT, "peg Ann 50", "peg Ann 50", "peg Bob 40", "peg Bob 47"]
DOUBLE_SKUNK = [*CUT, "peg Ann 61", "peg Ann 60"]
LURCHED = [*CUT, "peg Bob 61", "peg Bob 10", "peg Ann 61", "peg Ann 60"]
MATCH_OVER = [*DOUBLE_SKUNK, "next", "peg Ann 61", "peg Ann 60"]
# Ann: 10 9 2 3, Bob: K A 4 5. After two goes (one for the go to Bob) the second series is
# 2 4 3 (a run of 3 to Ann) and Bob's 5, the last card: a run of 4 and one for last.
PLAY_GO = [*CUT, "starter 7C", "play 10D", "play KD", "play 9C", "play AH", "go"]
PLAY_END = [*PLAY_GO, "go", "play 2C", "play 4S", "play 3H", "play 5S"]
PEGGED = [*CUT, "peg Ann 50", "peg Ann 2"]
UNDONE = [*SHOW_29, "undo"]
MUGGINS = [*CUT, "starter 5C", "next", "claim 20", "show 5H 5D 5S JC"]
# Gold on 103: Sky (12) and Lilac (0) behind the double skunk line
THREE_BOTH_SKUNKED = ["cut 9H 3C 4D", "peg Sky 12", "peg Gold 53", "peg Gold 50"]
# Gold on 103: Sky (70) behind the lurch line, Lilac (10) behind the double skunk line
THREE_LURCH_AND_SKUNK = ["cut 9H 3C 4D", "peg Sky 61", "peg Sky 9", "peg Gold 53", "peg Gold 50"]
THREE_LURCH_AND_SKUNK += ["peg Lilac 10"]

ENTRY = EntryView("Ann's hand", "4 5 6 J", "flush? # no 1=4 2=5\n(cards of one suit)", Mode.FLUSH)
CUT_HINT = "rank each; # random\n0=10 A=J B=Q C=K"
FIRST_CUT = EntryView("cut", "Ann _", CUT_HINT, Mode.TYPING, typing=False)
CUT_THREE = EntryView("cut", "Ann 9, Bob 3, Cy _", CUT_HINT, Mode.TYPING)
KEYPAD_MENU = EntryView(
    "menu",
    "",
    "",
    Mode.MENU,
    menu=(
        ("1 next", None),
        ("2 end deal", None),
        ("3 new match", None),
        ("4 variant", "six-card"),
        ("5 muggins", "off"),
        ("6 undo", None),
        ("7 redo", None),
        ("8 match", "best-of-three"),
        ("9 double skunk", "3"),
        ("0 starter in play", "off"),
    ),
    cursor=7,
)
RECORD = HeadToHeadView(NAMES, 5, (3, 2), 2, (1, 1), (5, 3), (1, 0))
"""Ann and Bob's records against each other: 3 games to 2, a match each, a lurch by Ann."""
SETTINGS = MenuView(
    "settings",
    (
        MenuItem("variant", "six-card"),
        MenuItem("muggins", "off"),
        MenuItem("target", "121"),
        MenuItem("contrast", "200"),
        MenuItem("players", "Ann, Bob"),
    ),
    cursor=3,
)


def view_after(commands: Sequence[str], rules: Rules | None = None) -> GameView:
    """The view after feeding *commands* to a new game (names Ann and Bob for two sides)."""
    rules = rules or Rules.six_card()
    state = GameState.new(rules, NAMES if rules.sides == 2 else None)
    for text in commands:
        state, _ = apply(state, parse_command(text, state.names))
    return render_view(state)


def news_after(commands: Sequence[str], rules: Rules | None = None) -> tuple[GameView, News | None]:
    """The view after *commands* and the news of the last one (see ``view_after``)."""
    rules = rules or Rules.six_card()
    state = GameState.new(rules, NAMES if rules.sides == 2 else None)
    for text in commands[:-1]:
        state, _ = apply(state, parse_command(text, state.names))
    before = render_view(state)
    state, events = apply(state, parse_command(commands[-1], state.names))
    after = render_view(state)
    return after, news_of(before, after, events)


def chances_after(commands: Sequence[str]) -> tuple[float, ...] | None:
    """Each side's chance to win after feeding *commands* to a new six-card game of Ann and Bob."""
    state = GameState.new(Rules.six_card(), NAMES)
    for text in commands:
        state, _ = apply(state, parse_command(text, state.names))
    return win_probability(state)


def told(commands: Sequence[str], rules: Rules | None = None, page: int = 0) -> Screen:
    """The screen after *commands*, telling what the last one did."""
    view, news = news_after(commands, rules)
    return choose_screen(view, news=news or News(), count_page=page)


def screens() -> dict[str, Screen]:
    """Every screen, by golden-image name."""
    count = view_after(SHOW_29)
    muggins = Rules.six_card(muggins=True)
    return {
        "scoreboard-start": choose_screen(view_after(CUT)),
        "scoreboard-lurch": choose_screen(view_after(LURCH_NEAR)),
        # Ann 100, Bob 87, Bob to deal: the chances win_probability gives there (Ann 81.9%)
        "scoreboard-odds": choose_screen(view_after(LURCH_NEAR), chances=chances_after(LURCH_NEAR)),
        "scoreboard-three-handed": choose_screen(
            view_after(THREE_BOTH_SKUNKED, Rules.three_handed())
        ),
        "scoreboard-three-handed-lurch-and-skunk": choose_screen(
            view_after(THREE_LURCH_AND_SKUNK, Rules.three_handed())
        ),
        "play": choose_screen(view_after(PLAY)),
        "entry": choose_screen(view_after(PLAY), entry=ENTRY),
        "count-29-page1": choose_screen(count, count_page=0),
        "count-29-page3": choose_screen(count, count_page=2),
        "count-crib": choose_screen(view_after(CRIB)),
        "game-over-double-skunk": choose_screen(view_after(DOUBLE_SKUNK)),
        "game-over-lurched": choose_screen(view_after(LURCHED)),
        "match-over": choose_screen(view_after(MATCH_OVER)),
        "menu": Screen(ScreenKind.MENU, menu=SETTINGS),
        "error": choose_screen(None, error="no fifth 5 in one deal"),
        "paused": choose_screen(view_after(LURCH_NEAR), paused=True),
        "play-news": told(PLAY[:-1]),
        "play-go": told(PLAY_GO),
        "play-end": told(PLAY_END),
        "scoreboard-pegged": told(PEGGED),
        "scoreboard-undone": told(UNDONE),
        "count-29-last": told(SHOW_29),  # drawn on its last page (LAST_PAGE)
        "count-muggins": told(MUGGINS, muggins),
        "menu-keypad": choose_screen(view_after(CUT), entry=KEYPAD_MENU),
        "cut": choose_screen(view_after([]), entry=FIRST_CUT),
        "cut-three-handed": choose_screen(view_after([], Rules.three_handed()), entry=CUT_THREE),
        "head-to-head": choose_screen(view_after(CUT), record=RECORD),
        "head-to-head-unmet": choose_screen(view_after(CUT), record=HeadToHeadView(NAMES)),
        # a tournament night (ui.pairing): the next pairing, and the lock's badge
        "pairing": choose_screen(view_after([]), pairing=PairingView(7, 3, "Ann", "Bob")),
        "scoreboard-locked": choose_screen(view_after(LURCH_NEAR), locked=True),
        "play-locked": choose_screen(view_after(PLAY), locked=True),
    }


def through_dummy(image: Image.Image, greyscale: bool = False) -> Image.Image:
    """What luma's dummy device holds after the adapter shows *image* (as "1" or "L")."""
    width, height = image.size
    device = dummy(width=width, height=height, mode="RGB" if greyscale else "1")
    display = LumaDisplay(device, greyscale=greyscale)
    display.show(image)
    held: Image.Image = device.image
    return held.convert("L") if greyscale else held


ALL = screens()
LAST_PAGE = {"count-29-last", "count-muggins"}  # drawn on their last page at every size
SMALL = [
    "scoreboard-lurch",
    "scoreboard-odds",
    "play",
    "entry",
    "count-29-page1",
    "game-over-lurched",
    "error",
    "play-end",
    "scoreboard-pegged",
    "count-29-last",
    "cut-three-handed",
    "menu-keypad",
    "head-to-head",
    "pairing",
    "scoreboard-locked",
]
ANY_SIZE = [name for name in ALL if name != "count-29-page3"]  # page 3 exists at 128x64 only
WIDE = [
    "scoreboard-lurch",
    "scoreboard-odds",
    "play",
    "count-29-page1",
    "game-over-double-skunk",
    "menu",
    "entry",
    "play-end",
    "scoreboard-pegged",
    "count-muggins",
    "cut",
    "pairing",
]
STYLES = [pytest.param(Style.COMPACT, id="compact"), pytest.param(Style.LARGE, id="large")]


def draw(
    name: str, size: tuple[int, int], mode: str = "1", style: Style = Style.COMPACT
) -> Image.Image:
    """The screen *name* of ``ALL`` drawn at *size* in *style* (a count on its last page for
    the screens in ``LAST_PAGE``)."""
    screen = ALL[name]
    if name in LAST_PAGE:
        screen = replace(screen, page=screen_pages(screen, size, style) - 1)
    return render_screen(screen, size, mode, style)


def golden_name(size: str, name: str, style: Style) -> str:
    """ "128x64-play" for the compact style (the first goldens), "128x64-large-play" for large."""
    return f"{size}-{name}" if style is Style.COMPACT else f"{size}-{style.value}-{name}"


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", list(ALL), ids=list(ALL))
def test_every_screen_matches_its_golden_image_at_128x64(
    name: str, style: Style, golden: GoldenCheck
) -> None:
    golden(through_dummy(draw(name, (128, 64), "1", style)), golden_name("128x64", name, style))


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", SMALL, ids=SMALL)
def test_short_screens_match_their_golden_images_at_128x32(
    name: str, style: Style, golden: GoldenCheck
) -> None:
    golden(through_dummy(draw(name, (128, 32), "1", style)), golden_name("128x32", name, style))


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", WIDE, ids=WIDE)
def test_greyscale_screens_match_their_golden_images_at_256x64(
    name: str, style: Style, golden: GoldenCheck
) -> None:
    image = draw(name, (256, 64), "L", style)
    golden(through_dummy(image, greyscale=True), golden_name("256x64", name, style))


LUMA_SIZES = [
    pytest.param((128, 64), "1", id="ssd1306-sh1106-ssd1309-128x64"),
    pytest.param((128, 32), "1", id="ssd1306-128x32"),
    pytest.param((64, 48), "1", id="ssd1306-64x48"),
    pytest.param((256, 64), "L", id="ssd1322-256x64-greyscale"),
    pytest.param((256, 64), "1", id="ssd1322-256x64-mono"),
    pytest.param((128, 128), "L", id="ssd1327-128x128"),
    pytest.param((96, 64), "RGB", id="ssd1331-96x64-colour"),
]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(("size", "mode"), LUMA_SIZES)
@pytest.mark.parametrize("name", ANY_SIZE, ids=ANY_SIZE)
def test_every_screen_draws_at_every_display_size(
    name: str, size: tuple[int, int], mode: str, style: Style
) -> None:
    image = draw(name, size, mode, style)
    assert (image.size, image.mode) == (size, mode)
    assert image.getbbox() is not None  # something was drawn


@pytest.mark.parametrize("name", ANY_SIZE, ids=ANY_SIZE)
def test_greyscale_screens_use_only_a_few_clean_levels(name: str) -> None:
    # bitmap strikes drawn without anti-aliasing: white, dim text, faint rules and black only
    levels = {level for _, level in draw(name, (256, 64), "L", Style.LARGE).getcolors() or []}
    assert levels <= {0, 70, 140, 255}


@pytest.mark.parametrize("name", list(ALL), ids=list(ALL))
def test_screens_are_pure(name: str) -> None:
    first = draw(name, (128, 64), "1", Style.LARGE)
    assert draw(name, (128, 64), "1", Style.LARGE).tobytes() == first.tobytes()


def test_scoreboard_digits_grow_with_the_screen() -> None:
    view = view_after(LURCH_NEAR)
    short = render_scoreboard(view, (128, 32))
    tall = render_scoreboard(view, (128, 128))
    # the ink of Ann's score, in the left column below the name row
    short_box = short.crop((0, 14, 64, 32)).getbbox()
    tall_box = tall.crop((0, 18, 64, 100)).getbbox()
    assert short_box is not None and tall_box is not None
    assert tall_box[3] - tall_box[1] > short_box[3] - short_box[1] >= 12


def test_lurch_line_shows_only_in_the_last_street() -> None:
    p = paint.Painter((128, 64), "1", Style.COMPACT)
    faces, en = (p.status, p.small), translator(Language.ENGLISH)
    _, near = status_module.warning_rows(view_after(LURCH_NEAR), faces, 126, en)
    early_view = view_after([*CUT, "peg Ann 50", "peg Bob 40"])
    _, early = status_module.warning_rows(early_view, faces, 126, en)
    assert near == ["lurch: Bob needs 4"] and early == []
    # drawn: the status row of the near one is the warning, not what is next
    near_row = render_scoreboard(view_after(LURCH_NEAR), (128, 64)).crop((0, 54, 128, 64))
    early_row = render_scoreboard(early_view, (128, 64)).crop((0, 54, 128, 64))
    assert near_row.tobytes() != early_row.tobytes()


SUIT_SWAPS = [
    pytest.param({"C": "D", "D": "H", "H": "S", "S": "C"}, id="C>D-D>H-H>S-S>C"),
    pytest.param({"C": "S", "D": "C", "H": "D", "S": "H"}, id="C>S-D>C-H>D-S>H"),
]


def _swap_suits(commands: Sequence[str], swap: dict[str, str]) -> list[str]:
    return [
        " ".join(w[:-1] + swap[w[-1]] if w[:-1] and w[-1] in swap else w for w in c.split())
        for c in commands
    ]


@pytest.mark.parametrize("swap", SUIT_SWAPS)
@pytest.mark.parametrize(("size", "mode"), [((128, 64), "1"), ((128, 32), "1"), ((256, 64), "L")])
def test_the_play_screen_shows_ranks_never_suits(
    swap: dict[str, str], size: tuple[int, int], mode: str
) -> None:
    # the keypad never types suits: the same ranks with other suits must look the same
    plain = render_screen(choose_screen(view_after(PLAY)), size, mode)
    swapped = render_screen(choose_screen(view_after(_swap_suits(PLAY, swap))), size, mode)
    assert _swap_suits(PLAY, swap) != PLAY
    assert swapped.tobytes() == plain.tobytes()


def test_the_play_screen_shows_the_starter_top_right() -> None:
    # the starter box sits in the top-right corner; other starters draw other ranks there
    five = render_play(view_after([*CUT, "starter 5C"]), (128, 64))
    king = render_play(view_after([*CUT, "starter KC"]), (128, 64))
    corner = (104, 0, 128, 14)
    assert five.crop(corner).getbbox() is not None
    assert five.crop(corner).tobytes() != king.crop(corner).tobytes()
    assert five.crop((0, 14, 128, 64)).tobytes() == king.crop((0, 14, 128, 64)).tobytes()


@pytest.mark.parametrize(
    ("commands", "kind"),
    [
        pytest.param(CUT, ScreenKind.SCOREBOARD, id="starter-scoreboard"),
        pytest.param([], ScreenKind.SCOREBOARD, id="cut-scoreboard"),
        pytest.param(PLAY, ScreenKind.PLAY, id="play-5H-10D-5S"),
        pytest.param(SHOW_29, ScreenKind.COUNT, id="show-5H-5D-5S-JC"),
        pytest.param(CRIB, ScreenKind.COUNT, id="crib-count-stays-until-the-starter"),
        pytest.param([*CRIB, "starter 2C"], ScreenKind.PLAY, id="next-deal-play"),
        pytest.param([*CUT, "peg Ann 4"], ScreenKind.SCOREBOARD, id="manual-peg"),
        pytest.param(DOUBLE_SKUNK, ScreenKind.GAME_OVER, id="game-over"),
        pytest.param(MATCH_OVER, ScreenKind.GAME_OVER, id="match-over"),
    ],
)
def test_choose_screen_follows_the_phase(commands: list[str], kind: ScreenKind) -> None:
    assert choose_screen(view_after(commands)).kind is kind


MENU = EntryView(
    "menu",
    "",
    "0-9 choose\n# next line; * back",
    Mode.MENU,
    menu=(("1 next", None), ("4 variant", "six-card"), ("5 muggins", "off")),
    cursor=1,
)


def test_choose_screen_puts_errors_pause_menu_and_entry_first() -> None:
    view = view_after(PLAY)
    assert choose_screen(view, error="no", paused=True, entry=MENU).kind is ScreenKind.ERROR
    assert choose_screen(view, paused=True, entry=MENU).kind is ScreenKind.PAUSED
    assert choose_screen(view, entry=MENU).kind is ScreenKind.MENU
    assert choose_screen(view, entry=ENTRY).kind is ScreenKind.ENTRY


def test_an_idle_keypad_leaves_the_screen_to_the_game() -> None:
    view = view_after(PLAY)
    idle = replace(ENTRY, typing=False)
    assert choose_screen(view, entry=idle) == choose_screen(view)


def test_the_keypads_menu_is_drawn_as_a_list_under_its_keys() -> None:
    screen = choose_screen(view_after(PLAY), entry=MENU)
    assert screen.menu == MenuView(
        "0-9 pick #↓ * back",
        (MenuItem("1 next"), MenuItem("4 variant", "six-card"), MenuItem("5 muggins", "off")),
        cursor=1,
    )


def test_the_count_can_be_put_away_for_the_scoreboard() -> None:
    assert choose_screen(view_after(SHOW_29), count_page=None).kind is ScreenKind.SCOREBOARD


def test_choose_screen_needs_something_to_show() -> None:
    with pytest.raises(ValueError, match="choose_screen needs a view"):
        choose_screen(None)


def test_equal_views_choose_equal_screens() -> None:
    # the controller's redraw check: same game, same screen value
    assert choose_screen(view_after(PLAY)) == choose_screen(view_after(PLAY))
    assert choose_screen(view_after(PLAY)) != choose_screen(view_after([*PLAY, "play 6C"]))


@pytest.mark.parametrize(
    ("size", "style", "pages"),
    [
        pytest.param((128, 64), Style.COMPACT, 4, id="128x64-compact-three-calls-a-page"),
        pytest.param((128, 64), Style.LARGE, 6, id="128x64-large-two-calls-a-page"),
        pytest.param((256, 64), Style.COMPACT, 2, id="256x64-compact-two-columns"),
        pytest.param((256, 64), Style.LARGE, 3, id="256x64-large-two-columns"),
        pytest.param((128, 128), Style.COMPACT, 2, id="128x128-compact-larger-font"),
        pytest.param((128, 32), Style.COMPACT, 10, id="128x32-compact-packed"),
        pytest.param((128, 32), Style.LARGE, 12, id="128x32-large-one-row-a-page"),
    ],
)
def test_the_29_hand_is_paged_to_fit(size: tuple[int, int], style: Style, pages: int) -> None:
    view = view_after(SHOW_29)
    assert view.last is not None and view.last.points == 29
    assert count_pages(view, size, style) == pages
    drawn = {render_count(view, page, size, "1", style).tobytes() for page in range(pages)}
    assert len(drawn) == pages


def test_a_count_page_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match=r"count page 4 is out of range \(expected 0\.\.3\)"):
        render_count(view_after(SHOW_29), 4)


@pytest.mark.parametrize(
    ("size", "mode", "message"),
    [
        pytest.param((128, 64), "P", r"unsupported image mode 'P' \(expected one of", id="mode-P"),
        pytest.param(
            (96, 16), "1", r"screen too small: \(96, 16\) \(expected at least 64x32\)", id="96x16"
        ),
    ],
)
def test_unsupported_sizes_and_modes_are_refused(
    size: tuple[int, int], mode: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        render_error("x", size, mode)


def test_menus_need_items_and_a_cursor_on_one() -> None:
    with pytest.raises(ValueError, match=r"menu 'empty' has no items \(expected at least one\)"):
        MenuView("empty", ())
    with pytest.raises(ValueError, match=r"menu cursor 2 is not on an item \(expected 0\.\.1\)"):
        MenuView("m", (MenuItem("a"), MenuItem("b")), cursor=2)


def test_menu_scrolls_to_keep_the_cursor_on_screen() -> None:
    items = tuple(MenuItem(f"item {n}") for n in range(12))
    top = render_menu(MenuView("long", items, cursor=0), (128, 64))
    bottom = render_menu(MenuView("long", items, cursor=11), (128, 64))
    # the highlighted bar is in the first row at the top, in the last row at the bottom
    assert top.getpixel((100, 17)) == 1 and top.getpixel((100, 56)) == 0
    assert bottom.getpixel((100, 17)) == 0 and bottom.getpixel((100, 56)) == 1


def test_long_entries_scroll_to_keep_the_newest_key_in_view() -> None:
    short = render_entry(EntryView("", "5", "", Mode.TYPING), (128, 64))
    long = render_entry(EntryView("", "5 5 5 J 10 Q K A 2 3 4", "", Mode.TYPING), (128, 64))
    for image in (short, long):
        box = image.getbbox()
        assert box is not None and box[2] <= 127


TEXT = st.text(alphabet="0123456789 AJQK♣♦♥♠abcdefghijklmnopqrstuvwxyz'-:…", max_size=60)


@given(
    text=TEXT,
    hint=TEXT,
    title=TEXT,
    size=st.sampled_from([(128, 64), (128, 32), (256, 64), (64, 48)]),
)
def test_any_text_draws_within_the_screen(
    text: str, hint: str, title: str, size: tuple[int, int]
) -> None:
    for screen in (
        Screen(ScreenKind.ENTRY, entry=EntryView(title, text, hint, Mode.TYPING)),
        Screen(ScreenKind.ERROR, message=text),
        Screen(ScreenKind.MENU, menu=MenuView(title, (MenuItem(text, hint), MenuItem(hint)))),
    ):
        image = render_screen(screen, size, "1")
        assert image.size == size


def test_golden_comparison_fails_on_one_changed_pixel(
    tmp_path: Path, golden_compare: Callable[..., None]
) -> None:
    image = render_error("no fifth 5", (128, 64), "1")
    golden_compare(image, "probe", update=True, directory=tmp_path)
    golden_compare(image, "probe", update=False, directory=tmp_path)
    changed = image.copy()
    changed.putpixel((5, 30), 1 - changed.getpixel((5, 30)))
    with pytest.raises(pytest.fail.Exception, match=r"probe: the screen differs from probe\.png"):
        golden_compare(changed, "probe", update=False, directory=tmp_path)
    assert (tmp_path / "_failed" / "probe.png").exists()


@pytest.mark.parametrize("size", [(128, 32), (128, 64)], ids=["128x32", "128x64"])
def test_game_over_shows_the_game_points_on_every_screen(size: tuple[int, int]) -> None:
    lurched = view_after(LURCHED)
    assert lurched.game_points == 2
    two = render_screen(choose_screen(lurched), size, "1")
    three = render_screen(choose_screen(replace(lurched, game_points=3)), size, "1")
    assert two.tobytes() != three.tobytes()


@pytest.mark.parametrize("size", [(128, 64), (64, 64)], ids=["128x64", "64x64"])
def test_a_long_call_in_the_count_goes_on_under_itself_and_keeps_its_total(
    size: tuple[int, int],
) -> None:
    view = view_after(SHOW_29)
    last = view.last
    assert last is not None

    def shown(call: str) -> bytes:
        counted = replace(view, last=replace(last, calls=("fifteen 2", call)))
        pages = count_pages(counted, size)
        return b"".join(render_count(counted, page, size, "1").tobytes() for page in range(pages))

    assert shown("double pair royal is 12") != shown("double pair royal is 13")


def test_a_cut_with_long_names_goes_on_two_lines_and_keeps_the_first_name(
    golden: GoldenCheck,
) -> None:
    entry = EntryView("cut", "Bartholome 9, Maximilian _", CUT_HINT, Mode.TYPING)
    image = render_entry(entry, (128, 64), "1", Style.LARGE)
    golden(image, "128x64-large-cut-long-names")


def test_the_chances_bar_is_solid_for_the_first_sides_share_and_dotted_for_the_second() -> None:
    view = view_after(LURCH_NEAR)
    plain = render_screen(choose_screen(view), (128, 64))
    for share in (0.0, 0.25, 0.62, 1.0):
        image = render_screen(choose_screen(view, chances=(share, 1 - share)), (128, 64))
        assert image.tobytes() != plain.tobytes()
        row = next(y for y in range(64) if image.getpixel((0, y)) or image.getpixel((127, y)))
        row = max(row, 1)
        solid = [x for x in range(128) if image.getpixel((x, row + 1))]
        split = round(share * 128)
        assert all(x in solid for x in range(split))  # solid up to the first side's share
        assert all((x - split) % 2 == 0 for x in solid if x >= split)  # dotted after it


def test_the_chances_make_no_bar_for_three_sides_or_off_the_scoreboard() -> None:
    three = view_after(["cut 9H 3C 4D"], Rules.three_handed())
    screen = choose_screen(three, chances=(0.4, 0.3, 0.3))
    assert render_screen(screen).tobytes() == render_screen(choose_screen(three)).tobytes()
    play = choose_screen(view_after(PLAY), chances=(0.5, 0.5))
    assert play.kind is ScreenKind.PLAY and play.chances is None


SCOREBOARDS = [name for name in ALL if name.startswith("scoreboard-")]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", SCOREBOARDS, ids=SCOREBOARDS)
@pytest.mark.parametrize("size", [(128, 64), (128, 32)], ids=["128x64", "128x32"])
def test_no_english_word_on_a_scoreboard_is_cut_off(
    name: str, style: Style, size: tuple[int, int], cuts: list[str]
) -> None:
    draw(name, size, "1", style)
    assert cuts == []


@pytest.mark.parametrize("style", STYLES)
def test_the_three_handed_warning_fits_by_initials_or_on_two_rows(style: Style) -> None:
    """ "double skunk: Sky, Lilac" is too wide for 128 pixels: the columns' initials say it."""
    view = view_after(THREE_BOTH_SKUNKED, Rules.three_handed())
    p = paint.Painter((128, 64), "1", style)
    face, rows = status_module.warning_rows(
        view, (p.status, p.small), 126, translator(Language.ENGLISH)
    )
    assert (face, rows) == (p.small, ["double skunk: S, L"])
    view = view_after(THREE_LURCH_AND_SKUNK, Rules.three_handed())
    face, rows = status_module.warning_rows(
        view, (p.status, p.small), 126, translator(Language.ENGLISH)
    )
    assert (face, rows) == (p.small, ["lurch: Sky needs 21", "double skunk: Lilac"])


def test_the_cut_check_catches_a_warning_cut_off(cuts: list[str]) -> None:
    """The check fails on purpose: sides whose names start alike are not told by initials,
    and "double skunk: Max2, Bob" is too wide for one row."""
    state = GameState.new(Rules.three_handed(), ("Max1", "Max2", "Bob"))
    for text in ("cut 9H 3C 4D", "peg Max1 53", "peg Max1 50", "peg Max2 12"):
        state, _ = apply(state, parse_command(text, state.names))
    render_scoreboard(render_view(state), (128, 64))
    assert cuts == ["double skunk: Max2, Bob"]
