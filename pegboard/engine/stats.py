"""Exact show statistics: how often each score turns up over every possible deal.

Theory of operation
-------------------
There are 12,994,800 ways to hold four cards and cut a starter from the other 48, far too many
to score one by one in a blink. They fall into few classes, though:

1. Fifteens, pairs and runs depend only on the ranks. A (hand ranks, starter rank) choice is
   one of 1,820 multisets of four ranks times 13 starter ranks, scored once each with
   ``rank_points``.
2. Flush and nobs depend only on suits, and only through a *shape*: for each rank held, how
   many cards of it, whether it is the jack, whether it is the starter's rank. For each shape
   the suit assignments are enumerated once (at most 4**4 * 4 = 1,024 of them) and counted by
   the flush and nobs points they add; the result is cached, and few shapes exist.

Every (ranks, starter rank) class then adds its suit counts, shifted by its rank points, to the
distribution. The five-card variant's three-card hands work the same way, and so does its crib,
whose flush is worth 4 rather than 5 (``Rules.crib_flush``).

>>> d = show_distribution()
>>> d.combinations, d.counts[29], d.counts[19]
(12994800, 4, 0)
>>> round(d.mean, 4)
4.7692
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

from pegboard.errors import InvalidHandError
from pegboard.frozen import frozen

from .rules import Rules
from .scoring import rank_points

__all__ = ["MAX_SHOW_SCORE", "ScoreDistribution", "show_distribution"]

MAX_SHOW_SCORE = 29
"""The best show there is: 5-5-5-J with the fifth 5, of the jack's suit, as starter."""

_JACK = 11
_SUIT_COUNT = 4


@frozen
class ScoreDistribution:
    """How many of *combinations* deals score each show total, ``counts[score]`` for 0..29.

    Raises:
        ValueError: counts does not list 30 scores, or does not add up to combinations.

    >>> ScoreDistribution(3, (2,) + (0,) * 28 + (1,)).mean
    9.666666666666666
    """

    combinations: int
    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != MAX_SHOW_SCORE + 1:
            raise ValueError(
                f"a score distribution lists scores 0..{MAX_SHOW_SCORE}, got {len(self.counts)} "
                f"counts: {self.counts!r}"
            )
        if sum(self.counts) != self.combinations:
            raise ValueError(
                f"counts add up to {sum(self.counts)}, not the {self.combinations} combinations"
            )

    @property
    def mean(self) -> float:
        """The average show score, computed exactly from the counts."""
        return sum(score * n for score, n in enumerate(self.counts)) / self.combinations

    def as_dict(self) -> dict[str, object]:
        """Plain data for JSON: combinations, counts keyed by score ("0".."29"), and mean.

        >>> sorted(show_distribution(hand_size=3).as_dict())
        ['combinations', 'counts', 'mean']
        """
        return {
            "combinations": self.combinations,
            "counts": {str(score): n for score, n in enumerate(self.counts)},
            "mean": self.mean,
        }


def show_distribution(
    *, crib: bool = False, hand_size: int = 4, rules: Rules | None = None
) -> ScoreDistribution:
    """The exact distribution of show scores over every (hand or crib, starter) combination.

    ``hand_size=4``: every four cards with every starter from the other 48 (12,994,800);
    ``hand_size=3``: the five-card variant's three-card hands with every starter from the other
    49 (1,082,900). ``crib=True`` scores the four cards as a crib (flush only all five); a crib
    always has four cards, in five-card cribbage too, but there its flush is worth 4, not 5:
    *rules* (default six-card) says which, and matters only to a crib.

    Raises:
        InvalidHandError: hand_size is not 3 or 4, or a crib of 3 cards is asked for.

    >>> show_distribution(crib=True).counts[28]
    76
    >>> round(show_distribution(crib=True, rules=Rules.five_card()).mean, 4)
    4.7328
    """
    if hand_size not in (3, 4):
        raise InvalidHandError(f"hand_size must be 3 or 4, got {hand_size!r}")
    if crib and hand_size != 4:
        raise InvalidHandError(
            f"a crib always has 4 cards, got hand_size={hand_size!r} with crib=True"
        )
    # a hand's flush is one point per card; a crib's is all or nothing, worth what the rules say
    crib_flush = (Rules.six_card() if rules is None else rules).crib_flush if crib else None
    counts = [0] * (MAX_SHOW_SCORE + 1)
    combinations = 0
    for hand_ranks in itertools.combinations_with_replacement(range(1, 14), hand_size):
        held = Counter(hand_ranks)
        for starter_rank in range(1, 14):
            if held[starter_rank] == _SUIT_COUNT:
                continue  # all four cards of that rank are already in the hand
            points = rank_points((*hand_ranks, starter_rank))
            shape = _shape(held, starter_rank)
            for bonus, ways in _suit_bonuses(shape, crib_flush):
                counts[points + bonus] += ways
                combinations += ways
    return ScoreDistribution(combinations, tuple(counts))


# A shape: per held rank (multiplicity, is the jack, is the starter's rank), sorted. Only this
# decides how suit assignments score flush and nobs. (A jack starter needs no flag: the jack of
# its suit is the starter itself, so no held jack can have its suit.)
_Shape = tuple[tuple[int, bool, bool], ...]


def _shape(held: Counter[int], starter_rank: int) -> _Shape:
    return tuple(sorted((n, rank == _JACK, rank == starter_rank) for rank, n in held.items() if n))


@cache
def _suit_bonuses(shape: _Shape, crib_flush: int | None) -> tuple[tuple[int, int], ...]:
    """(flush + nobs points, number of suit assignments) for every way to give *shape* suits.

    *crib_flush*: None for a hand, else a crib whose flush (all five cards) is worth that much.
    """
    groups = shape
    size = sum(n for n, _, _ in groups)
    suits = range(_SUIT_COUNT)
    tally: Counter[int] = Counter()
    choices = [itertools.combinations(suits, n) for n, _, _ in groups]
    for picked in itertools.product(*choices):
        used_by_starter_rank: tuple[int, ...] = ()
        jack_suits: tuple[int, ...] = ()
        for (_, is_jack, is_starter_rank), group_suits in zip(groups, picked, strict=True):
            if is_starter_rank:
                used_by_starter_rank = group_suits
            if is_jack:
                jack_suits = group_suits
        hand_suits = {suit for group_suits in picked for suit in group_suits}
        # a flush needs one suit across distinct ranks: every group holds a single card
        flush_suit = (
            next(iter(hand_suits)) if len(hand_suits) == 1 and len(groups) == size else None
        )
        for starter_suit in suits:
            if starter_suit in used_by_starter_rank:
                continue  # that card is in the hand already
            bonus = 1 if starter_suit in jack_suits else 0  # nobs; a jack starter never is
            if flush_suit is not None:
                if crib_flush is not None:
                    bonus += crib_flush if starter_suit == flush_suit else 0
                elif starter_suit == flush_suit:
                    bonus += size + 1
                else:
                    bonus += size
            tally[bonus] += 1
    return tuple(sorted(tally.items()))
