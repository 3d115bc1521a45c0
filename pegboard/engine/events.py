"""What the game says happened: the events ``apply`` returns, one frozen dataclass each.

A command is what the table tells the game; an event is what the game answers, in order: a card
laid, a peg moved (``Pegged``, with the ``Source`` of its points), a hand counted, a game won.
They carry everything a view, a log line or the journal needs, so nothing has to diff two
states to learn what changed. Like the commands, they are plain values and never change.

>>> from .rules import Rules
>>> from .commands import parse_command
>>> from .game import GameState, apply
>>> state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
>>> state, _ = apply(state, parse_command("cut 9H 3C", state.names))
>>> state, events = apply(state, parse_command("starter JD", state.names))
>>> [type(event).__name__ for event in events]
['StarterTurned', 'Pegged']
>>> events[1].source, events[1].points
(<Source.HEELS: 'heels'>, 2)
"""

from __future__ import annotations

import enum

from pegboard.frozen import frozen

from .cards import Card
from .commands import Command
from .match import GameResult, Match
from .scoring import Breakdown

__all__ = [
    "CardPlayed",
    "Claimed",
    "CutMade",
    "DealStarted",
    "Event",
    "GameStarted",
    "GameWon",
    "HandCounted",
    "HandSkipped",
    "MatchWon",
    "Pegged",
    "PlayEnded",
    "Redone",
    "SaidGo",
    "Source",
    "StarterTurned",
    "Undone",
]


class Source(enum.Enum):
    """Where a peg's points came from."""

    HEELS = "heels"
    PLAY = "play"
    HAND = "hand"
    CRIB = "crib"
    MUGGINS = "muggins"
    BONUS = "three for last"  # five-card: the first non-dealer's points at the start of a game
    MANUAL = "peg"


@frozen
class Pegged:
    """A side moved its peg: *points* from *source*, now on *score* (the rear peg on *rear*).

    *seat* is the player whose cards scored (None for a manual peg or the crib's owner is the
    dealer); *claim* is the owner's muggins claim when one was made.
    """

    side: int
    points: int
    score: int
    rear: int
    source: Source
    breakdown: Breakdown
    seat: int | None = None
    claim: int | None = None
    reason: str = ""


@frozen
class CutMade:
    """The cut for the first deal; *dealer* is None on a tie (cut again)."""

    cards: tuple[Card, ...]
    dealer: int | None


@frozen
class GameStarted:
    """Game *game* of the match begins; *dealer* deals first."""

    game: int
    dealer: int


@frozen
class DealStarted:
    """Deal *deal* of the game: *dealer* deals."""

    deal: int
    dealer: int


@frozen
class StarterTurned:
    """The start card was entered."""

    card: Card


@frozen
class CardPlayed:
    """*seat* laid *card*, bringing the count to *count*."""

    seat: int
    card: Card
    count: int


@frozen
class SaidGo:
    """*seat* said go."""

    seat: int


@frozen
class PlayEnded:
    """The play is over; the show begins."""


@frozen
class Claimed:
    """Muggins: the owner of the hand up for counting (None: the crib) claimed *points*."""

    seat: int | None
    points: int


@frozen
class HandCounted:
    """A hand (seat) or the crib (seat None) was shown and is worth *breakdown*."""

    seat: int | None
    side: int
    cards: tuple[Card, ...]
    breakdown: Breakdown
    claim: int | None = None


@frozen
class HandSkipped:
    """The hand (or crib, seat None) up for counting was passed over without its cards."""

    seat: int | None


@frozen
class GameWon:
    """*side* reached the target: the game's result (and its number in the match)."""

    game: int
    result: GameResult


@frozen
class MatchWon:
    """*side* won the match."""

    side: int
    match: Match


@frozen
class Undone:
    """The step *command* was taken back."""

    command: Command


@frozen
class Redone:
    """The step *command* was put back."""

    command: Command


Event = (
    Pegged
    | CutMade
    | GameStarted
    | DealStarted
    | StarterTurned
    | CardPlayed
    | SaidGo
    | PlayEnded
    | Claimed
    | HandCounted
    | HandSkipped
    | GameWon
    | MatchWon
    | Undone
    | Redone
)
