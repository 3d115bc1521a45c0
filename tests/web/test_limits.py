"""The pub page's server keeps its memory and its connection slots bounded against bad clients.

Every test talks to a real ``WebServer`` on 127.0.0.1 (loopback only). The header attack runs
the server in its own process and reads that process's memory from ``/proc``; the others run
it in this one. Deadlines here are hang guards, never speed checks.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.web.server import CSP, WebServer
from tests.web.test_server import Stream, loopback, raw, request, start

HEADER_BUDGET = 8192
"""``web.server.MAX_HEADER_BYTES``, said again so this file runs against an older server."""

SERVE = """
import sys
from pathlib import Path
from pegboard.web.server import WebServer
server = WebServer("127.0.0.1", 0, static_dir=Path(sys.argv[1]), timeout=30.0)
server.start()
server.publish({"view": {"step": 1}})
print(server.address[1], flush=True)
sys.stdin.read()  # until the test closes our stdin
server.close()
"""


@pytest.fixture
def static(tmp_path: Path) -> Path:
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "index.html").write_text("<!doctype html><title>pub</title>\n")
    return folder


def memory(pid: int) -> dict[str, int]:
    """The process's VmRSS and VmHWM in KiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields


def send_headers(port: int, lines: int, size: int, done: list[int]) -> None:
    """One attacker: a GET with *lines* header lines of *size* bytes each, then hold on."""
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        try:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: pub\r\n")
            line = b"X-Pad: " + b"a" * (size - 9) + b"\r\n"
            for _ in range(lines):
                sock.sendall(line)
                sent += len(line)
            sock.sendall(b"\r\n")
            sock.recv(1)  # the answer (or the close) has come
        except OSError:  # refused part-way: the server closed on us
            pass
    done.append(sent)


def test_ten_connections_of_megabyte_headers_leave_the_memory_as_it_was(static: Path) -> None:
    """20 connections each sending ~6 MB of headers (100 lines of 60 KB, what the standard
    library allowed) took the daemon from 31 to 309 MiB; now each stops at the header budget."""
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(static)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        port = int(process.stdout.readline())
        assert request_at(port, "/")[0] == 200
        before = memory(process.pid)
        done: list[int] = []
        attackers = [
            threading.Thread(target=send_headers, args=(port, 100, 60_000, done)) for _ in range(20)
        ]
        for attacker in attackers:
            attacker.start()
        for attacker in attackers:
            attacker.join(timeout=120)
        assert len(done) == 20
        after = memory(process.pid)
        grew = (after["VmHWM"] - before["VmRSS"]) / 1024
        rss, peak = after["VmRSS"] / 1024, after["VmHWM"] / 1024
        print(
            f"\nheader attack: RSS {before['VmRSS'] / 1024:.1f} -> {rss:.1f} MiB, peak {peak:.1f}"
        )
        assert grew < 20, f"the server grew by {grew:.1f} MiB under the header attack"
        assert request_at(port, "/")[0] == 200  # and it carries on
    finally:
        if process.stdin is not None:
            process.stdin.close()
        process.wait(timeout=30)


def request_at(port: int, path: str) -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET %s HTTP/1.1\r\nHost: pub\r\nConnection: close\r\n\r\n" % path.encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return int(answer.split(b" ", 2)[1]), answer


def test_headers_past_the_budget_are_431(static: Path) -> None:
    server = start(static)
    try:
        lines = b"".join(b"X-%d: %s\r\n" % (i, b"b" * 900) for i in range(10))  # 9 KB in all
        answer = raw(server, b"GET / HTTP/1.1\r\nHost: pub\r\n" + lines + b"\r\n")
        assert answer.startswith(b"HTTP/1.1 431 ")
        fits = b"".join(b"X-%d: %s\r\n" % (i, b"b" * 900) for i in range(HEADER_BUDGET // 1000))
        assert raw(server, b"GET / HTTP/1.1\r\nConnection: close\r\n" + fits + b"\r\n").startswith(
            b"HTTP/1.1 200 "
        )
    finally:
        server.close()


@pytest.fixture
def slow_server(static: Path) -> Iterator[WebServer]:
    server = start(static, timeout=1.0, max_connections=40, max_per_client=8)
    yield server
    server.close()


def test_a_request_head_that_trickles_in_is_dropped_at_its_deadline(
    slow_server: WebServer,
) -> None:
    """One byte every 0.1 s never let a 1 s socket timeout fire; the head's deadline does."""
    head = b"GET / HTTP/1.1\r\nHost: pub\r\nX-Slow: " + b"z" * 1000
    with socket.create_connection(slow_server.address, timeout=10) as sock:
        sent = 0
        for byte in head:  # 1000+ bytes at 0.1 s: ~100 s, far past the deadline
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                break
            sent += 1
            time.sleep(0.1)
            if _closed(sock):
                break
        assert sent < len(head), "the server never dropped a request head that trickled in"


def _closed(sock: socket.socket) -> bool:
    """Whether the server has answered or closed (without waiting)."""
    sock.setblocking(False)
    try:
        return sock.recv(65536, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        sock.setblocking(True)


def test_many_slow_clients_from_one_address_leave_room_for_a_real_page(
    slow_server: WebServer,
) -> None:
    """60 slow sockets on 127.0.0.1 take at most 8 slots (the cap per address, set low here);
    a page from another address (127.0.1.2) is still served, not 503."""
    sockets = []
    try:
        for _ in range(60):
            sock = socket.create_connection(slow_server.address, timeout=10)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: pub\r\n")  # and never the rest
            sockets.append(sock)
        with socket.create_connection(slow_server.address, 10, (loopback(0), 0)) as real:
            real.sendall(b"GET / HTTP/1.1\r\nHost: pub\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := real.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200 "), answer[:40]
        assert b"<title>pub</title>" in answer
    finally:
        for sock in sockets:
            sock.close()


def test_a_request_that_says_http_0_9_gets_a_status_line_and_the_policy(static: Path) -> None:
    server = start(static)
    try:
        answer = raw(server, b"GET / HTTP/0.9\r\n\r\n")
        head = answer.split(b"\r\n\r\n", 1)[0].decode()
        assert head.startswith("HTTP/1.1 505 ")
        assert f"Content-Security-Policy: {CSP}" in head
        assert "<title>pub</title>" not in answer.decode()
        assert request(server, "GET", "/")[0] == 200
    finally:
        server.close()


def test_a_stalled_stream_is_cut_with_little_queued(static: Path) -> None:
    """A page that stops reading its stream: the server's send buffer is small, so the write
    blocks early and the stream is cut after the timeout with tens of KB queued, not the
    megabytes the kernel's buffer grows to."""
    server = start(static, timeout=1.0)
    stalled = Stream(server, rcvbuf=4096)  # connects and never reads
    try:
        stalled.head()
        big = "y" * 100_000
        deadline = time.monotonic() + 60  # hang guard
        step = 0
        while server.streams and time.monotonic() < deadline:
            step += 1
            server.publish({"view": {"prompt": big, "step": step}})
            time.sleep(0.01)
        assert server.streams == 0
        queued = len(stalled.buffer)
        stalled.sock.settimeout(10)
        while chunk := stalled.sock.recv(65536):
            queued += len(chunk)
        print(f"\nqueued for a stalled stream before it was cut: {queued / 1024:.0f} KB")
        assert queued < 256 * 1024
    finally:
        stalled.close()
        server.close()


def test_the_header_budget_is_the_servers() -> None:
    from pegboard.web.server import MAX_HEADER_BYTES

    assert MAX_HEADER_BYTES == HEADER_BUDGET
