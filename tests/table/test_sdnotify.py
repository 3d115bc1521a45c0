"""The notify protocol against a real AF_UNIX datagram socket standing in for systemd."""

from __future__ import annotations

import os
import socket
import uuid
from pathlib import Path

import pytest

from pegboard.table.sdnotify import Notifier, WatchdogPinger


def _received(sock: socket.socket) -> list[str]:
    return sock.recv(4096).decode().split("\n")


def test_ready_watchdog_stopping_and_status_reach_the_socket(
    notify_socket: tuple[socket.socket, str],
) -> None:
    sock, path = notify_socket
    n = Notifier(env={"NOTIFY_SOCKET": path})
    assert n.enabled
    assert n.ready("game loaded")
    first = _received(sock)
    assert first[0] == "READY=1"
    assert f"MAINPID={os.getpid()}" in first
    assert "STATUS=game loaded" in first
    assert n.watchdog()
    assert _received(sock) == ["WATCHDOG=1"]
    assert n.status("deal 3\nscores 40-37")
    assert _received(sock) == ["STATUS=deal 3 scores 40-37"]
    assert n.stopping()
    assert _received(sock) == ["STOPPING=1"]
    n.close()


def test_abstract_namespace_address_is_reached() -> None:
    name = f"pegboard-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(5)
    try:
        n = Notifier(env={"NOTIFY_SOCKET": "@" + name})
        assert n.watchdog()
        assert _received(sock) == ["WATCHDOG=1"]
    finally:
        sock.close()


def test_without_systemd_every_call_is_a_no_op() -> None:
    n = Notifier(env={})
    assert not n.enabled
    assert (n.ready(), n.watchdog(), n.stopping(), n.status("x")) == (False,) * 4
    assert n.watchdog_interval is None


def test_a_vanished_socket_is_logged_not_raised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    n = Notifier(env={"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert not n.ready()
    assert not n.watchdog()
    assert sum("cannot notify systemd" in r.message for r in caplog.records) == 1


@pytest.mark.parametrize(
    ("env", "interval"),
    [
        pytest.param({"WATCHDOG_USEC": "30000000"}, 15.0, id="half-of-30s"),
        pytest.param({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "4242"}, 15.0, id="our-pid"),
        pytest.param({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, None, id="other-pid"),
        pytest.param({"WATCHDOG_USEC": "0"}, None, id="zero"),
        pytest.param({"WATCHDOG_USEC": "soon"}, None, id="not-a-number"),
        pytest.param({}, None, id="unset"),
    ],
)
def test_watchdog_interval_from_the_environment(
    env: dict[str, str], interval: float | None
) -> None:
    n = Notifier(env={"NOTIFY_SOCKET": "/run/x", **env}, pid=4242)
    assert n.watchdog_interval == interval


def test_pinger_pings_at_most_once_per_interval(notify_socket: tuple[socket.socket, str]) -> None:
    sock, path = notify_socket
    n = Notifier(env={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"})
    pinger = WatchdogPinger(n)
    sent = [pinger.tick(t) for t in (100.0, 100.5, 100.99, 101.0, 101.2, 102.5)]
    assert sent == [True, False, False, True, False, True]
    assert [_received(sock) for _ in range(3)] == [["WATCHDOG=1"]] * 3
    sock.setblocking(False)
    with pytest.raises(BlockingIOError):
        sock.recv(4096)


def test_pinger_without_a_watchdog_never_pings() -> None:
    pinger = WatchdogPinger(Notifier(env={"NOTIFY_SOCKET": "/run/x"}))
    assert not any(pinger.tick(float(t)) for t in range(100))
