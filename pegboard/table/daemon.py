"""The daemon: config -> ports -> controller, the run loop, signals and systemd.

Theory of operation
-------------------
``run_daemon`` reads nothing itself: it gets a checked ``Config`` and a ``Ports`` value (real
hardware from ``open_ports``, or the simulator's recording ports from ``sim_ports``), opens
the journal, and builds one ``Controller``. Key sources only put events on a queue; the
controller's ``run`` loop takes them off in the main thread, which owns all the state.

systemd (``Type=notify``): the loop's ``heartbeat`` runs on every turn. Its first call comes
right after the first frame was handed to the display, with the game loaded from the journal,
and sends ``READY=1``; every call pings the watchdog (at half of ``WatchdogSec=``), so a loop
that hangs stops pinging and systemd restarts the daemon, which resumes from the journal.
SIGTERM (or SIGINT) sets the stop event: the loop ends, ``STOPPING=1`` is sent, the display is
left showing "paused" (and kept so when the process exits), the LED strips are turned off,
and the key sources and the journal are closed. The daemon logs to stderr and never forks.

The LED tracks are driven by a ``TrackAnimator``: a peg's rear peg travels past the front peg
in ``PEG_FRAMES`` frames of ``FRAME_SECONDS`` each, an undo runs it back, and a win flashes the
winner's track for ``FLASH_SECONDS`` before it stays lit. A game with more sides than the
layout has tracks (a three-handed game chosen from the menu on a two-track board) lights the
tracks there are and logs it once. The display dims after ``display.dim_after`` idle seconds and
sleeps after ``display.sleep_after`` (see the controller).

Failing hardware never stops a game. ``LazyDisplay`` and ``LazyStrip`` open their device on
first use and drop it when it fails, so a display or strip that is missing at start, or
unplugged later, raises ``HardwareError`` from ``show``; the controller logs it and tries again
a few seconds later, and the next ``show`` opens the device afresh. A key source that cannot
be opened at start is logged and left out.
"""

from __future__ import annotations

import logging
import queue
import random
import signal
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from pegboard.config.settings import Config
from pegboard.devices.leds import RecordingStrip, StripSpec, open_strip
from pegboard.devices.ports import Clock, Color, Display, KeyEvent, Keys, LedStrip, SystemClock
from pegboard.engine.game import Phase
from pegboard.engine.rules import Rules
from pegboard.engine.view import GameView
from pegboard.errors import HardwareError, JournalError
from pegboard.journal import Store
from pegboard.table.controller import Controller, LedStep, SleepingDisplay
from pegboard.table.sdnotify import Notifier, WatchdogPinger
from pegboard.ui.keypad import EntryState, Layout
from pegboard.ui.keypad import EntryView as KeypadEntry
from pegboard.ui.ledtracks import (
    Frame,
    LedLayout,
    SidePegs,
    TrackState,
    animate_peg,
    render_tracks,
)
from pegboard.ui.screens import (
    EntryView,
    MenuItem,
    MenuView,
    choose_screen,
    render_error,
    render_screen,
)

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "FLASH_HOLD",
    "FLASH_SECONDS",
    "FRAME_SECONDS",
    "PEG_FRAMES",
    "LazyDisplay",
    "LazyStrip",
    "Ports",
    "TrackAnimator",
    "build_controller",
    "led_renderer",
    "open_ports",
    "run_daemon",
    "screen_renderer",
    "sim_ports",
    "track_state",
]

log = logging.getLogger(__name__)

RETRY_AFTER = 5.0
"""Seconds between attempts to reach a display or strip that failed."""

PEG_FRAMES = 12
"""Frames of a peg's travel (the rear peg moving past the front peg to the new score)."""

FRAME_SECONDS = 0.035
"""Seconds per animation frame: 12 frames make a 0.42 s peg; a 244-LED WS2812 frame is 7.6 ms."""

