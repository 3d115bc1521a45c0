"""The OLED: a luma.oled device behind the ``Display`` port, and a recording display for the sim.

``LumaDisplay.from_options`` builds the device from the config's display options, in
luma.core.cmdline's own terms (``display``, ``interface``, ``i2c_port``, ``i2c_address``,
``width``, ``height``, ``rotate``, ``mode``, ``spi_port``, ...), so any display luma.oled drives
works: SSD1306, SH1106 and SSD1309 at 128x64 or 128x32, an SSD1322 at 256x64 in 4-bit
greyscale. The options go through luma's own argument parser, so its defaults and allowed values
apply unchanged. luma is imported here only, and only when a display is made.

The adapter is thin: it checks the frame's size and mode, skips a frame whose bytes equal the
last one sent (a full SSD1306 frame costs about 23 ms of a 400 kHz I2C bus), converts greyscale
frames to what the driver takes, and turns ``OSError`` and luma's device errors into
``HardwareError`` naming the bus and address. The controller decides when to dim or sleep.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from pegboard.devices.ports import Display
from pegboard.errors import ConfigError, HardwareError

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["DIM_CONTRAST", "LumaDisplay", "RecordingDisplay"]

DIM_CONTRAST = 16
"""The contrast ``dim()`` switches to: readable in a dark pub, gentle on the eyes."""


class _OptionsParser(argparse.ArgumentParser):
    """luma's parser, raising instead of exiting on a bad value."""

    def error(self, message: str) -> NoReturn:
        raise ConfigError(f"oled: {message}")


def _parse_options(options: Mapping[str, object]) -> argparse.Namespace:
    """The options as luma.core.cmdline parses them, defaults filled in.

    Raises:
        ConfigError: an unknown option or a value luma does not allow.
    """
    from luma.core import cmdline

    parser: argparse.ArgumentParser = cmdline.create_parser(
        "pegboard OLED", parser=_OptionsParser(add_help=False), autocomplete=False
    )
    known = vars(parser.parse_args([]))
    argv: list[str] = []
    for key, value in options.items():
        dest = key.replace("-", "_")
        if dest not in known or dest == "config":
            raise ConfigError(
                f"oled: unknown option {key!r} (expected one of luma.core.cmdline's: "
                f"{', '.join(sorted(k for k in known if k != 'config'))})"
            )
        flag = "--" + dest.replace("_", "-")
        if isinstance(value, bool):  # every boolean option of luma's is off unless given
            if value:
                argv += [flag] if dest in _SWITCHES else [flag, "1"]
        elif dest == "i2c_address" and isinstance(value, int):
            argv += [flag, f"0x{value:02X}"]  # a TOML 0x3C arrives as the number 60
        else:
            argv += [flag, str(value)]
    return parser.parse_args(argv)


_SWITCHES = frozenset({"bgr", "inverse", "debug"})
"""luma's options that are switches (``store_true``) rather than ``--option VALUE``."""


def _where(args: argparse.Namespace) -> str:
    """Where the display is wired, in the words of the error messages."""
    if args.interface in ("i2c", "pcf8574"):
        address = int(str(args.i2c_address), 0)
        return f"on I2C bus {args.i2c_port} at 0x{address:02X} (is I2C enabled? see raspi-config)"
    if args.interface in ("spi", "gpio_cs_spi"):
        return (
            f"on SPI port {args.spi_port} device {args.spi_device} "
            "(is SPI enabled? see raspi-config)"
        )
    return f"on the {args.interface} interface"


