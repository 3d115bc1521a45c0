"""The controller: the one thread that owns the game, the keypad entry and the ports.

Theory of operation
-------------------
Key sources (GPIO buttons, the matrix keypad, a USB keypad, the simulator's keyboard) run on
their own threads and only put ``KeyEvent`` values on a ``queue.Queue``. ``Controller.run``
takes them off one at a time, so every piece of state is touched by one thread only.

For each key, ``handle`` asks the keypad grammar (``entry.press``) what it means. Accepted
commands go through the ``Store``: each one is checked and committed to the journal before
anything is shown, so a power cut never loses a command that was displayed. A command the game
refuses (a ``PegboardError``) changes nothing and is shown as a short message; any other
exception propagates, and the daemon exits for systemd to restart it from the journal.

Then a frame is pushed: ``render_screen(view, entry, message)`` makes the display's image and
``render_leds(view)`` the colours of each LED strip. A display or strip that fails
(``HardwareError`` or ``OSError``) is logged and tried again ``retry_after`` seconds later from
``tick``; the game goes on meanwhile.

``tick`` does the time-based work: it commits a combined peg after ``entry.IDLE_COMMIT``
seconds, retries failed ports, dims the display after ``dim_after`` idle seconds, and pushes a
new frame when something changed. ``run`` calls ``heartbeat`` (the systemd watchdog) on every
turn of its loop, so a stuck loop stops the pings.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from pegboard.app.entry import (
    EntryState,
    EntryView,
    Layout,
    NewMatch,
    Outcome,
    RandomCut,
    Situation,
    expire,
    press,
    render_entry,
)
from pegboard.app.store import Store
from pegboard.devices.ports import Clock, Color, Display, KeyEvent, LedStrip, SystemClock
from pegboard.engine.cards import shuffled_deck
from pegboard.engine.commands import Command, Cut
from pegboard.engine.errors import HardwareError, PegboardError
from pegboard.engine.game import GameState, apply
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules
from pegboard.engine.view import GameView, render_view

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["Controller", "LedRenderer", "ScreenRenderer"]

log = logging.getLogger(__name__)

ScreenRenderer = Callable[[GameView, EntryView, str], "Image"]
"""(view, entry, message) -> a Pillow image of the display's size and mode."""

LedRenderer = Callable[[GameView], Mapping[str, Sequence[Color]]]
"""view -> the colours for each LED strip, by the strip's name."""

_MAX_REPEATS = 3  # a key may commit a pending peg, then a pending ten, then act


