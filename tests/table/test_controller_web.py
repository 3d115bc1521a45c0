"""The controller's ``on_change`` hook and the pub page in the daemon and the simulator.

The hook is called in the controller's thread after every state change (and once at start); a
hook that fails never breaks a key. The daemon serves the page when ``[web] enabled``, loads
nothing of it otherwise, and says "paused" to the pages when it stops.
"""

from __future__ import annotations

import dataclasses
import http.client
import json
import logging
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pegboard.config.settings import Config, config_from_mapping
from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent
from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState
from pegboard.engine.rules import Rules
from pegboard.engine.view import GameView
from pegboard.journal import Journal
from pegboard.table.controller import Controller
from pegboard.table.daemon import run_daemon
from pegboard.table.sdnotify import Notifier
from pegboard.table.wiring import sim_ports
from pegboard.web.publisher import ViewPublisher
from pegboard.web.server import WebServer

ROOT = Path(__file__).resolve().parents[2]
KEYS = ROOT / "tests" / "keys" / "five-card-game.keys"


def keys(ctl: Controller, text: str) -> None:
    for key in text.split():
        ctl.handle(KeyEvent("#" if key == "hash" else key))


def get_json(url: str, path: str = "view.json") -> dict[str, Any]:
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        conn.request("GET", "/" + path)
        response = conn.getresponse()
        assert response.status == 200
        payload: dict[str, Any] = json.loads(response.read())
        return payload
    finally:
        conn.close()


# -- the hook ----------------------------------------------------------------------------------


def test_on_change_is_told_at_start_and_after_every_change(tmp_path: Path) -> None:
    told: list[tuple[GameState, GameView, str]] = []

    def on_change(state: GameState, view: GameView) -> None:
        told.append((state, view, threading.current_thread().name))

    with Journal(tmp_path / "p.db") as store:
        ctl = Controller(
            store=store,
            rules=Rules.five_card(),
            names=("Ann", "Bob"),
            clock=FakeClock(),
            on_change=on_change,
        )
        assert len(told) == 1 and told[0][1] == ctl.view
        keys(ctl, "3 5")  # the cut: one change for the whole press
        assert told[-1][0] == ctl.state and told[-1][1] == ctl.view
        changes = len(told)
        keys(ctl, "5")  # the starter
        assert len(told) == changes + 1 and told[-1][1].starter is not None
        assert {name for _, _, name in told} == {threading.current_thread().name}


def test_a_key_that_changes_nothing_tells_nothing(tmp_path: Path) -> None:
    told: list[GameView] = []
    with Journal(tmp_path / "p.db") as store:
        ctl = Controller(
            store=store,
            rules=Rules.five_card(),
            clock=FakeClock(),
            on_change=lambda state, view: told.append(view),
        )
        keys(ctl, "3 5 5")
        before = len(told)
        keys(ctl, "D")  # peg mode, nothing typed: no change yet
        assert len(told) == before and told[-1] == ctl.view


