"""A USB numeric keypad read through evdev (Linux only; the ``pi`` extra installs evdev).

Theory of operation
===================

The kernel reports each key of a USB keypad as an ``EV_KEY`` input event with a Linux key code
and a value: 1 when the key goes down, 2 for each auto-repeat while it is held, 0 when it comes
up. ``UsbKeypad`` reads those events on its own thread and hands ``KeyEvent`` values to the
sink; that is all the thread does. Auto-repeats never become presses.

Most keys report ``PRESS`` when they go down. Keys mapped to a long-press name (``undo`` and
``ok`` by default, as on the GPIO buttons) wait: held past ``long_press`` seconds they report
``LONG_PRESS`` (seen through the keypad's auto-repeat events, or on release if the keypad does
not repeat), released sooner they report ``PRESS``. Times are the kernel's event timestamps.

The default map (``DEFAULT_USB_KEYMAP``), laid out so the keypad's own labels read naturally:

=============================  ==========  ===========================================
USB key                        our key     why
=============================  ==========  ===========================================
0-9 (``KEY_KP0``..``KEY_KP9``)  ``0``-``9``  the digits
``*`` (``KEY_KPASTERISK``)     ``*``       same label: backspace in the keypad grammar
Enter (``KEY_KPENTER``)        ``#``       the enter key of the matrix keypad
Backspace (``KEY_BACKSPACE``)  ``*``       backspace
``/`` ``-`` ``+`` ``.``        ``A``-``D``   the four letter keys, top to bottom
Esc (``KEY_ESC``)              ``undo``    held: redo
Tab (``KEY_TAB``)              ``ok``      held: menu
=============================  ==========  ===========================================

Num Lock is left unmapped: many keypads handle it in their own firmware and never send it.
The kernel reports ``KEY_KP7`` whether Num Lock is on or not (turning 7 into Home is done by
the console, not the keypad), so the keypad works either way. Pass ``keymap`` to change the
map; names are the kernel's (``KEY_...``), as ``evtest`` prints them.

A keypad that cannot be opened when ``start()`` runs is a ``HardwareError`` with the reason. A
keypad that disappears later (unplugged, USB reset) is logged and reopened every
``retry_interval`` seconds until it is back or ``close()`` is called; nothing else stops.
By default the keypad is grabbed, so its keys do not also type into the console.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from pegboard.devices.ports import KeyAction, KeyEvent, KeySink
from pegboard.errors import ConfigError, HardwareError

__all__ = [
    "DEFAULT_USB_KEYMAP",
    "EV_KEY",
    "LINUX_KEY_CODES",
    "EvdevDevice",
    "EvdevEvent",
    "UsbKeypad",
]

log = logging.getLogger(__name__)

EV_KEY = 1
"""The event type of keys and buttons (``EV_KEY`` in ``linux/input-event-codes.h``)."""

_KEY_UP, _KEY_DOWN, _KEY_REPEAT = 0, 1, 2

LINUX_KEY_CODES: Mapping[str, int] = MappingProxyType(
    {
        # from linux/input-event-codes.h: a stable kernel ABI, so no evdev import is needed
        "KEY_ESC": 1,
        "KEY_1": 2,
        "KEY_2": 3,
        "KEY_3": 4,
        "KEY_4": 5,
        "KEY_5": 6,
        "KEY_6": 7,
        "KEY_7": 8,
        "KEY_8": 9,
        "KEY_9": 10,
        "KEY_0": 11,
        "KEY_MINUS": 12,
        "KEY_EQUAL": 13,
        "KEY_BACKSPACE": 14,
        "KEY_TAB": 15,
        "KEY_ENTER": 28,
        "KEY_KPASTERISK": 55,
        "KEY_SPACE": 57,
        "KEY_NUMLOCK": 69,
        "KEY_KP7": 71,
        "KEY_KP8": 72,
        "KEY_KP9": 73,
        "KEY_KPMINUS": 74,
        "KEY_KP4": 75,
        "KEY_KP5": 76,
        "KEY_KP6": 77,
        "KEY_KPPLUS": 78,
        "KEY_KP1": 79,
        "KEY_KP2": 80,
        "KEY_KP3": 81,
        "KEY_KP0": 82,
        "KEY_KPDOT": 83,
        "KEY_KPENTER": 96,
        "KEY_KPSLASH": 98,
        "KEY_KPEQUAL": 117,
        "KEY_KPCOMMA": 121,
    }
)
"""Kernel key codes by name, for the keys a numeric keypad has."""

DEFAULT_USB_KEYMAP: Mapping[str, str] = MappingProxyType(
    {
        **{f"KEY_KP{d}": str(d) for d in range(10)},
        "KEY_KPASTERISK": "*",
        "KEY_BACKSPACE": "*",
        "KEY_KPENTER": "#",
        "KEY_ENTER": "#",
        "KEY_KPSLASH": "A",
        "KEY_KPMINUS": "B",
        "KEY_KPPLUS": "C",
        "KEY_KPDOT": "D",
        "KEY_ESC": "undo",
        "KEY_TAB": "ok",
    }
)
"""Kernel key name -> our key name (see the table in the module notes)."""


class EvdevEvent(Protocol):
    """The part of ``evdev.InputEvent`` we use."""

    type: int
    code: int
    value: int

    def timestamp(self) -> float:
        """Kernel time of the event, in seconds."""
        ...


class EvdevDevice(Protocol):
    """The part of ``evdev.InputDevice`` we use."""

    @property
    def fd(self) -> int:
        """A file descriptor that becomes readable when events are waiting."""
        ...

    def read(self) -> Iterable[EvdevEvent]:
        """The waiting events. Raises BlockingIOError if there are none, OSError if gone."""
        ...

    def grab(self) -> None:
        """Take the device for ourselves. Raises OSError if another program has it."""
        ...

    def close(self) -> None:
        """Release the device."""
        ...


@dataclass(slots=True)
class _Held:
    """A long-press key that is down (private to the reader thread)."""

    since: float
    fired: bool = False


class UsbKeypad:
    """Key events from a USB keypad (or any evdev keyboard), on a reader thread.

    Args:
        open_device: opens the keypad; called by ``start()`` and again after the keypad is
            lost. Tests pass a fake; ``UsbKeypad.from_path`` opens a real ``/dev/input`` node.
        keymap: kernel key name -> our key name; unmapped keys are ignored.
        long_press_keys: our key names that report ``LONG_PRESS`` when held; ``None`` means
            ``undo`` and ``ok`` if the keymap has them.
        long_press: seconds a long-press key must be held.
        retry_interval: seconds between attempts to reopen a lost keypad.
        grab: take the keypad for ourselves so its keys do not also type elsewhere.
        name: how messages name the keypad.

    Raises:
        ConfigError: a kernel key name that does not exist, an empty key name, an unknown
            long-press key, or a bad time.
    """

    def __init__(
        self,
        open_device: Callable[[], EvdevDevice],
        *,
        keymap: Mapping[str, str] = DEFAULT_USB_KEYMAP,
        long_press_keys: Collection[str] | None = None,
        long_press: float = 0.8,
        retry_interval: float = 2.0,
        grab: bool = True,
        name: str = "usb keypad",
    ) -> None:
        codes: dict[int, str] = {}
        for kernel_name, key in keymap.items():
            if not key or key != key.strip() or ":" in key:
                raise ConfigError(f"usb keypad: invalid key name {key!r} for {kernel_name}")
            codes[_key_code(kernel_name)] = key
        if long_press_keys is None:
            long_keys = frozenset({"undo", "ok"} & set(codes.values()))
        else:
            long_keys = frozenset(long_press_keys)
            unknown = sorted(long_keys - set(codes.values()))
            if unknown:
                raise ConfigError(f"usb keypad: long-press key {unknown[0]!r} is not in the keymap")
        if not long_press > 0:
            raise ConfigError(f"usb keypad: long_press must be > 0 seconds, got {long_press!r}")
        if not retry_interval >= 0:
            raise ConfigError(
                f"usb keypad: retry_interval must be >= 0 seconds, got {retry_interval!r}"
            )
        self._open_device = open_device
        self._codes = codes
        self._long_keys = long_keys
        self._long_press = long_press
        self._retry_interval = retry_interval
        self._grab = grab
        self._name = name
        self._sink: KeySink | None = None
        self._device: EvdevDevice | None = None
        self._held: dict[int, _Held] = {}
        self._stop = threading.Event()
        self._wake_r, self._wake_w = -1, -1
        self._thread: threading.Thread | None = None

    @classmethod
    def from_path(
        cls,
        path: str,
        *,
        keymap: Mapping[str, str] = DEFAULT_USB_KEYMAP,
        long_press_keys: Collection[str] | None = None,
        long_press: float = 0.8,
        retry_interval: float = 2.0,
        grab: bool = True,
    ) -> UsbKeypad:
        """A keypad at a ``/dev/input`` path; ``/dev/input/by-id/...-event-kbd`` stays put.

        Raises:
            ConfigError: as the constructor.
        """
        return cls(
            lambda: _open_evdev(path),
            keymap=keymap,
            long_press_keys=long_press_keys,
            long_press=long_press,
            retry_interval=retry_interval,
            grab=grab,
            name=f"usb keypad {path!r}",
        )

    @property
    def keymap(self) -> Mapping[int, str]:
        """Kernel key code -> our key name."""
        return MappingProxyType(self._codes)

    @property
    def connected(self) -> bool:
        """True while the keypad is open (False after it was lost, until it is back)."""
        return self._device is not None

    def start(self, sink: KeySink) -> None:
        """Open the keypad and start the reader thread.

        Raises:
            HardwareError: the keypad could not be opened or grabbed (the message says why),
                or it is already started.
        """
        if self._thread is not None:
            raise HardwareError(f"{self._name} is already started")
        self._device = self._open()
        self._sink = sink
        self._stop.clear()
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name="pegboard-usbkeys", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the reader thread and release the keypad. Calling it twice is fine."""
        self._stop.set()
        if self._thread is not None:
            os.write(self._wake_w, b"x")  # wake the thread out of select()
            self._thread.join()
            self._thread = None
            os.close(self._wake_r)
            os.close(self._wake_w)
        self._sink = None
        self._release()

    def _open(self) -> EvdevDevice:
        """Open (and grab) the keypad.

        Raises:
            HardwareError: it could not be opened or grabbed.
        """
        try:
            device = self._open_device()
        except OSError as e:
            raise HardwareError(f"cannot open {self._name}: {e}") from e
        if self._grab:
            try:
                device.grab()
            except OSError as e:
                device.close()
                raise HardwareError(
                    f"cannot grab {self._name}: {e} (is another program reading it?)"
                ) from e
        return device

    def _release(self) -> None:
        device, self._device = self._device, None
        self._held.clear()
        if device is not None:
            with contextlib.suppress(OSError):  # a lost keypad may refuse; it is gone anyway
                device.close()

    def _run(self) -> None:
        """The reader thread: events to the sink, and reopening a lost keypad."""
        while not self._stop.is_set():
            device = self._device
            if device is None:
                if self._stop.wait(self._retry_interval):
                    return
                try:
                    self._device = self._open()
                except HardwareError as e:
                    log.debug("%s; retrying in %s s", e, self._retry_interval)
                else:
                    log.info("%s is back", self._name)
                continue
            try:
                ready, _, _ = select.select([device.fd, self._wake_r], [], [])
                if device.fd in ready:
                    for event in device.read():
                        self._handle(event)
            except BlockingIOError:
                continue  # woken with nothing to read
            except OSError as e:
                if self._stop.is_set():
                    return
                log.warning(
                    "%s lost (%s); trying to reopen it every %s s",
                    self._name,
                    e.strerror or e,
                    self._retry_interval,
                )
                self._release()

    def _handle(self, event: EvdevEvent) -> None:
        """Turn one kernel event into zero or one ``KeyEvent``."""
        if event.type != EV_KEY:
            return
        key = self._codes.get(event.code)
        if key is None or self._sink is None:
            return
        if key not in self._long_keys:
            if event.value == _KEY_DOWN:
                self._sink(KeyEvent(key))
            return
        now = event.timestamp()
        if event.value == _KEY_DOWN:
            self._held[event.code] = _Held(since=now)
            return
        held = self._held.get(event.code)
        if held is None or held.fired:
            if event.value == _KEY_UP:
                self._held.pop(event.code, None)
            return
        long = now - held.since >= self._long_press
        if event.value == _KEY_REPEAT and long:
            held.fired = True
            self._sink(KeyEvent(key, KeyAction.LONG_PRESS))
        elif event.value == _KEY_UP:
            del self._held[event.code]
            self._sink(KeyEvent(key, KeyAction.LONG_PRESS if long else KeyAction.PRESS))


