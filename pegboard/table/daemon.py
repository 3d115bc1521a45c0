"""The daemon: the run loop, signals and systemd, around the controller the wiring builds.

Theory of operation
-------------------
``run_daemon`` reads nothing itself: it gets a checked ``Config`` and a ``Ports`` value (real
hardware from ``wiring.open_ports``, or the simulator's recording ports from
``wiring.sim_ports``), opens the journal, and has ``wiring.build_controller`` build one
``Controller``. Key sources only put events on a queue; the controller's ``run`` loop takes them
off in the main thread, which owns all the state. A journal that cannot be opened is shown on
the display (its file name and what is wrong) before the daemon exits.

One table per journal: the daemon holds its journal alone (``Journal(table=...)``), so a second
daemon or simulator on it is refused, naming the first (pid, program, since when); ``pegboard
game do`` works beside it, and the controller shows what it stored within a turn of its loop
(``table.beside``). A current match that cannot be replayed does not stop the daemon: the
display says so and the confirm key starts a new match (``beside.offer_new_match``), the broken
one left in the journal as it is.

systemd (``Type=notify``): ``READY=1`` is sent once the board takes keys: the journal is open
and its match replayed, the key sources are started and the controller is built. The first
frame follows, drawn by the controller's loop on its first turn, so Pillow, the fonts and the
OLED's driver are loaded after READY, not before it (``tests/table/test_start.py`` holds the
start to that). The loop's ``heartbeat`` runs on every turn, from just after the first frame:
every call pings the watchdog (at half of ``WatchdogSec=``), so a loop that hangs stops
pinging and systemd restarts the daemon, which resumes from the journal.
SIGTERM (or SIGINT) sets the stop event: the loop ends, ``STOPPING=1`` is sent, the display is
left showing "paused" (and kept so when the process exits), the LED strips are turned off,
and the key sources and the journal are closed. The daemon logs to stderr and never forks.

Failing hardware never stops a game: the display and strips reopen on their own
(``devices.lazy``), and the controller retries a port that failed a few seconds later. The
LED tracks' animation is ``ui.ledtracks.TrackAnimator``'s; dimming and sleeping the display
after ``display.dim_after`` and ``display.sleep_after`` idle seconds is the controller's.

The journal's history (the pub page's evening and players' figures, the menu's head-to-head
page) is read by a ``HistoryReader`` in a thread of its own with its own read-only connection,
started right after the first frame (its first read replays every match) and poked by the controller
when the evening changes; nothing in the controller's thread waits for it.

The pub page (``[web] enabled``, or a server the simulator started) gets each new view from the
controller's thread; on SIGTERM its streams are told "paused" and closed first, so the service
stops at once. A page that cannot start is logged; the daemon runs on without it. With
``[league]`` the journal keeps an outbox of finished games and the league publisher gets each
view too (``league.publisher``: it only takes the view; its own thread does the network); on
the way out it says "offline". A tournament night's notices from the hub (the board's next
pairing, the lock) are only queued by the publisher's network thread (``table.tourney``),
which wakes the loop; the controller takes them on its thread, as it takes keys. With
``[sound] enabled`` the speaker gets each change too (``table.speaker``: it only takes the
change; its own thread finds the words and starts eSpeak).
"""

from __future__ import annotations

import functools
import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard.config.settings import Config
from pegboard.devices.lazy import LazyDisplay
from pegboard.devices.ports import Clock, KeyEvent, SystemClock
from pegboard.engine.view import GameView
from pegboard.errors import HardwareError, JournalError, UnreplayableMatchError
from pegboard.i18n import Language
from pegboard.journal import Journal
from pegboard.journal.reader import HistoryReader
from pegboard.table.beside import offer_new_match
from pegboard.table.controller import Controller
from pegboard.table.sdnotify import Notifier, WatchdogPinger
from pegboard.table.signals import SignalWatch
from pegboard.table.wiring import (
    Ports,
    build_controller,
    on_changes,
    paused_frame,
    start_league,
    start_speaker,
    start_web,
    tourney_board,
    web_publisher,
)
from pegboard.ui.screens import render_error

