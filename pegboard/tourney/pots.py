"""The night's side pots: skunks, the big hands (24, 28, 29) and four of a kind, with who and
when.

Skunks come from the results that stand (a corrected game counts as corrected): the winner
is listed, the skunked loser and the score in the detail. The hands come from the boards'
journals: every hand (and crib) counted in the show at a table of the night, as ``Shown``.
A hand or crib that counted exactly 24, 28 or 29 is listed under that number; a hand whose
four cards and the starter hold four of one rank is listed under four of a kind (the crib is
the dealer's and is not a hand of four of a kind). Entries are in round, table and time order.

>>> from pegboard.engine.cards import Card, parse_cards
>>> hand = Shown("Ann", 2, 5, "20:41", tuple(parse_cards("5H 5D 5S JC")), Card.parse("5C"), 29)
>>> [(e.pot, e.player, e.round) for e in hand_pots([hand])]
[('29', 'Ann', 2), ('four of a kind', 'Ann', 2)]
>>> hand_pots([hand])[0].detail
'5H 5D 5S JC, starter 5C'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pegboard.engine.cards import Card
from pegboard.frozen import frozen

from .night import Night
from .standings import game_points

__all__ = ["BIG_HANDS", "PotEntry", "Shown", "hand_pots", "side_pots", "skunks"]

BIG_HANDS = (24, 28, 29)
"""The hands a club pays a pot for."""
SKUNK = "skunk"
FOUR = "four of a kind"


@frozen
class Shown:
    """A hand (or the crib: *crib*) counted in the show at a table of the night: the player,
    the round and table, when, the four cards, the starter and the points it counted."""

    player: str
    round: int
    table: int
    when: str
    cards: tuple[Card, ...]
    starter: Card | None
    points: int
    crib: bool = False


@frozen
class PotEntry:
    """One entry in a pot: which pot, who, the round and table, when, and what (the cards)."""

    pot: str
    player: str
    round: int
    table: int
    when: str
    detail: str

    def to_payload(self) -> dict[str, object]:
        """The entry as JSON values."""
        return {
            "pot": self.pot,
            "player": self.player,
            "round": self.round,
            "table": self.table,
            "when": self.when,
            "detail": self.detail,
        }


def skunks(night: Night) -> list[PotEntry]:
    """The games won by a skunk, from the results that stand."""
    entries = []
    for number, seating in enumerate(night.rounds, start=1):
        for pairing in seating.pairings:
            result = night.final(number, pairing.table)
            if result is not None and game_points(result) == 3:
                detail = (
                    f"{result.winner} {result.winner_score}, {result.loser} {result.loser_score}"
                )
                entries.append(
                    PotEntry(SKUNK, result.winner, number, pairing.table, result.ended, detail)
                )
    return entries


def hand_pots(shown: Iterable[Shown]) -> list[PotEntry]:
    """The big hands and fours of a kind among *shown*."""
    entries = []
    for hand in sorted(shown, key=lambda h: (h.round, h.table, h.when)):
        cards = " ".join(str(c) for c in hand.cards)
        detail = f"{cards}, starter {hand.starter}" if hand.starter is not None else cards
        if hand.crib:
            detail = f"crib {detail}"
        if hand.points in BIG_HANDS:
            entries.append(
                PotEntry(str(hand.points), hand.player, hand.round, hand.table, hand.when, detail)
            )
        ranks = Counter(c.rank for c in (*hand.cards, *([hand.starter] if hand.starter else [])))
        if not hand.crib and ranks and max(ranks.values()) == 4:
            entries.append(PotEntry(FOUR, hand.player, hand.round, hand.table, hand.when, detail))
    return entries


def side_pots(night: Night, shown: Iterable[Shown]) -> list[PotEntry]:
    """Every pot's entries of the night: skunks, then the hands."""
    return skunks(night) + hand_pots(shown)
