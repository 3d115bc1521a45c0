"""The play hint at the table: ``*`` in the play, the player's cards typed, the best card shown;
off by the config switch and under a lock; never a command, never the journal."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from pathlib import Path
from types import SimpleNamespace

import pytest

from pegboard.config.settings import parse_config
from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent
from pegboard.engine.cards import Card, parse_cards
from pegboard.engine.playadvice import advise_play
from pegboard.i18n import Language
from pegboard.journal import Journal
from pegboard.table import playhint
from pegboard.table.controller import Controller
from pegboard.table.playhint import PlayHinter
from pegboard.table.wiring import build_controller, sim_ports
from pegboard.ui.keypad import Layout
from pegboard.ui.playhint import advice_line, hint_allowed
from pegboard.ui.screens import ScreenKind


def keys(ctl: Controller, text: str) -> None:
    for word in text.split():
        ctl.handle(KeyEvent(word, KeyAction.PRESS))


def everything_in(path: Path) -> list[str]:
    """Every row of every table of the journal at *path*, as SQL (read on a connection of its
    own, so the journal's own is not disturbed)."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return list(db.iterdump())


def hinted(tmp_path: Path, *, allowed: bool = True, language: Language = Language.ENGLISH
           ) -> Controller:  # fmt: skip
    hinter = PlayHinter(
        language=language, layout=Layout.FOUR_BY_FOUR, allowed=lambda: allowed,
        submit=lambda work: work(),  # at once: the line is there on the next tick
    )  # fmt: skip
    return Controller(store=Journal(tmp_path / "g.db"), names=("Ann", "Bob"), clock=FakeClock(),
                      language=language, play_hint=hinter)  # fmt: skip


def test_the_hint_shows_the_best_card_and_writes_nothing(tmp_path: Path) -> None:
    ctl = hinted(tmp_path)
    keys(ctl, "9 3 5 C")  # Ann cuts 9, Bob 3: Bob deals; starter 5; Ann leads a king (C)
    before = ctl.store.commands()
    rows = everything_in(ctl.store.path)
    assert sum(row.startswith("INSERT") for row in rows) >= len(before)  # the game is in it
    state = ctl.state
    keys(ctl, "*")  # Bob to play: the hint opens
    screen = ctl.screen
    assert screen.kind is ScreenKind.ENTRY and screen.entry is not None
    assert (screen.entry.title, screen.entry.text) == ("hint", "_ _ _ _")
    keys(ctl, "3 4 A")
    assert ctl.screen.entry is not None and ctl.screen.entry.text == "3 4 J _"
    keys(ctl, "B")  # the hand is whole: worked out (at once here), shown after the tick
    ctl.tick()
    entry = ctl.screen.entry
    assert entry is not None
    starter, king = ctl.state.table.starter, ctl.state.table.play.laid[0][1]  # type: ignore[union-attr]
    assert starter is not None
    advice = advise_play(parse_cards("3C 4C JC QC"), [king], starter, dealer=True)
    assert entry.hint == advice_line(advice, Language.ENGLISH)
    assert entry.hint.startswith("lay ") and " over " in entry.hint
    keys(ctl, "7")  # any key closes the hint and does nothing else
    assert ctl.screen.kind is not ScreenKind.ENTRY or ctl.screen.entry.title != "hint"  # type: ignore[union-attr]
    assert ctl.state == state and ctl.store.commands() == before
    assert everything_in(ctl.store.path) == rows  # no command, mark, outbox row or setting
    keys(ctl, "7")  # the keypad has the keys again: Bob lays a 7
    assert len(ctl.store.commands()) == len(before) + 1


def test_the_answer_names_the_best_card_and_its_margin() -> None:
    advice = advise_play(parse_cards("5H 10D 2S 4C"), [Card.parse("JC")], Card.parse("KH"),
                         dealer=True)  # fmt: skip
    best, second = advice.options[0], advice.options[1]
    assert best.card is not None and second.card is not None
    margin = best.net_ev - second.net_ev
    assert advice_line(advice, Language.ENGLISH) == (
        f"lay {best.card.rank.label}: {margin:+.1f} over {second.card.rank.label}"
    )
    assert advice_line(advice, Language.GERMAN) == (
        f"{best.card.rank.label} legen: {margin:+.1f} vor {second.card.rank.label}".replace(
            ".", ","
        )
    )


def test_star_erases_and_closes_while_typing(tmp_path: Path) -> None:
    ctl = hinted(tmp_path)
    keys(ctl, "9 3 5 C * 3 4")
    keys(ctl, "*")
    assert ctl.screen.entry is not None and ctl.screen.entry.text == "3 _ _ _"
    keys(ctl, "* *")
    assert ctl.screen.kind is ScreenKind.PLAY


@pytest.mark.parametrize(
    ("config_on", "locked", "opens"),
    [(True, False, True), (False, False, False), (True, True, False), (False, True, False)],
)
def test_the_switch_and_the_lock_keep_it_off(
    tmp_path: Path, config_on: bool, locked: bool, opens: bool
) -> None:
    ctl = hinted(tmp_path, allowed=hint_allowed(config_on, locked))
    keys(ctl, "9 3 5 C *")
    entry = ctl.screen.entry
    assert (entry is not None and entry.title == "hint") is opens
    if not opens:  # "*" means what it meant before: nothing here
        assert ctl.screen.kind is ScreenKind.PLAY


def test_the_config_switch(tmp_path: Path) -> None:
    on = parse_config(f'[game]\ndatabase = "{tmp_path / "a.db"}"\n')
    off = parse_config(f'[game]\ndatabase = "{tmp_path / "b.db"}"\n[display]\nplay_hint = false\n')
    assert (on.display.play_hint, off.display.play_hint) == (True, False)
    for config, opens in ((on, True), (off, False)):
        with Journal(config.game.database) as store:
            ctl = build_controller(config, store, sim_ports(config), clock=FakeClock())
            keys(ctl, "9 3 5 C *")
            shown = ctl.screen.entry
            assert (shown is not None and shown.title == "hint") is opens


def test_the_work_runs_in_a_thread_and_the_line_comes_on_a_tick(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[threading.Thread] = []

    class Kept(threading.Thread):  # a real thread, kept so that the test can wait for it
        def start(self) -> None:
            started.append(self)
            super().start()

    monkeypatch.setattr(playhint, "threading", SimpleNamespace(Thread=Kept))
    config = parse_config(f'[game]\ndatabase = "{tmp_path / "g.db"}"\n')
    with Journal(config.game.database) as store:
        ctl = build_controller(config, store, sim_ports(config), clock=FakeClock())
        keys(ctl, "9 3 5 C * 3 4 A B")
        assert [t.name for t in started] == ["play-hint"]
        started[0].join(timeout=60)  # a hang guard: the lead takes well under a second
        assert not started[0].is_alive()
        # the answer waits for the loop's tick: the worker thread never draws
        assert ctl.screen.entry is not None and ctl.screen.entry.hint == "thinking ..."
        ctl.tick()
        assert ctl.screen.entry is not None and ctl.screen.entry.hint.startswith("lay ")


def test_german(tmp_path: Path) -> None:
    ctl = hinted(tmp_path, language=Language.GERMAN)
    keys(ctl, "9 3 5 C *")
    assert ctl.screen.entry is not None and ctl.screen.entry.title == "Tipp"
    keys(ctl, "3 4 A B")
    ctl.tick()
    assert ctl.screen.entry is not None and " legen: " in ctl.screen.entry.hint
