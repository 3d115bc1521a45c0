"""The pub page's layout on the TV, in headless Chromium: what must show whole does, at both TV
sizes. Each page here is a journal kept with ``pegboard game`` and read as ``pegboard serve``
reads it (a ``JournalFeed`` publishing to the real server).

The checks are the browser's own measures: an element whose words are cut has a
``scrollWidth`` (or ``scrollHeight``) larger than its ``clientWidth`` (``clientHeight``), or,
as those are whole pixels, words wider than its content box by a fraction of one (a ``Range``
over its words against its ``getBoundingClientRect``: ``CUT``), and boxes that overlap share
some of their ``getBoundingClientRect``.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pegboard.cli.main import main
from pegboard.i18n import Language
from pegboard.web.feed import JournalFeed
from pegboard.web.publisher import ViewPublisher
from pegboard.web.server import WebServer

from .conftest import ScreenshotCheck
from .test_page import SMALL_TV, TV, wait_for_version

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SIZES = [pytest.param(TV, id="1920x1080"), pytest.param(SMALL_TV, id="1280x720")]

# the reviewer's three-handed game over: Sky 121, Gold 50 (double skunked), Lilac 70 (lurched)
THREE_OVER = (
    ("--variant", "three-handed"),
    (
        *("cut 9C 3D 5H", "starter 5C", "next"),
        *("peg Sky 61", "peg Gold 50", "peg Lilac 30", "peg Lilac 40", "peg Sky 60"),
    ),
)


EVENING = datetime(2026, 11, 26, 23, 30, tzinfo=UTC)
"""The publisher's clock: the pub's evening, in UTC (the page shows its times in UTC)."""


@pytest.fixture(autouse=True)
def journal_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stamp the journal's commands a minute apart from 19:00 UTC that evening, so the games'
    finish times (which the page shows) are the same on every run."""
    minutes = iter(range(10**6))

    def stamp() -> str:
        at = datetime(2026, 11, 26, 19, tzinfo=UTC) + timedelta(minutes=next(minutes))
        return at.isoformat(timespec="milliseconds")

    monkeypatch.setattr("pegboard.journal._now", stamp)


