"""Where the league service finds its broker and how it logs in, each checked before
anything is made: ``--broker HOST[:PORT]``, ``--client-id``, the password and CA files."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

from pegboard.frozen import frozen
from pegboard.league.publisher import load_ca, read_password
from pegboard.league.standings import LeagueError

__all__ = ["Broker", "check_client_id", "check_login", "parse_broker"]


@frozen
class Broker:
    """Where the league service finds the broker, and how it logs in.

    Raises:
        LeagueError: a password file without a user (it would log in as nobody).
    """

    host: str
    port: int = 1883
    username: str | None = None
    password_file: Path | None = None
    ca_file: Path | None = None
    """Set: TLS, with this CA."""

    def __post_init__(self) -> None:
        if self.password_file is not None and self.username is None:
            raise LeagueError(
                f"--password-file {str(self.password_file)!r} needs --username (the broker's "
                "user that password is for, e.g. --username league)"
            )


def check_login(broker: Broker) -> None:
    """Read *broker*'s password file and CA now, as the service will (before anything is made).

    Raises:
        LeagueError: the password file or the CA file cannot be read.
    """
    read_password(broker.password_file, "--password-file")
    if broker.ca_file is not None:
        load_ca(broker.ca_file, "--ca-file")


def check_client_id(client_id: str) -> str:
    """*client_id*, the service's session name (``--client-id``), checked: printable, no space.

    >>> check_client_id("pegboard-league")
    'pegboard-league'

    Raises:
        LeagueError: empty, or with a space or a character that is not printable.
    """
    if not client_id or not client_id.isprintable() or any(c.isspace() for c in client_id):
        raise LeagueError(
            f"--client-id must be a name without spaces, got {client_id!r} (e.g. "
            "pegboard-league; each league service its own)"
        )
    return client_id


def parse_broker(text: str) -> tuple[str, int]:
    """``HOST[:PORT]`` (IPv6 in brackets) as host and port (1883 unless told).

    >>> parse_broker("hub.local"), parse_broker("127.0.0.1:18830"), parse_broker("[::1]:1883")
    (('hub.local', 1883), ('127.0.0.1', 18830), ('::1', 1883))

    Raises:
        LeagueError: no host, a host that is neither a name nor an IP address (a space in it,
            say), or a port that is not a number from 1 to 65535.
    """
    host, port, rest = text.strip(), "1883", ""
    if host.startswith("["):  # an IPv6 address: [::1]:1883
        host, _, rest = host[1:].partition("]")
        if rest.startswith(":"):
            port, rest = rest[1:], ""
    elif host.count(":") == 1:
        host, port = host.split(":")
    if (
        not host
        or rest
        or not port.isdigit()
        or not 1 <= int(port) <= 65535
        or (":" in host and not text.strip().startswith("["))
        or not _is_host(host, bracketed=text.strip().startswith("["))
    ):
        raise LeagueError(f"--broker must be HOST or HOST:PORT, got {text!r} (e.g. hub.local:1883)")
    return host, int(port)


_HOST_NAME = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?")
"""A host name's letters: labels of letters, digits, hyphens (and underscores, which some
local names use), joined by dots."""


def _is_host(host: str, *, bracketed: bool = False) -> bool:
    """Whether *host* is an IP address or a host name (nothing else reaches a broker); in
    brackets, only an IPv6 address."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return not bracketed and _HOST_NAME.fullmatch(host) is not None
    return address.version == 6 or not bracketed