FLASH_SECONDS = 3.0
"""How long a win flashes the winner's track (a key ends it sooner); then the track stays lit."""

FLASH_HOLD = 0.25
"""Seconds per flash phase (lit, then not): two flashes a second."""


# -- ports that survive failing hardware ----------------------------------------------------


class LazyDisplay:
    """A ``Display`` that opens the real one on first use and again after each failure.

    *opener* makes the device (``LumaDisplay.from_options``); *size* and *mode* are known from
    the config, so frames can be rendered while the device is away.
    """

    def __init__(self, opener: Callable[[], Display], size: tuple[int, int], mode: str) -> None:
        self._opener = opener
        self._size = size
        self._mode = mode
        self._device: Display | None = None
        self._contrast: int | None = None
        self._asleep = False

    @property
    def size(self) -> tuple[int, int]:
        """Width and height in pixels."""
        return self._size

    @property
    def mode(self) -> str:
        """Pillow mode of the frames."""
        return self._mode

    @property
    def device(self) -> Display | None:
        """The open device, or None while it is away."""
        return self._device

    def _open(self) -> Display:
        if self._device is None:
            device = self._opener()  # HardwareError when it is not there
            if self._contrast is not None:
                device.set_contrast(self._contrast)
            if self._asleep and isinstance(device, SleepingDisplay):
                device.sleep()
            self._device = device
            log.info("display open: %s %sx%s", type(device).__name__, *self._size)
        return self._device

    def show(self, image: Image) -> None:
        """Show *image*, opening the device first if needed.

        Raises:
            HardwareError: the device could not be opened or written (it is dropped).
        """
        try:
            self._open().show(image)
        except (HardwareError, OSError):
            self._drop()
            raise

    def set_contrast(self, level: int) -> None:
        """Set (and remember for the next open) the contrast.

        Raises:
            HardwareError: the device could not be written (it is dropped).
        """
        self._contrast = level
        if self._device is None:
            return
        try:
            self._device.set_contrast(level)
        except (HardwareError, OSError):
            self._drop()
            raise

    @property
    def is_asleep(self) -> bool:
        """True between ``sleep()`` and ``wake()``."""
        return self._asleep

    def sleep(self) -> None:
        """Switch the panel off (and keep it off when the device is opened again).

        Raises:
            HardwareError: the device could not be written (it is dropped).
        """
        self._asleep = True
        self._forward("sleep")

    def wake(self) -> None:
        """Switch the panel back on.

        Raises:
            HardwareError: the device could not be written (it is dropped).
        """
        self._asleep = False
        self._forward("wake")

    def _forward(self, what: str) -> None:
        device = self._device
        if device is None or not isinstance(device, SleepingDisplay):
            return  # a device opened later is put to sleep (or not) by _open
        try:
            if what == "sleep":
                device.sleep()
            else:
                device.wake()
        except (HardwareError, OSError):
            self._drop()
            raise

    def leave(self, image: Image) -> None:
        """Show *image* and keep it on the panel after the process exits ("paused").

        A sleeping panel is woken first, so "paused" can be read.

        Raises:
            HardwareError: the device could not be reached.
        """
        if self._asleep:
            self.wake()
        self.show(image)
        luma = getattr(self._device, "device", None)
        if luma is not None and hasattr(luma, "persist"):
            luma.persist = True  # luma's atexit cleanup would clear the panel otherwise

    def close(self) -> None:
        """Clear the screen and release the device."""
        if self._device is not None:
            try:
                self._device.close()
            finally:
                self._device = None

    def _drop(self) -> None:
        device, self._device = self._device, None
        if device is not None:
            try:
                device.close()
            except Exception as e:  # a device that failed may fail to close too
                log.debug("closing a failed display: %s", e)


