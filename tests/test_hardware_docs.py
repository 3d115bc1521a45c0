"""The maker's papers agree with the code: pin map, wiring diagram, example configs, overlay."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pegboard.config.settings import KEYPAD_LAYOUTS, Config, load_config, parse_config
from pegboard.ui.keypad import Layout, rank_of_key
from pegboard.ui.menu import MENU, NAME_KEYS

HARDWARE = Path(__file__).resolve().parents[1] / "hardware"
SVG = "{http://www.w3.org/2000/svg}"

# the 40-pin header (every Pi since the B+): physical pin -> BCM GPIO, for the pins with one
HEADER = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
    21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26,
    38: 20, 40: 21,
}  # fmt: skip
DEFAULTS = parse_config("")


AMPLIFIER = "## With a speaker: the amplifier pin map"


def _pin_map(amplifier: bool = False) -> dict[str, tuple[int, int]]:
    """README's pin map: config key -> (header pin, GPIO), for the rows that name one key;
    with *amplifier*, the second map's (the amplifier's section), else the first's."""
    rows: dict[str, tuple[int, int]] = {}
    text = (HARDWARE / "README.md").read_text(encoding="utf-8")
    first, _, rest = text.partition(AMPLIFIER)
    text = rest.split("\n## ", 1)[0] if amplifier else first
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].isdigit():
            continue
        gpio = re.fullmatch(r"GPIO(\d+)", cells[1])
        key = re.fullmatch(r"`(buttons\.\w+|keypad\.(?:rows|cols)\[\d\]|sound\.i2s)`", cells[3])
        if gpio and key:
            name = key.group(1)
            if name == "sound.i2s":  # three pins, one key
                name = f"sound.i2s GPIO{gpio.group(1)}"
            rows[name] = (int(cells[0]), int(gpio.group(1)))
    return rows


def _default_pins(config: Config) -> dict[str, int]:
    pins = {f"buttons.{name}": pin for name, pin in config.buttons.pins.items()}
    pins |= {f"keypad.rows[{i}]": pin for i, pin in enumerate(config.keypad.rows)}
    pins |= {f"keypad.cols[{i}]": pin for i, pin in enumerate(config.keypad.cols)}
    return pins


def test_the_pin_map_in_the_readme_is_the_config_defaults_on_the_right_header_pins() -> None:
    table = _pin_map()
    assert {key: gpio for key, (_, gpio) in table.items()} == _default_pins(DEFAULTS)
    for key, (pin, gpio) in table.items():
        assert HEADER[pin] == gpio, f"{key}: header pin {pin} is GPIO{HEADER[pin]}, not {gpio}"


def test_the_amplifier_pin_map_is_its_example_config_on_the_right_header_pins() -> None:
    amp = load_config(HARDWARE / "pi-zero-2w-ssd1306-ws2812-max98357a.toml")
    table = _pin_map(amplifier=True)
    assert len(table) == 5  # the amplifier's three pins, and the two it moves
    moved = {key: gpio for key, (_, gpio) in table.items() if not key.startswith("sound.")}
    assert moved == {"keypad.cols[3]": 24, "buttons.undo": 25}
    pins = _default_pins(amp)
    assert {key: pins[key] for key in moved} == moved
    assert (
        {gpio for key, (_, gpio) in table.items() if key.startswith("sound.")}
        == set(amp.sound.pins)
        == {18, 19, 21}
    )
    for key, (pin, gpio) in table.items():
        assert HEADER[pin] == gpio, f"{key}: header pin {pin} is GPIO{HEADER[pin]}, not {gpio}"
    # the rest of the board is the first map's
    rest = {key: gpio for key, gpio in pins.items() if key not in moved}
    assert rest.items() <= _default_pins(DEFAULTS).items()
    assert amp.sound.enabled and amp.sound.device == "plughw:CARD=MAX98357A,DEV=0"


def _svg_texts(name: str) -> list[str]:
    root = ET.parse(HARDWARE / name).getroot()
    return ["".join(node.itertext()).strip() for node in root.iter(f"{SVG}text")]


def _labels_pin(labels: list[str], pin: int, gpio: int) -> bool:
    """A header label, "GPIO17 · 11" on the odd side or "12 · GPIO18 PWM0" on the even."""
    left = re.compile(rf"GPIO{gpio}\b.* · {pin}")
    right = re.compile(rf"{pin} · GPIO{gpio}\b.*")
    return any(left.fullmatch(t) or right.fullmatch(t) for t in labels)


def test_the_wiring_diagram_labels_each_header_pin_with_its_gpio() -> None:
    labels = _svg_texts("wiring.svg")
    for pin, gpio in HEADER.items():
        assert _labels_pin(labels, pin, gpio), f"no label for header pin {pin} (GPIO{gpio})"
    assert not _labels_pin(labels, 11, 18)  # the check can fail


