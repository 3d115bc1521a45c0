"""The wiring: config -> ports -> renderers -> one controller.

Theory of operation
-------------------
``open_ports`` makes the real hardware the config describes and ``sim_ports`` the simulator's
recording ports of the same sizes; both return a ``Ports`` value. The display and the LED
strips open lazily (``devices.lazy``: a device missing at start, or unplugged later, is opened
afresh on a later frame); a key source that cannot be opened at start is logged and left out,
and ``Ports.unavailable`` says which and why (``pegboard selftest`` counts each as a failure).

``build_controller`` puts one ``Controller`` over a journal and the ports, with the config's
rules, names, keypad layout, dim and sleep times, and two pure renderers: ``screen_renderer``
(the ``Screen`` the controller chooses -> the display's image in the configured style,
``ui.screens``, with ``page_counter`` saying how many pages a count takes) and a
``TrackAnimator`` (the view -> the LED tracks' steps, ``ui.ledtracks``). Both work from the
values the controller hands them, so the key-to-frame path never reads back into the controller
it is built for.

``start_web`` starts the pub page's server when ``[web] enabled`` (``pegboard.web.server``,
imported only then: a daemon without the page never loads ``http.server``), and
``web_publisher`` (``pegboard.web.publisher``, likewise) is what the controller calls after each
change to hand the page the view; the evening's results and the players' figures come from the
journal's ``HistoryReader``, which reads the history in its own thread (the daemon starts it
once READY is sent and the first frame drawn).
A page that cannot start (its port in use) is logged in one line; the game goes on without it.

``start_league`` starts the board's league publisher when ``[league]`` is configured
(``pegboard.league.publisher``, imported only then: a board without a league never loads
paho), and ``on_changes`` hands each change to the page and the league alike.

``start_speaker`` starts the board's voice when ``[sound] enabled`` (``table.speaker``: eSpeak
NG into ALSA, or into WAV files for a recording); it too takes each change through
``on_changes``, on a thread of its own.
"""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pegboard.config.settings import Config
from pegboard.devices.lazy import LazyDisplay, LazyStrip
from pegboard.devices.leds import RecordingStrip, open_strip
from pegboard.devices.ports import Clock, Display, Keys, LedStrip
from pegboard.engine.game import GameState
from pegboard.engine.view import GameView
from pegboard.errors import HardwareError
from pegboard.i18n import Language
from pegboard.journal import Journal
from pegboard.table.controller import (
    Controller,
    PageCounter,
    ScreenRenderer,
    ScreenTiming,
)
from pegboard.table.outputs import LedRenderer, SoundSwitch
from pegboard.table.playhint import PlayHinter
from pegboard.ui.keypad import Layout
from pegboard.ui.ledtracks import LedLayout, TrackAnimator
from pegboard.ui.paint import Style
from pegboard.ui.playhint import hint_allowed
from pegboard.ui.screens import Screen, choose_screen, render_screen, screen_pages

if TYPE_CHECKING:
    from PIL.Image import Image

    from pegboard.devices.sound import Sink
    from pegboard.journal.reader import HistoryReader
    from pegboard.league.publisher import LeaguePublisher
    from pegboard.table.speaker import Speaker
    from pegboard.table.tourney import TourneyBoard
    from pegboard.web.server import WebServer

__all__ = [
    "RETRY_AFTER",
    "Ports",
    "build_controller",
    "led_renderer",
    "on_changes",
    "open_ports",
    "page_counter",
    "paused_frame",
    "screen_renderer",
    "sim_ports",
    "start_league",
    "start_speaker",
    "start_web",
    "tourney_board",
    "web_publisher",
]

log = logging.getLogger(__name__)

RETRY_AFTER = 5.0
"""Seconds between attempts to reach a display or strip that failed."""


# -- the ports ------------------------------------------------------------------------------


@dataclass
class Ports:
    """Everything the controller talks to. ``keys`` are started by ``run_daemon``;
    ``unavailable`` names each key source that could not be opened, with why."""

    display: Display | None
    strips: dict[str, LedStrip]
    keys: list[Keys] = field(default_factory=list)
    unavailable: dict[str, str] = field(default_factory=dict)


