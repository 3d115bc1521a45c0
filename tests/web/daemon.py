"""The commands that serve a page, each a process of its own, with the server they really make.

``TableDaemon``: ``pegboard run --simulate --headless --web --wait-for-signal`` replays a
five-card game and then serves it until SIGTERM: the same process as the daemon on a Pi
(controller, journal, devices, page), with the page's server made as the daemon makes it
(``[web]``'s address and port only, every limit the server's own default). ``Served`` runs
``pegboard serve`` or ``pegboard league serve`` the same way. Only the address is set:
127.0.0.1 and any free port. Their memory is read from ``/proc``.
"""

from __future__ import annotations

import http.client
import select
import signal
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEYS = ROOT / "tests" / "keys" / "five-card-game.keys"


class Served:
    """A command (``pegboard`` + *args*) serving a page on 127.0.0.1; the first line it prints
    says where (its one ``http://`` word). ``close`` it (SIGTERM, then the wait)."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pegboard", *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], 60)  # a hang guard
        line = self.process.stdout.readline().strip() if ready else ""
        urls = [word for word in line.split() if word.startswith("http://127.0.0.1:")]
        if not urls:
            self.close()
            raise AssertionError(f"pegboard {args[0]} did not say where its page is: {line!r}")
        self.url = urls[0].rstrip(",")
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])
        self.pid = self.process.pid

    def memory(self) -> dict[str, int]:
        """The daemon's VmRSS and VmHWM (its peak) in KiB, and its thread count."""
        fields = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM", "Threads"):
                fields[name] = int(value.split()[0])
        return fields

    def get(self, path: str = "/", source: str = "127.0.0.1") -> int:
        """A fresh GET of *path* from *source*: its status (503 when there is no room)."""
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=10, source_address=(source, 0)
        )
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            return response.status
        except (ConnectionError, http.client.RemoteDisconnected):
            return 0  # closed without an answer
        finally:
            conn.close()

    def connect(self, source: str) -> socket.socket:
        """A fresh connection from *source* (a loopback address of the test's choosing)."""
        return socket.create_connection(("127.0.0.1", self.port), 10, (source, 0))

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)
        if self.process.stdout is not None:
            self.process.stdout.close()


class TableDaemon(Served):
    """``pegboard run`` serving its page on 127.0.0.1 (the module's notes)."""

    def __init__(self, out: Path) -> None:
        super().__init__(
            "run", "--simulate", "--headless", "--web", "--bind", "127.0.0.1", "--port", "0",
            "--wait-for-signal", "--keys", str(KEYS), "--out", str(out), "--log-level", "WARNING",
        )  # fmt: skip