def _key_code(kernel_name: str) -> int:
    """The kernel's code for a ``KEY_...`` name.

    Raises:
        ConfigError: no such key.
    """
    code = LINUX_KEY_CODES.get(kernel_name)
    if code is not None:
        return code
    try:
        from evdev import ecodes  # knows every key, if it is installed
    except ImportError:
        pass
    else:
        found = ecodes.ecodes.get(kernel_name)
        if isinstance(found, int) and kernel_name.startswith(("KEY_", "BTN_")):
            return found
    raise ConfigError(
        f"usb keypad: unknown key {kernel_name!r} (expected a kernel key name like 'KEY_KP7'; "
        "evtest shows the names)"
    )


def _open_evdev(path: str) -> EvdevDevice:
    """Open a real keypad with evdev, imported only here.

    Raises:
        HardwareError: evdev is missing, or the path is not there or not readable.
    """
    try:
        import evdev
    except ImportError as e:
        raise HardwareError(
            "the usb keypad needs the evdev package: pip install 'pegboard[pi]'"
        ) from e
    try:
        device: EvdevDevice = evdev.InputDevice(path)
    except FileNotFoundError as e:
        raise HardwareError(
            f"usb keypad not found at {path!r} (is it plugged in? see ls /dev/input/by-id/)"
        ) from e
    except PermissionError as e:
        raise HardwareError(
            f"no permission to read {path!r} (add the user to the input group)"
        ) from e
    except OSError as e:
        raise HardwareError(f"cannot open usb keypad at {path!r}: {e}") from e
    return device