class LazyStrip:
    """An ``LedStrip`` that opens the backend on first use and again after each failure."""

    def __init__(self, spec: StripSpec, opener: Callable[[StripSpec], LedStrip] = open_strip):
        self._spec = spec
        self._opener = opener
        self._strip: LedStrip | None = None

    @property
    def length(self) -> int:
        """Number of LEDs on the strip."""
        return self._spec.count

    @property
    def strip(self) -> LedStrip | None:
        """The open backend, or None while it is away."""
        return self._strip

    def show(self, pixels: Sequence[Color]) -> None:
        """Light the strip, opening it first if needed.

        Raises:
            HardwareError: the strip could not be opened or written (it is dropped).
        """
        try:
            if self._strip is None:
                self._strip = self._opener(self._spec)
                log.info("LED strip %r open: %s", self._spec.name, self._spec.kind.value)
            self._strip.show(pixels)
        except (HardwareError, OSError):
            strip, self._strip = self._strip, None
            if strip is not None:
                try:
                    strip.close()
                except Exception as e:
                    log.debug("closing a failed strip: %s", e)
            raise

    def close(self) -> None:
        """Turn every LED off and release the strip (opening it once more to do so)."""
        try:
            if self._strip is None:
                self._strip = self._opener(self._spec)
            self._strip.close()
        finally:
            self._strip = None


# -- the ports ------------------------------------------------------------------------------


@dataclass
class Ports:
    """Everything the controller talks to. ``keys`` are started by ``run_daemon``."""

    display: Display | None
    strips: dict[str, LedStrip]
    keys: list[Keys] = field(default_factory=list)


def open_ports(config: Config) -> Ports:
    """The real hardware the config describes; whatever fails to open is logged and skipped.

    The display and the strips open lazily (and reopen after failures); key sources open now.
    """
    display: Display | None = None
    if config.display.enabled:
        options = config.display.luma_options()

        def open_oled() -> Display:
            from pegboard.devices.oled import LumaDisplay

            return LumaDisplay.from_options(options)

        display = LazyDisplay(open_oled, config.display.frame_size, config.display.frame_mode)
    strips: dict[str, LedStrip] = {s.name: LazyStrip(s) for s in config.leds.strips}
    return Ports(display, strips, _open_keys(config))


def _open_keys(config: Config) -> list[Keys]:
    keys: list[Keys] = []
    makers: list[tuple[str, Callable[[], Keys]]] = []
    if config.buttons.enabled:

        def buttons() -> Keys:
            from pegboard.devices.keys import GpioButtons

            b = config.buttons
            return GpioButtons(b.pins, debounce=b.debounce, long_press=b.long_press)

        makers.append(("buttons", buttons))
    if config.keypad.enabled:

        def keypad() -> Keys:
            from pegboard.devices.keys import MatrixKeypad

            k = config.keypad
            return MatrixKeypad(
                k.rows, k.cols, k.layout, scan_hz=k.scan_hz, debounce_scans=k.debounce_scans
            )

        makers.append(("keypad", keypad))
    if config.usb_keypad.enabled:

        def usb() -> Keys:
            from pegboard.devices.usbkeys import UsbKeypad

            u = config.usb_keypad
            return UsbKeypad.from_path(
                u.path, keymap=u.keymap, long_press=u.long_press, grab=u.grab
            )

        makers.append(("usb keypad", usb))
    for name, make in makers:
        try:
            keys.append(make())
        except (HardwareError, OSError, ImportError) as e:
            log.error("%s unavailable, carrying on without it: %s", name, e)
    return keys


def sim_ports(config: Config, keys: Sequence[Keys] = ()) -> Ports:
    """The simulator's ports: a recording display of the configured size and recording strips."""
    from pegboard.devices.oled import RecordingDisplay

    display = RecordingDisplay(config.display.frame_size, config.display.frame_mode)
    strips: dict[str, LedStrip] = {
        s.name: RecordingStrip(s.count, name=s.name) for s in config.leds.strips
    }
    return Ports(display, strips, list(keys))


# -- what the ports show --------------------------------------------------------------------


