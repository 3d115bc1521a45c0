"""The pub page's server over real sockets: every answer, the event stream, and bad clients.

Each test starts a ``WebServer`` on a free port of 127.0.0.1 with its own static folder and
talks to it with ``http.client`` or a raw socket. Waits are bounded by generous deadlines (the
machine may be busy); the timings the issue asks for are measured and printed with ``-s``.
"""

from __future__ import annotations

import errno
import http.client
import json
import queue
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from pegboard.colours import linear_to_srgb
from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, apply
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules, Variant
from pegboard.engine.view import render_view
from pegboard.i18n import Language
from pegboard.journal import Journal
from pegboard.journal.reader import HistoryReader, HistorySnapshot
from pegboard.league.service import STATIC_DIR as LEAGUE_STATIC_DIR
from pegboard.ui.ledlayout import DEFAULT_SIDE_COLORS
from pegboard.web.players import figures_payload
from pegboard.web.publisher import ViewPublisher, evening_of, evening_start
from pegboard.web.server import (
    CSP,
    HOUSE_DIR,
    STATIC_DIR,
    WebServer,
    WebServerError,
    _Handler,
    public_url,
)

from .test_page import Table

INDEX = b"<!doctype html><title>pegboard</title><p>the board</p>\n"


@pytest.fixture
def static(tmp_path: Path) -> Path:
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "index.html").write_bytes(INDEX)
    (folder / "app.js").write_text("console.log('hi');\n")
    (folder / "board.css").write_text("body { margin: 0 }\n")
    (folder / "sub").mkdir()
    (folder / "sub" / "x.js").write_text("1\n")
    (tmp_path / "secret.txt").write_text("the cellar key\n")
    (folder / "link.txt").symlink_to(tmp_path / "secret.txt")
    (folder / ".hidden").write_text("no\n")
    return folder


def start(static: Path, **options: Any) -> WebServer:
    options = {"keepalive": 15.0, "timeout": 2.0, **options}
    server = WebServer("127.0.0.1", 0, static_dir=static, **options)
    server.start()
    return server


@pytest.fixture
def server(static: Path) -> Iterator[WebServer]:
    s = start(static)
    yield s
    s.close()


def request(
    server: WebServer, method: str, path: str, headers: Mapping[str, str] | None = None
) -> tuple[int, http.client.HTTPMessage, bytes]:
    host, port = server.address
    conn = http.client.HTTPConnection(host, port, timeout=10)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            conn.putheader(name, value)
        conn.endheaders()
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def loopback(device: int) -> str:
    """Device *device*'s own loopback address (127.0.x.y, never 127.0.0.1): hundreds of
    connections from many devices, each under the server's cap per address."""
    return f"127.0.{device // 250 + 1}.{device % 250 + 2}"


def raw(server: WebServer, data: bytes, *, limit: float = 10.0) -> bytes:
    """Send *data* on a fresh connection and read until the server closes it."""
    with socket.create_connection(server.address, timeout=limit) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


