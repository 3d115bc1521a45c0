"""The pub page in headless Chromium, fed by the real server while key files are played.

A ``Table`` is the device as the daemon wires it: a controller on simulated ports and a fake
clock, its journal, and ``on_change`` handing each view to a ``ViewPublisher`` and its
``WebServer``. After every key the test waits until the page has applied the server's latest
version (``body[data-version]``), then reads the DOM back: the scores, the front and rear
pegs, the dealer, whose turn, the count and the last peg's calls must be those of
``controller.view.to_dict()``, which is what ``state.json`` holds.

The page's CSP forbids eval, so waits are selectors (``body[data-version="7"]``), never
``wait_for_function``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pegboard.config.settings import Config, parse_config
from pegboard.devices.ports import FakeClock, KeyEvent
from pegboard.i18n import Language
from pegboard.i18n.calls import peg_calls
from pegboard.journal import Journal
from pegboard.table.controller import Controller
from pegboard.table.keyscript import parse_key, read_script
from pegboard.table.simulator import config_for_script
from pegboard.table.wiring import build_controller, sim_ports
from pegboard.web.publisher import ViewPublisher
from pegboard.web.server import WebServer

from .conftest import ScreenshotCheck

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

ROOT = Path(__file__).parents[2]
KEYS = ROOT / "tests" / "keys"
DOCS = ROOT / "docs" / "pub"
TV = {"width": 1920, "height": 1080}
SMALL_TV = {"width": 1280, "height": 720}
WAIT_MS = 60_000  # a hang guard, not a speed check (bench/ measures the page's speed)


# -- the table: a controller publishing to the real server ------------------------------------


class Table:
    """The device as the daemon wires it, with the pub page's server on a free port."""

    def __init__(self, config: Config, *, port: int = 0) -> None:
        self.config = config
        self.clock = FakeClock(1000.0)
        self.server = WebServer("127.0.0.1", port)
        self.server.start()
        self.store = Journal(config.game.database)
        # the evening is the one the table started in, even if 06:00 passes during the test
        self.started = datetime.now(UTC)
        self.publisher = self._publisher()
        self.controller = self._controller()

    def _publisher(self) -> ViewPublisher:
        return ViewPublisher(
            self.server, self.store, language=self.config.game.language, now=lambda: self.started
        )

    def _controller(self) -> Controller:
        return build_controller(
            self.config,
            self.store,
            sim_ports(self.config),
            clock=self.clock,
            on_change=self.publisher.publish,
        )

    @classmethod
    def for_keys(
        cls, name: str, tmp_path: Path, language: Language = Language.ENGLISH
    ) -> tuple[Table, list[KeyEvent]]:
        """A table for the game that ``tests/keys/<name>.keys`` describes, speaking *language*
        (English unless asked, whatever the locale), and its keys."""
        script = read_script(KEYS / f"{name}.keys")
        base = parse_config(
            f'[game]\ndatabase = "{tmp_path / "pub.db"}"\nlanguage = "{language.value}"\n'
        )
        keys = [step for step in script.steps if isinstance(step, KeyEvent)]
        config = config_for_script(base, script)
        if config.game.language is not language:  # in case the script's config set its own
            config = dataclasses.replace(
                config, game=dataclasses.replace(config.game, language=language)
            )
        return cls(config), keys

    @property
    def view(self) -> dict[str, Any]:
        return self.controller.view.to_dict()

    def press(self, *keys: KeyEvent | str) -> None:
        for key in keys:
            self.controller.handle(parse_key(key) if isinstance(key, str) else key)

    def restart(self) -> None:
        """Stop the server and the journal, as SIGTERM does, then start both again on the same
        port with a controller resumed from the journal (as systemd restarts the daemon)."""
        port = self.server.address[1]
        self.server.close()
        self.store.close()
        self.server = WebServer("127.0.0.1", port)
        self.server.start()
        self.store = Journal(self.config.game.database)
        self.publisher = self._publisher()
        self.controller = self._controller()

    def close(self) -> None:
        self.server.close()
        self.store.close()


@contextlib.contextmanager
def table_for(
    name: str, tmp_path: Path, language: Language = Language.ENGLISH
) -> Iterator[tuple[Table, list[KeyEvent]]]:
    table, keys = Table.for_keys(name, tmp_path, language)
    try:
        yield table, keys
    finally:
        table.close()


# -- the page -------------------------------------------------------------------------------

