"""LED strips: rpi_ws281x, WS2812 encoded onto SPI, APA102/SK9822 over SPI, and a recorder.

Every class here implements the ``LedStrip`` port: ``length``, ``show(pixels)`` with one RGB
colour per LED in the strip's own order, and ``close()``, which turns every LED off before it lets
go of the hardware. Colours arrive final: brightness and the current limit are applied by
``pegboard.ui.ledtracks`` before a frame reaches a strip, so a strip only reorders the channels
for its wire and clocks them out.

Each hardware library is imported inside the one backend that needs it, when that backend is
built, and every constructor takes the library as an optional argument so tests pass a fake.
``OSError`` (and rpi_ws281x's ``RuntimeError``) become ``HardwareError`` naming the device.

Theory of operation
-------------------
**WS2812 through rpi_ws281x** (``kind = "ws281x"``). The C library drives GPIO 18 (PWM0), 13
(PWM1), 21 (PCM) or 10 (SPI) by DMA on a Pi 0-4; it needs root for PWM/PCM and does not run on a
Pi 5. We hand it red, green, blue per LED and let its ``strip_type`` reorder them for the wire.

**WS2812 encoded onto SPI** (``kind = "spi-ws2812"``). A WS2812 bit is a 1.25 µs cell: a "0" is
high for ~0.4 µs, a "1" high for ~0.8 µs (±150 ns). At an SPI clock of 2.4 MHz one SPI bit lasts
417 ns, so each WS2812 bit is sent as three SPI bits, MSB first::

    0  ->  1 0 0    high 417 ns, low 833 ns
    1  ->  1 1 0    high 833 ns, low 417 ns

One colour byte becomes exactly three SPI bytes, one LED (G, R, B on the wire) nine bytes. After
the last LED the line is held low for ``WS2812_RESET_BYTES`` zero bytes (300 µs; older WS2812
latch after 50 µs, newer WS2812B after 280 µs). MOSI is the only wire used (GPIO 10 on header
pin 19); it runs through ``/dev/spidevB.D`` without root on any Pi, the Pi 5 included.
Two Pi caveats: on a Pi 0-4 the SPI clock is divided from the core clock, so fix it
(``core_freq=250`` on a Pi 3, ``core_freq_min=500`` on a Pi 4); and a frame longer than the
spidev buffer (``/sys/module/spidev/parameters/bufsiz``, 4096 bytes by default, so ~445 LEDs)
is split with gaps that latch the strip early: raise ``spidev.bufsiz`` for longer strips.

**APA102 / SK9822** (``kind = "apa102"``), SPI mode 0, 4 MHz by default (clock and data wires,
no timing constraints). A frame is a start frame of 32 zero bits; then per LED
``0b111ggggg`` (``ggggg`` the 5-bit global brightness), blue, green, red; then 32 zero bits
(the SK9822 needs them to latch) and at least n/2 more clock edges so the data reaches the
last LED of n (each LED delays the data by half a clock): ``ceil(n / 16)`` zero bytes. Zeros,
not ones, so LEDs past the configured length never light white.
"""

from __future__ import annotations

import enum
import importlib
import math
from collections import deque
from collections.abc import Sequence
from typing import Any

from pegboard.choices import parse_choice
from pegboard.errors import ConfigError, HardwareError
from pegboard.frozen import frozen

from .ports import Color, LedStrip

__all__ = [
    "APA102_SPI_HZ",
    "WS2812_RESET_BYTES",
    "WS2812_SPI_HZ",
    "Apa102Strip",
    "RecordingStrip",
    "SpiWs2812Strip",
    "StripKind",
    "StripSpec",
    "Ws281xStrip",
    "encode_apa102",
    "encode_ws2812_spi",
    "open_strip",
]

WS2812_SPI_HZ = 2_400_000
"""SPI clock for WS2812 encoding: three SPI bits (417 ns each) per 1.25 µs WS2812 bit."""

WS2812_RESET_BYTES = 90
"""Zero bytes after a WS2812 frame: 90 × 8 × 417 ns = 300 µs low, which latches every WS2812."""

APA102_SPI_HZ = 4_000_000
"""Default APA102 clock: well inside the part's range and forgiving of long, cheap wires."""


class StripKind(enum.Enum):
    """Which backend drives a strip, valued by the config file's names."""

    WS281X = "ws281x"
    SPI_WS2812 = "spi-ws2812"
    APA102 = "apa102"
    SIM = "sim"

    @classmethod
    def parse(cls, text: str) -> StripKind:
        """Parse a backend name ("ws281x", "spi-ws2812", "apa102", "sim").

        Raises:
            ConfigError: not a backend name.
        """
        return parse_choice(cls, text, "LED strip kind")

    @property
    def default_order(self) -> str:
        """The channel order on the wire: WS2812 sends green first, APA102 blue first."""
        return "BGR" if self is StripKind.APA102 else "GRB"


