"""Push buttons and a matrix keypad on GPIO pins, both turned into ``KeyEvent`` values.

Theory of operation
===================

Both classes implement the ``Keys`` port: ``start(sink)`` begins delivering events and
``close()`` stops and releases the pins. They keep no game state; the only thing they ever do
with an event is hand it to the sink (the controller's queue ``put``).

Buttons (``GpioButtons``)
    One gpiozero ``DigitalInputDevice`` per configured key, pulled up, so a press pulls the pin
    low. (That is gpiozero's ``Button`` without its hold thread: we time holds ourselves, and a
    ``Button`` closed while held blocks for up to its ``hold_time``.) We do
    the debouncing ourselves with the injected ``Clock`` (gpiozero's mock pins ignore
    ``bounce_time``, and our own code is testable): an edge that comes within ``debounce``
    seconds of the last accepted edge of the same button is contact bounce and is ignored.
    Most buttons report ``PRESS`` the moment they go down, for instant feedback. Long-press
    buttons (by default ``undo``, whose long press is redo, and ``ok``, whose long press opens
    the menu) wait: held past ``long_press`` seconds they report ``LONG_PRESS`` (once, while
    still held); released earlier they report ``PRESS`` on release. Holding is measured by
    ``tick()``, which a small thread calls every ``poll_interval`` seconds (pass ``None`` to
    call it yourself, as the tests do with a ``FakeClock``). ``tick()`` also re-reads each
    pin once the debounce window is over, so an edge swallowed by the window (a release
    within the first few milliseconds) is not lost.

Matrix keypad (``MatrixKeypad``)
    The common 4x4 (or 3x4) membrane keypad: a switch at each crossing of a row wire and a
    column wire, nothing else. Columns are inputs with pull-ups. Rows idle as pulled-up
    inputs too (high impedance), and ``scan()`` pulls one row at a time low by switching it to
    an output at level 0, reads every column (a column that reads low has its key in that row
    held), and lets the row go again. Only one row is ever driven, so two held keys in one
    column can never short a high output against a low one.

    A key must read the same on ``debounce_scans`` consecutive scans (default 3: 20 ms at the
    default 100 Hz) before its state changes, and a key reports ``PRESS`` once when it goes
    down: there is no auto-repeat while it is held. Any number of keys in one row, one column,
    or on a diagonal are read correctly. Without a diode per switch the matrix *ghosts*: hold
    three keys on three corners of a rectangle and the fourth corner reads as held too,
    because the current finds a path back through the other three. Such a reading is
    ambiguous (two rows that share two or more held columns), so the keypad ignores the whole
    scan until fewer keys are held. Add a diode in series with each switch if you need
    every combination.

    ``scan()`` is public: the keypad's own thread (``start``/``close``) calls it
    ``scan_hz`` times a second, tests call it directly.

Checks: each class checks what only it knows (key names, the layout against the pins, the
timing), and leaves the pins to gpiozero, which refuses a pin the Pi does not have or one
already in use (``PinInvalidPin``, ``GPIOPinInUse``: a ``HardwareError`` naming the pin here).
The config has checked the pins before, across everything that uses them
(``pegboard.config.settings``).

gpiozero is imported only when a class is constructed, so this module imports anywhere.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from pegboard.devices.ports import Clock, KeyAction, KeyEvent, KeySink, SystemClock
from pegboard.errors import ConfigError, HardwareError

__all__ = [
    "DEFAULT_LONG_PRESS_KEYS",
    "KEYPAD_3X4",
    "KEYPAD_4X4",
    "GpioButtons",
    "MatrixKeypad",
]

log = logging.getLogger(__name__)

KEYPAD_4X4: tuple[str, ...] = ("123A", "456B", "789C", "*0#D")
"""The usual 4x4 membrane keypad, top row first; each character is one key name."""

KEYPAD_3X4: tuple[str, ...] = ("123", "456", "789", "*0#")
"""The 3x4 telephone keypad, top row first."""

DEFAULT_LONG_PRESS_KEYS: frozenset[str] = frozenset({"undo", "ok"})
"""Buttons whose long press means something: undo held is redo, ok held opens the menu."""

_SLACK = 1e-9  # float sums like 100.0 + 0.8 - 100.0 land a hair short; time is not that fine
_BUTTON_NAME = re.compile(r"[a-z][a-z0-9_]*")


def _gpio_errors() -> tuple[type[BaseException], ...]:
    """The exceptions gpiozero raises when a pin cannot be used."""
    from gpiozero.exc import GPIOZeroError

    return (GPIOZeroError, OSError)


@dataclass(slots=True)
class _ButtonState:
    """What the debouncer knows about one button (private, guarded by the lock)."""

    long_capable: bool
    pressed: bool = False
    last_edge: float = float("-inf")
    pressed_at: float = 0.0
    long_fired: bool = False


class GpioButtons:
    """Push buttons on GPIO pins (pulled up; press = low), debounced with our own clock.

    Args:
        pins: key name -> BCM pin, e.g. ``{"peg0": 17, "peg1": 27, "undo": 22, "ok": 23}``.
        long_press_keys: buttons that report ``LONG_PRESS`` when held; ``None`` means
            ``undo`` and ``ok`` if they are wired.
        long_press: seconds a long-press button must be held to count as a long press.
        debounce: edges closer than this (seconds) to the last accepted edge are bounce.
        poll_interval: seconds between ``tick()`` calls by the buttons' own thread, or
            ``None`` to leave ticking to the caller.
        clock: where time comes from (``SystemClock`` by default).
        pin_factory: a gpiozero pin factory; ``None`` uses ``Device.pin_factory``.

    Raises:
        ConfigError: a bad name, an unknown long-press key or timing.
        HardwareError: gpiozero could not claim a pin (no such pin, pin in use, wrong pin
            factory, no permission).
    """

    def __init__(
        self,
        pins: Mapping[str, int],
        *,
        long_press_keys: Collection[str] | None = None,
        long_press: float = 0.8,
        debounce: float = 0.025,
        poll_interval: float | None = 0.02,
        clock: Clock | None = None,
        pin_factory: Any = None,
    ) -> None:
        if not pins:
            raise ConfigError("buttons: no buttons configured (expected e.g. {'undo': 22})")
        for name in pins:
            if not isinstance(name, str) or not _BUTTON_NAME.fullmatch(name):
                raise ConfigError(
                    f"buttons: invalid button name {name!r} "
                    "(expected lower-case letters, digits and _, like 'peg0')"
                )
        if long_press_keys is None:
            long_keys = DEFAULT_LONG_PRESS_KEYS & pins.keys()
        else:
            long_keys = frozenset(long_press_keys)
            unknown = sorted(long_keys - pins.keys())
            if unknown:
                raise ConfigError(
                    f"buttons: long-press key {unknown[0]!r} has no pin "
                    f"(buttons are {', '.join(sorted(pins))})"
                )
        if not long_press > 0:
            raise ConfigError(f"buttons: long_press must be > 0 seconds, got {long_press!r}")
        if not 0 <= debounce < long_press:
            raise ConfigError(
                f"buttons: debounce must be >= 0 and shorter than long_press, got {debounce!r}"
            )
        if poll_interval is not None and not poll_interval > 0:
            raise ConfigError(
                f"buttons: poll_interval must be > 0 seconds or None, got {poll_interval!r}"
            )

        self._long_press = long_press
        self._debounce = debounce
        self._poll_interval = poll_interval
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._lock = threading.Lock()
        self._sink: KeySink | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._state = {name: _ButtonState(long_capable=name in long_keys) for name in pins}
        self._buttons: dict[str, Any] = {}

        from gpiozero import DigitalInputDevice  # only the real adapter needs gpiozero

        for name, pin in pins.items():
            try:
                button = DigitalInputDevice(
                    pin, pull_up=True, bounce_time=None, pin_factory=pin_factory
                )
            except _gpio_errors() as e:
                self._close_buttons()
                raise HardwareError(f"cannot use GPIO{pin} for button {name!r}: {e}") from e
            self._buttons[name] = button

    @property
    def long_press_keys(self) -> frozenset[str]:
        """The buttons that report ``LONG_PRESS``."""
        return frozenset(name for name, st in self._state.items() if st.long_capable)

    def start(self, sink: KeySink) -> None:
        """Begin delivering events to *sink*; starts the hold-timing thread if configured.

        Raises:
            HardwareError: the buttons were closed.
        """
        if not self._buttons:
            raise HardwareError("buttons are closed")
        with self._lock:
            self._sink = sink
            now = self._clock.monotonic()
            for name, button in self._buttons.items():
                # a button already held at start is taken as held, not as a fresh press
                st = self._state[name]
                st.pressed, st.pressed_at, st.long_fired = bool(button.is_active), now, True
                button.when_activated = partial(self._on_edge, name, True)
                button.when_deactivated = partial(self._on_edge, name, False)
        if self._poll_interval is not None and self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="pegboard-buttons", daemon=True)
            self._thread.start()

    def tick(self) -> None:
        """Catch up with the clock: report long presses that are due, and edges lost to bounce.

        Safe to call from any thread, any number of times.
        """
        with self._lock:
            if self._sink is None:
                return
            now = self._clock.monotonic()
            for name, st in self._state.items():
                if now - st.last_edge + _SLACK >= self._debounce:
                    level = bool(self._buttons[name].is_active)
                    if level != st.pressed:
                        self._accept(name, st, level, now)
                if (
                    st.pressed
                    and st.long_capable
                    and not st.long_fired
                    and now - st.pressed_at + _SLACK >= self._long_press
                ):
                    st.long_fired = True
                    self._emit(name, KeyAction.LONG_PRESS)

    def close(self) -> None:
        """Stop delivering events and release the pins. Calling it twice is fine."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._lock:
            self._sink = None
        self._close_buttons()

    def _close_buttons(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def _run(self) -> None:
        assert self._poll_interval is not None  # start() only runs the thread with one
        while not self._stop.wait(self._poll_interval):
            self.tick()

    def _on_edge(self, name: str, pressed: bool) -> None:
        """gpiozero's callback (on its own thread): debounce, then hand events to the sink."""
        with self._lock:
            if self._sink is None:
                return
            now = self._clock.monotonic()
            st = self._state[name]
            if now - st.last_edge + _SLACK < self._debounce or pressed == st.pressed:
                return  # bounce, or a repeat of the state we already hold
            self._accept(name, st, pressed, now)

    def _accept(self, name: str, st: _ButtonState, pressed: bool, now: float) -> None:
        st.pressed, st.last_edge = pressed, now
        if pressed:
            if st.long_capable:
                st.pressed_at, st.long_fired = now, False
            else:
                self._emit(name, KeyAction.PRESS)
        elif st.long_capable and not st.long_fired:
            self._emit(name, KeyAction.PRESS)  # released before the long-press time

    def _emit(self, name: str, action: KeyAction) -> None:
        assert self._sink is not None  # callers hold the lock and checked
        self._sink(KeyEvent(name, action))


class MatrixKeypad:
    """A row/column matrix keypad scanned through gpiozero (see the module notes).

    Args:
        rows: BCM pins of the row wires, top row first.
        cols: BCM pins of the column wires, left column first.
        layout: one entry per row; each entry is a string (one character per key, like
            ``"123A"``) or a sequence of key names.
        scan_hz: scans per second by the keypad's own thread, 50..1000.
        debounce_scans: consecutive equal readings needed before a key changes state.
        clock: paces the scanning thread (``SystemClock`` by default).
        pin_factory: a gpiozero pin factory; ``None`` uses ``Device.pin_factory``.

    Raises:
        ConfigError: no pins, a layout that does not match the pins, or a bad rate.
        HardwareError: gpiozero could not claim a pin (no such pin, pin in use, no permission).
    """

    def __init__(
        self,
        rows: Sequence[int],
        cols: Sequence[int],
        layout: Sequence[Sequence[str]] = KEYPAD_4X4,
        *,
        scan_hz: float = 100.0,
        debounce_scans: int = 3,
        clock: Clock | None = None,
        pin_factory: Any = None,
    ) -> None:
        if not rows or not cols:
            raise ConfigError(
                f"keypad: needs at least one row and one column, got {rows!r}/{cols!r}"
            )
        grid = tuple(tuple(row) for row in layout)
        if len(grid) != len(rows):
            raise ConfigError(
                f"keypad: layout {list(layout)!r} has {len(grid)} rows but {len(rows)} row pins"
            )
        for row_keys in grid:
            if len(row_keys) != len(cols):
                raise ConfigError(
                    f"keypad: layout row {''.join(row_keys)!r} has {len(row_keys)} keys "
                    f"but there are {len(cols)} column pins"
                )
        names = [name for row_keys in grid for name in row_keys]
        for name in names:
            if not isinstance(name, str) or not name or name != name.strip() or ":" in name:
                raise ConfigError(f"keypad: invalid key name {name!r} in layout")
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ConfigError(f"keypad: key {duplicates[0]!r} appears twice in the layout")
        if isinstance(scan_hz, bool) or not 50 <= scan_hz <= 1000:
            raise ConfigError(f"keypad: scan_hz must be 50..1000, got {scan_hz!r}")
        if isinstance(debounce_scans, bool) or not isinstance(debounce_scans, int):
            raise ConfigError(
                f"keypad: debounce_scans must be a whole number, got {debounce_scans!r}"
            )
        if not 1 <= debounce_scans <= 20:
            raise ConfigError(f"keypad: debounce_scans must be 1..20, got {debounce_scans!r}")

        self._layout = grid
        self._scan_hz = float(scan_hz)
        self._debounce_scans = debounce_scans
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._lock = threading.Lock()
        self._sink: KeySink | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failing = False
        n = len(names)
        self._names = names
        self._stable = [False] * n  # debounced state, the one events are made from
        self._candidate = [False] * n  # latest raw reading
        self._count = [0] * n  # consecutive scans the raw reading has been the candidate
        self._rows: list[Any] = []
        self._cols: list[Any] = []

        from gpiozero import InputDevice  # only the real adapter needs gpiozero

        for what, pins, devices in (("row", rows, self._rows), ("column", cols, self._cols)):
            for i, pin in enumerate(pins):
                try:
                    devices.append(InputDevice(pin, pull_up=True, pin_factory=pin_factory))
                except _gpio_errors() as e:
                    self._close_pins()
                    raise HardwareError(f"cannot use GPIO{pin} for keypad {what} {i}: {e}") from e

    @property
    def layout(self) -> tuple[tuple[str, ...], ...]:
        """The key names, row by row."""
        return self._layout

    @property
    def scan_hz(self) -> float:
        """Scans per second by the keypad's own thread."""
        return self._scan_hz

    @property
    def held(self) -> frozenset[str]:
        """The keys held down right now, as debounced by the last scans."""
        with self._lock:
            return frozenset(n for n, down in zip(self._names, self._stable, strict=True) if down)

    def start(self, sink: KeySink) -> None:
        """Begin delivering events to *sink* and start the scanning thread.

        Raises:
            HardwareError: the keypad was closed.
        """
        if not self._rows:
            raise HardwareError("keypad is closed")
        with self._lock:
            self._sink = sink
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(
                target=self.run_until, args=(self._stop,), name="pegboard-keypad", daemon=True
            )
            self._thread.start()

    def close(self) -> None:
        """Stop scanning and release the pins. Calling it twice is fine."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._lock:
            self._sink = None
            self._close_pins()

    def scan(self) -> tuple[KeyEvent, ...]:
        """Read the whole matrix once, debounce, and report newly pressed keys.

        The events also go to the sink when the keypad is started.

        Returns:
            The ``PRESS`` events of this scan, in layout order.

        Raises:
            HardwareError: the keypad is closed or a pin failed.
        """
        with self._lock:
            if not self._rows:
                raise HardwareError("keypad is closed")
            try:
                masks = self._read_rows()
            except _gpio_errors() as e:
                raise HardwareError(f"keypad scan failed: {e}") from e
            if _is_ambiguous(masks):
                return ()  # a possible ghost: wait until fewer keys are held
            events: list[KeyEvent] = []
            width = len(self._cols)
            for i, name in enumerate(self._names):
                down = bool(masks[i // width] >> (i % width) & 1)
                if down != self._candidate[i]:
                    self._candidate[i], self._count[i] = down, 1
                elif self._count[i] < self._debounce_scans:
                    self._count[i] += 1
                if self._count[i] >= self._debounce_scans and down != self._stable[i]:
                    self._stable[i] = down
                    if down:
                        events.append(KeyEvent(name))
            if self._sink is not None:
                for event in events:
                    self._sink(event)
            return tuple(events)

    def run_until(self, stop: threading.Event) -> None:
        """Scan ``scan_hz`` times a second until *stop* is set (the body of the thread).

        A scan that runs late does not cause a burst of catch-up scans. A failing scan is
        logged once and retried at the same rate.
        """
        period = 1.0 / self._scan_hz
        due = self._clock.monotonic()
        while True:
            try:
                self.scan()
            except HardwareError as e:
                if not self._rows:
                    return  # closed under us
                if not self._failing:
                    log.error("%s; still trying", e)
                self._failing = True
            else:
                if self._failing:
                    log.info("keypad scanning again")
                self._failing = False
            due += period
            now = self._clock.monotonic()
            if due < now:
                due = now  # late: skip the missed scans rather than rush them
            if stop.wait(due - now):
                return

    def _read_rows(self) -> list[int]:
        """Drive each row low in turn; one bit per column that reads low."""
        masks = []
        for row in self._rows:
            pin = row.pin
            pin.output_with_state(False)
            try:
                mask = 0
                for bit, col in enumerate(self._cols):
                    if col.value:  # pulled-up input: active (1) means low, a closed switch
                        mask |= 1 << bit
            finally:
                pin.input_with_pull("up")  # let the row go again: only one row is ever driven
            masks.append(mask)
        return masks

    def _close_pins(self) -> None:
        for device in (*self._rows, *self._cols):
            device.close()
        self._rows.clear()
        self._cols.clear()


def _is_ambiguous(masks: Sequence[int]) -> bool:
    """True if two rows share two or more held columns: a ghost may be in the reading."""
    for i, a in enumerate(masks):
        for b in masks[i + 1 :]:
            common = a & b
            if common & (common - 1):  # more than one bit set
                return True
    return False
