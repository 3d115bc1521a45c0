"""The advised self-play's lead book: the lead for every hand and starter, worked out once.

The advised self-play (``selfplay``, ``PlayPolicy.ADVISED``) leads the exact play advice's first
card for a player who has forgotten its own discards (the opponent may hold any cards but the
hand and the starter). That lead depends only on the ranks held and the starter's rank, so it
is worked out for all of them at build time (``tools/make_openings.py``, ``make openings``)
and shipped as ``data/<variant>.openings``: without it, the lead's search is about two thirds
of an advised deal's cost. Two-in-the-crib reads the six-card book: each player holds four cards
there too and the play's rules are the same, so every lead is the same (``book_name``).

The file is one byte per (hand, starter): the hands are every multiset of ``rules.hand_size``
ranks (at most four of a rank) in ``itertools.combinations_with_replacement`` order, each with
13 bytes for the starter's rank A to K; the byte is the rank to lead (1-13), or 0 where the
starter's rank would make five of it.

>>> book = lead_book(Rules.six_card())
>>> book is not None and book.lead((4, 5, 5, 11), 13)  # 4-5-5-J on a king: lead the 4
4
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from importlib import resources

from .cards import DECK, Card
from .playadvice import advise_play
from .rules import Rules, Variant

__all__ = ["LeadBook", "book_name", "hands", "lead_book", "work_out"]

_RANKS = range(1, 14)

_PLAYS_AS = {Variant.TWO_IN_THE_CRIB: Variant.SIX_CARD}
"""Variants whose lead is another's: the same hand size and the same play (two series to 31,
the same scoring); only the crib is made differently, and the book's lead never sees the crib."""


def hands(size: int) -> list[tuple[int, ...]]:
    """Every multiset of *size* ranks (1-13, at most four of one), in the book's order."""
    return [
        held
        for held in itertools.combinations_with_replacement(_RANKS, size)
        if all(held.count(rank) <= 4 for rank in set(held))
    ]


def book_name(rules: Rules) -> str | None:
    """The file of *rules*' book, or None when no book can serve them.

    A book serves the preset of a two-player variant exactly, and nothing else: an option that
    changes the play (the starter counting in it, say) would need a book of its own, and rules
    with any option changed (even one the lead never sees, such as the target) get none rather
    than a judgement of which options matter. A variant that plays as another
    (two-in-the-crib as six-card) reads that one's book.
    """
    if rules.players != 2 or rules != Rules.for_variant(rules.variant):
        return None
    return f"{_PLAYS_AS.get(rules.variant, rules.variant).value}.openings"


def work_out(held: Sequence[int], starter: int, rules: Rules) -> int:
    """The rank to lead from the ranks *held* on a starter of rank *starter* (the advice's
    first card, seeing only the hand and the starter), or 0 when the ranks cannot be dealt."""
    used = [0] * 14
    cards: list[Card] = []
    for rank in (*held, starter):
        if used[rank] == 4:
            return 0
        cards.append(DECK[(rank - 1) * 4 + used[rank]])
        used[rank] += 1
    advice = advise_play(cards[:-1], [], cards[-1], dealer=False, rules=rules)
    card = advice.options[0].card
    assert card is not None  # a lead always fits
    return card.rank.value


class LeadBook:
    """A book read from its bytes (see the module for the layout)."""

    def __init__(self, data: bytes, size: int) -> None:
        rows = hands(size)
        if len(data) != 13 * len(rows):
            raise ValueError(
                f"a book of {size}-card hands has {13 * len(rows)} bytes, not {len(data)}"
            )
        self._data = data
        self._row = {held: i * 13 for i, held in enumerate(rows)}

    def lead(self, held: Sequence[int], starter: int) -> int:
        """The rank to lead; 0 when the ranks cannot be dealt.

        Raises:
            KeyError: *held* is not a hand of the book's size, sorted.
        """
        return self._data[self._row[tuple(held)] + starter - 1]


def lead_book(rules: Rules) -> LeadBook | None:
    """The shipped book for *rules*, or None when none ships (the self-play then works each
    lead out as it comes and remembers it)."""
    name = book_name(rules)
    if name is None:
        return None
    try:
        data = resources.files("pegboard.engine").joinpath("data", name).read_bytes()
    except FileNotFoundError:
        return None
    return LeadBook(data, rules.dealt - rules.discards)
