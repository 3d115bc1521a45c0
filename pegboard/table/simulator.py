"""The simulator: the whole device in a terminal, or headless from a key file.

``pegboard run --simulate`` runs the same controller, journal and config as the Pi; only the
ports differ. The OLED's frames are drawn with half-block characters (``render_halfblocks``:
each character is two pixels, one above the other), the LED tracks in 24-bit colour
(``render_ansi``), and the computer keyboard stands in for the keypad and buttons (the legend
under the board says which key is which). The terminal is put in cbreak mode while it runs and
restored on exit.

Headless (``--headless --keys FILE --out DIR``) replays a key file on a fake clock, so a run is
deterministic and takes no real time, then writes ``DIR/state.json`` (``GameView.to_dict()``),
``DIR/oled.png`` (the last frame) and ``DIR/leds.json`` (the last colour of every LED, per
track and per strip); ``--gif PATH`` also writes the session as an animated GIF, from its
start, of at most ``GIF_FRAMES`` distinct frames (the log says how many more were left out).
Without ``--gif`` a run keeps no frames but the one on the screen, however long its key file.
A headless run plays on a throwaway journal in a temporary directory, deleted at the end, so it
never touches the saved game that ``pegboard run`` resumes; ``--db PATH`` plays on that journal
instead (and keeps it). Every run, in a terminal or headless, holds its journal as its table
alone, as the daemon does: on a journal a daemon or another simulator holds it is refused,
naming that one (``journal.writers``); ``pegboard game do`` works beside it.

With ``--web`` the simulator serves the pub page as the device does (``[web]``): the terminal
shows its address under the LED tracks, and a headless run with ``--wait-for-signal`` replays
its keys and then serves the game it left until SIGTERM or SIGINT.

A key file's header says which game it is for (``# variant: three-handed``, ``# names: ...``;
see ``pegboard.table.keyscript``), so it plays the same whatever the config says. The replay
checks the file as it goes: a key the device refuses stops the run with an error naming its
line unless the file marks it ``!`` as expected, and so does a marked key that is accepted;
a game that ends on other scores than the header's ``final_scores`` is an error too. The
outputs are written either way, showing where the run stopped.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import logging
import os
import random
import re
import select
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from pegboard.config.settings import Config, config_from_mapping
from pegboard.devices.leds import RecordingStrip
from pegboard.devices.oled import RecordingDisplay
from pegboard.devices.ports import Color, FakeClock, KeySink, LedStrip
from pegboard.errors import ConfigError, PegboardError
from pegboard.i18n import Language
from pegboard.journal import Journal
from pegboard.table.controller import Controller, DisplayPower
from pegboard.table.daemon import run_daemon
from pegboard.table.keyscript import (
    KeyScript,
    KeyScriptError,
    Wait,
    key_for_char,
    legend_lines,
    read_script,
)
from pegboard.table.reel import (
    GIF_FRAMES,
    ReelDisplay,
    leds_to_dict,
    write_gif,
    write_outputs,
    write_reel,
)
from pegboard.table.sdnotify import Notifier
from pegboard.table.wiring import Ports, build_controller, sim_ports, start_speaker
from pegboard.ui.ledtracks import render_ansi

if TYPE_CHECKING:
    from PIL.Image import Image

    from pegboard.table.speaker import Speaker
    from pegboard.web.server import WebServer

__all__ = [
    "GIF_FRAMES",
    "ReplayError",
    "TerminalKeys",
    "config_for_script",
    "leds_to_dict",
    "render_halfblocks",
    "run_headless",
    "run_terminal",
    "write_gif",
    "write_outputs",
]

log = logging.getLogger(__name__)

_UPPER, _LOWER, _FULL = "\u2580", "\u2584", "\u2588"


def render_halfblocks(image: Image, *, scale: int = 1, color: bool = False) -> str:
    """The image as text: one character per pixel column, two pixel rows per line.

    *scale* 2 takes every second pixel each way (a 128x64 OLED in 64x16 characters). Lit
    pixels are those brighter than half; with *color*, greyscale levels become 24-bit grey.

    >>> from PIL import Image
    >>> im = Image.new("1", (4, 4))
    >>> im.putpixel((0, 0), 1); im.putpixel((1, 1), 1); im.putpixel((2, 0), 1)
    >>> im.putpixel((2, 1), 1)
    >>> print(render_halfblocks(im))
    ▀▄█
    <BLANKLINE>
    """
    grey = image.convert("L")
    if scale != 1:
        grey = grey.resize((max(1, grey.width // scale), max(1, grey.height // scale)))
    width, height = grey.size
    px = grey.load()
    assert px is not None
    lines = []
    for y in range(0, height, 2):
        cells: list[str] = []
        for x in range(width):
            top = int(px[x, y])  # type: ignore[arg-type]
            bottom = int(px[x, y + 1]) if y + 1 < height else 0  # type: ignore[arg-type]
            t, b = top > 127, bottom > 127
            glyph = _FULL if t and b else _UPPER if t else _LOWER if b else " "
            if color and glyph != " ":
                level = max(top, bottom)
                glyph = f"\x1b[38;2;{level};{level};{level}m{glyph}\x1b[0m"
            cells.append(glyph)
        lines.append("".join(cells).rstrip())
    return "\n".join(lines)


# -- headless -------------------------------------------------------------------------------

_HEADLESS = "pegboard run --simulate --headless"
"""What a headless run notes as the journal's table (``journal.writers``)."""


