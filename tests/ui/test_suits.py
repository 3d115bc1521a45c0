"""The suit search on its own: suits that make every answer at the show true."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from pegboard.engine.cards import Card, Rank, Suit, parse_cards
from pegboard.engine.scoring import score_hand
from pegboard.ui.suits import HandFacts, choose_suits

_RANKS = st.sampled_from(list(Rank))


@st.composite
def _hand_case(draw: st.DrawFn) -> tuple[list[Rank], int, bool]:
    starter = draw(_RANKS)
    ranks = draw(st.lists(_RANKS, min_size=4, max_size=4, unique=True))
    flush = draw(st.sampled_from([0, 1, 2]))
    nobs = draw(st.booleans())
    return [starter, *ranks], flush, nobs


@given(_hand_case())
def test_chosen_suits_give_exactly_the_answers_whenever_they_are_possible(
    case: tuple[list[Rank], int, bool],
) -> None:
    ranks, flush, nobs = case
    facts = HandFacts((1, 2, 3, 4), crib=False, flush=flush, nobs=nobs)
    suits = choose_suits(ranks, [None] * 5, [facts], 0, keep=False)
    jack = Rank.JACK in ranks[1:]
    possible = (
        not (nobs and not jack)  # nobs needs a jack
        and not (nobs and ranks[0] is Rank.JACK)  # a jack starter is the jack of its own suit
        and not (flush == 2 and ranks[0] in ranks[1:])  # a flush with the starter's rank
        and not (flush == 2 and jack and not nobs)  # the jack of a flush with the starter
        and not (flush == 1 and nobs)  # a flush not of the starter's suit holds no nobs
    )
    assert (suits is not None) == possible
    if suits is not None:
        cards = [Card(r, s) for r, s in zip(ranks, suits, strict=True)]
        assert len(set(cards)) == 5
        assert facts.holds(cards[1:], cards[0])


@given(st.lists(_RANKS, min_size=4, max_size=4))
def test_a_hand_without_suit_answers_scores_its_rank_points(ranks: list[Rank]) -> None:
    all_ranks = [Rank.FIVE, *ranks]
    assume(all(all_ranks.count(r) <= 4 for r in all_ranks))
    assume(ranks.count(Rank.JACK) < 4)  # four jacks: one is the starter's suit, nobs is forced
    facts = HandFacts((1, 2, 3, 4), crib=False, flush=0, nobs=False)
    suits = choose_suits(all_ranks, [None] * 5, [facts], 0, keep=True)
    assert suits is not None
    cards = [Card(r, s) for r, s in zip(all_ranks, suits, strict=True)]
    from pegboard.engine.scoring import rank_points

    assert score_hand(cards[1:], cards[0]).total == rank_points(r.value for r in all_ranks)


def test_kept_cards_never_change_and_impossible_answers_give_none() -> None:
    ranks = [Rank.FIVE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.SIX]
    current = [Suit.HEARTS, Suit.CLUBS, None, None, None]
    flush = HandFacts((1, 2, 3, 4), crib=False, flush=2, nobs=False)
    assert choose_suits(ranks, current, [flush], 0, keep=True) is None
    suits = choose_suits(ranks, current, [flush], 0, keep=False)
    assert suits == (Suit.HEARTS,) * 5


def test_the_starter_must_be_slot_zero() -> None:
    with pytest.raises(ValueError, match="the starter must be slot 0, got 1"):
        choose_suits(parse_cards_ranks("5H 6H"), [None, None], [], 1, keep=True)


def parse_cards_ranks(text: str) -> list[Rank]:
    return [c.rank for c in parse_cards(text)]
