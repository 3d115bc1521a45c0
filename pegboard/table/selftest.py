"""``pegboard selftest``: what a maker runs after soldering.

1. The OLED shows a test card: a frame round the edge (every edge pixel row and column must be
   visible), both diagonals, the size and the I2C address.
2. Every LED of every strip lights in turn, dim white, then the strip goes dark, so a dead or
   swapped LED, or a strip wired from the wrong end, shows at once.
3. With ``[sound] enabled``, the board says a few test words (eSpeak NG into the configured
   ALSA device: the I2S amplifier, USB audio); the step fails when the device does (no card,
   no ``aplay`` or ``espeak-ng``). Simulated, the words go to a WAV file instead.
4. Every key and button pressed is echoed, on the OLED and on stdout, for *seconds*; with no
   key source open there is nothing to press, and the test says so at once instead of waiting
   (no key source enabled in the config is a failure: a pegboard needs keys).

Each step reports "ok" or the error and the test goes on: a missing display must not hide a
working strip. A key source the config enables that cannot be opened (a GPIO pin in use, no
permission) is a failure too. The exit status is 0 when every part opened and worked, 1
otherwise.

The running service holds the devices the test needs (the GPIO pins, the I2C bus, the SPI
device), so on a Pi the test first asks systemd whether ``pegboard.service`` is running; if it
is, the test stops it, says so, and starts it again when it ends (Ctrl-C included; the service
resumes the game from its journal). Stopping a service takes root: without it the test says to
run ``sudo systemctl stop pegboard`` (or ``sudo pegboard selftest``) and exits 1 before it
touches any device. ``systemctl`` runs through an injected ``Runner``, so tests never call it.
"""

from __future__ import annotations

import queue
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pegboard.config.settings import Config
from pegboard.devices.ports import Display, KeyEvent
from pegboard.devices.sound import AlsaSink, Sink, Voice, WavSink
from pegboard.errors import HardwareError
from pegboard.i18n import translator
from pegboard.table.speaker import espeak_voice
from pegboard.table.wiring import Ports, open_ports, sim_ports
from pegboard.ui.legibility import MIN_DISTANCE, lowest_brightness, shortfalls

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "SERVICE",
    "Runner",
    "ServicePause",
    "render_test_card",
    "run_command",
    "run_selftest",
]

SWEEP_COLOUR = (64, 64, 64)
"""Dim white: all three channels, well inside any supply's limit for a single LED."""

SERVICE = "pegboard"
"""The systemd unit ``systemd/install.sh`` installs (``pegboard.service``)."""

Runner = Callable[[Sequence[str]], tuple[int, str]]
"""Runs a command line (no shell): its exit status and what it said (127: no such program)."""

COMMAND_TIMEOUT = 90.0
"""Seconds to wait for ``systemctl``: the unit stops within 10 s and starts within 60 s."""


def run_command(argv: Sequence[str]) -> tuple[int, str]:
    """Run *argv* without a shell or a terminal to prompt on; its exit status and message.

    The message is what it wrote on stderr (or stdout), stripped. A program that is not
    installed is status 127, one that does not finish in ``COMMAND_TIMEOUT`` seconds 124, one
    that cannot be run 126, as a shell says.
    """
    try:
        done = subprocess.run(
            list(argv),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
            check=False,
        )
    except FileNotFoundError:
        return 127, f"{argv[0]}: command not found"
    except subprocess.TimeoutExpired:
        return 124, f"{' '.join(argv)}: no answer in {COMMAND_TIMEOUT:g} s"
    except OSError as e:
        return 126, f"{argv[0]}: {e.strerror or e}"
    return done.returncode, (done.stderr.strip() or done.stdout.strip())