def track_state(view: GameView, rules: Rules) -> TrackState:
    """The LED tracks' input for *view*: pegs, dealer, lines (after holes 90 and 60) and winner.

    >>> from pegboard.engine.game import GameState
    >>> from pegboard.engine.view import render_view
    >>> t = track_state(render_view(GameState.new(Rules.six_card())), Rules.six_card())
    >>> t.target, t.lurch_line, t.double_skunk_line, [s.front for s in t.sides]
    (121, 90, 60, [0, 0])
    """

    def line(rule_line: int | None) -> int | None:
        # Rules: "a loser below 91 is lurched"; the tracks: "the line sits after hole 90"
        if rule_line is None or not 1 < rule_line <= view.target:
            return None
        return rule_line - 1

    sides = tuple(
        SidePegs(front=s.front, rear=min(s.rear, s.front), is_dealer=s.is_dealer)
        for s in view.sides
    )
    winner = view.winner if view.phase in (Phase.GAME_OVER, Phase.MATCH_OVER) else None
    return TrackState(
        sides, view.target, line(rules.lurch_line), line(rules.double_skunk_line), winner
    )


class TrackAnimator:
    """The controller's LED animator for the peg tracks of *layout*.

    A peg moves like a real one: the rear peg travels past the front peg to the new score in
    *frames* frames of *frame_seconds*; an undo runs the travel backwards; a win then flashes
    the winner's track for *flash_seconds* (phases of *flash_hold* seconds) and leaves it lit.
    Other changes (a new game or match) jump in one step. *rules_of* gives the current rules
    (for the lurch and double-skunk lines).

    A game with more sides than the layout has tracks lights the tracks there are (the sides
    without one are left out, and logged once), so no menu choice can crash the daemon.
    """

    def __init__(
        self,
        layout: LedLayout,
        rules_of: Callable[[], Rules],
        *,
        frames: int = PEG_FRAMES,
        frame_seconds: float = FRAME_SECONDS,
        flash_seconds: float = FLASH_SECONDS,
        flash_hold: float = FLASH_HOLD,
    ) -> None:
        self._layout = layout
        self._rules_of = rules_of
        self._frames = frames
        self._frame_seconds = frame_seconds
        self._flashes = max(0, round(flash_seconds / flash_hold)) if flash_hold > 0 else 0
        self._flash_hold = flash_hold
        self._warned: set[int] = set()

    @property
    def layout(self) -> LedLayout:
        """The LED layout the tracks are drawn on."""
        return self._layout

    def state(self, view: GameView) -> TrackState:
        """The tracks' input for *view*, cut to the tracks the layout has."""
        state = track_state(view, self._rules_of())
        tracks = len(self._layout.tracks)
        if len(state.sides) <= tracks:
            return state
        if len(state.sides) not in self._warned:
            self._warned.add(len(state.sides))
            log.warning(
                "%d sides but the LED layout has %d tracks: sides %s are not shown on the LEDs",
                len(state.sides),
                tracks,
                ", ".join(str(i + 1) for i in range(tracks, len(state.sides))),
            )
        winner = state.winner if state.winner is not None and state.winner < tracks else None
        return replace(state, sides=state.sides[:tracks], winner=winner)

    def render(self, view: GameView) -> Frame:
        """The still frame for *view* (the winner's track lit, not flashing)."""
        return render_tracks(self.state(view), self._layout)

    def animate(self, before: GameView | None, after: GameView) -> tuple[LedStep, ...]:
        """The steps from *before*'s tracks to *after*'s; the last is *after*'s still frame."""
        new = self.state(after)
        if before is None:
            return (LedStep(render_tracks(new, self._layout)),)
        old = self.state(before)
        if len(old.sides) != len(new.sides):  # a new match of another variant
            return (LedStep(render_tracks(new, self._layout)),)
        # the peg's travel without animate_peg's own flash: the flash is paced here
        frames = animate_peg(old, replace(new, winner=None), self._layout, self._frames)
        steps = [LedStep(frame, self._frame_seconds) for frame in frames]
        if new.winner is not None and old.winner is None and self._flashes:
            lit = render_tracks(new, self._layout, 1)
            still = frames[-1]
            steps[-1] = LedStep(still, self._flash_hold)
            steps += [
                LedStep(lit if phase % 2 else still, self._flash_hold)
                for phase in range(1, self._flashes + 1)
            ]
            steps.append(LedStep(still))
        return tuple(steps)