def open_ports(config: Config) -> Ports:
    """The real hardware the config describes; whatever fails to open is logged and skipped.

    The display and the strips open lazily (and reopen after failures); key sources open now.
    """
    display: Display | None = None
    if config.display.enabled:
        options = config.display.luma_options()

        def open_oled() -> Display:
            from pegboard.devices.oled import LumaDisplay

            return LumaDisplay.from_options(options)

        display = LazyDisplay(open_oled, config.display.frame_size, config.display.frame_mode)
    strips: dict[str, LedStrip] = {
        s.name: LazyStrip(functools.partial(open_strip, s), s.count, s.name)
        for s in config.leds.strips
    }
    keys, unavailable = _open_keys(config)
    return Ports(display, strips, keys, unavailable)


def _open_keys(config: Config) -> tuple[list[Keys], dict[str, str]]:
    """The key sources the config enables that open, and why each other one did not."""
    keys: list[Keys] = []
    unavailable: dict[str, str] = {}
    makers: list[tuple[str, Callable[[], Keys]]] = []
    if config.buttons.enabled:

        def buttons() -> Keys:
            from pegboard.devices.keys import GpioButtons

            b = config.buttons
            return GpioButtons(b.pins, debounce=b.debounce, long_press=b.long_press)

        makers.append(("buttons", buttons))
    if config.keypad.enabled:

        def keypad() -> Keys:
            from pegboard.devices.keys import MatrixKeypad

            k = config.keypad
            return MatrixKeypad(
                k.rows, k.cols, k.layout, scan_hz=k.scan_hz, debounce_scans=k.debounce_scans
            )

        makers.append(("keypad", keypad))
    if config.usb_keypad.enabled:

        def usb() -> Keys:
            from pegboard.devices.usbkeys import UsbKeypad

            u = config.usb_keypad
            return UsbKeypad.from_path(
                u.path, keymap=u.keymap, long_press=u.long_press, grab=u.grab
            )

        makers.append(("usb keypad", usb))
    for name, make in makers:
        try:
            keys.append(make())
        except (HardwareError, OSError, ImportError) as e:
            log.error("%s unavailable, carrying on without it: %s", name, e)
            unavailable[name] = str(e) or type(e).__name__
    return keys, unavailable


def nothing_to_press(ports: Ports) -> str | None:
    """Why no key could be pressed on *ports* (no key source opened, or none is enabled), as a
    line that suggests the simulator; None when a key source is open.

    >>> print(nothing_to_press(Ports(None, {}, [], {"keypad": "no GPIO"})))
    no key source opened (keypad: no GPIO): is this the pegboard's Pi? To try the table on this computer: pegboard run --simulate
    """  # noqa: E501
    if ports.keys:
        return None
    if ports.unavailable:
        why = "; ".join(f"{name}: {error}" for name, error in ports.unavailable.items())
        found = f"no key source opened ({why})"
    else:
        found = "no key source is enabled in the config ([buttons], [keypad] or [usb_keypad])"
    return (
        f"{found}: is this the pegboard's Pi? To try the table on this computer: "
        "pegboard run --simulate"
    )


def sim_ports(config: Config, keys: Sequence[Keys] = (), history: int | None = None) -> Ports:
    """The simulator's ports: a recording display of the configured size, keeping its last
    *history* frames (None: every frame), and recording strips."""
    from pegboard.devices.oled import RecordingDisplay

    display = RecordingDisplay(config.display.frame_size, config.display.frame_mode, history)
    strips: dict[str, LedStrip] = {
        s.name: RecordingStrip(s.count, name=s.name) for s in config.leds.strips
    }
    return Ports(display, strips, list(keys))


# -- what the ports show --------------------------------------------------------------------


def led_renderer(layout: LedLayout) -> LedRenderer:
    """A still LED renderer: view -> colours per strip (brightness and limit applied).

    More sides than tracks light the tracks there are (see ``TrackAnimator``).
    """
    return TrackAnimator(layout).render


