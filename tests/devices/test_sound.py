"""The voice: eSpeak NG into WAV files (no sound card in CI) and into ALSA's ``aplay``, checked
with sox."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pegboard.devices.sound import AlsaSink, Voice, WavSink
from pegboard.errors import HardwareError
from tests.audio import assert_speech, sox_stat

pytestmark = pytest.mark.timeout(120)


def test_assert_speech_fails_on_silence_and_on_a_wrong_length(tmp_path: Path) -> None:
    silent = tmp_path / "silent.wav"
    subprocess.run(
        ["sox", "-n", "-r", "22050", "-b", "16", str(silent), "trim", "0", "1"], check=True
    )
    with pytest.raises(AssertionError, match="silent"):
        assert_speech(silent, shortest=0.5, longest=2)
    with pytest.raises(AssertionError, match=r"1\.00 s of audio"):
        assert_speech(silent, shortest=2, longest=3)


def test_each_utterance_is_a_wav_of_speech_in_its_voice(tmp_path: Path) -> None:
    sink = WavSink(tmp_path)
    voice = Voice(sink)
    voice.say("fifteen 2, fifteen 4, and a pair is 6")
    voice.wait()
    voice.say("Fünfzehn – zwei, fünfzehn – vier und ein Paar macht sechs", "de")
    voice.wait()
    voice.say("Ann, 3")
    voice.wait()
    en, de, short = sink.recordings
    assert (en.voice, de.voice, short.voice) == ("en", "de", "en")
    # about six words a second at 175 words a minute, and a little silence around them
    en_length = assert_speech(en.path, shortest=2.0, longest=5.0)
    de_length = assert_speech(de.path, shortest=2.0, longest=6.0)
    assert assert_speech(short.path, shortest=0.4, longest=1.6) < en_length / 2
    assert de_length > en_length  # the German words are longer
    for recording in sink.recordings:
        assert recording.first_sound is not None and recording.first_sound >= recording.started


def test_new_words_cut_the_old_ones_short(tmp_path: Path) -> None:
    sink = WavSink(tmp_path, paced=True)  # heard no faster than a sound card plays it
    voice = Voice(sink)
    voice.say("fifteen 2, fifteen 4, fifteen 6, fifteen 8, and a pair is 10")
    voice.say("Ann, 3")
    voice.wait()
    cut, whole = sink.recordings
    assert cut.text.startswith("fifteen 2") and whole.text == "Ann, 3"
    assert sox_stat(cut.path)["Length (seconds)"] < 1.0  # not its 4 seconds
    assert_speech(whole.path, shortest=0.4, longest=1.6)


def test_a_missing_player_is_a_hardware_error_naming_the_package(tmp_path: Path) -> None:
    voice = Voice(AlsaSink(program=str(tmp_path / "no-aplay")))
    with pytest.raises(
        HardwareError, match=r"cannot play sound: .*no-aplay.* \(install Debian's alsa-utils\)"
    ):
        voice.say("hello")
    voice = Voice(WavSink(tmp_path), program=str(tmp_path / "no-espeak"))
    with pytest.raises(
        HardwareError, match=r"cannot speak: .*no-espeak.* \(install Debian's espeak-ng\)"
    ):
        voice.say("hello")


def test_alsa_gets_espeaks_wav_on_the_configured_device(tmp_path: Path) -> None:
    player = tmp_path / "aplay"  # stands in for aplay: notes its arguments, keeps the stream
    player.write_text(f'#!/bin/sh\necho "$@" > {tmp_path}/args\ncat > {tmp_path}/heard.wav\n')
    player.chmod(0o755)
    voice = Voice(AlsaSink("plughw:CARD=MAX98357A,DEV=0", program=str(player)))
    voice.say("fifteen 2, fifteen 4, and a pair is 6")
    voice.wait()
    assert (tmp_path / "args").read_text().split() == [
        "-q", "-D", "plughw:CARD=MAX98357A,DEV=0", "-",
    ]  # fmt: skip
    assert_speech(tmp_path / "heard.wav", shortest=2.0, longest=5.0)


def test_a_failing_sound_device_is_said_once(tmp_path: Path) -> None:
    player = tmp_path / "aplay"  # stands in for aplay on a Pi without a sound card
    player.write_text(
        "#!/bin/sh\ncat >/dev/null\n"
        "echo 'aplay: main:831: audio open error: No such file or directory' >&2\nexit 1\n"
    )
    player.chmod(0o755)
    voice = Voice(AlsaSink(program=str(player)))
    voice.say("hello")
    with pytest.raises(
        HardwareError, match="sound device 'default' failed: aplay: main:831: audio open error"
    ):
        voice.wait()
    assert voice.poll() is False  # said once: the utterance is over
