"""The play hint at the table: the hint key's grammar (``ui.playhint``) and its work in a thread.

A hint for a lead may take a few seconds on a Pi Zero 2 W, too long to hold the controller's
thread (keys would wait), so the engine runs in a worker thread: it puts its line on a queue,
and the controller takes it in ``poll`` on its own thread (``tick`` runs at least every
50 ms). A hint asked again, or closed, before
its line comes makes the old line stale: it is dropped. Nothing here writes the journal or
makes a command.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import replace

from pegboard.devices.ports import KeyEvent
from pegboard.engine.game import GameState
from pegboard.errors import PegboardError
from pegboard.i18n import Language, translator
from pegboard.ui.keypad import EntryView, Layout
from pegboard.ui.playhint import (
    Hint,
    HintRequest,
    advice_line,
    hint_press,
    hint_view,
    request_of,
)

__all__ = ["PlayHinter", "in_a_thread"]

log = logging.getLogger(__name__)


def in_a_thread(work: Callable[[], None]) -> None:
    """Run *work* in a daemon thread of its own."""
    threading.Thread(target=work, name="play-hint", daemon=True).start()


class PlayHinter:
    """The hint key for one table.

    *allowed* is asked before a hint opens (``ui.playhint.hint_allowed`` of the config switch
    and the tournament lock); *submit* runs a piece of work (a thread by default; the tests
    run it at once).
    """

    def __init__(
        self,
        *,
        language: Language,
        layout: Layout,
        allowed: Callable[[], bool],
        submit: Callable[[Callable[[], None]], None] = in_a_thread,
    ) -> None:
        self._language = language
        self._layout = layout
        self._allowed = allowed
        self._submit = submit
        self._hint: Hint | None = None
        self._asked = 0  # the ticket of the newest question
        self._lines: queue.SimpleQueue[tuple[int, str]] = queue.SimpleQueue()

    @property
    def open(self) -> bool:
        """Whether the hint is on the screen."""
        return self._hint is not None

    def view(self) -> EntryView | None:
        """The entry screen the hint shows, or None when it is closed."""
        return None if self._hint is None else hint_view(self._hint, self._language)

    def close(self) -> None:
        """Close the hint now (a tournament lock came on); a line still coming is stale."""
        self._hint = None
        self._asked += 1

    def handle(self, event: KeyEvent, state: GameState, *, idle: bool) -> bool:
        """One key; True when it was the hint's (the keypad grammar does not see it)."""
        if self._hint is None and not self._allowed():
            return False
        before = self._hint
        hint, taken = hint_press(before, event, state, self._layout, idle=idle)
        if not taken:
            return False
        self._hint = hint
        if hint is None:
            self._asked += 1  # a line still coming is stale
        elif hint.whole and hint.answer is None and not (before is not None and before.whole):
            self._ask(hint, state)
        return True

    def poll(self) -> bool:
        """Take any line the worker finished (the controller's thread); True when one shows."""
        shown = False
        while True:
            try:
                ticket, line = self._lines.get_nowait()
            except queue.Empty:
                return shown
            if self._hint is not None and ticket == self._asked and self._hint.answer is None:
                self._hint = replace(self._hint, answer=line)
                shown = True

    def _ask(self, hint: Hint, state: GameState) -> None:
        self._asked += 1
        ticket = self._asked
        request = request_of(hint, state, self._language)
        if isinstance(request, str):
            self._hint = replace(hint, answer=request)
            return
        language = self._language

        def work(request: HintRequest = request) -> None:
            from pegboard.engine.playadvice import advise_play

            try:
                advice = advise_play(
                    request.held, request.laid, request.starter, dealer=request.dealer,
                    rules=request.state.rules,
                )  # fmt: skip
                line = advice_line(advice, language)
            except PegboardError as e:  # cards that cannot be held now: say so, change nothing
                log.info("play hint: %s", e)
                line = translator(language).gettext("no hint for these cards")
            self._lines.put((ticket, line))

        self._submit(work)
