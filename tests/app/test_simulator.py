"""The simulator: half-block OLED frames, and whole games replayed headless from key files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from pegboard.app.config import parse_config
from pegboard.app.sdnotify import Notifier
from pegboard.app.simulator import leds_to_dict, render_halfblocks, run_headless, write_gif


@pytest.mark.parametrize(
    ("pixels", "text"),
    [
        pytest.param([], "\n", id="dark"),
        pytest.param([(0, 0)], "▀\n", id="top"),
        pytest.param([(0, 1)], "▄\n", id="bottom"),
        pytest.param([(0, 0), (0, 1)], "█\n", id="both"),
        pytest.param([(1, 0), (1, 1)], " █\n", id="second-column"),
        pytest.param([(0, 2)], "\n▀", id="second-line"),
    ],
)
def test_halfblocks_draw_two_pixel_rows_per_line(pixels: list[tuple[int, int]], text: str) -> None:
    image = Image.new("1", (2, 4))
    for xy in pixels:
        image.putpixel(xy, 1)
    assert render_halfblocks(image) == text


def test_halfblocks_scale_two_halves_a_128x64_oled() -> None:
    image = Image.new("1", (128, 64), 1)
    lines = render_halfblocks(image, scale=2).split("\n")
    assert len(lines) == 16 and all(line == "█" * 64 for line in lines)


def test_halfblocks_in_colour_keep_the_grey_level() -> None:
    image = Image.new("L", (1, 2), 200)
    assert render_halfblocks(image, color=True) == "\x1b[38;2;200;200;200m█\x1b[0m"


def _play(tmp_path: Path, config_text: str, keys: str) -> dict[str, object]:
    config = parse_config(config_text + f'\ndatabase = "{tmp_path / "g.db"}"\n')
    key_file = tmp_path / "game.keys"
    key_file.write_text(keys)
    out = tmp_path / "out"
    run_headless(config, keys_file=key_file, out_dir=out, notifier=Notifier(env={}))
    state: dict[str, object] = json.loads((out / "state.json").read_text())
    return state


def _peg(points: int, side: str) -> str:
    return (
        f"D\n{points // 10}\n{points % 10}\n{side}\nwait 3\n"
        if points >= 10
        else (f"D\n{points}\n{side}\nwait 3\n")
    )


def test_a_lurch_win_in_six_card(tmp_path: Path) -> None:
    keys = "5\n3\n# cut: B deals\nA\n# starter a jack: two for his heels to B\n"
    keys += _peg(29, "B") + _peg(29, "B") + _peg(19, "B")  # B: 2 + 77 = 79
    keys += _peg(29, "A") * 4 + _peg(5, "A")  # A: 121
    state = _play(tmp_path, '[game]\nvariant = "six-card"\nnames = ["Ann", "Bob"]', keys)
    assert state["phase"] == "game over"
    sides = state["sides"]
    assert isinstance(sides, list)
    assert [s["score"] for s in sides] == [121, 79]
    assert state["winner_name"] == "Ann"
    assert sides[1]["lurch"] == "lurched"
    assert state["game_points"] == 2


def test_a_three_handed_deal(tmp_path: Path) -> None:
    keys = "9\n3\n7\n# cut: B cuts lowest and deals\n2\n# starter\n" + _peg(12, "C") + _peg(8, "A")
    state = _play(tmp_path, '[game]\nvariant = "three-handed"', keys)
    sides = state["sides"]
    assert isinstance(sides, list)
    assert len(sides) == 3
    assert state["dealer_name"] == "B"
    assert [s["score"] for s in sides] == [8, 0, 12]
    leds = json.loads((tmp_path / "out" / "leds.json").read_text())
    assert len(leds["tracks"]) == 3


def test_a_five_card_game(tmp_path: Path) -> None:
    keys = "3\n5\n# cut: A deals, so B gets three for last\n4\n# starter\n"
    keys += _peg(29, "B") + _peg(29, "B")  # 3 + 58 = 61: out
    state = _play(tmp_path, '[game]\nvariant = "five-card"\nmatch = "single"', keys)
    sides = state["sides"]
    assert isinstance(sides, list)
    assert state["target"] == 61
    assert [s["score"] for s in sides] == [0, 61]
    assert state["winner_name"] == "B"


def test_headless_writes_the_last_frame_and_every_led_per_track(tmp_path: Path) -> None:
    _play(tmp_path, "[game]", "5\n3\n")
    oled = Image.open(tmp_path / "out" / "oled.png")
    assert oled.size == (128, 64)
    leds = json.loads((tmp_path / "out" / "leds.json").read_text())
    assert [len(t["leds"]) for t in leds["tracks"]] == [122, 122]
    assert len(leds["strips"]["board"]) == 244
    assert any(c != [0, 0, 0] for c in leds["strips"]["board"])  # the tracks are lit


def test_leds_per_track_run_from_each_tracks_start() -> None:
    config = parse_config("")
    strip = [(i, 0, 0) for i in range(244)]
    data = leds_to_dict(config.leds, {"board": strip})
    assert data["tracks"][0]["leds"][0] == [0, 0, 0]
    assert data["tracks"][1]["leds"][0] == [243, 0, 0]  # the second track runs back down


def test_gif_keeps_each_distinct_frame_once(tmp_path: Path) -> None:
    a, b = Image.new("1", (8, 4)), Image.new("1", (8, 4), 1)
    assert write_gif(tmp_path / "s.gif", [a, a, b, b, a]) == 3
    with Image.open(tmp_path / "s.gif") as gif:
        assert gif.n_frames == 3 and gif.size == (16, 8)