class ReplayError(PegboardError):
    """A headless replay that did not go as its key file says: a key refused that is not marked
    ``!``, a key marked ``!`` that was accepted, or a game that ended on other scores than the
    header's ``final_scores``."""


def config_for_script(config: Config, script: KeyScript) -> Config:
    """*config* playing the game that *script*'s header describes (see ``keyscript``).

    The header's settings replace the config's ``[game]`` (a setting left out takes its
    default); the journal stays the config's, and so does the language unless the header says
    ``language`` itself (what the table speaks is the table's, not the game's). The LED
    layout stays the config's own, unless the config has none of its own (the default for its
    sides), when it becomes the default for the header's sides. A script without settings
    leaves *config* as it is.

    Raises:
        KeyScriptError: settings that do not go together, or a config with fewer LED tracks
            than the header's variant has sides; the message names the file and the line.
    """
    table = script.game_table()
    if not table:
        return config
    try:
        described = config_from_mapping({"game": table}, source=script.source)
    except ConfigError as e:
        raise _header_error(script, e) from None
    game = dataclasses.replace(described.game, database=config.game.database)
    if "language" not in table:
        game = dataclasses.replace(game, language=config.game.language)
    leds = config.leds
    own_default = config_from_mapping({"game": {"variant": config.game.rules.variant.value}}).leds
    if leds == own_default:
        leds = described.leds
    elif len(leds.layout.tracks) < game.rules.sides:
        variant = script.header("variant")
        line = variant.line if variant is not None else script.headers[0].line
        raise script.error(
            line,
            f"{game.rules.variant.value} has {game.rules.sides} sides, and the config "
            f"{config.source!r} has {len(leds.layout.tracks)} LED tracks (expected one track per "
            "side, or a config without [leds])",
        )
    return dataclasses.replace(config, game=game, leds=leds)


_CONFIG_KEY = re.compile(r"config: game\.(\w+)(.*)", re.DOTALL)


def _header_error(script: KeyScript, error: ConfigError) -> KeyScriptError:
    """The config's complaint about the header's settings, on the line of the key it names."""
    settings = [h for h in script.headers if h.key in script.game_table()]
    line, message = settings[0].line, str(error).removeprefix("config: ")
    found = _CONFIG_KEY.fullmatch(str(error))
    if found is not None:
        header = script.header(found[1])
        line = header.line if header is not None else line
        message = found[1] + found[2]
    return script.error(line, message)


