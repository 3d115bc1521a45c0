"""The tournament night's projector page in Chromium (Playwright, as the league page's tests):
60 players at 1920x1080 and 1280x720, in English and German: every standings row and every
name whole inside the screen, every table of the round whole, no script error; and golden
screenshots of each (tests/golden/league/tourney-*.png, looked at by eye when made)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pegboard.league.tourney_projector import PROJECTOR_DIR
from pegboard.tourney.night import Correction, Night, Result, correct, enter, report, seat
from pegboard.tourney.projector import projector_view
from pegboard.tourney.steps import Tourney
from pegboard.web.server import WebServer
from tests.web.conftest import compare_screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Browser

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "league"
SIZES = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
WAIT_MS = 60_000  # a hang guard only
NAMES = (  # ten letters, the most a name may have, and wide ones first
    "Wilhelmina", "Maximilian", "Montgomery", "Bartholome", "Gwendolynn", "Konstantin",
    "Bernadette", "Jacqueline", "Wolfhardtt", "Marguerite", "Christophe", "Mwangiwawa",
    "Ann", "Bob", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou", "Max",
    "Ned", "Olga", "Pat", "Quinn", "Rosa", "Sam", "Tess", "Uma", "Vic", "Wes", "Xena",
    "Yuri", "Zoe", "Abigail", "Benedict", "Cordelia", "Dominic", "Evangeline"[:10],
    "Frederick", "Genevieve", "Horatio", "Isadora", "Jeremiah", "Katharina", "Leopold",
    "Magdalena", "Nathaniel", "Octavia", "Peregrine", "Rosalind", "Sebastian", "Theodora",
    "Valentina", "Winifred", "Zachariah",
)  # fmt: skip


def night_of_60() -> Tourney:
    """60 players, 9 games: five rounds played, the sixth seated and half played, a
    correction and a playoff tie among them somewhere."""
    assert len(NAMES) == len(set(NAMES)) == 60
    rng = random.Random(60)
    night = Night("Red Lion club night", 9, boards=tuple(f"red-lion/b{i}" for i in range(1, 19)))
    for name in NAMES:
        night = enter(night, name)
    for number in range(1, 7):
        night = seat(night, rng)
        pairings = night.rounds[-1].pairings
        for p in pairings[: len(pairings) // 2] if number == 6 else pairings:
            score = rng.randint(60, 120)
            night = report(night, Result(number, p.table, p.first, p.second, 121, score, p.board))
    p = night.rounds[0].pairings[0]
    fix = Result(1, p.table, p.second, p.first, 121, 100)
    night = correct(night, Correction(fix, "Pat", "21:40", "scores swapped"))
    return Tourney(night, locked=True)


@pytest.fixture
def projector() -> Iterator[WebServer]:
    web = WebServer("127.0.0.1", 0, static_dir=PROJECTOR_DIR)
    web.start()
    try:
        yield web
    finally:
        web.close()


MEASURE_JS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const inside = (el, outer) => {
    const r = box(el), o = box(outer);
    return r.top >= o.top - 0.5 && r.bottom <= o.bottom + 0.5 && r.left >= o.left - 0.5 &&
      r.right <= o.right + 0.5 && r.height > 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  };
  const rows = [...document.querySelectorAll(".standings tbody tr")];
  const panel = document.getElementById("standings-panel");
  const tables = [...document.querySelectorAll("#tables .table")];
  const tpanel = document.getElementById("tables-panel");
  return {
    names: rows.map((r) => r.dataset.name),
    rowsOutside: rows.filter((r) => !inside(r, panel)).map((r) => r.dataset.name),
    namesCut: [...document.querySelectorAll(".standings td.name, #tables .who")]
      .filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent),
    overlaps: (() => {
      const parts = [...document.querySelectorAll(".standings")].map(box);
      const wide = [...document.querySelectorAll("#tables .table, #recent li")]
        .filter((e) => e.scrollWidth > e.clientWidth + 1).length;
      return wide + parts.filter((r, i) => i > 0 && r.left < parts[i - 1].right - 1).length;
    })(),
    tables: tables.length,
    tablesOutside: tables.filter((t) => !inside(t, tpanel)).map((t) => t.dataset.table),
    playing: tables.filter((t) => t.dataset.playing === "true").length,
    lock: document.getElementById("lock").hidden ? "" : document.getElementById("lock").textContent,
    key: document.getElementById("key").textContent,
    round: document.getElementById("round").textContent,
    recent: document.querySelectorAll("#recent li").length,
    latest: document.querySelector("#recent li")?.textContent ?? "",
    scroll: [document.documentElement.scrollWidth <= innerWidth,
             document.documentElement.scrollHeight <= innerHeight],
  };
}"""


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_sixty_players_every_row_and_name_whole(
    browser: Browser,
    projector: WebServer,
    request: pytest.FixtureRequest,
    size: dict[str, int],
    language: str,
) -> None:
    tourney = night_of_60()
    view = projector_view(tourney, language)
    projector.publish(view)
    page = browser.new_page(viewport=size)  # type: ignore[arg-type]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(projector.url)
        page.locator(f'body[data-version="{projector.version}"]').wait_for(
            state="attached", timeout=WAIT_MS
        )
        shown: dict[str, Any] = page.evaluate(MEASURE_JS)
        png = page.screenshot()
    finally:
        page.close()
    assert errors == []
    assert shown["names"] == [line["name"] for line in view["standings"]]
    assert len(shown["names"]) == 60
    assert shown["rowsOutside"] == []
    assert shown["namesCut"] == []
    assert shown["overlaps"] == 0
    assert shown["tables"] == 30 and shown["tablesOutside"] == []
    assert shown["playing"] == 15
    assert shown["recent"] > 0
    assert shown["scroll"] == [True, True]
    latest = view["recent"][0]  # names its round: a correction of an old one is not this one's
    where = "Runde {round}, Tisch {table}" if language == "de" else "round {round}, table {table}"
    assert where.format(**latest) in shown["latest"]
    if language == "de":
        assert (shown["lock"], shown["round"]) == ("TURNIER", "Runde 6 von 9")
        assert "die besten 15 kommen weiter" in shown["key"]
    else:
        assert (shown["lock"], shown["round"]) == ("TOURNAMENT", "Round 6 of 9")
        assert "top 15 qualify" in shown["key"]
    update = bool(request.config.getoption("--update-golden", default=False))
    name = f"tourney-{language}-{size['width']}x{size['height']}"
    compare_screenshot(png, name, update=update, directory=GOLDEN)
