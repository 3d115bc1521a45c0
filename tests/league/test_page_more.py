"""The league page's latest games say how many more there are when they do not all show, beside
their heading: the games past those the payload lists (its ``more``) and the lines that did not
fit, in the league's language (Chromium through Playwright, as ``test_page_fit.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pegboard.league.service import LeagueService
from pegboard.web.server import WebServer
from tests.league.test_page_fit import (  # noqa: F401  (league: the fixture)
    SIZES,
    add_boards,
    finished,
    league,
    measure,
    topic,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser

MORE_JS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const panel = box(document.getElementById("recent-panel"));
  const more = document.getElementById("more-games");
  const shown = [...document.querySelectorAll("#recent li")].filter((li) => !li.hidden);
  return {
    lang: document.documentElement.lang,
    shown: shown.length,
    more: more.hidden ? null : more.textContent,
    inPanel: !more.hidden && box(more).top >= panel.top && box(more).bottom <= panel.bottom + 0.5
      && box(more).right <= panel.right + 0.5
      && shown.every((li) => box(li).top >= box(more).bottom - 0.5),
  };
}"""


@pytest.mark.parametrize(("language", "word"), [("en", "more"), ("de", "weitere")])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_latest_games_say_how_many_more_there_are(
    browser: Browser,
    league: tuple[LeagueService, WebServer, Path],  # noqa: F811
    size: dict[str, int],
    language: str,
    word: str,
) -> None:
    service, web, folder = league
    service.language = language
    for number in range(6):  # 18 games: the payload lists 12 and says 6 more
        service.handle(
            topic("red-lion", "table-2", "finished"),
            finished(200 + number, "Wilhelmina", "Maximilian", 60),
        )
    add_boards(service, folder, 5)
    payload = service.payload()
    assert (len(payload["recent"]), payload["more"], payload["games"]) == (12, 6, 18)
    web.publish(payload)
    shown = measure(browser, web, size, MORE_JS)
    assert 1 <= shown["shown"] <= 12
    assert shown["more"] == f"+{18 - shown['shown']} {word}"
    assert shown["inPanel"]


def test_all_the_latest_games_showing_need_no_line(
    browser: Browser,
    league: tuple[LeagueService, WebServer, Path],  # noqa: F811
) -> None:
    service, web, _ = league
    payload = service.payload()  # 12 games, 12 listed, no boards: every line fits
    assert payload["more"] == 0
    web.publish(payload)
    shown = measure(browser, web, SIZES[0], MORE_JS)
    assert (shown["shown"], shown["more"]) == (12, None)
