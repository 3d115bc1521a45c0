"""Two league services with one client id: the broker drops each for the other, again and
again; each says so once, as an error naming --client-id.

An MQTT 5 broker says why (DISCONNECT with reason 0x8E, "Session taken over"); Mosquitto before
2.0.15 (Debian Bookworm's 2.0.11) only closes the old connection, so the service also knows the
fight by its shape: the broker dropping it within seconds of connecting, three times in a row.
A stub broker on a socket sends the 0x8E itself.
"""

from __future__ import annotations

import logging
import re
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from tests.league.conftest import Mosquitto, wait_until

Make = Callable[..., Mosquitto]


@pytest.mark.timeout(300)  # a hang guard: 12 s with -n 2 beside other work
def test_a_second_service_with_the_same_client_id_is_one_error_each(
    tmp_path: Path, mosquitto: Make, caplog: pytest.LogCaptureFixture
) -> None:
    broker = mosquitto().start()
    made: list[LeagueService] = []
    try:
        with caplog.at_level(logging.INFO, logger="pegboard.league"):
            for name in ("a", "b"):
                service = LeagueService(
                    LeagueStore(tmp_path / f"{name}.db"),
                    Broker("127.0.0.1", broker.port),
                    client_id="pegboard-league",
                )
                made.append(service)
                service.start()
                assert service.wait_connected(10.0)
            first, second = made
            # they fight: each is dropped for the other more than once
            wait_until(
                lambda: first.counts.taken_over >= 2 and second.counts.taken_over >= 2,
                60.0,
                "the broker swapping the two sessions",
            )
    finally:
        for service in made:
            service.close()
            service.store.close()
    errors = [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith("pegboard") and r.levelno >= logging.ERROR
    ]
    line = (
        r"league: another league service with client id 'pegboard-league' (took|seems to have "
        rf"taken) the session over \(on 127\.0\.0\.1:{broker.port}\); each service needs its own "
        r"--client-id, and only one may keep a league's games"
    )
    assert len(errors) == 2, errors  # one from each service, however often they swapped
    assert all(re.fullmatch(line, error) for error in errors), errors


def test_services_with_their_own_client_ids_say_nothing_of_it(
    tmp_path: Path, mosquitto: Make, caplog: pytest.LogCaptureFixture
) -> None:
    broker = mosquitto().start()
    made: list[LeagueService] = []
    try:
        with caplog.at_level(logging.INFO, logger="pegboard.league"):
            for name in ("a", "b"):
                service = LeagueService(
                    LeagueStore(tmp_path / f"{name}.db"),
                    Broker("127.0.0.1", broker.port),
                    client_id=f"pegboard-league-{name}",
                )
                made.append(service)
                service.start()
                assert service.wait_connected(10.0)
    finally:
        for service in made:
            service.close()
            service.store.close()
    assert [s.counts.taken_over for s in made] == [0, 0]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


CONNACK = bytes([0x20, 3, 0, 0, 0])  # MQTT 5: no session present, success, no properties
SUBACK = bytes([0x90, 6])  # + the packet id, no properties, three granted QoS 1
TAKEN_OVER = bytes([0xE0, 2, 0x8E, 0])  # DISCONNECT, reason 0x8E, no properties


