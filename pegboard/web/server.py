"""The pub page's server: the latest view as JSON, pushed to every open page (Server-Sent Events).

Theory of operation
-------------------
The controller's thread owns the game, and nothing here ever touches it. After each change the
controller calls ``ViewPublisher.publish(state, view)`` (``web.publisher``) in its own thread:
the publisher turns the view, each side's chance to win and the evening's results into one JSON
object, and ``WebServer.publish`` serialises it ONCE, stamps it with the next version and swaps
the bytes in under a lock, then wakes the streams. ``publish`` is safe from any thread: the
journal's ``HistoryReader`` publishes the latest view again, with the new evening and players'
figures, from its own thread when a read ends. That is all a publish does: it never writes to a
socket, so a slow, stalled or malicious client cannot hold up a key press, a frame or the
journal.

The HTTP side is the standard library's ``ThreadingHTTPServer``: one daemon thread per
connection, each only reading the latest bytes. ``GET /events`` keeps its connection and
sends ``retry:``, the latest payload at once, then every newer payload as it comes (the whole
view each time, never a delta). A stream that falls behind skips straight to the newest
payload. With nothing new it sends a keep-alive comment every *keepalive* seconds. A socket
that takes more than *timeout* seconds to accept a write is dropped, and so is one whose whole
request head (request line and headers) has not arrived *timeout* seconds after the server began
to wait for it, however steadily it trickles. At most *max_streams* streams and
*max_connections* connections are open at once, and at most *max_per_client* from one address;
beyond that the answer is 503.

Memory is bounded per connection: the request line may hold ``MAX_REQUEST_LINE`` bytes (then
414) and the headers ``MAX_HEADER_BYTES`` in all (then 431), read against the deadline before
anything is parsed. An event stream's socket has a small send buffer (``STREAM_SNDBUF``), so a
page that stops reading blocks the stream's next write, and is cut after *timeout*, with a few
KB queued rather than the hundreds the kernel would let it grow to. A request line that says
HTTP/0.9 (no status line, no headers: no policy) is answered 505 with headers and closed.

``close`` publishes the last payload again with ``"status": "paused"``, gives the streams half a
second to send it, shuts every remaining connection and stops the server: the daemon's service
stops at once, and the open pages say "paused" and reconnect when it is back.

Only GET and HEAD are answered (every other method gets 405); the page's files are served from
``static/`` (then the shared look, ``house/``) by plain names only, so no path can reach outside
them; every answer carries ``Cache-Control: no-cache`` and a strict Content-Security-Policy (the
page loads nothing from elsewhere: a pub may have no internet).
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import logging
import os
import re
import socket
import socketserver
import threading
import time
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from pegboard.errors import PegboardError

__all__ = [
    "CSP",
    "HOUSE_DIR",
    "MAX_HEADER_BYTES",
    "MAX_REQUEST_LINE",
    "STATIC_DIR",
    "STREAM_SNDBUF",
    "WebServer",
    "WebServerError",
    "lan_address",
    "public_url",
]

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The page's files: ``index.html`` (served at ``/``) and whatever it loads from ``/static/``."""

HOUSE_DIR = Path(__file__).resolve().parent / "house"
"""The look every page shares (``house.css``): served at ``/static/`` after the page's own files."""

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "script-src 'self'; connect-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
"""The page's Content-Security-Policy: nothing from anywhere but this server, no inline script
or style (the pages set positions and widths through ``el.style``, the CSSOM, which CSP allows;
a ``style`` attribute or element in their HTML would be refused)."""

_CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webp": "image/webp",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json",
}
_STATIC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_ALLOW = "GET, HEAD"

MAX_REQUEST_LINE = 8192
"""The longest request line read (then 414): the pages' paths are a few dozen bytes."""

MAX_HEADER_BYTES = 8192
"""All the header lines of one request together (then 431). A browser sends under 2 KB; the
standard library alone allows 100 lines of 64 KB each, 6.5 MB a connection."""

STREAM_SNDBUF = 16384
"""An event stream socket's send buffer (the kernel doubles it): a view or two in flight."""


