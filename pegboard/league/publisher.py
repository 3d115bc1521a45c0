"""The board's side of the league: its games, its live view and whether it is on, over MQTT.

Theory of operation
-------------------
Nothing is lost. The journal (``Journal(outbox=True)``) writes a finished game into its
``outbox`` table in the same transaction as the command that won it, so once a key press is
shown, its game is on disk. ``LeaguePublisher`` sends the outbox's rows with QoS 1; the broker's
PUBACK (paho's ``on_publish`` with the message's mid) only marks a row as sent
(``Outbox.mark_sent``): the broker may still lose it. A row is deleted only when the league's
receipt for its game comes on the board's ``receipt`` topic (``league.receipt``). A row still
waiting is sent again at each (re)connection (the broker may have restarted without it) and
otherwise after ``receipt_wait`` seconds, doubling up to ``receipt_wait_most``, each time said
in one warning. On start it sends whatever is left, so a board that lost power, or the Wi-Fi,
or was killed mid-send, sends its games when it is back. A game may so arrive twice or more
(QoS 1 may too); the league keeps one per game id and revision, and confirms each copy. A
game the league refuses comes back with a receipt saying why: one error line, and the row goes.

The network never delays a key press or a frame. The controller's thread only calls
``on_change``, which puts the latest (state, view) into a one-place slot under a lock and sets
an event: no I/O, no waiting, no serialising. Everything else happens in this publisher's own
thread (``pegboard-league``): the live view's JSON (the same ``view`` and ``win_probability``
the pub page gets), the outbox read through the publisher's OWN connection (a
``journal.outbox.Outbox``: the controller's thread owns the journal's; WAL lets both in), and
the deletes (``Outbox.acknowledge``). Views that come
faster than they can be sent are skipped to the newest. paho runs its own network thread
(``loop_start``), connects in the background and reconnects by itself.

Topics (``league.topics``): ``status`` is "online" (retained) once connected and "offline" as
the last will, so a board that loses power shows offline once the broker misses its pings
(about 1.5 times ``keepalive``); a clean stop publishes "offline" itself. ``live`` is retained
(QoS 0: each view supersedes the last), so a screen opened late gets the game at once.
``finished`` carries each outbox row's JSON as it is (an ``engine.summary.GameSummary``'s
payload: the game, its id, revision and times; or a withdrawn win).
"""

from __future__ import annotations

import json
import logging
import queue
import socket
import ssl
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.config.league import LeagueConfig
from pegboard.errors import JournalError
from pegboard.journal.outbox import Outbox, OutboxRow
from pegboard.league.receipt import Receipt, resend_after
from pegboard.league.standings import LeagueError
from pegboard.league.topics import OFFLINE, ONLINE, Kind, topic
from pegboard.tourney.night import TourneyError
from pegboard.tourney.notices import TableNotice

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

    from pegboard.engine.game import GameState
    from pegboard.engine.view import GameView

__all__ = [
    "ConnectFailures",
    "LeaguePublisher",
    "connect_failure",
    "live_payload",
    "load_ca",
    "no_delay",
    "read_password",
    "use_tls",
]

log = logging.getLogger(__name__)

POLL = 2.0
"""Seconds between looks at the outbox when nothing wakes the publisher."""

RECEIPT_WAIT = 60.0
"""Seconds a board waits for the league's receipt before it sends a game again (then twice as
long after each send again): a league service restarting takes seconds, not a minute."""

RECEIPT_WAIT_MOST = 1800.0
"""The longest wait between sends again of a game without a receipt: a league service that
stays away costs each waiting game one message every half hour."""


def _why(error: BaseException) -> str:
    """*error*'s reason without the file's name again (an ``OSError``'s ``strerror``)."""
    if isinstance(error, UnicodeDecodeError):
        return "it is not UTF-8 text"
    return (error.strerror if isinstance(error, OSError) else None) or str(error)


def read_password(path: Path | None, option: str = "[league] password_file") -> str | None:
    """The first line of *path* (None: no password); *option* is the setting that named it.

    Raises:
        LeagueError: the file cannot be read (one line naming *option* and the path).
    """
    if path is None:
        return None
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise LeagueError(
            f"cannot read the league password from {option} {str(path)!r}: {_why(e)}"
        ) from e
    return lines[0].strip() if lines else ""


