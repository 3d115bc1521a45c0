"""What a table can tell the game, as values and as one line of text each.

Commands are frozen dataclasses; ``parse_command`` reads the small text syntax that the CLI, the
journal and the tests share, and ``format_command`` writes it back in canonical form, so
``parse_command(format_command(c, names), names) == c``. Sides are named (``--players A,B``);
the text uses the names, the values use side numbers.

=========================  =====================================================================
``cut 5H 9C``              cut for the first deal: one card per side, in side order
``starter 5H``             the start card (a jack pegs 2 for his heels to the dealer)
``play JC``                the next card laid in the play (counting mode)
``go``                     the player to lay says "go"
``peg B 2 [reason]``       side B moves its peg 2 holes (manual scoring, any live moment)
``claim 8``                muggins: the owner's claim for the hand about to be shown
``show [CARDS]``           count the next hand of the show (no cards: it is known from the play)
``show POINTS``            the table counted the next hand itself: its owner pegs POINTS (0-29)
``crib CARDS``             count the crib (when the show reaches it)
``crib POINTS``            the table counted the crib itself: the dealer's side pegs POINTS
``next`` (``done``)        move on without entering cards: skip the starter, end the play, skip
                           the hand up for counting; after a game: start the next game
``deal``                   end this deal at once and go on to the next deal
``undo`` / ``redo``        take back the last step / put it back again
=========================  =====================================================================

>>> names = ("A", "B")
>>> parse_command("peg b 2 for his heels", names)
Peg(side=1, points=2, reason='for his heels')
>>> format_command(parse_command("show 5h 5d 5s jc", names), names)
'show 5H 5D 5S JC'
>>> parse_command("crib 12", names)
Crib(cards=(), points=12)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pegboard.errors import PegboardError, quote
from pegboard.frozen import frozen

from .cards import Card, check_text, format_cards, parse_cards, shuffled_deck

__all__ = [
    "Claim",
    "Command",
    "Crib",
    "Cut",
    "Go",
    "InvalidCommandError",
    "Next",
    "NextDeal",
    "Peg",
    "Play",
    "Redo",
    "Show",
    "Starter",
    "Undo",
    "format_command",
    "parse_command",
    "parse_side",
    "random_cut",
]

MAX_PEG = 61
"""The most holes one manual peg may move (no single score in any variant comes near it)."""


class InvalidCommandError(PegboardError, ValueError):
    """Text that is not a command in the game's syntax."""


@frozen
class Cut:
    """The cut for the first deal: one card per side, in side order. Lowest pips deals."""

    cards: tuple[Card, ...]


@frozen
class Starter:
    """The start card, turned after the discards."""

    card: Card


@frozen
class Play:
    """A card laid in the play by the player whose turn it is."""

    card: Card


@frozen
class Go:
    """The player whose turn it is cannot lay a card."""


@frozen
class Peg:
    """A side moves its peg by hand (*points* >= 1), with an optional reason."""

    side: int
    points: int
    reason: str = ""


@frozen
class Claim:
    """Muggins: what the owner says the next hand (or crib) is worth, before it is shown."""

    points: int


@frozen
class Show:
    """Count the next hand of the show. No cards: the hand is known from the play.

    *points* instead of cards: the table counted the hand itself (a deal pegged by hand), and
    its owner pegs that many."""

    cards: tuple[Card, ...] = ()
    points: int | None = None


@frozen
class Crib:
    """Count the crib (its cards are never laid in the play, so they must be given), or take
    the *points* the table counted for it."""

    cards: tuple[Card, ...] = ()
    points: int | None = None


@frozen
class Next:
    """Move on without entering cards (skip the starter, end the play, skip a hand; next game)."""


@frozen
class NextDeal:
    """End this deal now and start the next (a table that pegs only by hand)."""


@frozen
class Undo:
    """Take back the last accepted step."""


@frozen
class Redo:
    """Put back the last step taken back (until a new command is entered)."""


Command = Cut | Starter | Play | Go | Peg | Claim | Show | Crib | Next | NextDeal | Undo | Redo

_WORDS = "cut, starter, play, go, peg, claim, show, crib, next (or done), deal, undo, redo"
_NO_ARGUMENTS: dict[str, Command] = {
    "go": Go(),
    "next": Next(),
    "done": Next(),
    "deal": NextDeal(),
    "undo": Undo(),
    "redo": Redo(),
}


def _number(text: str, what: str, command: str) -> int:
    # ASCII digits only: str.isdigit() also accepts '²' (which int() refuses) and other
    # scripts' digits; a bounded length keeps int() clear of its digit limit
    if not (text.isascii() and text.isdigit()):
        raise InvalidCommandError(
            f"{what} must be a whole number, got {quote(text)} in {quote(command)}"
        )
    if len(text) > 6:
        raise InvalidCommandError(
            f"{what} must be a whole number of at most 6 digits, got {len(text)} digits in "
            f"{quote(command, 30)}"
        )
    return int(text)