class WebServerError(PegboardError):
    """The page cannot be served: the address is in use, or not one of this machine's."""


# -- the server ---------------------------------------------------------------------------------


class WebServer:
    """The pub page's HTTP server; ``start`` it, ``publish`` payloads, ``close`` it.

    *bind* is the address to listen on ("0.0.0.0": every interface, "127.0.0.1": this machine
    only); *port* 0 takes any free port (``url`` says which). *keepalive* is the seconds
    between keep-alive comments on a quiet stream, *timeout* the seconds a socket may take to
    accept a write or send its whole request head before it is dropped. *max_per_client* caps
    the connections from one address (a phone's browser opens six; a household behind one
    router a few dozen). *retry_ms* is what the page is told to wait before reconnecting.
    *port_option* and *bind_option* are what the caller's user sets the port and the address
    with, named in a refusal to listen.
    """

    def __init__(
        self,
        bind: str = "127.0.0.1",
        port: int = 8121,
        *,
        static_dir: Path = STATIC_DIR,
        keepalive: float = 15.0,
        timeout: float = 10.0,
        max_streams: int = 256,
        max_connections: int = 512,
        max_per_client: int = 32,
        retry_ms: int = 2000,
        port_option: str = "[web] port or --port",
        bind_option: str = "[web] bind or --bind",
    ) -> None:
        self.bind = bind
        self.port = port
        self.port_option = port_option
        self.bind_option = bind_option
        self.static_dir = static_dir
        self.keepalive = keepalive
        self.timeout = timeout
        self.max_streams = max_streams
        self.max_connections = max_connections
        self.max_per_client = max_per_client
        self.retry = f"retry: {retry_ms}\n\n".encode()
        self._cond = threading.Condition()
        # the latest payload (guarded by _cond): its version, its JSON, the same as an SSE
        # event, and the fields it was made of (close() sends them again, paused)
        self._version = 0
        self._body = b""
        self._event = b""
        self._fields: dict[str, Any] = {}
        self._closed = False
        self._streams: set[socket.socket] = set()
        self._httpd: _HttpServer | None = None
        self._thread: threading.Thread | None = None

    # --- life ------------------------------------------------------------------------------

    def start(self) -> None:
        """Listen and serve in daemon threads; returns at once.

        Raises:
            WebServerError: the address is in use or cannot be bound (the message says which).
        """
        if self._httpd is not None:
            return
        try:
            httpd = _HttpServer(self)
        except OSError as e:
            reason = e.strerror or str(e)
            hint = f"another program on that port? change {self.port_option}"
            if e.errno == errno.EADDRNOTAVAIL:
                hint = (
                    f"{self.bind} is not one of this machine's addresses: change "
                    f"{self.bind_option}, e.g. to 0.0.0.0 for every interface"
                )
            elif e.errno in (errno.EAFNOSUPPORT, errno.EPERM, errno.EACCES) and self.port >= 1024:
                # pegboard.service allows AF_UNIX sockets only: the page needs its drop-in
                hint = (
                    "no network in this sandbox? under systemd install "
                    "systemd/pegboard-web.conf: sudo systemd/install.sh --web"
                )
            raise WebServerError(
                f"cannot serve the page on {_host_port(self.bind, self.port)}: {reason} ({hint})"
            ) from e
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.1},
            name="pegboard-web",
            daemon=True,
        )
        self._thread.start()

    def close(self) -> None:
        """Tell every stream "paused", end the streams, shut every connection and stop.

        Safe to call more than once, and before ``start``.
        """
        with self._cond:
            if self._closed:
                return
            self._closed = True
            if self._version:
                self._swap({**self._fields}, "paused")
            self._cond.notify_all()
            # the streams send "paused" and end; a stalled one is cut off after a moment
            deadline = time.monotonic() + 0.5
            while self._streams and time.monotonic() < deadline:
                self._cond.wait(0.05)
        httpd = self._httpd
        if httpd is None:
            return
        for sock in httpd.open_sockets():
            _shut(sock)
        httpd.shutdown()
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    @property
    def address(self) -> tuple[str, int]:
        """The host and port listened on (the port chosen when *port* was 0).

        Raises:
            WebServerError: not started.
        """
        if self._httpd is None:
            raise WebServerError("the web server is not started")
        host, port = self._httpd.server_address[:2]
        return str(host), int(port)

    @property
    def url(self) -> str:
        """The page's address from this machine: ``http://127.0.0.1:8121/`` (a wildcard bind
        is reached through loopback; ``public_url`` finds one for other machines)."""
        host, port = self.address
        if host in ("0.0.0.0", ""):
            host = "127.0.0.1"
        elif host == "::":
            host = "::1"
        return f"http://{_host_port(host, port)}/"

    @property
    def version(self) -> int:
        """The version of the latest payload (0 before the first)."""
        with self._cond:
            return self._version

    @property
    def streams(self) -> int:
        """How many event streams are open now."""
        with self._cond:
            return len(self._streams)

    # --- publishing --------------------------------------------------------------------------

    def publish(self, fields: Mapping[str, Any]) -> int:
        """Make *fields* the latest payload: versioned, "live", serialised once; returns its
        version. Never waits on a client: it swaps bytes under a lock and wakes the streams.

        A publish after ``close`` is ignored (the pages stay "paused").
        """
        with self._cond:
            if self._closed:
                return self._version
            self._swap(dict(fields), "live")
            self._cond.notify_all()
            return self._version

    def _swap(self, fields: dict[str, Any], status: str) -> None:
        """Serialise the next payload (caller holds the lock)."""
        self._fields = fields
        self._version += 1
        payload = {"version": self._version, "status": status, **fields, "sent": time.time()}
        body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
        self._body = body
        self._event = b"event: view\ndata: " + body + b"\nid: %d\n\n" % self._version

    def latest(self) -> tuple[int, bytes]:
        """The latest payload's version and JSON (0 and ``b""`` before the first)."""
        with self._cond:
            return self._version, self._body

    # --- for the stream handlers ---------------------------------------------------------------

    def _enter_stream(self, sock: socket.socket) -> bool:
        with self._cond:
            if self._closed or len(self._streams) >= self.max_streams:
                return False
            self._streams.add(sock)
            return True

    def _leave_stream(self, sock: socket.socket) -> None:
        with self._cond:
            self._streams.discard(sock)
            self._cond.notify_all()

    def _next(self, sent: int) -> tuple[int, bytes, bool]:
        """Wait up to *keepalive* for a payload newer than *sent*, or the end; then the
        latest version, its event and whether the server is closing."""
        with self._cond:
            if self._version == sent and not self._closed:
                self._cond.wait(self.keepalive)
            return self._version, self._event, self._closed


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already gone
        sock.shutdown(socket.SHUT_RDWR)


