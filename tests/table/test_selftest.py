"""``pegboard selftest``: the service it stops and starts, and what it counts as a failure.

systemctl is never run here: the tests pass a fake runner that answers as systemctl would and
records what it was asked, in order with the opening of the hardware.
"""

from __future__ import annotations

import io
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.pins.mock import MockFactory

from pegboard.cli.main import main as pegboard_main
from pegboard.config.settings import Config, parse_config
from pegboard.devices.leds import RecordingStrip
from pegboard.devices.oled import RecordingDisplay
from pegboard.devices.ports import LedStrip
from pegboard.table.keyscript import ScriptedKeys
from pegboard.table.selftest import ServicePause, run_command, run_selftest
from pegboard.table.wiring import Ports

IS_ACTIVE = ("systemctl", "is-active", "--quiet", "pegboard")
STOP = ("systemctl", "--no-ask-password", "stop", "pegboard")
START = ("systemctl", "--no-ask-password", "start", "pegboard")


class FakeSystemctl:
    """Answers systemctl's questions from *answers* (argv -> status, message; 0 otherwise) and
    logs every call, and every opening of the hardware, in ``calls``."""

    def __init__(self, answers: dict[tuple[str, ...], tuple[int, str]] | None = None) -> None:
        self.answers = answers or {}
        self.calls: list[tuple[str, ...]] = []

    def __call__(self, argv: Sequence[str]) -> tuple[int, str]:
        self.calls.append(tuple(argv))
        return self.answers.get(tuple(argv), (0, ""))

    def open_hardware(self, ports: Ports) -> Callable[[Config], Ports]:
        def open_ports(config: Config) -> Ports:
            self.calls.append(("open the hardware",))
            return ports

        return open_ports


def good_ports(unavailable: dict[str, str] | None = None) -> Ports:
    """A display and a strip that work, a key source that opens (nobody presses it), and
    *unavailable* ones that did not open."""
    strips: dict[str, LedStrip] = {"board": RecordingStrip(4, name="board")}
    return Ports(RecordingDisplay(), strips, [ScriptedKeys(())], unavailable or {})


def selftest(systemctl: FakeSystemctl, ports: Ports | None = None) -> tuple[int, str]:
    out = io.StringIO()
    status = run_selftest(
        parse_config(""),
        out,
        seconds=0,
        sleep=lambda s: None,
        run=systemctl,
        open_hardware=systemctl.open_hardware(ports or good_ports()),
    )
    return status, out.getvalue()


def test_a_running_service_is_stopped_before_the_hardware_opens_and_started_after() -> None:
    systemctl = FakeSystemctl()  # is-active says 0: running
    status, out = selftest(systemctl)
    assert status == 0
    assert systemctl.calls == [IS_ACTIVE, STOP, ("open the hardware",), START]
    assert out.splitlines()[:2] == [
        "the pegboard service is running and holds the GPIO, I2C and SPI devices: stopping it "
        "for the selftest (systemctl stop pegboard)",
        "pegboard service stopped; it starts again when the selftest ends",
    ]
    assert out.splitlines()[-2:] == [
        "0 key presses; all ok",
        "starting the pegboard service again (systemctl start pegboard)",
    ]


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param((3, ""), id="inactive"),
        pytest.param((4, ""), id="no-such-unit"),
        pytest.param((127, "systemctl: command not found"), id="no-systemctl"),
        pytest.param((1, "System has not been booted with systemd"), id="no-systemd"),
    ],
)
def test_a_service_that_is_not_running_is_left_alone(answer: tuple[int, str]) -> None:
    systemctl = FakeSystemctl({IS_ACTIVE: answer})
    status, out = selftest(systemctl)
    assert status == 0
    assert systemctl.calls == [IS_ACTIVE, ("open the hardware",)]
    assert "service" not in out


def test_without_permission_to_stop_it_the_selftest_says_how_and_touches_nothing() -> None:
    systemctl = FakeSystemctl({STOP: (1, "Failed to stop pegboard.service: Access denied")})
    status, out = selftest(systemctl)
    assert status == 1
    assert systemctl.calls == [IS_ACTIVE, STOP]  # no hardware opened, nothing to start again
    assert out.splitlines()[1:] == [
        "could not stop the pegboard service: Failed to stop pegboard.service: Access denied",
        "stop it with `sudo systemctl stop pegboard` (or run `sudo pegboard selftest`), then run "
        "the selftest again",
    ]


def test_a_service_that_will_not_start_again_fails_the_selftest_and_says_how() -> None:
    systemctl = FakeSystemctl({START: (1, "Job for pegboard.service failed.")})
    status, out = selftest(systemctl)
    assert status == 1
    assert out.splitlines()[-2:] == [
        "could not start the pegboard service again: Job for pegboard.service failed.",
        "start it with `sudo systemctl start pegboard`",
    ]


