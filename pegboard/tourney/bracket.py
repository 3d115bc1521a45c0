"""The qualifier cut and the playoff bracket (American Cribbage Congress style).

Theory of operation
-------------------
**The cut**: a quarter of the field qualifies, rounded up (121 to 124 entrants give 31). The
field is everyone in the standings (who played a game or had a bye). When the last qualifying
place and the first one out are held by players the tie-break chain leaves level, the cut
itself needs their playoff: ``Cut.playoff`` names them.

**The bracket**: a seeded single elimination for the next power of two. The top qualifiers get
the byes, as many as that power of two minus the qualifiers (108 entrants: 27 qualifiers, 5
byes; 132: 33 qualifiers, 31 byes), so the second round is a full bracket. Seeds meet in the
usual order (1 v 16, 8 v 9, ... for sixteen): the top two seeds can meet only in the final.
Each match is best of 3 or 5; ``advance`` records a match's winner and seats the winners of
two neighbouring matches against each other.

>>> cut_size(121), cut_size(124), byes_for(27), byes_for(33)
(31, 31, 5, 31)
>>> [(m.round, m.high, m.low) for m in Bracket.seeded(["A", "B", "C"], 3).matches]
[(1, 'A', None), (1, 'B', 'C'), (2, 'A', None)]
"""

from __future__ import annotations

from dataclasses import replace

from pegboard.errors import quote, quote_name
from pegboard.frozen import frozen

from .night import TourneyError
from .standings import Line

__all__ = ["Bracket", "Cut", "Match", "bracket_order", "byes_for", "cut", "cut_size"]

BEST_OF = (3, 5)
"""How many games a playoff match may be the best of."""


