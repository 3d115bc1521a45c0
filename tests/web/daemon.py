"""The table daemon as a process of its own, serving its pub page as the daemon configures it.

``pegboard run --simulate --headless --web --wait-for-signal`` replays a five-card game and then
serves it until SIGTERM: the same process as the daemon on a Pi (controller, journal, devices,
page), with the page's server made as the daemon makes it (``[web]``'s address and port only,
every limit the server's own default). Only the address is set: 127.0.0.1 and any free port.
Its memory is read from ``/proc``.
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


class TableDaemon:
    """``pegboard run`` serving its page on 127.0.0.1; ``close`` it (SIGTERM, then the wait)."""

    def __init__(self, out: Path) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "pegboard", "run", "--simulate", "--headless", "--web",
                "--bind", "127.0.0.1", "--port", "0", "--wait-for-signal",
                "--keys", str(KEYS), "--out", str(out), "--log-level", "WARNING",
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], 60)  # a hang guard
        line = self.process.stdout.readline().strip() if ready else ""
        if not line.startswith("serving the pub page at http://127.0.0.1:"):
            self.close()
            raise AssertionError(f"the daemon did not say where its page is: {line!r}")
        self.url = line.rsplit(" ", 1)[1]
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
