"""Hypothesis strategies for cards, shared by the engine tests (and anyone else's tests).

From a test module in ``tests/engine``: ``from strategies import card, distinct_cards``.
"""

from __future__ import annotations

from hypothesis import strategies as st

from pegboard.engine.cards import DECK, Card


def card() -> st.SearchStrategy[Card]:
    """Any one of the 52 cards."""
    return st.sampled_from(DECK)


def distinct_cards(n: int) -> st.SearchStrategy[tuple[Card, ...]]:
    """*n* different cards, in any order (shrinks towards low cards)."""
    return st.lists(card(), min_size=n, max_size=n, unique=True).map(tuple)
