"""What a deal and a game scored, kept by the game for statistics and the journal.

``GameState`` fills in one ``DealRecord`` per deal as the pegs move (split by where the points
came from) and closes a ``GameRecord`` when a side wins; the journal writes the finished games.

>>> record = DealRecord.empty(1, dealer=0, sides=2)
>>> record.total(0), record.shown
(0, ())
"""

from __future__ import annotations

from pegboard.frozen import frozen

from .cards import Card
from .match import GameResult

__all__ = ["DealRecord", "GameRecord", "ShownHand"]


@frozen
class ShownHand:
    """A hand (seat) or the crib (seat None) counted in the show, with what it pegged."""

    seat: int | None
    side: int
    cards: tuple[Card, ...]
    points: int
    claim: int | None = None


@frozen
class DealRecord:
    """What one deal scored, per side: for statistics.

    ``pegging``: points in the play (counted or pegged by hand during the play). ``hands``:
    hands in the show (and hand pegs during the show). ``crib``: the dealer's crib. ``heels``:
    2 for his heels. ``other``: muggins, the five-card three for last, pegs before the play.
    ``played``: what the cards laid pegged in the play (their points, go, last, and muggins
    on them), a share of ``pegging`` and ``other`` kept apart from the pegs by hand there.
    ``shown``: the hands and crib counted with their cards; ``told``: those counted by their
    points alone (``show 12``: no cards, so none to check against the deal's).
    """

    number: int
    dealer: int
    pegging: tuple[int, ...]
    hands: tuple[int, ...]
    crib: tuple[int, ...]
    heels: tuple[int, ...]
    other: tuple[int, ...]
    played: tuple[int, ...]
    starter: Card | None = None
    shown: tuple[ShownHand, ...] = ()
    told: tuple[ShownHand, ...] = ()

    @classmethod
    def empty(cls, number: int, dealer: int, sides: int) -> DealRecord:
        """A deal before anything was scored."""
        zero = (0,) * sides
        return cls(number, dealer, zero, zero, zero, zero, zero, zero)

    def total(self, side: int) -> int:
        """Everything *side* pegged in this deal."""
        return sum(
            points[side] for points in (self.pegging, self.hands, self.crib, self.heels, self.other)
        )


@frozen
class GameRecord:
    """A finished game: its number in the match, result and deals."""

    game: int
    result: GameResult
    deals: tuple[DealRecord, ...]