def cut_size(field: int) -> int:
    """How many of *field* players qualify: a quarter, rounded up."""
    return -(-field // 4)


def bracket_size(qualifiers: int) -> int:
    """The power of two the bracket is drawn for: the least one at or above *qualifiers*."""
    return 1 << max(0, qualifiers - 1).bit_length()


def byes_for(qualifiers: int) -> int:
    """How many of *qualifiers* get a first-round bye."""
    return bracket_size(qualifiers) - qualifiers


def bracket_order(size: int) -> list[int]:
    """The seeds in bracket order for *size* (a power of two): neighbours meet in round one.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


@frozen
class Cut:
    """The qualifiers, best first, and the players a playoff must separate at the cut line
    (empty: the cut is settled)."""

    field: int
    qualifiers: tuple[str, ...]
    playoff: tuple[str, ...] = ()


def cut(lines: list[Line]) -> Cut:
    """The cut of *lines* (the standings, best first)."""
    size = cut_size(len(lines))
    qualifiers = tuple(line.name for line in lines[:size])
    playoff: tuple[str, ...] = ()
    if 0 < size < len(lines) and lines[size - 1].place == lines[size].place:
        place = lines[size].place
        playoff = tuple(line.name for line in lines if line.place == place)
    return Cut(len(lines), qualifiers, playoff)


@frozen
class Match:
    """A playoff match: its round (1: the first) and slot, the higher and lower seeds' players
    (None: a bye, or not known yet) and the winner once reported."""

    round: int
    slot: int
    high: str | None
    low: str | None
    best_of: int = 3
    winner: str | None = None

    @property
    def is_bye(self) -> bool:
        """A first-round match with one player: the player goes through without playing."""
        return self.round == 1 and (self.high is None) != (self.low is None)


@frozen
class Bracket:
    """The playoff: every match, round by round (the module's notes)."""

    seeds: tuple[str, ...]
    matches: tuple[Match, ...]

    @classmethod
    def seeded(cls, qualifiers: list[str] | tuple[str, ...], best_of: int = 3) -> Bracket:
        """The bracket for *qualifiers* (best first), each match the best of *best_of*.

        Raises:
            TourneyError: no qualifiers, a name twice, or *best_of* not 3 or 5.
        """
        if best_of not in BEST_OF:
            raise TourneyError(f"a playoff match is the best of 3 or 5, got {quote(best_of)}")
        if not qualifiers or len(set(qualifiers)) != len(qualifiers):
            raise TourneyError(f"a bracket needs distinct qualifiers, got {quote(qualifiers)}")
        size = bracket_size(len(qualifiers))
        order = bracket_order(size)
        seed = {i + 1: name for i, name in enumerate(qualifiers)}
        matches = []
        for slot in range(size // 2):
            high, low = seed.get(order[2 * slot]), seed.get(order[2 * slot + 1])
            bye = high if low is None else low if high is None else None
            matches.append(Match(1, slot, high, low, best_of, bye))
        rounds = max(1, (size - 1).bit_length())
        for number in range(2, rounds + 1):
            for slot in range(size >> number):
                matches.append(Match(number, slot, None, None, best_of))
        bracket = cls(tuple(qualifiers), tuple(matches))
        if size == 1:
            return cls(
                tuple(qualifiers), (Match(1, 0, qualifiers[0], None, best_of, qualifiers[0]),)
            )
        for match in bracket.matches:
            if match.round == 1 and match.winner is not None:
                bracket = bracket._forward(match)
        return bracket

    def match(self, number: int, slot: int) -> Match | None:
        """The match in round *number* at *slot* (None: no such match)."""
        return next((m for m in self.matches if (m.round, m.slot) == (number, slot)), None)

    @property
    def champion(self) -> str | None:
        """The final's winner, once reported."""
        return self.matches[-1].winner

    def advance(self, number: int, slot: int, winner: str) -> Bracket:
        """The bracket with *winner* through from round *number*'s match at *slot*.

        Raises:
            TourneyError: no such match, its players are not both known, it was reported
                already, or *winner* is not one of its players.
        """
        match = self.match(number, slot)
        if match is None:
            raise TourneyError(f"no playoff round {number} match {slot + 1}")
        if match.winner is not None:
            raise TourneyError(
                f"playoff round {number} match {slot + 1} was won by {match.winner} already"
            )
        if match.high is None or match.low is None:
            raise TourneyError(f"playoff round {number} match {slot + 1} is not seated yet")
        if winner not in (match.high, match.low):
            raise TourneyError(
                f"{quote_name(winner)} is not playing round {number} match {slot + 1} "
                f"({match.high} v {match.low})"
            )
        return self._replace(replace(match, winner=winner))._forward(replace(match, winner=winner))

    def correct(self, number: int, slot: int, winner: str) -> Bracket:
        """The bracket with round *number*'s match at *slot* given to *winner* instead of the
        winner it has (a director's correction), the next match re-seated.

        Raises:
            TourneyError: no such match, no winner yet (enter one with ``advance``), *winner*
                not its other player, or the next match has its winner already.
        """
        match = self.match(number, slot)
        if match is None or match.winner is None or match.is_bye:
            raise TourneyError(
                f"playoff round {number} match {slot + 1} has no winner to correct "
                "(enter one with 'pegboard tourney advance')"
            )
        if winner not in (match.high, match.low) or winner == match.winner:
            raise TourneyError(
                f"a correction gives round {number} match {slot + 1} to its other player "
                f"({match.high} v {match.low}, won by {match.winner}), got {quote_name(winner)}"
            )
        nxt = self.match(number + 1, slot // 2)
        if nxt is not None and nxt.winner is not None:
            raise TourneyError(
                f"cannot correct round {number} match {slot + 1}: round {number + 1} match "
                f"{slot // 2 + 1} was won by {nxt.winner} already"
            )
        fixed = replace(match, winner=winner)
        return self._replace(fixed)._forward(fixed)

    def _replace(self, match: Match) -> Bracket:
        return replace(
            self,
            matches=tuple(
                match if (m.round, m.slot) == (match.round, match.slot) else m for m in self.matches
            ),
        )

    def _forward(self, match: Match) -> Bracket:
        nxt = self.match(match.round + 1, match.slot // 2)
        if nxt is None:
            return self
        if match.slot % 2 == 0:
            return self._replace(replace(nxt, high=match.winner))
        return self._replace(replace(nxt, low=match.winner))
