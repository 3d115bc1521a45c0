"""The simulator: half-block OLED frames, and whole games replayed headless from key files."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from pegboard.config.settings import parse_config
from pegboard.engine.cards import Card, parse_cards
from pegboard.engine.play import PlayState
from pegboard.engine.rules import Rules
from pegboard.engine.scoring import score_crib, score_hand, score_heels
from pegboard.table.sdnotify import Notifier
from pegboard.table.simulator import (
    leds_to_dict,
    render_halfblocks,
    run_headless,
    run_terminal,
    write_gif,
)


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


KEYS = Path(__file__).parents[1] / "keys"
REPO = Path(__file__).resolve().parents[2]
SIX_CARD = '[game]\nvariant = "six-card"\nnames = ["Ann", "Bob"]'
FIVE_CARD = '[game]\nvariant = "five-card"\nnames = ["Ann", "Bob"]\nmatch = "single"'
THREE_HANDED = '[game]\nvariant = "three-handed"'


def _config_text(tmp_path: Path, game: str) -> str:
    return game + f'\ndatabase = "{tmp_path / "g.db"}"\n'


def _play(tmp_path: Path, game: str, keys: str) -> dict[str, Any]:
    """Replay *keys* headless in a fresh directory; the state.json it writes."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    config = parse_config(_config_text(tmp_path, game))
    key_file = tmp_path / "game.keys"
    key_file.write_text(keys)
    out = tmp_path / "out"
    run_headless(config, keys_file=key_file, out_dir=out, notifier=Notifier(env={}))
    state: dict[str, Any] = json.loads((out / "state.json").read_text())
    return state


def _keys(name: str, *, until: str | None = None) -> str:
    """The key file *name*, or its lines up to the first one containing *until* (without the
    header's final_scores: a game cut short ends on other scores)."""
    text = (KEYS / name).read_text()
    if until is None:
        return text
    lines = text.splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if until in line)
    return "".join(line for line in lines[: cut + 1] if not line.startswith("# final_scores:"))


def _scores(state: dict[str, Any]) -> list[int]:
    return [side["score"] for side in state["sides"]]


def _deal_by_engine(
    rules: Rules,
    dealer: int,
    hands: Sequence[str],
    crib: str,
    starter: str,
    plays: str,
) -> list[int]:
    """The points each seat makes in one deal, from the engine's own play and show scorers
    on concrete cards: the oracle for a deal entered rank by rank on the keypad."""
    start = Card.parse(starter)
    held = [parse_cards(hand) for hand in hands]
    points = [0] * rules.players
    points[dealer] += score_heels(start).total
    play = PlayState.start(rules, dealer, hands=held)
    for action in plays.split():
        play, scores = play.go() if action == "go" else play.play(Card.parse(action))
        for score in scores:
            points[score.seat] += score.points
    assert play.is_over, "the oracle's play must be complete"
    for seat, hand in enumerate(held):
        points[seat] += score_hand(hand, start).total
    points[dealer] += score_crib(parse_cards(crib), start).total
    return points


# deal 1 of six-card-lurch.keys with suits that make no flush and no nobs (Bob, seat 1, deals)
SIX_DEAL_1 = _deal_by_engine(
    Rules.six_card(),
    1,
    ["7C 8D 9H KS", "5H 6C 6D 10S"],
    "2C 3D JH QS",
    "4S",
    "9H 10S KS go go 6C 7C 5H 8D go 6D",
)
# deal 2 (Ann deals): Bob's 2 3 4 J is a hand flush, the crib's jack is the starter's suit
SIX_DEAL_2 = _deal_by_engine(
    Rules.six_card(),
    0,
    ["5C 5D 10S QH", "2S 3S 4S JS"],
    "6C 7D 8S JH",
    "5H",
    "4S 5C 3S 5D 2S 10S go go JS QH",
)


def test_the_engine_oracle_agrees_with_the_counts_in_the_key_file() -> None:
    # Ann 1 + 4 + 1 (play) + 5 (hand); Bob 3 + 1 (play) + 14 (hand) + 7 (crib)
    assert SIX_DEAL_1 == [11, 25]
    # Ann 1 + 1 (play) + 20 (hand) + 9 (crib); Bob 3 (play) + 12 (hand)
    assert SIX_DEAL_2 == [31, 15]


