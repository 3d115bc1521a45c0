"""The simulator's picture in the terminal it has (issue 23): an 80x24 terminal gets a smaller
picture that fits, every OLED pixel still a dot; one too small even for that is told which size
it needs; a large one keeps the whole picture."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from pegboard.config.settings import Config, config_from_mapping
from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, apply
from pegboard.engine.rules import Rules
from pegboard.engine.view import render_view
from pegboard.table.terminal import SHORT_LEGEND, TerminalView, render_braille
from pegboard.table.wiring import led_renderer
from pegboard.ui.screens import choose_screen, render_screen

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def visible(line: str) -> str:
    return _ANSI.sub("", line)


def shown_in(config: Config, size: tuple[int, int], rules: Rules | None = None) -> list[str]:
    """The simulator's picture of a game in play (its OLED frame and LED tracks) in a terminal
    of *size*, as the lines it writes."""
    rules = rules or Rules.six_card()
    state = GameState.new(rules)
    cut = "cut 9H 3C" if rules.sides == 2 else "cut 9H 3C 5D"
    for text in (cut, "starter 5C", f"peg {state.names[0]} 30"):
        state, _ = apply(state, parse_command(text, state.names))
    view = render_view(state)
    terminal = TerminalView(config, io.StringIO(), size=lambda: size)
    frame = render_screen(choose_screen(view), config.display.frame_size, "1")
    terminal.display.show(frame)
    for name, pixels in led_renderer(config.leds.layout)(view).items():
        terminal.strips[name].show(list(pixels))
    return terminal.frame()


THREE = config_from_mapping({"game": {"variant": "three-handed"}})


@pytest.mark.parametrize(
    ("config", "rules"),
    [
        pytest.param(config_from_mapping({}), None, id="two-sides"),
        pytest.param(THREE, Rules.three_handed(), id="three-handed"),
    ],
)
def test_an_80x24_terminal_gets_a_smaller_picture_that_fits(
    config: Config, rules: Rules | None
) -> None:
    lines = shown_in(config, (80, 24), rules)
    assert len(lines) < 24  # a line left for the cursor
    assert max(len(visible(line)) for line in lines) <= 80
    oled = [visible(line) for line in lines if line.startswith("\u2502")]
    assert len(oled) == 16 and all(len(line) == 66 for line in oled)  # 128x64 in 64x16
    assert visible(lines[-1]) == SHORT_LEGEND
    tracks = [visible(line) for line in lines if visible(line)[:3] in (" 1 ", " 2 ", " 3 ")]
    assert len(tracks) == (rules or Rules.six_card()).sides


def test_a_large_terminal_keeps_the_whole_picture() -> None:
    lines = shown_in(config_from_mapping({}), (200, 60))
    assert max(len(visible(line)) for line in lines) == 130  # 128 pixel columns and the frame
    assert "Ctrl-C       quit (the game is kept)" in visible(lines[-1])


def test_a_terminal_too_small_even_so_is_told_which_size_it_needs() -> None:
    lines = shown_in(config_from_mapping({}), (60, 20))
    said = " ".join(lines)
    assert said == (
        "pegboard's simulator needs a terminal of at least 77x23 characters; this one is 60x20: "
        "make it larger (the game goes on, and is kept)"
    )
    assert all(len(line) <= 60 for line in lines)


def unbraille(text: str, size: tuple[int, int]) -> Image.Image:
    """The pixels a Braille picture shows, back as an image of *size*."""
    bits = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))
    image = Image.new("1", size)
    for row, line in enumerate(text.split("\n")):
        for column, glyph in enumerate(line):
            dots = ord(glyph) - 0x2800 if glyph != " " else 0
            for dx, col in enumerate(bits):
                for dy, bit in enumerate(col):
                    if dots & bit:
                        image.putpixel((column * 2 + dx, row * 4 + dy), 1)
    return image


@given(st.binary(min_size=128 * 64 // 8, max_size=128 * 64 // 8))
def test_every_oled_pixel_is_a_dot_of_the_small_picture(data: bytes) -> None:
    image = Image.frombytes("1", (128, 64), data)
    text = render_braille(image)
    assert len(text.split("\n")) == 16
    assert all(len(line) <= 64 for line in text.split("\n"))
    assert unbraille(text, image.size).tobytes() == image.tobytes()
