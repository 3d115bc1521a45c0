"""The league against a real Mosquitto: nothing lost, nothing counted twice, nobody else's topic.

Each test starts its own broker(s) on 127.0.0.1 at a free port (``conftest.Mosquitto``).
"""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pegboard.config.league import LeagueConfig
from pegboard.engine.view import render_view
from pegboard.journal import Journal
from pegboard.league.publisher import LeaguePublisher
from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from tests.league.conftest import Mosquitto, finish_games, wait_until

WORKER = Path(__file__).with_name("board_worker.py")
ROOT = Path(__file__).resolve().parents[2]

Make = Callable[..., Mosquitto]


def outbox_rows(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])


def sent_rows(db: Path) -> int:
    """Outbox rows the broker has taken, waiting for the league's receipt."""
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM outbox_sent").fetchone()[0])


def start_worker(db: Path, port: int, games: int, keepalive: float = 30.0) -> subprocess.Popen[str]:
    args = [sys.executable, str(WORKER), str(db), str(port), "red-lion", "t1", str(games)]
    process = subprocess.Popen(
        [*args, str(keepalive)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    return process


def publish_games(db: Path, port: int, games: int, until: Callable[[], bool], what: str) -> None:
    """Board t1 at red-lion, publishing to the broker at *port* in this process, finishes *games*
    games in *db* and shows its view; returns once *until* holds (else fails naming *what*)."""
    store = Journal(db, outbox=True)
    config = LeagueConfig("127.0.0.1", "red-lion", "t1", port=port)
    publisher = LeaguePublisher(config, db, poll=0.05)
    publisher.start()
    try:
        finish_games(store, games)
        publisher.on_change(store.state, render_view(store.state))  # type: ignore[arg-type]
        wait_until(until, 10.0, what)
    finally:
        publisher.close()
        store.close()


@pytest.fixture
def services() -> Iterator[list[LeagueService]]:
    made: list[LeagueService] = []
    yield made
    for service in made:
        service.close()
        service.store.close()


def league(
    db: Path,
    port: int,
    made: list[LeagueService],
    client_id: str = "pegboard-league",
    **broker: object,
) -> LeagueService:
    service = LeagueService(
        LeagueStore(db),
        Broker("127.0.0.1", port, **broker),  # type: ignore[arg-type]
        client_id=client_id,
    )
    made.append(service)
    service.start()
    assert service.wait_connected(10.0)
    return service


def client(
    port: int, client_id: str, user: str | None = None, password: str | None = None
) -> mqtt.Client:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    if user is not None:
        c.username_pw_set(user, password)
    return c


def test_a_board_killed_while_the_broker_was_down_sends_every_game_exactly_once(
    tmp_path: Path, mosquitto: Make, services: list[LeagueService]
) -> None:
    broker = mosquitto().start()
    service = league(tmp_path / "league.db", broker.port, services)
    broker.stop()
    db = tmp_path / "board.db"
    board = start_worker(db, broker.port, games=3)  # finishes three games with no broker
    board.send_signal(signal.SIGKILL)
    board.wait()
    assert outbox_rows(db) == 3
    board = start_worker(db, broker.port, games=0)
    try:
        broker.start()
        wait_until(lambda: service.store.count() == 3, 15.0, "three games in the standings")
        wait_until(lambda: outbox_rows(db) == 0, 5.0, "an empty outbox")
    finally:
        board.kill()
        board.wait()
    time.sleep(0.3)  # nothing more comes
    assert service.store.count() == 3
    [ann, bob] = service.standings()
    assert (ann.name, ann.played, ann.won, ann.match_points) == ("Ann", 3, 3, 9)
    assert (bob.name, bob.played, bob.won, bob.spread) == ("Bob", 3, 0, -3 * 71)


def test_a_game_leaves_the_outbox_only_once_the_broker_acknowledged_it(
    tmp_path: Path, mosquitto: Make, services: list[LeagueService], monkeypatch: pytest.MonkeyPatch
) -> None:
    broker = mosquitto().start()
    service = league(tmp_path / "league.db", broker.port, services)
    sent: list[str] = []  # the topics the board handed paho, in order
    publish = mqtt.Client.publish

    def spy(self: mqtt.Client, topic: str, *args: Any, **kwargs: Any) -> mqtt.MQTTMessageInfo:
        info = publish(self, topic, *args, **kwargs)
        sent.append(topic)
        return info

    def sent_after(kind: str, earlier: str) -> bool:
        return earlier in sent and any(t.endswith(kind) for t in sent[sent.index(earlier) :])

    monkeypatch.setattr(mqtt.Client, "publish", spy)
    db = tmp_path / "board.db"
    store = Journal(db, outbox=True)
    config = LeagueConfig("127.0.0.1", "red-lion", "t1", port=broker.port)
    publisher = LeaguePublisher(config, db, poll=0.05)
    assert broker.process is not None
    try:
        publisher.start()
        wait_until(lambda: publisher.connected, what="the board connected")
        broker.process.send_signal(signal.SIGSTOP)  # it takes the game in, and answers nothing
        try:
            finish_games(store, 1)
            finished = "pegboard/v1/red-lion/t1/finished"
            wait_until(lambda: finished in sent, what="the game sent")
            # a later turn of the publisher's loop (which takes the broker's acks): the view
            publisher.on_change(store.state, render_view(store.state))  # type: ignore[arg-type]
            wait_until(lambda: sent_after("/live", finished), what="the live view sent after it")
            assert outbox_rows(db) == 1 and publisher.sent_games == 0
        finally:
            broker.process.send_signal(signal.SIGCONT)
        wait_until(lambda: outbox_rows(db) == 0, what="the row deleted once acknowledged")
        wait_until(lambda: service.store.count() == 1, what="the game in the league")
        assert publisher.sent_games == 1
    finally:
        publisher.close()
        store.close()


def test_games_finished_while_the_league_was_down_arrive_after_the_broker_restarts(
    tmp_path: Path, mosquitto: Make, services: list[LeagueService]
) -> None:
    broker = mosquitto().start()
    first = league(tmp_path / "league.db", broker.port, services)
    first.close()  # the broker keeps its session, and queues for it
    db = tmp_path / "board.db"
    publish_games(db, broker.port, 2, lambda: sent_rows(db) == 2, "the broker's acknowledgements")
    broker.stop()
    broker.start()
    second = league(tmp_path / "league.db", broker.port, services)
    wait_until(lambda: second.store.count() == 2, 10.0, "both games in the standings")


def test_a_game_delivered_twice_is_counted_once(
    tmp_path: Path, mosquitto: Make, services: list[LeagueService]
) -> None:
    broker = mosquitto().start()
    service = league(tmp_path / "league.db", broker.port, services)
    db = tmp_path / "board.db"
    with Journal(db, outbox=True) as store:
        finish_games(store, 1)
    with sqlite3.connect(db) as conn:
        (payload,) = conn.execute("SELECT payload FROM outbox").fetchone()
    sender = client(broker.port, "twice")
    sender.connect("127.0.0.1", broker.port)
    sender.loop_start()
    try:
        for _ in range(3):
            sender.publish("pegboard/v1/red-lion/t1/finished", payload, qos=1).wait_for_publish(5)
        wait_until(lambda: service.counts.finished == 3, 5.0, "three deliveries")
    finally:
        sender.disconnect()
        sender.loop_stop()
    assert service.store.count() == 1
    assert [(s.name, s.played) for s in service.standings()] == [("Ann", 1), ("Bob", 1)]


def finished_payloads(tmp_path: Path, games: int) -> list[str]:
    """The outbox's payloads of *games* games finished on a board of this process."""
    db = tmp_path / "payloads.db"
    with Journal(db, outbox=True) as store:
        finish_games(store, games)
    with sqlite3.connect(db) as conn:
        return [p for (p,) in conn.execute("SELECT payload FROM outbox ORDER BY id")]


def send(port: int, payload: str, topic: str = "pegboard/v1/red-lion/t1/finished") -> None:
    sender = client(port, f"sender-{time.monotonic_ns()}")
    sender.connect("127.0.0.1", port)
    sender.loop_start()
    try:
        sender.publish(topic, payload, qos=1).wait_for_publish(5)
    finally:
        sender.disconnect()
        sender.loop_stop()


def test_a_game_the_database_could_not_store_is_not_acknowledged_and_arrives_once(
    tmp_path: Path, mosquitto: Make, services: list[LeagueService], caplog: pytest.LogCaptureFixture
) -> None:
    broker = mosquitto().start()
    db = tmp_path / "league.db"
    first = LeagueService(
        LeagueStore(db, timeout=0.05), Broker("127.0.0.1", broker.port), client_id="held"
    )
    services.append(first)
    caplog.set_level(logging.WARNING, logger="pegboard.league")
    first.start()
    assert first.wait_connected(10.0)
    game, later = finished_payloads(tmp_path, 2)
    hold = sqlite3.connect(db, isolation_level=None, timeout=60)  # waits out the service
    hold.execute("BEGIN EXCLUSIVE")  # another program holds the database: the game cannot go in
    try:
        send(broker.port, game)
        wait_until(lambda: bool(caplog.records), what="the database's failure said")
    finally:
        hold.execute("COMMIT")
        hold.close()
    wait_until(lambda: first.store.count() == 1, what="the game stored once the lock is gone")
    assert first.counts.refused == 0
    first.close()
    # the same session again: had the game not been acknowledged, it would come first
    second = league(db, broker.port, services, client_id="held")
    send(broker.port, later)
    wait_until(lambda: second.store.count() == 2, what="the later game")
    assert second.counts.finished == 1


def make_passwords(folder: Path, users: dict[str, str]) -> Path:
    """A Mosquitto password file in *folder* with each user and password."""
    folder.mkdir(exist_ok=True)
    passwords = folder / "passwd"
    for user, password in users.items():
        subprocess.run(
            ["mosquitto_passwd", "-b", *(["-c"] if not passwords.exists() else []),
             str(passwords), user, password],
            check=True,
            capture_output=True,
        )  # fmt: skip
    return passwords


def test_a_wrong_password_is_one_error_line_naming_the_user_and_the_password_file(
    tmp_path: Path, mosquitto: Make, caplog: pytest.LogCaptureFixture
) -> None:
    passwords = make_passwords(tmp_path / "secure", {"league": "l-secret", "t1": "t1-secret"})
    broker = mosquitto("secure", f"allow_anonymous false\npassword_file {passwords}\n").start()
    wrong = tmp_path / "wrong.pw"
    wrong.write_text("guessed\n")
    db = tmp_path / "board.db"
    Journal(db, outbox=True).close()
    caplog.set_level(logging.INFO, logger="pegboard.league")
    service = LeagueService(
        LeagueStore(tmp_path / "league.db"), Broker("127.0.0.1", broker.port, "league", wrong)
    )
    config = LeagueConfig("127.0.0.1", "red-lion", "t1", port=broker.port, password_file=wrong)
    publisher = LeaguePublisher(config, db, poll=0.05)
    try:
        service.start()
        publisher.start()
        wait_until(
            lambda: service.failures.count >= 3 and publisher.failures.count >= 3,
            what="three refusals each",
        )
    finally:
        publisher.close()
        service.close()
        service.store.close()
    said = sorted((r.levelno, r.getMessage()) for r in caplog.records)
    where = f"127.0.0.1:{broker.port}"
    assert [level for level, _ in said] == [logging.ERROR, logging.ERROR], said
    board, league_ = (line for _, line in said)
    assert re.fullmatch(
        f"league: the broker {where} refused the board: (Not authorized|Bad user name or "
        f"password) \\(check \\[league\\] username \\(unset: the board's, 't1'\\) and "
        f"password_file '{re.escape(str(wrong))}'\\)",
        board,
    ), board
    assert re.fullmatch(
        f"league: the broker {where} refused the service: (Not authorized|Bad user name or "
        f"password) \\(check --username 'league' and --password-file '{re.escape(str(wrong))}'\\)",
        league_,
    ), league_


def test_a_board_writes_only_its_own_topics_and_only_with_its_password(
    tmp_path: Path, mosquitto: Make, services: list[LeagueService]
) -> None:
    passwords = make_passwords(
        tmp_path / "secure", {"league": "l-secret", "t1": "t1-secret", "t2": "t2-secret"}
    )
    acl = ROOT / "hardware" / "mosquitto" / "acl"  # the shipped file, as it is (venue red-lion)
    broker = mosquitto(
        "secure", f"allow_anonymous false\npassword_file {passwords}\nacl_file {acl}\n"
    ).start()
    (tmp_path / "league.pw").write_text("l-secret\n")
    service = league(
        tmp_path / "league.db",
        broker.port,
        services,
        username="league",
        password_file=tmp_path / "league.pw",
    )
    db = tmp_path / "board.db"
    with Journal(db, outbox=True) as store:
        finish_games(store, 1)
    with sqlite3.connect(db) as conn:
        (payload,) = conn.execute("SELECT payload FROM outbox").fetchone()
    acks: list[tuple[int, bool]] = []

    def answered(mid: int) -> bool:
        return any(m == mid for m, _ in acks)

    t1 = client(broker.port, "t1-by-hand", "t1", "t1-secret")
    t1.on_publish = lambda c, u, mid, reason, props: acks.append((mid, reason.is_failure))
    t1.connect("127.0.0.1", broker.port)
    t1.loop_start()
    try:
        # t1 pretends to be t2, or t1 of another pub: the broker refuses it (MQTT 5 says so in
        # the PUBACK)
        for forged_topic in ("pegboard/v1/red-lion/t2/finished", "pegboard/v1/crown/t1/finished"):
            forged = t1.publish(forged_topic, payload, qos=1)
            forged.wait_for_publish(5)
            wait_until(partial(answered, forged.mid), 5.0, "the refusal")
            assert (forged.mid, True) in acks, forged_topic
        own = t1.publish("pegboard/v1/red-lion/t1/finished", payload, qos=1)
        own.wait_for_publish(5)
        wait_until(lambda: service.store.count() == 1, 5.0, "t1's own game")
    finally:
        t1.disconnect()
        t1.loop_stop()
    assert [g.board for g in service.store.games()] == ["t1"]
    assert service.counts.finished == 1  # the forged one never reached the league
    # and without the password nobody gets in
    refused: list[bool] = []
    intruder = client(broker.port, "t1-again", "t1", "guessed")
    intruder.on_connect = lambda c, u, flags, reason, props: refused.append(reason.is_failure)
    intruder.connect("127.0.0.1", broker.port)
    intruder.loop_start()
    try:
        wait_until(lambda: bool(refused), 5.0, "an answer to a wrong password")
    finally:
        intruder.disconnect()
        intruder.loop_stop()
    assert refused == [True]


def test_a_game_at_pub_a_reaches_the_central_standings_over_a_bridge(
    tmp_path: Path, mosquitto: Make, services: list[LeagueService]
) -> None:
    central = mosquitto("central").start()
    pub = mosquitto(
        "pub-a",
        "allow_anonymous true\n"
        "connection pub-a-to-central\n"
        f"address 127.0.0.1:{central.port}\n"
        "topic pegboard/v1/# out 1\n"
        "cleansession false\n"
        "local_clientid pub-a-bridge\nremote_clientid pub-a-bridge\n"
        "restart_timeout 1\n",
    ).start()
    service = league(tmp_path / "league.db", central.port, services)
    db = tmp_path / "board.db"
    publish_games(db, pub.port, 1, lambda: service.store.count() == 1, "the game at the centre")
    assert [(g.venue, g.board, g.winner.name) for g in service.store.games()] == [
        ("red-lion", "t1", "Ann")
    ]


def test_a_late_screen_gets_the_live_view_at_once_and_a_dead_board_shows_offline(
    tmp_path: Path, mosquitto: Make, services: list[LeagueService]
) -> None:
    broker = mosquitto().start()
    db = tmp_path / "board.db"
    board = start_worker(db, broker.port, games=1, keepalive=2.0)
    try:
        late: list[mqtt.MQTTMessage] = []
        screen = client(broker.port, "late-screen")
        screen.on_message = lambda c, u, message: late.append(message)
        screen.connect("127.0.0.1", broker.port)
        wait_until(lambda: _retained(broker.port, "pegboard/v1/red-lion/t1/live"), 60.0, "live")
        screen.subscribe("pegboard/v1/red-lion/t1/live", qos=1)
        screen.loop_start()
        wait_until(lambda: bool(late), 60.0, "the retained live view")  # a hang guard
        screen.disconnect()
        screen.loop_stop()
        live = json.loads(late[0].payload)
        assert late[0].retain and live["view"]["sides"][0]["name"] == "Ann"
        service = league(tmp_path / "league.db", broker.port, services)
        wait_until(lambda: _status(service) == "online", 5.0, "online")
        # the board's retained status and live view are two messages: the view may come
        # a moment after the status
        wait_until(lambda: service.payload()["boards"][0]["view"] is not None, 5.0, "the view")
        assert service.payload()["boards"][0]["view"]["names"] == ["Ann", "Bob"]
        # the power goes: the board stops dead with its connection open (SIGSTOP: no more
        # pings, no FIN), so only the keep-alive can tell; the broker waits 1.5 times it
        # (3 s here) after the last packet it got; Mosquitto 2.0.11 notices up to ~3 s late
        board.send_signal(signal.SIGSTOP)
        stopped = time.monotonic()
        # hang guards only: a loaded machine may be late; that it was the keep-alive (not a
        # closed socket's will) shows in its taking at least the keep-alive's own wait
        wait_until(lambda: _status(service) == "offline", 60.0, "offline after the keep-alive")
        assert time.monotonic() - stopped >= 1.0
    finally:
        board.send_signal(signal.SIGKILL)
        board.wait()


def test_a_killed_board_shows_offline_at_once(
    tmp_path: Path, mosquitto: Make, services: list[LeagueService]
) -> None:
    broker = mosquitto().start()
    service = league(tmp_path / "league.db", broker.port, services)
    board = start_worker(tmp_path / "board.db", broker.port, games=0)
    try:
        wait_until(lambda: _status(service) == "online", 5.0, "online")
    finally:
        board.send_signal(signal.SIGKILL)  # its socket closes with it: the last will at once
        board.wait()
    killed = time.monotonic()
    wait_until(lambda: _status(service) == "offline", 40.0, "offline")
    # the last will on the closed socket, not the keep-alive (30 s, the broker waits 45 s)
    assert time.monotonic() - killed < 45.0


def _status(service: LeagueService) -> str | None:
    boards = service.payload()["boards"]
    return str(boards[0]["status"]) if boards else None


def _retained(port: int, name: str) -> bool:
    got: list[bytes] = []
    probe = client(port, f"probe-{time.monotonic_ns()}")
    probe.on_message = lambda c, u, message: got.append(message.payload)
    probe.connect("127.0.0.1", port)
    probe.subscribe(name)
    deadline = time.monotonic() + 0.3
    while not got and time.monotonic() < deadline:
        probe.loop(0.05)
    probe.disconnect()
    return bool(got)


def test_the_daemon_publishes_its_view_and_says_offline_on_the_way_out(
    tmp_path: Path, mosquitto: Make, services: list[LeagueService]
) -> None:
    from pegboard.config.settings import parse_config
    from pegboard.table.daemon import run_daemon
    from pegboard.table.sdnotify import Notifier
    from pegboard.table.wiring import sim_ports

    broker = mosquitto().start()
    service = league(tmp_path / "league.db", broker.port, services)
    config = parse_config(
        f'[game]\ndatabase = "{tmp_path / "b.db"}"\n'
        f'[league]\nbroker = "127.0.0.1"\nport = {broker.port}\nvenue = "crown"\nboard = "t2"\n'
    )
    seen: dict[str, object] = {}

    def on_ready(controller: object) -> None:
        wait_until(lambda: _status(service) == "online", 10.0, "online")
        wait_until(lambda: service.payload()["boards"][0]["view"] is not None, 5.0, "live")
        seen["board"] = service.payload()["boards"][0]
        stop.set()

    import threading

    stop = threading.Event()
    run_daemon(
        config, sim_ports(config), notifier=Notifier(env={}), stop=stop,
        install_signals=False, on_ready=on_ready,
    )  # fmt: skip
    board = seen["board"]
    assert isinstance(board, dict) and (board["venue"], board["board"]) == ("crown", "t2")
    wait_until(lambda: _status(service) == "offline", 5.0, "offline")


def test_league_serve_serves_the_standings_page_and_stops_on_sigterm(
    tmp_path: Path, mosquitto: Make
) -> None:
    import urllib.request

    broker = mosquitto().start()
    serve = subprocess.Popen(
        [sys.executable, "-m", "pegboard", "league", "serve", "--broker",
         f"127.0.0.1:{broker.port}", "--db", str(tmp_path / "league.db"), "--web-port", "0"],
        stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        assert serve.stdout is not None
        line = serve.stdout.readline()
        url = line.split("standings at ")[1].split()[0]
        db = tmp_path / "board.db"
        with Journal(db, outbox=True) as store:
            finish_games(store, 1)
        with sqlite3.connect(db) as conn:
            (payload,) = conn.execute("SELECT payload FROM outbox").fetchone()
        sender = client(broker.port, "sender")
        sender.connect("127.0.0.1", broker.port)
        sender.loop_start()
        sender.publish("pegboard/v1/red-lion/t1/finished", payload, qos=1).wait_for_publish(5)
        sender.disconnect()
        sender.loop_stop()

        def view() -> dict[str, object]:
            with urllib.request.urlopen(url + "view.json", timeout=5) as answer:
                return dict(json.loads(answer.read()))

        wait_until(lambda: view().get("games") == 1, 10.0, "the game on the page")
        assert [s["name"] for s in view()["standings"]] == ["Ann", "Bob"]  # type: ignore[attr-defined]
        with urllib.request.urlopen(url, timeout=5) as answer:
            assert b"pegboard league" in answer.read()
    finally:
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(10) == 0
