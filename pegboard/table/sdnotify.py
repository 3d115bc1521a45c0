"""systemd's notify protocol, spoken directly: one datagram per message, no dependency.

Theory of operation
-------------------
A service started with ``Type=notify`` finds the path of a datagram socket in
``$NOTIFY_SOCKET`` and sends it newline-separated ``KEY=VALUE`` lines: ``READY=1`` once it is
serving, ``WATCHDOG=1`` at least once every ``WatchdogSec=`` (systemd passes that period as
``$WATCHDOG_USEC``, and ``$WATCHDOG_PID`` names the process it expects pings from),
``STOPPING=1`` when it begins to shut down, and ``STATUS=...`` for ``systemctl status``.
A path starting with ``@`` is in Linux's abstract socket namespace: the ``@`` stands for a
leading NUL byte.

Outside systemd there is no ``$NOTIFY_SOCKET`` and every call is a cheap no-op, so the daemon
calls these unconditionally. A failed send is logged once and never raised: a lost status
message must not stop a game.

>>> n = Notifier(env={})
>>> n.enabled, n.ready(), n.watchdog_interval
(False, False, None)
>>> Notifier(env={"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "20000000"}).watchdog_interval
10.0
"""

from __future__ import annotations

import _socket  # the C module alone: the socket module's enums cost 2 ms at each start
import logging
import os
from collections.abc import Mapping
from typing import Protocol

__all__ = ["Notifier", "WatchdogPinger"]

log = logging.getLogger(__name__)


class Notifier:
    """Sends notify messages to systemd, or does nothing when not started by systemd.

    Args:
        env: where to read ``NOTIFY_SOCKET``, ``WATCHDOG_USEC`` and ``WATCHDOG_PID``
            (``os.environ`` by default).
        pid: this process's id, compared with ``WATCHDOG_PID`` (``os.getpid()`` by default).
    """

    def __init__(self, env: Mapping[str, str] | None = None, *, pid: int | None = None) -> None:
        env = os.environ if env is None else env
        raw = env.get("NOTIFY_SOCKET", "")
        self._address: str | bytes | None = None
        if raw.startswith("@"):
            self._address = b"\0" + raw[1:].encode()  # the abstract namespace
        elif raw.startswith("/"):
            self._address = raw
        self._sock: _socket.socket | None = None
        self._warned = False
        self._interval: float | None = None
        usec = env.get("WATCHDOG_USEC", "")
        owner = env.get("WATCHDOG_PID", "")
        mine = str(pid if pid is not None else os.getpid())
        if self._address is not None and usec.isdigit() and int(usec) > 0 and owner in ("", mine):
            # ping at half the period, as sd_watchdog_enabled(3) advises
            self._interval = int(usec) / 2_000_000

    @property
    def enabled(self) -> bool:
        """Whether there is a systemd to talk to."""
        return self._address is not None

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between watchdog pings (half of ``WatchdogSec=``), or None: no watchdog."""
        return self._interval

    def notify(self, *fields: str) -> bool:
        """Send ``KEY=VALUE`` *fields* in one datagram. True if it was sent."""
        if self._address is None:
            return False
        message = "\n".join(fields).encode()
        try:
            if self._sock is None:
                self._sock = _socket.socket(
                    _socket.AF_UNIX, _socket.SOCK_DGRAM | _socket.SOCK_CLOEXEC
                )
            self._sock.sendto(message, self._address)
        except OSError as e:
            if not self._warned:
                log.warning("cannot notify systemd at %r: %s", self._address, e)
                self._warned = True
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Tell systemd the service is up (``READY=1``), with an optional status line."""
        fields = ["READY=1", f"MAINPID={os.getpid()}"]
        if status is not None:
            fields.append(f"STATUS={_one_line(status)}")
        return self.notify(*fields)

    def watchdog(self) -> bool:
        """Tell systemd the service is alive (``WATCHDOG=1``)."""
        return self.notify("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        """Tell systemd the service is shutting down (``STOPPING=1``)."""
        fields = ["STOPPING=1"]
        if status is not None:
            fields.append(f"STATUS={_one_line(status)}")
        return self.notify(*fields)

    def status(self, text: str) -> bool:
        """Set the line ``systemctl status`` shows (``STATUS=...``)."""
        return self.notify(f"STATUS={_one_line(text)}")

    def extend(self, seconds: float, status: str) -> bool:
        """Ask systemd for *seconds* more to start (``EXTEND_TIMEOUT_USEC``), saying why: work
        before ``READY=1`` that may take longer than ``TimeoutStartSec=`` on a slow Pi."""
        return self.notify(
            f"EXTEND_TIMEOUT_USEC={round(seconds * 1_000_000)}", f"STATUS={_one_line(status)}"
        )

    def close(self) -> None:
        """Release the socket. Later calls open it again."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def _one_line(text: str) -> str:
    return " ".join(text.split())


class WatchdogPinger:
    """Pings the watchdog from a loop that calls ``tick(now)``, at most once per interval.

    Calling ``tick`` from the controller loop (not from a thread of its own) is the point: a
    loop that is stuck stops pinging, and systemd restarts the daemon.

    >>> class Fake:
    ...     watchdog_interval = 5.0
    ...     pings = 0
    ...     def watchdog(self) -> bool:
    ...         self.pings += 1
    ...         return True
    >>> fake = Fake()
    >>> w = WatchdogPinger(fake)
    >>> [w.tick(t) for t in (0.0, 1.0, 4.9, 5.0, 6.0)]
    [True, False, False, True, False]
    """

    def __init__(self, notifier: _Pingable) -> None:
        self._notifier = notifier
        self._next: float | None = None

    def tick(self, now: float) -> bool:
        """Ping if an interval has passed since the last ping. True if it pinged."""
        interval = self._notifier.watchdog_interval
        if interval is None:
            return False
        if self._next is not None and now < self._next:
            return False
        self._next = now + interval
        self._notifier.watchdog()
        return True


class _Pingable(Protocol):
    """What ``WatchdogPinger`` needs: a ``Notifier`` or a test's fake."""

    @property
    def watchdog_interval(self) -> float | None: ...

    def watchdog(self) -> bool: ...
