"""SIGTERM and SIGINT, taken on a thread of their own instead of inside the main thread.

A Python signal handler runs in the main thread, between two of its bytecodes: whatever lock
the main thread holds at that moment is held. A handler that sets a ``threading.Event`` or puts
on a ``queue.Queue`` takes that object's lock; when the main thread was inside the same queue's
``get`` (the daemon's loop, 20 times a second) or the same event's ``wait`` (``pegboard
serve``), the handler waited for a lock its own thread held, and the process hung for good
after "signal SIGTERM: stopping" (seen 1 stop in 40 on a loaded machine; systemd then kills it
after ``TimeoutStopSec``, and the journal's last write is cut).

``SignalWatch`` installs handlers that only write the signal's number to a pipe (``os.write``
takes no lock), and a thread of its own reads the pipe and calls *on_signal* with the signal's
name: setting events and putting on queues happens there, as from any other thread. ``close``
puts the old handlers back and ends the thread.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

__all__ = ["STOP_SIGNALS", "SignalWatch"]

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class SignalWatch:
    """Calls *on_signal* (with ``"SIGTERM"`` or ``"SIGINT"``) on its own thread when one of
    *signals* arrives, from ``install`` until ``close`` (the module's notes)."""

    def __init__(
        self,
        on_signal: Callable[[str], None],
        signals: tuple[signal.Signals, ...] = STOP_SIGNALS,
    ) -> None:
        self.on_signal = on_signal
        self.signals = signals
        self._previous: dict[int, Any] = {}
        self._pipe: tuple[int, int] | None = None
        self._thread: threading.Thread | None = None

    def install(self) -> SignalWatch:
        """Put the handlers in place (from the main thread, as ``signal.signal`` requires)."""
        read, write = os.pipe()
        os.set_blocking(write, False)  # a full pipe drops a signal rather than block
        self._pipe = (read, write)
        self._thread = threading.Thread(target=self._watch, args=(read,), name="signals")
        self._thread.daemon = True
        self._thread.start()

        def on_signal(signum: int, frame: FrameType | None) -> None:
            # a full pipe (a burst of signals: one is enough) or a closed one: nothing to do
            with contextlib.suppress(OSError):
                os.write(write, bytes([signum]))

        for number in self.signals:
            self._previous[number] = signal.signal(number, on_signal)
        return self

    def close(self) -> None:
        """Put the old handlers back and end the thread. Safe to call more than once."""
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        self._previous.clear()
        if self._pipe is None:
            return
        read, write = self._pipe
        self._pipe = None
        os.close(write)  # the thread reads the end of the pipe and ends
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
        os.close(read)

    def __enter__(self) -> SignalWatch:
        return self.install()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _watch(self, read: int) -> None:
        while True:
            try:
                got = os.read(read, 16)
            except OSError:
                return
            if not got:
                return
            for number in got:
                self.on_signal(signal.Signals(number).name)
