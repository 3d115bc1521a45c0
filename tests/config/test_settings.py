"""The daemon's config: defaults, every section's checks, unknown keys, pins used twice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pegboard.config.leds import LedsConfig
from pegboard.config.settings import (
    Config,
    DisplayConfig,
    load_config,
    parse_config,
)
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules, Variant
from pegboard.errors import ConfigError
from pegboard.ui.ledtracks import LedLayout

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def test_an_empty_file_gives_the_example_wiring_defaults() -> None:
    config = parse_config("")
    assert config.game.rules == Rules.six_card()
    assert config.game.match_format is MatchFormat.BEST_OF_THREE
    assert config.display.display == "ssd1306"
    assert (config.display.i2c_port, config.display.i2c_address) == (1, 0x3C)
    assert config.buttons.pins == {"peg0": 12, "peg1": 16, "peg2": 20, "undo": 21, "ok": 26}
    assert (config.keypad.rows, config.keypad.cols) == ((17, 27, 22, 23), (5, 6, 13, 19))
    assert config.leds == LedsConfig.default()
    assert config.leds.layout == LedLayout.default()
    assert not config.usb_keypad.enabled


def test_game_section_builds_the_rules_from_the_variant_preset() -> None:
    config = parse_config(
        """
        [game]
        variant = "six-card"
        names = ["Ann", "Bob"]
        muggins = true
        muggins_in_play = true
        starter_counts_in_play = true
        double_skunk_points = 4
        lurch_line = 91
        double_skunk_line = false
        match = "first-to-two"
        database = "games/pegboard.db"
        """,
        base=Path("/srv/pegboard"),
    )
    game = config.game
    assert game.rules == Rules.six_card(
        muggins=True,
        muggins_in_play=True,
        starter_counts_in_play=True,
        double_skunk_points=4,
        double_skunk_line=None,
    )
    assert game.names == ("Ann", "Bob")
    assert game.match_format is MatchFormat.FIRST_TO_TWO
    assert game.database == Path("/srv/pegboard/games/pegboard.db")


def test_the_roster_is_the_names_the_menu_offers() -> None:
    roster = ["Ann", "Bob", "Cy", "Dü", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Bartholom"]
    config = parse_config(f"[game]\nroster = {roster!r}")
    assert config.game.roster == tuple(roster)  # twelve names of up to ten characters
    assert config.game.names is None  # the sides start as Sky and Gold
    assert parse_config("").game.roster == ()
    assert parse_config('[game]\nnames = ["Ann", "Bob"]\nroster = ["Ann"]').game.roster == ("Ann",)


def test_three_separate_players_default_to_a_single_game_and_three_tracks() -> None:
    config = parse_config('[game]\nvariant = "three-handed"')
    assert config.game.rules.variant is Variant.THREE_HANDED
    assert config.game.match_format is MatchFormat.SINGLE
    assert len(config.leds.layout.tracks) == 3


def test_five_card_keeps_its_own_target_and_lurch_line() -> None:
    rules = parse_config('[game]\nvariant = "five_card"').game.rules
    assert (rules.target, rules.lurch_line) == (61, 45)


def test_database_defaults_to_systemds_state_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PEGBOARD_DB", raising=False)
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/pegboard")
    assert parse_config("").game.database == Path("/var/lib/pegboard/pegboard.db")
    assert Config().game.database == Path("/var/lib/pegboard/pegboard.db")


def test_text_choices_ignore_case_and_spaces_around() -> None:
    display = parse_config('[display]\ndisplay = " SH1106 "\ninterface = "I2C"').display
    assert (display.display, display.interface) == ("sh1106", "i2c")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("[display]\nrotate = true", "True", id="rotate"),
        pytest.param("[simulator]\nscale = true", "True", id="scale"),
        pytest.param("[display]\ncontrast = false", "False", id="contrast"),
    ],
)
def test_true_and_false_are_never_numbers(text: str, value: str) -> None:
    with pytest.raises(ConfigError, match=f"got {value}"):
        parse_config(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            '[display]\ni2c_address = "x"',
            "config: display.i2c_address must be a number like 0x3C, got 'x'",
            id="address-text",
        ),
        pytest.param(
            "[display]\ni2c_address = 300",
            "config: display.i2c_address must be a number like 0x3C, got 300",
            id="address-range",
        ),
        pytest.param(
            '[display]\ndisplay = "ssd1036"',
            "config: display.display must be a luma.oled display like 'ssd1306', got 'ssd1036'",
            id="display-name",
        ),
        pytest.param(
            '[display]\ninterface = "usb"',
            "config: display.interface must be 'i2c', 'spi', 'gpio_cs_spi', 'bitbang' or 'noop', "
            "got 'usb'",
            id="interface",
        ),
        pytest.param(
            "[display]\nrotate = 90",
            "config: display.rotate must be 0, 1, 2 or 3 (quarter turns), got 90",
            id="rotate-degrees",
        ),
        pytest.param(
            "[display]\ncontrast = 300",
            "config: display.contrast must be a whole number from 0 to 255, got 300",
            id="contrast",
        ),
        pytest.param(
            '[display]\ndim_after = "5m"',
            "config: display.dim_after must be a number of seconds from 0 to 86400, got '5m'",
            id="dim-after",
        ),
        pytest.param(
            '[display]\nmode = "L"',
            "config: display.mode must be '1', 'RGB' or 'RGBA', got 'L'",
            id="mode",
        ),
        pytest.param(
            '[game]\nvariant = "sixcard"',
            "config: game.variant must be 'six-card', 'three-handed', 'four-handed', "
            "'two-against-one', 'two-in-the-crib' or 'five-card', got 'sixcard' "
            "(did you mean 'six-card'?)",
            id="variant",
        ),
        pytest.param(
            '[game]\nnames = ["Ann"]',
            "config: game.names must be one word per side (2 for six-card), got ['Ann']",
            id="names-count",
        ),
        pytest.param(
            '[game]\nnames = ["Ann Lee", "Bob"]',
            "config: game.names must be one word per side (2 for six-card), got ['Ann Lee', 'Bob']",
            id="names-word",
        ),
        pytest.param(
            '[game]\nnames = ["ann", "Ann"]',
            "config: game.names must all differ, got ['ann', 'Ann']",
            id="names-twice",
        ),
        pytest.param(
            '[game]\nnames = ["Ann", "Bo\\u0007b"]',
            "config: game.names must be one word per side (2 for six-card), "
            "got ['Ann', 'Bo\\x07b']",
            id="names-control-character",
        ),
        pytest.param(
            '[game]\nroster = "Ann, Bob"',
            "config: game.roster must be a list of one-word names like ['Ann', 'Bob', 'Cy'], "
            "got 'Ann, Bob'",
            id="roster-not-a-list",
        ),
        pytest.param(
            '[game]\nroster = ["Ann", "Bob Lee"]',
            "config: game.roster must be a list of one-word names like ['Ann', 'Bob', 'Cy'], "
            "got ['Ann', 'Bob Lee']",
            id="roster-two-words",
        ),
        pytest.param(
            '[game]\nroster = ["Ann", "Bob,Cy"]',
            "config: game.roster must be a list of one-word names like ['Ann', 'Bob', 'Cy'], "
            "got ['Ann', 'Bob,Cy']",
            id="roster-comma",
        ),
        pytest.param(
            '[game]\nroster = ["Ann", 7]',
            "config: game.roster must be a list of one-word names like ['Ann', 'Bob', 'Cy'], "
            "got ['Ann', 7]",
            id="roster-not-text",
        ),
        pytest.param(
            '[game]\nroster = ["Ann", ""]',
            "config: game.roster must be a list of one-word names like ['Ann', 'Bob', 'Cy'], "
            "got ['Ann', '']",
            id="roster-empty-name",
        ),
        pytest.param(
            '[game]\nroster = ["Ann", "Bartholomew"]',
            "config: game.roster has a name too long for the screen: 'Bartholomew' (expected at "
            "most 10 characters)",
            id="roster-long-name",
        ),
        pytest.param(
            f"[game]\nroster = {[f'P{n}' for n in range(13)]}",
            "config: game.roster has 13 names (expected at most 12)",
            id="roster-too-many",
        ),
        pytest.param(
            '[game]\nroster = ["Ann", "Bob", "ann"]',
            "config: game.roster must all differ, got ['Ann', 'Bob', 'ann']",
            id="roster-twice",
        ),
        pytest.param(
            '[game]\nmuggins = "yes"',
            "config: game.muggins must be true or false, got 'yes'",
            id="muggins",
        ),
        pytest.param(
            "[game]\nlurch_line = 200",
            "config: game.lurch_line must be between 1 and the target 121, got 200",
            id="lurch-line-off-board",
        ),
        pytest.param(
            "[game]\nlurch_line = true",
            "config: game.lurch_line must be a hole number like 91, or false for none, got True",
            id="lurch-line-true",
        ),
        pytest.param(
            "[game]\nlurch_points = -1",
            "config: game.lurch_points must be a whole number from 0 to 1000000000, got -1",
            id="lurch-points",
        ),
        pytest.param(
            '[game]\nmatch = "best-of-five"',
            "config: game.match must be 'best-of-three', 'first-to-two', 'single' or "
            "'first-to-three', got 'best-of-five' (did you mean 'best-of-three'?)",
            id="match-format",
        ),
        pytest.param(
            '[game]\nvariant = "three-handed"\nmatch = "best-of-three"',
            "config: game.match 'best-of-three' counts game points, which 3 separate players "
            "do not have",
            id="best-of-three-for-three",
        ),
        pytest.param(
            "[buttons]\nundo = 40",
            "config: buttons.undo must be a BCM GPIO number from 0 to 27, got 40",
            id="button-pin",
        ),
        pytest.param(
            "[buttons]\nundo = 5\nok = 5",
            "config: buttons.ok uses GPIO5, which buttons.undo already uses",
            id="button-pin-twice",
        ),
        pytest.param(
            "[buttons]\ndebounce = 0.5\nlong_press = 0.3",
            "config: buttons.long_press must be longer than buttons.debounce (0.5 s), got 0.3",
            id="long-press-short",
        ),
        pytest.param(
            "[keypad]\nrows = [17, 27, 22]",
            "config: keypad.layout ['123A', '456B', '789C', '*0#D'] does not fit 3 rows x 4 cols",
            id="keypad-shape",
        ),
        pytest.param(
            '[keypad]\nrows = "17,27"',
            "config: keypad.rows must be a list of BCM GPIO numbers from 0 to 27, got '17,27'",
            id="keypad-rows-type",
        ),
        pytest.param(
            '[keypad]\nlayout = "5x5"',
            "config: keypad.layout must be '4x4', '3x4' or a list of rows",
            id="keypad-layout",
        ),
        pytest.param(
            '[keypad]\nlayout = ["1234", "456B", "789C", "*0#D"]',
            "config: keypad.layout has a key twice",
            id="keypad-key-twice",
        ),
        pytest.param(
            "[keypad]\nscan_hz = 10",
            "config: keypad.scan_hz must be a number from 50 to 1000, got 10",
            id="scan-rate",
        ),
        pytest.param(
            "[usb_keypad]\nenabled = true",
            "config: usb_keypad.path is required when the USB keypad is enabled",
            id="usb-no-path",
        ),
        pytest.param(
            '[usb_keypad.keymap]\nKEY_KP55 = "5"',
            "config: usb_keypad.keymap.KEY_KP55 is not a known key (did you mean 'KEY_KP5'?)",
            id="usb-kernel-name",
        ),
        pytest.param(
            '[usb_keypad.keymap]\nKEY_KP5 = ""',
            "config: usb_keypad.keymap.KEY_KP5 must be a key name like '5' or 'undo', got ''",
            id="usb-key-name",
        ),
        pytest.param(
            "[leds]\nbrightness = 2",
            "config: leds.brightness must be a number from 0 to 1, got 2",
            id="leds-delegated",
        ),
        pytest.param(
            "[simulator]\nscale = 3",
            "config: simulator.scale must be 1 or 2, got 3",
            id="simulator-scale",
        ),
        pytest.param(
            '[game]\nvariant = "three-handed"\n[[leds.strips]]\nname = "a"\nkind = "sim"\n'
            "count = 244\n[[leds.tracks]]\nfirst = 0\nlength = 122\n"
            "[[leds.tracks]]\nfirst = 122\nlength = 122",
            "config: leds.tracks has 2 tracks but three-handed has 3 sides",
            id="too-few-tracks",
        ),
        pytest.param(
            "[game]\ndatabase = 3",
            "config: game.database must be a non-empty string, got 3",
            id="bad-type",
        ),
        pytest.param(
            "[display]\ninterface = 3",
            "config: display.interface must be 'i2c', 'spi', 'gpio_cs_spi', 'bitbang' or 'noop', "
            "got 3",
            id="choice-of-another-type",
        ),
        pytest.param(
            "display = 3",
            "config: display must be a table, got 3",
            id="section-not-table",
        ),
    ],
)
def test_bad_values_name_the_key_the_value_and_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "[display]\ni2c_adress = 0x3C",
            "config: display.i2c_adress is not a known key (did you mean 'i2c_address'?)",
            id="display-typo",
        ),
        pytest.param(
            "[buttons]\nundoo = 21",
            "config: buttons.undoo is not a known key (did you mean 'undo'?)",
            id="button-typo",
        ),
        pytest.param(
            "[game]\nplayers = 2",
            "config: game.players is not a known key (expected one of variant, names,",
            id="no-close-match",
        ),
        pytest.param(
            "[keypad]\ncolumns = [5, 6, 13, 19]",
            "config: keypad.columns is not a known key",
            id="keypad",
        ),
        pytest.param(
            "[simulator]\nfps = 30",
            "config: simulator.fps is not a known key",
            id="simulator",
        ),
        pytest.param(
            "[usb_keypad]\ndevice = 'x'",
            "config: usb_keypad.device is not a known key",
            id="usb",
        ),
        pytest.param(
            "[buttons]\npeg3 = 5",
            "config: buttons.peg3 is not a known key (did you mean 'peg2'?)",
            id="a-fourth-peg-button",
        ),
        pytest.param(
            '[usb_keypad.keymap]\nPLUS = "5"',
            "config: usb_keypad.keymap.PLUS is not a known key "
            "(expected a Linux key name like 'KEY_KP5')",
            id="usb-kernel-name-far-off",
        ),
        pytest.param(
            "[dispaly]\nwidth = 128",
            "config: dispaly is not a known section (did you mean 'display'?)",
            id="section-typo",
        ),
        pytest.param(
            "[leds]\nbrightnes = 0.5",
            "config: leds.brightnes is not a known key",
            id="leds",
        ),
    ],
)
def test_unknown_keys_are_errors_with_a_hint(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "[buttons]\nundo = 2",
            "config: GPIO2 is used twice, by display (I2C1) and by buttons.undo",
            id="button-on-i2c",
        ),
        pytest.param(
            "[keypad]\nrows = [10, 27, 22, 23]",
            "config: GPIO10 is used twice, by LED strip 'board' (SPI0 MOSI) and by keypad.rows[0]",
            id="keypad-on-spi",
        ),
        pytest.param(
            "[buttons]\npeg0 = 17",
            "config: GPIO17 is used twice, by buttons.peg0 and by keypad.rows[0]",
            id="button-on-keypad",
        ),
        pytest.param(
            '[display]\ninterface = "spi"',
            "config: GPIO10 is used twice, by display (SPI0) and by LED strip 'board' (SPI0 MOSI)",
            id="spi-display-and-spi-strip",
        ),
        pytest.param(
            '[display]\ninterface = "spi"\n[buttons]\npeg0 = 24\n'
            '[[leds.strips]]\nname = "board"\nkind = "ws281x"\ncount = 244\n'
            "[[leds.tracks]]\nfirst = 0\nlength = 122\n[[leds.tracks]]\nfirst = 122\nlength = 122",
            "config: GPIO24 is used twice, by display.gpio_data_command and by buttons.peg0",
            id="button-on-spi-display-dc",
        ),
        pytest.param(
            "[buttons]\npeg0 = 11\npeg1 = 16\nundo = 21\nok = 26",
            "config: GPIO11 is used twice, by LED strip 'board' (SPI0 SCLK) and by buttons.peg0",
            id="button-on-spi-clock-of-ws2812-strip",
        ),
        pytest.param(
            "[buttons]\npeg0 = 8\npeg1 = 16\nundo = 21\nok = 26",
            "config: GPIO8 is used twice, by LED strip 'board' (SPI0 CE0) and by buttons.peg0",
            id="button-on-spi-chip-select",
        ),
        pytest.param(
            "[keypad]\nrows = [7, 27, 22, 23]",
            "config: GPIO7 is used twice, by LED strip 'board' (SPI0 CE1) and by keypad.rows[0]",
            id="keypad-on-second-chip-select",
        ),
        pytest.param(
            "[buttons]\npeg0 = 9\npeg1 = 16\nundo = 21\nok = 26",
            "config: GPIO9 is used twice, by LED strip 'board' (SPI0 MISO) and by buttons.peg0",
            id="button-on-spi-miso",
        ),
    ],
)
def test_a_gpio_may_serve_only_one_purpose(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "[display]\nwidth = 48\nheight = 16",
            "config: display.width x display.height 48x16 draws 48x16 frames "
            "(expected at least 64x32 after rotation)",
            id="48x16",
        ),
        pytest.param(
            "[display]\nwidth = 128\nheight = 32\nrotate = 1",
            "config: display.width x display.height 128x32 turned by display.rotate = 1 "
            "draws 32x128 frames (expected at least 64x32 after rotation)",
            id="128x32-on-its-side",
        ),
    ],
)
def test_a_display_too_small_for_the_screens_is_refused(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config(text)


def test_a_quarter_turn_swaps_the_frame_size() -> None:
    config = parse_config("[display]\nwidth = 128\nheight = 64\nrotate = 3")
    assert config.display.frame_size == (64, 128)
    assert parse_config("[display]\nrotate = 2").display.frame_size == (128, 64)


def test_a_disabled_keypad_frees_its_pins_for_buttons() -> None:
    config = parse_config("[keypad]\nenabled = false\n[buttons]\npeg0 = 17\npeg1 = 27")
    assert config.buttons.pins == {"peg0": 17, "peg1": 27}


def test_naming_any_button_replaces_the_default_set() -> None:
    assert parse_config("[buttons]\nundo = 21\nok = 26").buttons.pins == {"undo": 21, "ok": 26}


@pytest.mark.parametrize(
    ("value", "address"),
    [
        pytest.param("0x3D", 0x3D, id="hex-text"),
        pytest.param("0x3c", 0x3C, id="hex-lower"),
        pytest.param("61", 61, id="decimal-number"),
        pytest.param('"60"', 60, id="decimal-text"),
    ],
)
def test_i2c_address_accepts_toml_numbers_and_text(value: str, address: int) -> None:
    text = f"[display]\ni2c_address = {value}" if value.startswith(("0x", "6")) else ""
    text = text or f"[display]\ni2c_address = {value}"
    assert parse_config(text).display.i2c_address == address


def test_luma_args_round_trip_through_lumas_own_parser() -> None:
    from luma.core.cmdline import create_parser

    display = parse_config(
        '[display]\ndisplay = "sh1106"\ni2c_address = 0x3D\nrotate = 2\nwidth = 128\nheight = 32'
    ).display
    args = create_parser(description="test").parse_args(display.luma_args())
    assert (args.display, args.interface, args.i2c_address) == ("sh1106", "i2c", "0x3D")
    assert (args.width, args.height, args.rotate) == (128, 32, 2)
    assert DisplayConfig(mode="1").luma_args()[-2:] == ["--mode", "1"]


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[game\n")
    with pytest.raises(ConfigError, match=re.escape(f"config: {path} is not valid TOML")):
        load_config(path)


def test_a_missing_explicit_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"config: cannot read '.*nope\.toml'"):
        load_config(tmp_path / "nope.toml")


def test_search_path_finds_pegboard_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[game]\nnames = ["Ann", "Bob"]\n')
    monkeypatch.setenv("PEGBOARD_CONFIG", str(path))
    config = load_config(None)
    assert config.game.names == ("Ann", "Bob")
    assert config.source == str(path)


@pytest.mark.parametrize(
    "name", ["pi-zero-2w-ssd1306-ws2812.toml", "pi5-sh1106-apa102.toml"], ids=str
)
def test_example_configs_in_hardware_load(name: str) -> None:
    config = load_config(HARDWARE / name)
    assert isinstance(config, Config)
    assert config.source.endswith(name)


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("[" * 5000 + "]" * 5000, id="arrays"),
        pytest.param("{a = " * 5000 + "1" + "}" * 5000, id="inline-tables"),
    ],
)
def test_a_config_nested_5000_deep_is_one_config_error_naming_the_file(
    tmp_path: Path, value: str
) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(f"[game]\nnames = {value}\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == (
        f"config: {path} is nested too deeply to read (expected a few levels of tables "
        "and lists, as in hardware/*.toml)"
    )


MEGABYTE = "x" * 1_000_000


@pytest.mark.parametrize(
    ("text", "start"),
    [
        pytest.param(
            f'[game]\nvariant = "{MEGABYTE}"',
            "config: game.variant must be 'six-card', ",
            id="game.variant",
        ),
        pytest.param(
            f'[game]\nmatch = "{MEGABYTE}"',
            "config: game.match must be 'best-of-three', ",
            id="game.match",
        ),
        pytest.param(
            f'[game]\nnames = ["{MEGABYTE}", "B"]',
            "config: game.names has a name too long: 'xxxx",
            id="game.names",
        ),
        pytest.param(
            f'[display]\ndisplay = "{MEGABYTE}"',
            "config: display.display must be a luma.oled display",
            id="display.display",
        ),
        pytest.param(
            f'[display]\ni2c_address = "{MEGABYTE}"',
            "config: display.i2c_address must be a number like 0x3C, got 'xxxx",
            id="display.i2c_address",
        ),
        pytest.param(
            f'[keypad]\nlayout = "{MEGABYTE}"', "config: keypad.layout must be", id="keypad.layout"
        ),
        pytest.param(
            f"[keypad]\nrows = [{', '.join(['1'] * 200_000)}]",
            "config: keypad.rows must be a list of BCM GPIO numbers",
            id="keypad.rows",
        ),
        pytest.param(
            f'[usb_keypad]\nkeymap = {{ KEY_{MEGABYTE} = "5" }}',
            "config: usb_keypad.keymap.'KEY_xxxx",
            id="usb-keymap-key",
        ),
        pytest.param(f"[game]\n{MEGABYTE} = 1", "config: game.'xxxxxx", id="unknown-key"),
        pytest.param(f"[{MEGABYTE}]", "config: 'xxxxxx", id="unknown-section"),
        pytest.param(
            f'[leds]\nbrightness = "{MEGABYTE}"',
            "config: leds.brightness must be a number from 0 to 1, got 'xxxx",
            id="leds.brightness",
        ),
        pytest.param(
            f'[[leds.strips]]\nname = "a"\nkind = "{MEGABYTE}"\ncount = 10',
            "config: leds.strips[0].kind must be 'ws281x', 'spi-ws2812', 'apa102' or 'sim', "
            "got 'xxxx",
            id="leds.strips.kind",
        ),
        pytest.param(
            f'[[leds.strips]]\nname = "a"\nkind = "sim"\ncount = 10\norder = "{MEGABYTE}"',
            "config: leds.strips[0].order must be a channel order like 'GRB', got 'xxxx",
            id="leds.strips.order",
        ),
        pytest.param(
            f'[[leds.strips]]\nname = "a"\nkind = "sim"\ncount = 244\n'
            f'[[leds.tracks]]\nfirst = 0\nlength = 122\ncolor = "{MEGABYTE}"',
            "config: leds.tracks[0].color must be a colour",
            id="leds.tracks.color",
        ),
        pytest.param(
            f'[[leds.strips]]\nname = "a"\nkind = "sim"\ncount = 244\n'
            f'[[leds.tracks]]\nstrip = "{MEGABYTE}"\nfirst = 0\nlength = 122',
            "config: leds.tracks[0].strip must name a strip ('a'), got 'xxxx",
            id="leds.tracks.strip",
        ),
        pytest.param(
            f"[leds.colors]\n{MEGABYTE} = 1",
            "config: leds.colors.'xxxx",
            id="leds-unknown-key",
        ),
        pytest.param(
            '[game]\n"two\\nlines" = 1',
            r"config: game.'two\nlines' is not a known key",
            id="newline-in-a-key",
        ),
    ],
)
def test_a_huge_value_is_quoted_shortened_in_one_line(text: str, start: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(text)
    message = str(info.value)
    assert message.startswith(start)
    assert "\n" not in message
    assert len(message) < 300


# -- [web]: the pub page ---------------------------------------------------------------------------


def test_the_pub_page_is_off_by_default_on_every_interface_at_8121() -> None:
    web = parse_config("").web
    assert (web.enabled, web.bind, web.port) == (False, "0.0.0.0", 8121)


@pytest.mark.parametrize(
    ("text", "bind", "port"),
    [
        pytest.param('enabled = true\nbind = "127.0.0.1"', "127.0.0.1", 8121, id="loopback"),
        pytest.param('enabled = true\nbind = "::"\nport = 80', "::", 80, id="ipv6-any"),
        pytest.param("enabled = true\nport = 65535", "0.0.0.0", 65535, id="highest-port"),
    ],
)
def test_the_pub_page_can_be_turned_on_and_placed(text: str, bind: str, port: int) -> None:
    web = parse_config(f"[web]\n{text}").web
    assert (web.enabled, web.bind, web.port) == (True, bind, port)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            'bind = "pub.local"',
            "config: web.bind must be an IP address: '0.0.0.0' (every interface) or "
            "'127.0.0.1' (this machine only), got 'pub.local'",
            id="bind-name",
        ),
        pytest.param("bind = 0", "config: web.bind must be an IP address", id="bind-number"),
        pytest.param(
            "port = 0", "config: web.port must be a whole number from 1 to 65535, got 0", id="0"
        ),
        pytest.param("port = 70000", "config: web.port must be a whole number from 1", id="big"),
        pytest.param('port = "8121"', "got '8121'", id="port-text"),
        pytest.param("port = true", "got True", id="port-bool"),
        pytest.param("enabled = 1", "config: web.enabled must be true or false, got 1", id="on"),
        pytest.param(
            "prot = 80", "config: web.prot is not a known key (did you mean 'port'?)", id="typo"
        ),
    ],
)
def test_a_bad_web_value_is_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)) as raised:
        parse_config(f"[web]\n{text}")
    assert "\n" not in str(raised.value)


def test_a_journal_given_as_the_config_is_named_with_the_option_meant(tmp_path: Path) -> None:
    """A near miss: ``--config pegboard.db`` says what the file is and which option takes it,
    and reads the journal only (it is left byte for byte as it was)."""
    from pegboard.journal import Journal

    db = tmp_path / "pegboard.db"
    with Journal(db) as journal:
        journal.new_match(Rules.six_card(), ("Ann", "Bob"))
    before = db.read_bytes()
    with pytest.raises(ConfigError) as raised:
        load_config(db)
    assert str(raised.value) == (
        f"config: {str(db)!r} is a pegboard journal, not a config: did you mean --db?"
    )
    assert db.read_bytes() == before


def test_another_database_given_as_the_config_is_named_as_one(tmp_path: Path) -> None:
    import sqlite3

    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(ConfigError, match=r"is a SQLite database, not a config \(expected TOML"):
        load_config(other)