@frozen
class StripSpec:
    """What it takes to open one strip. Fields a backend does not use are ignored by it.

    ``order`` is the channel order on the wire ("" means the kind's usual order). What the LEDs
    draw is the renderer's business (``pegboard.ui.ledtracks.StripLayout``), not the wire's.

    Raises:
        ConfigError: a field out of range.
    """

    name: str
    kind: StripKind
    count: int
    order: str = ""
    pin: int = 18  # ws281x: GPIO 18 (PWM0); 13 or 19 need channel 1
    dma: int = 10  # ws281x: DMA channel 10 is free on every Pi OS release
    channel: int = 0  # ws281x: PWM channel
    freq_hz: int = 800_000  # ws281x: WS2812 bit rate
    invert: bool = False  # ws281x: an inverting level shifter on the data line
    bus: int = 0  # SPI: /dev/spidev<bus>.<device>
    device: int = 0
    spi_hz: int = APA102_SPI_HZ  # apa102 only; spi-ws2812 always runs at WS2812_SPI_HZ
    global_brightness: int = 31  # apa102: the 5-bit per-LED current setting sent with each LED

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ConfigError(f"LED strip {self.name!r} needs at least 1 LED, got {self.count!r}")
        if self.order and sorted(self.order) != ["B", "G", "R"]:
            raise ConfigError(
                f"LED strip {self.name!r}: order must be a permutation of RGB, got {self.order!r}"
            )
        if not 0 <= self.global_brightness <= 31:
            raise ConfigError(
                f"LED strip {self.name!r}: global_brightness must be 0..31,"
                f" got {self.global_brightness!r}"
            )

    @property
    def wire_order(self) -> str:
        """The channel order actually used: ``order`` or the kind's default."""
        return self.order or self.kind.default_order


def _order_indexes(order: str) -> tuple[int, int, int]:
    """Map "GRB" to the RGB tuple indexes sent first, second, third: (1, 0, 2)."""
    first, second, third = ("RGB".index(channel) for channel in order)
    return first, second, third


def _check_pixels(pixels: Sequence[Color], length: int, device: str) -> None:
    """Refuse a frame of the wrong length or with a channel outside 0..255.

    Raises:
        ValueError: the frame does not fit the strip.
    """
    if len(pixels) != length:
        raise ValueError(f"expected {length} colours for {device}, got {len(pixels)}")
    try:
        distinct = set(pixels)  # a frame has a handful of colours: check each once
    except TypeError:  # an unhashable pixel (a list): look at every one
        distinct = None
    if distinct is not None and all(_good_colour(pixel) for pixel in distinct):
        return
    for index, pixel in enumerate(pixels):
        if not _good_colour(pixel):
            raise ValueError(
                f"bad colour {pixel!r} for LED {index} of {device} (expected (r, g, b) in 0..255)"
            )


def _good_colour(pixel: Color) -> bool:
    return len(pixel) == 3 and all(0 <= channel <= 255 for channel in pixel)


def _ws2812_byte(value: int) -> bytes:
    bits = 0
    for shift in range(7, -1, -1):
        bits = (bits << 3) | (0b110 if value >> shift & 1 else 0b100)
    return bits.to_bytes(3, "big")


_WS2812_BYTES = tuple(_ws2812_byte(value) for value in range(256))


def encode_ws2812_spi(pixels: Sequence[Color], order: str = "GRB") -> bytes:
    """The SPI bytes that send *pixels* to a WS2812 chain at ``WS2812_SPI_HZ``.

    >>> encode_ws2812_spi([(0, 255, 0)]).hex()[:18]
    'db6db6924924924924'
    """
    a, b, c = _order_indexes(order)
    table = _WS2812_BYTES
    body = b"".join(table[p[a]] + table[p[b]] + table[p[c]] for p in pixels)
    return body + bytes(WS2812_RESET_BYTES)


def encode_apa102(
    pixels: Sequence[Color], order: str = "BGR", global_brightness: int = 31
) -> bytes:
    """The SPI bytes that send *pixels* to an APA102 or SK9822 chain.

    >>> encode_apa102([(1, 2, 3)]).hex()
    '00000000ff0302010000000000'
    """
    a, b, c = _order_indexes(order)
    head = 0xE0 | global_brightness  # the three marker bits 111, then 5 bits of brightness
    body = b"".join(bytes((head, p[a], p[b], p[c])) for p in pixels)
    end = bytes(4 + math.ceil(len(pixels) / 16))  # SK9822 latch frame, then n/2 clock edges
    return bytes(4) + body + end


