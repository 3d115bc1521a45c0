"""The USB keypad, fed by a fake evdev device (a real file descriptor, fake events)."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import queue
import sys
import threading
import types
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from pegboard.devices.ports import KeyAction, KeyEvent
from pegboard.devices.usbkeys import (
    DEFAULT_USB_KEYMAP,
    EV_KEY,
    LINUX_KEY_CODES,
    EvdevEvent,
    UsbKeypad,
)
from pegboard.errors import ConfigError, HardwareError

EV_SYN, EV_MSC = 0, 4
UP, DOWN, REPEAT = 0, 1, 2
SENTINEL = "KEY_KP0"  # pressed last, so a test knows everything before it was handled


@dataclass(frozen=True)
class FakeEvent:
    type: int
    code: int
    value: int
    sec: float = 0.0

    def timestamp(self) -> float:
        return self.sec


def key(name: str, value: int, sec: float = 0.0) -> FakeEvent:
    return FakeEvent(EV_KEY, LINUX_KEY_CODES[name], value, sec)


class FakeDevice:
    """Stands in for ``evdev.InputDevice``: a pipe makes ``fd`` readable when events wait."""

    def __init__(self) -> None:
        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        self._events: list[EvdevEvent] = []
        self._lock = threading.Lock()
        self.gone = False
        self.grabbed = False
        self.closed = False

    @property
    def fd(self) -> int:
        return self._r

    def push(self, *events: EvdevEvent) -> None:
        with self._lock:
            self._events.extend(events)
        os.write(self._w, b"e")

    def unplug(self) -> None:
        self.gone = True
        os.write(self._w, b"u")

    def read(self) -> list[EvdevEvent]:
        with contextlib.suppress(BlockingIOError):  # the wake-up bytes; may be none left
            os.read(self._r, 4096)
        if self.gone:
            raise OSError(errno.ENODEV, "No such device")
        with self._lock:
            events, self._events = self._events, []
        if not events:
            raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
        return events

    def grab(self) -> None:
        self.grabbed = True

    def close(self) -> None:
        self.closed = True
        os.close(self._r)
        os.close(self._w)


@pytest.fixture
def device() -> FakeDevice:
    return FakeDevice()


@pytest.fixture
def events() -> queue.Queue[KeyEvent]:
    return queue.Queue()


@pytest.fixture
def keypad(device: FakeDevice, events: queue.Queue[KeyEvent]) -> Iterator[UsbKeypad]:
    pad = UsbKeypad(lambda: device)
    pad.start(events.put)
    yield pad
    pad.close()


def received(q: queue.Queue[KeyEvent], device: FakeDevice) -> list[str]:
    """Every event up to a final press of the sentinel key (which is not included)."""
    device.push(key(SENTINEL, DOWN, 99.0), key(SENTINEL, UP, 99.1))
    out = []
    while (event := q.get(timeout=10)) != KeyEvent("0"):
        out.append(str(event))
    return out


def test_received_stops_at_the_sentinel(
    keypad: UsbKeypad, device: FakeDevice, events: queue.Queue[KeyEvent]
) -> None:
    device.push(key("KEY_KP5", DOWN))
    assert received(events, device) == ["5"]
    assert received(events, device) == []


@pytest.mark.parametrize(
    ("kernel_name", "ours"),
    [pytest.param(k, v, id=f"{k}-{v}") for k, v in DEFAULT_USB_KEYMAP.items()],
)
def test_each_default_key_maps_to_our_key(
    device: FakeDevice, events: queue.Queue[KeyEvent], kernel_name: str, ours: str
) -> None:
    pad = UsbKeypad(lambda: device, long_press_keys=())
    pad.start(events.put)
    device.push(key(kernel_name, DOWN, 1.0), key(kernel_name, UP, 1.1))
    try:
        assert events.get(timeout=10) == KeyEvent(ours)
        assert received(events, device) == []  # nothing on the way up
    finally:
        pad.close()


def test_the_default_map_covers_a_numeric_keypad() -> None:
    assert set(DEFAULT_USB_KEYMAP.values()) == set("0123456789ABCD*#") | {"undo", "ok"}


def test_keys_report_on_the_way_down_and_never_repeat(
    keypad: UsbKeypad, device: FakeDevice, events: queue.Queue[KeyEvent]
) -> None:
    device.push(key("KEY_KP7", DOWN, 1.0))
    assert events.get(timeout=10) == KeyEvent("7")
    device.push(*(key("KEY_KP7", REPEAT, 1.25 + i / 30) for i in range(60)))
    device.push(key("KEY_KP7", UP, 3.5))
    assert received(events, device) == []


def test_other_events_and_unmapped_keys_are_ignored(
    keypad: UsbKeypad, device: FakeDevice, events: queue.Queue[KeyEvent]
) -> None:
    device.push(
        FakeEvent(EV_MSC, 4, 0x70059),  # the scan code a keyboard sends with each key
        FakeEvent(EV_SYN, 0, 0),
        key("KEY_NUMLOCK", DOWN),
        key("KEY_SPACE", DOWN),
        key("KEY_KP3", DOWN),
    )
    assert received(events, device) == ["3"]


def test_esc_is_undo_when_tapped(
    keypad: UsbKeypad, device: FakeDevice, events: queue.Queue[KeyEvent]
) -> None:
    device.push(key("KEY_ESC", DOWN, 1.0))
    device.push(key("KEY_ESC", UP, 1.3))
    assert received(events, device) == ["undo"]


def test_esc_held_is_redo_as_soon_as_the_repeats_pass_the_long_press_time(
    keypad: UsbKeypad, device: FakeDevice, events: queue.Queue[KeyEvent]
) -> None:
    device.push(key("KEY_ESC", DOWN, 1.0), key("KEY_ESC", REPEAT, 1.25))
    device.push(key("KEY_ESC", REPEAT, 1.8))
    assert events.get(timeout=10) == KeyEvent("undo", KeyAction.LONG_PRESS)
    device.push(key("KEY_ESC", REPEAT, 1.9), key("KEY_ESC", UP, 2.5))
    assert received(events, device) == []


def test_a_keypad_without_repeat_reports_the_long_press_on_release(
    keypad: UsbKeypad, device: FakeDevice, events: queue.Queue[KeyEvent]
) -> None:
    device.push(key("KEY_TAB", DOWN, 1.0), key("KEY_TAB", UP, 2.0))
    assert received(events, device) == ["ok:long"]


def test_the_keymap_and_long_press_are_configurable(
    device: FakeDevice, events: queue.Queue[KeyEvent]
) -> None:
    pad = UsbKeypad(
        lambda: device,
        keymap={"KEY_KP0": "0", "KEY_KPDOT": "undo", "KEY_NUMLOCK": "ok"},
        long_press=2.0,
    )
    assert pad.keymap == {82: "0", 83: "undo", 69: "ok"}
    pad.start(events.put)
    device.push(key("KEY_KPDOT", DOWN, 1.0), key("KEY_KPDOT", UP, 2.5))
    device.push(key("KEY_NUMLOCK", DOWN, 3.0), key("KEY_NUMLOCK", UP, 5.0))
    device.push(key("KEY_ESC", DOWN, 6.0))
    try:
        assert received(events, device) == ["undo", "ok:long"]
    finally:
        pad.close()


def test_the_keypad_is_grabbed_and_closed(device: FakeDevice) -> None:
    pad = UsbKeypad(lambda: device)
    pad.start(print)
    assert device.grabbed
    assert pad.connected
    pad.close()
    pad.close()
    assert device.closed
    assert not pad.connected


def test_grabbing_can_be_turned_off(device: FakeDevice) -> None:
    pad = UsbKeypad(lambda: device, grab=False)
    pad.start(print)
    pad.close()
    assert not device.grabbed


def test_a_lost_keypad_is_logged_and_reopened(caplog: pytest.LogCaptureFixture) -> None:
    first, second = FakeDevice(), FakeDevice()
    tries: list[int] = []

    def open_device() -> FakeDevice:
        tries.append(1)
        if len(tries) == 1:
            return first
        if len(tries) < 4:
            raise OSError(errno.ENOENT, "No such file or directory")  # not back yet
        return second

    q: queue.Queue[KeyEvent] = queue.Queue()
    pad = UsbKeypad(open_device, retry_interval=0)
    caplog.set_level(logging.INFO, logger="pegboard.devices.usbkeys")
    pad.start(q.put)
    try:
        first.push(key("KEY_KP1", DOWN))
        assert q.get(timeout=10) == KeyEvent("1")
        first.unplug()
        second.push(key("KEY_KP2", DOWN))
        assert q.get(timeout=10) == KeyEvent("2")
    finally:
        pad.close()
    assert len(tries) == 4
    assert first.closed and second.closed and second.grabbed
    messages = [r.getMessage() for r in caplog.records]
    assert "usb keypad lost (No such device); trying to reopen it every 0 s" in messages
    assert "usb keypad is back" in messages


def test_close_stops_a_keypad_that_never_comes_back() -> None:
    device = FakeDevice()
    calls = threading.Event()

    def open_device() -> FakeDevice:
        if calls.is_set():
            raise OSError(errno.ENOENT, "No such file or directory")
        calls.set()
        return device

    pad = UsbKeypad(open_device, retry_interval=0.001)
    pad.start(print)
    device.unplug()
    pad.close()  # returns: the retry loop watches the stop flag
    assert not pad.connected


@pytest.mark.parametrize(
    ("error", "message"),
    [
        pytest.param(
            OSError(errno.ENOENT, "No such file or directory"),
            r"^cannot open usb keypad: \[Errno 2\] No such file or directory$",
            id="missing",
        ),
        pytest.param(
            HardwareError("usb keypad not found at '/dev/input/x'"),
            r"^usb keypad not found at '/dev/input/x'$",
            id="hardware-error",
        ),
    ],
)
def test_a_keypad_that_cannot_be_opened_is_a_hardware_error(error: Exception, message: str) -> None:
    def open_device() -> FakeDevice:
        raise error

    with pytest.raises(HardwareError, match=message):
        UsbKeypad(open_device).start(print)


def test_a_keypad_another_program_grabbed_is_a_hardware_error(device: FakeDevice) -> None:
    def refuse() -> None:
        raise OSError(errno.EBUSY, "Device or resource busy")

    device.grab = refuse  # type: ignore[method-assign]
    with pytest.raises(
        HardwareError,
        match=r"^cannot grab usb keypad: \[Errno 16\] Device or resource busy "
        r"\(is another program reading it\?\)$",
    ):
        UsbKeypad(lambda: device).start(print)
    assert device.closed


def test_starting_twice_is_refused(keypad: UsbKeypad) -> None:
    with pytest.raises(HardwareError, match=r"^usb keypad is already started$"):
        keypad.start(print)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param(
            {"keymap": {"KEY_KPFOO": "1"}},
            r"^usb keypad: unknown key 'KEY_KPFOO' \(expected a kernel key name like 'KEY_KP7'",
            id="kernel-name",
        ),
        pytest.param(
            {"keymap": {"KEY_KP1": ""}},
            r"^usb keypad: invalid key name '' for KEY_KP1$",
            id="empty-name",
        ),
        pytest.param(
            {"keymap": {"KEY_KP1": "undo:long"}},
            r"^usb keypad: invalid key name 'undo:long' for KEY_KP1$",
            id="long-name",
        ),
        pytest.param(
            {"long_press_keys": {"redo"}},
            r"^usb keypad: long-press key 'redo' is not in the keymap$",
            id="long-key",
        ),
        pytest.param(
            {"long_press": -1},
            r"^usb keypad: long_press must be > 0 seconds, got -1$",
            id="long-press",
        ),
        pytest.param(
            {"retry_interval": -0.5},
            r"^usb keypad: retry_interval must be >= 0 seconds, got -0\.5$",
            id="retry",
        ),
    ],
)
def test_bad_usb_keypad_config_is_refused(
    device: FakeDevice, kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        UsbKeypad(lambda: device, **kwargs)  # type: ignore[arg-type]


def fake_evdev(error: OSError | None) -> types.ModuleType:
    """A stand-in ``evdev`` module whose ``InputDevice`` fails with *error* or succeeds."""
    module = types.ModuleType("evdev")

    def input_device(path: str) -> FakeDevice:
        if error is not None:
            raise error
        return FakeDevice()

    module.InputDevice = input_device  # type: ignore[attr-defined]
    return module


@pytest.mark.parametrize(
    ("module", "message"),
    [
        pytest.param(
            None,
            r"^the usb keypad needs the evdev package: pip install 'pegboard\[pi\]'$",
            id="no-evdev",
        ),
        pytest.param(
            fake_evdev(FileNotFoundError(errno.ENOENT, "No such file or directory")),
            r"^usb keypad not found at '/dev/input/by-id/kp' \(is it plugged in\? "
            r"see ls /dev/input/by-id/\)$",
            id="not-found",
        ),
        pytest.param(
            fake_evdev(PermissionError(errno.EACCES, "Permission denied")),
            r"^no permission to read '/dev/input/by-id/kp' \(add the user to the input group\)$",
            id="permission",
        ),
        pytest.param(
            fake_evdev(OSError(errno.EIO, "Input/output error")),
            r"^cannot open usb keypad at '/dev/input/by-id/kp': \[Errno 5\] Input/output error$",
            id="io-error",
        ),
    ],
)
def test_opening_a_real_keypad_explains_what_went_wrong(
    monkeypatch: pytest.MonkeyPatch, module: types.ModuleType | None, message: str
) -> None:
    monkeypatch.setitem(sys.modules, "evdev", module)
    pad = UsbKeypad.from_path("/dev/input/by-id/kp")
    with pytest.raises(HardwareError, match=message):
        pad.start(print)


def test_from_path_opens_through_evdev(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "evdev", fake_evdev(None))
    pad = UsbKeypad.from_path("/dev/input/by-id/kp", grab=False)
    pad.start(print)
    assert pad.connected
    pad.close()
