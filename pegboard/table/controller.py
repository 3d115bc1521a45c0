"""The controller: the one thread that owns the game, the keypad entry and the ports.

Theory of operation
-------------------
Key sources (GPIO buttons, the matrix keypad, a USB keypad, the simulator's keyboard) run on
their own threads and only put ``KeyEvent`` values on a ``queue.Queue``. ``Controller.run``
takes them off one at a time, so every piece of state is touched by one thread only.

For each key, ``handle`` asks the keypad grammar (``keypad.press``) what it means. Accepted
commands go through the ``Journal``: each one is checked and committed to the journal before
anything is shown, so a power cut never loses a command that was displayed. A command the game
refuses (a ``PegboardError``) changes nothing and is shown as a short message; any other
exception propagates, and the daemon exits for systemd to restart it from the journal.

Then a frame is pushed: the controller chooses the ``Screen`` to show (``screens.choose_screen``:
an error, the menu, the entry in progress, or the game with what the last press did) and
``render_screen(screen)`` makes the display's image, which goes out before the LEDs take their
first step. A display or strip that fails (``HardwareError`` or ``OSError``) is logged and tried
again ``retry_after`` seconds later from ``tick``; the game goes on meanwhile.

The key path does only what the key changed (issue 11): the journal's commit is its one wait; a
screen equal to the one shown is not drawn again; a count is laid out in pages once, after its
first frame is out; an LED animation's frames are drawn one at a time, as each is shown. The
journal's history is never read here: the menu's head-to-head page is read in the journal's
``HistoryReader`` thread (``table.headtohead``), which the controller only pokes.

``tick`` does the time-based work: it commits a combined peg after ``keypad.IDLE_COMMIT``
seconds, ends the news and turns the count's pages when their time comes, steps the LED
animation, retries failed ports, dims and sleeps the display, and pushes a new frame when
something changed. ``run`` calls ``heartbeat`` (the systemd watchdog) on every
turn of its loop, so a stuck loop stops the pings, and waits for keys no longer than the next
animation step.

News and the count's pages
--------------------------
Each accepted press is told on the screen for ``news_seconds`` or until the next key
(``news.news_of``: "Ann +8 → 52", "Bob: a run of 3 for 3, one for last", "undone: Bob's hand,
12", the last card's play held on the play screen). A hand or crib counted stays up after the
news ends, paged: the page turns every ``page_seconds`` by itself, the last page stays, and the
page key (``count.PAGE_KEY``, ``*``) turns it at once while pages are left; with nothing typed it
means nothing else on a 4x4 keypad (on a 3x4 it opens peg mode once the last page is up). The
screens are pure; all this timing is the controller's, on its clock.

LED animation
-------------
The LEDs are driven by an ``LedAnimator``: whenever the view changes, it is asked for the steps
from the view the LEDs last showed to the new one (a peg's rear peg travelling past the front
peg, an undo running it backwards, a win's flash), each with how long it stays lit. ``tick``
shows each step when its time comes, by the injected clock, skipping steps it is late for;
nothing sleeps. A key that comes during an animation finishes it at once (its last step is
the new starting point), so input is never held up by the LEDs. A plain ``render_leds``
(view -> colours) still works: it is an animator whose every change is one step. A strip is
only written when its colours differ from what it last showed.

Dim and sleep
-------------
After ``dim_after`` seconds without a key the contrast drops to ``dim_contrast``; after
``sleep_after`` the display sleeps: a display with ``sleep()``/``wake()`` (``LumaDisplay``,
``LazyDisplay``) switches its panel off, any other is shown a blank frame. A key on a dimmed
display wakes it and acts as usual (the players can read what they typed). A key on a sleeping
display only wakes it: the key is swallowed, since nobody could see what a blind press would
do to the game. No frames are drawn while asleep; waking draws the current one.
"""

from __future__ import annotations

