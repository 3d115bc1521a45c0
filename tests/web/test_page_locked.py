"""The pub page under a tournament lock (issue 24), in headless Chromium: the standings only.
Between two games (when the page would show each side's figures and head to head) and with
the win probability on, the lock takes the figures and the odds bar away and puts its badge up,
in the table's language; the scores and the evening's results stay; unlocked, all come back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pegboard.i18n import Language

from .test_page import MOMENTS, TV, Table, table_for, wait_for_version

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=TV, reduced_motion="reduce")
    try:
        yield context.new_page()
    finally:
        context.close()


def shown(page: Page, table: Table) -> dict[str, object]:
    wait_for_version(page, table.server.version)
    return {
        "lock": page.locator("#lock").is_visible(),
        "lock text": page.locator("#lock").text_content(),
        "odds": page.locator("#odds").get_attribute("data-shown"),
        "figures": page.locator("#players").is_visible(),
        "scores": page.locator("#sides .side:not([hidden]) .score").all_text_contents(),
        "tonight": page.locator('#results tr[data-game="yes"]').count(),
    }


@pytest.mark.parametrize(
    ("language", "badge"),
    [(Language.ENGLISH, "tournament: standings only"), (Language.GERMAN, "Turnier: nur der Stand")],
)
def test_the_lock_leaves_the_standings_only(
    page: Page, tmp_path: Path, language: Language, badge: str
) -> None:
    name, presses, extra, _ = MOMENTS["between-games"]
    with table_for(name, tmp_path, language) as (table, keys):
        locked = [False]
        table.publisher.locked = lambda: locked[0]

        def lock(on: bool) -> dict[str, object]:
            """What the controller does when the hub's lock comes or goes: publish again."""
            locked[0] = on
            table.publisher.publish(table.controller.state, table.controller.view)
            return shown(page, table)

        table.press(*keys[:12])  # the play of the first deal: the odds bar is up
        page.goto(table.server.url)
        before = shown(page, table)
        assert before["lock"] is False and before["odds"] == "yes"
        during = lock(True)
        assert during["lock"] is True and badge in str(during["lock text"])
        assert during["odds"] == "no" and during["scores"] == before["scores"]
        assert lock(False) == before
        table.press(*keys[12:presses], *extra)  # between games: each side's figures are up
        before = shown(page, table)
        assert before["figures"] is True and int(str(before["tonight"])) == 2
        during = lock(True)
        assert during["lock"] is True and during["figures"] is False
        assert during["scores"] == before["scores"] and during["tonight"] == 2  # results stay
        assert lock(False) == before
