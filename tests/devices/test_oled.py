"""The luma adapter: the real ssd1306 driver on a recording serial interface; the sim display."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from pegboard.devices.oled import DIM_CONTRAST, LumaDisplay, RecordingDisplay
from pegboard.devices.ports import Display
from pegboard.errors import ConfigError, HardwareError

Call = tuple[str, tuple[int, ...]]

# SSD1306 commands from its datasheet, written out here independently of luma's constants
DISPLAY_OFF, DISPLAY_ON, SET_CONTRAST = 0xAE, 0xAF, 0x81
COLUMN_ADDRESS, PAGE_ADDRESS = 0x21, 0x22


class RecordingSerial:
    """A luma serial interface that records what the driver sends."""

    def __init__(self, fail_with: OSError | None = None) -> None:
        self.calls: list[Call] = []
        self.fail_with = fail_with
        self.cleaned_up = False

    def command(self, *cmd: int) -> None:
        if self.fail_with is not None:
            raise self.fail_with
        self.calls.append(("command", tuple(cmd)))

    def data(self, data: Any) -> None:
        if self.fail_with is not None:
            raise self.fail_with
        self.calls.append(("data", tuple(data)))

    def cleanup(self) -> None:
        self.cleaned_up = True


def ssd1306(
    width: int = 128, height: int = 64, **options: object
) -> tuple[LumaDisplay, RecordingSerial]:
    serial = RecordingSerial()
    options = {"display": "ssd1306", "width": width, "height": height, **options}
    return LumaDisplay.from_options(options, serial_interface=serial), serial


def page_packed(image: Image.Image) -> tuple[int, ...]:
    """SSD1306 horizontal addressing: one byte per column per page of 8 rows, top row = bit 0."""
    width, height = image.size
    out = []
    for page in range(height // 8):
        for x in range(width):
            byte = 0
            for bit in range(8):
                if image.getpixel((x, page * 8 + bit)):
                    byte |= 1 << bit
            out.append(byte)
    return tuple(out)


@pytest.mark.parametrize(
    ("size", "multiplex", "com_pins"),
    [
        pytest.param((128, 64), 0x3F, 0x12, id="128x64"),
        pytest.param((128, 32), 0x1F, 0x02, id="128x32"),
    ],
)
def test_ssd1306_is_initialised_from_the_config_options(
    size: tuple[int, int], multiplex: int, com_pins: int
) -> None:
    display, serial = ssd1306(*size)
    init = (
        DISPLAY_OFF,
        0xD5, 0x80,  # display clock divide ratio / oscillator
        0xA8, multiplex,  # multiplex ratio: rows - 1
        0xD3, 0x00,  # display offset 0
        0x40,  # start line 0
        0x8D, 0x14,  # charge pump on (internal supply)
        0x20, 0x00,  # horizontal addressing mode
        0xA1,  # segment remap: column 127 is SEG0
        0xC8,  # COM scan from COM[N-1] to COM0
        0xDA, com_pins,  # COM pins configuration
        0xD9, 0xF1,  # pre-charge period
        0xDB, 0x40,  # VCOMH deselect level
        0xA4,  # display follows RAM
        0xA6,  # normal, not inverted
    )  # fmt: skip
    pages = size[1] // 8
    assert serial.calls == [
        ("command", init),
        ("command", (SET_CONTRAST, 0xCF)),
        ("command", (COLUMN_ADDRESS, 0, size[0] - 1, PAGE_ADDRESS, 0, pages - 1)),
        ("data", (0,) * (size[0] * pages)),  # cleared
        ("command", (DISPLAY_ON,)),
    ]
    assert (display.size, display.mode) == (size, "1")


def test_one_frame_reaches_the_ssd1306_as_page_packed_bytes() -> None:
    display, serial = ssd1306()
    image = Image.new("1", (128, 64))
    for x, y in [(0, 0), (1, 1), (127, 63), (64, 7), (64, 8)]:
        image.putpixel((x, y), 1)
    for x in range(10, 20):
        image.putpixel((x, 12), 1)
    serial.calls.clear()
    display.show(image)
    assert serial.calls[0] == ("command", (COLUMN_ADDRESS, 0, 127, PAGE_ADDRESS, 0, 7))
    kind, data = serial.calls[1]
    assert kind == "data" and data == page_packed(image)
    # spot checks by hand: (0,0) is bit 0 of byte 0; (64,8) is bit 0 of page 1, column 64
    assert data[0] == 0b1 and data[1] == 0b10 and data[64] == 0x80 and data[128 + 64] == 0b1
    assert data[128 + 10] == 1 << 4 and data[7 * 128 + 127] == 0x80


def test_identical_frames_are_not_sent_again() -> None:
    display, serial = ssd1306()
    image = Image.new("1", (128, 64))
    image.putpixel((3, 3), 1)
    display.show(image)
    display.show(image.copy())
    other = image.copy()
    other.putpixel((4, 4), 1)
    display.show(other)
    assert display.frames_sent == 2
    assert [kind for kind, _ in serial.calls].count("data") == 1 + 2  # the clear, then 2 frames


def test_rotation_is_a_config_option() -> None:
    display, _ = ssd1306(rotate=1)
    assert display.size == (64, 128)


def test_frames_of_the_wrong_size_or_mode_are_refused() -> None:
    display, _ = ssd1306(128, 32)
    with pytest.raises(ValueError, match=r"cannot show a '1' image of \(128, 64\) on this display"):
        display.show(Image.new("1", (128, 64)))
    with pytest.raises(ValueError, match=r"expected mode '1', size \(128, 32\)"):
        display.show(Image.new("L", (128, 32)))


def test_contrast_dim_sleep_and_wake_send_their_commands() -> None:
    display, serial = ssd1306()
    serial.calls.clear()
    display.set_contrast(200)
    display.dim()
    display.set_contrast(180)  # remembered while dimmed, not sent
    display.undim()
    display.sleep()
    display.wake()
    assert serial.calls == [
        ("command", (SET_CONTRAST, 200)),
        ("command", (SET_CONTRAST, DIM_CONTRAST)),
        ("command", (SET_CONTRAST, 180)),
        ("command", (DISPLAY_OFF,)),
        ("command", (DISPLAY_ON,)),
    ]
    assert display.contrast == 180 and not display.is_dimmed and not display.is_asleep


def test_contrast_out_of_range_is_refused() -> None:
    display, _ = ssd1306()
    with pytest.raises(ValueError, match=r"contrast must be 0\.\.255, got 256"):
        display.set_contrast(256)


def test_close_clears_the_screen_and_switches_it_off() -> None:
    display, serial = ssd1306()
    frame = Image.new("1", (128, 64), 1)
    display.show(frame)
    serial.calls.clear()
    display.close()
    display.close()  # twice is fine
    assert ("command", (DISPLAY_OFF,)) in serial.calls
    assert ("data", (0,) * 1024) in serial.calls
    assert serial.cleaned_up
    with pytest.raises(HardwareError, match=r"cannot show a frame: the OLED on I2C bus 1 at 0x3C"):
        display.show(frame)


def test_a_bus_error_becomes_a_hardware_error_naming_the_bus() -> None:
    display, serial = ssd1306(i2c_port=0, i2c_address=0x3D)
    serial.fail_with = OSError(121, "Remote I/O error")
    with pytest.raises(
        HardwareError,
        match=r"OLED not found on I2C bus 0 at 0x3D \(is I2C enabled\? see raspi-config\)",
    ) as raised:
        display.show(Image.new("1", (128, 64), 1))
    assert isinstance(raised.value.__cause__, OSError)


def test_a_missing_i2c_bus_is_reported_when_the_display_is_made() -> None:
    with pytest.raises(HardwareError, match=r"OLED not found on I2C bus 99 at 0x3C \(is I2C"):
        LumaDisplay.from_options({"display": "ssd1306", "i2c_port": 99})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        pytest.param({"dispaly": "ssd1306"}, r"unknown option 'dispaly' \(expected", id="typo"),
        pytest.param(
            {"display": "ssd9999"}, r"--display/-d: invalid choice: 'ssd9999'", id="ssd9999"
        ),
        pytest.param({"rotate": 5}, r"oled: argument --rotate/-r: invalid choice: 5", id="rotate"),
        pytest.param({"width": "wide"}, r"--width: invalid int value: 'wide'", id="width"),
        pytest.param(
            {"display": "linux_framebuffer"},
            r"oled: display 'linux_framebuffer' is not a luma\.oled display",
            id="not-oled",
        ),
    ],
)
def test_bad_options_are_config_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        LumaDisplay.from_options(options, serial_interface=RecordingSerial())


def test_the_ssd1322_takes_greyscale_frames() -> None:
    serial = RecordingSerial()
    display = LumaDisplay.from_options(
        {"display": "ssd1322", "interface": "spi", "width": 256, "height": 64},
        serial_interface=serial,
    )
    assert (display.size, display.mode) == ((256, 64), "L")
    image = Image.new("L", (256, 64))
    image.putpixel((0, 0), 255)
    image.putpixel((1, 0), 136)
    serial.calls.clear()
    display.show(image)
    data = [payload for kind, payload in serial.calls if kind == "data"]
    # 4 bits per pixel, two pixels a byte: white (15) then 136 // 16 = 8
    assert data[-1][0] == 0xF8


def test_adapters_implement_the_display_port() -> None:
    display, _ = ssd1306()
    # explicit subclasses, so mypy checks every method against the protocol
    for port in (display, RecordingDisplay()):
        assert Display in type(port).__mro__


def test_the_recording_display_keeps_every_frame() -> None:
    display = RecordingDisplay((128, 32), "1")
    first = Image.new("1", (128, 32))
    display.show(first)
    first.putpixel((0, 0), 1)  # a later change to the caller's image does not touch the record
    display.show(first)
    assert len(display.shown) == 2 and display.shown[0].getbbox() is None
    assert display.last is not None and display.last.getpixel((0, 0)) == 1
    with pytest.raises(ValueError, match=r"expected mode '1', size \(128, 32\)"):
        display.show(Image.new("1", (128, 64)))
    display.close()
    with pytest.raises(HardwareError, match="the recording display is closed"):
        display.show(first)


def test_the_recording_display_keeps_its_last_history_frames() -> None:
    display = RecordingDisplay((8, 8), "1", history=2)
    frames = [Image.new("1", (8, 8), colour) for colour in (0, 1, 0)]
    for frame in frames:
        display.show(frame)
    assert [f.tobytes() for f in display.shown] == [f.tobytes() for f in frames[1:]]
    with pytest.raises(ValueError, match=r"keeps at least 1 frame, got 0"):
        RecordingDisplay((8, 8), "1", history=0)