class Stream:
    """An event-stream reader on a raw socket: headers, then the stream's blocks."""

    def __init__(
        self, server: WebServer, *, rcvbuf: int | None = None, device: int | None = None
    ) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        if device is not None:
            self.sock.bind((loopback(device), 0))
        self.sock.settimeout(10)
        self.sock.connect(server.address)
        self.sock.sendall(b"GET /events HTTP/1.1\r\nHost: pub\r\nAccept: text/event-stream\r\n\r\n")
        self.buffer = b""
        self.ended = False

    def head(self) -> bytes:
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        return head

    def _fill(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            self.ended = True
            raise EOFError("the stream ended")
        self.buffer += chunk

    def block(self) -> bytes:
        """The next block (up to its blank line), without the blank line."""
        while b"\n\n" not in self.buffer:
            self._fill()
        block, self.buffer = self.buffer.split(b"\n\n", 1)
        return block

    def event(self) -> dict[str, Any]:
        """The next ``view`` event's payload (keep-alive comments and ``retry:`` skipped)."""
        while True:
            block = self.block()
            if block.startswith(b"event: view\n"):
                return parse_event(block)

    def rest(self) -> bytes:
        """Everything until the server closes the stream."""
        try:
            while True:
                self._fill()
        except EOFError:
            return self.buffer

    def close(self) -> None:
        self.sock.close()


def parse_event(block: bytes) -> dict[str, Any]:
    lines = block.decode().split("\n")
    assert lines[0] == "event: view"
    assert lines[1].startswith("data: ") and lines[2].startswith("id: ") and len(lines) == 3
    payload: dict[str, Any] = json.loads(lines[1].removeprefix("data: "))
    assert payload["version"] == int(lines[2].removeprefix("id: "))
    return payload


def publish(server: WebServer, n: int = 1, **extra: Any) -> int:
    version = 0
    for i in range(n):
        version = server.publish({"view": {"prompt": f"step {i}"}, **extra})
    return version


# -- the page and its files ----------------------------------------------------------------------


def test_the_page_is_served_at_the_root_with_a_strict_policy(server: WebServer) -> None:
    status, headers, body = request(server, "GET", "/")
    assert (status, body) == (200, INDEX)
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Content-Security-Policy"] == CSP
    assert headers["Cache-Control"] == "no-cache"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Content-Length"] == str(len(INDEX))
    assert "Python" not in headers["Server"]


def test_the_policy_allows_nothing_from_elsewhere() -> None:
    directives = dict(part.strip().split(" ", 1) for part in CSP.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["script-src"] == "'self'"  # no inline script, no eval
    assert directives["style-src"] == "'self'"  # no inline style: el.style (CSSOM) still works
    assert "unsafe" not in CSP
    assert "http" not in CSP and "*" not in CSP


@pytest.mark.parametrize("page", [STATIC_DIR, LEAGUE_STATIC_DIR], ids=["pub", "league"])
def test_neither_page_has_inline_style_the_policy_would_refuse(page: Path) -> None:
    html = (page / "index.html").read_text(encoding="utf-8")
    assert re.search(r"<style\b|\sstyle\s*=", html, re.IGNORECASE) is None
    for script in page.glob("*.js"):  # a style attribute made by script is refused as well
        text = script.read_text(encoding="utf-8")
        assert re.search(r"setAttribute\(\s*[\"']style|style=|cssText", text) is None, script.name


@pytest.mark.parametrize(
    ("name", "content_type"),
    [
        pytest.param("app.js", "text/javascript; charset=utf-8", id="js"),
        pytest.param("board.css", "text/css; charset=utf-8", id="css"),
        pytest.param("index.html", "text/html; charset=utf-8", id="html"),
    ],
)
def test_static_files_by_plain_name(
    server: WebServer, static: Path, name: str, content_type: str
) -> None:
    status, headers, body = request(server, "GET", f"/static/{name}")
    assert (status, headers["Content-Type"]) == (200, content_type)
    assert body == (static / name).read_bytes()
    assert headers["Cache-Control"] == "no-cache"


def test_every_page_gets_the_house_look_and_its_own_file_comes_first(
    server: WebServer, static: Path
) -> None:
    status, headers, body = request(server, "GET", "/static/house.css")
    assert (status, headers["Content-Type"]) == (200, "text/css; charset=utf-8")
    assert body == (HOUSE_DIR / "house.css").read_bytes()
    (static / "house.css").write_text("body { color: red }\n")
    assert request(server, "GET", "/static/house.css")[2] == b"body { color: red }\n"


@pytest.mark.parametrize("page", [STATIC_DIR, LEAGUE_STATIC_DIR], ids=["pub", "league"])
def test_both_pages_load_the_house_look_before_their_own(page: Path) -> None:
    html = (page / "index.html").read_text(encoding="utf-8")
    sheets = re.findall(r'<link rel="stylesheet" href="/?static/([\w.]+)">', html)
    assert sheets[0] == "house.css" and len(sheets) == 2
    assert (page / sheets[1]).is_file()


def test_the_house_side_colours_are_the_led_tracks() -> None:
    css = (HOUSE_DIR / "house.css").read_text(encoding="utf-8")
    found = dict(re.findall(r'\[data-side="(\d)"\] \{ --c: (#[0-9a-f]{6});', css))
    # the LED's light, sRGB-encoded (pegboard.colours): the page shows what the LEDs show
    encoded = {
        str(side): "#" + "".join(f"{round(255 * linear_to_srgb(v / 255)):02x}" for v in color)
        for side, color in enumerate(DEFAULT_SIDE_COLORS)
    }
    assert found == encoded


@pytest.mark.parametrize(
    "path",
    [
        "/static/../secret.txt",
        "/static/..%2fsecret.txt",
        "/static/%2e%2e/secret.txt",
        "/static/%2e%2e%2fsecret.txt",
        "/static/%2E%2E%2Fsecret.txt",
        "/static/..\\secret.txt",
        "/static/..%5csecret.txt",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/sub/x.js",
        "/static/link.txt",
        "/static/.hidden",
        "/static/",
        "/static/missing.js",
        "/static/app.js%00",
        "/../secret.txt",
        "//etc/passwd",
        "/etc/passwd",
        "/secret.txt",
        "/index.htm",
        "http://elsewhere/static/app.js",
    ],
)
def test_no_path_reaches_outside_the_static_folder(server: WebServer, path: str) -> None:
    status, headers, body = request(server, "GET", path)
    assert status == 404
    assert b"cellar" not in body
    assert headers["Content-Security-Policy"] == CSP


def test_head_answers_like_get_without_a_body(server: WebServer) -> None:
    publish(server)
    for path in ("/", "/static/app.js", "/view.json", "/nowhere"):
        got = request(server, "GET", path)
        head = request(server, "HEAD", path)
        assert head[0] == got[0] and head[2] == b""
        assert head[1]["Content-Type"] == got[1]["Content-Type"]
        if path != "/view.json":  # its "sent" time is the same length only by luck
            assert head[1]["Content-Length"] == got[1]["Content-Length"]


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "BREW"])
def test_every_other_method_is_refused(server: WebServer, method: str) -> None:
    publish(server)
    before = server.latest()
    status, headers, _ = request(server, method, "/view.json", {"Content-Length": "0"})
    assert status == 405
    assert headers["Allow"] == "GET, HEAD"
    assert server.latest() == before


