"""The daemon's TOML config, read once at start into frozen values and checked on the way.

Theory of operation
-------------------
``load_config(path)`` reads a TOML file with ``tomllib`` and ``parse_config(text)`` a TOML
string; both hand the resulting mapping to ``config_from_mapping``, which checks every key of
every section and builds a ``Config``. Anything wrong stops the daemon before it touches the
hardware, with one message that names the key, shows the bad value as ``repr`` and says what
was expected::

    config: display.i2c_address must be a number like 0x3C, got 'x'
    config: buttons.undoo is not a known key (did you mean 'undo'?)

Every key is optional. The defaults match the example wiring in ``hardware/README.md``
(BCM numbering):

=============  ===========================================  ===============================
what           pins                                         why
=============  ===========================================  ===============================
OLED           I2C1: GPIO2 SDA, GPIO3 SCL, address 0x3C      the Pi's standard I2C bus
LED strip      SPI0 MOSI GPIO10 (WS2812 over SPI);           no root, works on a Pi 5
               SCLK GPIO11 too for APA102; GPIO18 for
               rpi_ws281x (PWM)
buttons        peg0 GPIO12, peg1 GPIO16, peg2 GPIO20,        clear of I2C, SPI0, PWM0, UART
               undo GPIO21, ok GPIO26
keypad 4x4     rows GPIO17 27 22 23, columns GPIO5 6 13 19    clear of the above and of
                                                            luma's SPI DC/RST (24/25)
=============  ===========================================  ===============================

Sections: ``[game]`` (read by ``pegboard.config.game``: variant and house rules, names,
roster, match format, database), ``[display]``
(luma.core.cmdline's own option names, plus ``contrast``, ``dim_after``, ``sleep_after``, the
screens' ``style`` and how long news and each page of a count stay up),
``[buttons]``, ``[keypad]``, ``[usb_keypad]``, ``[leds]`` (read by ``pegboard.config.leds``),
``[simulator]``, ``[web]`` (the pub page, ``pegboard.config.web``), ``[league]`` (the board's
place in a league over MQTT: absent, nothing is published and paho is never loaded) and
``[sound]`` (the calls spoken aloud, ``pegboard.config.sound``). Every key
is read with ``pegboard.config.fields``, so every message has one style. After each section is
read, the pins are checked across sections: no GPIO may serve two purposes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import field
from pathlib import Path
from typing import Any

from pegboard.config.fields import REQUIRED, Fields
from pegboard.config.game import GameConfig, parse_game
from pegboard.config.league import LeagueConfig, is_topic_name, parse_league
from pegboard.config.leds import LedsConfig, parse_leds
from pegboard.config.sound import SoundConfig, parse_sound
from pegboard.config.web import WebConfig, parse_web
from pegboard.devices.leds import StripKind
from pegboard.devices.ports import board_buttons
from pegboard.devices.usbkeys import DEFAULT_USB_KEYMAP, LINUX_KEY_CODES
from pegboard.engine.rules import Rules, Variant
from pegboard.errors import ConfigError, PegboardError, quote
from pegboard.frozen import frozen
from pegboard.ui.paint import MIN_SIZE, Style

__all__ = [
    "CONFIG_SEARCH_PATH",
    "SCREEN_STYLES",
    "ButtonsConfig",
    "Config",
    "DisplayConfig",
    "GameConfig",
    "KeypadConfig",
    "LeagueConfig",
    "SimulatorConfig",
    "UsbKeypadConfig",
    "WebConfig",
    "config_from_mapping",
    "is_topic_name",
    "load_config",
    "parse_config",
]

CONFIG_SEARCH_PATH: tuple[str, ...] = (
    "$PEGBOARD_CONFIG",
    "~/.config/pegboard/config.toml",
    "/etc/pegboard/config.toml",
)
"""Where ``load_config(None)`` looks, first match wins; no file at all means the defaults."""

SCREEN_STYLES = ("auto", *(style.value for style in Style))
"""``[display] style``: "auto" (large on panels 64 pixels tall or more), "large", "compact"."""

_BUTTONS = board_buttons(max(Rules.for_variant(variant).sides for variant in Variant))
"""The keys of ``[buttons]``: a peg button for each side a variant can have (three), undo and
ok."""

OLED_DISPLAYS: tuple[str, ...] = (
    "ch1115",
    "sh1106",
    "sh1107",
    "ssd1305",
    "ssd1306",
    "ssd1309",
    "ssd1315",
    "ssd1316",
    "ssd1322",
    "ssd1322_nhd",
    "ssd1325",
    "ssd1327",
    "ssd1331",
    "ssd1351",
    "ssd1362",
    "ssd1363",
    "ws0010",
    "winstar_weh",
)
"""luma.oled's display names, as ``--display`` takes them."""

