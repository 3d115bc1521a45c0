"""The LED strip backends, each driven through an injected fake of its library."""

from __future__ import annotations

import errno
import math
import sys
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegboard.devices.leds import (
    WS2812_RESET_BYTES,
    WS2812_SPI_HZ,
    Apa102Strip,
    RecordingStrip,
    SpiWs2812Strip,
    StripKind,
    StripSpec,
    Ws281xStrip,
    encode_apa102,
    encode_ws2812_spi,
    open_strip,
)
from pegboard.devices.ports import Color
from pegboard.errors import ConfigError, HardwareError

# -- fakes ------------------------------------------------------------------------------------


class FakeSpiDev:
    """Records what a strip does to /dev/spidevB.D; can fail on open or on write."""

    def __init__(self, fail_open: OSError | None = None, fail_write: OSError | None = None):
        self.fail_open = fail_open
        self.fail_write = fail_write
        self.opened: tuple[int, int] | None = None
        self.mode = -1
        self.max_speed_hz = -1
        self.writes: list[bytes] = []
        self.closed = False

    def open(self, bus: int, device: int) -> None:
        if self.fail_open is not None:
            raise self.fail_open
        self.opened = (bus, device)

    def writebytes2(self, data: bytes) -> None:
        if self.fail_write is not None:
            raise self.fail_write
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def spidev_module(device: FakeSpiDev) -> Any:
    return SimpleNamespace(SpiDev=lambda: device)


class FakePixelStrip:
    """Records rpi_ws281x calls: constructor arguments, colours set, shows and cleanup."""

    fail_begin: RuntimeError | None = None

    def __init__(self, num: int, pin: int, **options: Any) -> None:
        self.num = num
        self.pin = pin
        self.options = options
        self.pixels: dict[int, tuple[int, int, int]] = {}
        self.shown: list[tuple[tuple[int, int, int], ...]] = []
        self.begun = False
        self.cleaned_up = False

    def begin(self) -> None:
        if self.fail_begin is not None:
            raise self.fail_begin
        self.begun = True

    def setPixelColorRGB(self, n: int, red: int, green: int, blue: int) -> None:
        self.pixels[n] = (red, green, blue)

    def show(self) -> None:
        self.shown.append(tuple(self.pixels[i] for i in range(self.num)))

    def _cleanup(self) -> None:
        self.cleaned_up = True


def ws281x_module(created: list[FakePixelStrip], fail_begin: RuntimeError | None = None) -> Any:
    def pixel_strip(num: int, pin: int, **options: Any) -> FakePixelStrip:
        strip = FakePixelStrip(num, pin, **options)
        strip.fail_begin = fail_begin
        created.append(strip)
        return strip

    return SimpleNamespace(PixelStrip=pixel_strip)


RED_THEN_DIM_BLUE: list[Color] = [(255, 0, 0), (0, 0, 1)]

# WS2812 over SPI, by hand: each data bit is three SPI bits, 0 -> 100, 1 -> 110, so a zero
# byte is 100100100100100100100100 = 92 49 24, 0xFF is 110110... = DB 6D B6 and 0x01 ends 110.
WS_ZERO, WS_FULL, WS_ONE = "924924", "db6db6", "924926"


# -- WS2812 over SPI --------------------------------------------------------------------------


def test_spi_ws2812_sends_green_red_blue_as_three_spi_bits_per_bit_then_a_reset() -> None:
    spi = FakeSpiDev()
    strip = SpiWs2812Strip(2, spidev=spidev_module(spi))
    strip.show(RED_THEN_DIM_BLUE)
    led0 = WS_ZERO + WS_FULL + WS_ZERO  # G=0, R=255, B=0
    led1 = WS_ZERO + WS_ZERO + WS_ONE  # G=0, R=0, B=1
    assert spi.writes == [bytes.fromhex(led0 + led1) + bytes(WS2812_RESET_BYTES)]


