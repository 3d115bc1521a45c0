"""The league page on one TV shows everything whole (Chromium through Playwright, as
``test_page.py``): every board's card (up to 12; past that a line says how many more), only
whole standings rows and latest games, names of the maximum length (10) whole, and a long venue
squeezing nothing.

The service is real (``LeagueService.handle`` takes each board's messages as from the broker,
its ``payload`` feeds the page's server); the live views are real boards' views
(``live_payload`` of a journal's game). 2, 5, 9 and 14 boards, 12 players, at 1920x1080 and
1280x720.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules, lurch_of
from pegboard.engine.view import render_view
from pegboard.journal import Journal
from pegboard.league.publisher import live_payload
from pegboard.league.service import STATIC_DIR, Broker, LeagueService
from pegboard.league.store import LeagueStore
from pegboard.web.server import WebServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser

SIZES = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
WAIT_MS = 60_000  # a hang guard only
PLAYERS = (  # ten letters, the most a side's name may have, and wide ones
    "Wilhelmina", "Maximilian", "Montgomery", "Bartholome", "Gwendolynn", "Konstantin",
    "Bernadette", "Jacqueline", "Wolfhardtt", "Marguerite", "Christophe", "Mwangiwawa",
)  # fmt: skip
LONG_VENUE = "the-red-lion-and-royal-oak-free-house-at-little-snoring-norfolk-uk"[:64]
"""The longest venue a topic may carry (64 characters)."""


def topic(venue: str, board: str, kind: str) -> str:
    return f"pegboard/v1/{venue}/{board}/{kind}"


def finished(number: int, winner: str, loser: str, loser_score: int) -> bytes:
    return json.dumps(
        {
            "game_id": f"g{number}",
            "variant": "six-card",
            "target": 121,
            "sides": [
                {"name": winner, "score": 121, "won": True, "lurch": "none"},
                {"name": loser, "score": loser_score, "won": False, "lurch": lurch(loser_score)},
            ],
            "ended": f"2026-01-01T20:{number:02d}:00",
        }
    ).encode()


def lurch(score: int) -> str:
    return lurch_of(Rules.six_card(), score).value


def board_names(boards: int) -> list[tuple[str, str]]:
    """(venue, board) for *boards* boards: every third at the long venue."""
    return [(LONG_VENUE if i % 3 == 2 else "red-lion", f"table-{i + 1}") for i in range(boards)]


@pytest.fixture
def league(tmp_path: Path) -> Iterator[tuple[LeagueService, WebServer, Path]]:
    web = WebServer("127.0.0.1", 0, static_dir=STATIC_DIR)
    web.start()
    service = LeagueService(LeagueStore(tmp_path / "league.db"), Broker("127.0.0.1", 1), web=web)
    try:
        # twelve players, each with a game won and lost: 12 standings rows, 12 latest games
        for number, winner in enumerate(PLAYERS):
            loser = PLAYERS[(number + 1) % len(PLAYERS)]
            service.handle(
                topic("red-lion", "table-1", "finished"),
                finished(number, winner, loser, 95 + number),
            )
        yield service, web, tmp_path
    finally:
        service.store.close()
        web.close()


def add_boards(service: LeagueService, folder: Path, boards: int) -> None:
    """*boards* boards, each a game under way between two ten-letter names; the last offline."""
    for i, (venue, board) in enumerate(board_names(boards)):
        names = (PLAYERS[(2 * i) % 12], PLAYERS[(2 * i + 1) % 12])
        with Journal(folder / f"{board}.db") as store:
            state = store.new_match(Rules.six_card(), names)
            for text in (
                "cut 9C 3D",
                "starter 5C",
                f"peg {names[0]} 57",
                f"peg {names[1]} 49",
                f"peg {names[1]} 49",
            ):
                state, _ = store.do(parse_command(text, state.names))
            live = live_payload(state, render_view(state), venue, board)
        service.handle(topic(venue, board, "live"), json.dumps(live).encode())
        status = "offline" if i == boards - 1 else "online"
        service.handle(topic(venue, board, "status"), status.encode())


MEASURE_JS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const inner = (el) => {
    const r = box(el), s = getComputedStyle(el);
    return { top: r.top + parseFloat(s.paddingTop) + parseFloat(s.borderTopWidth) - 0.5,
             bottom: r.bottom - parseFloat(s.paddingBottom) - parseFloat(s.borderBottomWidth) + 0.5,
             left: r.left - 0.5, right: r.right + 0.5 };
  };
  const within = (el, outer) => {
    const r = box(el);
    return r.top >= outer.top && r.bottom <= outer.bottom && r.left >= outer.left &&
      r.right <= outer.right && r.height > 0;
  };
  const visible = (sel) =>
    [...document.querySelectorAll(sel)].filter((e) => e.offsetParent !== null);
  const cut = (el) =>
    el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5;
  const screen = { top: -0.5, left: -0.5, bottom: innerHeight + 0.5, right: innerWidth + 0.5 };
  const right = box(document.getElementById("right"));
  const recent = box(document.getElementById("recent-panel"));
  const table = inner(document.getElementById("table-panel"));
  const latest = inner(document.getElementById("recent-panel"));
  const cards = visible("#boards .board");
  const rows = [...document.querySelectorAll("#standings tr")];
  return {
    cards: cards.map((c) => [c.dataset.venue, c.dataset.board]),
    cardsOnScreen: cards.every((c) => within(c, screen) && box(c).bottom <= recent.top + 0.5),
    cardsInRight: cards.every(
      (c) => box(c).left >= right.left - 0.5 && box(c).right <= right.right + 0.5),
    cutCards: cards.filter(cut).map((c) => c.dataset.board),
    cutBoardNames: visible("#boards .side .name, #boards .place, #boards .game").filter(cut)
      .map((e) => e.textContent),
    boardNames: visible("#boards .side .name").map((e) => e.textContent),
    rowsShown: rows.filter((r) => !r.hidden).length,
    rowsOutside: rows.filter((r) => !r.hidden && !within(r, table)).map((r) => r.dataset.name),
    cutRowNames: visible("#standings .name").filter(cut).map((e) => e.textContent),
    moreRows: document.getElementById("more-rows").hidden ? null
      : document.getElementById("more-rows").textContent,
    moreRowsInPanel: within(document.getElementById("more-rows"), table) &&
      within(document.querySelector("#table-panel .key"), table),
    moreBoards: document.getElementById("more-boards").hidden ? null
      : document.getElementById("more-boards").textContent,
    moreBoardsOnScreen: within(document.getElementById("more-boards"), screen) ||
      document.getElementById("more-boards").hidden,
    recentShown: visible("#recent li").length,
    recentOutside: visible("#recent li").filter((li) => !within(li, latest))
      .map((li) => li.textContent),
    columns: [box(document.getElementById("table-panel")).width, right.width],
  };
}"""