GREYSCALE_DISPLAYS = frozenset(
    {"ssd1322", "ssd1322_nhd", "ssd1325", "ssd1327", "ssd1362", "ssd1363"}
)
COLOUR_DISPLAYS = frozenset({"ssd1331", "ssd1351"})

INTERFACES: tuple[str, ...] = ("i2c", "spi", "gpio_cs_spi", "bitbang", "noop")
"""luma's ``--interface`` values that make sense on a Pi."""

KEYPAD_LAYOUTS: Mapping[str, tuple[str, ...]] = {
    "4x4": ("123A", "456B", "789C", "*0#D"),
    "3x4": ("123", "456", "789", "*0#"),
}

# the pins each bus claims once enabled in config.txt (BCM numbers)
_I2C_PINS = {1: (2, 3), 0: (0, 1)}
_SPI_PINS = {0: (9, 10, 11), 1: (19, 20, 21)}  # MISO, MOSI, SCLK
_SPI_CE = {0: (8, 7), 1: (18, 17, 16)}


# -- the values ---------------------------------------------------------------------------------


@frozen
class DisplayConfig:
    """``[display]``: luma.core.cmdline's options under their own names, plus ours.

    ``luma_args()`` turns them back into the command-line arguments luma's own parser takes.
    """

    enabled: bool = True
    display: str = "ssd1306"
    interface: str = "i2c"
    width: int = 128
    height: int = 64
    rotate: int = 0
    i2c_port: int = 1
    i2c_address: int = 0x3C
    spi_port: int = 0
    spi_device: int = 0
    spi_bus_speed: int = 8_000_000
    gpio_data_command: int = 24
    gpio_reset: int = 25
    mode: str = "RGB"
    """luma's ``--mode``: greyscale panels (SSD1322, ...) draw greys in "RGB", none in "1"."""
    h_offset: int = 0
    v_offset: int = 0
    contrast: int = 255
    """0..255, sent to the panel on start."""
    dim_after: float = 300.0
    """Seconds without a key press before the contrast drops; 0 = never."""
    sleep_after: float = 1800.0
    """Seconds without a key press before the panel is switched off; 0 = never."""
    style: str = "auto"
    """The screens' text: "large" (read across the table), "compact" (fits more), or "auto":
    large on panels 64 pixels tall or more, compact on shorter ones (``screen_style``)."""
    page_seconds: float = 2.5
    """Seconds each page of a count stays up before the next turns by itself."""
    news_seconds: float = 4.0
    """Seconds what a key press did stays told ("Ann +8 → 52") unless another key comes."""
    win_probability: bool = False
    """A thin bar on the scoreboard: each side's chance to win now (two sides; off by default)."""
    play_hint: bool = True
    """The play hint: ``*`` in the play (4x4 keypad, two players) shows the best card to lay
    ("lay 3: +0.9 over 10"); false turns the key off (``ui.playhint``)."""

    def luma_args(self) -> list[str]:
        """The options as ``luma.core.cmdline.create_parser(...).parse_args`` takes them.

        >>> DisplayConfig().luma_args()[:4]
        ['--display', 'ssd1306', '--interface', 'i2c']
        """
        args = [
            "--display", self.display, "--interface", self.interface,
            "--width", str(self.width), "--height", str(self.height),
            "--rotate", str(self.rotate),
            "--i2c-port", str(self.i2c_port), "--i2c-address", f"0x{self.i2c_address:02X}",
            "--spi-port", str(self.spi_port), "--spi-device", str(self.spi_device),
            "--spi-bus-speed", str(self.spi_bus_speed),
            "--gpio-data-command", str(self.gpio_data_command),
            "--gpio-reset", str(self.gpio_reset),
            "--h-offset", str(self.h_offset), "--v-offset", str(self.v_offset),
            "--mode", self.mode,
        ]  # fmt: skip
        return args

    def luma_options(self) -> dict[str, object]:
        """The options as ``LumaDisplay.from_options`` takes them (luma's names and values).

        >>> DisplayConfig().luma_options()["i2c_address"]
        60
        """
        keys = (
            "display", "interface", "width", "height", "rotate", "i2c_port", "i2c_address",
            "spi_port", "spi_device", "spi_bus_speed", "gpio_data_command", "gpio_reset",
            "mode", "h_offset", "v_offset",
        )  # fmt: skip
        return {key: getattr(self, key) for key in keys}

    @property
    def frame_size(self) -> tuple[int, int]:
        """The size of the frames drawn for this panel: luma swaps width and height on a
        quarter turn.

        >>> DisplayConfig(width=128, height=32, rotate=1).frame_size
        (32, 128)
        """
        if self.rotate % 2:
            return (self.height, self.width)
        return (self.width, self.height)

    @property
    def screen_style(self) -> Style:
        """The style the screens are drawn in: ``style``, with "auto" chosen by the frame size.

        >>> DisplayConfig().screen_style, DisplayConfig(height=32).screen_style
        (<Style.LARGE: 'large'>, <Style.COMPACT: 'compact'>)
        """
        if self.style == "auto":
            return Style.default_for(self.frame_size)
        return Style(self.style)

    @property
    def frame_mode(self) -> str:
        """The Pillow mode of the frames this panel takes: "1", "L" (greyscale) or "RGB"."""
        if self.mode == "1" or self.display not in GREYSCALE_DISPLAYS | COLOUR_DISPLAYS:
            return "1"
        return "L" if self.display in GREYSCALE_DISPLAYS else "RGB"

    @property
    def pins(self) -> dict[int, str]:
        """The GPIOs the display claims, with what for."""
        if not self.enabled:
            return {}
        if self.interface == "i2c":
            return {p: f"display (I2C{self.i2c_port})" for p in _I2C_PINS.get(self.i2c_port, ())}
        if self.interface in ("spi", "gpio_cs_spi"):
            used = {p: f"display (SPI{self.spi_port})" for p in _SPI_PINS.get(self.spi_port, ())}
            ce = _SPI_CE.get(self.spi_port, ())
            if self.spi_device < len(ce):
                used[ce[self.spi_device]] = f"display (SPI{self.spi_port} CE{self.spi_device})"
            used[self.gpio_data_command] = "display.gpio_data_command"
            used[self.gpio_reset] = "display.gpio_reset"
            return used
        return {}