def test_spi_ws2812_opens_the_device_at_2_4_mhz_in_mode_0() -> None:
    spi = FakeSpiDev()
    SpiWs2812Strip(3, bus=1, device=2, spidev=spidev_module(spi))
    assert (spi.opened, spi.mode, spi.max_speed_hz) == ((1, 2), 0, 2_400_000)
    assert WS2812_SPI_HZ == 2_400_000


def test_the_reset_holds_the_line_low_for_at_least_280_microseconds() -> None:
    assert WS2812_RESET_BYTES * 8 / WS2812_SPI_HZ >= 280e-6


def test_spi_ws2812_honours_another_wire_order() -> None:
    spi = FakeSpiDev()
    SpiWs2812Strip(1, order="RGB", spidev=spidev_module(spi)).show([(255, 0, 1)])
    assert spi.writes[0][:9] == bytes.fromhex(WS_FULL + WS_ZERO + WS_ONE)


@given(st.lists(st.tuples(*[st.integers(0, 255)] * 3), min_size=1, max_size=20))
def test_every_ws2812_bit_decodes_back_to_its_colour(pixels: list[Color]) -> None:
    data = encode_ws2812_spi(pixels)
    assert len(data) == 9 * len(pixels) + WS2812_RESET_BYTES
    assert not any(data[9 * len(pixels) :])
    bits = "".join(f"{byte:08b}" for byte in data[: 9 * len(pixels)])
    cells = [bits[i : i + 3] for i in range(0, len(bits), 3)]
    assert set(cells) <= {"100", "110"}
    decoded = bytes(
        int("".join("1" if c == "110" else "0" for c in cells[i : i + 8]), 2)
        for i in range(0, len(cells), 8)
    )
    assert decoded == b"".join(bytes((g, r, b)) for r, g, b in pixels)


# -- APA102 -----------------------------------------------------------------------------------


def test_apa102_sends_start_frame_brightness_blue_green_red_and_end_frames() -> None:
    spi = FakeSpiDev()
    strip = Apa102Strip(2, spidev=spidev_module(spi))
    strip.show([(255, 0, 0), (1, 2, 3)])
    assert spi.writes == [
        bytes.fromhex(
            "00000000"  # start frame
            "ff0000ff"  # 111 + brightness 31, blue 0, green 0, red 255
            "ff030201"  # blue 3, green 2, red 1
            "00000000"  # SK9822 latch frame
            "00"  # two LEDs need one more clock edge: one byte
        )
    ]
    assert (spi.opened, spi.mode, spi.max_speed_hz) == ((0, 0), 0, 4_000_000)


def test_apa102_carries_the_global_brightness_in_each_led_header() -> None:
    spi = FakeSpiDev()
    Apa102Strip(1, global_brightness=5, hz=8_000_000, spidev=spidev_module(spi)).show([(9, 8, 7)])
    assert spi.writes == [bytes.fromhex("00000000e50708090000000000")]
    assert spi.max_speed_hz == 8_000_000


@given(st.integers(1, 300))
def test_apa102_end_frame_gives_half_a_clock_per_led(count: int) -> None:
    data = encode_apa102([(1, 1, 1)] * count)
    end = data[4 + 4 * count :]
    assert len(end) == 4 + math.ceil(count / 16)
    assert not any(end)
    assert len(end) * 8 >= count / 2


# -- both SPI backends ------------------------------------------------------------------------


@pytest.mark.parametrize("backend", [SpiWs2812Strip, Apa102Strip], ids=["ws2812", "apa102"])
def test_close_sends_an_all_off_frame_then_closes_the_device(backend: Any) -> None:
    spi = FakeSpiDev()
    strip = backend(2, spidev=spidev_module(spi))
    strip.show([(255, 255, 255), (255, 255, 255)])
    strip.close()
    strip.close()  # twice is harmless
    assert spi.closed
    assert len(spi.writes) == 2
    assert spi.writes[1] == strip._encode([(0, 0, 0), (0, 0, 0)])
    with pytest.raises(HardwareError, match=r"LED strip on /dev/spidev0\.0 is closed"):
        strip.show([(1, 1, 1), (1, 1, 1)])


