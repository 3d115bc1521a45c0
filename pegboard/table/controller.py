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
again the timing's ``retry_after`` seconds later from ``tick``; the game goes on meanwhile.

The key path does only what the key changed (issue 11): the journal's commit is its one wait; a
screen equal to the one shown is not drawn again; a count is laid out in pages once, after its
first frame is out; an LED animation's frames are drawn one at a time, as each is shown. The
journal's history is never read here: the menu's head-to-head page is read in the journal's
``HistoryReader`` thread (``table.headtohead``), which the controller only pokes.

``tick`` does the time-based work, each job a small frozen value with a pure ``step(value,
now)`` that the controller only calls and asks what to show: the keypad's combined peg
(``keypad.expire``), the screen's timeline (``ui.timeline``: the news, then every page of a
count, then what happens next), the LED animation (``table.animation``) and the display's power
(``table.power``). It also retries failed ports and pushes a new frame when something changed.
``run`` calls ``heartbeat`` (the systemd watchdog) on every turn of its loop, so a stuck loop
stops the pings, and waits for keys no longer than the next animation step.

The page key (``count.PAGE_KEY``, ``*``) with nothing typed turns the count's page at once
while pages are left (it means nothing else on a 4x4 keypad; on a 3x4 it opens peg mode once the
last page is up). A key on a sleeping display only wakes it: the key is swallowed, since nobody
could see what a blind press would do; on a dimmed one it wakes it and acts. After the
timing's ``sleep_after`` idle seconds (``power.ScreenTiming``) a display with
``sleep()``/``wake()`` switches its panel off, any other is shown a blank frame. A strip is only
written when its colours differ from what it last showed.
"""

from __future__ import annotations

import functools
import logging
import queue
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from pegboard.devices.ports import (
    Clock,
    Display,
    KeyAction,
    KeyEvent,
    LedStrip,
    SystemClock,
)
from pegboard.engine.commands import Command, random_cut
from pegboard.engine.events import Event
from pegboard.engine.game import GameState
from pegboard.engine.match import Match, MatchFormat
from pegboard.engine.rules import Rules
from pegboard.engine.view import GameView, render_view
from pegboard.errors import ConfigError, JournalError, PegboardError
from pegboard.i18n import Language, translator
from pegboard.i18n.values import local_default_names
from pegboard.journal import Journal
from pegboard.table import animation, power
from pegboard.table.animation import LedAnimation
from pegboard.table.beside import others_moved
from pegboard.table.headtohead import RecordPage
from pegboard.table.outputs import (
    LedAnimator,
    Outputs,
    PageCounter,
    ScreenRenderer,
    SoundSwitch,
    toggle_sound,
)
from pegboard.table.playhint import PlayHinter
from pegboard.table.power import DisplayPower, Power, ScreenTiming
from pegboard.ui import timeline
from pegboard.ui.count import PAGE_KEY
from pegboard.ui.hints import render_entry
from pegboard.ui.keypad import (
    IDLE_COMMIT,
    EntryState,
    EntryView,
    Layout,
    NewMatch,
    Outcome,
    RandomCut,
    ShowRecord,
    Situation,
    ToggleSound,
    expire,
    press,
)
from pegboard.ui.news import News, news_of
from pegboard.ui.pairing import PairingView
from pegboard.ui.results import HeadToHeadView
from pegboard.ui.screens import Screen, ScreenKind, choose_screen
from pegboard.ui.timeline import Timeline

if TYPE_CHECKING:
    from pegboard.journal.reader import HistoryReader
    from pegboard.table.tourney import TourneyBoard

__all__ = [
    "Controller",
    "DisplayPower",
    "LedAnimator",
    "PageCounter",
    "ScreenRenderer",
    "ScreenTiming",
]

log = logging.getLogger(__name__)


_MAX_REPEATS = 3  # a key may commit a pending peg, then a pending ten, then act


class Controller:
    """The game, the keypad entry and the ports, owned by one thread.

    *store* is an open ``Journal``; its current match is resumed (``Journal.load``), or a new match
    is started with *rules*, *names* and *match_format* when it has none. *roster* (the config's
    ``[game] roster``) and *names* are the names the menu offers for the sides of a new match;
    a new match keeps the table's names unless the menu picked others. *display*, *strips*,
    *render_screen* and *animate_leds* (``outputs.StillAnimator`` makes one of a plain LED
    renderer) are the output side (all optional: a controller without them still keeps the
    game); *count_pages* says how many pages a screen takes on the display (without it a count
    has one). *clock* defaults to the system clock; *rng* draws random cuts. *timing*
    (``power.ScreenTiming``; its defaults without it) says how long news and each page of a
    count stay up, when the display dims and sleeps, its contrast, and when a failed port is
    tried again.
    *win_chances* (state -> each side's chance to win, or None), when given, feeds the
    scoreboard's bar (``[display] win_probability``); it runs once a state change.
    *on_change(state, view)*, when given, is called in this thread after every state change
    (and once at construction); it must not block (the web page's ``ViewPublisher.publish``
    swaps bytes), and an exception in it is logged and never stops a key. *history* (the
    journal's ``HistoryReader``) reads the head-to-head page's figures in its own thread; it is
    poked when the evening changes (``table.headtohead``). Without it the page reads them here.
    *sound* (the speaker, which hears changes through *on_change*) is what ``ok`` held in the
    menu turns off and on.

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
        animate_leds: LedAnimator | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        timing: ScreenTiming | None = None,
        win_chances: Callable[[GameState], tuple[float, ...] | None] | None = None,
        on_change: Callable[[GameState, GameView], None] | None = None,
        history: HistoryReader | None = None,
        sound: SoundSwitch | None = None,
        play_hint: PlayHinter | None = None,  # table.playhint: its keys come first; no command
        tourney: TourneyBoard | None = None,  # table.tourney: the night's pairing and lock
    ) -> None:
        # Why each field is here and not in a value (STYLE 11): the first group are the
        # collaborators passed in (ports, services, callbacks): dependencies, not state.
        self.store = store  # the journal: the one place the game's state is kept
        self._sound = sound  # the menu's sound switch
        self._hint = play_hint
        self._tourney = tourney
        self._records = RecordPage(store, history)  # the head-to-head page's figures
        self._on_change = on_change
        self._win_chances = win_chances
        # settings read when a match is made or a lock checked; fixed for the daemon's life
        self._locked = bool(tourney and tourney.locked)  # the lock obeyed (table.tourney)
        self._names = tuple(names) if names is not None else None
        self._format = match_format
        # the chances of the state shown, worked out once per state (a cache, not state)
        self._chances: tuple[float, ...] | None = None
        # the ports, what they show and how a screen pages on the display
        self._out = Outputs(display, strips, render_screen, count_pages)
        self._animator = animate_leds
        self._clock = clock if clock is not None else SystemClock()  # every step's "now"
        self._rng = rng if rng is not None else random.Random()  # random cuts
        timing = timing if timing is not None else ScreenTiming()
        self._timing = timing  # the settings: read again for the contrast and the retries
        # the timed jobs, each a value stepped on the clock (see the module doc)
        self._line = Timeline(timing.news_seconds, timing.page_seconds)  # news, pages, what next
        self._leds = LedAnimation()  # the LEDs' way to the view they head for
        self._power = timing.power(self._clock.monotonic())
        self._events: list[Event] = []  # the events of the press being carried out
        self._record: HeadToHeadView | None = None  # the head-to-head page, while it is up
        # the menu offers the roster and the configured names (the config's names are players
        # of the house too, and may differ from the names of the match the journal resumes)
        offered = tuple(dict.fromkeys([*roster, *(self._names or ())]))
        # the keypad grammar's state; its language (kept by every entry) is the table's
        self._entry = EntryState(layout, roster=offered, language=language, sound=bool(sound))
        self.last_error = ""  # the last refused input's line, for the CLI and the web
        # the shell's own bookkeeping of its ports (effects, so not in a pure value):
        # what must be drawn again (it changed, or its port failed), and when to retry
        self._dirty_screen = True
        self._dirty_leds = True
        self._retry_at: float | None = None
        state = store.state if store.state is not None else store.load()
        if state is None:
            state = store.new_match(rules or Rules.six_card(), self._names_for(rules), match_format)
        self._state = state  # the match as the journal last stored it (the one truth)
        self._refresh()
        count_up = self._count_screen().kind is ScreenKind.COUNT  # left up by a restart: it pages
        self._line = self._line.restarted(self._power.last_key, count_up=count_up)

    # --- what the outside reads ----------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The game state (the journal's current match)."""
        return self._state

    @property
    def language(self) -> Language:
        """What the keypad's hints, the news and the screens say (``[game] language``)."""
        return self._entry.language

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
        return self._line.news

    @property
    def screen(self) -> Screen:
        """The screen to show now (what the display shows, when it is awake)."""
        return choose_screen(
            self._view,
            entry=(self._hint and self._hint.view()) or self.entry,
            error=self.last_error or None,
            count_page=self._line.count_page,
            news=self._line.news,
            read=self._line.read,
            chances=self._chances,
            record=self._record,
            pairing=self._offer(),
            locked=self._locked,
        )

    @property
    def drawn(self) -> Screen | None:
        """The screen the display was last handed (None: not known, or asleep)."""
        return self._out.drawn

    @property
    def frames(self) -> int:
        """Frames handed to the display so far (for benchmarks and the headless trace)."""
        return self._out.frames

    @property
    def display_power(self) -> DisplayPower:
        """Whether the display is on, dimmed or asleep."""
        return self._power.state

    @property
    def animating(self) -> bool:
        """True while an LED animation (a peg's travel, a win's flash) has steps to show."""
        return self._leds.due is not None

    # --- input -------------------------------------------------------------------------------

    def handle(self, event: KeyEvent) -> None:
        """One key event: apply what it means, then show the result.

        A key finishes a running LED animation at once. A key on a sleeping display only
        wakes it (the key is swallowed); on a dimmed one it wakes it and acts.

        Raises:
            Exception: anything but a ``PegboardError`` from the game (a bug): the daemon exits.
        """
        now = self._clock.monotonic()
        self._finish_animation()
        asleep = self._power.state is DisplayPower.ASLEEP
        self._set_power(self._power.pressed(now))
        if asleep:
            log.info("%s woke the display (the key is not used)", event)
            self._push()
            return
        if self._record is not None:  # any key leaves the head-to-head page (and only that)
            self._record = None
            self._dirty_screen = True
            self._push()
            return
        if self._hint and self._hint.handle(event, self._state, idle=not self.entry.typing):
            self._dirty_screen = True
            self._push()
            return
        offered = self._tourney is not None and self._offer() is not None
        request = self._tourney.handle(event, self._state) if self._tourney and offered else None
        if request is not None:  # ok on the night's pairing, shown, starts it
            self.last_error, before, self._events = "", self._view, []
            self._carry_out(self._entry, Outcome(request=request))
            self._tell(before, now)
            self._dirty_screen = self._dirty_leds = True
            self._push()
            return
        if self._turns_page(event):
            self._line = self._line.turned(now)
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
        if self._tourney is not None:  # the hub's notices: the pairing, the lock
            self._dirty_screen |= self._tourney.poll()
            if self._tourney.locked != self._locked:
                self._obey_lock(self._tourney.locked)
        line = self._line
        if line.counting and self.screen.kind is not ScreenKind.COUNT:
            line = line.held(now)  # covered by typing, the menu or an error: no page unseen
        line = timeline.step(line, now)
        self._dirty_screen = self._dirty_screen or line != self._line
        self._line = line
        leds = animation.step(self._leds, now)
        self._dirty_leds = self._dirty_leds or leds != self._leds
        self._leds = leds
        self._set_power(power.step(self._power, now))
        if self._retry_at is not None and now < self._retry_at:
            return
        if self._dirty_screen or self._dirty_leds or self._view != self._leds.view:
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
        if self._leds.due is None:
            return None
        return max(0.0, self._leds.due - self._clock.monotonic())

    def next_change(self) -> float | None:
        """When ``tick`` next has timed work, on the clock (None: nothing until a key): a peg's
        commit, the news's end, a count's page, an LED step, dimming or sleep. A headless
        replay ticks then, so each frame comes when a table would see it."""
        entry, line, power = self._entry, self._line, self._power
        times = [line.due(), self._leds.due, self._retry_at]
        if entry.peg_points:
            times.append(entry.peg_at + IDLE_COMMIT)
        idle = [power.dim_after, power.sleep_after]
        if power.state is DisplayPower.DIMMED:
            idle = idle[1:]
        if power.state is not DisplayPower.ASLEEP:
            times += [power.last_key + after for after in idle if after is not None]
        return min((t for t in times if t is not None), default=None)

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

    def _obey_lock(self, on: bool) -> None:
        """The tournament lock, at once: no odds (the bar), no hint open, the badge; the
        listeners (the pub page) get the view again with it."""
        self._locked = on
        if on and self._hint is not None:
            self._hint.close()
        self._refresh()
        self._dirty_screen = True

    def _offer(self) -> PairingView | None:
        """The night's pairing to show: offered by the hub, and the keypad idle."""
        if self._tourney is None or self.entry.typing or self.last_error:
            return None
        return self._tourney.offer(self._state)

    # --- applying what a key meant ---------------------------------------------------------

    def _carry_out(self, entry: EntryState, outcome: Outcome) -> bool:
        """Apply *outcome*; True when it was accepted (the entry moves on)."""
        commands = list(outcome.commands)
        if isinstance(outcome.request, RandomCut):
            commands.append(random_cut(self._rng, self._state.rules.sides))
        if isinstance(outcome.request, ShowRecord):
            return self._show_record(entry)
        if isinstance(outcome.request, ToggleSound):
            self._entry, self.last_error = entry, toggle_sound(self._sound, self.language)
            return True
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
        if self._win_chances is not None:  # never under the tournament lock
            self._chances = None if self._locked else self._win_chances(self._state)
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

    def _names_for(self, rules: Rules | None, keep: Sequence[str] = ()) -> tuple[str, ...]:
        """The names for a new match of *rules*: *keep* (the table's names, so a rematch keeps
        its players), else the configured names, when they fit the sides; else the tracks'
        colours in the table's language."""
        rules = rules or Rules.six_card()
        if len(keep) == rules.sides:
            return tuple(keep)
        if self._names is not None and len(self._names) == rules.sides:
            return self._names
        return local_default_names(translator(self.language), rules)

    # --- the screen's timeline -------------------------------------------------------------

    def _tell(self, before: GameView, now: float) -> None:
        """Make what the press from *before* did the news (a press that moved the game and has
        nothing to tell clears it); a press that did not move the game ends the last news but
        leaves its count up."""
        moved = self._view != before
        news = news_of(before, self._view, self._events, self.language) if moved else None
        self._events = []
        self._line = self._line.told(news, now) if moved else self._line.faded()

    def _count_screen(self) -> Screen:
        """The game's screen, typing and errors aside: the count, if one is up."""
        return choose_screen(self._view, count_page=self._line.page, news=self._line.news)

    def _lay_out(self) -> None:
        """A count just up is laid out in pages once, after its first frame is out."""
        if not self._line.counting or self._line.pages:
            return
        screen = self._count_screen()
        pages = 0
        if screen.kind is ScreenKind.COUNT and screen.view is not None:
            pages = self._out.pages(screen)
        self._line = self._line.laid_out(pages)

    def _turns_page(self, event: KeyEvent) -> bool:
        """True when *event* is the page key, nothing is typed and the count has pages left."""
        if event.key != PAGE_KEY or event.action is not KeyAction.PRESS:
            return False
        if self.entry.typing or self.last_error:
            return False
        self._lay_out()
        return self._line.can_turn

    # --- output ------------------------------------------------------------------------------

    def _push(self) -> None:
        """Hand the current frame to the display and the LED strips; note failures."""
        failed = False
        if self._power.state is DisplayPower.ASLEEP:
            pass  # keep the screen dirty: waking draws it
        elif self._dirty_screen and self._out.draws:
            failed = not self._out.show_screen(self.screen)
            self._dirty_screen = failed
        else:
            self._dirty_screen = False
        self._lay_out()
        if self._animator is not None and self._view != self._leds.view:
            steps = self._animator.animate(self._leds.view, self._view)
            self._leds = self._leds.started(self._view, steps, self._clock.monotonic())
            self._dirty_leds = True
        frame = self._leds.frame
        if self._dirty_leds and self._out.strips and frame is not None:
            ok = self._out.show_leds(frame)
            self._dirty_leds = not ok
            failed = failed or not ok
        else:
            self._dirty_leds = False
        self._retry_at = self._clock.monotonic() + self._timing.retry_after if failed else None

    def _finish_animation(self) -> None:
        """Jump to the last step of a running animation."""
        if self._leds.due is not None:
            self._leds, self._dirty_leds = self._leds.finished(), True

    # --- dim and sleep -------------------------------------------------------------------------

    def _set_power(self, new: Power) -> None:
        """Do to the display what the change from the power it had to *new* asks."""
        old, self._power = self._power.state, new
        if new.state is old:
            return
        if new.state is DisplayPower.ASLEEP:
            log.info("display asleep after %.0f idle seconds", new.sleep_after or 0)
            self._out.sleep()
            self._dirty_screen = True  # waking draws it
            return
        if old is DisplayPower.ASLEEP:
            self._dirty_screen = True
            self._out.wake()
        self._out.set_contrast(self._timing.contrast_for(new.state))


def _short(message: str, limit: int = 60) -> str:
    """The first clause of an error message, cut to *limit* characters."""
    text = message.split(" (")[0]
    return text if len(text) <= limit else text[: limit - 1] + "…"