def no_delay(client: mqtt.Client) -> None:
    """Turn Nagle's algorithm off on *client*'s socket: else a small message written while
    the last one waits for its ACK is held back (about 40 ms on Linux's delayed ACKs)."""
    sock = client.socket()
    if isinstance(sock, socket.socket):
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError as e:
            log.debug("league: TCP_NODELAY not set: %s", e)


NO_CA = "[league] ca_file (unset: the system's CAs)"


def load_ca(ca_file: Path | None, option: str = "[league] ca_file") -> ssl.SSLContext:
    """A TLS client's context that trusts *ca_file* (None: the system's CAs) and checks the
    broker's name; *option* is the setting that named the file.

    Raises:
        LeagueError: the CA file cannot be read or is not a certificate (one line naming
            *option* and the path).
    """
    try:
        return ssl.create_default_context(cafile=str(ca_file) if ca_file is not None else None)
    except ssl.SSLError as e:  # read, but no certificate in it
        where = f"{option} {str(ca_file)!r}" if ca_file is not None else "the system's CAs"
        raise LeagueError(
            f"cannot load the broker's CA from {where}: not a certificate ({e.reason or e}; "
            "expected the PEM certificate of the CA that signed the broker's)"
        ) from e
    except (OSError, ValueError) as e:
        where = f"{option} {str(ca_file)!r}" if ca_file is not None else "the system's CAs"
        raise LeagueError(f"cannot load the broker's CA from {where}: {_why(e)}") from e


def use_tls(client: mqtt.Client, ca_file: Path | None, option: str = "[league] ca_file") -> None:
    """TLS to the broker, trusting *ca_file* (None: the system's CAs) and checking its name.

    Raises:
        LeagueError: the CA file cannot be read or is not a certificate.
    """
    client.tls_set_context(load_ca(ca_file, option))


def connect_failure(
    error: BaseException | None, host: str, port: int, ca_hint: str
) -> tuple[int, str]:
    """The log level and line for a failed connection to *host*:*port*.

    A certificate the CA does not vouch for, or TLS that fails otherwise, is an error that
    trying again will not mend (*ca_hint* names the setting to check); a broker that is away is
    a warning (the games wait in the outbox).

    >>> connect_failure(ConnectionRefusedError(111, "Connection refused"), "hub", 1883, "")
    (30, 'league: cannot reach the broker hub:1883: Connection refused; trying again')
    """
    where = f"{host}:{port}"
    if isinstance(error, ssl.SSLCertVerificationError):
        why = error.verify_message or str(error)
        return logging.ERROR, (
            f"league: the broker {where} failed the TLS check: {why} "
            f"(check {ca_hint}: it must be the CA that signed the broker's certificate)"
        )
    if isinstance(error, ssl.SSLError):
        why = error.reason or str(error)
        return logging.ERROR, f"league: TLS with the broker {where} failed: {why} (its TLS port?)"
    why = (error.strerror if isinstance(error, OSError) else None) or str(error or "no answer")
    return logging.WARNING, f"league: cannot reach the broker {where}: {why}; trying again"


_LOGIN_REFUSED = frozenset({4, 5, 134, 135})
"""CONNACK reasons that name the user or the password: MQTT 3's 4 and 5, MQTT 5's 0x86 (bad
user name or password) and 0x87 (not authorized)."""


class ConnectFailures:
    """Logs a failed connection once, not at every retry: again only when the reason changes,
    or after the next successful connection (``connected``). *login_hint* names the user and
    the password's settings, for a broker that refuses them."""

    def __init__(self, host: str, port: int, ca_hint: str, login_hint: str = "") -> None:
        self.host, self.port, self.ca_hint, self.login_hint = host, port, ca_hint, login_hint
        self.count = 0
        """Failed attempts since the last successful connection."""
        self._said: str | None = None

    def failed(self) -> None:
        """Call from paho's ``on_connect_fail``: it runs inside paho's ``except OSError``, so
        ``sys.exc_info()`` holds the reason."""
        self.count += 1
        level, line = connect_failure(sys.exc_info()[1], self.host, self.port, self.ca_hint)
        self._say(level, line)

    def refused(self, reason: Any, who: str) -> None:
        """Call from paho's ``on_connect`` when the broker's answer is a refusal (*reason*, a
        paho ``ReasonCode``) of *who* ("board", "service")."""
        self.count += 1
        where = f"{self.host}:{self.port}"
        if getattr(reason, "value", None) in _LOGIN_REFUSED:
            line = (
                f"league: the broker {where} refused the {who}: {reason} (check {self.login_hint})"
            )
            self._say(logging.ERROR, line)
        else:
            self._say(logging.WARNING, f"league: the broker {where} refused the {who}: {reason}")

    def _say(self, level: int, line: str) -> None:
        if line != self._said:
            self._said = line
            log.log(level, "%s", line)

    def connected(self) -> None:
        self.count = 0
        self._said = None