def run_headless(
    config: Config,
    *,
    keys_file: Path | None,
    out_dir: Path,
    gif: Path | None = None,
    seed: int = 0,
    wait_for_signal: bool = False,
    journal: Path | None = None,
    notifier: Notifier | None = None,
    web: WebServer | None = None,
    serving: Callable[[], None] | None = None,
    language: Language | None = None,
    gif_frames: int = GIF_FRAMES,
    speech: Path | None = None,
) -> Controller:
    """Replay *keys_file* through the real controller on simulated ports, then write the outputs.

    The key file's header says which game it plays (``config_for_script``). The game is
    played on *journal*; without one, on a throwaway journal in a temporary directory that is
    deleted at the end, so a headless run never touches the saved game
    (``config.game.database`` is not used). Without *keys_file* nothing is replayed. With
    *wait_for_signal* it then goes on as a daemon until SIGTERM or SIGINT, which leaves the
    paused screen and the LEDs off in the outputs. *web* (a started server, with
    *wait_for_signal* only) serves the pub page meanwhile and is closed at the end; *serving*
    is called once the page serves the replayed game (the key file read and replayed).
    *language* (``--lang``), when given, is what the table speaks, whatever the key file's
    header or the config say. The display keeps only the frame on the screen; with *gif*,
    also the session's first *gif_frames* distinct frames, which the GIF shows. With *speech*,
    what the board says (``table.speaker``, whatever ``[sound]`` says) is written to that WAV
    file, every utterance in full, half a second apart.

    The replay stops at a key the device refuses unless the file marks it ``!``, and at a
    marked key it accepts; the outputs show where it stopped, then ``ReplayError`` is raised.

    Raises:
        KeyScriptError: the key file cannot be read, or has a bad line or header.
        ReplayError: a key refused or accepted against the file's marks, or other final scores.
        JournalInUseError: a daemon or another simulator holds the journal.
        JournalError: the journal cannot be opened or replayed.
    """
    notifier = notifier if notifier is not None else Notifier()
    script = read_script(keys_file) if keys_file is not None else KeyScript("", (), ())
    config = config_for_script(config, script)
    if language is not None:
        config = dataclasses.replace(
            config, game=dataclasses.replace(config.game, language=language)
        )
    with contextlib.ExitStack() as stack:
        if journal is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="pegboard-headless-"))
            journal = Path(folder) / "pegboard.db"
        config = dataclasses.replace(
            config, game=dataclasses.replace(config.game, database=journal)
        )
        clock = FakeClock(1000.0)
        ports = sim_ports(config, history=1)
        if gif is not None:
            size, mode = config.display.frame_size, config.display.frame_mode
            ports.display = ReelDisplay(size, mode, gif_frames)
        if wait_for_signal:
            return _headless_daemon(
                config, ports, script, clock, seed, out_dir, gif, notifier, web, serving
            )
        if web is not None:
            web.close()  # nothing to serve once the replay is written
        speaker = _recording_speaker(config, speech, stack)
        with Journal(
            config.game.database, outbox=config.league is not None, table=_HEADLESS
        ) as store:
            controller = build_controller(
                config,
                store,
                ports,
                clock=clock,
                rng=random.Random(seed),
                on_change=speaker.on_change if speaker is not None else None,
                sound=speaker,
            )
            controller.tick()  # the first frame
            notifier.ready("headless")
            problem = _replay(controller, script, clock)
            if speech is not None and speaker is not None:
                _write_speech(speaker, speech)
            write_outputs(out_dir, controller, ports, config.leds.layout)
            if gif is not None:
                write_reel(gif, ports)
    if problem is not None:
        raise problem
    return controller


def _recording_speaker(
    config: Config, speech: Path | None, stack: contextlib.ExitStack
) -> Speaker | None:
    """A speaker saying everything in full into WAV files in a temporary folder (None: no
    *speech* asked for)."""
    if speech is None:
        return None
    from pegboard.devices.sound import WavSink

    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pegboard-speech-")))
    speaker = start_speaker(config, WavSink(folder), cut_short=False)
    assert speaker is not None
    stack.callback(speaker.close)
    return speaker


def _write_speech(speaker: Speaker, path: Path) -> None:
    """Wait for *speaker*'s last words, then join what it said into *path*."""
    from pegboard.devices.sound import WavSink, join_wavs

    speaker.wait_idle()
    sink = speaker.voice.sink
    assert isinstance(sink, WavSink)
    length = join_wavs([r.path for r in sink.recordings], path)
    log.info("speech: %d utterances, %.1f s, in %s", len(sink.recordings), length, path)


def _replay(controller: Controller, script: KeyScript, clock: FakeClock) -> ReplayError | None:
    """Play *script* into *controller*, moving *clock* at each wait; the first problem, if any.

    The replay stops at the first key refused against the file's marks; the game is then
    left as that key left it, its LEDs settled, for the outputs to show.
    """
    problem: ReplayError | None = None
    for line in script.lines:
        step = line.step
        if isinstance(step, Wait):
            clock.advance(step.seconds)
            controller.tick()
            continue
        swallowed = controller.display_power is DisplayPower.ASLEEP  # it only wakes the display
        controller.handle(step)
        refused = bool(controller.last_error) and not swallowed
        if refused and not line.refused:
            problem = _problem(
                script,
                line.number,
                f"key {str(step)!r} was refused ({controller.last_error}); "
                f"mark the line {'!' + str(step)!r} if that is expected",
            )
            break
        if line.refused and not refused:
            problem = _problem(
                script,
                line.number,
                f"key {str(step)!r} is marked '!' as refused, but it was accepted",
            )
            break
    controller.tick()
    controller.settle()  # a peg still moving ends where it stops: leds.json shows the board
    return problem if problem is not None else _check_final_scores(controller, script)