import enum
import functools
import logging
import queue
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from pegboard.devices.ports import (
    Clock,
    Color,
    Display,
    KeyAction,
    KeyEvent,
    LedStrip,
    SleepingDisplay,
    SystemClock,
)
from pegboard.engine.commands import Command, random_cut
from pegboard.engine.events import Event
from pegboard.engine.game import GameState
from pegboard.engine.match import Match, MatchFormat
from pegboard.engine.rules import Rules
from pegboard.engine.view import GameView, ScoreView, render_view
from pegboard.errors import ConfigError, HardwareError, JournalError, PegboardError
from pegboard.i18n import Language
from pegboard.journal import Journal
from pegboard.table.beside import others_moved
from pegboard.table.headtohead import RecordPage
from pegboard.table.outputs import (
    LedAnimator,
    LedRenderer,
    PageCounter,
    ScreenRenderer,
    StillAnimator,
)
from pegboard.table.playhint import PlayHinter
from pegboard.ui.count import PAGE_KEY
from pegboard.ui.hints import render_entry
from pegboard.ui.keypad import (
    EntryState,
    EntryView,
    Layout,
    NewMatch,
    Outcome,
    RandomCut,
    ShowRecord,
    Situation,
    expire,
    press,
)
from pegboard.ui.ledtracks import LedFrame, LedStep
from pegboard.ui.news import News, news_of
from pegboard.ui.results import HeadToHeadView
from pegboard.ui.screens import Screen, ScreenKind, choose_screen

if TYPE_CHECKING:
    from pegboard.journal.reader import HistoryReader

__all__ = [
    "Controller",
    "DisplayPower",
    "LedAnimator",
    "LedRenderer",
    "PageCounter",
    "ScreenRenderer",
]

log = logging.getLogger(__name__)


class DisplayPower(enum.Enum):
    """How awake the display is."""

    ON = "on"
    DIMMED = "dimmed"
    ASLEEP = "asleep"


_MAX_REPEATS = 3  # a key may commit a pending peg, then a pending ten, then act