class Controller:
    """The game, the keypad entry and the ports, owned by one thread.

    *store* is an open ``Store``; its current match is resumed (``Store.load``), or a new match
    is started with *rules*, *names* and *match_format* when it has none. *display*, *strips*,
    *render_screen* and *render_leds* are the output side (all optional: a controller without
    them still keeps the game). *clock* defaults to the system clock; *rng* draws random cuts.

    Raises:
        JournalError: the journal cannot be read or written.
    """

    def __init__(
        self,
        *,
        store: Store,
        rules: Rules | None = None,
        names: Sequence[str] | None = None,
        match_format: MatchFormat | None = None,
        layout: Layout = Layout.FOUR_BY_FOUR,
        display: Display | None = None,
        strips: Mapping[str, LedStrip] | None = None,
        render_screen: ScreenRenderer | None = None,
        render_leds: LedRenderer | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        retry_after: float = 5.0,
        dim_after: float | None = None,
        contrast: int = 255,
        dim_contrast: int = 16,
    ) -> None:
        self.store = store
        self._names = tuple(names) if names is not None else None
        self._format = match_format
        self._display = display
        self._strips = dict(strips or {})
        self._render_screen = render_screen
        self._render_leds = render_leds
        self._clock = clock if clock is not None else SystemClock()
        self._rng = rng if rng is not None else random.Random()
        self._retry_after = retry_after
        self._dim_after = dim_after
        self._contrast = contrast
        self._dim_contrast = dim_contrast
        self._entry = EntryState(layout)
        self.last_error = ""
        self._dirty_screen = True
        self._dirty_leds = True
        self._retry_at: float | None = None
        self._last_key = self._clock.monotonic()
        self._dimmed = False
        self.frames = 0
        """Frames handed to the display so far (for benchmarks)."""
        state = store.state if store.state is not None else store.load()
        if state is None:
            state = store.new_match(rules or Rules.six_card(), self._names_for(rules), match_format)
        self._state = state
        self._view = render_view(state)
        self._situation = Situation.of(state)

    # --- what the outside reads ----------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The game state (the journal's current match)."""
        return self._state

    @property
    def view(self) -> GameView:
        """The read-only view of the match."""
        return self._view

    @property
    def entry(self) -> EntryView:
        """What the entry screen shows: typed so far, and a hint for the next key."""
        return render_entry(self._entry, self._situation)

    @property
    def entry_state(self) -> EntryState:
        """The keypad grammar's state."""
        return self._entry

    # --- input -------------------------------------------------------------------------------

    def handle(self, event: KeyEvent) -> None:
        """One key event: apply what it means, then show the result.

        Raises:
            Exception: anything but a ``PegboardError`` from the game (a bug): the daemon exits.
        """
        now = self._clock.monotonic()
        self._last_key = now
        self._wake()
        self.last_error = ""
        for _ in range(_MAX_REPEATS):
            entry, outcome = press(self._entry, event, self._situation, now)
            if not self._carry_out(entry, outcome) or not outcome.repeat:
                break
        self._dirty_screen = self._dirty_leds = True
        self._push()

    def tick(self) -> None:
        """Time-based work: commit a combined peg, retry failed ports, dim, redraw."""
        now = self._clock.monotonic()
        entry, outcome = expire(self._entry, self._situation, now)
        if entry != self._entry or outcome.commands:
            self._carry_out(entry, outcome)
            self._dirty_screen = self._dirty_leds = True
        if (
            self._dim_after is not None
            and not self._dimmed
            and now - self._last_key >= self._dim_after
        ):
            self._set_contrast(self._dim_contrast)
            self._dimmed = True
        if self._retry_at is not None and now < self._retry_at:
            return
        if self._dirty_screen or self._dirty_leds:
            self._push()

    def run(
        self,
        events: queue.Queue[KeyEvent | None],
        stop: threading.Event,
        *,
        heartbeat: Callable[[], None] | None = None,
        poll: float = 0.05,
    ) -> None:
        """Take events off *events* until *stop* is set; ``heartbeat()`` on every turn.

        ``None`` on the queue only wakes the loop. *poll* is the longest wait for an event,
        which is also how often ``tick`` runs when no key comes.
        """
        self._push()
        while not stop.is_set():
            if heartbeat is not None:
                heartbeat()
            try:
                event = events.get(timeout=poll)
            except queue.Empty:
                event = None
            if event is not None:
                self.handle(event)
            self.tick()

    # --- applying what a key meant ---------------------------------------------------------

    def _carry_out(self, entry: EntryState, outcome: Outcome) -> bool:
        """Apply *outcome*; True when it was accepted (the entry moves on)."""
        commands = list(outcome.commands)
        if isinstance(outcome.request, RandomCut):
            commands.append(self._random_cut())
        if isinstance(outcome.request, NewMatch):
            if commands:
                self._do(commands)
            rules = outcome.request.rules
            self._state = self.store.new_match(rules, self._names_for(rules), self._format)
            self._entry = entry
            self._refresh()
            return True
        if commands and not self._do(commands):
            return False
        self._entry = entry
        if outcome.refusal:
            self.last_error = outcome.refusal
        return True

    def _do(self, commands: list[Command]) -> bool:
        """Check *commands* as a whole on a copy of the state, then journal them one by one."""
        trial = self._state
        try:
            for command in commands:
                trial, _ = apply(trial, command)
        except PegboardError as e:
            self.last_error = _short(str(e))
            log.info("refused %s: %s", [self._state.command_text(c) for c in commands], e)
            return False
        try:
            for command in commands:
                self._state, _ = self.store.do(command)
        except PegboardError as e:  # the journal could not be written: nothing more is done
            self.last_error = _short(str(e))
            log.error("journal: %s", e)
            self._refresh()
            return False
        self._refresh()
        return True

    def _refresh(self) -> None:
        self._view = render_view(self._state)
        self._situation = Situation.of(self._state)

    def _random_cut(self) -> Cut:
        deck = shuffled_deck(self._rng)
        return Cut(tuple(deck[: self._state.rules.sides]))

    def _names_for(self, rules: Rules | None) -> tuple[str, ...] | None:
        sides = (rules or Rules.six_card()).sides
        if self._names is not None and len(self._names) == sides:
            return self._names
        return None

    # --- output ------------------------------------------------------------------------------

    def _push(self) -> None:
        """Hand the current frame to the display and the LED strips; note failures."""
        failed = False
        if self._dirty_screen and self._display is not None and self._render_screen is not None:
            image = self._render_screen(self._view, self.entry, self.last_error)
            try:
                self._display.show(image)
                self.frames += 1
                self._dirty_screen = False
            except (HardwareError, OSError) as e:
                log.warning("display failed, retrying in %.0f s: %s", self._retry_after, e)
                failed = True
        else:
            self._dirty_screen = False
        if self._dirty_leds and self._strips and self._render_leds is not None:
            colours = self._render_leds(self._view)
            ok = True
            for name, strip in self._strips.items():
                if name not in colours:
                    continue
                try:
                    strip.show(colours[name])
                except (HardwareError, OSError) as e:
                    log.warning("LED strip %r failed, retrying: %s", name, e)
                    ok = False
            self._dirty_leds = not ok
            failed = failed or not ok
        else:
            self._dirty_leds = False
        self._retry_at = self._clock.monotonic() + self._retry_after if failed else None

    def _wake(self) -> None:
        if self._dimmed:
            self._set_contrast(self._contrast)
            self._dimmed = False

    def _set_contrast(self, level: int) -> None:
        if self._display is None:
            return
        try:
            self._display.set_contrast(level)
        except (HardwareError, OSError) as e:
            log.warning("display contrast failed: %s", e)


def _short(message: str, limit: int = 60) -> str:
    """The first clause of an error message, cut to *limit* characters."""
    text = message.split(" (")[0]
    return text if len(text) <= limit else text[: limit - 1] + "…"