def _problem(script: KeyScript, line: int, message: str) -> ReplayError:
    """A ``ReplayError`` naming *script*'s file and *line*."""
    return ReplayError(f"{script.source} line {line}: {message}")


def _check_final_scores(controller: Controller, script: KeyScript) -> ReplayError | None:
    """The game's scores against the header's ``final_scores``: a problem, or None."""
    header = script.header("final_scores")
    if header is None or not isinstance(header.value, tuple):
        return None
    scores = tuple(side["score"] for side in controller.view.to_dict()["sides"])
    if scores == header.value:
        return None
    got = ", ".join(str(score) for score in scores)
    want = ", ".join(str(score) for score in header.value)
    return _problem(
        script, header.line, f"the game ended with scores {got} (expected final_scores {want})"
    )


def _headless_daemon(
    config: Config,
    ports: Ports,
    script: KeyScript,
    clock: FakeClock,
    seed: int,
    out_dir: Path,
    gif: Path | None,
    notifier: Notifier,
    web: WebServer | None = None,
    serving: Callable[[], None] | None = None,
) -> Controller:
    def on_ready(controller: Controller) -> None:
        problem = _replay(controller, script, clock)
        write_outputs(out_dir, controller, ports, config.leds.layout)
        if problem is not None:
            raise problem  # out of run_daemon, which stops the ports on its way out
        if serving is not None:
            serving()
        notifier.status(f"keys replayed: {len(script.lines)} steps")

    result = run_daemon(
        config,
        ports,
        notifier=notifier,
        clock=clock,
        rng=random.Random(seed),
        on_ready=on_ready,
        web=web,
        program=_HEADLESS,
    )
    # stop_ports has left "paused" and the LEDs off: those are the last frames now
    write_outputs(out_dir, result.controller, ports, config.leds.layout)
    if gif is not None:
        write_reel(gif, ports)
    return result.controller


# -- the terminal ---------------------------------------------------------------------------