def measure(
    browser: Browser, web: WebServer, size: dict[str, int], script: str = MEASURE_JS
) -> dict[str, Any]:
    """What *script* finds on the league page once it shows *web*'s latest version."""
    context = browser.new_context(viewport=size, reduced_motion="reduce")  # type: ignore[arg-type]
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(web.url)
        page.locator(f'body[data-version="{web.version}"]').wait_for(
            state="attached", timeout=WAIT_MS
        )
        shown: dict[str, Any] = page.evaluate(script)
        assert not errors, errors
        return shown
    finally:
        context.close()


@pytest.mark.parametrize("boards", [2, 5, 9, 14])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_every_board_every_whole_row_and_every_whole_name_show(
    browser: Browser,
    league: tuple[LeagueService, WebServer, Path],
    boards: int,
    size: dict[str, int],
) -> None:
    service, web, folder = league
    add_boards(service, folder, boards)
    web.publish(service.payload())
    shown = measure(browser, web, size)
    expected = sorted(board_names(boards))  # the service's order
    if boards <= 12:
        assert shown["cards"] == [list(b) for b in expected]
        assert shown["moreBoards"] is None
    else:  # the offline board gives way first; the rest keep their order
        assert len(shown["cards"]) == 12
        assert ["red-lion", f"table-{boards}"] not in shown["cards"]
        assert shown["moreBoards"] == f"+{boards - 12} more boards"
        assert shown["moreBoardsOnScreen"]
    assert shown["cardsOnScreen"] and shown["cardsInRight"]
    assert shown["cutCards"] == [] and shown["cutBoardNames"] == []
    assert all(len(name) == 10 for name in shown["boardNames"])
    # the standings: whole rows only, names whole, and a line for those that do not fit
    assert shown["rowsOutside"] == [] and shown["cutRowNames"] == []
    hidden = 12 - shown["rowsShown"]
    assert shown["moreRows"] == (f"+{hidden} more (pegboard league standings)" if hidden else None)
    assert shown["rowsShown"] >= 8
    # the latest games: whole lines only, at least one
    assert shown["recentOutside"] == [] and shown["recentShown"] >= 1
    # a long venue squeezes neither column
    table, right = shown["columns"]
    assert abs(table - right) < 2, shown["columns"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_table_too_long_for_the_tv_shows_whole_rows_and_says_how_many_more(
    browser: Browser,
    league: tuple[LeagueService, WebServer, Path],
    size: dict[str, int],
) -> None:
    service, web, folder = league
    for number in range(30):  # 30 more players: 42 rows, more than fit even at 60%
        service.handle(
            topic("red-lion", "table-2", "finished"),
            finished(100 + number, f"Player{number:04d}", f"Player{number + 100:04d}", 50),
        )
    add_boards(service, folder, 5)
    web.publish(service.payload())
    shown = measure(browser, web, size)
    assert shown["rowsOutside"] == [] and shown["cutRowNames"] == []
    assert 8 <= shown["rowsShown"] < 72
    assert shown["moreRows"] == f"+{72 - shown['rowsShown']} more (pegboard league standings)"
    assert shown["moreRowsInPanel"]


def test_the_cards_are_fitted_again_when_what_they_show_grows(
    browser: Browser, league: tuple[LeagueService, WebServer, Path]
) -> None:
    """Scores of three digits and a chances bar make a card taller and its names narrower:
    the page fits the cards again, though no name or game line changed (found by review: the
    fit was kept while only those changed)."""
    service, web, folder = league
    later: list[tuple[str, str, bytes]] = []
    for i, (venue, board) in enumerate(board_names(12)):  # a game just begun: one-digit scores
        names = (PLAYERS[(2 * i) % 12], PLAYERS[(2 * i + 1) % 12])
        with Journal(folder / f"{board}.db") as store:
            state = store.new_match(Rules.six_card(), names)
            state, _ = store.do(parse_command("cut 9C 3D", state.names))
            early = live_payload(state, render_view(state), venue, board)
            for text in ("starter 5C", f"peg {names[0]} 60", f"peg {names[1]} 59"):
                state, _ = store.do(parse_command(text, state.names))
            late = live_payload(state, render_view(state), venue, board)
        early["view"]["phase"] = late["view"]["phase"]  # the game line the same in both
        service.handle(topic(venue, board, "live"), json.dumps(early).encode())
        service.handle(topic(venue, board, "status"), b"online")
        later.append((venue, board, json.dumps(late).encode()))
    web.publish(service.payload())
    for size in SIZES:
        context = browser.new_context(viewport=size, reduced_motion="reduce")  # type: ignore[arg-type]
        try:
            page = context.new_page()
            page.goto(web.url)
            page.locator(f'body[data-version="{web.version}"]').wait_for(
                state="attached", timeout=WAIT_MS
            )
            for venue, board, late in later:
                service.handle(topic(venue, board, "live"), late)
            web.publish(service.payload())
            page.locator(f'body[data-version="{web.version}"]').wait_for(
                state="attached", timeout=WAIT_MS
            )
            shown: dict[str, Any] = page.evaluate(MEASURE_JS)
            assert shown["cutBoardNames"] == [] and shown["cutCards"] == []
            assert shown["cardsOnScreen"]
        finally:
            context.close()
