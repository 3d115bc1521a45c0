"""``[sound]``: the board speaks its calls aloud (``table.speaker``, eSpeak NG through ALSA).

Off unless ``enabled``. ``volume`` is eSpeak's amplitude, 0 to 200 (100 normal); ``voice`` an
eSpeak NG voice (``espeak-ng --voices`` lists them: "en-gb", "en-us", "de", "en+f3" for a
higher voice), by default the table's language ("en" or "de"); ``speed`` words a minute, 80
to 450; ``events`` which things are said, any of "count", "play", "peg", "heels", "game" (all
of them unless told); ``device`` the ALSA device ("default"). ``i2s = true`` says an I2S
amplifier (MAX98357A) is wired, which takes GPIO 18, 19 and 21: the config is then refused if
a button or the keypad still uses one of them (the amplifier pin map in ``hardware/README.md``
moves them).

>>> parse_sound(Fields({"enabled": True, "events": ["count", "game"]}, "sound")).events
('count', 'game')
"""

from __future__ import annotations

from pegboard.config.fields import Fields
from pegboard.frozen import frozen
from pegboard.ui.speech import Said

__all__ = ["I2S_PINS", "SoundConfig", "parse_sound"]

I2S_PINS = {18: "BCLK", 19: "LRCLK", 21: "DIN"}
"""The GPIOs an I2S amplifier takes (the PCM block's clock, frame and data out)."""

_EVENTS = tuple(said.value for said in Said)


@frozen
class SoundConfig:
    """``[sound]``: whether and how the board speaks (see the module doc)."""

    enabled: bool = False
    volume: int = 100
    """eSpeak's amplitude: 0 to 200, 100 normal."""
    voice: str = ""
    """An eSpeak NG voice; "" is the table's language ("en" or "de")."""
    speed: int = 175
    """Words a minute."""
    events: tuple[str, ...] = _EVENTS
    """What is said: "count", "play", "peg", "heels", "game"."""
    device: str = "default"
    """The ALSA device ``aplay -D`` plays on."""
    i2s: bool = False
    """An I2S amplifier is wired: GPIO 18, 19 and 21 are its."""

    @property
    def said(self) -> frozenset[Said]:
        """``events`` as ``Said`` values."""
        return frozenset(Said(name) for name in self.events)

    @property
    def pins(self) -> dict[int, str]:
        """The GPIOs the amplifier claims, with what for (none without ``i2s``)."""
        if not self.i2s:
            return {}
        return {pin: f"sound.i2s ({role})" for pin, role in I2S_PINS.items()}


def parse_sound(f: Fields) -> SoundConfig:
    """``[sound]`` read and checked.

    Raises:
        ConfigError: a key that is not known, or a bad value (one line naming the key).
    """
    f.known(("enabled", "volume", "voice", "speed", "events", "device", "i2s"))
    d = SoundConfig()
    events = f.table.get("events", list(d.events))
    if (
        not isinstance(events, list)
        or not events
        or any(event not in _EVENTS for event in events)
        or len(set(events)) != len(events)
    ):
        raise f.error("events", f"a list of some of {', '.join(map(repr, _EVENTS))}", events)
    voice = f.table.get("voice", d.voice)
    if not isinstance(voice, str) or not all(c.isalnum() or c in "-_+" for c in voice):
        raise f.error(
            "voice", "an eSpeak NG voice like 'en-gb' or 'de' (espeak-ng --voices)", voice
        )
    return SoundConfig(
        enabled=f.flag("enabled", d.enabled),
        volume=f.whole("volume", d.volume, low=0, high=200),
        voice=voice,
        speed=f.whole("speed", d.speed, low=80, high=450),
        events=tuple(events),
        device=f.string("device", d.device),
        i2s=f.flag("i2s", d.i2s),
    )