class ServicePause:
    """Stops the pegboard service while the selftest uses its devices, then starts it again.

    Every ``systemctl`` call goes through *run* (``run_command``; tests pass a fake) with
    ``--no-ask-password``, so nothing waits for a password; what it does is said on *out*.
    """

    def __init__(self, out: TextIO, run: Runner = run_command, service: str = SERVICE) -> None:
        self._out = out
        self._run = run
        self._service = service
        self.stopped = False
        """True once ``stop`` stopped the service (and ``restart`` has not started it yet)."""

    def stop(self) -> bool:
        """Free the devices: stop the service if it is running.

        Returns:
            True when the devices are free (no systemd, the service not running, or now
            stopped); False when it runs on because it could not be stopped (said on *out*).
        """
        name = self._service
        status, _ = self._run(["systemctl", "is-active", "--quiet", name])
        if status != 0:  # not running, not installed, or no systemd (127: no systemctl)
            return True
        self._say(
            f"the {name} service is running and holds the GPIO, I2C and SPI devices: "
            f"stopping it for the selftest (systemctl stop {name})"
        )
        status, said = self._run(["systemctl", "--no-ask-password", "stop", name])
        if status != 0:
            self._say(
                f"could not stop the {name} service: {said or f'systemctl exit status {status}'}"
            )
            self._say(
                f"stop it with `sudo systemctl stop {name}` (or run `sudo pegboard selftest`), "
                "then run the selftest again"
            )
            return False
        self.stopped = True
        self._say(f"{name} service stopped; it starts again when the selftest ends")
        return True

    def restart(self) -> bool:
        """Start the service again if ``stop`` stopped it.

        Returns:
            False when it could not be started (said on *out*, with the command to run).
        """
        if not self.stopped:
            return True
        name = self._service
        self._say(f"starting the {name} service again (systemctl start {name})")
        status, said = self._run(["systemctl", "--no-ask-password", "start", name])
        if status != 0:
            reason = said or f"systemctl exit status {status}"
            self._say(f"could not start the {name} service again: {reason}")
            self._say(f"start it with `sudo systemctl start {name}`")
            return False
        self.stopped = False
        return True

    def _say(self, line: str) -> None:
        self._out.write(line + "\n")
        self._out.flush()