def pegboard(*argv: str) -> None:
    """Run ``pegboard *argv`` in this process; it must succeed."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = main(list(argv))
    assert status == 0, argv


def keep(db: Path, new: tuple[str, ...], commands: tuple[str, ...]) -> None:
    """``pegboard game new`` with *new*, then ``game do`` with *commands*, into *db*."""
    pegboard("game", "new", "--db", str(db), *new)
    if commands:
        pegboard("game", "do", "--db", str(db), *commands)


@contextlib.contextmanager
def served(db: Path, language: Language = Language.ENGLISH) -> Iterator[WebServer]:
    """The page for the journal *db*, as ``pegboard serve`` shows it on ``EVENING``."""
    server = WebServer("127.0.0.1", 0)
    server.start()
    try:
        JournalFeed(db, ViewPublisher(server, language=language, now=lambda: EVENING)).load()
        yield server
    finally:
        server.close()


@contextlib.contextmanager
def opened(
    browser: Browser, server: WebServer, size: dict[str, int], *, reduced: bool = True
) -> Iterator[Page]:
    """A page on *server* at *size*, once it has applied the latest payload."""
    context = browser.new_context(
        viewport=size, reduced_motion="reduce" if reduced else "no-preference"
    )
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url)
        wait_for_version(page, server.version)
        yield page
        assert not errors
    finally:
        context.close()


CUT = """(e) => {
    if (e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight) return true;
    const words = document.createRange();
    words.selectNodeContents(e);
    const s = getComputedStyle(e);
    const room = e.getBoundingClientRect().width - parseFloat(s.paddingLeft) -
      parseFloat(s.paddingRight) - parseFloat(s.borderLeftWidth) - parseFloat(s.borderRightWidth);
    return words.getBoundingClientRect().width > room;
  }"""
"""Whether an element's words are cut: whole pixels over, or a fraction of one (an ellipsis
shows for either)."""


# -- three separate players win no game points --------------------------------------------------


@pytest.mark.parametrize("size", SIZES[1:])
def test_three_separate_players_show_no_game_points(
    browser: Browser, tmp_path: Path, size: dict[str, int]
) -> None:
    db = tmp_path / "three.db"
    keep(db, *THREE_OVER)
    with served(db) as server, opened(browser, server, size) as page:
        assert page.locator("#players").is_visible()
        assert page.locator(".side:not([hidden]) .points").all_text_contents() == ["", "", ""]
        assert page.locator(".side:not([hidden]) .meta").all_text_contents() == ["", "", ""]
        assert page.locator('#records tr[data-row="points"]').is_hidden()
        assert page.locator('#records tr[data-row="games"]').is_visible()
        assert "point" not in (page.locator("#sides").text_content() or "")


def test_two_sides_still_show_their_game_points(browser: Browser, tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    keep(db, ("--players", "Ann,Bob"), ("cut 9C 3D", "starter 5C", "next", "peg Ann 40"))
    with served(db) as server, opened(browser, server, SMALL_TV) as page:
        points = page.locator(".side:not([hidden]) .points").all_text_contents()
        assert points == ["game points 0", "game points 0"]
        assert page.locator('#records tr[data-row="points"]').count() == 1


# -- names of the longest length the table allows ------------------------------------------------

# Every side's card, measured: a cut element (its words wider or taller than its box, as an
# ellipsis is), the pairs of its name, players, score and flag boxes that overlap, and any of
# them out of the card.
CARDS_JS = f"""() => {{
  const cut = {CUT};
  const box = (e) => e.getBoundingClientRect();
  const overlap = (a, b) =>
    a.width > 0 && a.height > 0 && b.width > 0 && b.height > 0 &&
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const inside = (a, b) =>
    a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 &&
    a.bottom <= b.bottom + 0.5;
  const parts = [".name", ".players", ".score", ".flag", ".meta"];
  return [...document.querySelectorAll("#sides .side:not([hidden])")].map((card) => {{
    const els = parts.map((p) => card.querySelector(p));
    const found = [];
    els.forEach((e, i) => {{
      if (parts[i] !== ".score" && cut(e)) found.push(`${{parts[i]}} cut: ${{e.textContent}}`);
      if (!inside(box(e), box(card))) found.push(`${{parts[i]}} out of the card`);
      els.slice(i + 1).forEach((f, j) => {{
        if (overlap(box(e), box(f))) found.push(`${{parts[i]}} over ${{parts[i + 1 + j]}}`);
      }});
    }});
    return {{ name: card.querySelector(".name").textContent, found }};
  }});
}}"""

LONG = "Bartholome", "Maximilian", "Christophe"  # the roster's longest: 10 characters
LONG_GAMES = {
    "two": (
        ("--players", f"{LONG[0]},{LONG[1]}", "--match", "single"),
        ("cut 9C 3D", "starter 5C", "next", f"peg {LONG[0]} 50", f"peg {LONG[0]} 50"),
        (f"peg {LONG[1]} 59", f"peg {LONG[0]} 21"),
    ),
    # the dealer (Maximilian: the cut's lower card) on a three-digit score: at 1280x720 his
    # name's box was a fraction of a pixel too narrow ("Maximili…")
    "two-dealer-past-100": (
        ("--players", f"{LONG[0]},{LONG[1]}", "--match", "single"),
        (
            *("cut 9C 3D", "starter 5C", "next", f"peg {LONG[0]} 50", f"peg {LONG[0]} 50"),
            *(f"peg {LONG[1]} 50", f"peg {LONG[1]} 55"),
        ),
        (f"peg {LONG[1]} 16",),
    ),
    "three": (
        ("--variant", "three-handed", "--players", ",".join(LONG)),
        ("cut 9C 3D 5H", "starter 5C", "next", f"peg {LONG[0]} 50", f"peg {LONG[0]} 50"),
        (f"peg {LONG[1]} 59", f"peg {LONG[2]} 44", f"peg {LONG[2]} 44", f"peg {LONG[0]} 21"),
    ),
    "four": (
        ("--variant", "four-handed", "--players", f"{LONG[0]},{LONG[1]}", "--match", "single"),
        ("cut 9C 3D", "starter 5C", "next", f"peg {LONG[0]} 50", f"peg {LONG[0]} 50"),
        (f"peg {LONG[1]} 59", f"peg {LONG[0]} 21"),
    ),
}


@pytest.mark.parametrize("language", [Language.ENGLISH, Language.GERMAN], ids=["en", "de"])
@pytest.mark.parametrize("over", [False, True], ids=["playing", "game-over"])
@pytest.mark.parametrize("sides", list(LONG_GAMES))
def test_names_of_the_longest_length_show_whole_and_apart(
    browser: Browser, tmp_path: Path, sides: str, over: bool, language: Language
) -> None:
    new, playing, to_the_end = LONG_GAMES[sides]
    db = tmp_path / "long.db"
    keep(db, new, playing + to_the_end if over else playing)
    with served(db, language) as server:
        for size in (TV, SMALL_TV):
            with opened(browser, server, size) as page:
                cards = page.evaluate(CARDS_JS)
                assert [card["name"] for card in cards] == list(LONG[: len(cards)])
                assert [card["found"] for card in cards] == [[]] * len(cards), size
                if over:
                    assert page.locator('.side[data-won="yes"] .lurch').text_content() in {
                        "wins!",
                        "gewinnt!",
                    }


@pytest.mark.parametrize("size", SIZES)
def test_whose_hand_is_counted_shows_a_long_name_whole(
    browser: Browser, tmp_path: Path, size: dict[str, int]
) -> None:
    new, playing, _ = LONG_GAMES["three"]
    db = tmp_path / "long.db"
    keep(db, new, (*playing[:3], "show 5H 5D 5S JC"))
    with served(db, Language.GERMAN) as server, opened(browser, server, size) as page:
        title = page.locator("#state-title")
        assert title.text_content() == f"Hand von {LONG[0]} z\u00e4hlen"
        assert title.evaluate(CUT) is False


def test_the_cards_check_catches_a_cut_name(browser: Browser, tmp_path: Path) -> None:
    db = tmp_path / "long.db"
    keep(db, LONG_GAMES["three"][0], ())
    with served(db) as server, opened(browser, server, SMALL_TV) as page:
        page.evaluate("() => { document.querySelector('.side .name').style.fontSize = '20vh'; }")
        cards = page.evaluate(CARDS_JS)
        assert cards[0]["found"][:1] == [f".name cut: {LONG[0]}"]


# -- a three-handed game over ---------------------------------------------------------------------

# The words between games that were cut: each one cut, as "selector: its text".
PANELS_CUT_JS = (
    """() => {
  const cut = """
    + CUT
    + """;
  const inside = (a, b) => a.left >= b.left && a.right <= b.right && a.bottom <= b.bottom;
  const found = [];
  for (const sel of ["#h2h", "#records thead th.v", "#results td", "#results tr"]) {
    for (const e of document.querySelectorAll(sel)) {
      if (e.closest("[hidden]") || !e.textContent) continue;
      const panel = e.closest(".panel").getBoundingClientRect();
      const out = !inside(e.getBoundingClientRect(), panel);
      if (cut(e) || out) found.push(`${sel}: ${e.textContent}`);
    }
  }
  return found;
}"""
)

THREE_OVER_WORDS = {
    Language.ENGLISH: (
        ["wins!", "double skunk!", "lurched!"],
        "Sky beat Gold, Lilac",
        "Sky\u2013\u2060Gold\u00a01\u20130 \u00b7 Sky\u2013\u2060Lilac\u00a01\u20130 \u00b7 "
        "Gold\u2013\u2060Lilac\u00a00\u20130",
    ),
    Language.GERMAN: (
        ["gewinnt!", "dreifach!", "Schneider!"],
        "Sky schl\u00e4gt Gold, Lilac",
        "Sky\u2013\u2060Gold\u00a01\u20130 \u00b7 Sky\u2013\u2060Lilac\u00a01\u20130 \u00b7 "
        "Gold\u2013\u2060Lilac\u00a00\u20130",
    ),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", [Language.ENGLISH, Language.GERMAN], ids=["en", "de"])
def test_a_three_handed_game_over_shows_every_word_whole(
    browser: Browser,
    tmp_path: Path,
    language: Language,
    size: dict[str, int],
    screenshot_golden: ScreenshotCheck,
) -> None:
    db = tmp_path / "three.db"
    keep(db, *THREE_OVER)
    flags, tonight, h2h = THREE_OVER_WORDS[language]
    with served(db, language) as server, opened(browser, server, size) as page:
        cards = page.evaluate(CARDS_JS)
        assert [card["name"] for card in cards] == ["Sky", "Gold", "Lilac"]
        assert [card["found"] for card in cards] == [[], [], []]
        assert page.evaluate(PANELS_CUT_JS) == []
        assert page.locator(".side:not([hidden]) .lurch").all_text_contents() == flags
        assert page.locator("#results tr:not([hidden]) td.w").all_text_contents() == [tonight]
        assert page.locator("#h2h-text").text_content() == h2h
        heads = page.locator("#records thead th.v:not([hidden])").all_text_contents()
        assert heads == ["Sky", "Gold", "Lilac"]
        png = page.screenshot()
    suffix = "-de" if language is Language.GERMAN else ""
    screenshot_golden(png, f"three-handed-over{suffix}-{size['width']}x{size['height']}")


# -- the calls, always whole ---------------------------------------------------------------------

CALLS_JS = (
    """() => {
  const cut = """
    + CUT
    + """;
  const e = document.querySelector("#last-calls");
  const panel = document.querySelector("#last").getBoundingClientRect();
  const box = e.getBoundingClientRect();
  return {
    text: e.textContent,
    fits: !cut(e),
    inside: box.bottom <= panel.bottom && box.right <= panel.right && box.height > 0,
  };
}"""
)

TWENTY_NINE = ("cut 9C 3D 5H", "starter 5C", "next", "show 5H 5D 5S JC")
LONGEST_CALLS = {
    # the longest calls there are: a 29 hand, in German, with three sides
    "29-three-handed": (("--variant", "three-handed"), TWENTY_NINE, "neunundzwanzig"),
    "29-two-sides": (("--players", "Ann,Bob"), ("cut 9C 3D", *TWENTY_NINE[1:]), "neunundzwanzig"),
    "24-three-handed": (
        ("--variant", "three-handed"),
        ("cut 9C 3D 5H", "starter 6C", "next", "show 4H 4D 5S 5H"),
        "vierundzwanzig",
    ),
    # the 29 wins the game: the calls in the smaller panel between games
    "29-wins-the-game": (
        ("--variant", "three-handed"),
        ("cut 9C 3D 5H", "starter 5C", "next", "peg Sky 50", "peg Sky 50", "show 5H 5D 5S JC"),
        "neunundzwanzig",
    ),
}


@pytest.mark.parametrize("hand", list(LONGEST_CALLS))
def test_the_longest_calls_show_whole_with_their_total(
    browser: Browser, tmp_path: Path, hand: str
) -> None:
    new, commands, total = LONGEST_CALLS[hand]
    db = tmp_path / "calls.db"
    keep(db, new, commands)
    with served(db, Language.GERMAN) as server:
        for size in (TV, SMALL_TV):
            with opened(browser, server, size) as page:
                calls = page.evaluate(CALLS_JS)
                assert calls["text"].endswith(f"macht {total}"), calls["text"]
                assert (calls["fits"], calls["inside"]) == (True, True), (size, calls["text"])


# -- tonight: only whole rows, each game told apart ---------------------------------------------

# The tonight list's visible rows: each one's first cell and whether it lies whole inside the
# panel's content box; and how many games the payload gave.
ROWS_JS = """() => {
  const panel = document.querySelector("#evening");
  const style = getComputedStyle(panel);
  const box = panel.getBoundingClientRect();
  const bottom = box.bottom - parseFloat(style.paddingBottom) - parseFloat(style.borderBottomWidth);
  const rows = [...document.querySelectorAll("#results tr:not([hidden])")];
  return {
    games: Number(panel.dataset.games),
    rows: rows.map((row) => {
      const r = row.getBoundingClientRect();
      const whole = r.top >= box.top && r.bottom <= bottom + 0.5 && r.right <= box.right;
      return { when: row.cells[0].textContent, whole };
    }),
  };
}"""


def twelve_matches(db: Path) -> None:
    """Twelve single-game matches, Sky beating Gold in each, one after the other."""
    for _ in range(12):
        keep(db, ("--match", "single"), ("cut 9C 3D", "starter 5C", "next", "peg Sky 61"))
        pegboard("game", "do", "--db", str(db), "peg Gold 30", "peg Sky 60")


@pytest.mark.parametrize("over", [False, True], ids=["next-match", "game-over"])
def test_tonight_shows_only_whole_rows_newest_first_each_told_apart(
    browser: Browser, tmp_path: Path, over: bool
) -> None:
    db = tmp_path / "evening.db"
    twelve_matches(db)
    if not over:
        pegboard("game", "new", "--db", str(db), "--match", "single")
    with served(db) as server:
        for size, least in ((TV, 2 if over else 7), (SMALL_TV, 2)):
            with opened(browser, server, size) as page:
                seen = page.evaluate(ROWS_JS)
                assert seen["games"] == 10  # EVENING_GAMES: the newest ten of twelve
                rows = seen["rows"]
                assert len(rows) >= least, (size, rows)
                assert all(row["whole"] for row in rows), (size, rows)
                # newest first, each match told apart by when it was won
                times = [row["when"] for row in rows]
                assert times == sorted(set(times), reverse=True), times


# -- the pegs slide, unless the screen asks for less motion ------------------------------------

PEG_MOTION_JS = """() => {
  const style = getComputedStyle(document.querySelector('.track:not([hidden]) .peg.front'));
  return { property: style.transitionProperty, duration: style.transitionDuration };
}"""


def test_a_peg_slides_to_its_hole_unless_reduced_motion_is_asked(
    browser: Browser, tmp_path: Path
) -> None:
    db = tmp_path / "slide.db"
    keep(db, ("--players", "Ann,Bob"), ("cut 9C 3D", "starter 5C", "next", "peg Ann 12"))
    with served(db) as server:
        with opened(browser, server, SMALL_TV, reduced=False) as page:
            motion = page.evaluate(PEG_MOTION_JS)
            assert motion["property"] == "left"
            assert float(motion["duration"].removesuffix("s")) > 0, motion
        with opened(browser, server, SMALL_TV) as page:  # prefers-reduced-motion: reduce
            motion = page.evaluate(PEG_MOTION_JS)
            assert motion["property"] == "none" or motion["duration"] == "0s", motion


# -- the chance to win: never certain before the game is over ----------------------------------


@pytest.mark.parametrize(
    ("scores", "words"),
    [
        pytest.param((100, 60), ["Ann >99%", "<1%"], id="99.90%"),
        pytest.param((100, 40), ["Ann >99%", "<1%"], id="99.998%"),
        pytest.param((60, 40), None, id="a-game-in-doubt"),
    ],
)
def test_the_chance_bar_never_says_certain_before_the_game_is_over(
    browser: Browser, tmp_path: Path, scores: tuple[int, int], words: list[str] | None
) -> None:
    """99.9% read as "100%" tells a patron the game is decided: it is ">99%" until it is."""
    ann, bob = scores
    db = tmp_path / "odds.db"
    pegs = (f"peg Ann {ann // 2}", f"peg Ann {ann - ann // 2}", f"peg Bob {bob}")
    keep(db, ("--players", "Ann,Bob"), ("cut 9C 3D", *pegs))
    with served(db) as server, opened(browser, server, SMALL_TV) as page:
        shown = page.locator("#odds-bar .odds-part:not([hidden]) span").all_text_contents()
        percents = page.locator("#odds-bar .odds-part:not([hidden])").evaluate_all(
            "(parts) => parts.map((p) => p.dataset.percent)"
        )
    assert len(shown) == 2
    if words is not None:
        assert shown == words
    assert not {"0", "100"} & set(percents), shown