def test_a_refused_post_with_a_body_does_not_smuggle_a_second_request(server: WebServer) -> None:
    body = b"GET /static/app.js HTTP/1.1\r\nHost: x\r\n\r\n"
    answer = raw(
        server,
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body) + body,
    )
    assert answer.startswith(b"HTTP/1.1 405 ")
    assert answer.count(b"HTTP/1.1 ") == 1


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        pytest.param(b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n", b"414", id="request-line"),
        pytest.param(b"GET / HTTP/1.1\r\nX: " + b"b" * 70_000 + b"\r\n\r\n", b"431", id="header"),
        pytest.param(
            b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(200)) + b"\r\n",
            b"431",
            id="many-headers",
        ),
        pytest.param(b"GARBAGE\r\n\r\n", b"400", id="garbage"),
        pytest.param(b"GET / NOTHTTP\r\n\r\n", b"400", id="bad-version"),
        pytest.param(b"GET / HTTP/9.9\r\n\r\n", b"505", id="future-version"),
    ],
)
def test_oversized_or_bad_requests_are_refused_quietly(
    server: WebServer, request_bytes: bytes, status: bytes, capfd: pytest.CaptureFixture[str]
) -> None:
    answer = raw(server, request_bytes)
    assert answer.split(b" ", 2)[1] == status
    assert request(server, "GET", "/")[0] == 200  # and the server carries on
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")


def test_unknown_paths_are_404(server: WebServer) -> None:
    assert request(server, "GET", "/admin")[0] == 404
    assert request(server, "GET", "/events/x")[0] == 404


# -- the view -------------------------------------------------------------------------------------


def test_the_view_is_503_until_the_first_publish(server: WebServer) -> None:
    status, headers, body = request(server, "GET", "/view.json")
    assert status == 503 and headers["Content-Type"] == "application/json"
    assert json.loads(body)["version"] == 0
    assert server.version == 0


def test_the_view_is_the_latest_payload_serialised_once(server: WebServer) -> None:
    publish(server, 3, win_probability=[0.25, 0.75], evening=[])
    status, headers, body = request(server, "GET", "/view.json?cache=no")
    assert status == 200 and headers["Content-Type"] == "application/json"
    payload = json.loads(body)
    assert list(payload) == ["version", "status", "view", "win_probability", "evening", "sent"]
    assert payload["version"] == 3 == server.version
    assert payload["status"] == "live"
    assert payload["view"] == {"prompt": "step 2"}
    assert abs(payload["sent"] - time.time()) < 60
    assert body == server.latest()[1]  # the very bytes publish made
    assert b"\n" not in body and b": " not in body  # compact: one line


# -- the event stream ------------------------------------------------------------------------------


def test_a_stream_starts_with_retry_then_the_latest_payload_at_once(server: WebServer) -> None:
    publish(server, 2)
    stream = Stream(server)
    try:
        head = stream.head()
        assert head.startswith(b"HTTP/1.1 200 ")
        assert b"Content-Type: text/event-stream" in head
        assert b"Cache-Control: no-cache" in head
        assert stream.block() == b"retry: 2000"
        first = parse_event(stream.block())
        assert first["version"] == 2 and first["view"] == {"prompt": "step 1"}
    finally:
        stream.close()


def test_every_new_payload_follows_in_order_whole(server: WebServer) -> None:
    stream = Stream(server)
    try:
        stream.head()
        assert stream.block() == b"retry: 2000"
        versions = []
        for i in range(5):
            server.publish({"view": {"prompt": f"step {i}"}, "evening": []})
            payload = stream.event()
            versions.append(payload["version"])
            assert payload["view"] == {"prompt": f"step {i}"} and payload["evening"] == []
        assert versions == [1, 2, 3, 4, 5]
    finally:
        stream.close()


def test_a_slow_reader_skips_to_the_newest_payload(server: WebServer) -> None:
    stream = Stream(server)
    try:
        stream.head()
        last = publish(server, 200)
        versions = []
        while not versions or versions[-1] != last:
            versions.append(stream.event()["version"])
        assert versions == sorted(set(versions))  # never an older one after a newer one
    finally:
        stream.close()


def test_a_quiet_stream_gets_keep_alive_comments(static: Path) -> None:
    server = start(static, keepalive=0.2)
    stream = Stream(server)
    try:
        stream.head()
        publish(server)
        assert stream.block() == b"retry: 2000"
        assert stream.event()["version"] == 1
        started = time.monotonic()
        assert stream.block() == b": keep-alive"
        assert stream.block() == b": keep-alive"
        assert time.monotonic() - started < 5.0
    finally:
        stream.close()
        server.close()


def test_close_tells_every_stream_paused_and_ends_it_promptly(static: Path) -> None:
    server = start(static)
    publish(server, 2)
    streams = [Stream(server) for _ in range(5)]
    for stream in streams:
        stream.head()
        assert stream.event()["version"] == 2
    started = time.monotonic()
    server.close()
    took = time.monotonic() - started
    for stream in streams:
        rest = stream.rest()
        blocks = [b for b in rest.split(b"\n\n") if b.startswith(b"event: view")]
        last = parse_event(blocks[-1])
        assert (last["status"], last["version"]) == ("paused", 3)
        assert last["view"] == {"prompt": "step 1"}
        stream.close()
    ended = time.monotonic() - started
    print(f"\nclose(): {took * 1000:.1f} ms; every stream ended within {ended * 1000:.1f} ms")
    assert took < 1.0 and ended < 1.0
    assert server.version == 3
    server.close()  # idempotent
    assert server.publish({"view": None}) == 3  # nothing after close