@frozen
class ButtonsConfig:
    """``[buttons]``: BCM pin per button name, and the timing of presses (seconds)."""

    enabled: bool = True
    pins: Mapping[str, int] = field(
        default_factory=lambda: {"peg0": 12, "peg1": 16, "peg2": 20, "undo": 21, "ok": 26}
    )
    debounce: float = 0.025
    long_press: float = 0.8


@frozen
class KeypadConfig:
    """``[keypad]``: a matrix keypad's row and column pins, its key layout and scan rate."""

    enabled: bool = True
    rows: tuple[int, ...] = (17, 27, 22, 23)
    cols: tuple[int, ...] = (5, 6, 13, 19)
    layout: tuple[str, ...] = KEYPAD_LAYOUTS["4x4"]
    scan_hz: float = 100.0
    debounce_scans: int = 3


@frozen
class UsbKeypadConfig:
    """``[usb_keypad]``: an optional USB numeric keypad read through evdev."""

    enabled: bool = False
    path: str = ""
    """e.g. ``/dev/input/by-id/usb-...-event-kbd`` (stays put across reboots)."""
    keymap: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_USB_KEYMAP))
    long_press: float = 0.8
    grab: bool = True


@frozen
class SimulatorConfig:
    """``[simulator]``: how ``pegboard run --simulate`` draws the device in a terminal."""

    scale: int = 1
    """OLED pixels per terminal column (1 or 2); rows always take two pixels."""
    color: bool = True
    """24-bit colour escapes for the LED tracks and the OLED."""
    legend: bool = True
    """Show which computer key is which keypad key or button."""