def screen_renderer(
    size: tuple[int, int],
    mode: str,
    style: Style = Style.COMPACT,
    language: Language = Language.ENGLISH,
) -> ScreenRenderer:
    """The controller's screen renderer: the ``Screen`` it chose -> the display's image, drawn
    in *style*, its words in *language* (see ``screens.render_screen``)."""

    def render(screen: Screen) -> Image:
        return render_screen(screen, size, mode, style, language)

    return render


def page_counter(
    size: tuple[int, int], style: Style = Style.COMPACT, language: Language = Language.ENGLISH
) -> PageCounter:
    """How many pages a screen takes on a display of *size* in *style* and *language* (a
    count, paged)."""

    def pages(screen: Screen) -> int:
        return screen_pages(screen, size, style, language)

    return pages


def paused_frame(
    view: GameView | None,
    size: tuple[int, int],
    mode: str,
    style: Style = Style.COMPACT,
    language: Language = Language.ENGLISH,
) -> Image:
    """The "paused" screen left on the display when the daemon stops."""
    return render_screen(choose_screen(view, paused=True), size, mode, style, language)


# -- the controller -------------------------------------------------------------------------


def build_controller(
    config: Config,
    store: Journal,
    ports: Ports,
    *,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    on_change: Callable[[GameState, GameView], None] | None = None,
    history: HistoryReader | None = None,
    sound: SoundSwitch | None = None,
    tourney: TourneyBoard | None = None,
) -> Controller:
    """One controller over *store* and *ports*, with the config's rules, names, roster and
    renderers; *on_change* is called after every state change (``web_publisher``); *history*
    reads the journal's history beside it (``journal.reader``; None: read when asked);
    *sound* is the speaker the menu turns off and on (``start_speaker``); *tourney* takes a
    tournament night's notices in (``tourney_board``).

    Raises:
        JournalError: the journal cannot be read or written.
    """
    game = config.game
    layout = Layout.for_keys("".join(config.keypad.layout)) if config.keypad.enabled else None
    display = ports.display
    style = config.display.screen_style
    return Controller(
        store=store,
        rules=game.rules,
        names=game.names,
        roster=game.roster,
        match_format=game.match_format,
        layout=layout or Layout.FOUR_BY_FOUR,
        language=game.language,
        display=display,
        strips=ports.strips,
        render_screen=(
            screen_renderer(display.size, display.mode, style, game.language)
            if display is not None
            else None
        ),
        count_pages=(
            page_counter(display.size, style, game.language) if display is not None else None
        ),
        animate_leds=TrackAnimator(config.leds.layout),
        clock=clock,
        rng=rng,
        timing=ScreenTiming(
            retry_after=RETRY_AFTER,
            dim_after=config.display.dim_after or None,
            sleep_after=config.display.sleep_after or None,
            contrast=config.display.contrast,
            news_seconds=config.display.news_seconds,
            page_seconds=config.display.page_seconds,
        ),
        win_chances=_win_chances if config.display.win_probability else None,
        on_change=on_change,
        history=history,
        sound=sound,
        play_hint=PlayHinter(
            language=game.language,
            layout=layout or Layout.FOUR_BY_FOUR,
            allowed=lambda: hint_allowed(
                config.display.play_hint, bool(tourney and tourney.locked)
            ),
        ),
        tourney=tourney,
    )


def _win_chances(state: GameState) -> tuple[float, ...] | None:
    """Each side's chance to win now (``engine.odds``, loaded only when the switch is on)."""
    from pegboard.engine.odds import win_probability

    return win_probability(state)


# -- the pub page ---------------------------------------------------------------------------


def start_web(config: Config) -> WebServer | None:
    """The pub page's server, started, when ``[web] enabled``; else None.

    A server that cannot start (the port in use, an address not this machine's) is logged as
    one error line and None is returned: the game never stops for the page.
    """
    if not config.web.enabled:
        return None
    from pegboard.web.server import WebServer, WebServerError, public_url

    server = WebServer(config.web.bind, config.web.port)
    try:
        server.start()
    except WebServerError as e:
        log.error("web: %s; carrying on without the page", e)
        return None
    url, note = public_url(server)
    log.info("web: the pub page is at %s%s", url, f" ({note})" if note else "")
    return server