def _one_card(rest: list[str], word: str, command: str) -> Card:
    if len(rest) != 1:
        raise InvalidCommandError(
            f"{word} takes one card, got {quote(command)} (expected e.g. '{word} 5H')"
        )
    return Card.parse(rest[0])


def parse_side(text: str, names: Sequence[str]) -> int:
    """The side called *text* (case does not matter), as its number.

    Raises:
        InvalidCommandError: no side has that name.
    """
    for side, name in enumerate(names):
        if name.lower() == text.strip().lower():
            return side
    raise InvalidCommandError(f"no side called {quote(text)} (expected one of {', '.join(names)})")


def parse_command(text: str, names: Sequence[str]) -> Command:
    """Parse one command in the text syntax (see the module docstring).

    Raises:
        InvalidCommandError: unknown word, missing or extra arguments, bad side or number; a
            text longer than ``MAX_TEXT_BYTES`` (4096) bytes, or one that is not valid Unicode
            (an undecodable byte from the command line, which could not be journalled).
        InvalidCardError: a card that is not a card.
        InvalidHandError: a card given twice.

    >>> parse_command("cut 9H 3C", ("A", "B"))
    Cut(cards=(Card.parse('9H'), Card.parse('3C')))
    >>> parse_command("fold", ("A", "B"))
    Traceback (most recent call last):
    ...
    pegboard.engine.commands.InvalidCommandError: unknown command: 'fold' (expected one of cut, starter, play, go, peg, claim, show, crib, next (or done), deal, undo, redo)
    """  # noqa: E501
    # every way in (command line, keypad, journal replay) comes through here: refuse what
    # could not be stored or shown before anything splits it
    check_text(text, "command", InvalidCommandError)
    words = text.split()
    if not words:
        raise InvalidCommandError(f"empty command: {quote(text)} (expected one of {_WORDS})")
    word, rest = words[0].lower(), words[1:]
    if word in _NO_ARGUMENTS:
        if rest:
            raise InvalidCommandError(f"{word} takes no arguments, got {quote(text)}")
        return _NO_ARGUMENTS[word]
    match word:
        case "cut":
            return Cut(parse_cards(rest, what="cut"))
        case "starter":
            return Starter(_one_card(rest, word, text))
        case "play":
            return Play(_one_card(rest, word, text))
        case "show" | "crib" if len(rest) == 1 and rest[0].isascii() and rest[0].isdigit():
            points = _number(rest[0], "points", text)  # "show 8": counted by the table
            return Show(points=points) if word == "show" else Crib(points=points)
        case "show":
            return Show(parse_cards(rest))
        case "crib":
            return Crib(parse_cards(rest, what="crib"))
        case "claim":
            if len(rest) != 1:
                raise InvalidCommandError(
                    f"claim takes one number, got {quote(text)} (e.g. 'claim 8')"
                )
            return Claim(_number(rest[0], "a claim", text))
        case "peg":
            if len(rest) < 2:
                raise InvalidCommandError(
                    f"peg takes a side and points, got {quote(text)} (expected e.g. 'peg B 2')"
                )
            points = _number(rest[1], "points", text)
            if not 1 <= points <= MAX_PEG:
                raise InvalidCommandError(
                    f"points must be between 1 and {MAX_PEG}, got {points} in {quote(text)}"
                )
            return Peg(parse_side(rest[0], names), points, " ".join(rest[2:]))
    raise InvalidCommandError(f"unknown command: {quote(words[0])} (expected one of {_WORDS})")


def format_command(command: Command, names: Sequence[str]) -> str:
    """The canonical text of *command*; ``parse_command`` reads it back to an equal value.

    >>> format_command(Peg(0, 3, "three for last"), ("Ann", "Bob"))
    'peg Ann 3 three for last'
    """
    match command:
        case Cut(cards):
            return " ".join(w for w in ("cut", format_cards(cards)) if w)
        case Starter(card):
            return f"starter {card}"
        case Play(card):
            return f"play {card}"
        case Go():
            return "go"
        case Peg(side, points, reason):
            return " ".join(w for w in ("peg", names[side], str(points), reason) if w)
        case Claim(points):
            return f"claim {points}"
        case Show(cards, points):
            told = format_cards(cards) if points is None else str(points)
            return " ".join(w for w in ("show", told) if w)
        case Crib(cards, points):
            told = format_cards(cards) if points is None else str(points)
            return " ".join(w for w in ("crib", told) if w)
        case Next():
            return "next"
        case NextDeal():
            return "deal"
        case Undo():
            return "undo"
        case Redo():
            return "redo"


def random_cut(rng: random.Random, sides: int) -> Cut:
    """A cut drawn at random: the first *sides* cards of a pack shuffled by *rng*.

    A bare ``cut`` (``Cut(())``) asks for one; the table and ``game do`` draw it here and journal
    the cards drawn, so a replay needs no randomness.

    >>> random_cut(random.Random(7), 2) == random_cut(random.Random(7), 2)
    True
    >>> len(random_cut(random.Random(7), 3).cards)
    3
    """
    return Cut(tuple(shuffled_deck(rng)[:sides]))