class Controller:
    """The game, the keypad entry and the ports, owned by one thread.

    *store* is an open ``Journal``; its current match is resumed (``Journal.load``), or a new match
    is started with *rules*, *names* and *match_format* when it has none. *roster* (the config's
    ``[game] roster``) and *names* are the names the menu offers for the sides of a new match;
    a new match keeps the table's names unless the menu picked others. *display*, *strips*,
    *render_screen* and *animate_leds* (or a plain *render_leds*) are the output side (all
    optional: a controller without them still keeps the game); *count_pages* says how many pages
    a screen takes on the display (without it a count has one). *clock* defaults to the system
    clock; *rng* draws random cuts. *dim_after* and *sleep_after* are idle seconds (None:
    never); dimming lowers the contrast from *contrast* to *dim_contrast*. *news_seconds* is how
    long what a press did stays told, *page_seconds* how long each page of a count stays up.
    *win_chances* (state -> each side's chance to win, or None), when given, feeds the
    scoreboard's bar (``[display] win_probability``); it runs once a state change.
    *on_change(state, view)*, when given, is called in this thread after every state change
    (and once at construction); it must not block (the web page's ``ViewPublisher.publish``
    swaps bytes), and an exception in it is logged and never stops a key. *history* (the
    journal's ``HistoryReader``) reads the head-to-head page's figures in its own thread; it is
    poked when the evening changes (``table.headtohead``). Without it the page reads them here.

    Raises:
        JournalError: the journal cannot be read or written.
    """

    def __init__(
        self,
        *,
        store: Journal,
        rules: Rules | None = None,
        names: Sequence[str] | None = None,
        roster: Sequence[str] = (),
        match_format: MatchFormat | None = None,
        layout: Layout = Layout.FOUR_BY_FOUR,
        language: Language = Language.ENGLISH,
        display: Display | None = None,
        strips: Mapping[str, LedStrip] | None = None,
        render_screen: ScreenRenderer | None = None,
        count_pages: PageCounter | None = None,
        render_leds: LedRenderer | None = None,
        animate_leds: LedAnimator | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        retry_after: float = 5.0,
        dim_after: float | None = None,
        sleep_after: float | None = None,
        contrast: int = 255,
        dim_contrast: int = 16,
        news_seconds: float = 4.0,
        page_seconds: float = 2.5,
        win_chances: Callable[[GameState], tuple[float, ...] | None] | None = None,
        on_change: Callable[[GameState, GameView], None] | None = None,
        history: HistoryReader | None = None,
        play_hint: PlayHinter | None = None,  # table.playhint: its keys come first; no command
    ) -> None:
        self.store = store
        self._hint = play_hint
        self._records = RecordPage(store, history)  # the head-to-head page's figures
        self._on_change = on_change
        self._win_chances = win_chances
        self._chances: tuple[float, ...] | None = None
        self._names = tuple(names) if names is not None else None
        self._format = match_format
        self._display = display
        self._strips = dict(strips or {})
        self._render_screen = render_screen
        self._count_pages = count_pages
        if animate_leds is None and render_leds is not None:
            animate_leds = StillAnimator(render_leds)
        self._animator = animate_leds
        self._clock = clock if clock is not None else SystemClock()
        self._rng = rng if rng is not None else random.Random()
        self._retry_after = retry_after
        self._dim_after = dim_after
        self._sleep_after = sleep_after
        self._contrast = contrast
        self._dim_contrast = min(dim_contrast, contrast)
        self._news_seconds = news_seconds
        self._page_seconds = page_seconds
        # what the last press did (None: nothing to tell), until when it is news, the count's
        # page and when the next one is due (None: the last page, or no count)
        self._news: News | None = None
        self._news_until: float | None = None
        self._page = 0
        self._page_due: float | None = None
        self._paging_from: float | None = None  # when a count came whose pages are not counted
        # the count last laid out in pages: its view, what it counted, and its pages
        self._paged: tuple[GameView, tuple[ScoreView, ...], int] | None = None
        self._events: list[Event] = []
        self._record: HeadToHeadView | None = None  # the head-to-head page, while it is up
        # the menu offers the roster and the configured names (the config's names are players
        # of the house too, and may differ from the names of the match the journal resumes)
        offered = dict.fromkeys([*roster, *(self._names or ())])
        self._entry = EntryState(layout, roster=tuple(offered), language=language)
        self._language = language  # what the keypad's hints and the news say
        self.last_error = ""
        self._dirty_screen = True
        self._dirty_leds = True
        self._drawn: Screen | None = None  # the screen the display shows (None: not known)
        self._retry_at: float | None = None
        self._last_key = self._clock.monotonic()
        self._power = DisplayPower.ON
        # the LED animation: the view the LEDs are heading for, its steps, the one shown, and
        # when the next one is due (None: the last step is showing)
        self._led_view: GameView | None = None
        self._led_steps: Sequence[LedStep] = ()
        self._led_index = 0
        self._led_due: float | None = None
        self._led_shown: dict[str, tuple[Color, ...]] = {}
        self.frames = 0
        """Frames handed to the display so far (for benchmarks)."""
        state = store.state if store.state is not None else store.load()
        if state is None:
            state = store.new_match(rules or Rules.six_card(), self._names_for(rules), match_format)
        self._state = state
        self._refresh()
        self._turn_pages(self._last_key)  # a count left up by a restart pages too
        self._time_pages()

    # --- what the outside reads ----------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The game state (the journal's current match)."""
        return self._state

    @property
    def language(self) -> Language:
        """What the keypad's hints, the news and the screens say (``[game] language``)."""
        return self._language

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

    @property
    def news(self) -> News | None:
        """What the last press did, while it is news (then what stays of it: a count)."""
        return self._news

    @property
    def screen(self) -> Screen:
        """The screen to show now (what the display shows, when it is awake)."""
        return choose_screen(
            self._view,
            entry=(self._hint and self._hint.view()) or self.entry,
            error=self.last_error or None,
            count_page=self._page,
            news=self._news,
            read=self._page_due is None and self._news_until is None,
            chances=self._chances,
            record=self._record,
        )

    @property
    def display_power(self) -> DisplayPower:
        """Whether the display is on, dimmed or asleep."""
        return self._power

    @property
    def animating(self) -> bool:
        """True while an LED animation (a peg's travel, a win's flash) has steps to show."""
        return self._led_due is not None

    # --- input -------------------------------------------------------------------------------

    def handle(self, event: KeyEvent) -> None:
        """One key event: apply what it means, then show the result.

        A key finishes a running LED animation at once. A key on a sleeping display only
        wakes it (the key is swallowed); on a dimmed one it wakes it and acts.

        Raises:
            Exception: anything but a ``PegboardError`` from the game (a bug): the daemon exits.
        """
        now = self._clock.monotonic()
        self._last_key = now
        self._finish_animation()
        if self._power is DisplayPower.ASLEEP:
            self._wake()
            log.info("%s woke the display (the key is not used)", event)
            self._push()
            return
        self._wake()
        if self._record is not None:  # any key leaves the head-to-head page (and only that)
            self._record = None
            self._dirty_screen = True
            self._push()
            return
        if self._hint and self._hint.handle(event, self._state, idle=not self.entry.typing):
            self._dirty_screen = True
            self._push()
            return
        if self._turns_page(event):
            self._page += 1
            self._page_due = now + self._page_seconds
            self._dirty_screen = True
            self._push()
            return
        self.last_error = ""
        before = self._view
        self._events = []
        for _ in range(_MAX_REPEATS):
            entry, outcome = press(self._entry, event, self._situation, now)
            if not self._carry_out(entry, outcome) or not outcome.repeat:
                break
        self._tell(before, now)
        self._dirty_screen = self._dirty_leds = True
        self._push()

    def tick(self) -> None:
        """Time-based work: others' commits (``beside``), a peg, LEDs, retries, dimming, redraws."""
        now = self._clock.monotonic()
        if (moved := others_moved(self.store, self._state)) is not None:
            self._state, self._dirty_screen, self._dirty_leds = moved, True, True
            self._refresh()  # as after a command of its own: the page, the reader's poke
        entry, outcome = expire(self._entry, self._situation, now)
        if entry != self._entry or outcome.commands:
            before = self._view
            self._events = []
            self._carry_out(entry, outcome)
            self._tell(before, now)
            self._dirty_screen = self._dirty_leds = True
        if self._record is not None and self._record.reading:  # the figures may be read now
            record = self._records.record(*self._record.names)
            self._dirty_screen = self._dirty_screen or record != self._record
            self._record = record
        self._dirty_screen |= bool(self._hint and self._hint.poll())  # a hint's line came
        if self._news is not None and self._news_until is not None and now >= self._news_until:
            self._news, self._news_until, self._dirty_screen = self._news.faded(), None, True
        self._step_pages(now)
        self._step_animation(now)
        idle = now - self._last_key
        asleep = self._sleep_after is not None and idle >= self._sleep_after
        dimmed = self._dim_after is not None and idle >= self._dim_after
        if asleep and self._power is not DisplayPower.ASLEEP:
            self._sleep()
        elif dimmed and not asleep and self._power is DisplayPower.ON:
            self._set_contrast(self._dim_contrast)
            self._power = DisplayPower.DIMMED
        if self._retry_at is not None and now < self._retry_at:
            return
        if self._dirty_screen or self._dirty_leds or self._view != self._led_view:
            self._push()

    def settle(self) -> None:
        """Finish any LED animation at once and show where it ends.

        Headless runs call it before they write out the last picture.
        """
        self._finish_animation()
        if self._retry_at is None:
            self._push()

    def next_due(self) -> float | None:
        """Seconds until the next LED animation step is due (None: no animation running)."""
        if self._led_due is None:
            return None
        return max(0.0, self._led_due - self._clock.monotonic())

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
        which is also how often ``tick`` runs when no key comes; while the LEDs animate, the
        wait ends when the next step is due.
        """
        self._records.wake = functools.partial(events.put, None)  # figures read: draw them
        self._push()
        while not stop.is_set():
            if heartbeat is not None:
                heartbeat()
            due = self.next_due()
            try:
                event = events.get(timeout=poll if due is None else min(poll, due))
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
            commands.append(random_cut(self._rng, self._state.rules.sides))
        if isinstance(outcome.request, ShowRecord):
            return self._show_record(entry)
        if isinstance(outcome.request, NewMatch):
            if commands:
                self._do(commands)
            rules = outcome.request.rules
            match_format = outcome.request.match_format or self._format_for(rules)
            names = outcome.request.names or self._names_for(rules, keep=self._state.names)
            try:
                self._state = self.store.new_match(rules, names, match_format)
            except PegboardError as e:  # a format the variant cannot have: nothing changes
                self.last_error = _short(str(e))
                log.info("new match refused: %s", e)
                return False
            self._entry = entry
            self._refresh()
            return True
        if commands and not self._do(commands):
            return False
        self._entry = entry
        if outcome.refusal:
            self.last_error = outcome.refusal
        return True

    def _show_record(self, entry: EntryState) -> bool:
        """The head-to-head page of the first two sides: their figures as last read, or the
        page that says they are being read (``tick`` draws them when they come)."""
        first, second = self._view.names[:2]
        try:
            self._record = self._records.record(first, second)
        except JournalError as e:
            self.last_error = _short(str(e))
            log.error("journal: %s", e)
            return False
        self._entry = entry
        return True

    def _do(self, commands: list[Command]) -> bool:
        """Journal what one press means in ONE transaction: all of it or, after a crash, none.

        A press can mean several commands (a deal taken back and entered again with other
        suits); the journal checks them as a whole and stores them together.
        """
        try:
            self._state, events = self.store.do_all(commands)
        except JournalError as e:  # the journal could not be written: nothing was done
            self.last_error = _short(str(e))
            log.error("journal: %s", e)
            return False
        except PegboardError as e:
            self.last_error = _short(str(e))
            log.info("refused %s: %s", [self._state.command_text(c) for c in commands], e)
            return False
        self._events += events
        self._refresh()
        return True

    def _refresh(self) -> None:
        self._view = render_view(self._state)
        self._situation = Situation.of(self._state, self._view)
        view = self._view  # a new evening (match, game, winner) is read again, elsewhere
        self._records.changed((self.store.match_id, view.game, view.winner, view.match.winner))
        if self._win_chances is not None:
            self._chances = self._win_chances(self._state)
        if self._on_change is not None:
            try:
                self._on_change(self._state, self._view)
            except Exception:  # a listener (the web page) never breaks the key path
                log.exception("on_change failed; the game goes on")

    def _format_for(self, rules: Rules) -> MatchFormat | None:
        """The configured match format, or None (the variant's own) when it cannot apply.

        Best of three counts game points, which three separate players do not have.
        """
        try:
            Match.start(rules, self._format)
        except ConfigError as e:
            log.info("new %s match: %s; using the variant's own format", rules.variant.value, e)
            return None
        return self._format

    def _names_for(self, rules: Rules | None, keep: Sequence[str] = ()) -> tuple[str, ...] | None:
        """The names for a new match of *rules*: *keep* (the table's names, so a rematch keeps
        its players), else the configured names, when they fit the sides; else None (the
        engine's defaults)."""
        sides = (rules or Rules.six_card()).sides
        if len(keep) == sides:
            return tuple(keep)
        if self._names is not None and len(self._names) == sides:
            return self._names
        return None

    # --- news and the count's pages ---------------------------------------------------------

    def _tell(self, before: GameView, now: float) -> None:
        """Make what the press from *before* did the news (a press that moved the game and has
        nothing to tell clears it); a press that did not move the game ends the last news but
        leaves its count up."""
        moved = self._view != before
        news = news_of(before, self._view, self._events, self._language) if moved else None
        self._events = []
        if news is None and not moved:
            if self._news is not None and self._news_until is not None:
                self._news = self._news.faded()
                self._news_until = None
            return
        self._news = news or News()
        self._news_until = now + self._news_seconds if news is not None else None
        self._turn_pages(now)

    def _count_screen(self) -> Screen:
        """The game's screen, typing and errors aside: the count, if one is up."""
        return choose_screen(self._view, count_page=self._page, news=self._news)

    def _pages(self) -> int:
        """The pages of the count that is up (0: no count), laid out once for each count."""
        screen = self._count_screen()
        if screen.kind is not ScreenKind.COUNT or screen.view is None:
            return 0
        if self._count_pages is None:
            return 1
        counted = screen.news.counted if screen.news is not None else ()
        paged = self._paged
        if paged is None or paged[0] is not screen.view or paged[1] != counted:
            paged = self._paged = (screen.view, counted, self._count_pages(screen))
        return paged[2]

    def _turn_pages(self, now: float) -> None:
        """A new count (or none): its first page. Its pages are counted once its first frame is
        out (``_time_pages``); a count comes with news, so the screen does not wait on them."""
        self._page, self._page_due, self._paging_from = 0, None, now

    def _time_pages(self) -> None:
        """The next page of a new count is due ``page_seconds`` after it came, if it has one."""
        if self._paging_from is not None:
            now, self._paging_from = self._paging_from, None
            self._page_due = now + self._page_seconds if self._pages() > 1 else None

    def _step_pages(self, now: float) -> None:
        """Turn the count's page when it is due; the last page stays."""
        self._time_pages()
        if self._page_due is None or now < self._page_due:
            return
        if self._page < self._pages() - 1:
            self._page += 1
            self._dirty_screen = True
        more = self._page < self._pages() - 1
        self._page_due = self._page_due + self._page_seconds if more else None

    def _turns_page(self, event: KeyEvent) -> bool:
        """True when *event* is the page key, nothing is typed and the count has pages left."""
        if event.key != PAGE_KEY or event.action is not KeyAction.PRESS:
            return False
        if self.entry.typing or self.last_error:
            return False
        return self._page < self._pages() - 1

    # --- output ------------------------------------------------------------------------------

    def _push(self) -> None:
        """Hand the current frame to the display and the LED strips; note failures."""
        failed = False
        if self._power is DisplayPower.ASLEEP:
            pass  # keep the screen dirty: waking draws it
        elif self._dirty_screen and self._display is not None and self._render_screen is not None:
            screen = self.screen
            if screen != self._drawn:  # an equal screen draws an equal image: it is up already
                failed = not self._draw(screen)
            self._dirty_screen = failed
        else:
            self._dirty_screen = False
        self._time_pages()
        if self._animator is not None and self._view != self._led_view:
            self._start_animation()
        if self._dirty_leds and self._strips and self._led_steps:
            ok = self._show_leds(self._led_steps[self._led_index].frame)
            self._dirty_leds = not ok
            failed = failed or not ok
        else:
            self._dirty_leds = False
        self._retry_at = self._clock.monotonic() + self._retry_after if failed else None

    def _draw(self, screen: Screen) -> bool:
        """Render *screen* and hand it to the display; False when the display failed."""
        assert self._display is not None and self._render_screen is not None
        image = self._render_screen(screen)
        try:
            self._display.show(image)
        except (HardwareError, OSError) as e:
            log.warning("display failed, retrying in %.0f s: %s", self._retry_after, e)
            self._drawn = None  # what the panel shows now is not known
            return False
        self.frames += 1
        self._drawn = screen
        return True

    def _show_leds(self, colours: LedFrame) -> bool:
        """Write each strip whose colours changed; False when one failed."""
        ok = True
        for name, strip in self._strips.items():
            if name not in colours:
                continue
            pixels = tuple(colours[name])
            if self._led_shown.get(name) == pixels:
                continue
            try:
                strip.show(pixels)
                self._led_shown[name] = pixels
            except (HardwareError, OSError) as e:
                log.warning("LED strip %r failed, retrying: %s", name, e)
                self._led_shown.pop(name, None)
                ok = False
        return ok

    # --- the LED animation -------------------------------------------------------------------

    def _start_animation(self) -> None:
        """Animate the LEDs from the view they show (or were heading for) to the current one."""
        assert self._animator is not None
        steps = self._animator.animate(self._led_view, self._view)
        if not steps:
            raise ValueError(f"the LED animator gave no steps for {self._view.prompt!r}")
        self._led_view, self._led_steps, self._led_index = self._view, steps, 0
        self._led_due = self._clock.monotonic() + steps[0].hold if len(steps) > 1 else None
        self._dirty_leds = True

    def _step_animation(self, now: float) -> None:
        """Move to the latest step that is due (skipping any the loop was too late for)."""
        last = len(self._led_steps) - 1
        while self._led_due is not None and now >= self._led_due:
            self._led_index += 1
            self._led_due = (
                self._led_due + self._led_steps[self._led_index].hold
                if self._led_index < last
                else None
            )
            self._dirty_leds = True

    def _finish_animation(self) -> None:
        """Jump to the last step of a running animation."""
        if self._led_due is not None:
            self._led_index, self._led_due = len(self._led_steps) - 1, None
            self._dirty_leds = True

    # --- dim and sleep -------------------------------------------------------------------------

    def _sleep(self) -> None:
        self._power = DisplayPower.ASLEEP
        self._drawn = None  # dark or blank: waking draws the screen again
        display = self._display
        if display is None:
            return
        try:
            if isinstance(display, SleepingDisplay):
                display.sleep()
            else:  # no panel switch: a blank frame is the next best thing
                from PIL import Image

                display.show(Image.new(display.mode, display.size))
        except (HardwareError, OSError) as e:
            log.warning("display sleep failed: %s", e)
        self._dirty_screen = True
        log.info("display asleep after %.0f idle seconds", self._sleep_after or 0)

    def _wake(self) -> None:
        if self._power is DisplayPower.ON:
            return
        if self._power is DisplayPower.ASLEEP:
            self._dirty_screen = True
            if isinstance(self._display, SleepingDisplay):
                try:
                    self._display.wake()
                except (HardwareError, OSError) as e:
                    log.warning("display wake failed: %s", e)
        self._set_contrast(self._contrast)
        self._power = DisplayPower.ON

    def _set_contrast(self, level: int) -> None:
        if self._display is None:
            return
        try:
            self._display.set_contrast(level)
        except (HardwareError, OSError) as e:
            log.warning("display contrast failed: %s", e)
            self._drawn = None  # a display that failed may come back blank: draw it again


def _short(message: str, limit: int = 60) -> str:
    """The first clause of an error message, cut to *limit* characters."""
    text = message.split(" (")[0]
    return text if len(text) <= limit else text[: limit - 1] + "…"