def web_publisher(
    server: WebServer,
    reader: HistoryReader,
    language: Language = Language.ENGLISH,
    locked: Callable[[], bool] | None = None,
) -> Callable[[GameState, GameView], None]:
    """The controller's ``on_change`` for *server*: each new view, with the calls in *language*
    (``[game] language``), serialised once (``ViewPublisher``). The evening's results and the
    players' figures come from *reader*'s snapshots, made in its thread, never the caller's.
    *locked* says whether the tournament lock holds (the page then shows the standings only)."""
    from pegboard.web.publisher import ViewPublisher

    return ViewPublisher(server, reader=reader, language=language, locked=locked).publish


# -- the league -----------------------------------------------------------------------------


def tourney_board(config: Config, store: Journal | None = None) -> TourneyBoard | None:
    """A league board's side of a tournament night (``table.tourney``: the hub's pairing and
    lock, the lock's marks in *store*), when ``[league]`` is set; else None (``table.tourney``
    is then never loaded)."""
    if config.league is None:
        return None
    from pegboard.table.tourney import TourneyBoard

    return TourneyBoard(rules=config.game.rules, store=store)


def start_league(config: Config, tourney: TourneyBoard | None = None) -> LeaguePublisher | None:
    """The board's league publisher, started, when ``[league]`` is set; else None; it hands
    each tournament notice to *tourney* (``TourneyBoard.take``, in paho's thread), and sends
    no win probability while *tourney*'s lock holds.

    It connects in the background (a broker that is away is retried; the games wait in the
    journal's outbox). A publisher that cannot be made (paho-mqtt missing, the password file
    unreadable) is logged as one error line and None is returned: the game goes on.
    """
    if config.league is None:
        return None
    from pegboard.league.publisher import LeaguePublisher
    from pegboard.league.standings import LeagueError

    league = config.league
    try:
        publisher = LeaguePublisher(
            league,
            config.game.database,
            on_tourney=tourney.take if tourney is not None else None,
            locked=(lambda: tourney.locked) if tourney is not None else None,
        )
    except LeagueError as e:
        log.error("league: %s; carrying on without the league", e)
        return None
    publisher.start()
    log.info(
        "league: publishing as %s/%s to %s:%d",
        league.venue,
        league.board,
        league.broker,
        league.port,
    )
    return publisher


# -- the voice ------------------------------------------------------------------------------


def start_speaker(
    config: Config, sink: Sink | None = None, *, cut_short: bool = True
) -> Speaker | None:
    """The board's speaker, started, when ``[sound] enabled`` or a *sink* is given; else None.

    It speaks into *sink*, else ALSA's ``[sound] device``, in the table's language (or the
    configured voice). A recording (*cut_short* False) says every utterance in full.
    """
    sound = config.sound
    if not sound.enabled and sink is None:
        return None
    from pegboard.devices.sound import AlsaSink, Voice
    from pegboard.table.speaker import Speaker, espeak_voice

    language = config.game.language
    voice = Voice(
        sink if sink is not None else AlsaSink(sound.device),
        voice=espeak_voice(language, sound.voice),
        volume=sound.volume,
        speed=sound.speed,
    )
    speaker = Speaker(voice, language, said=sound.said, cut_short=cut_short)
    speaker.start()
    return speaker


def on_changes(
    *listeners: Callable[[GameState, GameView], None] | None,
) -> Callable[[GameState, GameView], None] | None:
    """One ``on_change`` that calls each of *listeners* given (None when there are none)."""
    given = [listener for listener in listeners if listener is not None]
    if not given:
        return None
    if len(given) == 1:
        return given[0]

    def each(state: GameState, view: GameView) -> None:
        for listener in given:
            listener(state, view)

    return each
