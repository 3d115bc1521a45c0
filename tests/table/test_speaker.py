"""The speaker on a real controller: a deal said into WAV files (checked with sox) in English
and German, keys never waiting for the words, new words cutting old ones short, a failing device
said once, and the menu's sound switch."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent
from pegboard.devices.sound import AlsaSink, Voice, WavSink
from pegboard.i18n import Language
from pegboard.journal import Journal
from pegboard.table.controller import Controller
from pegboard.table.speaker import Speaker
from tests.audio import assert_speech, sox_stat

pytestmark = pytest.mark.timeout(180)

# deal 1 of tests/keys/six-card-lurch.keys: Bob deals; Ann 7 8 9 K, Bob 5 6 6 10, crib 2 3 J Q
CUT = "5 3"
DEAL = "4 9 0 C # # 6 7 5 8 # 6 # # 2 3 A B #"
SAID = [
    "Bob, go",
    "Ann, go, one for the go",
    "Bob, a run of 3 for 3",
    "Ann, a run of 4 for 4",
    "Bob, go. Ann, one for the go",
    "Bob, one for last",
    "fifteen 2, and a run of 3 is 5",
    "fifteen 2, fifteen 4, fifteen 6, and a pair is 8, and a double run of 3 is 14",
    "fifteen 2, fifteen 4, and a run of 3 is 7",
]


def press(controller: Controller, keys: str) -> None:
    for key in keys.split():
        controller.handle(KeyEvent(key))


def table(
    store: Journal, speaker: Speaker | None, language: Language = Language.ENGLISH
) -> Controller:
    return Controller(
        store=store,
        names=("Ann", "Bob"),
        language=language,
        clock=FakeClock(),
        on_change=speaker.on_change if speaker is not None else None,
        sound=speaker,
    )


def test_a_deal_is_said_into_wav_files_of_speech(tmp_path: Path) -> None:
    sink = WavSink(tmp_path / "said")
    speaker = Speaker(Voice(sink), cut_short=False)  # a recording: every word in full
    speaker.start()
    with Journal(tmp_path / "p.db") as store:
        press(table(store, speaker), f"{CUT} {DEAL}")
        assert speaker.wait_idle()
    speaker.close()
    assert list(speaker.spoken) == SAID
    assert [r.text for r in sink.recordings] == SAID
    for recording in sink.recordings:
        # eSpeak at 175 words a minute: about 13 characters a second, a little silence around
        chars = len(recording.text)
        assert_speech(recording.path, shortest=chars / 30, longest=chars / 8 + 0.5)
        assert recording.voice == "en"


def test_in_german_the_deal_is_said_in_the_german_documents_words(tmp_path: Path) -> None:
    sink = WavSink(tmp_path / "said")
    speaker = Speaker(Voice(sink, voice="de"), Language.GERMAN, cut_short=False)
    speaker.start()
    with Journal(tmp_path / "p.db") as store:
        press(table(store, speaker, Language.GERMAN), f"{CUT} {DEAL}")
        assert speaker.wait_idle()
    speaker.close()
    assert list(speaker.spoken)[:2] == ["Bob, Passe", "Ann, Passe, einen fürs Passen"]
    assert list(speaker.spoken)[6] == "Fünfzehn – zwei und eine Dreierfolge macht fünf"
    assert len(speaker.spoken) == len(SAID)
    for recording in sink.recordings:
        assert recording.voice == "de"
        assert_speech(
            recording.path, shortest=len(recording.text) / 30, longest=len(recording.text) / 6
        )


class HeldVoice(Voice):
    """A voice whose ``say`` waits until the test lets it go (a device that hangs)."""

    def __init__(self) -> None:
        super().__init__(_Nowhere())
        self.release = threading.Event()
        self.saying = threading.Event()
        self.said: list[str] = []

    def say(self, text: str, voice: str | None = None) -> None:
        self.saying.set()
        self.release.wait(timeout=60)
        self.said.append(text)

    def poll(self) -> bool:
        return False

    def stop(self) -> None:
        pass


class _Nowhere:
    def play(self, audio, text, voice):  # type: ignore[no-untyped-def]
        raise AssertionError("never played")


def test_a_key_is_handled_at_once_while_the_voice_is_busy(tmp_path: Path) -> None:
    voice = HeldVoice()
    speaker = Speaker(voice)
    speaker.start()
    with Journal(tmp_path / "p.db") as store:
        controller = table(store, speaker)
        press(controller, CUT + " 4 9 0 C #")  # Bob's go: the speaker takes its words...
        assert voice.saying.wait(timeout=60)  # ... and hangs on them
        press(controller, "#")  # Ann's go and her point
        before = controller.view.count
        assert before == 0
        press(controller, "6")  # Bob leads a 6 while the words hang
        assert (before, controller.view.count) == (0, 6)  # the key is done, the voice still held
        assert not voice.said
        press(controller, "7 5")  # Bob's run of 3 piles up behind the held words
        voice.release.set()
        assert speaker.wait_idle()
    speaker.close()
    # what piled up is said as its newest words only: Ann's go is old news by then
    assert voice.said == ["Bob, go", "Bob, a run of 3 for 3"]


def test_new_words_cut_the_ones_being_said_short(tmp_path: Path) -> None:
    whole = WavSink(tmp_path / "whole")
    voice = Voice(whole)
    voice.say(SAID[-2])  # Bob's hand, said in full: how long its words take
    voice.wait()
    full = sox_stat(whole.recordings[0].path)["Length (seconds)"]
    sink = WavSink(tmp_path / "said", paced=True)  # heard no faster than a card plays it
    speaker = Speaker(Voice(sink))
    speaker.start()
    with Journal(tmp_path / "p.db") as store:
        controller = table(store, speaker)
        press(controller, CUT + " 4 9 0 C # # 6 7 5 8 # 6 # #")  # ... Bob's hand: 14, long
        while SAID[-2] not in speaker.spoken:  # the hand's words have begun (a hang guard
            pass  # stops this test if they never do)
        press(controller, "2 3 A B #")  # the crib, as the hand is being said
        assert speaker.wait_idle()
    speaker.close()
    hand, crib = sink.recordings[-2:]
    assert hand.text == SAID[-2] and crib.text == SAID[-1]
    assert sox_stat(hand.path)["Length (seconds)"] < full - 1.0  # cut: not its 5 seconds
    assert_speech(crib.path, shortest=1.0, longest=5.0)  # the crib's words in full


def test_a_failing_sound_device_is_logged_once_and_the_game_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    player = tmp_path / "aplay"
    player.write_text(
        "#!/bin/sh\ncat >/dev/null\necho 'aplay: audio open error: No such device' >&2\nexit 1\n"
    )
    player.chmod(0o755)
    speaker = Speaker(Voice(AlsaSink(program=str(player))), cut_short=False)
    speaker.start()
    with caplog.at_level(logging.WARNING), Journal(tmp_path / "p.db") as store:
        controller = table(store, speaker)
        press(controller, f"{CUT} {DEAL}")
        assert speaker.wait_idle()
        assert [s.score for s in controller.view.sides] == [11, 25]
    speaker.close()
    warnings = [r.getMessage() for r in caplog.records if r.name == "pegboard.table.speaker"]
    assert warnings == [
        "sound: sound device 'default' failed: aplay: audio open error: No such device; "
        "the board goes on without speech"
    ]
    assert len(speaker.spoken) == len(SAID)  # it kept trying, silently


def test_ok_held_twice_turns_the_sound_off_and_on(tmp_path: Path) -> None:
    sink = WavSink(tmp_path / "said")
    speaker = Speaker(Voice(sink), cut_short=False)
    speaker.start()
    held = KeyEvent("ok", KeyAction.LONG_PRESS)
    with Journal(tmp_path / "p.db") as store:
        controller = table(store, speaker)
        press(controller, CUT + " 4 9 0 C")
        controller.handle(held)  # the menu
        assert controller.entry.menu[-1] == ("ok held: sound", None)
        controller.handle(held)  # held again: sound off
        assert controller.last_error == "sound off" and speaker.muted
        press(controller, "# #")  # Ann's go: not said
        controller.handle(held)
        controller.handle(held)
        assert controller.last_error == "sound on" and not speaker.muted
        press(controller, "6 7 5")  # said again
        assert speaker.wait_idle()
        controller.handle(held)
        controller.handle(held)
        assert controller.last_error == "sound off"
        press(controller, "8")
        assert speaker.wait_idle()
    speaker.close()
    assert list(speaker.spoken) == ["Bob, a run of 3 for 3"]
    with Journal(tmp_path / "q.db") as store:
        controller = table(store, None)
        controller.handle(held)
        assert controller.entry.menu  # the menu, without the sound's line
        assert ("ok held: sound", None) not in controller.entry.menu
        controller.handle(held)  # held again: the menu only closes, as it always did
        assert controller.last_error == "" and not controller.entry.menu


def test_sound_off_from_the_menu_stops_the_words_being_said_at_once(tmp_path: Path) -> None:
    whole = WavSink(tmp_path / "whole")
    voice = Voice(whole)
    voice.say(SAID[-2])  # Bob's hand, said in full: how long its words take
    voice.wait()
    full = sox_stat(whole.recordings[0].path)["Length (seconds)"]
    sink = WavSink(tmp_path / "said", paced=True)  # heard no faster than a card plays it
    speaker = Speaker(Voice(sink))
    speaker.start()
    held = KeyEvent("ok", KeyAction.LONG_PRESS)
    with Journal(tmp_path / "p.db") as store:
        controller = table(store, speaker)
        press(controller, CUT + " 4 9 0 C # # 6 7 5 8 # 6 # #")  # ... Bob's hand: 14, long
        while SAID[-2] not in speaker.spoken:  # the hand's words have begun (a hang guard
            pass  # stops this test if they never do)
        controller.handle(held)  # the menu
        controller.handle(held)  # held again: sound off, as the hand is being said
        assert controller.last_error == "sound off"
        assert speaker.wait_idle()
    speaker.close()
    hand = sink.recordings[-1]
    assert hand.text == SAID[-2]
    assert sox_stat(hand.path)["Length (seconds)"] < full - 1.0  # stopped: not its 5 seconds


def test_the_daemon_starts_the_speaker_with_sound_on_and_the_menu_turns_it_off(
    tmp_path: Path,
) -> None:
    from pegboard.config.settings import config_from_mapping
    from pegboard.table.daemon import run_daemon
    from pegboard.table.sdnotify import Notifier
    from pegboard.table.wiring import sim_ports, start_speaker

    quiet = config_from_mapping({"game": {"database": str(tmp_path / "q.db")}})
    assert start_speaker(quiet) is None  # no [sound]: no speaker, nothing of it loaded
    config = config_from_mapping(
        {"game": {"database": str(tmp_path / "p.db")}, "sound": {"enabled": True}}
    )
    stop = threading.Event()
    said: list[str] = []

    def on_ready(controller: Controller) -> None:
        held = KeyEvent("ok", KeyAction.LONG_PRESS)
        press(controller, CUT)
        controller.handle(held)
        controller.handle(held)
        said.append(controller.last_error)
        stop.set()

    run_daemon(
        config,
        sim_ports(config),
        notifier=Notifier(env={}),
        stop=stop,
        install_signals=False,
        on_ready=on_ready,
    )
    assert said == ["sound off"]


def test_the_sound_sections_events_voice_and_volume_reach_the_speaker(tmp_path: Path) -> None:
    from pegboard.config.settings import config_from_mapping
    from pegboard.table.wiring import start_speaker

    sinks = {}
    for volume in (100, 25):
        sinks[volume] = sink = WavSink(tmp_path / str(volume))
        sound = {"enabled": True, "events": ["count"], "voice": "en-us", "volume": volume}
        speaker = start_speaker(config_from_mapping({"sound": sound}), sink, cut_short=False)
        assert speaker is not None
        with Journal(tmp_path / f"{volume}.db") as store:
            press(table(store, speaker), f"{CUT} {DEAL}")
            assert speaker.wait_idle()
        speaker.close()
    loud, quiet = sinks[100].recordings, sinks[25].recordings
    assert [r.text for r in loud] == [r.text for r in quiet] == SAID[-3:]  # the counts only
    assert {r.voice for r in loud} == {"en-us"}
    for a, b in zip(loud, quiet, strict=True):
        peak = sox_stat(a.path)["Maximum amplitude"]
        assert sox_stat(b.path)["Maximum amplitude"] < peak / 2


def test_a_bug_in_finding_the_words_is_logged_and_the_speaker_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pegboard.table import speaker as module

    real = module.utterance_of
    broken = {"once": True}

    def utterance_of(*args, **kwargs):  # type: ignore[no-untyped-def]
        if broken.pop("once", False):
            raise KeyError("a bug")
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "utterance_of", utterance_of)
    sink = WavSink(tmp_path / "said")
    speaker = Speaker(Voice(sink), cut_short=False)
    speaker.start()
    with caplog.at_level(logging.ERROR), Journal(tmp_path / "p.db") as store:
        controller = table(store, speaker)
        press(controller, CUT + " 4 9 0 C # # 6 7 5")  # the cut's words raise; the rest speak
        assert speaker.wait_idle()
    speaker.close()
    assert list(speaker.spoken) == SAID[:3]
    errors = [r for r in caplog.records if r.name == "pegboard.table.speaker"]
    assert [r.getMessage() for r in errors] == [
        "sound: could not find the words of a change; saying nothing"
    ]