if TYPE_CHECKING:
    from pegboard.league.publisher import LeaguePublisher
    from pegboard.table.speaker import Speaker
    from pegboard.web.server import WebServer

_SUMMARY_GRACE = 60.0
"""Seconds more to start that each batch of an older journal's summaries asks systemd for: a
batch is a few seconds of work on a Pi Zero 2 W."""

__all__ = [
    "RunResult",
    "run_daemon",
    "show_journal_error",
    "stop_ports",
]

log = logging.getLogger(__name__)


@dataclass
class RunResult:
    """What a daemon run leaves behind, for the simulator and the tests."""

    controller: Controller
    ready_after: float | None = None
    """Seconds from start to READY (None: never ready)."""


def stop_ports(controller: Controller | None, ports: Ports) -> None:
    """Leave "paused" on the display, turn the LEDs off and close the key sources."""
    for keys in ports.keys:
        try:
            keys.close()
        except Exception as e:
            log.warning("closing %s: %s", type(keys).__name__, e)
    display = ports.display
    if display is not None:
        view = controller.view if controller is not None else None
        try:
            language = controller.language if controller is not None else Language.ENGLISH
            image = paused_frame(view, display.size, display.mode, language=language)
            if isinstance(display, LazyDisplay):
                display.leave(image)
            else:
                display.show(image)
        except (HardwareError, OSError, ValueError) as e:
            log.warning("could not leave the paused screen: %s", e)
    for name, strip in ports.strips.items():
        try:
            strip.close()
        except (HardwareError, OSError) as e:
            log.warning("could not turn LED strip %r off: %s", name, e)