# What the page shows, read back from its elements and data attributes.
SHOWN_JS = """() => {
  const all = (sel) => [...document.querySelectorAll(sel)];
  const sides = all("#sides .side:not([hidden])");
  const tracks = all("#tracks .track:not([hidden])");
  return {
    version: document.body.dataset.version,
    phase: document.body.dataset.phase,
    names: sides.map((s) => s.querySelector(".name").textContent),
    scores: sides.map((s) => Number(s.querySelector(".score").textContent)),
    front: tracks.map((t) => Number(t.querySelector(".peg.front").dataset.hole)),
    rear: tracks.map((t) => Number(t.querySelector(".peg.rear").dataset.hole)),
    dealer: sides.map((s) => s.dataset.dealer === "yes"),
    turn: document.body.dataset.turn,
    count: document.querySelector("#count").dataset.count,
    calls: document.querySelector("#last-calls").textContent,
    lurch: sides.map((s) => s.dataset.lurch),
    flags: sides.map((s) => s.querySelector(".lurch").textContent),
    games: sides.map((s) => s.querySelector(".games").textContent),
    points: sides.map((s) => s.querySelector(".points").textContent),
    odds: all("#odds-bar .odds-part:not([hidden])").map((p) => p.textContent),
    // where the pegs are on screen: for each track's front and rear peg, every hole (-1 and 0
    // are the start holes) whose centre lies inside the peg's box
    under: tracks.map((t) => {
      const holes = [...t.querySelectorAll(".holes i")].map((i) => i.getBoundingClientRect());
      const under = (peg) => {
        const box = peg.getBoundingClientRect();
        return holes.flatMap((h, n) => {
          const x = h.left + h.width / 2, y = h.top + h.height / 2;
          return box.left <= x && x <= box.right && box.top <= y && y <= box.bottom ? [n - 1] : [];
        });
      };
      return [under(t.querySelector(".peg.front")), under(t.querySelector(".peg.rear"))];
    }),
  };
}"""

# the words pub.js writes for the checks below, in the table's language
PAGE_WORDS = {
    Language.ENGLISH: {
        "games": "games {n}",
        "points": "game points {n}",
        "wins": "wins!",
        "lurched": "lurched!",
        "double-skunked": "double skunk!",
    },
    Language.GERMAN: {
        "games": "Spiele {n}",
        "points": "Spielpunkte {n}",
        "wins": "gewinnt!",
        "lurched": "Schneider!",
        "double-skunked": "dreifach!",
    },
}


def percent(chance: float, over: bool = True) -> str:
    """``Math.round(chance * 100)``, as the page rounds (Python's round is to even); in a game
    not *over*, never 100 nor 0 (">99", "<1")."""
    rounded = math.floor(chance * 100 + 0.5)
    if not over and rounded >= 100:
        return ">99"
    if not over and rounded <= 0:
        return "<1"
    return str(rounded)


def expected(
    view: dict[str, Any],
    chances: list[float] | None = None,
    language: Language = Language.ENGLISH,
) -> dict[str, Any]:
    """What the page should show for *view* (``GameView.to_dict()``) and the payload's
    *chances* (``win_probability``), in ``SHOWN_JS``'s shape."""
    sides = view["sides"]
    last = view["last"]
    words = PAGE_WORDS[language]
    single = view["match"]["format"] == "single"
    shown_odds = chances is not None and len(chances) == len(sides)
    over = view["winner"] is not None
    return {
        "phase": view["phase"],
        "names": list(view["names"]),
        "scores": [s["score"] for s in sides],
        "front": [s["front"] for s in sides],
        "rear": [s["rear"] for s in sides],
        "dealer": [s["is_dealer"] for s in sides],
        "turn": "" if view["turn"] is None else str(view["turn"]),
        "count": str(view["count"]) if view["phase"] == "play" else "",
        "calls": ", ".join(last["calls"]) if last else "",
        "lurch": [s["lurch"] or "" for s in sides],
        "flags": [
            words["wins"] if view["winner"] == i else words.get(s["lurch"] or "", "")
            for i, s in enumerate(sides)
        ],
        "games": ["" if single else words["games"].format(n=s["games_won"]) for s in sides],
        # three separate players win no game points (RULES.md): none are shown
        "points": [
            "" if view["variant"] == "three-handed" else words["points"].format(n=s["game_points"])
            for s in sides
        ],
        "odds": [
            f"{name} {percent(c, over)}%" if c >= 0.2 else f"{percent(c, over)}%"
            for name, c in zip(view["names"], chances or [], strict=False)
        ]
        if shown_odds
        else [],
        # each peg over its own hole only; the rear peg waits in a start hole until the front
        # one has moved
        "under": [
            [[s["front"]], [-1 if s["front"] == 0 else min(s["rear"], s["front"])]] for s in sides
        ],
    }