def test_close_cuts_off_a_stalled_stream_and_idle_connections(static: Path) -> None:
    server = start(static, timeout=30.0)
    stalled = Stream(server, rcvbuf=4096)
    idle = socket.create_connection(server.address)
    try:
        stalled.head()
        big = "x" * 200_000
        for _ in range(30):  # far more than the socket buffers hold
            server.publish({"view": {"prompt": big}})
        started = time.monotonic()
        server.close()
        assert time.monotonic() - started < 2.0
        idle.settimeout(5)
        assert idle.recv(1) == b""  # shut, not left waiting for the 30 s timeout
    finally:
        stalled.close()
        idle.close()


def test_close_before_start_and_twice_is_harmless(static: Path) -> None:
    server = WebServer("127.0.0.1", 0, static_dir=static)
    server.close()
    server.close()
    with pytest.raises(WebServerError, match="not started"):
        server.url  # noqa: B018


# -- bad clients -----------------------------------------------------------------------------------


def test_a_stalled_reader_never_delays_publish_and_is_dropped(static: Path) -> None:
    server = start(static, timeout=1.0)
    stalled = Stream(server, rcvbuf=4096)  # connects and never reads
    normal = Stream(server)
    try:
        stalled.head()
        normal.head()
        big = "y" * 500_000
        times = []
        for i in range(20):
            started = time.perf_counter()
            server.publish({"view": {"prompt": big, "step": i}})
            times.append(time.perf_counter() - started)
            assert normal.event()["view"]["step"] == i  # the normal page keeps up
        print(f"\npublish of 0.5 MB with a stalled reader: max {max(times) * 1000:.2f} ms")
        assert max(times) < 0.5  # the serialising; never a socket
        deadline = time.monotonic() + 10
        while server.streams > 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.streams == 1  # the stalled one was dropped after its timeout
        server.publish({"view": {"prompt": "after", "step": 99}})
        assert normal.event()["view"]["step"] == 99
    finally:
        stalled.close()
        normal.close()
        server.close()