def run_daemon(
    config: Config,
    ports: Ports,
    *,
    notifier: Notifier | None = None,
    stop: threading.Event | None = None,
    install_signals: bool = True,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    on_ready: Callable[[Controller], None] | None = None,
    web: WebServer | None = None,
    program: str = "pegboard run",
) -> RunResult:
    """Run the device until SIGTERM/SIGINT (or *stop* is set); returns what it left behind.

    The pub page is served by *web* (a started ``WebServer``), else by one started here when
    ``[web] enabled``; either way it is closed on the way out. *program* is what the journal
    notes as its table, for a second one's message.

    A current match that cannot be replayed is shown, and a new match offered
    (``beside.offer_new_match``) instead of exiting.

    Raises:
        JournalInUseError: another table (a daemon, a simulator) holds the journal.
        UnreplayableMatchError: the match cannot be replayed, and the daemon was stopped
            before a new one was started.
        JournalError: the journal cannot be opened.
        Exception: a bug in the controller (systemd restarts the daemon from the journal).
    """
    started = time.monotonic()
    notifier = notifier if notifier is not None else Notifier()
    stop = stop if stop is not None else threading.Event()
    events: queue.Queue[KeyEvent | None] = queue.Queue()
    clock = clock if clock is not None else SystemClock()

    def summarising(done: int, left: int) -> None:
        # an older journal's one-time summaries, in batches: each one buys time from systemd
        status = f"summarising the journal's history: {done} of {left} matches"
        log.info("%s", status)
        notifier.extend(_SUMMARY_GRACE, status)

    try:
        store = Journal(
            config.game.database,
            outbox=config.league is not None,
            table=program,
            progress=summarising,
        )
    except JournalError as e:
        log.error("journal: %s", e)
        show_journal_error(ports, config.game.database, e)
        if web is not None:
            web.close()
        raise
    if store.notice:
        log.warning("%s", store.notice)
    controller: Controller | None = None
    league: LeaguePublisher | None = None
    speaker: Speaker | None = None
    # the history (the page's evening and players, the head-to-head page), read in its own
    # thread with its own read-only connection; started once READY is sent
    reader = HistoryReader(config.game.database)
    result: RunResult | None = None

    def on_signal(name: str) -> None:  # on the watch's thread (table.signals), not in a handler
        log.info("signal %s: stopping", name)
        stop.set()
        events.put(None)  # wake the loop now

    signals = SignalWatch(on_signal).install() if install_signals else None
    try:
        for keys in ports.keys:
            try:
                keys.start(events.put)
            except (HardwareError, OSError) as e:
                log.error("%s did not start: %s", type(keys).__name__, e)
        pinger = WatchdogPinger(notifier)
        try:
            store.load()
        except UnreplayableMatchError as e:
            notifier.ready(f"match {e.match_id} cannot be replayed")

            def show(message: str) -> None:
                if ports.display is not None:
                    size, mode = ports.display.size, ports.display.mode
                    ports.display.show(render_error(message, size, mode))

            def alive() -> None:
                pinger.tick(time.monotonic())

            if not offer_new_match(
                store, config, e, events=events, stop=stop, show=show, alive=alive
            ):
                notifier.stopping("paused")  # a stop asked for: the match waits for repair
                raise
        web = web if web is not None else start_web(config)
        tourney = tourney_board(config, store)  # a league board's night: its pairing and lock
        if tourney is not None:
            tourney.wake = functools.partial(events.put, None)  # a notice came: tick now
        league = start_league(config, tourney)
        speaker = start_speaker(config)
        locked = (lambda: tourney.locked) if tourney is not None else None
        on_change = on_changes(
            web_publisher(web, reader, config.game.language, locked) if web is not None else None,
            league.on_change if league is not None else None,
            speaker.on_change if speaker is not None else None,
        )
        controller = build_controller(
            config,
            store,
            ports,
            clock=clock,
            rng=rng,
            on_change=on_change,
            history=reader,
            sound=speaker,
            tourney=tourney,
        )
        result = RunResult(controller)
        log.info(
            "game loaded from %s: %s, game %d deal %d",
            config.game.database,
            controller.view.variant,
            controller.view.game,
            controller.view.deal,
        )
        # READY: the journal is open and its match replayed, the key sources are started and
        # the controller that takes their keys is built. The first frame follows (the loop's
        # first turn draws it, loading Pillow, the fonts and the OLED's driver only then).
        result.ready_after = time.monotonic() - started
        view = controller.view
        notifier.ready(f"{view.variant}: " + _score_line(view))
        log.info("ready in %.3f s", result.ready_after)
        first = True

        def heartbeat() -> None:
            nonlocal first
            assert controller is not None
            if first:
                # the controller's run() pushes the first frame before its first heartbeat
                first = False
                reader.start()  # the first read replays everything: after it, not before
                if on_ready is not None:
                    on_ready(controller)
            pinger.tick(time.monotonic())

        controller.run(events, stop, heartbeat=heartbeat)
        notifier.stopping("paused")
    finally:
        reader.close()  # before the writer: its last close then tidies the -wal away
        if web is not None:
            web.close()  # the pages say "paused" now, not when the ports are done
        if league is not None:
            league.close()  # "offline"; what is unsent waits in the outbox
        if speaker is not None:
            speaker.close()
        stop_ports(controller, ports)
        store.close()
        if signals is not None:
            signals.close()
    assert result is not None
    return result


def show_journal_error(ports: Ports, path: Path, error: JournalError) -> None:
    """Put a journal the daemon refused on the display: the file's name and what is wrong."""
    if ports.display is None:
        return
    # "'pegboard.db' is not a pegboard journal": the name, not the path, fits the screen
    reason = str(error).replace(repr(str(path)), repr(path.name)).split(" (", 1)[0]
    display = ports.display
    try:
        display.show(render_error(reason, display.size, display.mode))
    except (HardwareError, OSError, ValueError) as e:
        log.warning("could not show the journal error: %s", e)


def _score_line(view: GameView) -> str:
    return ", ".join(f"{s.name} {s.score}" for s in view.sides)