class TerminalKeys:
    """The computer keyboard as a ``Keys`` source: one character at a time, cbreak mode.

    The terminal's settings are saved by ``start`` and restored by ``close``.
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream if stream is not None else sys.stdin
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._saved: Any = None

    def start(self, sink: KeySink) -> None:
        """Read keys on a thread and hand each mapped one to *sink*."""
        fd = self._stream.fileno()
        if os.isatty(fd):
            import termios
            import tty

            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        self._thread = threading.Thread(
            target=self._run, args=(fd, sink), name="pegboard-terminal", daemon=True
        )
        self._thread.start()

    def _run(self, fd: int, sink: KeySink) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.1)
            if not ready:
                continue
            data = os.read(fd, 32)
            if not data:
                return
            for ch in data.decode(errors="ignore"):
                event = key_for_char(ch)
                if event is not None:
                    sink(event)

    def close(self) -> None:
        """Stop reading and restore the terminal."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1)
            self._thread = None
        if self._saved is not None:
            import termios

            termios.tcsetattr(self._stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None


class _TerminalView:
    """Redraws the terminal whenever the display or a strip gets a new frame.

    Each redraw moves the cursor home and overwrites the previous picture line by line
    (clearing to the end of each line, then below the last), so the screen does not flicker.
    The OLED picture is framed, so its dark parts still read as a screen.
    """

    def __init__(self, config: Config, out: TextIO, banner: str = "") -> None:
        self._config = config
        self._out = out
        self._banner = banner
        self.display = _Screen(self, config)
        self.strips: dict[str, LedStrip] = {
            s.name: _Strip(self, s.count, s.name) for s in config.leds.strips
        }
        self.messages: collections.deque[str] = collections.deque(maxlen=2)

    def frame(self) -> list[str]:
        """The lines of the picture: the framed OLED, the LED tracks, log lines, the legend."""
        sim = self._config.simulator
        lines: list[str] = []
        last = self.display.last
        if last is not None:
            picture = render_halfblocks(last, scale=sim.scale, color=sim.color).split("\n")
            width = -(-last.width // sim.scale)
            blank = " " * width
            lines.append("\u250c" + "\u2500" * width + "\u2510")
            for line in picture:
                pad = width - _visible_len(line)
                lines.append("\u2502" + (line + " " * pad if line else blank) + "\u2502")
            lines.append("\u2514" + "\u2500" * width + "\u2518")
        pixels = {name: strip.last for name, strip in self.strips.items()}  # type: ignore[attr-defined]
        lines.append("")
        layout, target = self._config.leds.layout, self._config.game.rules.target
        lines += render_ansi(pixels, layout, target).split("\n")
        if self._banner:
            lines += ["", self._banner]
        if self.messages:
            lines.append("")
            lines += [f"\x1b[2m{m}\x1b[22m" for m in self.messages]
        if sim.legend:
            lines.append("")
            lines += _two_columns([*legend_lines(), "Ctrl-C       quit (the game is kept)"])
        return lines

    def redraw(self) -> None:
        body = "\x1b[K\n".join(self.frame())
        self._out.write("\x1b[H" + body + "\x1b[K\n\x1b[J")
        self._out.flush()


def _two_columns(lines: Sequence[str], gap: int = 4) -> list[str]:
    """*lines* in two columns, down the first then the second (the legend in half the height).

    >>> _two_columns(["a", "bb", "c"])
    ['a     c', 'bb']
    """
    half = -(-len(lines) // 2)
    left, right = lines[:half], lines[half:]
    width = max((len(line) for line in left), default=0) + gap
    return [f"{line:<{width}}{right[i]}" if i < len(right) else line for i, line in enumerate(left)]


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _visible_len(text: str) -> int:
    """Characters on screen: *text* without its colour escapes."""
    return len(_ANSI.sub("", text))


class _LogLines(logging.Handler):
    """Keeps the last log messages for the terminal view (stderr would scribble on it)."""

    def __init__(self, view: _TerminalView) -> None:
        super().__init__(logging.INFO)
        self._view = view
        self.setFormatter(logging.Formatter("%(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self._view.messages.append(self.format(record).splitlines()[0][:150])


@contextlib.contextmanager
def _logs_into(view: _TerminalView) -> Iterator[None]:
    """Send log records to *view* instead of a terminal on stderr, for the session."""
    root = logging.getLogger()
    muted = [
        h
        for h in root.handlers
        if isinstance(h, logging.StreamHandler) and _is_tty(getattr(h, "stream", None))
    ]
    for handler in muted:
        root.removeHandler(handler)
    mine = _LogLines(view)
    root.addHandler(mine)
    try:
        yield
    finally:
        root.removeHandler(mine)
        for handler in muted:
            root.addHandler(handler)


def _is_tty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except ValueError:  # a closed stream
        return False


class _Screen(RecordingDisplay):
    def __init__(self, view: _TerminalView, config: Config) -> None:
        # an interactive session keeps only the frame on screen
        super().__init__(config.display.frame_size, config.display.frame_mode, history=1)
        self._view = view

    def show(self, image: Image) -> None:
        super().show(image)
        self._view.redraw()


class _Strip(RecordingStrip):
    def __init__(self, view: _TerminalView, length: int, name: str) -> None:
        super().__init__(length, name=name, history=2)
        self._view = view

    def show(self, pixels: Sequence[Color]) -> None:
        super().show(pixels)
        self._view.redraw()


@contextlib.contextmanager
def _alternate_screen(out: TextIO) -> Iterator[None]:
    out.write("\x1b[?1049h\x1b[?25l")
    try:
        yield
    finally:
        out.write("\x1b[?25h\x1b[?1049l")
        out.flush()


def run_terminal(
    config: Config,
    out: TextIO | None = None,
    *,
    keys_in: TextIO | None = None,
    stop: threading.Event | None = None,
    install_signals: bool = True,
    web: WebServer | None = None,
) -> Controller:
    """The interactive simulator: until Ctrl-C (or SIGTERM, or *stop*); the game stays in the
    journal. Keys are read from *keys_in* (default: stdin), the picture goes to *out* (default:
    stdout); log messages show under the board instead of on a terminal's stderr. *web* (a
    started server) serves the pub page meanwhile; its address shows under the board.

    Raises:
        JournalError: the journal cannot be opened or replayed.
    """
    stream = out if out is not None else sys.stdout
    banner = ""
    if web is not None:
        from pegboard.web.server import public_url

        url, note = public_url(web)
        banner = f"pub page: {url}" + (f" ({note})" if note else "")
    view = _TerminalView(config, stream, banner)
    ports = Ports(view.display, dict(view.strips), [TerminalKeys(keys_in)])
    with _alternate_screen(stream), _logs_into(view):
        result = run_daemon(
            config,
            ports,
            stop=stop,
            install_signals=install_signals,
            web=web,
            program="pegboard run --simulate",
        )
    return result.controller