def test_every_answer_is_sent_at_once_without_waiting_for_an_ack(
    server: WebServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nagle's algorithm is off on every accepted socket: with it on, a keep-alive GET waits
    ~40 ms for the client's delayed ACK instead of ~0.2 ms (checked from the server's side)."""
    nodelay: list[int] = []
    setup = _Handler.setup

    def recorded(handler: _Handler) -> None:
        setup(handler)
        nodelay.append(handler.connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    monkeypatch.setattr(_Handler, "setup", recorded)
    publish(server)
    assert request(server, "GET", "/view.json")[0] == 200
    assert request(server, "GET", "/")[0] == 200
    assert len(nodelay) == 2 and all(nodelay), nodelay


def test_hundreds_of_connections_never_slow_a_publish(static: Path) -> None:
    server = start(static, timeout=30.0)
    sockets: list[socket.socket] = []
    normal: Stream | None = None
    try:
        for i in range(300):
            sock = socket.create_connection(server.address, 10, (loopback(i), 0))
            if i % 2:  # half send half a request and stop; half send nothing at all
                sock.sendall(b"GET /events HTTP/1.1\r\nHost: pub\r\n")
            sockets.append(sock)
        normal = Stream(server)
        normal.head()
        times = []
        for i in range(50):
            started = time.perf_counter()
            server.publish({"view": {"step": i}})
            times.append(time.perf_counter() - started)
            assert normal.event()["view"]["step"] == i
        times.sort()
        print(
            f"\npublish with 300 idle connections open: median {times[25] * 1e6:.0f} us, "
            f"max {times[-1] * 1e6:.0f} us"
        )
        assert times[25] < 0.05
        assert request(server, "GET", "/view.json")[0] == 200
    finally:
        for sock in sockets:
            sock.close()
        if normal is not None:
            normal.close()
        server.close()


def test_a_games_keys_reach_an_open_page_with_300_idle_connections_open(tmp_path: Path) -> None:
    """The device's way: keys pressed on a controller, each change published by its
    ``ViewPublisher`` while 300 connections sit idle; every change reaches a stream."""
    table, keys = Table.for_keys("six-card-lurch", tmp_path)
    sockets: list[socket.socket] = []
    normal: Stream | None = None
    try:
        for i in range(300):
            sock = socket.create_connection(table.server.address, 10, (loopback(i), 0))
            if i % 2:  # half send half a request and stop; half send nothing at all
                sock.sendall(b"GET /events HTTP/1.1\r\nHost: pub\r\n")
            sockets.append(sock)
        normal = Stream(table.server)
        normal.head()
        assert normal.event()["view"] == table.view
        times, changes = [], 0
        for key in keys:
            before = table.server.version
            started = time.perf_counter()
            table.press(key)
            times.append(time.perf_counter() - started)
            if table.server.version == before:
                continue  # a key that changed nothing publishes nothing
            changes += 1
            payload = normal.event()
            while payload["version"] < table.server.version:  # a key may publish twice
                payload = normal.event()
            assert payload["view"] == table.view, f"key {key}"
        assert changes > 40
        assert [side["score"] for side in table.view["sides"]] == [121, 73]
        times.sort()
        print(
            f"\na key press with 300 idle connections open: median "
            f"{times[len(times) // 2] * 1000:.2f} ms, max {times[-1] * 1000:.2f} ms"
        )
    finally:
        for sock in sockets:
            sock.close()
        if normal is not None:
            normal.close()
        table.close()


def test_hundreds_of_open_streams_are_each_sent_the_new_payload(static: Path) -> None:
    server = start(static)
    streams: list[Stream] = []
    try:
        publish(server)
        for i in range(200):
            streams.append(Stream(server, device=i))
        for stream in streams:
            stream.head()
            assert stream.event()["version"] == 1
        started = time.perf_counter()
        server.publish({"view": {"step": "next"}})
        took = time.perf_counter() - started
        for stream in streams:
            assert stream.event()["view"] == {"step": "next"}
        print(f"\npublish with 200 open streams: {took * 1e6:.0f} us")
        assert took < 0.5
    finally:
        for stream in streams:
            stream.close()
        server.close()


def test_streams_beyond_the_cap_are_refused_with_503(static: Path) -> None:
    server = start(static, max_streams=3)
    streams = [Stream(server) for _ in range(3)]
    try:
        publish(server)
        for stream in streams:
            stream.head()
            stream.event()
        answer = raw(server, b"GET /events HTTP/1.1\r\nHost: pub\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 503 ")
        assert request(server, "GET", "/view.json")[0] == 200  # plain requests still answered
        streams.pop().close()
        deadline = time.monotonic() + 10
        while server.streams > 2 and time.monotonic() < deadline:
            server.publish({"view": None})  # a write finds the closed one gone
            time.sleep(0.05)
        again = Stream(server)
        streams.append(again)
        assert again.head().startswith(b"HTTP/1.1 200 ")
    finally:
        for stream in streams:
            stream.close()
        server.close()


def test_connections_beyond_the_cap_are_refused_at_once(static: Path) -> None:
    server = start(static, max_connections=5)
    held = [socket.create_connection(server.address) for _ in range(5)]
    try:
        time.sleep(0.2)  # let the server take all five
        answer = raw(server, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", limit=5.0)
        assert answer.startswith(b"HTTP/1.1 503 ")
    finally:
        for sock in held:
            sock.close()
        server.close()


# -- starting --------------------------------------------------------------------------------------


def test_a_port_in_use_is_one_clear_error(server: WebServer, static: Path) -> None:
    other = WebServer("127.0.0.1", server.address[1], static_dir=static)
    with pytest.raises(WebServerError, match=r"cannot serve the page on 127\.0\.0\.1:\d+: "):
        other.start()


def test_an_address_not_of_this_machine_is_said_so(
    static: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """EADDRNOTAVAIL: the address, not the port, is what to change."""

    def not_here(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address")

    monkeypatch.setattr("pegboard.web.server._HttpServer.__init__", not_here)
    server = WebServer("192.0.2.7", 8121, static_dir=static)
    with pytest.raises(WebServerError) as raised:
        server.start()
    assert str(raised.value) == (
        "cannot serve the page on 192.0.2.7:8121: Cannot assign requested address (192.0.2.7 is "
        "not one of this machine's addresses: change [web] bind or --bind, e.g. to 0.0.0.0 for "
        "every interface)"
    )


def test_the_url_names_loopback_and_public_url_the_network(static: Path) -> None:
    local = start(static)
    everywhere = WebServer("0.0.0.0", 0, static_dir=static)
    everywhere.start()
    try:
        assert local.url == f"http://127.0.0.1:{local.address[1]}/"
        assert public_url(local) == (local.url, "")
        assert everywhere.url == f"http://127.0.0.1:{everywhere.address[1]}/"
        url, note = public_url(everywhere)
        assert note == "listening on all interfaces"
        assert url.endswith(f":{everywhere.address[1]}/")
        host = url.removeprefix("http://").rsplit(":", 1)[0]
        status, _, _ = request_at(host, everywhere.address[1], "/")
        assert status == 200
    finally:
        local.close()
        everywhere.close()


def request_at(host: str, port: int, path: str) -> tuple[int, http.client.HTTPMessage, bytes]:
    conn = http.client.HTTPConnection(host, port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


# -- the publisher ---------------------------------------------------------------------------------


def do(store: Journal, *texts: str) -> None:
    for text in texts:
        assert store.state is not None
        store.do(parse_command(text, store.state.names))


TONIGHT = datetime(2026, 11, 26, 22, 30, tzinfo=UTC)
"""A pub evening the tests' journals are kept in: their commands are stamped 20:00 UTC."""


@pytest.fixture
def tonight(monkeypatch: pytest.MonkeyPatch) -> Callable[[], datetime]:
    """Stamp every journalled command 20:00 UTC on 26 November; the publisher's clock is 22:30."""
    monkeypatch.setattr("pegboard.journal._now", lambda: "2026-11-26T20:00:00.000+00:00")
    return lambda: TONIGHT


def finish_a_game(store: Journal) -> None:
    """Ann wins game 1 with Bob double skunked (the journal tests' short game), once cut."""
    do(store, "starter 5C", "play KS", "play 6H", "play KD", "go", "play 2C")
    do(store, "play 2D", "play 8H", "play 7H", "play 9H", "show", "show", "crib AS 3S 4C QH")
    do(store, "peg Ann 60", "peg Ann 60")