def _import(name: str) -> Any:
    """Import a hardware library on first use.

    Raises:
        HardwareError: the library is not installed.
    """
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise HardwareError(
            f"the {name} library is not installed (pip install 'pegboard[pi]' on the Pi)"
        ) from e


class RecordingStrip:
    """A strip that keeps the frames it is shown: the simulator's and the tests' LED strip.

    ``frames`` holds the last *history* frames (oldest first), ``last`` the newest (all off
    before the first ``show``), ``closed`` whether ``close()`` was called.
    """

    def __init__(self, length: int, name: str = "sim", history: int = 1000) -> None:
        if length < 1:
            raise ValueError(f"a strip needs at least 1 LED, got {length!r}")
        self._length = length
        self.name = name
        self.frames: deque[tuple[Color, ...]] = deque(maxlen=history)
        self.closed = False

    @property
    def length(self) -> int:
        """Number of LEDs on the strip."""
        return self._length

    @property
    def last(self) -> tuple[Color, ...]:
        """The colours the strip shows now."""
        return self.frames[-1] if self.frames else ((0, 0, 0),) * self._length

    def show(self, pixels: Sequence[Color]) -> None:
        """Record one frame.

        Raises:
            HardwareError: the strip was closed.
            ValueError: the frame does not fit the strip.
        """
        if self.closed:
            raise HardwareError(f"LED strip {self.name!r} is closed")
        _check_pixels(pixels, self._length, f"strip {self.name!r}")
        self.frames.append(tuple(pixels))

    def close(self) -> None:
        """Record an all-off frame and refuse further frames."""
        if not self.closed:
            self.frames.append(((0, 0, 0),) * self._length)
            self.closed = True


class _SpiStrip:
    """What the two SPI backends share: opening, writing and closing ``/dev/spidevB.D``."""

    def __init__(self, length: int, bus: int, device: int, hz: int, spidev: Any) -> None:
        if length < 1:
            raise ValueError(f"a strip needs at least 1 LED, got {length!r}")
        self._length = length
        self.device = f"/dev/spidev{bus}.{device}"
        module = spidev if spidev is not None else _import("spidev")
        self._spi: Any = module.SpiDev()
        try:
            self._spi.open(bus, device)
            self._spi.mode = 0  # clock idles low, data sampled on the rising edge
            self._spi.max_speed_hz = hz
        except OSError as e:
            raise HardwareError(
                f"cannot open LED strip on {self.device}: {e.strerror or e}"
                " (is SPI enabled in raspi-config, and the user in the spi group?)"
            ) from e
        self._open = True

    @property
    def length(self) -> int:
        """Number of LEDs on the strip."""
        return self._length

    def _encode(self, pixels: Sequence[Color]) -> bytes:
        raise NotImplementedError  # each backend has its own wire format

    def show(self, pixels: Sequence[Color]) -> None:
        """Send one frame.

        Raises:
            HardwareError: the SPI device failed or was closed.
            ValueError: the frame does not fit the strip.
        """
        if not self._open:
            raise HardwareError(f"LED strip on {self.device} is closed")
        _check_pixels(pixels, self._length, self.device)
        self._write(self._encode(pixels))

    def _write(self, data: bytes) -> None:
        try:
            self._spi.writebytes2(data)
        except OSError as e:
            raise HardwareError(f"LED strip on {self.device} failed: {e.strerror or e}") from e

    def close(self) -> None:
        """Turn every LED off and close the SPI device.

        Raises:
            HardwareError: the all-off frame could not be sent (the device is closed anyway).
        """
        if not self._open:
            return
        self._open = False
        try:
            self._write(self._encode(((0, 0, 0),) * self._length))
        finally:
            self._spi.close()


class SpiWs2812Strip(_SpiStrip):
    """WS2812 (NeoPixel) LEDs on SPI MOSI, timing encoded as three SPI bits per data bit.

    Works on any Pi, the Pi 5 included, without root. See the module notes for the encoding.

    Raises:
        HardwareError: spidev missing, or the SPI device cannot be opened.
    """

    def __init__(
        self, length: int, *, bus: int = 0, device: int = 0, order: str = "GRB", spidev: Any = None
    ) -> None:
        _order_indexes(order)
        self._order = order
        super().__init__(length, bus, device, WS2812_SPI_HZ, spidev)

    def _encode(self, pixels: Sequence[Color]) -> bytes:
        return encode_ws2812_spi(pixels, self._order)