@pytest.mark.parametrize("backend", [SpiWs2812Strip, Apa102Strip], ids=["ws2812", "apa102"])
def test_a_missing_spi_device_is_a_hardware_error_naming_it(backend: Any) -> None:
    missing = FileNotFoundError(errno.ENOENT, "No such file or directory")
    with pytest.raises(
        HardwareError, match=r"cannot open LED strip on /dev/spidev0\.1: No such"
    ) as e:
        backend(2, device=1, spidev=spidev_module(FakeSpiDev(fail_open=missing)))
    assert e.value.__cause__ is missing


def test_a_failed_spi_write_is_a_hardware_error_naming_the_device() -> None:
    spi = FakeSpiDev(fail_write=OSError(errno.EIO, "Input/output error"))
    strip = SpiWs2812Strip(1, spidev=spidev_module(spi))
    with pytest.raises(HardwareError, match=r"LED strip on /dev/spidev0\.0 failed: Input/output"):
        strip.show([(0, 0, 0)])


@pytest.mark.parametrize(
    ("pixels", "message"),
    [
        pytest.param([(0, 0, 0)], r"expected 2 colours for /dev/spidev0\.0, got 1", id="short"),
        pytest.param([(0, 0, 0), (0, 256, 0)], r"bad colour \(0, 256, 0\) for LED 1", id="256"),
        pytest.param([(0, 0, 0), (0, -1, 0)], r"bad colour \(0, -1, 0\) for LED 1", id="minus"),
    ],
)
def test_a_frame_that_does_not_fit_is_refused(pixels: list[Color], message: str) -> None:
    spi = FakeSpiDev()
    strip = SpiWs2812Strip(2, spidev=spidev_module(spi))
    with pytest.raises(ValueError, match=message):
        strip.show(pixels)
    assert spi.writes == []


def test_a_missing_library_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spidev", None)  # makes "import spidev" fail
    with pytest.raises(
        HardwareError, match=r"the spidev library is not installed .*pegboard\[pi\]"
    ):
        SpiWs2812Strip(2)


# -- rpi_ws281x -------------------------------------------------------------------------------


def test_ws281x_sets_each_led_and_shows_the_frame() -> None:
    created: list[FakePixelStrip] = []
    strip = Ws281xStrip(2, pin=12, dma=5, channel=0, module=ws281x_module(created))
    strip.show(RED_THEN_DIM_BLUE)
    (fake,) = created
    assert (fake.num, fake.pin, fake.begun) == (2, 12, True)
    assert fake.options == {
        "freq_hz": 800_000,
        "dma": 5,
        "invert": False,
        "brightness": 255,
        "channel": 0,
        "strip_type": 0x00081000,  # the library's WS2811_STRIP_GRB
    }
    assert fake.shown == [((255, 0, 0), (0, 0, 1))]


@pytest.mark.parametrize(
    ("order", "strip_type"),
    [
        pytest.param("RGB", 0x00100800, id="RGB"),
        pytest.param("GRB", 0x00081000, id="GRB"),
        pytest.param("BGR", 0x00000810, id="BGR"),
        pytest.param("BRG", 0x00001008, id="BRG"),
        pytest.param("GBR", 0x00080010, id="GBR"),
        pytest.param("RBG", 0x00100008, id="RBG"),
    ],
)
def test_ws281x_strip_type_matches_the_librarys_constants(order: str, strip_type: int) -> None:
    created: list[FakePixelStrip] = []
    Ws281xStrip(1, order=order, module=ws281x_module(created))
    assert created[0].options["strip_type"] == strip_type


def test_ws281x_close_turns_every_led_off_and_releases_the_library() -> None:
    created: list[FakePixelStrip] = []
    strip = Ws281xStrip(3, module=ws281x_module(created))
    strip.show([(9, 9, 9)] * 3)
    strip.close()
    assert created[0].shown[-1] == ((0, 0, 0),) * 3
    assert created[0].cleaned_up