def wait_for_version(page: Page, version: int) -> None:
    """Wait until the page has applied payload *version*."""
    page.locator(f'body[data-version="{version}"]').wait_for(state="attached", timeout=WAIT_MS)


def shown(page: Page) -> dict[str, Any]:
    """What the page shows now (``SHOWN_JS``), without its version."""
    seen: dict[str, Any] = page.evaluate(SHOWN_JS)
    del seen["version"]
    return seen


def chances_of(table: Table) -> list[float] | None:
    """The latest payload's ``win_probability``."""
    chances: list[float] | None = json.loads(table.server.latest()[1])["win_probability"]
    return chances


def assert_in_step(page: Page, table: Table, where: str) -> None:
    """The page shows the server's latest version, and that is the controller's view."""
    wait_for_version(page, table.server.version)
    assert shown(page) == expected(table.view, chances_of(table)), where


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser context (1920x1080, reduced motion: pegs jump instead of sliding)."""
    ctx = browser.new_context(viewport=TV, reduced_motion="reduce")
    try:
        yield ctx
    finally:
        ctx.close()


class Watched:
    """A page with its script errors and every URL it asked for."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.urls: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: self.urls.append(r.url))


@pytest.fixture
def watched(context: BrowserContext) -> Watched:
    return Watched(context.new_page())


def open_page(watched: Watched, table: Table) -> Page:
    page = watched.page
    page.goto(table.server.url)
    wait_for_version(page, table.server.version)
    return page


def play_and_check(watched: Watched, table: Table, keys: list[KeyEvent], name: str) -> int:
    """Press every key, checking the open page after each; returns how many moved the game."""
    page = watched.page
    assert_in_step(page, table, f"{name}: before the first key")
    moved = 0
    for n, key in enumerate(keys, 1):
        before = table.server.version
        table.press(key)
        moved += table.server.version != before
        assert_in_step(page, table, f"{name}: key {n} ({key})")
    assert not watched.errors
    return moved


# -- whole games ----------------------------------------------------------------------------

# Counts the elements added under the board and the panels once the page is built: each
# payload may only change text, attributes and positions.
COUNT_ADDED_JS = """() => {
  window.__added = 0;
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) window.__added++;
  }).observe(document.body, { childList: true, subtree: true });
}"""


def test_six_card_lurch_is_shown_key_by_key_with_no_element_rebuilt(
    watched: Watched, tmp_path: Path
) -> None:
    with table_for("six-card-lurch", tmp_path) as (table, keys):
        page = open_page(watched, table)
        page.evaluate(COUNT_ADDED_JS)
        moved = play_and_check(watched, table, keys, "six-card-lurch")
        assert moved > 40
        view = table.view
        assert [s["score"] for s in view["sides"]] == [121, 73]
        assert page.evaluate("() => window.__added") == 0
        card = page.locator('#sides .side[data-side="1"]')
        assert card.locator(".lurch").text_content() == "lurched!"
        assert page.locator('#sides .side[data-side="0"] .lurch').text_content() == "wins!"
        assert page.locator("#results tr:not([hidden])").count() == 1
    assert all(url.startswith(table.server.url) for url in watched.urls), watched.urls


def test_a_three_handed_deal_is_shown_key_by_key(watched: Watched, tmp_path: Path) -> None:
    with table_for("three-handed-deal", tmp_path) as (table, keys):
        open_page(watched, table)
        play_and_check(watched, table, keys, "three-handed-deal")
        page = watched.page
        assert page.locator("#sides .side:not([hidden])").count() == 3
        assert page.locator("#tracks .track:not([hidden])").count() == 3


def test_a_five_card_game_to_61_is_shown_key_by_key(watched: Watched, tmp_path: Path) -> None:
    with table_for("five-card-game", tmp_path) as (table, keys):
        open_page(watched, table)
        play_and_check(watched, table, keys, "five-card-game")
        page = watched.page
        assert page.locator("#scale .game").text_content() == "61"
        assert page.locator(".track .holes i.game").count() == 2  # one game hole a side
        assert page.locator('#lurch-line[data-hole="45"]').count() == 1
        assert page.locator("#skunk-line").is_hidden()  # five-card has no double skunk


