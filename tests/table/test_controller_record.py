"""The menu's head-to-head page through the controller: real key presses, a journal with games."""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules
from pegboard.journal import Journal
from pegboard.table.controller import Controller
from pegboard.ui.keypad import Layout
from pegboard.ui.results import HeadToHeadView
from pegboard.ui.screens import ScreenKind

# cut (Bob deals), then one side pegs 59 + 59 + 3: 121 against 0, a double skunk (3 points)
ANN_WINS = "9 3 D 5 9 A D 5 9 A D 3 A"
BOB_WINS = "9 3 D 5 9 B D 5 9 B D 3 B"


class Reads:
    """Counts the journal's history reads (the page reads it once a press, never per key)."""

    def __init__(self, store: Journal) -> None:
        self.count = 0
        self._history = store.history

        def history() -> list:  # type: ignore[type-arg]
            self.count += 1
            return self._history()

        store.history = history  # type: ignore[method-assign]


def table(tmp_path: Path, layout: Layout = Layout.FOUR_BY_FOUR) -> tuple[Controller, Reads]:
    store = Journal(tmp_path / "pegboard.db")
    ctl = Controller(
        store=store,
        rules=Rules.six_card(),
        names=("Ann", "Bob"),
        match_format=MatchFormat.SINGLE,
        layout=layout,
    )
    return ctl, Reads(store)


def press(ctl: Controller, keys: str) -> None:
    from pegboard.devices.ports import KeyAction, KeyEvent

    for word in keys.split():
        key, _, long = word.partition(":")
        ctl.handle(KeyEvent(key, KeyAction.LONG_PRESS if long else KeyAction.PRESS))


def test_menu_d_shows_the_two_sides_records_and_any_key_leaves(tmp_path: Path) -> None:
    ctl, reads = table(tmp_path)
    press(ctl, f"{ANN_WINS} # {ANN_WINS} # {BOB_WINS} #")  # # after each: a new single match
    assert reads.count == 0  # no key so far read the history
    commands = ctl.store.commands()
    press(ctl, "ok:long D")
    screen = ctl.screen
    assert screen.kind is ScreenKind.HEAD_TO_HEAD
    assert screen.record == HeadToHeadView(("Ann", "Bob"), 3, (2, 1), 3, (2, 1), (6, 3), (2, 1))
    assert reads.count == 1
    press(ctl, "5")  # any key leaves the page, and does nothing else
    assert ctl.screen.kind is not ScreenKind.HEAD_TO_HEAD
    assert ctl.store.commands() == commands
    assert ctl.entry_state == ctl.entry_state.cleared()
    press(ctl, "9 3")  # the keys mean what they meant before
    assert ctl.view.dealer_name == "Bob"
    assert reads.count == 1


def test_the_page_says_when_the_sides_have_not_met(tmp_path: Path) -> None:
    ctl, _ = table(tmp_path)
    press(ctl, "ok:long D")
    assert ctl.screen.record == HeadToHeadView(("Ann", "Bob"))


@pytest.mark.parametrize("keys", ["ok:long D", "ok:long 5 ok:long D"])
def test_a_3x4_keypad_has_no_d_in_the_menu(tmp_path: Path, keys: str) -> None:
    ctl, reads = table(tmp_path, Layout.THREE_BY_FOUR)
    press(ctl, keys)
    assert ctl.screen.kind is not ScreenKind.HEAD_TO_HEAD
    assert reads.count == 0