@pytest.mark.parametrize("error", [RuntimeError("a bug"), KeyboardInterrupt()], ids=repr)
def test_the_service_starts_again_when_the_selftest_is_interrupted(error: BaseException) -> None:
    systemctl = FakeSystemctl()

    def broken(config: Config) -> Ports:
        raise error

    with pytest.raises(type(error)):
        run_selftest(parse_config(""), io.StringIO(), run=systemctl, open_hardware=broken)
    assert systemctl.calls == [IS_ACTIVE, STOP, START]


def test_a_key_source_that_did_not_open_is_a_failure() -> None:
    why = "cannot use GPIO26 for button 'ok': GPIO busy"
    status, out = selftest(
        FakeSystemctl({IS_ACTIVE: (3, "")}), good_ports(unavailable={"buttons": why})
    )
    assert status == 1
    assert f"keys buttons: FAILED: {why}" in out.splitlines()
    assert out.splitlines()[-1] == "0 key presses; 1 FAILED"


def test_a_gpio_pin_in_use_makes_the_buttons_unavailable_and_the_selftest_fail(
    mock_pins: MockFactory,
) -> None:
    held = DigitalInputDevice(26)  # someone else has the ok button's pin
    config = parse_config(
        "[display]\nenabled = false\n[keypad]\nenabled = false\n"
        '[[leds.strips]]\nname = "board"\nkind = "sim"\ncount = 4\n'
        "[[leds.tracks]]\nfirst = 0\nlength = 2\n[[leds.tracks]]\nfirst = 2\nlength = 2\n"
    )
    out = io.StringIO()
    try:
        status = run_selftest(config, out, seconds=0, run=FakeSystemctl({IS_ACTIVE: (3, "")}))
    finally:
        held.close()
    assert status == 1
    failed = [line for line in out.getvalue().splitlines() if "FAILED" in line]
    assert failed[0].startswith("keys buttons: FAILED: cannot use GPIO26 for button 'ok'")
    assert failed[-1] == "0 key presses; 1 FAILED"


def test_the_simulated_selftest_never_asks_systemctl(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_commands(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"ran a command: {args}")

    monkeypatch.setattr(subprocess, "run", no_commands)
    config = tmp_path / "config.toml"
    config.write_text("")
    argv = ["selftest", "--simulate", "--seconds", "0", "--config", str(config)]
    assert pegboard_main(argv) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "0 key presses; all ok"


def test_the_pause_does_nothing_to_start_when_it_stopped_nothing() -> None:
    systemctl = FakeSystemctl({IS_ACTIVE: (3, "")})
    pause = ServicePause(io.StringIO(), systemctl)
    assert pause.stop() and not pause.stopped
    assert pause.restart()
    assert systemctl.calls == [IS_ACTIVE]


def test_run_command_gives_the_status_and_what_the_command_said() -> None:
    script = "import sys; sys.stderr.write('Access denied\\n'); sys.exit(4)"
    assert run_command([sys.executable, "-c", script]) == (4, "Access denied")
    assert run_command(["/nonexistent/systemctl", "stop"]) == (
        127,
        "/nonexistent/systemctl: command not found",
    )


@pytest.mark.parametrize(
    ("unavailable", "said", "last"),
    [
        pytest.param(
            {},
            "keys: FAILED: nothing to press: no key source (none is enabled; see [buttons], "
            "[keypad] and [usb_keypad] in the config)",
            "0 key presses; 1 FAILED",
            id="none-enabled",
        ),
        pytest.param(
            {"keypad": "no GPIO"},
            "keys: nothing to press: no key source (none opened; see [buttons], [keypad] and "
            "[usb_keypad] in the config)",
            "0 key presses; 1 FAILED",
            id="none-opened",
        ),
    ],
)
def test_with_no_key_source_the_selftest_says_there_is_nothing_to_press_at_once(
    unavailable: dict[str, str], said: str, last: str
) -> None:
    """No key source: no 60 s wait for a key that cannot come (a hang guard of 30 s: the
    wait it replaces is 60 s), and the reason said."""
    systemctl = FakeSystemctl({IS_ACTIVE: (3, "")})
    strips: dict[str, LedStrip] = {"board": RecordingStrip(4, name="board")}
    ports = Ports(RecordingDisplay(), strips, [], unavailable)
    out = io.StringIO()
    started = time.monotonic()
    status = run_selftest(
        parse_config(""),
        out,
        seconds=60,
        sleep=lambda s: None,
        run=systemctl,
        open_hardware=systemctl.open_hardware(ports),
    )
    assert time.monotonic() - started < 30
    lines = out.getvalue().splitlines()
    assert status == 1
    assert said in lines
    assert not any(line.startswith("press keys") for line in lines)
    assert lines[-1] == last


def test_the_selftest_says_the_default_colours_are_ok() -> None:
    status, out = selftest(FakeSystemctl())
    assert status == 0
    assert (
        "LED colours: every pair side by side at least 30 apart for every eye at brightness 0.5: ok"
    ) in out


def test_the_selftest_warns_of_configured_colours_too_close_for_some_eyes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        "[[leds.strips]]\nname = 'board'\nkind = 'sim'\ncount = 244\n"
        "[[leds.tracks]]\nfirst = 0\nlength = 122\ncolor = [255, 0, 0]\n"
        "[[leds.tracks]]\nfirst = 243\ndirection = -1\nlength = 122\ncolor = [0, 255, 0]\n"
    )
    argv = ["selftest", "--simulate", "--seconds", "0", "--config", str(config)]
    assert pegboard_main(argv) == 0  # a warning, not a failure: the board works
    warnings = [line for line in capsys.readouterr().out.splitlines() if "WARNING" in line]
    assert warnings == [
        "LED colours: WARNING: the dealer's mark and side 1's front peg are only 20.2 apart for"
        " protanopia at brightness 0.5 (CAM02-UCS; 30 tells them apart at a glance): choose"
        " colours further apart in [leds]"
    ]