class Apa102Strip(_SpiStrip):
    """APA102 or SK9822 (DotStar) LEDs on SPI clock and data.

    Raises:
        HardwareError: spidev missing, or the SPI device cannot be opened.
    """

    def __init__(
        self,
        length: int,
        *,
        bus: int = 0,
        device: int = 0,
        hz: int = APA102_SPI_HZ,
        order: str = "BGR",
        global_brightness: int = 31,
        spidev: Any = None,
    ) -> None:
        _order_indexes(order)
        if not 0 <= global_brightness <= 31:
            raise ValueError(f"global_brightness must be 0..31, got {global_brightness!r}")
        self._order = order
        self._global_brightness = global_brightness
        super().__init__(length, bus, device, hz, spidev)

    def _encode(self, pixels: Sequence[Color]) -> bytes:
        return encode_apa102(pixels, self._order, self._global_brightness)


def _ws281x_strip_type(order: str) -> int:
    """rpi_ws281x's strip type for a wire order.

    The library sends three bytes per LED; the strip type's three bytes say, for the first,
    second and third byte on the wire, how far to shift our 0xRRGGBB value to find it
    (red 16, green 8, blue 0). GRB gives 0x081000, the library's ``WS2811_STRIP_GRB``.
    """
    shift = {"R": 16, "G": 8, "B": 0}
    first, second, third = (shift[channel] for channel in order)
    return first << 16 | second << 8 | third


class Ws281xStrip:
    """WS2812 LEDs driven by the rpi_ws281x library (PWM, PCM or SPI by DMA, Pi 0-4).

    Raises:
        HardwareError: rpi_ws281x missing, or it could not start (not root, or a Pi 5).
    """

    def __init__(
        self,
        length: int,
        *,
        pin: int = 18,
        dma: int = 10,
        channel: int = 0,
        freq_hz: int = 800_000,
        invert: bool = False,
        order: str = "GRB",
        module: Any = None,
    ) -> None:
        if length < 1:
            raise ValueError(f"a strip needs at least 1 LED, got {length!r}")
        _order_indexes(order)
        self._length = length
        self.device = f"GPIO{pin}"
        library = module if module is not None else _import("rpi_ws281x")
        try:
            self._strip: Any = library.PixelStrip(
                length,
                pin,
                freq_hz=freq_hz,
                dma=dma,
                invert=invert,
                brightness=255,  # brightness is ours: frames arrive already scaled
                channel=channel,
                strip_type=_ws281x_strip_type(order),
            )
            self._strip.begin()
        except (OSError, RuntimeError) as e:
            raise HardwareError(
                f"rpi_ws281x cannot drive LEDs on {self.device}: {e}"
                ' (it needs root and a Pi 0-4; on a Pi 5 use kind = "spi-ws2812")'
            ) from e
        self._open = True

    @property
    def length(self) -> int:
        """Number of LEDs on the strip."""
        return self._length

    def show(self, pixels: Sequence[Color]) -> None:
        """Send one frame.

        Raises:
            HardwareError: the library failed or the strip was closed.
            ValueError: the frame does not fit the strip.
        """
        if not self._open:
            raise HardwareError(f"LED strip on {self.device} is closed")
        _check_pixels(pixels, self._length, self.device)
        self._render(pixels)

    def _render(self, pixels: Sequence[Color]) -> None:
        try:
            for index, (red, green, blue) in enumerate(pixels):
                self._strip.setPixelColorRGB(index, red, green, blue)
            self._strip.show()
        except (OSError, RuntimeError) as e:
            raise HardwareError(f"LED strip on {self.device} failed: {e}") from e

    def close(self) -> None:
        """Turn every LED off and release the DMA channel.

        Raises:
            HardwareError: the all-off frame could not be sent (released anyway).
        """
        if not self._open:
            return
        self._open = False
        try:
            self._render(((0, 0, 0),) * self._length)
        finally:
            # PixelStrip has no public close: _cleanup() is what it runs at exit (ws2811_fini)
            cleanup = getattr(self._strip, "_cleanup", None)
            if callable(cleanup):
                cleanup()


def open_strip(spec: StripSpec, *, module: Any = None) -> LedStrip:
    """Open the backend *spec* names. *module* replaces the hardware library (tests).

    Raises:
        HardwareError: the library is missing or the device cannot be opened.
    """
    order = spec.wire_order
    match spec.kind:
        case StripKind.WS281X:
            return Ws281xStrip(
                spec.count,
                pin=spec.pin,
                dma=spec.dma,
                channel=spec.channel,
                freq_hz=spec.freq_hz,
                invert=spec.invert,
                order=order,
                module=module,
            )
        case StripKind.SPI_WS2812:
            return SpiWs2812Strip(
                spec.count, bus=spec.bus, device=spec.device, order=order, spidev=module
            )
        case StripKind.APA102:
            return Apa102Strip(
                spec.count,
                bus=spec.bus,
                device=spec.device,
                hz=spec.spi_hz,
                order=order,
                global_brightness=spec.global_brightness,
                spidev=module,
            )
        case StripKind.SIM:
            return RecordingStrip(spec.count, name=spec.name)