@frozen
class Config:
    """The whole config, checked. ``source`` says where it came from."""

    game: GameConfig = field(default_factory=GameConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    keypad: KeypadConfig = field(default_factory=KeypadConfig)
    usb_keypad: UsbKeypadConfig = field(default_factory=UsbKeypadConfig)
    leds: LedsConfig = field(default_factory=LedsConfig.default)
    simulator: SimulatorConfig = field(default_factory=SimulatorConfig)
    web: WebConfig = field(default_factory=WebConfig)
    source: str = "<defaults>"
    league: LeagueConfig | None = None
    """None: no ``[league]`` section, nothing is published."""
    sound: SoundConfig = field(default_factory=SoundConfig)


# -- reading ------------------------------------------------------------------------------------


def load_config(path: Path | str | None = None) -> Config:
    """Read and check the config file at *path*; with None, the first of ``CONFIG_SEARCH_PATH``.

    No file found on the search path gives the defaults. An explicit *path* must exist.

    Raises:
        ConfigError: the file cannot be read, is not TOML, or has a bad key or value.
    """
    if path is None:
        for candidate in CONFIG_SEARCH_PATH:
            expanded = os.path.expanduser(os.path.expandvars(candidate))
            if "$" in expanded or not expanded:
                continue  # an unset variable
            if Path(expanded).is_file():
                path = expanded
                break
        else:
            return config_from_mapping({})
    p = Path(path)
    try:
        data = p.read_bytes()
        _refuse_a_database(p, data)
        text = data.decode("utf-8")
    except OSError as e:
        from pegboard.journal.paths import path_kind

        # a name too long, or a file where a folder should be: one line, as for any path
        path_kind(p, ConfigError, what="config ")
        raise ConfigError(f"config: cannot read {str(p)!r}: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise ConfigError(f"config: {str(p)!r} is not UTF-8 text: {e}") from e
    return parse_config(text, source=str(p), base=p.parent)


def _refuse_a_database(path: Path, data: bytes) -> None:
    """A near miss: a journal (or another SQLite database) given as the config. Says what it
    is and, for a journal, the option meant; returns when the file is neither.

    Raises:
        ConfigError: *path* is a SQLite database.
    """
    from pegboard.journal import Journal
    from pegboard.journal.schema import SQLITE_HEADER

    if not data.startswith(SQLITE_HEADER):
        return
    try:
        Journal(path, readonly=True).close()  # reads only: is it pegboard's?
    except PegboardError:
        raise ConfigError(
            f"config: {str(path)!r} is a SQLite database, not a config (expected TOML text, "
            "as in hardware/*.toml)"
        ) from None
    raise ConfigError(
        f"config: {str(path)!r} is a pegboard journal, not a config: did you mean --db?"
    )


def parse_config(text: str, *, source: str = "<string>", base: Path | None = None) -> Config:
    """Check a config given as TOML text. Relative paths in it are taken from *base*.

    >>> parse_config('[game]\\nvariant = "five-card"').game.rules.target
    61

    Raises:
        ConfigError: not TOML (or nested too deeply to read), or a bad key or value; values
            and keys are quoted shortened to about 60 characters.
    """
    import tomllib  # only when there is a config file to read

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"config: {source} is not valid TOML: {e}") from e
    except RecursionError:
        # tomllib reads nested lists and inline tables by recursion: thousands of levels
        # exhaust Python's stack long before they could mean anything to pegboard
        raise ConfigError(
            f"config: {source} is nested too deeply to read (expected a few levels of tables "
            "and lists, as in hardware/*.toml)"
        ) from None
    return config_from_mapping(data, source=source, base=base)


_SECTIONS = (
    "game",
    "display",
    "buttons",
    "keypad",
    "usb_keypad",
    "leds",
    "simulator",
    "web",
    "league",
    "sound",
)


def config_from_mapping(
    data: Mapping[str, Any], *, source: str = "<defaults>", base: Path | None = None
) -> Config:
    """Check a config already read into a mapping (as ``tomllib`` gives it).

    Raises:
        ConfigError: a bad key or value, or one GPIO used twice.
    """
    top = Fields(data)
    top.known(_SECTIONS, what="section")
    game = parse_game(top.sub("game"), base)
    display = _parse_display(top.sub("display"))
    buttons = _parse_buttons(top.sub("buttons"))
    keypad = _parse_keypad(top.sub("keypad"))
    usb = _parse_usb(top.sub("usb_keypad"))
    leds = parse_leds(data, sides=game.rules.sides)
    simulator = _parse_simulator(top.sub("simulator"))
    web = parse_web(top.sub("web"))
    tracks = len(leds.layout.tracks)
    if tracks < game.rules.sides:
        raise ConfigError(
            f"config: leds.tracks has {tracks} tracks but {game.rules.variant.value} "
            f"has {game.rules.sides} sides (expected one track per side)"
        )
    league = parse_league(top.sub("league"), base) if "league" in data else None
    sound = parse_sound(top.sub("sound"))
    config = Config(
        game, display, buttons, keypad, usb, leds, simulator, web, source, league, sound
    )
    _check_pins(config)
    return config


# -- sections -----------------------------------------------------------------------------------

_DISPLAY_KEYS = (
    "enabled",
    "display",
    "interface",
    "width",
    "height",
    "rotate",
    "i2c_port",
    "i2c_address",
    "spi_port",
    "spi_device",
    "spi_bus_speed",
    "gpio_data_command",
    "gpio_reset",
    "mode",
    "h_offset",
    "v_offset",
    "contrast",
    "dim_after",
    "sleep_after",
    "style",
    "page_seconds",
    "news_seconds",
    "win_probability",
    "play_hint",
)


def _parse_display(f: Fields) -> DisplayConfig:
    f.known(_DISPLAY_KEYS)
    d = DisplayConfig()
    display = f.choice(
        "display",
        d.display,
        OLED_DISPLAYS,
        expected="a luma.oled display like 'ssd1306'",
        casefold=True,
    )
    address = f.table.get("i2c_address", d.i2c_address)
    if isinstance(address, str):
        try:
            address = int(address, 0)
        except ValueError:
            address = None
    if isinstance(address, bool) or not isinstance(address, int) or not 0x03 <= address <= 0x77:
        raise f.error("i2c_address", "a number like 0x3C", f.table.get("i2c_address"))
    rotate = f.choice("rotate", d.rotate, (0, 1, 2, 3), note="quarter turns")
    config = DisplayConfig(
        enabled=f.flag("enabled", d.enabled),
        display=display,
        interface=f.choice("interface", d.interface, INTERFACES, casefold=True),
        width=f.whole("width", d.width, low=8, high=1024),
        height=f.whole("height", d.height, low=8, high=1024),
        rotate=rotate,
        i2c_port=f.whole("i2c_port", d.i2c_port, low=0, high=99),
        i2c_address=address,
        spi_port=f.whole("spi_port", d.spi_port, low=0, high=9),
        spi_device=f.whole("spi_device", d.spi_device, low=0, high=9),
        spi_bus_speed=f.whole("spi_bus_speed", d.spi_bus_speed, low=1, high=125_000_000),
        gpio_data_command=f.pin("gpio_data_command", d.gpio_data_command),
        gpio_reset=f.pin("gpio_reset", d.gpio_reset),
        mode=f.choice("mode", d.mode, ("1", "RGB", "RGBA")),
        h_offset=f.whole("h_offset", d.h_offset, low=0, high=1024),
        v_offset=f.whole("v_offset", d.v_offset, low=0, high=1024),
        contrast=f.whole("contrast", d.contrast, low=0, high=255),
        dim_after=f.seconds("dim_after", d.dim_after),
        sleep_after=f.seconds("sleep_after", d.sleep_after),
        style=f.choice("style", d.style, SCREEN_STYLES, casefold=True),
        page_seconds=f.number("page_seconds", d.page_seconds, low=0.5, high=60.0),
        news_seconds=f.number("news_seconds", d.news_seconds, low=0.5, high=60.0),
        win_probability=f.flag("win_probability", d.win_probability),
        play_hint=f.flag("play_hint", d.play_hint),
    )
    frame_w, frame_h = config.frame_size
    if frame_w < MIN_SIZE[0] or frame_h < MIN_SIZE[1]:
        turned = f" turned by display.rotate = {rotate}" if rotate % 2 else ""
        raise ConfigError(
            f"config: display.width x display.height {config.width}x{config.height}{turned} "
            f"draws {frame_w}x{frame_h} frames (expected at least {MIN_SIZE[0]}x{MIN_SIZE[1]} "
            "after rotation)"
        )
    return config


def _parse_buttons(f: Fields) -> ButtonsConfig:
    f.known((*_BUTTONS, "enabled", "debounce", "long_press"))
    d = ButtonsConfig()
    given = {name: f.pin(name, REQUIRED) for name in _BUTTONS if name in f}
    # naming any button replaces the default set, so a board with fewer buttons says so once
    pins = given or dict(d.pins)
    debounce = f.seconds("debounce", d.debounce, high=1.0)
    long_press = f.seconds("long_press", d.long_press, high=10.0)
    if long_press <= debounce:
        raise f.error("long_press", f"longer than buttons.debounce ({debounce:g} s)", long_press)
    _distinct(pins.items(), "buttons")
    return ButtonsConfig(f.flag("enabled", d.enabled), pins, debounce, long_press)


def _parse_keypad(f: Fields) -> KeypadConfig:
    f.known(("enabled", "rows", "cols", "layout", "scan_hz", "debounce_scans"))
    d = KeypadConfig()
    rows = f.pins("rows", d.rows)
    cols = f.pins("cols", d.cols)
    raw_layout = f.table.get("layout", None)
    if raw_layout is None:
        layout = KEYPAD_LAYOUTS["4x4" if len(cols) == 4 else "3x4"] if len(rows) == 4 else d.layout
    elif isinstance(raw_layout, str) and raw_layout.lower() in KEYPAD_LAYOUTS:
        layout = KEYPAD_LAYOUTS[raw_layout.lower()]
    elif isinstance(raw_layout, list) and all(isinstance(r, str) and r for r in raw_layout):
        layout = tuple(raw_layout)
    else:
        raise f.error(
            "layout",
            "'4x4', '3x4' or a list of rows like ['123A', '456B', '789C', '*0#D']",
            raw_layout,
        )
    if len(layout) != len(rows) or any(len(r) != len(cols) for r in layout):
        raise ConfigError(
            f"config: keypad.layout {quote(list(layout))} does not fit {len(rows)} rows x "
            f"{len(cols)} cols (expected one string of {len(cols)} keys per row pin)"
        )
    keys = "".join(layout)
    if len(set(keys)) != len(keys):
        raise ConfigError(f"config: keypad.layout has a key twice: {quote(list(layout))}")
    _distinct([*((f"rows[{i}]", p) for i, p in enumerate(rows)),
               *((f"cols[{i}]", p) for i, p in enumerate(cols))], "keypad")  # fmt: skip
    return KeypadConfig(
        enabled=f.flag("enabled", d.enabled),
        rows=rows,
        cols=cols,
        layout=layout,
        scan_hz=f.number("scan_hz", d.scan_hz, low=50, high=1000),
        debounce_scans=f.whole("debounce_scans", d.debounce_scans, low=1, high=20),
    )


def _parse_usb(f: Fields) -> UsbKeypadConfig:
    f.known(("enabled", "path", "keymap", "long_press", "grab"))
    d = UsbKeypadConfig()
    enabled = f.flag("enabled", d.enabled)
    path = f.table.get("path", d.path)
    if not isinstance(path, str):
        raise f.error("path", "a string", path)
    if enabled and not path:
        raise ConfigError(
            "config: usb_keypad.path is required when the USB keypad is enabled "
            "(e.g. '/dev/input/by-id/usb-...-event-kbd'; `ls /dev/input/by-id` lists them)"
        )
    keymap = dict(d.keymap)
    if "keymap" in f:
        table = f.sub("keymap")
        table.known(tuple(LINUX_KEY_CODES), expected="a Linux key name like 'KEY_KP5'")
        keymap = {}
        for kernel, key in table.table.items():
            if not isinstance(key, str) or not key.strip() or ":" in key:
                raise table.error(kernel, "a key name like '5' or 'undo'", key)
            keymap[kernel] = key
    return UsbKeypadConfig(
        enabled=enabled,
        path=path,
        keymap=keymap,
        long_press=f.seconds("long_press", d.long_press, high=10.0),
        grab=f.flag("grab", d.grab),
    )


def _parse_simulator(f: Fields) -> SimulatorConfig:
    f.known(("scale", "color", "legend"))
    d = SimulatorConfig()
    return SimulatorConfig(
        scale=f.choice("scale", d.scale, (1, 2)),
        color=f.flag("color", d.color),
        legend=f.flag("legend", d.legend),
    )


# -- across sections ----------------------------------------------------------------------------


def _strip_pins(leds: LedsConfig) -> dict[int, str]:
    used: dict[int, str] = {}
    for spec in leds.strips:
        what = f"LED strip {quote(spec.name)}"
        if spec.kind is StripKind.WS281X:
            used[spec.pin] = what
        elif spec.kind in (StripKind.SPI_WS2812, StripKind.APA102):
            # the strip listens on MOSI (and SCLK for APA102), but the SPI controller takes
            # the whole bus once enabled: dtparam=spi=on claims SPI0's MISO, SCLK and both
            # chip selects, so a button there reads "GPIO busy" on the Pi
            if spec.bus in _SPI_PINS:
                miso, mosi, sclk = _SPI_PINS[spec.bus]
                # the data line first: it names the clash
                for role, pin in (("MOSI", mosi), ("SCLK", sclk), ("MISO", miso)):
                    used[pin] = f"{what} (SPI{spec.bus} {role})"
            ce = _SPI_CE.get(spec.bus, ())
            for number in range(2) if spec.bus == 0 else (spec.device,):
                if number < len(ce):
                    used[ce[number]] = f"{what} (SPI{spec.bus} CE{number})"
    return used


def _check_pins(config: Config) -> None:
    """No GPIO may be claimed twice: by the display, a strip, the amplifier, a button or the
    keypad."""
    claims: list[tuple[int, str]] = list(config.display.pins.items())
    claims += list(_strip_pins(config.leds).items())
    claims += list(config.sound.pins.items())
    if config.buttons.enabled:
        claims += [(pin, f"buttons.{name}") for name, pin in config.buttons.pins.items()]
    if config.keypad.enabled:
        claims += [(pin, f"keypad.rows[{i}]") for i, pin in enumerate(config.keypad.rows)]
        claims += [(pin, f"keypad.cols[{i}]") for i, pin in enumerate(config.keypad.cols)]
    owner: dict[int, str] = {}
    for pin, what in claims:
        if pin in owner and owner[pin] != what:
            raise ConfigError(
                f"config: GPIO{pin} is used twice, by {owner[pin]} and by {what} "
                "(see the pin map in hardware/README.md)"
            )
        owner[pin] = what


def _distinct(named: Iterable[tuple[str, int]], path: str) -> None:
    """No pin twice within one section.

    Raises:
        ConfigError: ``config: buttons.ok uses GPIO5, which buttons.undo already uses``.
    """
    seen: dict[int, str] = {}
    for name, pin in named:
        if pin in seen:
            raise ConfigError(
                f"config: {path}.{name} uses GPIO{pin}, which {path}.{seen[pin]} already uses"
            )
        seen[pin] = name
