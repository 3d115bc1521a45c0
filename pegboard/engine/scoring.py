"""Score values shared by the show and the play, and the rank-only core of the show.

A score is data, not an int: a ``Breakdown`` holds one ``ScoreItem`` per scoring combination
(three of a kind is three ``PAIR`` items) and its ``total`` is their sum. Grouping the items
into the words players say ("pair royal") is presentation, done elsewhere.

``rank_points`` scores fifteens, pairs and runs from ranks alone; everything suit-dependent
(flush, nobs) is separate. That split is what makes the exact statistics and the discard
advice fast: there are only 6,175 multisets of five ranks.

>>> rank_points((5, 5, 5, 11, 5))
28
>>> rank_points((6, 7, 7, 8))
12
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from .cards import Card

__all__ = ["Breakdown", "ScoreItem", "ScoreKind", "rank_points"]


class ScoreKind(enum.Enum):
    """Every kind of combination that scores, in the show or in the play."""

    FIFTEEN = "fifteen"
    PAIR = "pair"
    RUN = "run"
    FLUSH = "flush"
    NOBS = "nobs"
    HEELS = "heels"
    THIRTY_ONE = "thirty-one"
    GO = "go"
    LAST = "last"
    PONE_BONUS = "three for last"  # five-card: the first non-dealer's compensation
    MUGGINS = "muggins"
    MANUAL = "peg"  # a peg entered by hand at the table


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind, the cards that made it, and its points."""

    kind: ScoreKind
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class Breakdown:
    """An itemised score. ``total`` is always the sum of the items."""

    items: tuple[ScoreItem, ...] = ()

    @property
    def total(self) -> int:
        """The points of all items together."""
        return sum(item.points for item in self.items)

    def of_kind(self, kind: ScoreKind) -> tuple[ScoreItem, ...]:
        """The items of one kind, in order."""
        return tuple(item for item in self.items if item.kind is kind)

    def __add__(self, other: Breakdown) -> Breakdown:
        return Breakdown(self.items + other.items)


def rank_points(ranks: Iterable[int]) -> int:
    """Points for fifteens, pairs and runs among cards given only by rank (1..13).

    Works for any number of cards. Suits never matter to these three, so the result is the
    same for every suit assignment; flush and nobs are scored separately.
    """
    return _rank_points_sorted(tuple(sorted(ranks)))


@cache
def _rank_points_sorted(ranks: tuple[int, ...]) -> int:
    # fifteens: number of subsets whose pips total 15, by a subset-sum count
    ways = [1] + [0] * 15
    for rank in ranks:
        pips = min(rank, 10)
        for total in range(15, pips - 1, -1):
            ways[total] += ways[total - pips]
    points = 2 * ways[15]
    counts = [0] * 15  # counts[1..13], with zero guards at 0 and 14
    for rank in ranks:
        counts[rank] += 1
    # pairs: every two cards of one rank
    points += sum(c * (c - 1) for c in counts)
    # runs: each maximal stretch of 3+ consecutive ranks, once per distinct card combination
    length, combos = 0, 1
    for rank in range(1, 15):
        if counts[rank]:
            length += 1
            combos *= counts[rank]
        else:
            if length >= 3:
                points += length * combos
            length, combos = 0, 1
    return points