def test_the_wiring_diagram_names_the_keypad_wires_as_the_default_layout() -> None:
    labels = _svg_texts("wiring.svg")
    layout = KEYPAD_LAYOUTS["4x4"]
    for i, row in enumerate(layout):
        assert f"keypad R{i + 1} (keys {' '.join(row)})" in labels
    for i in range(4):
        column = " ".join(row[i] for row in layout)
        assert f"keypad C{i + 1} (keys {column})" in labels


@pytest.mark.parametrize(
    ("name", "display", "length", "laps", "start_led"),
    [
        pytest.param("pi-zero-2w-ssd1306-ws2812.toml", "ssd1306", 61, 2, False, id="zero-2w"),
        pytest.param("pi5-sh1106-apa102.toml", "sh1106", 122, 1, True, id="pi5"),
    ],
)
def test_the_example_configs_use_the_documented_wiring(
    name: str, display: str, length: int, laps: int, start_led: bool
) -> None:
    config = load_config(HARDWARE / name)
    assert (config.display.display, config.display.i2c_port) == (display, 1)
    assert config.display.i2c_address == 0x3C
    pins = _default_pins(config)
    assert all(DEFAULTS.buttons.pins[key.split(".")[1]] == pin for key, pin in pins.items()
               if key.startswith("buttons."))  # fmt: skip
    assert (config.keypad.rows, config.keypad.cols) == (DEFAULTS.keypad.rows, DEFAULTS.keypad.cols)
    assert config.keypad.layout == KEYPAD_LAYOUTS["4x4"]
    for track in config.leds.layout.tracks:
        assert sum(s.count for s in track.segments) == length
        assert (track.laps, track.start_led) == (laps, start_led)
    assert sum(spec.count for spec in config.leds.strips) == length * len(config.leds.layout.tracks)


@pytest.mark.parametrize("path", sorted(HARDWARE.glob("*.toml")), ids=lambda p: p.stem)
def test_each_strip_kind_an_example_offers_in_a_comment_works_in_that_example(path: Path) -> None:
    """``kind = "spi-ws2812"  # or "ws281x"``: the other kind, put in, is a config that loads
    (the amplifier's example may not offer ws281x: its GPIO18 is the amplifier's BCLK)."""
    text = path.read_text()
    offered = re.findall(r'^kind = "[^"]+"\s*#[^\n]*?\bor "([^"]+)"', text, re.MULTILINE)
    for kind in offered:
        swapped = re.sub(r'^kind = "[^"]+"', f'kind = "{kind}"', text, count=1, flags=re.M)
        parse_config(swapped)  # raises ConfigError naming the clash


def _overlay_keys() -> dict[str, list[tuple[str, str]]]:
    """The overlay's keys: label -> [(text, class)] in drawing order."""
    root = ET.parse(HARDWARE / "keypad-overlay.svg").getroot()
    keys: dict[str, list[tuple[str, str]]] = {}
    for group in root.iter(f"{SVG}g"):
        texts = [
            ("".join(t.itertext()).strip(), t.get("class", "")) for t in group.iter(f"{SVG}text")
        ]
        keys[texts[0][0]] = texts[1:]
    return keys


def test_the_keypad_overlay_has_every_key_of_the_4x4_layout_with_the_rank_it_types() -> None:
    keys = _overlay_keys()
    assert sorted(keys) == sorted("".join(KEYPAD_LAYOUTS["4x4"]))
    words = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
             8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king"}  # fmt: skip
    for key, texts in keys.items():
        rank = rank_of_key(key, Layout.FOUR_BY_FOUR)
        if rank is not None:
            assert texts[0][0] == words[rank.value], f"key {key}"


def test_the_keypad_overlay_shows_what_each_key_does_in_the_menu() -> None:
    keys = _overlay_keys()
    printed = {key: [text for text, cls in texts if cls == "menu"] for key, texts in keys.items()}
    wording = {"skunk": "skunk/lurch"}  # 9: double skunk, or five-card's lurch line
    for key, item in MENU.items():
        assert printed[key] == [wording.get(item, item)], f"key {key}"
    assert printed["#"] == ["next line"]
    assert printed["*"] == ["leave"]
    for side, key in enumerate(NAME_KEYS):  # A, B, C pick each side's name from the roster
        assert printed[key] == [f"side {side + 1} name"], f"key {key}"
    assert printed["D"] == []


@pytest.mark.parametrize("name", sorted(p.name for p in HARDWARE.glob("*.toml")))
def test_the_example_configs_colours_are_30_apart_for_every_eye(name: str) -> None:
    """What ``pegboard selftest`` checks: no example config starts a maker off with a warning."""
    from pegboard.ui.legibility import shortfalls

    layout = load_config(HARDWARE / name).leds.layout
    assert [str(c) for c in shortfalls(layout)] == []
