"""The menu's head-to-head page through the controller: real key presses, a journal with games."""

from __future__ import annotations

import functools
import queue
import threading
import time
from pathlib import Path

import pytest

from pegboard.devices.ports import KeyEvent
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules
from pegboard.i18n import Language, translator
from pegboard.journal import Journal
from pegboard.journal.reader import HistoryReader
from pegboard.table.controller import Controller
from pegboard.ui.keypad import Layout
from pegboard.ui.results import HeadToHeadView, render_head_to_head
from pegboard.ui.screens import ScreenKind

# cut (Bob deals), then one side pegs 59 + 59 + 3: 121 against 0, a double skunk (3 points)
ANN_WINS = "9 3 D 5 9 A D 5 9 A D 3 A"
BOB_WINS = "9 3 D 5 9 B D 5 9 B D 3 B"


class Reads:
    """Counts the journal's history reads (the page reads it once a press, never per key)."""

    def __init__(self, store: Journal) -> None:
        self.count = 0
        self._latest = store.latest_match

        def latest_match() -> object:
            self.count += 1
            return self._latest()

        store.latest_match = latest_match  # type: ignore[method-assign,assignment]


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


# -- with the journal's history reader (the daemon's way) ---------------------------------------

BOUND = 10.0  # seconds: the most a read may take to come on a loaded machine
FAST = 0.25  # seconds: what a press may take here while the reader is busy (~10 ms measured)


class Gate:
    """Holds every history read at its start until ``open``; says when one is waiting."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.opened, self.waiting = threading.Event(), threading.Event()
        self.reads = 0
        latest_match = Journal.latest_match

        def slow(store: Journal) -> object:
            assert threading.current_thread() is not threading.main_thread()
            self.reads += 1
            self.waiting.set()
            assert self.opened.wait(BOUND)
            return latest_match(store)

        monkeypatch.setattr(Journal, "latest_match", slow)

    def open(self) -> None:
        self.opened.set()


def read_table(tmp_path: Path) -> tuple[Controller, HistoryReader, queue.Queue[KeyEvent | None]]:
    """The test module's table, its three matches played, then a controller with a reader."""
    ctl, _ = table(tmp_path)
    press(ctl, f"{ANN_WINS} # {ANN_WINS} # {BOB_WINS} #")
    ctl.store.close()
    store = Journal(tmp_path / "pegboard.db")
    reader = HistoryReader(store.path)
    ctl = Controller(store=store, names=("Ann", "Bob"), history=reader)
    events: queue.Queue[KeyEvent | None] = queue.Queue()
    ctl._records.wake = functools.partial(events.put, None)  # what run() does
    reader.start()
    return ctl, reader, events


def timed_press(ctl: Controller, keys: str) -> float:
    start = time.perf_counter()
    press(ctl, keys)
    return time.perf_counter() - start


def test_a_slow_history_never_holds_up_a_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate(monkeypatch)
    ctl, reader, events = read_table(tmp_path)
    try:
        assert gate.waiting.wait(BOUND)  # the reader is held in its first read
        assert timed_press(ctl, "9 3") < FAST  # the cut: a state change, journalled
        assert ctl.view.dealer_name == "Bob"
        assert timed_press(ctl, "ok:long D") < FAST
        waiting = ctl.screen
        assert waiting.kind is ScreenKind.HEAD_TO_HEAD and waiting.record is not None
        assert waiting.record == HeadToHeadView(("Ann", "Bob"), reading=True)
        ctl.tick()
        assert ctl.screen == waiting  # still reading: nothing changes
        gate.open()
        assert events.get(timeout=BOUND) is None  # the reader wakes the controller's loop
        ctl.tick()
        shown = ctl.screen.record
        assert shown == HeadToHeadView(("Ann", "Bob"), 3, (2, 1), 3, (2, 1), (6, 3), (2, 1))
        assert reader.reads >= 1 and gate.reads >= 1
    finally:
        gate.open()
        reader.close()
        ctl.store.close()


def test_the_page_is_shown_at_once_when_the_read_is_current(tmp_path: Path) -> None:
    ctl, reader, events = read_table(tmp_path)
    try:
        assert events.get(timeout=BOUND) is None  # the first read (poked at construction)
        press(ctl, "ok:long D")
        assert ctl.screen.record == HeadToHeadView(
            ("Ann", "Bob"), 3, (2, 1), 3, (2, 1), (6, 3), (2, 1)
        )
        press(ctl, "5")  # leave it, then win one more game: the reader is poked again
        press(ctl, ANN_WINS)
        press(ctl, "ok:long D")
        record = ctl.screen.record
        if record is not None and record.reading:  # the read of the win may still be going
            assert events.get(timeout=BOUND) is None
            ctl.tick()
            record = ctl.screen.record
        assert record == HeadToHeadView(("Ann", "Bob"), 4, (3, 1), 4, (3, 1), (9, 3), (3, 1))
    finally:
        reader.close()
        ctl.store.close()


def test_pokes_come_only_when_the_evening_changes(tmp_path: Path) -> None:
    ctl, reader, _ = read_table(tmp_path)
    try:
        asked = reader.asked
        press(ctl, "9 3 D 5 9 A D 5 9 A")  # a cut and pegs: the evening is the same
        assert reader.asked == asked
        press(ctl, "D 3 A")  # Ann wins: a new evening
        assert reader.asked == asked + 1
    finally:
        reader.close()
        ctl.store.close()


@pytest.mark.parametrize("size", [(128, 64), (128, 32)], ids=["128x64", "128x32"])
@pytest.mark.parametrize("language", list(Language), ids=lambda lang: lang.value)
def test_the_waiting_page_says_the_scores_are_being_read(
    size: tuple[int, int], language: Language
) -> None:
    reading = render_head_to_head(HeadToHeadView(("Ann", "Bob"), reading=True), size, "1",
                                  language=language)  # fmt: skip
    unmet = render_head_to_head(HeadToHeadView(("Ann", "Bob")), size, "1", language=language)
    assert reading.size == size and reading.tobytes() != unmet.tobytes()
    words = translator(language).gettext("reading the scores…")
    assert words != "reading the scores…" or language is Language.ENGLISH