def led_renderer(
    layout: LedLayout, rules_of: Callable[[], Rules]
) -> Callable[[GameView], Mapping[str, Sequence[Color]]]:
    """A still LED renderer: view -> colours per strip (brightness and limit applied).

    More sides than tracks light the tracks there are (see ``TrackAnimator``).
    """
    return TrackAnimator(layout, rules_of).render


def screen_renderer(
    size: tuple[int, int], mode: str, entry_of: Callable[[], EntryState]
) -> Callable[[GameView, KeypadEntry, str], Image]:
    """The controller's screen renderer: (view, entry, message) -> the display's image.

    A message shows as an error; a keypad entry in progress shows the entry screen; otherwise
    the screen for the game's phase.
    """

    def render(view: GameView, entry: KeypadEntry, message: str) -> Image:
        state = entry_of()
        typing, menu = None, None
        if entry.menu:
            items = tuple(MenuItem(label, value) for label, value in entry.menu)
            menu = MenuView("menu  # down  * back", items, entry.cursor)
        elif state != state.cleared():
            typing = EntryView(entry.text, entry.hint, title=entry.title)
        screen = choose_screen(view, entry=typing, menu=menu, error=message or None)
        return render_screen(screen, size, mode)

    return render


def paused_frame(view: GameView | None, size: tuple[int, int], mode: str) -> Image:
    """The "paused" screen left on the display when the daemon stops."""
    return render_screen(choose_screen(view, paused=True), size, mode)


# -- the daemon -----------------------------------------------------------------------------


def build_controller(
    config: Config,
    store: Store,
    ports: Ports,
    *,
    clock: Clock | None = None,
    rng: random.Random | None = None,
) -> Controller:
    """One controller over *store* and *ports*, with the config's rules, names and renderers.

    Raises:
        JournalError: the journal cannot be read or written.
    """
    holder: list[Controller] = []
    game = config.game
    layout = Layout.for_keys("".join(config.keypad.layout)) if config.keypad.enabled else None

    def rules_of() -> Rules:
        return holder[0].state.rules if holder else game.rules

    def entry_of() -> EntryState:
        return holder[0].entry_state if holder else EntryState()

    display = ports.display
    controller = Controller(
        store=store,
        rules=game.rules,
        names=game.names,
        match_format=game.match_format,
        layout=layout or Layout.FOUR_BY_FOUR,
        display=display,
        strips=ports.strips,
        render_screen=(
            screen_renderer(display.size, display.mode, entry_of) if display is not None else None
        ),
        animate_leds=TrackAnimator(config.leds, rules_of),
        clock=clock,
        rng=rng,
        retry_after=RETRY_AFTER,
        dim_after=config.display.dim_after or None,
        sleep_after=config.display.sleep_after or None,
        contrast=config.display.contrast,
    )
    holder.append(controller)
    return controller


@dataclass
class RunResult:
    """What a daemon run leaves behind, for the simulator and the tests."""

    controller: Controller
    ready_after: float | None = None
    """Seconds from start to READY (None: never ready)."""