def test_the_publisher_sends_the_view_chances_and_the_evening(
    server: WebServer, tmp_path: Path, tonight: Callable[[], datetime]
) -> None:
    with Journal(tmp_path / "p.db") as store:
        state = store.new_match(Rules.six_card(), ("Ann", "Bob"))
        publisher = ViewPublisher(server, store, now=tonight)
        publisher.publish(state, render_view(state))
        first = json.loads(request(server, "GET", "/view.json")[2])
        assert first["view"] == render_view(state).to_dict()
        assert first["win_probability"] is None  # before the cut
        assert first["evening"] == []
        do(store, "cut 9C 3D")
        assert store.state is not None
        publisher.publish(store.state, render_view(store.state))
        chances = json.loads(request(server, "GET", "/view.json")[2])["win_probability"]
        assert len(chances) == 2 and abs(sum(chances) - 1) < 1e-9
        finish_a_game(store)
        publisher.publish(store.state, render_view(store.state))
        payload = json.loads(request(server, "GET", "/view.json")[2])
        assert payload["version"] == 3 and payload["win_probability"] is None
        assert payload["evening"] == [
            {
                "finished": "20:00",  # in the publisher's clock's time zone (UTC here)
                "match_id": 1,
                "game": 1,
                "variant": "six-card",
                "names": ["Ann", "Bob"],
                "winner": "Ann",
                "scores": [131, 26],  # the score as pegged, past the game hole
                "game_points": 3,
                "lurch": [{"name": "Bob", "score": 26, "lurch": "double-skunked"}],
            }
        ]


def test_the_evening_is_read_again_only_when_the_game_changes(
    server: WebServer, tmp_path: Path
) -> None:
    with Journal(tmp_path / "p.db") as store:
        state = store.new_match(Rules.six_card(), ("Ann", "Bob"))
        reads = 0
        original = store.latest_match

        def counted() -> object:
            nonlocal reads
            reads += 1
            return original()

        store.latest_match = counted  # type: ignore[method-assign,assignment]
        publisher = ViewPublisher(server, store)
        publisher.publish(state, render_view(state))
        for text in ("cut 9C 3D", "starter 5C", "play KS", "play 6H"):
            do(store, text)
            assert store.state is not None
            publisher.publish(store.state, render_view(store.state))
        assert reads == 1
        do(store, "play KD", "go", "play 2C", "play 2D", "play 8H", "play 7H", "play 9H")
        do(store, "show", "show", "crib AS 3S 4C QH", "peg Ann 60", "peg Ann 60")
        assert store.state is not None
        publisher.publish(store.state, render_view(store.state))  # the game is won
        assert reads == 2


BERLIN = timezone(timedelta(hours=1), "CET")


@pytest.mark.parametrize(
    ("now", "start"),
    [
        pytest.param(datetime(2026, 11, 26, 21, 0), datetime(2026, 11, 26, 6, 0), id="21:00"),
        pytest.param(datetime(2026, 11, 27, 1, 30), datetime(2026, 11, 26, 6, 0), id="01:30"),
        pytest.param(datetime(2026, 11, 27, 5, 59), datetime(2026, 11, 26, 6, 0), id="05:59"),
        pytest.param(datetime(2026, 11, 27, 6, 0), datetime(2026, 11, 27, 6, 0), id="06:00"),
        pytest.param(datetime(2026, 1, 1, 2, 0), datetime(2025, 12, 31, 6, 0), id="new-year"),
        pytest.param(
            datetime(2026, 11, 27, 0, 30, tzinfo=BERLIN),
            datetime(2026, 11, 26, 6, 0, tzinfo=BERLIN),
            id="local-time",
        ),
    ],
)
def test_a_pub_evening_starts_at_six_in_the_morning(now: datetime, start: datetime) -> None:
    assert evening_start(now) == start


def evening_game(match_id: int, winner: str) -> dict[str, Any]:
    return {
        "match_id": match_id,
        "game": 1,
        "variant": "six-card",
        "names": ["Ann", "Bob"],
        "winner": winner,
        "scores": [121, 100],
        "game_points": 1,
    }


def test_only_games_finished_since_the_evening_began_are_tonight() -> None:
    games = [evening_game(1, "Ann"), evening_game(2, "Bob"), evening_game(3, "Ann")]
    finished = {  # UTC, as the journal stamps them; the pub is in Berlin (UTC+1)
        (1, 1): datetime(2026, 11, 19, 21, 0, tzinfo=UTC),  # last week
        (2, 1): datetime(2026, 11, 26, 22, 0, tzinfo=UTC),  # 23:00 in Berlin
        (3, 1): datetime(2026, 11, 27, 0, 15, tzinfo=UTC),  # 01:15 in Berlin, past midnight
    }

    def tonight(*at: int) -> list[int]:
        now = datetime(*at, tzinfo=BERLIN)
        return [game["match_id"] for game in evening_of(games, [], finished, now)]

    # each game says when it was won, on the pub's clock
    evening = evening_of(games, [], finished, datetime(2026, 11, 27, 1, 30, tzinfo=BERLIN))
    assert [game["finished"] for game in evening] == ["23:00", "01:15"]

    # the same evening, after midnight; last week's game is never tonight
    assert tonight(2026, 11, 27, 1, 30) == [2, 3]
    assert tonight(2026, 11, 27, 19, 0) == []  # the next evening: yesterday's games are gone
    del finished[(3, 1)]  # a game with no known finish time is not tonight's either
    assert tonight(2026, 11, 27, 1, 30) == [2]