@pytest.mark.parametrize(
    ("until", "scores"),
    [
        pytest.param("-- end of deal 1 --", SIX_DEAL_1, id="deal-1-starter-4"),
        pytest.param(
            "-- end of deal 2 --",
            [a + b for a, b in zip(SIX_DEAL_1, SIX_DEAL_2, strict=True)],
            id="deal-2-starter-5",
        ),
    ],
)
def test_six_card_deals_counted_on_the_keypad_peg_the_engines_scores(
    tmp_path: Path, until: str, scores: list[int]
) -> None:
    state = _play(tmp_path, SIX_CARD, _keys("six-card-lurch.keys", until=until))
    assert state["phase"] == "starter"  # the next deal waits for its starter
    assert _scores(state) == scores
    assert state["dealer_name"] == ("Ann" if until.endswith("1 --") else "Bob")


def test_a_six_card_game_to_a_lurch_win_through_the_command_line(tmp_path: Path) -> None:
    config = tmp_path / "pegboard.toml"
    config.write_text(_config_text(tmp_path, SIX_CARD))
    out = tmp_path / "out"
    command = [sys.executable, "-m", "pegboard", "run", "--simulate", "--headless"]
    command += ["--config", str(config), "--keys", str(KEYS / "six-card-lurch.keys")]
    command += ["--out", str(out)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=100)
    assert done.returncode == 0, done.stderr
    state = json.loads((out / "state.json").read_text())
    assert state["phase"] == "game over"
    assert _scores(state) == [121, 73]  # 42 + 3 + 20 + 4 + 24 + 28; 40 + 2 + 8 + 15 + 2 + 6
    assert state["winner_name"] == "Ann"
    assert [side["lurch"] for side in state["sides"]] == ["none", "lurched"]
    assert state["game_points"] == 2
    assert state["match"]["game_points"] == [2, 0]
    bob = state["sides"][1]
    assert (bob["front"], bob["rear"]) == (73, 67)
    leds = json.loads((out / "leds.json").read_text())
    track = [sum(c) for c in leds["tracks"][1]["leds"]]
    # both of Bob's pegs in his colour, the brightest LEDs of his track: the front one ahead
    assert [i for i, light in enumerate(track) if light == max(track)] == [67, 73]
    with Image.open(out / "oled.png") as oled:
        assert oled.size == (128, 64) and oled.getbbox() is not None


@pytest.mark.parametrize(
    ("before", "refused"),
    [
        pytest.param("Ann lays 8", "Bob tries his 6", id="6-on-26-over-31"),
        pytest.param("a slip, a 5", "there is no fifth 5", id="fifth-5-in-the-crib"),
    ],
)
def test_a_refused_entry_leaves_the_game_unchanged(
    tmp_path: Path, before: str, refused: str
) -> None:
    prefix = _keys("six-card-lurch.keys", until=before)
    with_refusal = _keys("six-card-lurch.keys", until=refused)
    assert len(with_refusal.splitlines()) == len(prefix.splitlines()) + 1  # one key between
    state_before = _play(tmp_path / "a", SIX_CARD, prefix)
    state_after = _play(tmp_path / "b", SIX_CARD, with_refusal)
    assert state_after == state_before
    with Image.open(tmp_path / "a/out/oled.png") as a, Image.open(tmp_path / "b/out/oled.png") as b:
        assert a.tobytes() != b.tobytes()  # the refusal is on the screen


def test_a_three_handed_deal_counted_on_the_keypad(tmp_path: Path) -> None:
    state = _play(tmp_path, THREE_HANDED, _keys("three-handed-deal.keys"))
    # Bob (seat 1) deals; Cy leads; seats Ann, Bob, Cy
    expected = _deal_by_engine(
        Rules.three_handed(),
        1,
        ["2C 7D 9H QS", "8H 8C 10D AS", "3H 4C 5D KH"],
        "JD QC 4H 5S",
        "6D",
        "KH QS 10D go go AS 3H 2C 8H 4C 7D go 5D go 9H 8C",
    )
    assert expected == [4, 19, 9]  # Ann: hand 4; Bob: 31 2, last 1, hand 6, crib 10; Cy: go 1, 8
    assert state["phase"] == "starter" and state["deal"] == 2
    assert state["dealer_name"] == "Cy"  # the deal moved one seat to the left
    assert _scores(state) == expected
    leds = json.loads((tmp_path / "out" / "leds.json").read_text())
    assert len(leds["tracks"]) == 3


