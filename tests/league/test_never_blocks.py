"""The network never delays a key press: ``LeaguePublisher.on_change`` (called by the
controller's thread) returns while the publisher's network side is stuck, and the newest view is
sent once the network moves again."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from pegboard.config.league import LeagueConfig
from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules
from pegboard.engine.view import render_view
from pegboard.journal import Journal
from pegboard.journal.readonly import _own_writers
from pegboard.league.publisher import LeaguePublisher
from tests.league.conftest import Mosquitto, wait_until

Make = Callable[..., Mosquitto]
GENEROUS = 30.0
"""Seconds a join may take before the test calls on_change stuck (it returns at once)."""


def test_on_change_returns_while_the_network_side_is_blocked(
    tmp_path: Path, mosquitto: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    broker = mosquitto().start()
    db = tmp_path / "board.db"
    store = Journal(db, outbox=True)
    state = store.new_match(Rules.six_card(), ("Ann", "Bob"))
    config = LeagueConfig("127.0.0.1", "red-lion", "t1", port=broker.port)
    publisher = LeaguePublisher(config, db, poll=0.05)
    held = threading.Event()  # the network is stuck until the test sets it
    entered = threading.Event()
    lives: list[str] = []
    publish = mqtt.Client.publish

    def stuck(self: mqtt.Client, topic: str, *args: Any, **kwargs: Any) -> mqtt.MQTTMessageInfo:
        if topic.endswith("/live"):
            lives.append(threading.current_thread().name)
            entered.set()
            held.wait()
        return publish(self, topic, *args, **kwargs)

    try:
        publisher.start()
        wait_until(lambda: publisher.connected, what="the board connected")
        monkeypatch.setattr(mqtt.Client, "publish", stuck)
        first = threading.Thread(target=publisher.on_change, args=(state, render_view(state)))
        first.start()
        wait_until(entered.is_set, what="the live view handed to paho")
        # the network side is now stuck inside paho's publish: a key press comes
        state, _ = store.do(parse_command("cut 9C 3D", state.names))
        press = threading.Thread(target=publisher.on_change, args=(state, render_view(state)))
        press.start()
        press.join(GENEROUS)
        first.join(GENEROUS)
        assert not press.is_alive() and not first.is_alive(), "on_change waited for the network"
        assert lives == ["pegboard-league"]  # sent from the publisher's own thread only
        held.set()
        wait_until(lambda: len(lives) == 2, what="the newest view sent once the network moved")
    finally:
        held.set()
        publisher.close()
        store.close()


def test_the_publishers_connection_is_noted_as_open_in_this_process(tmp_path: Path) -> None:
    """While the publisher's own connection is open, this process never opens the journal
    behind SQLite's back (closing such a handle would drop the connection's locks)."""
    db = tmp_path / "board.db"
    Journal(db, outbox=True).close()
    publisher = LeaguePublisher(LeagueConfig("127.0.0.1", "red-lion", "t1"), db)
    assert not held_here(db)
    outbox = publisher._open()
    assert outbox is not None and held_here(db)
    outbox.close()
    assert not held_here(db)


def held_here(db: Path) -> bool:
    st = db.stat()
    return (st.st_dev, st.st_ino) in _own_writers