def test_ws281x_that_cannot_start_is_a_hardware_error_naming_the_pin() -> None:
    failure = RuntimeError("ws2811_init failed with code -5 (mmap() failed)")
    with pytest.raises(HardwareError, match=r"rpi_ws281x cannot drive LEDs on GPIO18: ws2811_init"):
        Ws281xStrip(2, module=ws281x_module([], fail_begin=failure))


# -- the recording strip and the factory ------------------------------------------------------


def test_recording_strip_keeps_frames_and_closes_dark() -> None:
    strip = RecordingStrip(2, name="board", history=2)
    assert strip.last == ((0, 0, 0), (0, 0, 0))
    for level in (1, 2, 3):
        strip.show([(level, 0, 0), (0, level, 0)])
    assert list(strip.frames) == [((2, 0, 0), (0, 2, 0)), ((3, 0, 0), (0, 3, 0))]
    strip.close()
    assert strip.closed and strip.last == ((0, 0, 0), (0, 0, 0))
    with pytest.raises(HardwareError, match=r"LED strip 'board' is closed"):
        strip.show([(0, 0, 0), (0, 0, 0)])


@pytest.mark.parametrize(
    ("kind", "backend"),
    [
        pytest.param(StripKind.SPI_WS2812, SpiWs2812Strip, id="spi-ws2812"),
        pytest.param(StripKind.APA102, Apa102Strip, id="apa102"),
        pytest.param(StripKind.SIM, RecordingStrip, id="sim"),
    ],
)
def test_open_strip_builds_the_backend_the_spec_names(kind: StripKind, backend: type) -> None:
    spi = FakeSpiDev()
    spec = StripSpec(name="board", kind=kind, count=4, bus=1, device=1)
    strip = open_strip(spec, module=spidev_module(spi))
    assert isinstance(strip, backend)
    assert strip.length == 4
    if kind is not StripKind.SIM:
        assert spi.opened == (1, 1)


def test_open_strip_passes_ws281x_options_through() -> None:
    created: list[FakePixelStrip] = []
    spec = StripSpec(name="b", kind=StripKind.WS281X, count=5, pin=13, channel=1, invert=True)
    strip = open_strip(spec, module=ws281x_module(created))
    assert isinstance(strip, Ws281xStrip)
    assert (created[0].pin, created[0].options["channel"], created[0].options["invert"]) == (
        13,
        1,
        True,
    )


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        pytest.param("ws281x", StripKind.WS281X, id="ws281x"),
        pytest.param("SPI_WS2812", StripKind.SPI_WS2812, id="underscore"),
        pytest.param(" apa102 ", StripKind.APA102, id="spaces"),
        pytest.param("sim", StripKind.SIM, id="sim"),
    ],
)
def test_strip_kinds_parse_from_their_config_names(text: str, kind: StripKind) -> None:
    assert StripKind.parse(text) is kind
    assert StripKind.parse(kind.value) is kind


def test_an_unknown_strip_kind_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown LED strip kind: 'neopixel' \(expected one of"):
        StripKind.parse("neopixel")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        pytest.param({"count": 0}, r"'s' needs at least 1 LED, got 0", id="no-leds"),
        pytest.param({"order": "RGGB"}, r"order must be a permutation of RGB", id="order"),
        pytest.param({"global_brightness": 32}, r"global_brightness must be 0\.\.31", id="gb"),
    ],
)
def test_strip_specs_refuse_impossible_values(options: dict[str, Any], message: str) -> None:
    values: dict[str, Any] = {"name": "s", "kind": StripKind.APA102, "count": 1, **options}
    with pytest.raises(ConfigError, match=message):
        StripSpec(**values)


def test_strip_specs_default_to_their_kinds_wire_order() -> None:
    assert StripSpec("a", StripKind.APA102, 1).wire_order == "BGR"
    assert StripSpec("w", StripKind.SPI_WS2812, 1).wire_order == "GRB"
    assert StripSpec("w", StripKind.SPI_WS2812, 1, order="RGB").wire_order == "RGB"
