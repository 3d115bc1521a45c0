"""The night's side pots: skunks, the big hands (24, 28, 29) and four of a kind, with who and
when.

Skunks come from the results that stand (a corrected game counts as corrected): the winner
is listed, the skunked loser and the score in the detail. The hands come from the boards'
journals: each finished game a board sends carries its deals' shows (``engine.summary``), and
the feed (``league.tourney_feed``) stores them with the game's result (``read_shows``), as
``Shown``: every hand (and crib) counted in the show at a table of the night. A hand or crib
that counted exactly 24, 28 or 29 is listed under that number, whether its cards were typed or
the table told its points alone (``show 29``); a hand whose four cards and the starter hold
four of one rank is listed under four of a kind, which needs the cards: a hand told by points
is never listed there (the crib is the dealer's and is not a hand of four of a kind). Entries
are in round, table, time and deal order.

>>> from pegboard.engine.cards import Card, parse_cards
>>> hand = Shown("Ann", 2, 5, "20:41", tuple(parse_cards("5H 5D 5S JC")), Card.parse("5C"), 29)
>>> [(e.pot, e.player, e.round) for e in hand_pots([hand])]
[('29', 'Ann', 2), ('four of a kind', 'Ann', 2)]
>>> hand_pots([hand])[0].detail
'5H 5D 5S JC, starter 5C'
>>> told = Shown("Bob", 3, 1, "21:02", (), Card.parse("5C"), 28, deal=4)
>>> [(e.pot, e.detail) for e in hand_pots([told])]
[('28', 'deal 4: by points (cards not entered), starter 5C')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, TypeGuard

from pegboard.engine.cards import Card
from pegboard.engine.summary import MAX_DEALS, MAX_SHOW
from pegboard.errors import PegboardError, quote
from pegboard.frozen import frozen

from .night import Night, Result, TourneyError
from .standings import game_points

__all__ = [
    "BIG_HANDS",
    "POTS",
    "PotEntry",
    "Shown",
    "hand_pots",
    "read_shows",
    "show_payload",
    "side_pots",
    "skunks",
]

BIG_HANDS = (24, 28, 29)
"""The hands a club pays a pot for."""
SKUNK = "skunk"
FOUR = "four of a kind"
POTS = (SKUNK, "24", "28", "29", FOUR)
"""Every pot, in the order the printouts list them."""


@frozen
class Shown:
    """A hand (or the crib: *crib*) counted in the show at a table of the night: the player,
    the round and table, when, the four cards (none: told by its points), the starter, the
    points it counted and the game's deal it was in (None: not known)."""

    player: str
    round: int
    table: int
    when: str
    cards: tuple[Card, ...]
    starter: Card | None
    points: int
    crib: bool = False
    deal: int | None = None


@frozen
class PotEntry:
    """One entry in a pot: which pot, who, the round and table, when, and what (the cards);
    a hand's entry keeps the hand (for a printout to word it in its own language)."""

    pot: str
    player: str
    round: int
    table: int
    when: str
    detail: str
    hand: Shown | None = None

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
    for hand in sorted(shown, key=lambda h: (h.round, h.table, h.when, h.deal or 0)):
        cards = " ".join(str(c) for c in hand.cards) or "by points (cards not entered)"
        detail = f"{cards}, starter {hand.starter}" if hand.starter is not None else cards
        if hand.crib:
            detail = f"crib {detail}"
        if hand.deal is not None:
            detail = f"deal {hand.deal}: {detail}"
        if hand.points in BIG_HANDS:
            entries.append(
                PotEntry(
                    str(hand.points), hand.player, hand.round, hand.table, hand.when, detail, hand
                )
            )
        ranks = Counter(c.rank for c in (*hand.cards, *([hand.starter] if hand.starter else [])))
        if not hand.crib and hand.cards and max(ranks.values()) == 4:
            entries.append(
                PotEntry(FOUR, hand.player, hand.round, hand.table, hand.when, detail, hand)
            )
    return entries


def side_pots(night: Night, shown: Iterable[Shown]) -> list[PotEntry]:
    """Every pot's entries of the night: skunks, then the hands."""
    return skunks(night) + hand_pots(shown)


def show_payload(hand: Shown) -> dict[str, Any]:
    """*hand* as a result step stores it (its round, table and when are the result's)."""
    return {
        "player": hand.player,
        "deal": hand.deal,
        "crib": hand.crib,
        "cards": [str(c) for c in hand.cards],
        "starter": None if hand.starter is None else str(hand.starter),
        "points": hand.points,
    }


def read_shows(items: object, result: Result) -> tuple[Shown, ...]:
    """The hands a result step's ``shown`` holds (*items*: ``show_payload``'s), shown at
    *result*'s round and table when its game ended.

    Raises:
        TourneyError: not a list of shows, or a show of neither of *result*'s players, a count
            outside 0 to 29, or a card that is not one.
    """
    if not isinstance(items, list):
        raise TourneyError(f"a result's 'shown' must be a list, got {quote(items)}")
    hands = []
    for item in items:
        where = f"round {result.round} table {result.table}"
        if not isinstance(item, Mapping):
            raise TourneyError(f"a show at {where} must be an object, got {quote(item)}")
        player, crib, points = item.get("player"), item.get("crib"), item.get("points")
        deal, cards, starter = item.get("deal"), item.get("cards"), item.get("starter")
        if player not in (result.winner, result.loser):
            raise TourneyError(
                f"a show at {where} of {quote(player)}, who is neither "
                f"{result.winner} nor {result.loser}"
            )
        if not _count(points, 0, MAX_SHOW) or not isinstance(crib, bool):
            raise TourneyError(
                f"a show at {where} of {quote(player)} counting {quote(points)}, crib "
                f"{quote(crib)} (expected 0 to {MAX_SHOW}, crib true or false)"
            )
        if not (deal is None or _count(deal, 1, MAX_DEALS)) or not isinstance(cards, list):
            raise TourneyError(
                f"a show at {where} of {quote(player)} in deal {quote(deal)} with cards "
                f"{quote(cards)} (expected a deal 1 to {MAX_DEALS} and a list of cards)"
            )
        try:
            typed = tuple(Card.parse(str(c)) for c in cards)
            turned = None if starter is None else Card.parse(str(starter))
        except PegboardError as e:
            raise TourneyError(f"a show at {where} of {quote(player)}: {e}") from None
        hands.append(
            Shown(str(player), result.round, result.table, result.ended, typed, turned, points,
                  crib, deal)
        )  # fmt: skip
    return tuple(hands)


def _count(value: object, low: int, high: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