def read_packet(conn: socket.socket) -> bytes:
    """One MQTT packet: its fixed header's first byte, then its body."""
    head = conn.recv(1)
    if not head:
        raise ConnectionError("closed")
    length, shift = 0, 0
    while True:
        byte = conn.recv(1)[0]
        length += (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            break
    body = b""
    while len(body) < length:
        body += conn.recv(length - len(body))
    return head + body


@pytest.fixture
def taking_over() -> Iterator[tuple[int, list[int]]]:
    """A stub MQTT 5 broker that takes every session over: CONNACK, SUBACK, then DISCONNECT
    0x8E; its port and how many connections it has had."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    seen: list[int] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(5.0)
                try:
                    read_packet(conn)  # CONNECT
                    conn.sendall(CONNACK)
                    subscribe = read_packet(conn)
                    conn.sendall(SUBACK[:2] + subscribe[2:4] + b"\0\1\1\1")
                    conn.sendall(TAKEN_OVER)
                    seen.append(1)
                    # read what the client sent meanwhile (its mark) before closing, as a broker
                    # does: closing with unread bytes resets the connection, DISCONNECT unread
                    conn.settimeout(1.0)
                    while conn.recv(4096):
                        pass
                except (OSError, IndexError):
                    continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], seen
    stop.set()
    thread.join(5.0)
    server.close()


def test_a_broker_that_says_session_taken_over_is_one_error(
    tmp_path: Path, taking_over: tuple[int, list[int]], caplog: pytest.LogCaptureFixture
) -> None:
    port, seen = taking_over
    service = LeagueService(
        LeagueStore(tmp_path / "a.db"), Broker("127.0.0.1", port), client_id="pub-league"
    )
    try:
        with caplog.at_level(logging.INFO, logger="pegboard.league"):
            service.start()
            wait_until(lambda: service.counts.taken_over >= 2, 60.0, "taken over twice")
    finally:
        service.close()
        service.store.close()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [
        f"league: another league service with client id 'pub-league' took the session over (on "
        f"127.0.0.1:{port}); each service needs its own --client-id, and only one may keep a "
        "league's games"
    ]
    assert len(seen) >= 2


@pytest.mark.timeout(300)  # a hang guard: about 8 s alone
def test_a_broker_restarted_three_times_quickly_is_no_other_service(
    tmp_path: Path, mosquitto: Make, caplog: pytest.LogCaptureFixture
) -> None:
    broker = mosquitto().start()
    service = LeagueService(
        LeagueStore(tmp_path / "a.db"), Broker("127.0.0.1", broker.port), client_id="pub-league"
    )
    try:
        with caplog.at_level(logging.INFO, logger="pegboard.league"):
            service.start()
            assert service.wait_connected(10.0)
            for restart in range(4):
                wait_until(lambda: service.marked, 30.0, "the service's mark on the broker")
                if restart == 3:
                    break
                broker.stop()  # a restart within seconds of the service's connection
                wait_until(lambda: not service.wait_connected(0), 30.0, "the service dropped")
                broker.start()
                assert service.wait_connected(30.0)
    finally:
        service.close()
        service.store.close()
    said = [r.getMessage() for r in caplog.records if r.name.startswith("pegboard")]
    assert service.counts.taken_over == 0
    assert not [line for line in said if "taken" in line or "took" in line], said
    dropped = [line for line in said if "dropped" in line]
    assert len(dropped) == 3, said
    where = f"league: the broker 127.0.0.1:{broker.port} dropped the service's connection"
    assert all(line.startswith(where) for line in dropped), dropped


@pytest.mark.timeout(300)  # a hang guard: about 8 s alone
def test_without_its_mark_a_service_says_it_cannot_tell_a_restart_from_a_twin(
    tmp_path: Path, mosquitto: Make, caplog: pytest.LogCaptureFixture
) -> None:
    acl = tmp_path / "old.acl"  # an ACL from before the mark: the league user only reads
    acl.write_text("topic read pegboard/v1/#\ntopic read $SYS/#\n")
    broker = mosquitto(extra=f"allow_anonymous true\nacl_file {acl}\n").start()
    service = LeagueService(
        LeagueStore(tmp_path / "a.db"), Broker("127.0.0.1", broker.port), client_id="pub-league"
    )
    try:
        with caplog.at_level(logging.INFO, logger="pegboard.league"):
            service.start()
            assert service.wait_connected(10.0)
            for _ in range(3):
                broker.stop()
                wait_until(lambda: not service.wait_connected(0), 30.0, "the service dropped")
                broker.start()
                assert service.wait_connected(30.0)
    finally:
        service.close()
        service.store.close()
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert not service.marked and service.counts.taken_over == 0
    assert warnings == [
        f"league: the broker 127.0.0.1:{broker.port} dropped the service 3 times within 5 s of "
        "connecting: either the broker is restarting, or another league service uses client id "
        "'pub-league'; cannot tell which, as the service's mark on "
        "'pegboard/v1/service/pub-league' is not readable (check the ACL: the league user reads "
        "and writes pegboard/v1/service/#)"
    ]