def lan_address() -> str | None:
    """This machine's address on its local network (the one its default route leaves from),
    or None without one. Nothing is sent: connecting a UDP socket only picks a route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, only routed
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith(("0.", "127.")) else address


def public_url(server: WebServer) -> tuple[str, str]:
    """The page's address to tell people, and a note: for a wildcard bind, this machine's LAN
    address (else loopback) and "listening on all interfaces"; else ``server.url`` and ""."""
    host, port = server.address
    if host not in ("0.0.0.0", "::", ""):
        return server.url, ""
    lan = lan_address()
    url = f"http://{_host_port(lan, port)}/" if lan is not None else server.url
    return url, "listening on all interfaces"


class _HttpServer(ThreadingHTTPServer):
    """``ThreadingHTTPServer`` with pegboard's limits, quiet errors and no reverse DNS."""

    daemon_threads = True
    request_queue_size = 128  # hundreds of pages reconnecting at once after a restart

    def __init__(self, web: WebServer) -> None:
        self.web = web
        self._open: dict[socket.socket, str] = {}  # each open connection's client address
        self._per_client: dict[str, int] = {}
        self._open_lock = threading.Lock()
        self.address_family = socket.AF_INET6 if ":" in web.bind else socket.AF_INET
        super().__init__((web.bind, web.port), _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind looks the host up in DNS (socket.getfqdn), which can take
        # seconds on a Pi with no network; the name is never used here
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name, self.server_port = str(host), int(port)

    def open_sockets(self) -> list[socket.socket]:
        with self._open_lock:
            return list(self._open)

    def process_request(self, request: Any, client_address: Any) -> None:
        host = str(client_address[0]) if client_address else ""
        with self._open_lock:
            full = len(self._open) >= self.web.max_connections
            full = full or self._per_client.get(host, 0) >= self.web.max_per_client
            if not full:
                self._open[request] = host
                self._per_client[host] = self._per_client.get(host, 0) + 1
        if full:
            _refuse_busy(request)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except RuntimeError:  # no thread to be had: drop this connection, keep serving
            self.shutdown_request(request)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            host = self._open.pop(request, None)
            if host is not None:
                left = self._per_client[host] - 1
                if left:
                    self._per_client[host] = left
                else:
                    del self._per_client[host]
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # a client that vanished mid-answer is not news; nothing is printed on stderr
        log.debug("web: connection from %s failed", client_address, exc_info=True)


def _refuse_busy(sock: socket.socket) -> None:
    """A best-effort 503 on a connection there is no room for; never waits."""
    with contextlib.suppress(OSError):
        sock.setblocking(False)
        sock.send(
            b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 5\r\n"
            b"Connection: close\r\n\r\n"
        )


class _Handler(BaseHTTPRequestHandler):
    """One connection: GET and HEAD of the page, its files, the view and the event stream."""

    protocol_version = "HTTP/1.1"
    # a bad request line is answered with a status line and headers too, never as HTTP/0.9
    default_request_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else a keep-alive answer waits ~40 ms on delayed ACKs
    server: _HttpServer

    def setup(self) -> None:
        super().setup()
        # reads and writes alike: a socket stalled this long is dropped
        self.connection.settimeout(self.server.web.timeout)

    def version_string(self) -> str:
        return "pegboard"  # not the Python version

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("web: %s %s", self.address_string(), format % args)

    def handle_one_request(self) -> None:
        """The standard library's loop, with the request head read within its budget and
        deadline first (414, 431, or dropped), HTTP/0.9 refused (505) and every method but GET
        and HEAD refused (405)."""
        try:
            deadline = time.monotonic() + self.server.web.timeout
            self.raw_requestline = self._read_line(MAX_REQUEST_LINE + 1, deadline)
            if len(self.raw_requestline) > MAX_REQUEST_LINE:
                self.requestline = self.request_version = self.command = ""
                self.close_connection = True
                self.send_error(414)
                return
            if not self.raw_requestline:
                self.close_connection = True
                return
            headers = self._read_headers(deadline)
            if headers is None:
                self.requestline = self.request_version = self.command = ""
                self.close_connection = True
                self.send_error(431, "Request Header Fields Too Large")
                return
            self.connection.settimeout(self.server.web.timeout)  # for the answer's writes
            rfile, self.rfile = self.rfile, io.BytesIO(headers)  # parse_request reads these
            try:
                parsed = self.parse_request()
            finally:
                self.rfile = rfile
            if not parsed:
                return
            if self.request_version < "HTTP/1.0":  # HTTP/0.9: no status line, no headers
                self.request_version = "HTTP/1.1"
                self.close_connection = True
                self.send_error(505, "HTTP/0.9 is not served: use HTTP/1.0 or later")
                return
            if self.command in ("GET", "HEAD"):
                self._answer(head=self.command == "HEAD")
            else:  # its body, if any, is not read: the connection ends with the answer
                self.close_connection = True
                self._error(405, "only GET and HEAD: this page never changes the game")
            self.wfile.flush()
        except (TimeoutError, ConnectionError) as e:
            log.debug("web: %s dropped: %s", self.address_string(), e)
            self.close_connection = True

    def _read_line(self, limit: int, deadline: float) -> bytes:
        """One line of at most *limit* bytes (longer: the first *limit*), waiting no later than
        *deadline* however the bytes trickle in: each read of the socket is given only the time
        left, and takes what one ``recv`` brings.

        Raises:
            TimeoutError: the deadline passed first.
        """
        line = bytearray()
        rfile = self.rfile
        assert isinstance(rfile, io.BufferedReader)
        while len(line) < limit:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request head took too long")
            self.connection.settimeout(left)
            chunk = rfile.peek(1)[: limit - len(line)]  # at most one recv when nothing is held
            if not chunk:
                break
            end = chunk.find(b"\n")
            line += rfile.read(len(chunk) if end < 0 else end + 1)
            if end >= 0:
                break
        return bytes(line)

    def _read_headers(self, deadline: float) -> bytes | None:
        """The header lines up to and with the blank one, or None past ``MAX_HEADER_BYTES``.

        Raises:
            TimeoutError: the deadline passed first.
        """
        head = bytearray()
        while True:
            line = self._read_line(MAX_HEADER_BYTES + 1 - len(head), deadline)
            head += line
            if len(head) > MAX_HEADER_BYTES:
                return None
            if line in (b"\r\n", b"\n", b""):
                return bytes(head)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Referrer-Policy", "no-referrer")
        super().end_headers()

    # --- answers -------------------------------------------------------------------------------

    def _answer(self, *, head: bool) -> None:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path == "/events":
            self._events(head=head)
        elif path == "/view.json":
            version, body = self.server.web.latest()
            if version:
                self._send(200, body, "application/json", head=head)
            else:  # nothing published yet: the page tries again
                waiting = {"version": 0, "status": "paused", "view": None}
                data = json.dumps(waiting, separators=(",", ":")).encode()
                self._send(503, data, "application/json", head=head, extra={"Retry-After": "1"})
        elif path in ("/", "/index.html"):
            self._static("index.html", head=head)
        elif path.startswith("/static/"):
            self._static(path.removeprefix("/static/"), head=head)
        else:
            self._error(404, "no such page", head=head)

    def _send(
        self,
        status: int,
        body: bytes,
        content_type: str,
        *,
        head: bool = False,
        extra: Mapping[str, str] | None = None,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _error(self, status: int, message: str, *, head: bool = False) -> None:
        extra = {"Allow": _ALLOW} if status == 405 else None
        body = f"{status} {message}\n".encode()
        self._send(status, body, "text/plain; charset=utf-8", head=head, extra=extra)

    def _static(self, name: str, *, head: bool) -> None:
        """A file of the page's folder, else of the house's, by its plain name; anything else
        is 404 (no ``..``, no folders, no escapes: the name must be one the folder lists)."""
        data: bytes | None = None
        if _STATIC_NAME.fullmatch(name) and ".." not in name:
            for folder in (self.server.web.static_dir, HOUSE_DIR):
                try:
                    listed = name in os.listdir(folder)
                    path = folder / name
                    if listed and path.is_file() and not path.is_symlink():
                        data = path.read_bytes()
                        break
                except OSError:
                    continue
        if data is None:
            self._error(404, "no such file", head=head)
            return
        suffix = Path(name).suffix.lower()
        content_type = _CONTENT_TYPES.get(suffix, "application/octet-stream")
        self._send(200, data, content_type, head=head)

    def _events(self, *, head: bool) -> None:
        """The event stream: ``retry:``, the latest payload at once, then each newer one."""
        web = self.server.web
        sock = self.connection
        if not web._enter_stream(sock):
            self.send_response(503)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", "0")
            self.send_header("Retry-After", "5")
            self.end_headers()
            self.close_connection = True
            return
        try:
            self.close_connection = True  # the stream ends with the connection
            # a stalled page blocks the next write at once and is cut after the timeout,
            # rather than the kernel queueing hundreds of KB for it first
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_SNDBUF)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Connection", "close")
            self.send_header("X-Accel-Buffering", "no")
            self.end_headers()
            if head:
                return
            self.wfile.write(web.retry)
            sent = 0
            while True:
                version, event, closed = web._next(sent)
                if version != sent and event:
                    self.wfile.write(event)  # the newest only: a slow page skips stale ones
                    sent = version
                elif not closed:
                    self.wfile.write(b": keep-alive\n\n")
                if closed:
                    return
        except OSError as e:  # gone, or too slow to take a write within the timeout
            log.debug("web: stream to %s ended: %s", self.address_string(), e)
        finally:
            web._leave_stream(sock)