def test_the_selftest_warns_of_a_configured_brightness_too_dim_for_the_colours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dimmer is closer: the default colours keep 30 apart from brightness 0.45 up."""
    config = tmp_path / "config.toml"
    config.write_text("[leds]\nbrightness = 0.3\n")
    argv = ["selftest", "--simulate", "--seconds", "0", "--config", str(config)]
    assert pegboard_main(argv) == 0
    warnings = [line for line in capsys.readouterr().out.splitlines() if "WARNING" in line]
    assert warnings == [
        "LED colours: WARNING: the dealer's mark and the street mark are only 25.5 apart for"
        " deuteranopia at brightness 0.3 (CAM02-UCS; 30 tells them apart at a glance): set"
        " leds.brightness to 0.45 or more, or choose colours further apart in [leds]"
    ]


# -- the sound ------------------------------------------------------------------------------

SOUND = "[sound]\nenabled = true\n"


def test_with_sound_the_selftest_says_its_test_words_into_the_sink(tmp_path: Path) -> None:
    from pegboard.devices.sound import WavSink
    from tests.audio import assert_speech

    out, sink = io.StringIO(), WavSink(tmp_path)
    status = run_selftest(parse_config(SOUND), out, simulate=True, seconds=0, sound=sink)
    assert status == 0
    assert "sound: saying 'pegboard sound test: fifteen two, fifteen four' on a WAV file\n" in (
        out.getvalue()
    )
    assert "sound: test words said: ok (heard them?)\n" in out.getvalue()
    (said,) = sink.recordings
    assert said.voice == "en"
    assert_speech(said.path, shortest=1.5, longest=5)
    german = run_selftest(
        parse_config(SOUND + '[game]\nlanguage = "de"\n'), io.StringIO(), simulate=True,
        seconds=0, sound=sink,
    )  # fmt: skip
    assert german == 0 and sink.recordings[1].voice == "de"
    assert sink.recordings[1].text == "pegboard Tontest: fünfzehn zwei, fünfzehn vier"


def test_a_sound_device_that_fails_fails_the_selftest(tmp_path: Path) -> None:
    from pegboard.devices.sound import AlsaSink

    player = tmp_path / "aplay"  # aplay on a Pi whose amplifier's overlay is missing
    player.write_text(
        "#!/bin/sh\ncat >/dev/null\necho 'aplay: main:831: audio open error: No such file or "
        "directory' >&2\nexit 1\n"
    )
    player.chmod(0o755)
    out = io.StringIO()
    status = run_selftest(
        parse_config(SOUND), out, seconds=0, sleep=lambda s: None, run=FakeSystemctl(),
        open_hardware=FakeSystemctl().open_hardware(good_ports()),
        sound=AlsaSink(program=str(player)),
    )  # fmt: skip
    assert status == 1
    assert (
        "sound: FAILED: sound device 'default' failed: aplay: main:831: audio open error: "
        "No such file or directory\n"
    ) in out.getvalue()
    assert "0 key presses; 1 FAILED\n" in out.getvalue()


def test_without_sound_the_selftest_says_it_is_disabled() -> None:
    out = io.StringIO()
    assert run_selftest(parse_config(""), out, simulate=True, seconds=0) == 0
    assert "sound: disabled in the config\n" in out.getvalue()