def stop_ports(controller: Controller | None, ports: Ports) -> None:
    """Leave "paused" on the display, turn the LEDs off and close the key sources."""
    for keys in ports.keys:
        try:
            keys.close()
        except Exception as e:
            log.warning("closing %s: %s", type(keys).__name__, e)
    display = ports.display
    if display is not None:
        view = controller.view if controller is not None else None
        try:
            image = paused_frame(view, display.size, display.mode)
            if isinstance(display, LazyDisplay):
                display.leave(image)
            else:
                display.show(image)
        except (HardwareError, OSError, ValueError) as e:
            log.warning("could not leave the paused screen: %s", e)
    for name, strip in ports.strips.items():
        try:
            strip.close()
        except (HardwareError, OSError) as e:
            log.warning("could not turn LED strip %r off: %s", name, e)


def run_daemon(
    config: Config,
    ports: Ports,
    *,
    notifier: Notifier | None = None,
    stop: threading.Event | None = None,
    install_signals: bool = True,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    on_ready: Callable[[Controller], None] | None = None,
) -> RunResult:
    """Run the device until SIGTERM/SIGINT (or *stop* is set); returns what it left behind.

    Raises:
        JournalError: the journal cannot be opened or replayed.
        Exception: a bug in the controller (systemd restarts the daemon from the journal).
    """
    started = time.monotonic()
    notifier = notifier if notifier is not None else Notifier()
    stop = stop if stop is not None else threading.Event()
    events: queue.Queue[KeyEvent | None] = queue.Queue()
    clock = clock if clock is not None else SystemClock()
    try:
        store = Store(config.game.database)
    except JournalError as e:
        log.error("journal: %s", e)
        show_journal_error(ports, config.game.database, e)
        raise
    if store.notice:
        log.warning("%s", store.notice)
    controller: Controller | None = None
    result: RunResult | None = None
    previous: dict[int, Any] = {}

    def on_signal(signum: int, frame: FrameType | None) -> None:
        log.info("signal %s: stopping", signal.Signals(signum).name)
        stop.set()
        events.put(None)  # wake the loop now

    if install_signals:
        for signum in (signal.SIGTERM, signal.SIGINT):
            previous[signum] = signal.signal(signum, on_signal)
    try:
        controller = build_controller(config, store, ports, clock=clock, rng=rng)
        result = RunResult(controller)
        log.info(
            "game loaded from %s: %s, game %d deal %d",
            config.game.database,
            controller.view.variant,
            controller.view.game,
            controller.view.deal,
        )
        for keys in ports.keys:
            try:
                keys.start(events.put)
            except (HardwareError, OSError) as e:
                log.error("%s did not start: %s", type(keys).__name__, e)
        pinger = WatchdogPinger(notifier)
        ready = False

        def heartbeat() -> None:
            nonlocal ready
            assert controller is not None and result is not None
            if not ready:
                # the controller's run() pushes the first frame before its first heartbeat
                ready = True
                result.ready_after = time.monotonic() - started
                view = controller.view
                notifier.ready(f"{view.variant}: " + _score_line(view))
                log.info("ready in %.3f s", result.ready_after)
                if on_ready is not None:
                    on_ready(controller)
            pinger.tick(time.monotonic())

        controller.run(events, stop, heartbeat=heartbeat)
        notifier.stopping("paused")
    finally:
        stop_ports(controller, ports)
        store.close()
        for number, handler in previous.items():
            signal.signal(number, handler)
    assert result is not None
    return result


def show_journal_error(ports: Ports, path: Path, error: JournalError) -> None:
    """Put a journal the daemon refused on the display: the file's name and what is wrong."""
    if ports.display is None:
        return
    # "'pegboard.db' is not a pegboard journal": the name, not the path, fits the screen
    reason = str(error).replace(repr(str(path)), repr(path.name)).split(" (", 1)[0]
    display = ports.display
    try:
        display.show(render_error(reason, display.size, display.mode))
    except (HardwareError, OSError, ValueError) as e:
        log.warning("could not show the journal error: %s", e)


def _score_line(view: GameView) -> str:
    return ", ".join(f"{s.name} {s.score}" for s in view.sides)
