"""The league's receipt: "this game is stored", from the league service back to its board.

Theory of operation
-------------------
The broker's PUBACK only says a game is in the broker's memory; a broker that dies before its
next save (or drops a queue that grew past ``max_queued_messages``) loses it. So a board keeps
each game in its outbox until the league itself says it has the game: the league service
commits a game to its database, then publishes a ``Receipt`` (the game's id and the revision
it stored, or had already) on that board's ``receipt`` topic (``league.topics``), QoS 1, not
retained, and only then acknowledges the game to the broker. A copy gets a receipt too, so a
board that sent a game again always can let it go.

A receipt that never comes (the league down, the broker restarted before it saved, a receipt
lost with a broker or while the board was away) costs a send again: the board sends each game
still waiting again at every (re)connection, and otherwise after ``resend_after`` seconds,
doubling from the first wait to a ceiling. The league keeps one game per id and revision, so a
game sent again counts once.

A game the league refuses (not a game its variant's rules could finish: ``engine.summary``)
gets a receipt too, saying why (``refused``): the board lets it go, says so once, and never
sends it again; the game stays in the board's journal. Without it the board would send the game
again for ever, and the hub would log each copy.

Receipts are not retained: one retained message a board would hold only the latest game, and
the board's sends again cover a receipt it missed.

>>> Receipt.from_payload(Receipt("g1", 2).to_payload())
Receipt(game_id='g1', revision=2, refused=None)
>>> Receipt.from_payload(Receipt("g1", 1, "unknown variant 'chess'").to_payload()).refused
"unknown variant 'chess'"
>>> [resend_after(tries, 30.0, 600.0) for tries in (1, 2, 3, 6, 50)]
[30.0, 60.0, 120.0, 600.0, 600.0]
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pegboard.frozen import frozen
from pegboard.league.standings import LeagueError

__all__ = ["Receipt", "resend_after"]


REFUSAL_CHARS = 500
"""The longest reason a refusal carries (the hub's log has it whole)."""


@frozen
class Receipt:
    """The league has game *game_id* at *revision* (or a later one), or *refused* it (why): its
    board may forget every outbox row of that game up to that revision."""

    game_id: str
    revision: int
    refused: str | None = None

    def to_payload(self) -> str:
        """The receipt's JSON, as it goes over the wire."""
        body: dict[str, Any] = {"game_id": self.game_id, "revision": self.revision}
        if self.refused is not None:
            body["refused"] = self.refused[:REFUSAL_CHARS]
        return json.dumps(body)

    @classmethod
    def from_payload(cls, payload: str | bytes) -> Receipt:
        """Read a receipt's JSON.

        Raises:
            LeagueError: not a receipt (not JSON, or without a text ``game_id`` and a whole
                ``revision``).
        """
        try:
            data = json.loads(payload)
        except ValueError as e:
            raise LeagueError(f"not a receipt: {payload[:60]!r} is not JSON") from e
        receipt = cls.of(data) if isinstance(data, Mapping) else None
        if receipt is None:
            raise LeagueError(
                f"not a receipt: {payload[:60]!r} (expected game_id text and a revision number)"
            )
        return receipt

    @classmethod
    def of(cls, game: Mapping[str, Any]) -> Receipt | None:
        """The receipt for a finished game's payload (or a receipt's); None without an id."""
        game_id, revision = game.get("game_id"), game.get("revision")
        if not isinstance(game_id, str) or not game_id:
            return None
        if not isinstance(revision, int) or isinstance(revision, bool):
            return None
        refused = game.get("refused")
        return cls(game_id, revision, refused[:REFUSAL_CHARS] if isinstance(refused, str) else None)

    def covers(self, game_id: str, revision: int) -> bool:
        """Whether this receipt lets a board forget *game_id* at *revision* (stored or
        refused alike)."""
        return game_id == self.game_id and revision <= self.revision


def resend_after(tries: int, first: float, most: float) -> float:
    """Seconds to wait for a receipt after the *tries*-th send: *first*, doubled at each send
    again, at most *most*."""
    return float(min(first * 2 ** max(min(tries, 64) - 1, 0), most))
