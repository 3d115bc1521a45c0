"""The league service: every board's games into one table, every board's game on one page.

Theory of operation
-------------------
One MQTT subscriber with a persistent session: a fixed client id, clean start off and a long
session expiry (MQTT 5), subscribed with QoS 1 to every board's ``finished``, ``live`` and
``status`` (``league.topics``). While the service is down, or restarting, the broker keeps the
games published meanwhile for this session (on disk, with Mosquitto's ``persistence true``) and
delivers them when it is back. The service acknowledges a message itself (paho's
``manual_ack``): a finished game only once it is committed to the league's SQLite
(``league.store``), or refused as not a game, so a game is never acknowledged and then lost. A
game the database could not take (locked, full, an I/O error) is held unacknowledged and tried
again every second, in order, with the games that came after it; if the connection drops
meanwhile, the held games are forgotten and the broker sends them again. A copy (QoS 1 may
deliver twice, a board may send again) is kept once, by the id the board gave the game.

Once a game is committed, or was already stored, the service publishes its receipt
(``league.receipt``: the game's id and revision, QoS 1, not retained) on the board's
``receipt`` topic, before it acknowledges the game to the broker; the board keeps the game in
its outbox until that receipt comes, and sends it again otherwise. A service killed between
the two gets the game again from the broker, finds it stored and confirms it then. A game the
league refuses gets a receipt saying why (the board stops sending it), and is logged once.

Two services with one client id take the session from each other, and the games split between
their databases. Mosquitto from 2.0.15 says so (DISCONNECT 0x8E); older ones (Debian Bookworm's
2.0.11) only close the old connection, which looks the same as a broker restarting. So each
service leaves a retained mark on ``service_topic(client_id)`` at every connection (a random
instance id, when and where it connected), subscribing first: after a drop, a mark that is not
its own and was made after it first connected is a twin's, said once as an error. A broker that
restarts brings back our own mark, or none: its drops are one info line each. Only where the
mark cannot be read (an ACL without it) does the service fall back to counting drops soon after
connecting, and then it says plainly that it cannot tell a restarting broker from a twin.

``live`` and ``status`` are kept in memory: both are retained, so the broker hands the latest
of every board to the service at each (re)subscription. The page's payload (``payload()``:
the standings, each board with its status and live view, the latest games) is rebuilt in the
service's own thread: at once after a finished game, and at most every *refresh* seconds for
live views, however many boards send them. The part made of the stored games (the standings,
the latest games and their count) is read from the database once after each new game and
kept: a refresh for a live view reads no game, however many are stored; and that read is of the
store's running totals and of the ``RECENT_GAMES`` latest games only (``league.store``), so a
new game costs the same at 100 games or 100,000. It is served by the
pub page's server (``web.server.WebServer``, Server-Sent Events) with the league's page
(``league/static``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.league.broker import Broker, check_client_id, check_login, parse_broker
from pegboard.league.publisher import (
    ConnectFailures,
    no_delay,
    read_password,
    use_tls,
)
from pegboard.league.receipt import Receipt
from pegboard.league.standings import LeagueError, Standing
from pegboard.league.store import LeagueStore, LeagueStoreError
from pegboard.league.topics import (
    MAX_MESSAGE_BYTES,
    OFFLINE,
    Kind,
    parse_topic,
    service_topic,
    subscriptions,
    topic,
)

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

    from pegboard.web.server import WebServer

__all__ = [
    "STATIC_DIR",
    "Broker",
    "LeagueService",
    "check_client_id",
    "check_login",
    "parse_broker",
]

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The league's page (``index.html``), served by ``web.server.WebServer``."""

SESSION_EXPIRY = 30 * 86_400
"""Seconds the broker keeps the service's session (and queues its games) while it is away."""

SESSION_TAKEN_OVER = 142
"""MQTT 5's DISCONNECT reason 0x8E: another client connected with the same client id."""

SHORT_SESSION = 5.0
"""Seconds: a connection the broker drops sooner than this after it was made is short."""

SHORT_SESSIONS = 3
"""Short connections in a row, each dropped by the broker without a reason, that mean either
another service with our client id (Mosquitto before 2.0.15 closes the old connection without
sending 0x8E; the other service reconnects a second later and takes the session back) or a
broker restarting quickly: said as such only when the service's mark cannot be read."""