def render_test_card(size: tuple[int, int], mode: str, lines: list[str]) -> Image:
    """A frame, both diagonals and a few lines of text, for checking a display."""
    from PIL import Image, ImageDraw

    image = Image.new(mode, size)
    draw = ImageDraw.Draw(image)
    ink = 1 if mode == "1" else 255 if mode == "L" else (255, 255, 255)
    w, h = size
    draw.rectangle((0, 0, w - 1, h - 1), outline=ink)
    draw.line((0, 0, w - 1, h - 1), fill=ink)
    draw.line((0, h - 1, w - 1, 0), fill=ink)
    y = 3
    for line in lines:
        box = draw.textbbox((0, 0), line)
        tw, th = int(box[2] - box[0]), int(box[3] - box[1])
        draw.rectangle(((w - tw) // 2 - 2, y - 1, (w + tw) // 2 + 2, y + th + 2), fill=0)
        draw.text(((w - tw) // 2, y), line, fill=ink)
        y += th + 4
    return image


def run_selftest(
    config: Config,
    out: TextIO,
    *,
    simulate: bool = False,
    seconds: float = 60.0,
    keys_file: Path | None = None,
    sleep: Callable[[float], None] = time.sleep,
    sweep_delay: float = 0.02,
    run: Runner = run_command,
    open_hardware: Callable[[Config], Ports] = open_ports,
    sound: Sink | None = None,
) -> int:
    """Test the display, every LED and every key; returns the exit status.

    On real hardware (not *simulate*) a running pegboard service is stopped first and started
    again at the end (``ServicePause`` through *run*); *open_hardware* opens the ports. The
    test words go to *sound* when given, else to ALSA (simulated: to a temporary WAV file).

    Raises:
        KeyScriptError: *keys_file* cannot be read.
    """
    if simulate:
        from pegboard.table.keyscript import ScriptedKeys

        scripted = [ScriptedKeys.from_file(keys_file)] if keys_file is not None else []
        with tempfile.TemporaryDirectory(prefix="pegboard-selftest-") as folder:
            sink = sound if sound is not None else WavSink(Path(folder))
            ports = sim_ports(config, scripted)
            return _test_ports(ports, config, out, seconds, simulate=True, sound=sink)
    pause = ServicePause(out, run)
    if not pause.stop():
        return 1
    try:
        ports = open_hardware(config)
        sink = sound if sound is not None else AlsaSink(config.sound.device)
        status = _test_ports(
            ports, config, out, seconds, sleep=sleep, sweep_delay=sweep_delay, sound=sink
        )
    finally:
        restarted = pause.restart()
    return status if restarted else 1


def _test_ports(
    ports: Ports,
    config: Config,
    out: TextIO,
    seconds: float,
    *,
    simulate: bool = False,
    sleep: Callable[[float], None] = time.sleep,
    sweep_delay: float = 0.0,
    sound: Sink | None = None,
) -> int:
    """The test card, the LED sweep, the test words and the key echo on *ports*; the exit
    status."""
    if simulate:
        sleep, sweep_delay = (lambda s: None), 0.0
    failures = 0
    d = config.display
    where = f"I2C{d.i2c_port} 0x{d.i2c_address:02X}" if d.interface == "i2c" else d.interface
    failures += _show(
        ports.display,
        [f"{d.display} {d.width}x{d.height}", where, "selftest"],
        out,
        "display",
    )
    for name, strip in ports.strips.items():
        dark = [(0, 0, 0)] * strip.length
        try:
            for i in range(strip.length):
                pixels = list(dark)
                pixels[i] = SWEEP_COLOUR
                strip.show(pixels)
                sleep(sweep_delay)
            strip.show(dark)
            out.write(f"LED strip {name!r}: {strip.length} LEDs lit in turn: ok\n")
        except (HardwareError, OSError) as e:
            out.write(f"LED strip {name!r}: FAILED: {e}\n")
            failures += 1
    out.write(colour_check(config) + "\n")
    failures += _say_test_words(config, sound, out)
    for name, why in ports.unavailable.items():  # enabled in the config, but did not open
        out.write(f"keys {name}: FAILED: {why}\n")
        failures += 1
    events: queue.Queue[KeyEvent] = queue.Queue()
    started = []
    for keys in ports.keys:
        try:
            keys.start(events.put)
            started.append(keys)
        except (HardwareError, OSError) as e:
            out.write(f"keys {type(keys).__name__}: FAILED: {e}\n")
            failures += 1
    if not started and not simulate:
        # nothing can be pressed: say so at once rather than wait *seconds* for no key (a
        # source that failed to open is a failure already, said above)
        none_enabled = not ports.keys and not ports.unavailable
        enabled = "none is enabled" if none_enabled else "none opened"
        out.write(
            f"keys: {'FAILED: ' if none_enabled else ''}nothing to press: no key source "
            f"({enabled}; see [buttons], [keypad] and [usb_keypad] in the config)\n"
        )
        failures += none_enabled
        seconds = 0.0
    else:
        out.write(f"press keys and buttons for {seconds:g} s\n")
    out.flush()
    deadline = time.monotonic() + seconds
    count = 0
    while True:
        timeout = deadline - time.monotonic()
        try:
            event = events.get(timeout=max(0.0, timeout)) if not simulate else events.get_nowait()
        except queue.Empty:
            break
        count += 1
        out.write(f"key {event}\n")
        out.flush()
        _show(ports.display, ["key", str(event), f"{count} pressed"], out, None)
    for keys in started:
        keys.close()
    _close(ports, out)
    out.write(f"{count} key presses; {'all ok' if not failures else f'{failures} FAILED'}\n")
    return 0 if not failures else 1


def colour_check(config: Config) -> str:
    """One line on the configured LED colours: ok, or a warning naming the closest pair.

    The colours are measured at the configured brightness (dimmer is closer): a warning says
    from which brightness these colours would keep their distance, if any.
    A warning fails nothing: the board works, but some eyes may mix two colours up.
    """
    layout = config.leds.layout
    short = shortfalls(layout)
    if not short:
        return (
            f"LED colours: every pair side by side at least {MIN_DISTANCE:g} apart"
            f" for every eye at brightness {layout.brightness:g}: ok"
        )
    worst = min(short, key=lambda c: c.distance)
    lowest = lowest_brightness(layout)
    fix = (
        f"set leds.brightness to {lowest:g} or more, or choose colours further apart"
        if lowest is not None
        else "choose colours further apart"
    )
    return (
        f"LED colours: WARNING: {worst.first} and {worst.second} are only {worst.distance:.1f}"
        f" apart for {worst.vision.value} at brightness {layout.brightness:g} (CAM02-UCS;"
        f" {MIN_DISTANCE:g} tells them apart at a glance): {fix} in [leds]"
    )


def _say_test_words(config: Config, sink: Sink | None, out: TextIO) -> int:
    """Say the test words into *sink* with the board's voice; 1 when that failed."""
    if not config.sound.enabled or sink is None:
        out.write("sound: disabled in the config\n")
        return 0
    language = config.game.language
    voice = Voice(
        sink,
        voice=espeak_voice(language, config.sound.voice),
        volume=config.sound.volume,
        speed=config.sound.speed,
    )
    words = translator(language).gettext("pegboard sound test: fifteen two, fifteen four")
    where = f"{sink.device!r}" if isinstance(sink, AlsaSink) else "a WAV file"
    out.write(f"sound: saying {words!r} on {where}\n")
    out.flush()
    try:
        voice.say(words)
        voice.wait()
    except HardwareError as e:
        out.write(f"sound: FAILED: {e}\n")
        return 1
    out.write("sound: test words said: ok (heard them?)\n")
    return 0


def _show(display: Display | None, lines: list[str], out: TextIO, label: str | None) -> int:
    if display is None:
        if label:
            out.write(f"{label}: disabled in the config\n")
        return 0
    try:
        display.show(render_test_card(display.size, display.mode, lines))
    except (HardwareError, OSError) as e:
        if label:
            out.write(f"{label}: FAILED: {e}\n")
        return 1
    if label:
        out.write(f"{label}: test card shown: ok\n")
    return 0


def _close(ports: Ports, out: TextIO) -> None:
    for name, strip in ports.strips.items():
        try:
            strip.close()
        except (HardwareError, OSError) as e:
            out.write(f"LED strip {name!r}: could not turn off: {e}\n")