def four_handed(tmp_path: Path) -> Table:
    config = parse_config(
        f'[game]\ndatabase = "{tmp_path / "pub.db"}"\n'
        'variant = "four-handed"\nnames = ["Us", "Them"]\nlanguage = "en"\n'
    )
    return Table(config)


def test_four_handed_partnerships_are_shown_as_teams(watched: Watched, tmp_path: Path) -> None:
    table = four_handed(tmp_path)
    try:
        page = open_page(watched, table)
        for key in ("5", "3", "4", "9", "0", "C"):  # cut, cut, the starter, three cards laid
            table.press(key)
            assert_in_step(page, table, key)
        view = table.view
        assert view["turn_name"] == "Them1" and view["count"] == 29
        players = page.locator("#sides .side .players").all_text_contents()
        assert players[:2] == ["Us1 & Us2", "Them1 & Them2"]
        assert page.locator('.side[data-side="1"] .turn').text_content() == "▶ Them1 to lay"
        assert page.locator("#series .card:not([hidden])").all_text_contents() == [
            "9♦",
            "10♦",
            "K♦",
        ]
    finally:
        table.close()


# -- between games: the players' figures ----------------------------------------------------

RECORD_ROWS = ("games", "matches", "points", "lurches", "deal", "best")


def records_shown(page: Page) -> dict[str, list[str]]:
    """The players panel's cells, row by row (the visible sides only)."""
    return {
        row: page.locator(f'#records tr[data-row="{row}"] td:not([hidden])').all_text_contents()
        for row in RECORD_ROWS
    }


def test_between_games_each_sides_record_and_their_head_to_head_are_shown(
    watched: Watched, tmp_path: Path
) -> None:
    name, presses, extra, _ = MOMENTS["between-games"]
    with table_for(name, tmp_path) as (table, keys):
        table.press(*keys[:12])  # the play of the first deal: no figures on show
        page = open_page(watched, table)
        assert page.locator("#players").is_hidden()
        for key in (*keys[12:presses], *extra):
            table.press(key)
        wait_for_version(page, table.server.version)
        players = json.loads(table.server.latest()[1])["players"]
        assert page.locator("#players").is_visible()
        # Ann lurched Bob in game 1 (121-73); Bob double skunked Ann in game 2 (123-0)
        ann, bob = players["sides"]
        assert (ann["lurches_given"], bob["double_skunks_given"]) == (1, 1)
        assert records_shown(page) == {
            "games": ["1 of 2", "1 of 2"],
            "matches": ["\u2013", "\u2013"],  # the best of three is still open
            "points": ["2", "3"],
            "lurches": ["1 / 1", "1 / 1"],  # a double skunk is a lurch here
            "deal": [
                f"{ann['dealer']['average']:.1f} / {ann['pone']['average']:.1f}",
                f"{bob['dealer']['average']:.1f} / {bob['pone']['average']:.1f}",
            ],
            "best": [f"{ann['best_hand']['points']} (crib)", str(bob["best_hand"]["points"])],
        }
        # the key file tells Ann's crib by its points: no cards kept
        assert ann["best_hand"] == {"points": 28, "cards": None, "starter": None, "crib": True}
        heads = page.locator("#records thead th.v:not([hidden])").all_text_contents()
        assert heads == ["Ann", "Bob"]
        assert page.locator("#h2h-label").text_content() == "head to head"
        assert page.locator("#h2h-text").text_content() == "games 1\u20131 \u00b7 matches 0\u20130"
        assert page.locator("#records-variant").text_content() == "six-card"
        assert not watched.errors


def test_a_double_skunked_side_is_told_so(watched: Watched, tmp_path: Path) -> None:
    name, presses, extra, _ = MOMENTS["between-games"]
    with table_for(name, tmp_path) as (table, keys):
        table.press(*keys[:presses], *extra[:-1])  # game 2 won, before the next one's cut
        view = table.view
        assert (view["winner"], [s["lurch"] for s in view["sides"]]) == (
            1,
            ["double-skunked", "none"],
        )
        page = open_page(watched, table)
        assert shown(page) == expected(view, chances_of(table))
        ann, bob = (page.locator(f'.side[data-side="{i}"]') for i in (0, 1))
        assert ann.locator(".lurch").text_content() == "double skunk!"
        assert bob.locator(".lurch").text_content() == "wins!"
        assert ann.locator(".games").text_content() == "games 1"
        assert bob.locator(".points").text_content() == "game points 3"
        assert not watched.errors