@pytest.mark.parametrize("way", ["journal", "reader"])
def test_last_weeks_games_are_not_shown_as_tonight(
    server: WebServer, tmp_path: Path, tonight: Callable[[], datetime], way: str
) -> None:
    with Journal(tmp_path / "p.db") as store:
        store.new_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE)
        do(store, "cut 9C 3D")
        finish_a_game(store)  # at 20:00 UTC on 26 November
        assert store.state is not None
        evenings = []
        for days in (0, 7):
            clock = lambda days=days: tonight() + timedelta(days=days)  # noqa: E731
            if way == "journal":
                publisher = ViewPublisher(server, store, now=clock)
                publisher.publish(store.state, render_view(store.state))
            else:
                reader = HistoryReader(store.path)
                publisher = ViewPublisher(server, reader=reader, now=clock)
                publisher.publish(store.state, render_view(store.state))
                reader.read_now()
                reader.close()
            evenings.append(json.loads(request(server, "GET", "/view.json")[2])["evening"])
    that_night, a_week_later = evenings
    assert [(game["match_id"], game["winner"]) for game in that_night] == [(1, "Ann")]
    assert a_week_later == []


def test_the_evening_ends_at_six_without_a_new_game(
    server: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page is told again with each publish: at 06:00 last night's games are gone."""
    monkeypatch.setattr("pegboard.journal._now", lambda: "2026-11-27T01:00:00.000+00:00")
    now = datetime(2026, 11, 27, 5, 59, tzinfo=UTC)
    with Journal(tmp_path / "p.db") as store:
        store.new_match(Rules.six_card(), ("Ann", "Bob"))
        do(store, "cut 9C 3D")
        finish_a_game(store)
        assert store.state is not None
        publisher = ViewPublisher(server, store, now=lambda: now)
        view = render_view(store.state)
        publisher.publish(store.state, view)
        assert len(json.loads(server.latest()[1])["evening"]) == 1
        now = datetime(2026, 11, 27, 6, 0, tzinfo=UTC)
        publisher.publish(store.state, view)  # the same game: the journal is not read again
        assert json.loads(server.latest()[1])["evening"] == []


def test_without_a_journal_the_evening_is_empty(server: WebServer) -> None:
    state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
    ViewPublisher(server).publish(state, render_view(state))
    assert json.loads(request(server, "GET", "/view.json")[2])["evening"] == []


def test_three_players_have_no_win_probability(server: WebServer) -> None:
    state = GameState.new(Rules.for_variant(Variant.THREE_HANDED))
    state, _ = apply(state, parse_command("cut 9C 3D 4H", state.names))
    ViewPublisher(server).publish(state, render_view(state))
    payload = json.loads(request(server, "GET", "/view.json")[2])
    assert payload["view"]["phase"] != "cut" and payload["win_probability"] is None


def test_the_players_records_and_head_to_head_come_with_the_evening(
    server: WebServer, tmp_path: Path
) -> None:
    with Journal(tmp_path / "p.db") as store:
        state = store.new_match(Rules.six_card(), ("Ann", "Bob"))
        publisher = ViewPublisher(server, store)
        publisher.publish(state, render_view(state))
        assert json.loads(request(server, "GET", "/view.json")[2])["players"] == {
            "variant": "six-card",
            "games": 0,
            "sides": [None, None],  # no finished game yet
            "head_to_head": [],
        }
        do(store, "cut 9C 3D")
        finish_a_game(store)
        assert store.state is not None
        publisher.publish(store.state, render_view(store.state))
        players = json.loads(request(server, "GET", "/view.json")[2])["players"]
    ann, bob = players["sides"]
    # Bob dealt deal 1: Ann pegged 1 + her hand's 8 (KS KD 2C 2D + 5C: fifteen 4, two pairs);
    # Bob 2 + 13 + the crib's 11 = 26. Deal 2, Ann's deal: her two pegs of 60 for the game
    assert ann == {
        "name": "Ann",
        "games_played": 1,
        "games_won": 1,
        "matches_played": 0,  # best of three, still open
        "matches_won": 0,
        "game_points": 3,
        "lurches_given": 0,
        "lurches_taken": 0,
        "double_skunks_given": 1,
        "double_skunks_taken": 0,
        "dealer": {"deals": 1, "average": 120.0},
        "pone": {"deals": 1, "average": 11.0},
        "best_hand": {"points": 8, "cards": "KS KD 2C 2D", "starter": "5C", "crib": False},
    }
    assert (bob["double_skunks_taken"], bob["dealer"], bob["pone"]) == (
        1,
        {"deals": 1, "average": 26.0},
        {"deals": 1, "average": 0.0},
    )
    assert bob["best_hand"]["points"] == 13
    assert players["head_to_head"] == [
        {
            "sides": [0, 1],
            "names": ["Ann", "Bob"],
            "games": 1,
            "games_won": [1, 0],
            "matches": 0,
            "matches_won": [0, 0],
            "game_points": [3, 0],
        }
    ]


def test_the_players_replay_each_finished_match_once(server: WebServer, tmp_path: Path) -> None:
    """Only the latest match takes commands: older ones are kept, not replayed again."""
    with Journal(tmp_path / "p.db") as store:
        publisher = ViewPublisher(server, store)
        for names in (("Ann", "Bob"), ("Bob", "Ann"), ("Ann", "Cat")):
            state = store.new_match(Rules.six_card(), names, MatchFormat.SINGLE)
            publisher.publish(state, render_view(state))
            do(store, "cut 9C 3D")
            finish_a_game(store)
            assert store.state is not None
            for _ in range(3):  # the same evening: nothing is read again
                publisher.publish(store.state, render_view(store.state))
        # each evening change replays the latest match only: the one a new match makes final
        # is summarised by the writer in that match's transaction; (new, won) for each
        assert publisher.figures.replayed == (1 + 1) + (1 + 1) + (1 + 1)
        players = json.loads(request(server, "GET", "/view.json")[2])["players"]
        assert players == figures_payload(store.history(), store.history()[-1])
    ann, cat = players["sides"]
    # Ann pegs the 120 in each: she won all three single-game matches, one of them against Cat
    assert (ann["games_played"], cat["games_played"]) == (3, 1)
    assert (ann["matches_played"], ann["matches_won"]) == (3, 3)
    assert players["head_to_head"][0]["games_won"] == [1, 0]


def test_with_a_reader_the_players_come_when_its_read_ends(
    server: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    tonight: Callable[[], datetime],
) -> None:
    """The daemon's way: publish never reads the journal; the reader's thread publishes again."""
    main = threading.current_thread()
    for name in ("latest_match", "final_books", "latest_final_games", "left_out_matches"):
        real = getattr(Journal, name)

        def elsewhere(self: Journal, *args: Any, _real: Any = real, **kwargs: Any) -> Any:
            assert threading.current_thread() is not main, "read in the publishing thread"
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(Journal, name, elsewhere)
    with Journal(tmp_path / "p.db") as store:
        for names in (("Ann", "Bob"), ("Bob", "Ann")):
            store.new_match(Rules.six_card(), names, MatchFormat.SINGLE)
            do(store, "cut 9C 3D")
            finish_a_game(store)
        state = store.new_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE)
        reader = HistoryReader(store.path)
        publisher = ViewPublisher(server, reader=reader, now=tonight)
        done: queue.Queue[HistorySnapshot] = queue.Queue()
        reader.listen(done.put)  # after the publisher's own listener
        publisher.publish(state, render_view(state))
        before = json.loads(request(server, "GET", "/view.json")[2])
        assert (before["players"], before["evening"]) == (None, [])  # nothing read yet
        reader.start()
        try:
            reader.poke()
            snapshot = done.get(timeout=10)
        finally:
            reader.close()
        assert snapshot.current is not None
        matches = store.history()
        version, body = server.latest()
        payload = json.loads(body)
    assert version == before["version"] + 1  # the same view again, with the figures
    assert payload["view"] == before["view"]
    assert payload["players"] == figures_payload(matches, matches[-1])
    assert payload["players"]["head_to_head"][0]["games_won"] == [2, 0]  # Ann pegs every 120
    assert [(g["match_id"], g["winner"]) for g in payload["evening"]] == [(1, "Ann"), (2, "Ann")]
    assert payload["evening"][0]["lurch"] == [
        {"name": "Bob", "score": 26, "lurch": "double-skunked"}
    ]


