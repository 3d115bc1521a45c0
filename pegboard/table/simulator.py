"""The simulator: the whole device in a terminal, or headless from a key file.

``pegboard run --simulate`` runs the same controller, journal and config as the Pi; only the
ports differ. The terminal (``table.terminal``) draws the OLED's frames as text and the LED
tracks in 24-bit colour, kept inside the terminal's size (a smaller picture in 80x24), and the
computer keyboard stands in for the keypad and buttons (the legend under the board says which
key is which). The terminal is put in cbreak mode while it runs and restored on exit.

Headless (``--headless --keys FILE --out DIR``) replays a key file on a fake clock, so a run is
deterministic and takes no real time, then writes ``DIR/state.json`` (``GameView.to_dict()``),
``DIR/oled.png`` (the last frame), ``DIR/leds.json`` (the last colour of every LED, per
track and per strip) and ``DIR/screens.jsonl`` (every frame's words and time, ``table.trace``;
a wait in the key file ticks the device at each timed change, a page or the news's end, so the
frames come when a table would see them); ``--gif PATH`` also writes the session as an animated
GIF, from its start, of at most ``GIF_FRAMES`` distinct frames (the log says how many more were
left out).
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

import contextlib
import dataclasses
import logging
import random
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pegboard.config.settings import Config, config_from_mapping
from pegboard.devices.ports import FakeClock
from pegboard.errors import ConfigError, JournalError, PegboardError
from pegboard.i18n import Language
from pegboard.journal import Journal
from pegboard.journal.outbox import Outbox
from pegboard.table.controller import Controller, DisplayPower
from pegboard.table.daemon import run_daemon
from pegboard.table.keyscript import (
    KeyScript,
    KeyScriptError,
    Wait,
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
from pegboard.table.terminal import (
    TerminalKeys,
    TerminalView,
    alternate_screen,
    logs_into,
    render_halfblocks,
)
from pegboard.table.trace import TRACE_NAME, ScreenTrace
from pegboard.table.wiring import Ports, build_controller, sim_ports, start_speaker

if TYPE_CHECKING:
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
    told: Callable[[str], None] | None = None,
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
    also the session's first *gif_frames* distinct frames, which the GIF shows. With
    ``[league]`` configured, *told* is given a line at the end saying where the finished games
    wait for the league (``outbox_note``).
    With *speech*, what the board says (``table.speaker``, whatever ``[sound]`` says) is
    written to that WAV file, every utterance in full, half a second apart.

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
    throwaway = journal is None
    with contextlib.ExitStack() as stack:
        if journal is None:
            import tempfile  # only for a throwaway journal (with shutil, 3 ms of a start)

            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="pegboard-headless-"))
            journal = Path(folder) / "pegboard.db"
        config = dataclasses.replace(
            config, game=dataclasses.replace(config.game, database=journal)
        )
        if config.league is not None and told is not None:
            # said at the end, however it ends, while a throwaway journal is still there
            stack.callback(lambda: told(outbox_note(journal, throwaway=throwaway)))
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
            with ScreenTrace(out_dir / TRACE_NAME, config, clock.monotonic()) as trace:
                problem = _replay(controller, script, clock, trace)
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
    import tempfile

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


def outbox_note(journal: Path, *, throwaway: bool) -> str:
    """Where a headless run's finished games wait for the league: the outbox of *journal*
    (sent by the board's ``pegboard run`` with ``[league]``), or, of a *throwaway* journal,
    nowhere once it is deleted (``--db`` keeps them)."""
    try:
        outbox = Outbox(journal)
    except JournalError as e:
        return f"league: the finished games' outbox cannot be read: {e}"
    try:
        waiting = len(outbox.pending())
    finally:
        outbox.close()
    games = f"{waiting} finished game{'' if waiting == 1 else 's'}"
    if throwaway:
        them = "it" if waiting == 1 else "them"
        return (
            f"league: {games} queued in a throwaway journal, deleted now, so the league never "
            f"gets {them} (to keep {them}, replay with --db PATH)"
        )
    verb = "waits" if waiting == 1 else "wait"
    return (
        f"league: {games} {verb} in the board's outbox in {str(journal)!r}, sent by "
        "'pegboard run' with [league] on that journal"
    )


def _replay(
    controller: Controller, script: KeyScript, clock: FakeClock, trace: ScreenTrace | None = None
) -> ReplayError | None:
    """Play *script* into *controller*, moving *clock* at each wait; the first problem, if any.

    A wait ticks the controller whenever it has timed work due (``next_change``: a page, the
    news's end, a peg's commit) and at its end, so every frame comes when a table would see
    it; *trace* notes each one. The replay stops at the first key refused against the file's
    marks; the game is then left as that key left it, its LEDs settled, for the outputs to show.
    """
    problem: ReplayError | None = None
    if trace is not None:
        trace.note(controller, clock.monotonic())
    for line in script.lines:
        step = line.step
        if isinstance(step, Wait):
            _wait(controller, clock, step.seconds, trace)
            continue
        swallowed = controller.display_power is DisplayPower.ASLEEP  # it only wakes the display
        controller.handle(step)
        if trace is not None:
            trace.note(controller, clock.monotonic())
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
    if trace is not None:
        trace.note(controller, clock.monotonic())
    return problem if problem is not None else _check_final_scores(controller, script)


_NUDGE = 1e-6
"""Seconds past a timed change a replay ticks at, so that ``now >= due`` holds for certain."""

_MOST_TICKS = 100_000
"""A hang guard: the most ticks one wait takes (a whole game's timed work is a few hundred)."""


def _wait(
    controller: Controller, clock: FakeClock, seconds: float, trace: ScreenTrace | None
) -> None:
    """Move *clock* on by *seconds*, ticking *controller* at each timed change on the way."""
    end = clock.monotonic() + seconds
    for _ in range(_MOST_TICKS):
        due = controller.next_change()
        now = clock.monotonic()
        if due is None or due >= end or due <= now:
            break
        clock.advance(due - now + _NUDGE)  # just past it, whatever the floats round to
        controller.tick()
        if trace is not None:
            trace.note(controller, clock.monotonic())
    clock.advance(max(end - clock.monotonic(), 0.0))
    controller.tick()
    if trace is not None:
        trace.note(controller, clock.monotonic())


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
        with ScreenTrace(out_dir / TRACE_NAME, config, clock.monotonic()) as trace:
            problem = _replay(controller, script, clock, trace)
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
    view = TerminalView(config, stream, banner)
    ports = Ports(view.display, dict(view.strips), [TerminalKeys(keys_in)])
    with alternate_screen(stream), logs_into(view):
        result = run_daemon(
            config,
            ports,
            stop=stop,
            install_signals=install_signals,
            web=web,
            program="pegboard run --simulate",
        )
    return result.controller
