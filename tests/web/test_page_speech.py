"""The pub page says the calls aloud, opt-in: ``?speak`` shows a button, and once pressed each
new peg is said with the browser's speech in the table's language (headless Chromium, the
browser's ``speechSynthesis`` replaced by a recorder before the page's script runs)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pegboard.i18n import Language

from .test_page import TV, Table, table_for, wait_for_version

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

# every utterance, and every cancel, in order: [text, lang] or ["cancel"]
RECORDER = """
window.__said = [];
Object.defineProperty(window, "speechSynthesis", {
  configurable: true,
  value: {
    speak: (words) => window.__said.push([words.text, words.lang]),
    cancel: () => window.__said.push(["cancel"]),
  },
});
"""

# deal 1 of six-card-lurch.keys (Bob deals): the cut, the starter, Ann 9, Bob 10, Ann K, go, go
KEYS = ["5", "3", "4", "9", "0", "C", "#", "#"]


@pytest.fixture
def recorded(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=TV, reduced_motion="reduce")
    context.add_init_script(RECORDER)
    try:
        yield context.new_page()
    finally:
        context.close()


def press(page: Page, table: Table, *keys: str) -> None:
    for key in keys:
        table.press(key)
        wait_for_version(page, table.server.version)


def said(page: Page) -> list[list[str]]:
    found: list[list[str]] = page.evaluate("() => window.__said")
    return [entry for entry in found if entry != ["cancel"]]


def test_without_speak_in_the_address_the_page_has_no_button_and_says_nothing(
    recorded: Page, tmp_path: Path
) -> None:
    with table_for("six-card-lurch", tmp_path) as (table, _):
        recorded.goto(table.server.url)
        wait_for_version(recorded, table.server.version)
        assert recorded.locator("#speak").is_hidden()
        press(recorded, table, *KEYS)
        assert recorded.evaluate("() => window.__said") == []


def test_once_pressed_each_new_peg_is_said_and_an_undo_stops_the_words(
    recorded: Page, tmp_path: Path
) -> None:
    with table_for("six-card-lurch", tmp_path) as (table, _):
        recorded.goto(table.server.url + "?speak")
        wait_for_version(recorded, table.server.version)
        button = recorded.locator("#speak")
        assert button.is_visible() and button.text_content() == "\U0001f50a hear the calls"
        press(recorded, table, "5", "3")
        assert said(recorded) == []  # not pressed yet: nothing is said
        button.click()
        assert button.text_content() == "\U0001f507 silence the calls"
        press(recorded, table, *KEYS[2:])
        assert said(recorded) == [["Ann, one for the go", "en-GB"]]
        press(recorded, table, "6", "7", "5")  # Bob's run of 3
        assert said(recorded)[-1] == ["Bob, a run of 3 for 3", "en-GB"]
        # new words cut short what is still being said: a cancel comes first
        heard = recorded.evaluate("() => window.__said")
        assert heard[-2:] == [["cancel"], ["Bob, a run of 3 for 3", "en-GB"]]
        before = recorded.evaluate("() => window.__said.length")
        press(recorded, table, "undo")  # the run taken back: the words stop, nothing is said
        assert recorded.evaluate("() => window.__said")[before:] == [["cancel"]]
        button.click()  # off again
        press(recorded, table, "5")
        assert said(recorded)[-1] == ["Bob, a run of 3 for 3", "en-GB"]  # nothing new said


def test_a_german_table_is_heard_in_german(recorded: Page, tmp_path: Path) -> None:
    with table_for("six-card-lurch", tmp_path, Language.GERMAN) as (table, _):
        recorded.goto(table.server.url + "?speak")
        wait_for_version(recorded, table.server.version)
        button = recorded.locator("#speak")
        assert button.text_content() == "\U0001f50a Ansagen h\u00f6ren"
        button.click()
        press(recorded, table, *KEYS, "6", "7", "5")
        assert said(recorded) == [
            ["Ann, einen f\u00fcrs Passen", "de-DE"],
            ["Bob, 3 f\u00fcr die Dreierfolge", "de-DE"],
        ]