def test_a_publish_after_a_read_carries_its_figures(
    server: WebServer, tmp_path: Path, tonight: Callable[[], datetime]
) -> None:
    with Journal(tmp_path / "p.db") as store:
        store.new_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE)
        do(store, "cut 9C 3D")
        finish_a_game(store)
        reader = HistoryReader(store.path)
        publisher = ViewPublisher(server, reader=reader, now=tonight)
        reader.read_now()  # before the first view: nothing to publish again yet
        assert server.version == 0
        assert store.state is not None
        publisher.publish(store.state, render_view(store.state))
        reader.close()
    payload = json.loads(request(server, "GET", "/view.json")[2])
    assert payload["players"]["sides"][0]["games_won"] == 1
    assert payload["evening"][0]["winner"] == "Ann"


def test_the_calls_come_in_the_tables_language(server: WebServer, tmp_path: Path) -> None:
    with Journal(tmp_path / "p.db") as store:
        store.new_match(Rules.six_card(), ("Ann", "Bob"))
        do(store, "cut 9C 3D", "starter 5C", "play KS", "play 6H", "play KD", "go", "play 2C")
        do(store, "play 2D", "play 8H", "play 7H", "play 9H", "show")  # Ann: KS KD 2C 2D + 5C
        assert store.state is not None
        view = render_view(store.state)
        ViewPublisher(server, store, language=Language.GERMAN).publish(store.state, view)
        german = json.loads(request(server, "GET", "/view.json")[2])
        ViewPublisher(server, store).publish(store.state, view)
        english = json.loads(request(server, "GET", "/view.json")[2])
    assert german["language"] == "de"
    assert german["calls"] == [
        "Fünfzehn – zwei",
        "fünfzehn – vier",
        "und ein Paar macht sechs",
        "und noch ein Paar macht acht",
    ]
    assert german["view"] == english["view"]  # the view itself stays English
    assert english["language"] == "en"
    assert (
        english["calls"]
        == view.to_dict()["last"]["calls"]
        == [
            "fifteen 2",
            "fifteen 4",
            "and a pair is 6",
            "and another pair is 8",
        ]
    )


def test_a_sandbox_without_the_network_names_the_drop_in(
    static: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under pegboard.service without its web drop-in, an AF_INET socket is refused."""

    def refused(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")

    monkeypatch.setattr("pegboard.web.server._HttpServer.__init__", refused)
    server = WebServer("0.0.0.0", 8121, static_dir=static)
    with pytest.raises(
        WebServerError,
        match=r"cannot serve the page on 0\.0\.0\.0:8121: Address family not supported by "
        r"protocol \(no network in this sandbox\? under systemd install "
        r"systemd/pegboard-web\.conf: sudo systemd/install\.sh --web\)",
    ):
        server.start()