RECENT_GAMES = 12
"""How many of the latest games the page lists."""

LAGS_KEPT = 1000
"""How many of the latest live views' lags (``_Counts.lag``) are kept."""

REFUSALS_KEPT = 10_000
"""How many refused games the service remembers having said (then it starts again)."""


@dataclass
class _Board:
    status: str = OFFLINE
    live: dict[str, Any] | None = None
    updated: float = 0.0


@dataclass(frozen=True)
class _Table:
    """What the page shows of the stored games, kept until the next game is stored."""

    standings: list[Standing]
    recent: list[dict[str, Any]]
    games: int


@dataclass
class _Counts:
    messages: int = 0
    finished: int = 0
    stored: int = 0
    receipts: int = 0
    """Receipts sent to boards (one for each game stored or already stored)."""
    refused: int = 0
    unstored: int = 0
    """Attempts to store a good game that the database failed (each retry counts)."""
    pages: int = 0
    taken_over: int = 0
    """Times the broker dropped this service for another with the same client id."""
    lag: deque[float] = field(default_factory=lambda: deque(maxlen=LAGS_KEPT))
    """Seconds from a board's live view to its arrival here, the latest only."""


class LeagueService:
    """Subscribes, stores and serves (module notes). ``start`` it and ``close`` it.

    *web*, when given, is a started ``WebServer`` (with ``static_dir=STATIC_DIR``) that gets
    every new payload; *language* is its page's ("en" or "de"). *client_id* must stay the same
    from run to run: it names the session the broker keeps.

    Raises:
        LeagueError: paho-mqtt is not installed, or the password file or the CA file cannot be
            read.
    """

    def __init__(
        self,
        store: LeagueStore,
        broker: Broker,
        *,
        web: WebServer | None = None,
        client_id: str = "pegboard-league",
        keepalive: int = 30,
        refresh: float = 0.25,
        session_expiry: int = SESSION_EXPIRY,
        language: str = "en",
        on_game: Callable[[str, str, dict[str, Any]], object] | None = None,
    ) -> None:
        try:
            import paho.mqtt.client as mqtt
            from paho.mqtt.enums import CallbackAPIVersion
        except ImportError as e:
            raise LeagueError(
                "the league service needs paho-mqtt: pip install 'pegboard[league]'"
            ) from e
        self.store = store
        self.broker = broker
        self.web = web
        self.keepalive = keepalive
        self.refresh = refresh
        self.session_expiry = session_expiry
        self.language = language
        """The page's language ("en" or "de"), sent in every payload."""
        self.client_id = client_id
        self.on_game = on_game
        """Told each game stored (and each copy): a tournament night's feed (``tourney_feed``)."""
        self._taken_over = False  # said once: another service with our client id
        self._since = 0.0  # when the current connection was made (monotonic)
        self._short = 0  # connections in a row the broker dropped soon after they were made
        self._cannot_tell = False  # said once: dropped again and again, and no mark to tell by
        self._instance = uuid.uuid4().hex  # this process's mark (``_on_mark``)
        self._first: float | None = None  # when this service first connected (epoch seconds)
        self._marked = threading.Event()  # the broker echoed our mark: a twin would show
        self._mark_topic = service_topic(client_id)
        self.counts = _Counts()
        self._boards: dict[tuple[str, str], _Board] = {}
        self._lock = threading.Lock()
        self._dirty = threading.Event()
        self._urgent = threading.Event()  # a game: the page is rebuilt at once
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._table: _Table | None = None  # None: a game was stored since it was read
        self._stored = 0  # games stored by this service: a table read before one is stale
        self._thread: threading.Thread | None = None
        self._held: deque[mqtt.MQTTMessage] = deque()  # games not stored yet: not acknowledged
        self._held_lock = threading.Lock()
        self._refused: set[tuple[str, str, bytes]] = set()  # said once each (``_refuse``)
        client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=client_id,
            protocol=mqtt.MQTTv5,
            manual_ack=True,  # a game is acknowledged once stored (module notes)
        )
        if broker.username is not None:
            password = read_password(broker.password_file, "--password-file")
            client.username_pw_set(broker.username, password)
        if broker.ca_file is not None:
            use_tls(client, broker.ca_file, "--ca-file")
        client.reconnect_delay_set(min_delay=1, max_delay=10)
        hint = f"--ca-file {str(broker.ca_file)!r}" if broker.ca_file else "--ca-file (unset)"
        user = repr(broker.username) if broker.username is not None else "(unset)"
        secret = repr(str(broker.password_file)) if broker.password_file else "(unset)"
        login_hint = f"--username {user} and --password-file {secret}"
        self.failures = ConnectFailures(broker.host, broker.port, hint, login_hint)
        """Failed connections: each reason logged once."""
        client.on_connect = self._on_connect
        client.on_connect_fail = lambda client, userdata: self.failures.failed()
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client: mqtt.Client = client

    # --- life ----------------------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background (and keep reconnecting); returns at once."""
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        if self._thread is not None:
            return
        props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        props.SessionExpiryInterval = self.session_expiry
        self._client.connect_async(
            self.broker.host,
            self.broker.port,
            keepalive=self.keepalive,
            clean_start=False,
            properties=props,
        )
        self._client.loop_start()
        self._thread = threading.Thread(target=self._run, name="pegboard-league-page", daemon=True)
        self._thread.start()
        self._dirty.set()

    def close(self) -> None:
        """Disconnect (the broker keeps the session and queues games) and stop."""
        self._stop.set()
        self._dirty.set()
        self._urgent.set()
        self._client.disconnect()
        self._client.loop_stop()
        if self._thread is not None:
            self._thread.join(2.0)

    @property
    def marked(self) -> bool:
        """Whether the broker has shown this service its own mark (so a twin's would show)."""
        return self._marked.is_set()

    def wait_connected(self, timeout: float) -> bool:
        """Wait until subscribed; whether it was within *timeout* seconds."""
        return self._connected.wait(timeout)

    # --- paho's thread -------------------------------------------------------------------------

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        from paho.mqtt.subscribeoptions import SubscribeOptions

        if reason.is_failure:
            self.failures.refused(reason, "service")
            return
        log.info(
            "league: connected to %s:%d (session %s)",
            self.broker.host,
            self.broker.port,
            "resumed" if flags.session_present else "new",
        )
        self.failures.connected()
        self._since = time.monotonic()
        no_delay(client)
        client.subscribe([(name, SubscribeOptions(qos=1)) for name in subscriptions()])
        # the mark: subscribed first, so the broker hands over the last one kept (another
        # service's, if one connected with our client id since we first did), then ours
        client.subscribe(self._mark_topic, qos=1)
        now = time.time()
        if self._first is None:
            self._first = now
        mark = {"instance": self._instance, "connected": now, "host": socket.gethostname()}
        client.publish(self._mark_topic, json.dumps(mark), qos=1, retain=True)
        self._connected.set()

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        was_connected = self._connected.is_set()  # else a refused or failed attempt
        self._connected.clear()
        with self._held_lock:  # unacknowledged: the broker sends them again on reconnecting
            self._held.clear()
        code = getattr(reason, "value", None)
        if code == SESSION_TAKEN_OVER:
            self._said_taken_over("took")
            return
        if self._stop.is_set() or not was_connected:
            return
        lasted = time.monotonic() - self._since
        if not self._taken_over:
            log.info(
                "league: the broker %s:%d dropped the service's connection after %.1f s (%s); "
                "reconnecting",
                self.broker.host,
                self.broker.port,
                lasted,
                reason,
            )
        # a broker that closes the old connection without a word (Mosquitto before 2.0.15):
        # another service leaves its mark (``_on_mark``); without a readable mark, short drops
        # in a row are all there is, and they look the same as a broker restarting quickly
        dropped = code is not None and code >= 128
        self._short = self._short + 1 if dropped and lasted < SHORT_SESSION else 0
        if self._short >= SHORT_SESSIONS:
            self._short = 0
            if not self._marked.is_set():
                self._said_cannot_tell()

    def _on_mark(self, payload: bytes) -> None:
        """A service's mark on our client id's topic: ours, or another's that connected after
        this service first did (a predecessor's, from before, is no twin)."""
        try:
            mark = json.loads(payload)
            instance, connected = str(mark["instance"]), float(mark["connected"])
        except (ValueError, TypeError, KeyError):
            return
        if instance == self._instance:
            self._marked.set()
        elif self._first is not None and connected >= self._first:
            self._said_taken_over("took")

    def _said_cannot_tell(self) -> None:
        """Say once that the broker keeps dropping us and why we cannot tell the reason."""
        if self._cannot_tell:
            return
        self._cannot_tell = True
        log.warning(
            "league: the broker %s:%d dropped the service %d times within %.0f s of connecting: "
            "either the broker is restarting, or another league service uses client id %r; "
            "cannot tell which, as the service's mark on %r is not readable (check the ACL: the "
            "league user reads and writes pegboard/v1/service/#)",
            self.broker.host,
            self.broker.port,
            SHORT_SESSIONS,
            SHORT_SESSION,
            self.client_id,
            self._mark_topic,
        )

    def _said_taken_over(self, verb: str) -> None:
        """Count a session taken over, and say it the first time."""
        self.counts.taken_over += 1
        if self._taken_over:
            return
        # two services on one session: each reconnect drops the other, and the games split
        # between their databases; said once, as the broker keeps swapping them
        self._taken_over = True
        log.error(
            "league: another league service with client id %r %s the session over (on %s:%d); "
            "each service needs its own --client-id, and only one may keep a league's games",
            self.client_id,
            verb,
            self.broker.host,
            self.broker.port,
        )

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == self._mark_topic:
            self._on_mark(bytes(message.payload))
            client.ack(message.mid, message.qos)
            return
        with self._held_lock:
            if not self._held and self._take(message):
                client.ack(message.mid, message.qos)
            else:  # behind the games held before it, in order
                self._held.append(message)

    def _take(self, message: mqtt.MQTTMessage) -> bool:
        """Handle *message*; whether it may be acknowledged (False: the database failed)."""
        try:
            self.handle(message.topic, bytes(message.payload))
        except LeagueStoreError as e:
            self.counts.unstored += 1
            if not self._held:  # said once, not at every retry
                log.warning(
                    "league: a game on %r was not stored: %s; not acknowledged, so it is tried "
                    "again (and the broker keeps it)",
                    message.topic,
                    e,
                )
            return False
        except Exception:  # a bad message never stops the service
            log.exception("league: message on %r failed", message.topic)
        return True

    def _retry_held(self) -> None:
        """Store the held games, in order, acknowledging each; stop at the first that fails."""
        with self._held_lock:
            while self._held:
                message = self._held[0]
                if not self._take(message):
                    return
                self._held.popleft()
                self._client.ack(message.mid, message.qos)
                if not self._held:
                    log.info("league: the held games are stored")

    def handle(self, name: str, payload: bytes) -> None:
        """Take one message on topic *name* (called in paho's thread; tests call it too).

        A finished game is committed before this returns (and so before it is acknowledged),
        and its receipt is on its way to the board (also for a copy of a stored game); or it is
        refused (logged) when it is not a game.

        Raises:
            LeagueStoreError: the database failed to store a good game: do not acknowledge it.
        """
        where = parse_topic(name)
        if where is None:
            return
        if len(payload) > MAX_MESSAGE_BYTES:  # no board sends so much: refused, never parsed
            log.warning(
                "league: %s refused: %d bytes (at most %d)", name, len(payload), MAX_MESSAGE_BYTES
            )
            return
        venue, board, kind = where
        if kind in (Kind.RECEIPT, Kind.TOURNEY):
            return  # the service's own, to a board
        self.counts.messages += 1
        if kind is Kind.FINISHED:
            self.counts.finished += 1
            data: Any = None
            try:
                data = json.loads(payload)
                if not isinstance(data, dict):
                    raise LeagueError(f"not a JSON object: {payload[:60]!r}")
                changed = self.store.add(venue, board, data)
            except LeagueStoreError:
                raise
            except (ValueError, LeagueError) as e:
                self._refuse(venue, board, payload, data, str(e))
                return
            if self.on_game is not None:  # before the receipt: a failure here is sent again
                self.on_game(venue, board, data)
            self._confirm(venue, board, data)
            if changed:
                self.counts.stored += 1
                with self._lock:
                    self._table = None
                    self._stored += 1
                self._urgent.set()
                self._dirty.set()
            return
        with self._lock:
            state = self._boards.setdefault((venue, board), _Board())
            state.updated = time.time()
            if kind is Kind.STATUS:
                state.status = payload.decode("utf-8", "replace")[:16]
            else:
                try:
                    live = json.loads(payload) if payload else None
                except ValueError:
                    live = None
                state.live = live if isinstance(live, dict) else None
                if state.live is not None and isinstance(state.live.get("sent"), int | float):
                    self.counts.lag.append(time.time() - state.live["sent"])
        self._dirty.set()

    def _refuse(self, venue: str, board: str, payload: bytes, data: Any, why: str) -> None:
        """Count a refused game, say why once however often it comes, and tell its board (a
        receipt saying refused, when it has an id): it stops sending it again."""
        self.counts.refused += 1
        said = (venue, board, hashlib.sha256(payload).digest())
        if said not in self._refused:
            if len(self._refused) >= REFUSALS_KEPT:
                self._refused.clear()
            self._refused.add(said)
            log.warning("league: a game from %s/%s was refused: %s", venue, board, why)
        receipt = Receipt.of({"revision": 1, **data}) if isinstance(data, dict) else None
        if receipt is not None:
            body = Receipt(receipt.game_id, receipt.revision, why).to_payload()
            self._client.publish(topic(venue, board, Kind.RECEIPT), body, qos=1)

    def _confirm(self, venue: str, board: str, game: dict[str, Any]) -> None:
        """Send *board* the receipt for *game*, which the store now has (module notes)."""
        receipt = Receipt.of(game)
        if receipt is None:  # the store checked the id and revision: cannot happen
            return
        body = Receipt(receipt.game_id, receipt.revision).to_payload()
        self._client.publish(topic(venue, board, Kind.RECEIPT), body, qos=1)
        self.counts.receipts += 1

    def publish_retained(self, name: str, payload: bytes) -> bool:
        """Publish *payload* retained at QoS 1 on topic *name* (a board's ``tourney``
        notice); whether paho took it while connected (else it is tried again)."""
        return self._client.publish(name, payload, qos=1, retain=True).rc == 0

    # --- the page --------------------------------------------------------------------------------

    def standings(self) -> list[Standing]:
        """The table now (kept until the next game)."""
        return self._games_table().standings

    def _games_table(self) -> _Table:
        with self._lock:
            cached, stored = self._table, self._stored
        if cached is not None:
            return cached
        # the stored totals and a bounded query: the same cost at 100 games or 100,000
        recent = [
            {
                "venue": g.venue,
                "board": g.board,
                "ended": g.ended,
                "winner": g.winner.name,
                "sides": [{"name": s.name, "score": s.score, "lurch": s.lurch} for s in g.sides],
            }
            for g in self.store.latest(RECENT_GAMES)
        ]
        table = _Table(self.store.standings(), recent, self.store.count())
        with self._lock:
            if self._stored == stored:  # else a game came while this was read: read again
                self._table = table
        return table

    def payload(self) -> dict[str, Any]:
        """The page's fields: ``standings``, ``boards`` (venue, board, status, live view, win
        probability and when the board sent it), ``recent`` (the latest games, at most
        ``RECENT_GAMES``), ``more`` (how many stand besides them), ``games`` (how many stand),
        ``messages`` (how many the service has taken since start) and ``language`` (the
        page's)."""
        table = self._games_table()
        with self._lock:
            boards = [
                {
                    "venue": venue,
                    "board": board,
                    "status": state.status,
                    "view": (state.live or {}).get("view"),
                    "win_probability": (state.live or {}).get("win_probability"),
                    "sent": (state.live or {}).get("sent"),
                    "updated": state.updated,
                }
                for (venue, board), state in sorted(self._boards.items())
            ]
        return {
            "standings": [line.to_dict() for line in table.standings],
            "boards": boards,
            "recent": table.recent,
            "more": max(table.games - len(table.recent), 0),
            "games": table.games,
            "messages": self.counts.messages,
            "language": self.language,
        }

    def _run(self) -> None:
        last = 0.0
        while not self._stop.is_set():
            self._dirty.wait(1.0)
            if self._stop.is_set():
                return
            if self._held:
                self._retry_held()
            if not self._dirty.is_set():
                continue
            wait = last + self.refresh - time.monotonic()
            if wait > 0:
                self._urgent.wait(wait)  # live views wait their turn; a game cuts in
            if self._stop.is_set():
                return
            self._urgent.clear()
            self._dirty.clear()
            last = time.monotonic()
            if self.web is None:
                continue
            try:
                self.web.publish(self.payload())
                self.counts.pages += 1
            except Exception:
                log.exception("league: the page's payload failed")