class LumaDisplay(Display):
    """A luma.oled display (or any luma device) as pegboard's ``Display``.

    Make one with ``from_options`` (the config's terms) or wrap a luma device you already have,
    such as ``luma.core.device.dummy`` in tests. *where* names the device in error messages.

    Greyscale devices (SSD1322, SSD1325, SSD1327, SSD1362 in their default "RGB" mode) take "L"
    frames; monochrome ones take "1" frames.
    """

    def __init__(self, device: Any, *, where: str = "", greyscale: bool | None = None) -> None:
        self._device = device
        self._where = where or f"on {type(device).__name__}"
        if greyscale is None:
            greyscale = _is_greyscale(device)
        if device.mode == "1":
            self._mode = "1"
        elif greyscale:
            self._mode = "L"
        else:
            self._mode = "RGB"
        self._last: bytes | None = None
        self._contrast = 0xCF  # luma's SSD1306 default; set_contrast keeps the real value
        self._dimmed = False
        self._asleep = False
        self._closed = False
        self.frames_sent = 0
        """Frames actually sent to the device (identical frames are skipped)."""

    @classmethod
    def from_options(
        cls, options: Mapping[str, object], *, serial_interface: Any = None
    ) -> LumaDisplay:
        """Make the display described by *options* (luma.core.cmdline's names and values).

        *serial_interface* replaces the interface the options describe (tests pass a recorder).

        Raises:
            ConfigError: an unknown option, a value luma does not allow, or a display that is
                not a luma.oled device.
            HardwareError: the display could not be reached.
        """
        from luma.core import cmdline, framebuffer
        from luma.core.error import Error as LumaError

        args = _parse_options(options)
        oled_types = cmdline.get_display_types().get("oled", [])
        if args.display not in oled_types:
            raise ConfigError(
                f"oled: display {args.display!r} is not a luma.oled display "
                f"(expected one of {', '.join(oled_types)})"
            )
        where = _where(args)
        try:
            import luma.oled.device

            device_class = getattr(luma.oled.device, args.display)
            if serial_interface is None:
                serial_interface = getattr(cmdline.make_interface(args), args.interface)()
            buffer = getattr(framebuffer, args.framebuffer)(
                num_segments=args.num_segments, debug=args.debug
            )
            params = dict(vars(args), framebuffer=buffer)
            device = device_class(serial_interface=serial_interface, **params)
        except (OSError, LumaError) as e:
            raise HardwareError(f"OLED not found {where}: {e}") from e
        return cls(device, where=where)

    @property
    def device(self) -> Any:
        """The luma device underneath."""
        return self._device

    @property
    def size(self) -> tuple[int, int]:
        """Width and height in pixels, after rotation."""
        width, height = self._device.size
        return (int(width), int(height))

    @property
    def mode(self) -> str:
        """ "1" for monochrome, "L" for greyscale, "RGB" for colour displays."""
        return self._mode

    @property
    def contrast(self) -> int:
        """The contrast last set (``dim()`` does not change it)."""
        return self._contrast

    @property
    def is_dimmed(self) -> bool:
        """True between ``dim()`` and ``undim()``."""
        return self._dimmed

    @property
    def is_asleep(self) -> bool:
        """True between ``sleep()`` and ``wake()``."""
        return self._asleep

    def show(self, image: Image) -> None:
        """Draw *image*, unless it is the frame already on the screen.

        Raises:
            ValueError: the image's size or mode is not the display's.
            HardwareError: the display could not be reached, or it was closed.
        """
        if image.size != self.size or image.mode != self._mode:
            raise ValueError(
                f"cannot show a {image.mode!r} image of {image.size!r} on this display "
                f"(expected mode {self._mode!r}, size {self.size!r})"
            )
        self._check_open("show a frame")
        data = image.tobytes()
        if data == self._last:
            return
        frame = image if image.mode == self._device.mode else image.convert(self._device.mode)
        self._call(self._device.display, frame)
        self._last = data
        self.frames_sent += 1

    def set_contrast(self, level: int) -> None:
        """Contrast 0..255 (kept while dimmed, and applied again by ``undim()``).

        Raises:
            ValueError: *level* is not 0..255.
            HardwareError: the display could not be reached, or it was closed.
        """
        if not 0 <= level <= 255:
            raise ValueError(f"contrast must be 0..255, got {level!r}")
        self._check_open("set the contrast")
        if not self._dimmed:
            self._call(self._device.contrast, level)
        self._contrast = level

    def dim(self, level: int = DIM_CONTRAST) -> None:
        """Lower the contrast to *level* (or the contrast itself, if that is lower).

        Raises:
            ValueError: *level* is not 0..255.
            HardwareError: the display could not be reached, or it was closed.
        """
        if not 0 <= level <= 255:
            raise ValueError(f"dim level must be 0..255, got {level!r}")
        self._check_open("dim")
        self._call(self._device.contrast, min(level, self._contrast))
        self._dimmed = True

    def undim(self) -> None:
        """Back to the contrast set before ``dim()``.

        Raises:
            HardwareError: the display could not be reached, or it was closed.
        """
        self._check_open("undim")
        self._call(self._device.contrast, self._contrast)
        self._dimmed = False

    def sleep(self) -> None:
        """Switch the panel off (luma's ``hide()``); the picture is kept in its memory.

        Raises:
            HardwareError: the display could not be reached, or it was closed.
        """
        self._check_open("sleep")
        self._call(self._device.hide)
        self._asleep = True

    def wake(self) -> None:
        """Switch the panel back on (luma's ``show()``), showing the last frame.

        Raises:
            HardwareError: the display could not be reached, or it was closed.
        """
        self._check_open("wake")
        self._call(self._device.show)
        self._asleep = False

    def close(self) -> None:
        """Clear the screen, switch the panel off and release the bus. Closing twice is fine.

        Raises:
            HardwareError: the display could not be reached.
        """
        if self._closed:
            return
        self._closed = True
        self._device.persist = False  # luma's cleanup clears and hides only when not persisting
        self._call(self._device.cleanup)

    def _check_open(self, what: str) -> None:
        if self._closed:
            raise HardwareError(f"cannot {what}: the OLED {self._where} is closed")

    def _call(self, method: Any, *args: Any) -> None:
        from luma.core.error import Error as LumaError

        try:
            method(*args)
        except (OSError, LumaError) as e:
            raise HardwareError(f"OLED not found {self._where}: {e}") from e