def test_a_failing_hook_is_logged_and_never_breaks_a_key(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    calls = 0

    def broken(state: GameState, view: GameView) -> None:
        nonlocal calls
        calls += 1
        raise RuntimeError("the page fell over")

    with Journal(tmp_path / "p.db") as store:
        ctl = Controller(store=store, rules=Rules.five_card(), clock=FakeClock(), on_change=broken)
        keys(ctl, "3 5 5")
        assert ctl.view.starter is not None and not ctl.last_error
        assert len(store.commands()) == 2  # the cut and the starter, journalled
    assert calls == 3
    failures = [r for r in caplog.records if "on_change failed" in r.getMessage()]
    assert len(failures) == 3 and failures[0].levelno == logging.ERROR


def test_the_page_shows_what_the_controller_shows(tmp_path: Path) -> None:
    server = WebServer("127.0.0.1", 0)
    server.start()
    try:
        with Journal(tmp_path / "p.db") as store:
            publisher = ViewPublisher(server, store)
            ctl = Controller(
                store=store,
                rules=Rules.five_card(),
                names=("Ann", "Bob"),
                clock=FakeClock(),
                on_change=publisher.publish,
            )
            for press in ("3", "5", "5", "C", "B"):
                keys(ctl, press)
                payload = get_json(server.url)
                assert payload["view"] == ctl.view.to_dict()
                assert payload["version"] == server.version
    finally:
        server.close()


def test_stalled_pages_never_hold_up_a_key(tmp_path: Path) -> None:
    server = WebServer("127.0.0.1", 0, timeout=30.0)
    server.start()
    stalled = []
    try:
        for _ in range(50):  # pages that ask for the stream and never read it
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(server.address)
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: pub\r\n\r\n")
            stalled.append(sock)
        with Journal(tmp_path / "p.db") as store:
            publisher = ViewPublisher(server, store)
            ctl = Controller(store=store, rules=Rules.five_card(), on_change=publisher.publish)
            times = []
            for press in ("3", "5", "5", "C", "B", "0", "#", "#"):
                started = time.perf_counter()
                keys(ctl, press)
                times.append(time.perf_counter() - started)
        print(f"\nkeys with 50 stalled pages: max {max(times) * 1000:.1f} ms")
        assert max(times) < 1.0  # the journal's commit, never a socket
    finally:
        for sock in stalled:
            sock.close()
        server.close()


# -- the daemon ------------------------------------------------------------------------------


def web_config(tmp_path: Path, **web: Any) -> Config:
    config = config_from_mapping(
        {"game": {"variant": "five-card", "database": str(tmp_path / "p.db")}}
    )
    settings = {"enabled": True, "bind": "127.0.0.1", "port": 0, **web}
    return dataclasses.replace(config, web=dataclasses.replace(config.web, **settings))


def test_the_daemon_serves_the_page_and_pauses_it_on_stop(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    config = web_config(tmp_path)
    stop = threading.Event()
    seen: dict[str, Any] = {}
    stream_rest: list[bytes] = []

    def on_ready(ctl: Controller) -> None:
        told = [r.getMessage() for r in caplog.records if "the pub page is at" in r.getMessage()]
        assert told == [told[0]] and told[0].startswith("web: the pub page is at http://127.")
        url = told[0].rsplit(" ", 1)[1]
        seen["view"] = get_json(url)
        seen["expected"] = ctl.view.to_dict()
        host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
        sock = socket.create_connection((host, int(port)), timeout=10)
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: pub\r\n\r\n")

        def read() -> None:
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
            stream_rest.append(b"".join(chunks))
            sock.close()

        reader = threading.Thread(target=read)
        reader.start()
        seen["reader"] = reader
        time.sleep(0.2)  # the stream is open
        stop.set()

    run_daemon(
        config,
        sim_ports(config),
        notifier=Notifier(env={}),
        stop=stop,
        install_signals=False,
        on_ready=on_ready,
    )
    seen["reader"].join(timeout=10)
    assert seen["view"]["view"] == seen["expected"]
    assert seen["view"]["status"] == "live"
    data = [line for line in stream_rest[0].split(b"\n") if line.startswith(b"data: ")]
    assert json.loads(data[-1].removeprefix(b"data: "))["status"] == "paused"


def test_a_port_in_use_is_logged_and_the_daemon_runs_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        config = web_config(tmp_path, port=taken.getsockname()[1])
        stop = threading.Event()
        result = run_daemon(
            config,
            sim_ports(config),
            notifier=Notifier(env={}),
            stop=stop,
            install_signals=False,
            on_ready=lambda ctl: stop.set(),
        )
    assert result.ready_after is not None
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1
    assert errors[0].startswith("web: cannot serve the page on 127.0.0.1:")
    assert errors[0].endswith("carrying on without the page")


def test_the_daemon_without_the_page_loads_no_http_server(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from pegboard.config.settings import config_from_mapping\n"
        "from pegboard.table.simulator import run_headless\n"
        "run_headless(config_from_mapping({}), keys_file=Path(sys.argv[1]),"
        " out_dir=Path(sys.argv[2]))\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(('http', 'pegboard.web')))\n"
        "print(loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(KEYS), str(tmp_path / "out")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.strip() == "[]"


# -- the simulator -------------------------------------------------------------------------------


def test_headless_web_serves_the_replayed_game_until_sigterm(tmp_path: Path) -> None:
    out = tmp_path / "out"
    process = subprocess.Popen(
        [
            sys.executable, "-m", "pegboard", "run", "--simulate", "--headless", "--web",
            "--bind", "127.0.0.1", "--port", "0", "--wait-for-signal",
            "--keys", str(KEYS), "--out", str(out),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 60)
        line = process.stdout.readline().strip() if ready else ""
        assert line.startswith("serving the pub page at http://127.0.0.1:"), line
        url = line.rsplit(" ", 1)[1]
        deadline = time.monotonic() + 60
        while not (out / "state.json").exists():  # the replay is written
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        time.sleep(0.2)
        state = json.loads((out / "state.json").read_text())
        assert get_json(url)["view"] == state
    finally:
        process.send_signal(signal.SIGTERM)
        status = process.wait(timeout=30)
    assert status == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(
            ["--simulate", "--headless", "--web", "--keys", str(KEYS), "--out", "x"],
            "--headless --web needs --wait-for-signal",
            id="headless-without-wait",
        ),
        pytest.param(["--simulate", "--port", "0"], "--bind and --port need --web", id="port"),
        pytest.param(["--simulate", "--web", "--port", "-1"], "--port must be", id="range"),
    ],
)
def test_web_options_that_do_not_go_together_are_usage_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from pegboard.cli.main import main

    with pytest.raises(SystemExit) as exited:
        main(["run", *args])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_a_slow_history_delays_neither_ready_nor_keys_and_the_page_gets_the_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The history is read in the reader's thread, started after READY; the page gets the
    players' figures when that read ends, the view as it then stands."""
    config = web_config(tmp_path)
    with Journal(config.game.database) as store:  # a finished game for the figures
        store.new_match(Rules.six_card(), ("Ann", "Bob"))
        for text in ("cut 9C 3D", "starter 5C", "peg Ann 61", "peg Ann 60"):
            assert store.state is not None
            store.do(parse_command(text, store.state.names))
        assert store.state is not None and store.state.table.finished
    opened, reading = threading.Event(), threading.Event()
    latest_match = Journal.latest_match

    def slow(store: Journal) -> object:
        reading.set()
        assert opened.wait(10)
        return latest_match(store)

    monkeypatch.setattr(Journal, "latest_match", slow)
    server = WebServer("127.0.0.1", 0)
    server.start()
    stop = threading.Event()
    seen: dict[str, Any] = {}

    def on_ready(ctl: Controller) -> None:
        assert reading.wait(10)  # the reader is held in its first read: READY came anyway
        seen["before"] = json.loads(server.latest()[1])
        started = time.perf_counter()
        ctl.handle(KeyEvent("ok", KeyAction.LONG_PRESS))  # the menu, and D: the head-to-head
        ctl.handle(KeyEvent("D"))  # page, which says the scores are being read
        seen["press"] = time.perf_counter() - started
        seen["record"] = ctl.screen.record
        opened.set()
        deadline = time.monotonic() + 10
        while json.loads(server.latest()[1])["players"] is None:
            assert time.monotonic() < deadline, "the figures never came"
            stop.wait(0.01)
        seen["after"] = json.loads(server.latest()[1])
        stop.set()

    try:
        result = run_daemon(
            config, sim_ports(config), notifier=Notifier(env={}), stop=stop,
            install_signals=False, on_ready=on_ready, web=server,
        )  # fmt: skip
    finally:
        opened.set()
    assert result.ready_after is not None
    assert seen["press"] < 0.25
    assert seen["record"] is not None and seen["record"].reading
    assert (seen["before"]["players"], seen["before"]["evening"]) == (None, [])
    after = seen["after"]
    assert after["view"] == seen["before"]["view"]
    assert after["players"]["sides"][0]["games_won"] == 1
    assert [(g["winner"], g["game_points"]) for g in after["evening"]] == [("Ann", 3)]
