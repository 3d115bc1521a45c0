"""The table beside other writers of its journal (issue 21): one table per journal, ``pegboard
game do`` shown on a running board, a race of writers, and a match that cannot be replayed."""

from __future__ import annotations

import os
import queue
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pegboard.cli.main import main
from pegboard.config.settings import parse_config
from pegboard.devices.oled import RecordingDisplay
from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent, KeySink
from pegboard.engine.game import Phase
from pegboard.engine.rules import Rules
from pegboard.engine.view import render_view
from pegboard.errors import JournalInUseError, PegboardError, UnreplayableMatchError
from pegboard.journal import Journal
from pegboard.table.beside import broken_match_message
from pegboard.table.controller import Controller
from pegboard.table.daemon import run_daemon
from pegboard.table.wiring import sim_ports
from pegboard.ui.screens import render_error
from tests.engine.test_game_properties import Table as Picker

from .notices import RecordingNotifier

ROOT = Path(__file__).resolve().parents[2]


def _game(db: Path, *commands: str) -> None:
    assert main(["game", "new", "--db", str(db), "--players", "Ann,Bob"]) == 0
    if commands:
        assert main(["game", "do", "--db", str(db), *commands]) == 0


def _replayed(db: Path, *, history: bool = True) -> dict[str, object]:
    """The journal's current match as a fresh reader replays it (and its history reads)."""
    with Journal(db, readonly=True) as reader:
        state = reader.load()
        if history:
            reader.history()
    assert state is not None
    return render_view(state).to_dict()


def _broken(db: Path) -> None:
    """A journal whose match 1 cannot be replayed: what two tables of an older version left."""
    _game(db, "cut 9H 3C")
    conn = sqlite3.connect(db)
    with conn:
        for _ in range(2):
            conn.execute(
                "INSERT INTO journal (match_id, command, at) VALUES (1, 'starter 9H', 'x')"
            )
    conn.close()


def _keys(ctl: Controller, text: str) -> None:
    for word in text.split():
        ctl.handle(KeyEvent(word, KeyAction.PRESS))


def _until(sock: socket.socket, wanted: str) -> None:
    while wanted not in sock.recv(4096).decode().split("\n"):
        pass


