"""``[league]``: the board's place in a league over MQTT (``pegboard.league``).

Absent, ``Config.league`` is None: nothing is published and paho is never loaded. Venue and
board names are part of the topics (``pegboard/v1/<venue>/<board>/...``), so they are plain
words.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from pegboard.config.fields import REQUIRED, Fields
from pegboard.errors import ConfigError
from pegboard.frozen import frozen

__all__ = ["LeagueConfig", "is_host", "is_topic_name", "parse_league"]

_TOPIC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def is_topic_name(name: str) -> bool:
    """Whether *name* may be a venue or a board in a league topic: a letter or digit, then up
    to 63 letters, digits, ``-`` or ``_`` (no ``/``, ``+``, ``#`` or spaces).

    >>> is_topic_name("red-lion"), is_topic_name("table 2"), is_topic_name("a/b")
    (True, False, False)
    """
    return _TOPIC_NAME.fullmatch(name) is not None


def is_host(text: str) -> bool:
    """Whether *text* may be a broker's host: a name or an address (IPv6 without brackets), not
    ``host:port``, a URL or an empty string.

    >>> is_host("hub.local"), is_host("192.168.1.10"), is_host("::1"), is_host("hub:1883")
    (True, True, True, False)
    """
    return bool(text.strip()) and text.count(":") != 1 and not any(c in text for c in "[]/ ")


@frozen
class LeagueConfig:
    """``[league]``: where the board publishes its games (``pegboard.league.publisher``)."""

    broker: str
    """The broker's host name or address: the pub's hub."""
    venue: str
    board: str
    """The topics are ``pegboard/v1/<venue>/<board>/...``."""
    port: int = 1883
    """1883, or 8883 with ``tls`` (the default follows ``tls``)."""
    username: str = ""
    """The broker's user for this board; empty: the board's name."""
    password_file: Path | None = None
    """A file whose first line is the password (kept out of the config)."""
    tls: bool = False
    ca_file: Path | None = None
    """With ``tls``: the CA that signed the broker's certificate (None: the system's)."""
    keepalive: float = 30.0
    """Seconds between pings; the broker shows the board offline about 1.5 times this after
    the board loses power."""

    @property
    def user(self) -> str:
        """The user name sent to the broker."""
        return self.username or self.board


_LEAGUE_KEYS = (
    "broker",
    "port",
    "venue",
    "board",
    "username",
    "password_file",
    "tls",
    "ca_file",
    "keepalive",
)


def parse_league(f: Fields, base: Path | None) -> LeagueConfig:
    """``[league]``, read from *f*; relative paths are taken from *base*.

    Raises:
        ConfigError: a key missing, unknown or with a bad value.
    """
    f.known(_LEAGUE_KEYS)
    names = {}
    for key in ("venue", "board"):
        names[key] = f.string(key, REQUIRED)
        if not is_topic_name(names[key]):
            raise f.error(
                key, "a word of letters, digits, '-' or '_' (it is part of the topics)", names[key]
            )
    paths: dict[str, Path | None] = {}
    for key in ("password_file", "ca_file"):
        paths[key] = None
        if key in f:
            path = Path(os.path.expanduser(f.string(key, REQUIRED)))
            paths[key] = base / path if not path.is_absolute() and base is not None else path
    broker = f.string("broker", REQUIRED)
    if not is_host(broker):
        _, _, port = broker.rpartition(":")
        example = port if port.isdigit() else "1883"
        raise f.error(
            "broker",
            f"a host name or address, without a port (the port is [league] port, e.g. port = "
            f"{example})",
            broker,
        )
    tls = f.flag("tls", False)
    if paths["ca_file"] is not None and not tls:
        raise ConfigError(
            f"config: {f.name('ca_file')} needs {f.name('tls')} = true (without TLS no CA is "
            "used; set tls = true, or remove ca_file)"
        )
    return LeagueConfig(
        broker=broker,
        venue=names["venue"],
        board=names["board"],
        port=f.whole("port", 8883 if tls else 1883, low=1, high=65535),
        username=f.string("username", REQUIRED) if "username" in f else "",
        password_file=paths["password_file"],
        tls=tls,
        ca_file=paths["ca_file"],
        keepalive=f.number("keepalive", 30.0, low=1.0, high=3600.0),
    )
