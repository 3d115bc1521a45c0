"""What the hub tells each board of the night: its next pairing, and the tournament lock.

``TableNotice`` is the wire format of the ``tourney`` topic (``league.topics``): the night's
name, the round and table the board is to play (0: nothing to play now), the two players (the
first cuts first) and whether the tournament lock is on. The hub keeps one retained notice a
board (``board_notices``), so a board that starts or comes back gets it at once.

A playoff match is a notice too, once the bracket is drawn and the board's match
(``tourney.playoff``) has its two players and no winner yet: ``playoff`` is set, ``round`` is
the bracket's round and ``match`` its match (1: the first), ``table`` is 0 (so a board older
than the playoff notices offers nothing rather than a one-game match), the higher seed is
``first`` and cuts first, and ``games`` is the match's length, the best of 3 or 5. The three
fields are sent only with a playoff notice: a notice without them is a round's pairing, one
game long. A round's pairing still to play at a board comes before its playoff match.

>>> notice = TableNotice("club", 3, 7, "Ann", "Bob", True)
>>> TableNotice.from_payload(notice.to_payload()) == notice
True
>>> playoff = TableNotice("club", 2, 0, "Ann", "Cy", playoff=True, match=1, games=3)
>>> TableNotice.from_payload(playoff.to_payload()) == playoff, playoff.players
(True, ('Ann', 'Cy'))
>>> TableNotice.from_payload({"night": "club"})
Traceback (most recent call last):
...
pegboard.tourney.night.TourneyError: a table notice's 'round' must be int, got None
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pegboard.errors import quote
from pegboard.frozen import frozen

from .night import MAX_NAME, TourneyError
from .playoff import due
from .steps import Tourney

__all__ = ["TableNotice", "board_notices"]


@frozen
class TableNotice:
    """A board's next pairing (*table* 0: none now) and the lock (the module's notes)."""

    night: str
    round: int = 0
    table: int = 0
    first: str = ""
    second: str = ""
    locked: bool = False
    playoff: bool = False
    match: int = 0
    games: int = 1

    @property
    def players(self) -> tuple[str, str] | None:
        """The two names to start the match with, the one who cuts first first (None: none)."""
        return (self.first, self.second) if self.table or self.playoff else None

    def to_payload(self) -> dict[str, Any]:
        """The notice as JSON values (the playoff's fields only for a playoff match)."""
        payload: dict[str, Any] = {
            "night": self.night,
            "round": self.round,
            "table": self.table,
            "first": self.first,
            "second": self.second,
            "locked": self.locked,
        }
        if self.playoff:
            payload |= {"playoff": True, "match": self.match, "games": self.games}
        return payload

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> TableNotice:
        """The notice in *payload*.

        Raises:
            TourneyError: a field missing, of the wrong type, or a pairing a board could not
                start (a name empty or too long, or both the same).
        """
        if not isinstance(payload, Mapping):
            raise TourneyError(f"a table notice must be a JSON object, got {quote(payload)}")
        values: dict[str, Any] = {}
        for key, kind in (("night", str), ("round", int), ("table", int), ("first", str),
                          ("second", str), ("locked", bool)):  # fmt: skip
            value = payload.get(key)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TourneyError(
                    f"a table notice's {key!r} must be {kind.__name__}, got {value!r}"
                )
            values[key] = value
        for key, kind, default in (("playoff", bool, False), ("match", int, 0), ("games", int, 1)):
            value = payload.get(key, default)  # a notice from before the playoff's: a round's
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TourneyError(
                    f"a table notice's {key!r} must be {kind.__name__}, got {value!r}"
                )
            values[key] = value
        notice = cls(**values)
        if notice.games not in (1, 3, 5) or (notice.playoff and not notice.match > 0):
            raise TourneyError(
                f"a table notice's match must be 1 game or the best of 3 or 5 (a playoff's "
                f"match numbered from 1), got {quote(payload)}"
            )
        if notice.players is not None and (
            not 0 < len(notice.first) <= MAX_NAME
            or not 0 < len(notice.second) <= MAX_NAME
            or notice.first == notice.second
        ):
            raise TourneyError(f"a table notice's players are not a pairing: {quote(payload)}")
        return notice


def board_notices(tourney: Tourney) -> dict[str, TableNotice]:
    """Each board's notice: the pairing at its table in the last round seated while that table
    has no result yet, else its playoff match to play (the module's notes), else none; every
    board of the night (and of any seated table) gets one, with the lock."""
    night = tourney.night
    boards = dict.fromkeys(night.boards)
    for seating in night.rounds:
        for p in seating.pairings:
            if p.board:
                boards.setdefault(p.board)
    notices = {b: TableNotice(night.name, locked=tourney.locked) for b in boards}
    number = len(night.rounds)
    if number:
        for p in night.rounds[-1].pairings:
            if p.board and night.final(number, p.table) is None:
                notices[p.board] = TableNotice(
                    night.name, number, p.table, p.first, p.second, tourney.locked
                )
    for board, m in due(tourney).items():
        if board in notices and notices[board].players is None and m.high and m.low:
            notices[board] = TableNotice(
                night.name, m.round, 0, m.high, m.low, tourney.locked,
                playoff=True, match=m.slot + 1, games=m.best_of,
            )  # fmt: skip
    return notices