def live_payload(
    state: GameState, view: GameView, venue: str, board: str, *, locked: bool = False
) -> dict[str, Any]:
    """What ``live`` carries: the pub page's ``view`` and ``win_probability`` (none while the
    tournament lock holds: ``locked``), where, and when."""
    from pegboard.engine.odds import OddsError, win_probability

    chances = None
    if not locked:
        try:
            chances = win_probability(state)
        except (OddsError, OSError):
            chances = None
    return {
        "venue": venue,
        "board": board,
        "view": view.to_dict(),
        "win_probability": None if chances is None else [float(c) for c in chances],
        "locked": locked,
        "sent": time.time(),
    }


class LeaguePublisher:
    """Publishes the journal's outbox, the live view and the board's status (module notes).

    *journal* is the path of the board's journal (its outbox opened here through a connection
    of our own, ``journal.outbox.Outbox``). ``start`` it, hand it each change with
    ``on_change`` (from the controller's thread), and ``close`` it on the way out.
    *client_id* defaults to ``pegboard-<venue>-<board>``.

    Raises:
        LeagueError: paho-mqtt is not installed, or the password file or the CA file cannot be
            read.
    """

    def __init__(
        self,
        config: LeagueConfig,
        journal: Path,
        *,
        client_id: str | None = None,
        poll: float = POLL,
        receipt_wait: float = RECEIPT_WAIT,
        receipt_wait_most: float = RECEIPT_WAIT_MOST,
        clock: Callable[[], float] = time.time,
        on_tourney: Callable[[TableNotice], None] | None = None,
        locked: Callable[[], bool] | None = None,
    ) -> None:
        try:
            import paho.mqtt.client as mqtt
            from paho.mqtt.enums import CallbackAPIVersion
        except ImportError as e:
            raise LeagueError("[league] needs paho-mqtt: pip install 'pegboard[league]'") from e
        self.config = config
        self.journal = journal
        self.poll = poll
        self.receipt_wait, self.receipt_wait_most = receipt_wait, receipt_wait_most
        self.clock = clock
        """Seconds since the epoch: a row's last send is kept in the outbox across restarts."""
        self.on_tourney = on_tourney
        """Told each notice of a tournament night (the board's next pairing, the lock), in
        paho's thread: it must only hand it over (``table.tourney``)."""
        self.locked = locked
        """Whether the board obeys a tournament lock now (``table.tourney``): the live view
        then carries no win probability."""
        self._topics = {kind: topic(config.venue, config.board, kind) for kind in Kind}
        self._lock = threading.Lock()
        self._latest: tuple[GameState, GameView] | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._acked: queue.SimpleQueue[tuple[int, bool]] = queue.SimpleQueue()
        self._receipts: queue.SimpleQueue[Receipt] = queue.SimpleQueue()
        self._fresh = threading.Event()  # a new connection: every waiting game goes again
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None
        self.sent_games = 0
        """Outbox rows the league confirmed (its receipt) and so deleted, since start."""
        self.sends = 0
        """Games handed to paho to send (first sends and sends again), since start."""
        self.resent = 0
        """Sends again of games the league had not confirmed, since start."""
        self.refused = 0
        """Outbox rows the league refused (its receipt said why), deleted and not sent again."""
        password = read_password(config.password_file)
        client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=client_id or f"pegboard-{config.venue}-{config.board}",
            protocol=mqtt.MQTTv5,
        )
        client.will_set(self._topics[Kind.STATUS], OFFLINE, qos=1, retain=True)
        client.username_pw_set(config.user, password)
        if config.tls:
            use_tls(client, config.ca_file)
        client.reconnect_delay_set(min_delay=1, max_delay=30)
        ca_hint = f"[league] ca_file {str(config.ca_file)!r}" if config.ca_file else NO_CA
        user = (
            f"{config.username!r}" if config.username else f"(unset: the board's, {config.user!r})"
        )
        secret = f"{str(config.password_file)!r}" if config.password_file else "(unset)"
        login_hint = f"[league] username {user} and password_file {secret}"
        self.failures = ConnectFailures(config.broker, config.port, ca_hint, login_hint)
        """Failed connections: each reason logged once."""
        client.on_connect = self._on_connect
        client.on_connect_fail = lambda client, userdata: self.failures.failed()
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_subscribe = self._on_subscribe
        client.on_message = self._on_message
        self._client: mqtt.Client = client

    # --- the controller's side ----------------------------------------------------------------

    def on_change(self, state: GameState, view: GameView) -> None:
        """Hand over the newest view (the controller's ``on_change``): never blocks on I/O."""
        with self._lock:
            self._latest = (state, view)
        self._wake.set()

    # --- life ----------------------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background and start sending; returns at once."""
        if self._thread is not None:
            return
        self._client.connect_async(
            self.config.broker, self.config.port, keepalive=round(self.config.keepalive)
        )
        self._client.loop_start()
        self._thread = threading.Thread(target=self._run, name="pegboard-league", daemon=True)
        self._thread.start()

    def close(self, timeout: float = 2.0) -> None:
        """Say "offline", disconnect and stop (what is unsent stays in the outbox)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self._connected.is_set():
            info = self._client.publish(self._topics[Kind.STATUS], OFFLINE, qos=1, retain=True)
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError) as e:
                log.debug("league: offline not sent: %s", e)
        self._client.disconnect()
        self._client.loop_stop()

    @property
    def connected(self) -> bool:
        """Whether the broker has the board now."""
        return self._connected.is_set()

    # --- paho's thread -------------------------------------------------------------------------

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if reason.is_failure:
            self.failures.refused(reason, "board")
            return
        log.info("league: connected to %s:%d", self.config.broker, self.config.port)
        self.failures.connected()
        no_delay(client)
        # the receipts first: a game sent next may be confirmed at once
        client.subscribe(self._topics[Kind.RECEIPT], qos=1)
        if self.on_tourney is not None:  # a tournament night's notices (retained)
            client.subscribe(self._topics[Kind.TOURNEY], qos=1)
        client.publish(self._topics[Kind.STATUS], ONLINE, qos=1, retain=True)
        self._fresh.set()
        self._connected.set()
        self._wake.set()

    def _on_subscribe(
        self, client: mqtt.Client, userdata: Any, mid: int, reasons: Any, props: Any
    ) -> None:
        if any(reason.is_failure for reason in reasons):
            log.error(
                "league: the broker refused the board's receipts on %r (check the ACL: a board "
                "reads its own receipt topic); its games are sent again and again meanwhile",
                self._topics[Kind.RECEIPT],
            )

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == self._topics[Kind.TOURNEY] and self.on_tourney is not None:
            self._take_notice(bytes(message.payload))
            return
        if message.topic != self._topics[Kind.RECEIPT]:
            return
        try:
            self._receipts.put(Receipt.from_payload(bytes(message.payload)))
        except LeagueError as e:
            log.warning("league: %s", e)
            return
        self._wake.set()

    def _take_notice(self, payload: bytes) -> None:
        try:
            notice = TableNotice.from_payload(json.loads(payload)) if payload else None
        except (ValueError, TourneyError) as e:
            log.warning("league: a tournament notice refused: %s", e)
            return
        if notice is not None and self.on_tourney is not None:
            self.on_tourney(notice)

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if self._connected.is_set():
            log.info("league: disconnected from %s (%s)", self.config.broker, reason)
        self._connected.clear()

    def _on_publish(
        self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, props: Any
    ) -> None:
        self._acked.put((mid, not reason.is_failure))
        self._wake.set()

    # --- the publisher's thread ----------------------------------------------------------------

    def _run(self) -> None:
        outbox: Outbox | None = None
        in_flight: dict[int, int] = {}  # outbox row -> mid of its latest send
        rows_of: dict[int, int] = {}  # mid -> outbox row
        try:
            while not self._stop.is_set():
                self._wake.wait(self.poll)
                self._wake.clear()
                if self._stop.is_set():
                    break
                if outbox is None:
                    outbox = self._open()
                if outbox is not None:
                    self._take_acks(outbox, in_flight, rows_of)
                    self._take_receipts(outbox, in_flight)
                if not self._connected.is_set():
                    continue
                if outbox is not None:  # the games first: they matter more than the view
                    self._send_outbox(outbox, in_flight, rows_of)
                self._send_live()
        except Exception:  # the game goes on without the league; logged once
            log.exception("league: the publisher stopped")
        finally:
            if outbox is not None:
                outbox.close()

    def _open(self) -> Outbox | None:
        """The publisher's own connection to the journal's outbox, made in this thread (noted
        as open in this process before its first lock: ``journal.outbox.Outbox``); None,
        logged, when the outbox cannot be read (tried again at the next wake)."""
        try:
            return Outbox(Path(self.journal))
        except JournalError as e:
            log.warning("league: %s", e)
            return None

    def _send_live(self) -> None:
        with self._lock:
            latest, self._latest = self._latest, None
        if latest is None:
            return
        state, view = latest
        locked = self.locked is not None and self.locked()
        payload = live_payload(state, view, self.config.venue, self.config.board, locked=locked)
        body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
        self._client.publish(self._topics[Kind.LIVE], body, qos=0, retain=True)

    def _send_outbox(
        self, outbox: Outbox, in_flight: dict[int, int], rows_of: dict[int, int]
    ) -> None:
        try:
            rows = outbox.pending()  # all of them: a refused row must not hold the others back
        except JournalError as e:
            log.warning("league: %s", e)
            return
        again = self._fresh.is_set()  # a new connection: the broker may have lost them all
        self._fresh.clear()
        now = self.clock()
        resent: list[OutboxRow] = []
        for row in rows:
            if row.id in in_flight:
                continue  # paho sends it again itself after a reconnect
            if row.sent is not None and not again:
                wait = resend_after(row.tries, self.receipt_wait, self.receipt_wait_most)
                if now < row.sent + wait:
                    continue
            info = self._client.publish(self._topics[Kind.FINISHED], row.payload, qos=1)
            in_flight[row.id] = info.mid
            rows_of[info.mid] = row.id
            self.sends += 1
            if row.sent is not None:
                resent.append(row)
        if resent:
            self.resent += len(resent)
            oldest = min(resent, key=lambda row: row.sent or now)
            log.warning(
                "league: no receipt from the league yet for %d game(s) (the oldest sent %d "
                "time(s), last %.0f s ago); sending them again%s",
                len(resent),
                oldest.tries,
                now - (oldest.sent or now),
                " after reconnecting" if again else "",
            )

    def _take_acks(
        self, outbox: Outbox, in_flight: dict[int, int], rows_of: dict[int, int]
    ) -> None:
        while True:
            try:
                mid, ok = self._acked.get_nowait()
            except queue.Empty:
                return
            row = rows_of.pop(mid, None)
            if row is None:
                continue  # a status or live message
            if not ok:  # refused (the ACL): kept in the outbox and tried after a restart
                log.error("league: the broker refused game row %d (check the ACL)", row)
                continue
            try:
                outbox.mark_sent([row], self.clock())
            except JournalError as e:
                log.warning("league: game row %d sent but not yet noted as sent: %s", row, e)
                rows_of[mid] = row
                self._acked.put((mid, ok))
                return
            in_flight.pop(row, None)

    def _take_receipts(self, outbox: Outbox, in_flight: dict[int, int]) -> None:
        """Delete the rows of the games the league has confirmed."""
        receipts: list[Receipt] = []
        while True:
            try:
                receipts.append(self._receipts.get_nowait())
            except queue.Empty:
                break
        if not receipts:
            return
        try:
            rows = outbox.pending()
            covered = {
                row.id: next((r for r in receipts if r.covers(*game)), None)
                for row in rows
                if (game := row.game) is not None
            }
            done = {row: receipt for row, receipt in covered.items() if receipt is not None}
            outbox.acknowledge(list(done))
        except JournalError as e:
            log.warning("league: games confirmed but not yet deleted: %s", e)
            for receipt in receipts:
                self._receipts.put(receipt)
            return
        for row_id in done:
            in_flight.pop(row_id, None)  # its PUBACK, if it comes, finds no row to mark
        refused = [receipt for receipt in done.values() if receipt.refused is not None]
        for receipt in sorted(set(refused), key=lambda r: (r.game_id, r.revision)):
            log.error(
                "league: the league refused game %s (revision %d): %s; it stays in this "
                "board's journal, is not counted, and is not sent again",
                receipt.game_id,
                receipt.revision,
                receipt.refused,
            )
        self.refused += len(refused)
        self.sent_games += len(done) - len(refused)
