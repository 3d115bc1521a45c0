"""``[sound]``: the board's voice, read and checked; the amplifier's pins against the others."""

from __future__ import annotations

import pytest

from pegboard.config.settings import parse_config
from pegboard.config.sound import SoundConfig
from pegboard.errors import ConfigError
from pegboard.ui.speech import Said


def test_sound_is_off_unless_enabled_and_says_everything_by_default() -> None:
    sound = parse_config("").sound
    assert sound == SoundConfig() and not sound.enabled
    assert sound.said == frozenset(Said) and sound.pins == {}


def test_every_key_is_read() -> None:
    sound = parse_config(
        '[sound]\nenabled = true\nvolume = 150\nvoice = "en-gb+f3"\nspeed = 160\n'
        'events = ["count", "game"]\ndevice = "hw:1,0"\n'
    ).sound
    assert sound == SoundConfig(True, 150, "en-gb+f3", 160, ("count", "game"), "hw:1,0", False)
    assert sound.said == {Said.COUNT, Said.GAME}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "volume = 201", r"sound\.volume must be a whole number from 0 to 200, got 201"
        ),
        pytest.param("speed = 10", r"sound\.speed must be a whole number from 80 to 450, got 10"),
        pytest.param(
            'events = ["count", "cont"]',
            r"sound\.events must be a list of some of 'count', 'play', 'peg', 'heels', 'game'",
        ),
        pytest.param("events = []", r"sound\.events must be a list of some of"),
        pytest.param('voice = "en; rm"', r"sound\.voice must be an eSpeak NG voice like 'en-gb'"),
        pytest.param("loudness = 3", r"sound\.loudness is not a known key"),
        pytest.param('device = ""', r"sound\.device must be a non-empty string"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(f"[sound]\n{text}\n")


def test_an_i2s_amplifier_takes_gpio_18_19_21_and_the_default_wiring_clashes() -> None:
    with pytest.raises(
        ConfigError, match=r"GPIO19 is used twice, by sound\.i2s \(LRCLK\) and by keypad\.cols\[3\]"
    ):
        parse_config("[sound]\ni2s = true\n[buttons]\nundo = 4\n")
    with pytest.raises(ConfigError, match=r"GPIO21 is used twice, by sound\.i2s \(DIN\)"):
        parse_config("[sound]\ni2s = true\n[keypad]\ncols = [5, 6, 13, 24]\n")
    fits = parse_config(
        "[sound]\ni2s = true\n[buttons]\nundo = 4\n[keypad]\ncols = [5, 6, 13, 24]\n"
    )
    assert fits.sound.pins == {
        18: "sound.i2s (BCLK)",
        19: "sound.i2s (LRCLK)",
        21: "sound.i2s (DIN)",
    }
