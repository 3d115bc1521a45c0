"""The projector page's publisher: the night's view (``tourney.projector``) onto a page server,
and the boards' notices (``on_look``).

A thread of its own, so neither the league service's subscriber nor the director's commands
ever wait for a page: ``poke`` (the feed calls it as each game is counted) wakes it at once;
otherwise it looks every *poll* seconds, which is how it sees the director's steps stored by
the command line (another process). It publishes only when the view changed. Its page is
``projector/`` (``PROJECTOR_DIR``), served by a ``WebServer`` of its own.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pegboard.league.tourney_store import TourneyStore
from pegboard.tourney.projector import projector_view
from pegboard.tourney.steps import Tourney
from pegboard.web.server import WebServer

__all__ = ["PROJECTOR_DIR", "Projector"]

PROJECTOR_DIR = Path(__file__).resolve().parent / "projector"
"""The projector page's files (``index.html``, ``projector.js``, ``projector.css``)."""

log = logging.getLogger(__name__)


class Projector:
    """Publishes the night in *store* to *web* (``start``, ``poke``, ``close``)."""

    def __init__(
        self,
        store: TourneyStore,
        web: WebServer,
        *,
        language: str = "en",
        poll: float = 1.0,
        on_look: Callable[[Tourney], object] | None = None,
    ) -> None:
        self.store = store
        self.on_look = on_look
        """Given the night at every look, in this thread (the boards' notices:
        ``tourney_notify.BoardNotifier.update``)."""
        self.web = web
        self.language = language
        self.poll = poll
        self._wake = threading.Event()  # a game was counted: publish at once
        self._stop = threading.Event()
        self._last: dict[str, Any] | None = None  # the view last published: publish changes only
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Publish the night now, then on every poke and change."""
        self._publish()
        self._thread = threading.Thread(target=self._run, name="tourney-projector", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        """The night changed: publish soon (never blocks)."""
        self._wake.set()

    def close(self) -> None:
        """Stop the thread."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(10.0)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.poll)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self._publish()
            except Exception:
                log.exception("tourney: the projector's view failed")

    def _publish(self) -> None:
        tourney = self.store.tourney
        if self.on_look is not None:
            self.on_look(tourney)
        view = projector_view(tourney, self.language)
        if view != self._last:
            self.web.publish(view)
            self._last = view
