"""Cards and their one notation: parsing, printing, ordering, the pack."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegboard.engine import (
    DECK,
    Card,
    InvalidCardError,
    InvalidHandError,
    Rank,
    Suit,
    format_cards,
    parse_cards,
    shuffled_deck,
)
from tests.engine.strategies import card, distinct_cards


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        pytest.param("5H", Rank.FIVE, Suit.HEARTS, id="5H"),
        pytest.param("10D", Rank.TEN, Suit.DIAMONDS, id="10D"),
        pytest.param("TD", Rank.TEN, Suit.DIAMONDS, id="TD"),
        pytest.param("td", Rank.TEN, Suit.DIAMONDS, id="td"),
        pytest.param("js", Rank.JACK, Suit.SPADES, id="js"),
        pytest.param("Qc", Rank.QUEEN, Suit.CLUBS, id="Qc"),
        pytest.param("AS", Rank.ACE, Suit.SPADES, id="AS"),
        pytest.param("KH", Rank.KING, Suit.HEARTS, id="KH"),
        pytest.param(" 7C ", Rank.SEVEN, Suit.CLUBS, id="7C-spaced"),
        pytest.param("10♥", Rank.TEN, Suit.HEARTS, id="10♥"),
        pytest.param("Q♠", Rank.QUEEN, Suit.SPADES, id="Q♠"),
        pytest.param("a♦", Rank.ACE, Suit.DIAMONDS, id="a♦"),
        pytest.param("9♣", Rank.NINE, Suit.CLUBS, id="9♣"),
        pytest.param("2♡", Rank.TWO, Suit.HEARTS, id="2♡"),
        pytest.param("5\u2660\ufe0f", Rank.FIVE, Suit.SPADES, id="5♠-emoji-style"),
        pytest.param("10\u2665\ufe0e", Rank.TEN, Suit.HEARTS, id="10♥-text-style"),
        pytest.param("\uff15\uff28", Rank.FIVE, Suit.HEARTS, id="5H-fullwidth"),
    ],
)
def test_cards_parse_from_every_accepted_spelling(text: str, rank: Rank, suit: Suit) -> None:
    assert Card.parse(text) == Card(rank, suit)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        pytest.param("td", "10D", id="td"),
        pytest.param("T♥", "10H", id="T♥"),
        pytest.param("jc", "JC", id="jc"),
        pytest.param("A♠", "AS", id="A♠"),
    ],
)
def test_str_is_always_the_canonical_notation(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize(
    "text", ["1H", "11C", "5X", "H5", "", "5", "10", "JJ", "0S", "5HH", "\ufe0f", "5\ufe0f", "5²"]
)
def test_text_that_is_not_a_card_is_rejected_naming_it(text: str) -> None:
    with pytest.raises(InvalidCardError, match=rf"invalid card: {text!r} \(expected rank"):
        Card.parse(text)


def test_an_invalid_card_is_also_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"invalid card: '1H'"):
        Card.parse("1H")


@given(card())
def test_str_round_trips_for_every_card(c: Card) -> None:
    assert Card.parse(str(c)) == c
    assert Card.parse(str(c).lower()) == c
    assert Card.parse(c.rank.label + c.suit.symbol) == c


@given(card())
def test_repr_evaluates_back_to_the_card(c: Card) -> None:
    assert eval(repr(c), {"Card": Card}) == c


@given(distinct_cards(5))
def test_a_hand_round_trips_through_format_and_parse(cards: tuple[Card, ...]) -> None:
    assert parse_cards(format_cards(cards)) == cards


@pytest.mark.parametrize(
    ("rank", "pips"),
    [
        pytest.param(Rank.ACE, 1, id="A"),
        pytest.param(Rank.FIVE, 5, id="5"),
        pytest.param(Rank.TEN, 10, id="10"),
        pytest.param(Rank.JACK, 10, id="J"),
        pytest.param(Rank.QUEEN, 10, id="Q"),
        pytest.param(Rank.KING, 10, id="K"),
    ],
)
def test_pip_values_count_court_cards_as_ten(rank: Rank, pips: int) -> None:
    assert rank.pips == pips
    assert Card(rank, Suit.CLUBS).pips == pips


@pytest.mark.parametrize("text", ["A", "a", "10", "T", "t", "J", "q", "K", " 7 "])
def test_rank_labels_parse_and_round_trip(text: str) -> None:
    rank = Rank.parse(text)
    assert Rank.parse(rank.label) is rank


def test_a_bad_rank_label_is_rejected_naming_it() -> None:
    with pytest.raises(InvalidCardError, match=r"invalid rank: '1' \(expected A, 2-10"):
        Rank.parse("1")


def test_the_deck_holds_52_different_cards_in_index_order() -> None:
    assert len(set(DECK)) == 52
    assert [c.index for c in DECK] == list(range(52))
    assert sorted(DECK) == list(DECK)


def test_cards_order_by_rank_then_suit() -> None:
    assert Card.parse("AS") < Card.parse("2C")
    assert Card.parse("5C") < Card.parse("5D") <= Card.parse("5D")
    assert Card.parse("KS") > Card.parse("KH") >= Card.parse("KH")


def test_suits_have_symbols_and_dense_indexes() -> None:
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert [s.index for s in Suit] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("5H 5D 5S JC", id="spaces"),
        pytest.param("5H,5D;5S  JC", id="commas-semicolons"),
        pytest.param("5h 5♦ 5s jc", id="mixed-case-and-symbols"),
    ],
)
def test_parse_cards_accepts_separators_case_and_symbols(text: str) -> None:
    assert format_cards(parse_cards(text)) == "5H 5D 5S JC"


def test_parse_cards_accepts_separate_strings() -> None:
    assert parse_cards(["5H", " 10d", "TC"]) == (
        Card.parse("5H"),
        Card.parse("10D"),
        Card.parse("10C"),
    )


def test_parse_cards_rejects_a_duplicate_naming_card_and_input() -> None:
    with pytest.raises(InvalidHandError, match=r"duplicate card 5H in '5H 5D 5h'"):
        parse_cards("5H 5D 5h")


def test_parse_cards_counts_ten_and_t_as_the_same_card() -> None:
    with pytest.raises(InvalidHandError, match=r"duplicate card 10D in '10D TD'"):
        parse_cards("10D TD")


def test_parse_cards_rejects_the_wrong_number_of_cards() -> None:
    with pytest.raises(
        InvalidHandError,
        match=r"wrong number of cards for a hand: '5H 5D 5S' has 3, expected 4",
    ):
        parse_cards("5H 5D 5S", count=4)


def test_parse_cards_names_every_allowed_count_and_what_it_parsed() -> None:
    with pytest.raises(
        InvalidHandError,
        match=r"wrong number of cards for a crib: '5H' has 1, expected 3 or 4",
    ):
        parse_cards("5H", count=(3, 4), what="crib")


def test_parse_cards_reports_the_first_bad_word() -> None:
    with pytest.raises(InvalidCardError, match=r"invalid card: '1H'"):
        parse_cards("5H 1H 5S")


def test_an_invalid_hand_is_also_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"duplicate card"):
        parse_cards("5H 5H")


@given(st.randoms(use_true_random=False))
def test_a_shuffled_deck_is_the_whole_pack_in_some_order(rng: random.Random) -> None:
    deck = shuffled_deck(rng)
    assert sorted(deck) == list(DECK)


def test_shuffling_depends_only_on_the_random_source() -> None:
    assert shuffled_deck(random.Random(7)) == shuffled_deck(random.Random(7))
    assert shuffled_deck(random.Random(7)) != shuffled_deck(random.Random(8))