# -- the table's language ---------------------------------------------------------------------

GERMAN_LABELS = {
    "#count-label": "Wert",
    "#evening-title": "heute Abend",
    "#odds .label": "Gewinnchance",
    "#lurch-line span": "Schneider",
    "#skunk-line span": "dreifach",
    '.side[data-side="0"] .crib': "Krippe",
    "#h2h-label": "Stand",
    '#records tr[data-row="deal"] th': "\u00d8 Runde Geber / Vorhand",
}


def test_a_german_game_is_shown_in_german_key_by_key(watched: Watched, tmp_path: Path) -> None:
    with table_for("six-card-lurch", tmp_path, Language.GERMAN) as (table, keys):
        page = open_page(watched, table)
        assert page.locator("html").get_attribute("lang") == "de"
        assert {sel: page.locator(sel).text_content() for sel in GERMAN_LABELS} == GERMAN_LABELS
        differ = 0
        for n, key in enumerate(keys, 1):
            table.press(key)
            wait_for_version(page, table.server.version)
            last = table.controller.view.last
            want = expected(table.view, chances_of(table), Language.GERMAN)
            if last is not None:  # the calls in the table's words, rendered by pegboard.i18n
                german = ", ".join(peg_calls(last, Language.GERMAN))
                differ += german != want["calls"]
                want["calls"] = german
            assert shown(page) == want, f"key {n} ({key})"
        assert differ > 10  # the German words really are shown, not the view's English
        assert page.locator("#phase").text_content() == "Ann gewinnt Spiel 1 \u00b7 2 Spielpunkte"
        assert page.locator('.side[data-side="0"] .lurch').text_content() == "gewinnt!"
        assert page.locator('.side[data-side="1"] .lurch').text_content() == "Schneider!"
        assert page.locator("#results tr:first-child td.w").text_content() == "Ann schl\u00e4gt Bob"
        assert records_shown(page)["games"] == ["1 von 1", "0 von 1"]
        assert page.locator("#conn").text_content() == "live"
        assert not watched.errors


# -- the connection ---------------------------------------------------------------------------


def test_the_page_reconnects_by_itself_after_the_server_restarts(
    watched: Watched, tmp_path: Path
) -> None:
    with table_for("six-card-lurch", tmp_path) as (table, keys):
        page = open_page(watched, table)
        first, rest = keys[:12], keys[12:]  # ... Ann lays 8, count 26: a run of 4
        for key in first:
            table.press(key)
        assert_in_step(page, table, "before the restart")
        assert page.locator("#conn").text_content() == "live"
        page.evaluate("() => { window.__same_page = true; }")

        port = table.server.address[1]
        table.server.close()
        page.locator('body[data-conn="reconnecting"]').wait_for(timeout=WAIT_MS)
        assert "reconnecting" in (page.locator("#conn").text_content() or "")

        table.restart()  # the same port, a new server, a controller resumed from the journal
        assert table.server.address[1] == port
        page.locator('body[data-conn="live"]').wait_for(timeout=WAIT_MS)
        assert_in_step(page, table, "after the restart")
        for n, key in enumerate(rest, 13):
            table.press(key)
            assert_in_step(page, table, f"key {n} ({key}) after the restart")
        assert [s["score"] for s in table.view["sides"]] == [121, 73]
        assert page.evaluate("() => window.__same_page") is True  # never reloaded
        assert not watched.errors


def test_the_page_says_paused_when_the_server_says_so(watched: Watched, tmp_path: Path) -> None:
    with table_for("readme-session", tmp_path) as (table, keys):
        table.press(*keys[:3])
        page = open_page(watched, table)
        table.server.close()  # "paused" to every stream, then the streams end
        page.locator("#conn", has_text="paused").wait_for(timeout=WAIT_MS)


def test_a_quiet_page_says_how_old_its_last_update_is(
    context: BrowserContext, tmp_path: Path
) -> None:
    with table_for("readme-session", tmp_path) as (table, keys):
        table.press(*keys[:3])
        page = context.new_page()
        page.clock.install()
        page.goto(table.server.url)
        wait_for_version(page, table.server.version)
        assert page.locator("#conn").text_content() == "live"
        page.clock.fast_forward("02:05")  # two minutes and five seconds without news
        page.locator("#conn", has_text="updated 2 min ago").wait_for(timeout=WAIT_MS)
        table.press(keys[3])
        wait_for_version(page, table.server.version)
        assert page.locator("#conn").text_content() == "live"


