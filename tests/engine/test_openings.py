"""The advised self-play's opening: the shipped lead book, and the advice for every later card."""

from __future__ import annotations

import random

import pytest

from pegboard.engine import openings
from pegboard.engine.cards import Card, parse_cards, shuffled_deck
from pegboard.engine.play import PlayState
from pegboard.engine.playadvice import advise_play
from pegboard.engine.rules import Rules
from pegboard.engine.selfplay import Advisor, crib_owner


def test_the_shipped_six_card_book_has_a_lead_for_every_hand_and_starter() -> None:
    book = openings.lead_book(Rules.six_card())
    assert book is not None
    rows = openings.hands(4)
    assert len(rows) == 1820  # C(16, 4): four ranks of 13 with repeats
    for held in rows:
        for starter in range(1, 14):
            lead = book.lead(held, starter)
            if (*held, starter).count(starter) > 4:
                assert lead == 0  # a fifth card of a rank cannot be dealt
            else:
                assert lead in held


@pytest.mark.parametrize(
    "rules",
    [Rules.six_card(), Rules.five_card(), Rules.two_in_the_crib()],
    ids=["six", "five", "two-in-the-crib"],
)
def test_the_book_agrees_with_the_advice_on_random_hands(rules: Rules) -> None:
    book = openings.lead_book(rules)
    assert book is not None
    rng = random.Random(25)
    size = rules.dealt - rules.discards
    for _ in range(30):
        deck = shuffled_deck(rng)
        held, starter = deck[:size], deck[size]
        ranks = tuple(sorted(card.rank.value for card in held))
        advice = advise_play(held, [], starter, dealer=False, rules=rules)
        best = advice.options[0].card
        assert best is not None
        assert book.lead(ranks, starter.rank.value) == best.rank.value


def test_a_book_serves_only_the_preset_it_was_worked_out_for() -> None:
    assert openings.book_name(Rules.six_card()) == "six-card.openings"
    # four cards held and the same play: two-in-the-crib's leads are six-card's
    assert openings.book_name(Rules.two_in_the_crib()) == "six-card.openings"
    assert openings.book_name(Rules.two_in_the_crib(starter_counts_in_play=True)) is None
    assert openings.book_name(Rules.six_card(starter_counts_in_play=True)) is None
    assert openings.book_name(Rules.four_handed()) is None
    with pytest.raises(ValueError, match="has 23660 bytes, not 100"):
        openings.LeadBook(b"\0" * 100, 4)


def _first_two(rules: Rules, seed: int) -> tuple[PlayState, list[list[Card]], list[list[Card]]]:
    advisor = Advisor(rules)
    deck = shuffled_deck(random.Random(seed))
    size = rules.dealt
    dealt = [deck[:size], deck[size : 2 * size]]
    hands = [list(advisor.best(cards, crib_owner(rules, seat, 1))) for seat, cards in
             enumerate(dealt)]  # fmt: skip
    discards = [[c for c in cards if c not in hands[s]] for s, cards in enumerate(dealt)]
    state = PlayState.start(rules, 1, starter=deck[2 * size + 2], hands=hands)
    return state, hands, discards


@pytest.mark.parametrize("book", [True, False], ids=["book", "worked-out"])
def test_the_lead_is_the_advice_for_a_player_who_forgot_its_discards(
    book: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not book:  # a variant with no book ships works each lead out as it comes
        monkeypatch.setattr(openings, "lead_book", lambda rules: None)
    rules = Rules.six_card()
    advisor = Advisor(rules)
    for seed in range(8):
        state, hands, discards = _first_two(rules, seed)
        starter = state.starter
        assert starter is not None
        lead = advisor.lay(state, [], discards[0])
        forgot = advise_play(hands[0], [], starter, dealer=False).options[0].card
        assert lead == forgot
        assert advisor.lay(state, [], discards[0]) == lead  # remembered or booked: the same
        # the dealer's first card sees its discards
        state, _ = state.play(lead)
        reply = advisor.lay(state, [lead], discards[1])
        expected = advise_play(hands[1], [lead], starter, dealer=True, seen=discards[1], reads=True)
        assert reply == expected.options[0].card


def test_later_cards_see_the_discards() -> None:
    # 5H 10D 4C 4S on a KH, having laid away QC 9D: after 4C KS the advice with the discards
    rules = Rules.six_card()
    hands = [parse_cards("5H 10D 4C 4S"), parse_cards("7C 8C 9H KS")]
    state = PlayState.start(rules, 1, starter=Card.parse("KH"), hands=hands)
    state, _ = state.play(Card.parse("4C"))
    state, _ = state.play(Card.parse("KS"))
    laid = parse_cards("4C KS")
    card = Advisor(rules).lay(state, laid, parse_cards("QC 9D"))
    advice = advise_play(parse_cards("5H 10D 4S"), laid, Card.parse("KH"), dealer=False,
                         seen=parse_cards("QC 9D"), reads=True)  # fmt: skip
    assert card == advice.options[0].card
