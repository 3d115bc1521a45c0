"""Ports that survive failing hardware: they open their device on first use and after a failure.

Theory of operation
-------------------
Failing hardware never stops a game. ``LazyDisplay`` and ``LazyStrip`` wrap an *opener* (a
callable that makes the real device, or raises ``HardwareError`` when it is not there) and open
the device only when a frame is shown. A device that fails (``HardwareError`` or ``OSError``) is
dropped and the error raised, so a display or strip that is missing at start, or unplugged
later, raises from ``show``; the controller logs it and tries again a few seconds later, and the
next ``show`` opens the device afresh. What a fresh device must know (the display's contrast,
whether its panel sleeps) is remembered here and set again on each open.

The openers come from the wiring (``table/wiring.py``), which knows the config; this module
knows only the ports.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pegboard.devices.ports import Color, Display, LedStrip, SleepingDisplay
from pegboard.errors import HardwareError

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["LazyDisplay", "LazyStrip"]

log = logging.getLogger(__name__)


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
    """An ``LedStrip`` that opens the backend on first use and again after each failure.

    *opener* makes the backend (``open_strip`` of the strip's spec); *length* and *name* are
    known from the config, so the strip's length is known while the backend is away.
    """

    def __init__(self, opener: Callable[[], LedStrip], length: int, name: str = "") -> None:
        self._opener = opener
        self._length = length
        self._name = name
        self._strip: LedStrip | None = None

    @property
    def length(self) -> int:
        """Number of LEDs on the strip."""
        return self._length

    @property
    def name(self) -> str:
        """The strip's name in the config."""
        return self._name

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
                self._strip = self._opener()
                log.info("LED strip %r open: %s", self._name, type(self._strip).__name__)
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
        """Turn every LED off and release the strip (opening it once more to do so).

        Raises:
            HardwareError: the strip could not be opened or written.
        """
        try:
            if self._strip is None:
                self._strip = self._opener()
            self._strip.close()
        finally:
            self._strip = None
