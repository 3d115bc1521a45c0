"""Ports that survive failing hardware: opened on first use, dropped and reopened after failures."""

from __future__ import annotations

import pytest
from PIL import Image

from pegboard.devices.lazy import LazyDisplay, LazyStrip
from pegboard.devices.leds import RecordingStrip
from pegboard.devices.oled import RecordingDisplay
from pegboard.errors import HardwareError


class _Flaky:
    """A display that fails while ``broken`` is set (an unplugged OLED)."""

    opened = 0
    broken = True

    def __init__(self) -> None:
        type(self).opened += 1
        if type(self).broken:
            raise HardwareError("OLED not found on I2C bus 1 at 0x3C")
        self.inner = RecordingDisplay()

    @property
    def size(self) -> tuple[int, int]:
        return self.inner.size

    @property
    def mode(self) -> str:
        return self.inner.mode

    def show(self, image: Image.Image) -> None:
        self.inner.show(image)

    def set_contrast(self, level: int) -> None:
        self.inner.set_contrast(level)

    def close(self) -> None:
        self.inner.close()


def test_a_display_missing_at_start_is_opened_when_it_appears() -> None:
    lazy = LazyDisplay(_Flaky, (128, 64), "1")
    frame = Image.new("1", (128, 64), 1)
    with pytest.raises(HardwareError, match="OLED not found on I2C bus 1 at 0x3C"):
        lazy.show(frame)
    assert lazy.device is None
    _Flaky.broken = False
    lazy.show(frame)
    assert isinstance(lazy.device, _Flaky)
    assert lazy.device.inner.last is not None


def test_a_strip_that_fails_is_reopened_on_the_next_frame() -> None:
    opened: list[RecordingStrip] = []

    def opener() -> RecordingStrip:
        strip = RecordingStrip(3, name="board")
        opened.append(strip)
        return strip

    lazy = LazyStrip(opener, 3, "board")
    assert lazy.length == 3 and lazy.strip is None  # nothing opened yet
    lazy.show([(1, 2, 3)] * 3)
    opened[0].close()  # the strip goes away: the next show fails and drops it
    with pytest.raises(HardwareError, match="closed"):
        lazy.show([(4, 5, 6)] * 3)
    lazy.show([(7, 8, 9)] * 3)
    assert len(opened) == 2 and opened[1].last == ((7, 8, 9),) * 3


class _Panel:
    """A display device with a panel switch, recording what it is told."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    size = (128, 64)
    mode = "1"

    def show(self, image: Image.Image) -> None:
        self.log.append("show")

    def set_contrast(self, level: int) -> None:
        self.log.append(f"contrast {level}")

    def sleep(self) -> None:
        self.log.append("sleep")

    def wake(self) -> None:
        self.log.append("wake")

    def close(self) -> None:
        self.log.append("close")


def test_a_lazy_display_sleeps_its_panel_and_a_reopened_one_too() -> None:
    calls: list[str] = []
    lazy = LazyDisplay(lambda: _Panel(calls), (128, 64), "1")
    lazy.sleep()  # nothing open yet: remembered
    assert lazy.is_asleep and calls == []
    lazy.show(Image.new("1", (128, 64)))
    assert calls == ["sleep", "show"]  # opened asleep
    lazy.wake()
    assert calls[-1] == "wake" and not lazy.is_asleep
    lazy.sleep()
    lazy.leave(Image.new("1", (128, 64)))  # "paused" must be seen: woken first
    assert calls[-3:] == ["sleep", "wake", "show"]


def test_a_lazy_display_drops_a_panel_that_fails_to_sleep() -> None:
    class Broken(_Panel):
        def sleep(self) -> None:
            raise OSError(121, "Remote I/O error")

    calls: list[str] = []
    lazy = LazyDisplay(lambda: Broken(calls), (128, 64), "1")
    lazy.show(Image.new("1", (128, 64)))
    with pytest.raises(OSError, match="Remote I/O error"):
        lazy.sleep()
    assert lazy.device is None and calls[-1] == "close"


def test_a_lazy_strip_is_opened_once_more_to_turn_it_off() -> None:
    opened: list[RecordingStrip] = []

    def opener() -> RecordingStrip:
        opened.append(RecordingStrip(3, name="board"))
        return opened[-1]

    lazy = LazyStrip(opener, 3, "board")
    lazy.close()
    assert len(opened) == 1 and opened[0].closed and lazy.strip is None
