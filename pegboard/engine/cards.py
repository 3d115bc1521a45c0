"""Cards, their one text notation, and parsing.

The notation is rank then suit: ``5H``, ``10D``, ``JC``, ``AS``. On input ``T`` also means ten,
case does not matter and the suit may be a symbol (``10♥``). ``str()`` always gives the canonical
form, so ``Card.parse(str(card)) == card``.

>>> Card.parse("10d")
Card.parse('10D')
>>> str(Card.parse("T♥"))
'10H'
>>> [str(c) for c in parse_cards("5H 5D 5S JC")]
['5H', '5D', '5S', 'JC']
"""

from __future__ import annotations

import enum
import random
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pegboard.errors import InvalidCardError, InvalidHandError, PegboardError, quote

__all__ = [
    "DECK",
    "MAX_TEXT_BYTES",
    "Card",
    "Rank",
    "Suit",
    "check_text",
    "format_cards",
    "parse_cards",
    "shuffled_deck",
]


class Suit(enum.Enum):
    """The four suits, valued by their letter in the notation."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    index: int
    """0 for clubs up to 3 for spades (alphabetical, as in the notation)."""

    def __init__(self, letter: str) -> None:
        # a plain attribute, not a property: the scorers read it for every card, and an enum
        # property or an enum-keyed dict runs Python code each time (``Enum.__hash__``)
        self.index = "CDHS".index(letter)

    @property
    def symbol(self) -> str:
        """The suit as a symbol: ♣ ♦ ♥ ♠."""
        return _SYMBOL_BY_SUIT[self]


_SYMBOL_BY_SUIT = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_BY_TEXT: dict[str, Suit] = {s.value: s for s in Suit}
_SUIT_BY_TEXT.update({s.symbol: s for s in Suit})
_SUIT_BY_TEXT.update({"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES})


class Rank(enum.IntEnum):
    """Ranks from ace (low, 1) to king (high, 13). Runs use this order only."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def pips(self) -> int:
        """Value toward fifteens and the count: ace 1, 2-10 face value, J Q K 10."""
        return min(self.value, 10)

    @property
    def label(self) -> str:
        """The rank in the notation: A, 2..10, J, Q, K."""
        return _LABEL_BY_RANK[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse a rank label ("A", "7", "10", "T", "q").

        Raises:
            InvalidCardError: the text is not a rank.
        """
        rank = _RANK_BY_LABEL.get(text.strip().upper())
        if rank is None:
            raise InvalidCardError(
                f"invalid rank: {quote(text)} (expected A, 2-10 (or T), J, Q or K)"
            )
        return rank


_LABEL_BY_RANK = {r: {1: "A", 11: "J", 12: "Q", 13: "K"}.get(r.value, str(r.value)) for r in Rank}
_RANK_BY_LABEL: dict[str, Rank] = {label: r for r, label in _LABEL_BY_RANK.items()}
_RANK_BY_LABEL["T"] = Rank.TEN

_NO_SELECTORS = {0xFE0E: None, 0xFE0F: None}

_EXPECTED = "expected rank A,2-10,J,Q,K then suit C,D,H,S, e.g. '5H'"


_NEAR_RANKS = {"1": "A", "11": "J", "12": "Q", "13": "K", "0": "10", "14": "A"}
"""Ranks typed as numbers: the ace as 1 (or 14), the court cards as 11-13, the ten as 0 (the
keypad's key)."""


def _near_card(t: str) -> str | None:
    """The card that *t* (upper case, not a card) most likely meant, or None: a rank typed as a
    number ("1H": "AH", "12S": "QS", "0D": "10D"), or suit and rank the wrong way round ("H5").

    >>> _near_card("1H"), _near_card("13C"), _near_card("H10"), _near_card("ZZ")
    ('AH', 'KC', '10H', None)
    """
    rank, suit = t[:-1], t[-1:]
    if suit in _SUIT_BY_TEXT and rank in _NEAR_RANKS:
        return f"{_NEAR_RANKS[rank]}{_SUIT_BY_TEXT[suit].value}"
    swapped = t[1:] + t[:1]
    if t and swapped != t and _RANK_BY_LABEL.get(swapped[:-1]) and swapped[-1:] in _SUIT_BY_TEXT:
        return f"{_RANK_BY_LABEL[swapped[:-1]].label}{_SUIT_BY_TEXT[swapped[-1:]].value}"
    return None


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Immutable, hashable, ordered by rank then suit."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse "5H", "10c", "TD", "js" or "Q♠" (also "Q♠️" and full-width "５Ｈ").

        Raises:
            InvalidCardError: the text is not a card.
        """
        # NFKC reads full-width letters and digits as ASCII; phones add a variation selector
        # after a suit symbol (U+FE0F emoji style, U+FE0E text style), which says nothing
        t = unicodedata.normalize("NFKC", text).translate(_NO_SELECTORS).strip().upper()
        rank = _RANK_BY_LABEL.get(t[:-1])
        suit = _SUIT_BY_TEXT.get(t[-1:])
        if rank is None or suit is None:
            near = _near_card(t)
            if near is not None:
                raise InvalidCardError(
                    f"invalid card: {quote(text)} ({_EXPECTED}): did you mean {quote(near)}?"
                )
            raise InvalidCardError(f"invalid card: {quote(text)} ({_EXPECTED})")
        return cls(rank, suit)

    @property
    def pips(self) -> int:
        """The card's value toward fifteens and the count."""
        return self.rank.pips

    @property
    def index(self) -> int:
        """A dense number 0..51, ordered by rank then suit."""
        return (self.rank - 1) * 4 + self.suit.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __str__(self) -> str:
        # ``_value_`` is the suit's letter, as ``.value`` gives it, without the enum property
        letter: str = self.suit._value_
        return _LABEL_BY_RANK[self.rank] + letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)
"""All 52 cards, ordered by rank then suit (``DECK[card.index] == card``)."""

_SPLIT = re.compile(r"[\s,;]+")

_CARD_BY_WORD: dict[str, Card] = {
    spelt + letter: DECK[(rank - 1) * 4 + suit.index]
    for label, rank in _RANK_BY_LABEL.items()
    for spelt in (label, label.lower())
    for suit in Suit
    for letter in (suit.value, suit.value.lower())
}
"""Every plain ASCII spelling of every card ("5H", "5h", "10d", "TD", "tD", ...): ``parse_cards``
reads these words without ``Card.parse``'s Unicode normalisation, to the same cards."""

MAX_TEXT_BYTES = 4096
"""The longest text the engine reads, in UTF-8 bytes: a line of cards, a command, a name.

A hand or a command is a few dozen bytes; the bound refuses a 10 MB paste at once, before
anything splits, normalises, stores or echoes it.
"""


def check_text(text: str, what: str, error: type[PegboardError]) -> str:
    """*text* itself, if it is at most ``MAX_TEXT_BYTES`` bytes of valid Unicode.

    A byte that was not UTF-8 reaches Python as a lone surrogate (``sys.argv`` and a
    ``surrogateescape`` stream turn byte 0xFF into U+DCFF); such text cannot be stored or
    printed as UTF-8, so it is refused here, with *what* naming it in the message.

    Raises:
        PegboardError: of class *error*: the text is too long or is not valid UTF-8.

    >>> check_text("5H 5D \\udcff", "hand", InvalidHandError)
    Traceback (most recent call last):
    ...
    pegboard.errors.InvalidHandError: hand is not valid UTF-8: '5H 5D \\udcff' (byte 0xFF at character 7 cannot be decoded; expected UTF-8 text)
    """  # noqa: E501
    # a character is at least one byte: a text longer in characters is never measured in bytes
    if len(text) > MAX_TEXT_BYTES:
        size = f"{len(text):,} characters"
    else:
        try:
            encoded = len(text.encode("utf-8"))
        except UnicodeEncodeError as e:
            code = ord(text[e.start])
            bad = (
                f"byte 0x{code - 0xDC00:02X}"  # surrogateescape's stand-in for a raw byte
                if 0xDC80 <= code <= 0xDCFF
                else f"lone surrogate U+{code:04X}"
            )
            raise error(
                f"{what} is not valid UTF-8: {quote(text)} ({bad} at character {e.start + 1} "
                "cannot be decoded; expected UTF-8 text)"
            ) from None
        if encoded <= MAX_TEXT_BYTES:
            return text
        size = f"{encoded:,} bytes"
    raise error(
        f"{what} is too long: {quote(text)} has {size} (expected at most {MAX_TEXT_BYTES} bytes)"
    )


def parse_cards(
    text: str | Iterable[str],
    *,
    count: int | Sequence[int] | None = None,
    what: str = "hand",
) -> tuple[Card, ...]:
    """Parse several cards, from one string ("5H 5D,5S JC") or from separate strings.

    *count* is the number of cards expected (or the allowed numbers); *what* names the
    cards in messages ("hand", "crib", ...).

    Raises:
        InvalidCardError: one of the words is not a card.
        InvalidHandError: a card appears twice, or the number of cards is wrong; the text is
            longer than ``MAX_TEXT_BYTES`` (4096) bytes or is not valid Unicode.

    >>> parse_cards("5H 5H")
    Traceback (most recent call last):
    ...
    pegboard.errors.InvalidHandError: duplicate card 5H in '5H 5H'
    """
    # the whole text is checked before it is split: a 10 MB line is refused at once
    if isinstance(text, str):
        shown = check_text(text, what, InvalidHandError)
        words = [w for w in _SPLIT.split(text.strip()) if w]
    else:  # separate words, as from a command line: an empty one is a bad card, not nothing
        words = [w.strip() for w in text]
        shown = check_text(" ".join(words), what, InvalidHandError)
    known = _CARD_BY_WORD
    cards = tuple([known.get(w) or Card.parse(w) for w in words])
    # a card twice is found by the cards' ints, not their hashes: a Card hashes its Suit,
    # whose ``Enum.__hash__`` is Python code
    if len({card.rank * 4 + card.suit.index for card in cards}) < len(cards):
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise InvalidHandError(f"duplicate card {card} in {quote(shown)}")
            seen.add(card)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(cards) not in allowed:
            wanted = " or ".join(str(n) for n in allowed)
            raise InvalidHandError(
                f"wrong number of cards for a {what}: {quote(shown)} has {len(cards)}, "
                f"expected {wanted}"
            )
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in the notation, separated by spaces ("5H 5D 5S JC")."""
    return " ".join(str(c) for c in cards)


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A new shuffled pack; the randomness comes in from the caller."""
    deck = list(DECK)
    rng.shuffle(deck)
    return deck
