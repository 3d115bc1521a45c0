"""The league's topics: ``pegboard/v1/<venue>/<board>/<kind>``.

``status`` ("online"/"offline", retained, and the board's last will), ``live`` (the board's
game view as the pub page gets it, retained, on every change) and ``finished`` (each finished
game, QoS 1, from the journal's outbox) are what a board publishes; ``receipt`` is what the
league service publishes back to one board: each game it has stored (``league.receipt``; QoS 1,
not retained), so the board may forget it. ``v1`` names the payloads' version: a later change
that old league services could not read gets ``v2``.

>>> topic("red-lion", "table-1", Kind.LIVE)
'pegboard/v1/red-lion/table-1/live'
>>> parse_topic("pegboard/v1/red-lion/table-1/finished")
('red-lion', 'table-1', <Kind.FINISHED: 'finished'>)
>>> parse_topic("pegboard/v1/red-lion/table-1/other") is None
True
"""

from __future__ import annotations

import enum
import hashlib

from pegboard.config.league import is_topic_name

__all__ = [
    "BOARD_KINDS",
    "MAX_MESSAGE_BYTES",
    "OFFLINE",
    "ONLINE",
    "PREFIX",
    "Kind",
    "parse_topic",
    "service_topic",
    "subscriptions",
    "topic",
]

PREFIX = "pegboard/v1"

MAX_MESSAGE_BYTES = 256 * 1024
"""The largest payload the league takes on any topic (the example brokers' message_size_limit
says the same). A finished game is about 1 KB a deal with short names, a live view a few KB;
a 20 MB game or a 30 MB retained view is refused, not stored nor sent on to every TV."""


class Kind(enum.Enum):
    """What goes under a board's topics: the board publishes all but ``RECEIPT`` and
    ``TOURNEY`` (its next pairing and the tournament lock, retained), which the league service
    publishes to it."""

    STATUS = "status"
    LIVE = "live"
    FINISHED = "finished"
    RECEIPT = "receipt"
    TOURNEY = "tourney"


BOARD_KINDS = (Kind.STATUS, Kind.LIVE, Kind.FINISHED)
"""What a board publishes (and the league service subscribes to)."""


ONLINE = "online"
OFFLINE = "offline"


def topic(venue: str, board: str, kind: Kind) -> str:
    """The topic *board* of *venue* publishes *kind* on."""
    return f"{PREFIX}/{venue}/{board}/{kind.value}"


def service_topic(client_id: str) -> str:
    """Where a league service with *client_id* leaves its retained mark (``league.service``):
    one level shorter than a board's topics, so no board topic's wildcard matches it. A client
    id that is not a topic name goes by a digest of it.

    >>> service_topic("pegboard-league")
    'pegboard/v1/service/pegboard-league'
    >>> service_topic("a/b")
    'pegboard/v1/service/id-c14cddc033f64b9d'
    """
    if is_topic_name(client_id):
        return f"{PREFIX}/service/{client_id}"
    digest = hashlib.sha256(client_id.encode("utf-8")).hexdigest()[:16]
    return f"{PREFIX}/service/id-{digest}"


def parse_topic(name: str) -> tuple[str, str, Kind] | None:
    """(venue, board, kind) of a league topic; None for anything else."""
    parts = name.split("/")
    if len(parts) != 5 or "/".join(parts[:2]) != PREFIX:
        return None
    venue, board, kind = parts[2:]
    if not (is_topic_name(venue) and is_topic_name(board)):
        return None
    try:
        return venue, board, Kind(kind)
    except ValueError:
        return None


def subscriptions() -> list[str]:
    """What the league service subscribes to: every board's topics of each kind it publishes.

    >>> subscriptions()
    ['pegboard/v1/+/+/status', 'pegboard/v1/+/+/live', 'pegboard/v1/+/+/finished']
    """
    return [f"{PREFIX}/+/+/{kind.value}" for kind in BOARD_KINDS]