# -- golden screenshots (and the README's pictures) -----------------------------------------

# name: (key file, its first N keys, then these keys, a check that the moment is still reached)
MOMENTS: dict[str, tuple[str, int, tuple[str, ...], dict[str, Any]]] = {
    "the-play": ("six-card-lurch", 12, (), {"phase": "play", "count": 26}),
    "a-count": ("three-handed-deal", 28, (), {"phase": "starter", "deal": 2}),
    "lurched": ("six-card-lurch", 74, (), {"phase": "game over", "winner": 0}),
    # then game 2 pegged by hand in three pegs (Bob double skunks Ann), and on to game 3
    "between-games": (
        "six-card-lurch",
        74,
        ("#", "D", "5", "9", "B", "D", "5", "9", "B", "D", "5", "B", "#"),
        {"phase": "cut", "game": 3},
    ),
    "five-card": ("five-card-game", 6, (), {"phase": "play", "count": 30, "target": 61}),
    "lurched-de": ("six-card-lurch", 74, (), {"phase": "game over", "winner": 0}),
}
LANGUAGE_OF = {"lurched-de": Language.GERMAN}  # the other moments are English
GOLDEN_DIR = ROOT / "tests" / "golden" / "web"
DOC_SIZE = "1280x720"  # docs/pub/ keeps the smaller shots: the README stays light


@pytest.mark.parametrize("size", [TV, SMALL_TV], ids=["1920x1080", "1280x720"])
@pytest.mark.parametrize("moment", list(MOMENTS))
def test_the_page_looks_as_it_did(
    browser: Browser,
    tmp_path: Path,
    moment: str,
    size: dict[str, int],
    screenshot_golden: ScreenshotCheck,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name, presses, extra, check = MOMENTS[moment]
    language = LANGUAGE_OF.get(moment, Language.ENGLISH)
    # the games finish at 20:00 UTC on one evening, whenever the test runs: the page shows it
    monkeypatch.setattr("pegboard.journal._now", lambda: "2026-11-26T20:00:00.000+00:00")
    with table_for(name, tmp_path, language) as (table, keys):
        table.started = datetime(2026, 11, 26, 22, 30, tzinfo=UTC)
        table.press(*keys[:presses], *extra)
        view = table.view
        assert {key: view[key] for key in check} == check, f"{name} no longer reaches {moment}"
        context = browser.new_context(viewport=size, reduced_motion="reduce")
        try:
            page = context.new_page()
            page.goto(table.server.url)
            wait_for_version(page, table.server.version)
            png = page.screenshot()
        finally:
            context.close()
    label = f"{size['width']}x{size['height']}"
    screenshot_golden(png, f"{moment}-{label}")
    if label == DOC_SIZE and request.config.getoption("--update-golden", default=False):
        DOCS.mkdir(parents=True, exist_ok=True)
        (DOCS / f"{moment}.png").write_bytes((GOLDEN_DIR / f"{moment}-{label}.png").read_bytes())


def test_the_readme_pictures_are_the_golden_screenshots() -> None:
    for moment in MOMENTS:
        doc = DOCS / f"{moment}.png"
        assert doc.exists(), f"{doc.name}: run pytest tests/web --update-golden"
        assert doc.read_bytes() == (GOLDEN_DIR / f"{moment}-{DOC_SIZE}.png").read_bytes()


def test_the_readme_shows_every_picture_of_the_page_and_no_other() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"\(docs/pub/([\w-]+)\.png\)", readme))
    assert shown == set(MOMENTS) == {doc.stem for doc in DOCS.glob("*.png")}


# -- make test's browser ----------------------------------------------------------------------

NEED = ROOT / "tools" / "need_system_packages.sh"


@pytest.mark.skipif(shutil.which("bash") is None, reason="need_system_packages.sh is bash")
def test_a_missing_browser_is_named_in_one_line_when_it_cannot_be_installed() -> None:
    done = subprocess.run(
        ["bash", str(NEED), "sh=sh", "no-such-command-here=chromium", "/no/such/font=fonts-x"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env={**os.environ, "NEED_SYSTEM_PACKAGES_NO_INSTALL": "1"},
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        "make test: needs Debian's chromium fonts-x: sudo apt-get install chromium fonts-x\n"
    )


def test_nothing_is_installed_when_every_command_is_there() -> None:
    done = subprocess.run(
        ["bash", str(NEED), "sh=dash", f"{NEED}=pegboard"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