def _is_greyscale(device: Any) -> bool:
    try:
        from luma.oled.device.greyscale import greyscale_device
    except ImportError:  # pragma: no cover - luma.oled is installed with luma.core
        return False
    return isinstance(device, greyscale_device) and device.mode != "1"


class RecordingDisplay(Display):
    """A display that keeps the frames it is shown (the simulator's and the tests').

    It keeps the last *history* frames, or every one when *history* is None (the tests'
    default); a long simulator run keeps only the frame on the screen (``history=1``).
    """

    def __init__(
        self, size: tuple[int, int] = (128, 64), mode: str = "1", history: int | None = None
    ) -> None:
        if history is not None and history < 1:
            raise ValueError(f"a recording display keeps at least 1 frame, got {history!r}")
        self._size = size
        self._mode = mode
        self._history = history
        self.shown: list[Image] = []
        """The frames shown, in order, the last *history* of them (identical frames included:
        the controller's business)."""
        self.contrast = 0xCF
        self.closed = False

    @property
    def size(self) -> tuple[int, int]:
        """Width and height in pixels."""
        return self._size

    @property
    def mode(self) -> str:
        """The Pillow mode of the frames it takes."""
        return self._mode

    @property
    def last(self) -> Image | None:
        """The frame on the screen, or None before the first one."""
        return self.shown[-1] if self.shown else None

    def show(self, image: Image) -> None:
        """Keep a copy of *image*.

        Raises:
            ValueError: the image's size or mode is not the display's.
            HardwareError: the display was closed.
        """
        if image.size != self._size or image.mode != self._mode:
            raise ValueError(
                f"cannot show a {image.mode!r} image of {image.size!r} on this display "
                f"(expected mode {self._mode!r}, size {self._size!r})"
            )
        if self.closed:
            raise HardwareError("cannot show a frame: the recording display is closed")
        self.shown.append(image.copy())
        if self._history is not None and len(self.shown) > self._history:
            del self.shown[: -self._history]

    def set_contrast(self, level: int) -> None:
        """Remember *level*.

        Raises:
            ValueError: *level* is not 0..255.
        """
        if not 0 <= level <= 255:
            raise ValueError(f"contrast must be 0..255, got {level!r}")
        self.contrast = level

    def close(self) -> None:
        """Mark the display closed."""
        self.closed = True