def test_a_five_card_game_with_three_for_last_and_one_series(tmp_path: Path) -> None:
    keys = _keys("five-card-game.keys")
    deal_1 = _deal_by_engine(
        Rules.five_card(),
        0,
        ["QC 5D 6H", "KH 10D 5C"],
        "4H 4D 7C 8S",
        "5S",
        "KH QC 10D go go",  # one series; 5 6 and 5 stay in hand
    )
    assert deal_1 == [12, 11]  # Ann: hand 6, crib 6; Bob: go 1, hand 10
    after_1 = _play(
        tmp_path / "one", FIVE_CARD, _keys("five-card-game.keys", until="end of deal 1")
    )
    assert _scores(after_1) == [deal_1[0], 3 + deal_1[1]]  # Bob's three for last
    state = _play(tmp_path / "game", FIVE_CARD, keys)
    assert state["target"] == 61
    assert state["phase"] == "match over"  # a single game
    assert _scores(state) == [60, 61]
    assert state["winner_name"] == "Bob"
    assert [side["lurch"] for side in state["sides"]] == ["none", "none"]  # Ann passed 45
    assert state["game_points"] == 1


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
    data = leds_to_dict(config.leds.layout, {"board": strip})
    assert data["tracks"][0]["leds"][0] == [0, 0, 0]
    assert data["tracks"][1]["leds"][0] == [243, 0, 0]  # the second track runs back down


def test_gif_keeps_each_distinct_frame_once(tmp_path: Path) -> None:
    a, b = Image.new("1", (8, 4)), Image.new("1", (8, 4), 1)
    assert write_gif(tmp_path / "s.gif", [a, a, b, b, a]) == 3
    with Image.open(tmp_path / "s.gif") as gif:
        assert gif.n_frames == 3 and gif.size == (16, 8)


class _FakeTerminal(io.StringIO):
    """What run_terminal writes; *seen* is set once *wanted* has been written."""

    def __init__(self, wanted: str) -> None:
        super().__init__()
        self.wanted = wanted
        self.seen = threading.Event()

    def write(self, text: str) -> int:
        written = super().write(text)
        if self.wanted in re.sub(r"\x1b\[[0-9;]*m", "", text):
            self.seen.set()
        return written


def test_the_terminal_simulator_plays_keys_from_a_pipe_and_restores_the_screen(
    tmp_path: Path,
) -> None:
    config = parse_config(_config_text(tmp_path, SIX_CARD))
    read_end, write_end = os.pipe()
    out = _FakeTerminal(" 2 ●·●")  # Bob's track: rear peg at 0, front peg at 2 (fifteen 2)
    stop = threading.Event()
    result: list[Any] = []
    with os.fdopen(read_end) as keys_in:
        runner = threading.Thread(
            target=lambda: result.append(
                run_terminal(config, out, keys_in=keys_in, stop=stop, install_signals=False)
            )
        )
        runner.start()
        os.write(write_end, b"534\n96")  # cut 5 3; starter 4; Enter (a go) refused; 9, 6
        os.close(write_end)
        try:
            assert out.seen.wait(timeout=30)
        finally:
            stop.set()
            runner.join(timeout=60)
    view = result[0].view
    assert (view.phase.value, view.count, view.dealer_name) == ("play", 15, "Bob")
    assert [side["score"] for side in view.to_dict()["sides"]] == [0, 2]
    text = out.getvalue()
    assert text.startswith("\x1b[?1049h\x1b[?25l")  # the alternate screen, cursor hidden ...
    assert text.endswith("\x1b[?25h\x1b[?1049l")  # ... both given back on the way out
    last = text.rsplit("\x1b[H", 1)[1]
    assert "┌" + "─" * 128 + "┐" in last  # the framed OLED, one column per pixel
    assert "█" in last and "keypad # (enter)" in last and "Ctrl-C" in last