def test_a_second_simulator_on_one_journal_is_refused_naming_the_first(
    notify_socket: tuple[socket.socket, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sock, path = notify_socket
    db = tmp_path / "g.db"
    _game(db, "cut 9H 3C")
    env = dict(os.environ, NOTIFY_SOCKET=path, HOME=str(tmp_path))
    env.pop("PEGBOARD_CONFIG", None)
    first = subprocess.Popen(
        [sys.executable, "-m", "pegboard", "run", "--log-level", "WARNING", "--simulate",
         "--headless", "--wait-for-signal", "--out", str(tmp_path / "o1"), "--db", str(db)],
        env=env, cwd=ROOT, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        _until(sock, "READY=1")
        keys = tmp_path / "starter.keys"
        keys.write_text("5\n")
        capsys.readouterr()
        second = ["run", "--simulate", "--headless", "--keys", str(keys), "--db", str(db),
                  "--out", str(tmp_path / "o2")]  # fmt: skip
        assert main(second) == 1
        err = capsys.readouterr().err
        assert f"in use by pegboard run --simulate --headless (pid {first.pid}, since" in err
        assert "or use 'pegboard game do', which works beside it" in err
        first.send_signal(signal.SIGTERM)
        _, stderr = first.communicate(timeout=60)
    finally:
        first.kill()
    assert first.returncode == 0, stderr.decode()
    assert _replayed(db)["phase"] == "starter"  # the refused one stored nothing


def test_a_running_board_shows_what_game_do_stored_beside_it(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    _game(db, "cut 9H 3C")
    clock = FakeClock()
    with Journal(db, table="pegboard run") as store:
        ctl = Controller(store=store, clock=clock, rng=random.Random(1))
        assert main(["game", "do", "--db", str(db), "starter 9H"]) == 0
        assert ctl.view.starter is None  # not yet: the board looks on its next tick
        clock.advance(0.05)
        ctl.tick()
        assert str(ctl.view.starter) == "9H" and ctl.state.phase is Phase.PLAY
        assert ctl.view.to_dict() == _replayed(db)
        # a key on the board now acts on the caught-up state
        _keys(ctl, "5")
        assert ctl.last_error == ""
        assert ctl.view.to_dict() == _replayed(db)


def test_a_stale_key_on_the_board_is_refused_cleanly_and_the_board_catches_up(
    tmp_path: Path,
) -> None:
    db = tmp_path / "g.db"
    _game(db, "cut 9H 3C")
    with Journal(db, table="pegboard run") as store:
        ctl = Controller(store=store, clock=FakeClock(), rng=random.Random(1))
        assert main(["game", "do", "--db", str(db), "starter 9H"]) == 0
        _keys(ctl, "5")  # meant as the starter, pressed before the board looked again
        assert ctl.last_error.startswith("not stored: ")
        ctl.tick()
        assert str(ctl.view.starter) == "9H"
        assert ctl.view.to_dict() == _replayed(db)


class _Presses:
    """A key source that hands its keys over as soon as it is started."""

    def __init__(self, *keys: str) -> None:
        self.keys = keys

    def start(self, sink: KeySink) -> None:
        for key in self.keys:
            sink(KeyEvent(key, KeyAction.PRESS))

    def close(self) -> None:
        pass


def test_the_daemon_offers_a_new_match_for_one_it_cannot_replay(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    _broken(db)  # a starter in the play
    with Journal(db) as store, pytest.raises(UnreplayableMatchError) as caught:
        store.load()
    config = parse_config(f'[game]\ndatabase = "{db}"\nnames = ["Cy", "Di"]')
    ports = sim_ports(config, [_Presses("5", "#")])  # a key that is not confirm, then confirm
    display = ports.display
    assert isinstance(display, RecordingDisplay)
    recorder = RecordingNotifier()
    notices = recorder.notices

    stop = threading.Event()
    result = run_daemon(
        config, ports, notifier=recorder, stop=stop, install_signals=False,
        on_ready=lambda controller: stop.set(),
    )  # fmt: skip
    assert "READY=1" in notices  # systemd does not wait for the key
    message = broken_match_message(caught.value)
    assert message == "match 1 cannot be replayed at entry 3 'starter 9H': press # for a new match"
    shown = render_error(message, display.size, display.mode)
    assert shown.tobytes() in [frame.tobytes() for frame in display.shown]
    assert result.controller.view.names == ("Cy", "Di")
    assert result.controller.store.match_id == 2
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT command FROM journal WHERE match_id = 1 ORDER BY seq").fetchall()
    conn.close()
    assert rows == [("cut 9H 3C",), ("starter 9H",), ("starter 9H",)]  # left as it was
    assert _replayed(db, history=False)["names"] == ["Cy", "Di"]  # match 1 left as it was


def test_a_stop_while_the_daemon_offers_a_new_match_is_a_clean_stop(
    tmp_path: Path, notify_socket: tuple[socket.socket, str]
) -> None:
    """``systemctl stop`` (SIGTERM) while the display offers a new match: STOPPING=1, exit 0
    and the match left as it is (before: exit 1, and systemd marked the unit failed)."""
    db = tmp_path / "g.db"
    _broken(db)
    sock, path = notify_socket
    env = dict(os.environ, NOTIFY_SOCKET=path, HOME=str(tmp_path))
    env.pop("PEGBOARD_CONFIG", None)
    cmd = [sys.executable, "-m", "pegboard", "run", "--log-level", "ERROR", "--db", str(db)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        said = ""
        while "READY=1" not in said.split("\n"):
            said = sock.recv(4096).decode()
        assert "cannot be replayed" in said
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert "STOPPING=1" in sock.recv(4096).decode().split("\n")
    assert proc.returncode == 0, err.decode()
    assert "stopped; journal entry 3 'starter 9H' of match 1 cannot be replayed" in out.decode()
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT command FROM journal WHERE match_id = 1 ORDER BY seq").fetchall()
    conn.close()
    assert rows == [("cut 9H 3C",), ("starter 9H",), ("starter 9H",)]


def _writer(db: Path, seed: int, rounds: int, tally: dict[str, int]) -> None:
    """Random legal commands (the engine's picker) from a writer of its own: 'game do'.
    *tally* is this writer's own (``+=`` on a dict shared by threads can lose a count)."""
    picker = Picker(random.Random(seed))
    with Journal(db) as store:
        store.load()
        for _ in range(rounds):
            state = store.state
            assert state is not None
            if state.phase is Phase.MATCH_OVER:
                store.new_match(Rules.six_card(), ("Ann", "Bob"))
                continue
            try:
                store.do(picker.command(state))
                tally["stored"] += 1
            except PegboardError:
                tally["refused"] += 1  # another writer moved first, or the picker's stale deal
            try:
                Journal(db, table="pegboard run --simulate")
            except JournalInUseError:
                tally["tables refused"] += 1


@pytest.mark.timeout(300)
def test_a_board_and_several_game_do_writers_racing_keep_one_replayable_journal(
    tmp_path: Path,
) -> None:
    db = tmp_path / "g.db"
    _game(db)
    events: queue.Queue[KeyEvent | None] = queue.Queue()
    stop, up = threading.Event(), threading.Event()
    seen: dict[str, object] = {}

    def board() -> None:
        with Journal(db, table="pegboard run") as store:
            ctl = Controller(store=store, rng=random.Random(5))
            up.set()
            ctl.run(events, stop)
            ctl.tick()  # the last look: whatever was committed after its last turn
            seen["view"] = ctl.view.to_dict()

    thread = threading.Thread(target=board)
    thread.start()
    assert up.wait(timeout=60)
    tallies = [{"stored": 0, "refused": 0, "tables refused": 0} for _ in range(3)]
    writers = [
        threading.Thread(target=_writer, args=(db, seed, 100, tallies[seed])) for seed in range(3)
    ]
    for writer in writers:
        writer.start()
    keys = random.Random(9)
    for _ in range(60):  # the board's own keys meanwhile: cards, pegs, confirms
        events.put(KeyEvent(keys.choice("A23456789TJQK#*"), KeyAction.PRESS))
    for writer in writers:
        writer.join(timeout=240)
    stop.set()
    events.put(None)
    thread.join(timeout=60)
    assert not thread.is_alive()
    tally = {key: sum(t[key] for t in tallies) for key in tallies[0]}
    assert tally["stored"] > 20 and tally["tables refused"] == 300
    assert seen["view"] == _replayed(db)  # the board ends showing the journal's state


def test_a_journal_that_cannot_be_read_is_logged_once_not_every_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The loop asks every 0.05 s: an unreadable journal was logged twenty times a second."""
    from pegboard.engine.rules import Rules
    from pegboard.errors import JournalError
    from pegboard.journal import Journal
    from pegboard.table.beside import others_moved

    store = Journal(tmp_path / "j.db")
    store.new_match(Rules.six_card(), ("Ann", "Bob"))
    shown = store.state
    assert shown is not None
    failing = [True]

    def refresh(self: Journal) -> None:
        if failing[0]:
            raise JournalError("disk I/O error")

    monkeypatch.setattr(Journal, "refresh", refresh)
    with caplog.at_level("INFO", logger="pegboard.table.beside"):
        for _ in range(50):
            assert others_moved(store, shown) is None
        failing[0] = False
        others_moved(store, shown)
        failing[0] = True
        others_moved(store, shown)
    said = [r.getMessage() for r in caplog.records]
    assert said == [
        "journal: disk I/O error",
        "journal: it can be read again",
        "journal: disk I/O error",
    ]
    store.close()
