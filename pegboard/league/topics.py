"""The league's topics: ``pegboard/v1/<venue>/<board>/<kind>``.

``status`` ("online"/"offline", retained, and the board's last will), ``live`` (the board's
game view as the pub page gets it, retained, on every change) and ``finished`` (each finished
game, QoS 1, from the journal's outbox). ``v1`` names the payloads' version: a later change
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

from pegboard.config.league import is_topic_name

__all__ = [
    "MAX_MESSAGE_BYTES",
    "OFFLINE",
    "ONLINE",
    "PREFIX",
    "Kind",
    "parse_topic",
    "subscriptions",
    "topic",
]

PREFIX = "pegboard/v1"

MAX_MESSAGE_BYTES = 256 * 1024
"""The largest payload the league takes on any topic (the example brokers' message_size_limit
says the same). A finished game is about 1 KB a deal with short names, a live view a few KB;
a 20 MB game or a 30 MB retained view is refused, not stored nor sent on to every TV."""


class Kind(enum.Enum):
    """What a board publishes under its topics."""

    STATUS = "status"
    LIVE = "live"
    FINISHED = "finished"


ONLINE = "online"
OFFLINE = "offline"


def topic(venue: str, board: str, kind: Kind) -> str:
    """The topic *board* of *venue* publishes *kind* on."""
    return f"{PREFIX}/{venue}/{board}/{kind.value}"


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
    """What the league service subscribes to: every board's topics of each kind."""
    return [f"{PREFIX}/+/+/{kind.value}" for kind in Kind]
