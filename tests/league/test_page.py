"""The league's page in a real browser (Debian's Chromium through Playwright, as the pub page's
tests), fed by the league service from a real Mosquitto.

Two boards at the Red Lion publish through their own journals and ``LeaguePublisher``: three
finished games (Ann lurches Bob, Bob beats Ann, Cat beats Dan), then each board's next game
under way; table 2 is then switched off. The page must show the standings in the table's order
(match points, then games won, then spread), each board's live scores, online or offline, and
change when a board pegs or finishes a game. Golden screenshots at 1920x1080 and 1280x720
(``tests/golden/league``; ``--update-golden`` rewrites them and ``docs/league.png``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pegboard.config.league import LeagueConfig
from pegboard.engine.commands import parse_command
from pegboard.engine.game import Phase
from pegboard.engine.rules import Rules
from pegboard.engine.view import render_view
from pegboard.journal import Journal
from pegboard.league.publisher import LeaguePublisher
from pegboard.league.service import STATIC_DIR, Broker, LeagueService
from pegboard.league.store import LeagueStore
from pegboard.web.server import WebServer
from tests.league.conftest import Mosquitto, wait_until
from tests.web.conftest import compare_screenshot, wait_for_latest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "league"
DOC = ROOT / "docs" / "league.png"
DOC_SIZE = "1280x720"
SIZES = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
WAIT_MS = 60_000  # a hang guard only

Make = Callable[..., Mosquitto]


@dataclass
class Board:
    """A board: its journal and its league publisher."""

    store: Journal
    publisher: LeaguePublisher

    def do(self, *texts: str) -> None:
        """Commands in the table's notation, then the view to the league (as on_change)."""
        for text in texts:
            state = self.store.state
            assert state is not None
            self.store.do(parse_command(text, state.names))
        state = self.store.state
        assert state is not None
        self.publisher.on_change(state, render_view(state))

    def next_game(self, names: tuple[str, str]) -> None:
        """On to the next game (a new match for *names* when there is none), past the cut."""
        state = self.store.state
        if state is None or state.phase is Phase.MATCH_OVER:
            self.store.new_match(Rules.six_card(), names)
        elif state.phase is Phase.GAME_OVER:
            self.do("next")
        state = self.store.state
        if state is not None and state.phase is Phase.CUT:
            self.do("cut 9C 3D")

    def win(self, names: tuple[str, str], winner: str, loser_score: int) -> None:
        """Play a game to the end by hand pegs: *winner* to 121, the other to *loser_score*."""
        self.next_game(names)
        loser = next(name for name in names if name != winner)
        pegs = [60] * (loser_score // 60) + ([loser_score % 60] if loser_score % 60 else [])
        self.do("starter 5C", *(f"peg {loser} {p}" for p in pegs), f"peg {winner} 60")
        self.do(f"peg {winner} 61")


@dataclass
class Scene:
    service: LeagueService
    web: WebServer
    t1: Board
    t2: Board


@pytest.fixture
def scene(tmp_path: Path, mosquitto: Make) -> Iterator[Scene]:
    broker = mosquitto().start()
    web = WebServer("127.0.0.1", 0, static_dir=STATIC_DIR)
    web.start()
    service = LeagueService(
        LeagueStore(tmp_path / "league.db"), Broker("127.0.0.1", broker.port), web=web, refresh=0.05
    )
    boards: list[Board] = []
    try:
        service.start()
        assert service.wait_connected(10.0)
        for name in ("t1", "t2"):
            db = tmp_path / f"{name}.db"
            config = LeagueConfig("127.0.0.1", "red-lion", name, port=broker.port)
            board = Board(Journal(db, outbox=True), LeaguePublisher(config, db, poll=0.05))
            board.publisher.start()
            boards.append(board)
        t1, t2 = boards
        # one game at a time, so the latest games keep their order
        for games, (board, names, winner, loser_score) in enumerate(
            (
                (t1, ("Ann", "Bob"), "Ann", 80),  # Bob lurched: 3 match points
                (t1, ("Ann", "Bob"), "Bob", 95),
                (t2, ("Cat", "Dan"), "Cat", 100),
            ),
            1,
        ):
            board.win(names, winner, loser_score)
            stored = lambda games=games: service.store.count() == games  # noqa: E731
            wait_until(stored, 10.0, f"game {games} stored")
        t1.next_game(("Ann", "Bob"))
        t1.do("starter 5C", "peg Ann 23", "peg Bob 17")
        t2.next_game(("Cat", "Dan"))
        t2.do("starter 5C", "peg Dan 12", "peg Cat 9")

        def scores(board: str) -> list[int]:
            for b in service.payload()["boards"]:
                if b["board"] == board and b["view"] is not None:
                    return [s["score"] for s in b["view"]["sides"]]
            return []

        wait_until(lambda: scores("t1") == [23, 17] and scores("t2") == [9, 12], 10.0, "live")
        t2.publisher.close()  # table 2 is switched off: its last view stays, "offline"
        wait_until(
            lambda: [b["status"] for b in service.payload()["boards"]] == ["online", "offline"],
            10.0,
            "table 2 offline",
        )
        yield Scene(service, web, t1, t2)
    finally:
        for board in boards:
            board.publisher.close()
            board.store.close()
        service.close()
        web.close()
        service.store.close()


SHOWN_JS = """() => {
  const all = (sel, root = document) => [...root.querySelectorAll(sel)];
  const text = (root, sel) => root.querySelector(sel).textContent;
  return {
    standings: all("#standings tr").map((tr) =>
      ["rank", "name", "played", "won", "lost", "mp", "spread"].map((c) => text(tr, "." + c))),
    boards: all("#boards .board").map((b) => ({
      board: b.dataset.board,
      status: b.dataset.status,
      shown: text(b, ".status"),
      sides: all(".side", b).map((s) => [text(s, ".name"), Number(text(s, ".score"))]),
      crib: all(".side", b).map((s) => s.querySelector(".crib") !== null),
    })),
    recent: all("#recent li").map((li) => li.textContent),
    summary: document.getElementById("summary").textContent,
  };
}"""


def settled(page: Page, web: WebServer) -> dict[str, Any]:
    """Wait until the page shows the server's latest payload; what it shows."""
    wait_for_latest(page, lambda: web.version)
    shown: dict[str, Any] = page.evaluate(SHOWN_JS)
    return shown


def test_the_league_page_shows_the_standings_and_every_board_and_keeps_up(
    browser: Browser, scene: Scene, request: pytest.FixtureRequest
) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport=SIZES[0], reduced_motion="reduce")
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(scene.web.url)
        shown = settled(page, scene.web)
        assert shown["standings"] == [
            ["1", "Ann", "2", "1", "1", "3", "+15"],  # a lurch: 3 match points
            ["2", "Cat", "1", "1", "0", "2", "+21"],  # 2 each, a game won each: the spread
            ["3", "Bob", "2", "1", "1", "2", "-15"],
            ["4", "Dan", "1", "0", "1", "0", "-21"],
        ]
        assert shown["boards"] == [
            {"board": "t1", "status": "online", "shown": "online",
             "sides": [["Ann", 23], ["Bob", 17]], "crib": [False, True]},
            {"board": "t2", "status": "offline", "shown": "offline",
             "sides": [["Cat", 9], ["Dan", 12]], "crib": [True, False]},
        ]  # fmt: skip
        assert shown["recent"] == [
            "Cat 121 – Dan 100 · red-lion/t2",
            "Ann 95 – Bob 121 · red-lion/t1",
            "Ann 121 – Bob 80 lurched · red-lion/t1",
        ]
        assert shown["summary"] == "3 games · 1 of 2 boards online"
        assert page.locator("#recent .winner").all_text_contents() == [
            "Cat 121",
            "Bob 121",
            "Ann 121",
        ]
        update = bool(request.config.getoption("--update-golden", default=False))
        for size in SIZES:
            page.set_viewport_size(size)
            label = f"{size['width']}x{size['height']}"
            page.locator(f'body[data-fitted="{label}"]').wait_for(state="attached")
            png = page.screenshot()
            compare_screenshot(png, f"league-{label}", update=update, directory=GOLDEN)
        if update:
            DOC.write_bytes((GOLDEN / f"league-{DOC_SIZE}.png").read_bytes())

        # live: table 1 pegs, and the page follows without a reload
        page.evaluate("() => { window.__same_page = true; }")
        scene.t1.do("peg Ann 4")
        t1_ann = page.locator('.board[data-board="t1"] .side[data-side="0"] .score')
        t1_ann.filter(has_text="27").wait_for(timeout=WAIT_MS)
        # table 1 finishes its game: Ann wins the match's third game and leads by more
        scene.t1.do("peg Bob 50", "peg Ann 60", "peg Ann 34")
        page.locator("#summary", has_text="4 games").wait_for(timeout=WAIT_MS)
        shown = settled(page, scene.web)
        assert shown["standings"][0] == ["1", "Ann", "3", "2", "1", "6", "+69"]
        assert shown["recent"][0] == "Ann 121 – Bob 67 lurched · red-lion/t1"
        assert page.evaluate("() => window.__same_page") is True
        assert not errors
    finally:
        context.close()


def test_docs_league_png_is_the_golden_screenshot() -> None:
    assert DOC.exists(), "docs/league.png: run pytest tests/league --update-golden"
    assert DOC.read_bytes() == (GOLDEN / f"league-{DOC_SIZE}.png").read_bytes()
