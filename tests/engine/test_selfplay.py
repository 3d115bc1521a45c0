"""Self-play: the policy behind the win probabilities plays by the engine's rules."""

from __future__ import annotations

import random

import pytest

from pegboard.engine.advice import CribOwner, advise
from pegboard.engine.cards import DECK, Card, parse_cards, shuffled_deck
from pegboard.engine.play import PlayState
from pegboard.engine.rules import Rules, Variant
from pegboard.engine.selfplay import Advisor, Stage, choose_card, crib_owner, play_deal

TWO_SIDED = [pytest.param(v, id=v.value) for v in Variant if v is not Variant.THREE_HANDED]


@pytest.mark.parametrize("variant", TWO_SIDED)
def test_the_advisor_keeps_what_advise_puts_first(variant: Variant) -> None:
    rules = Rules.for_variant(variant)
    owners = [CribOwner.OWN, CribOwner.OPPONENT]
    if rules.players > 2:
        owners.append(CribOwner.PARTNER)
    advisor = Advisor(rules)
    rng = random.Random(11)
    for n in range(24):
        dealt = shuffled_deck(rng)[: rules.dealt]
        owner = owners[n % len(owners)]
        assert advisor.best(dealt, owner) == advise(dealt, rules=rules, crib_owner=owner)[0].keep
        # the same hand with its suits renamed comes from the memory, mapped back
        renamed = [DECK[(card.index & ~3) | (3 - (card.index & 3))] for card in dealt]
        kept = advisor.best(renamed, owner)
        assert kept == advise(renamed, rules=rules, crib_owner=owner)[0].keep


def test_ties_between_suits_go_the_way_advise_breaks_them() -> None:
    # 5-5 of two suits holding the same ranks: the suits are interchangeable
    dealt = parse_cards("5H 5D 10H 10D KS AS")
    advisor = Advisor(Rules.six_card())
    for owner in (CribOwner.OWN, CribOwner.OPPONENT):
        assert advisor.best(dealt, owner) == advise(dealt, crib_owner=owner)[0].keep


def test_the_play_takes_the_most_points_then_keeps_off_5_and_21() -> None:
    hands = [parse_cards("KS 5C AD 2H"), parse_cards("10H 4C 9D 8S")]
    state = PlayState.start(Rules.six_card(), 1, hands=hands)
    # nothing scores on a lead: the 5 would leave 5 (a ten makes 15), the king is highest
    assert choose_card(state) == Card.parse("KS")
    state, _ = state.play(Card.parse("KS"))
    state, _ = state.play(Card.parse("4C"))  # count 14: the ace makes fifteen
    assert choose_card(state) == Card.parse("AD")
    state, _ = state.play(Card.parse("AD"))
    state, _ = state.play(Card.parse("9D"))  # count 24: 5 makes 29, 2 makes 26, none scores
    assert choose_card(state) == Card.parse("5C")


def test_a_seat_with_nothing_that_fits_says_go() -> None:
    hands = [parse_cards("KS QS JS 10S"), parse_cards("KH QH JH 9H")]
    state = PlayState.start(Rules.six_card(), 1, hands=hands)
    for card in ("KS", "KH", "QS"):
        state, _ = state.play(Card.parse(card))
    assert choose_card(state) is None  # count 30: no card of the pone's fits


@pytest.mark.parametrize("variant", TWO_SIDED)
def test_a_deal_pegs_in_the_games_order(variant: Variant) -> None:
    rules = Rules.for_variant(variant)
    rng = random.Random(3)
    advisor = Advisor(rules)
    order = [Stage.HEELS, Stage.PLAY, Stage.SHOW, Stage.CRIB]
    for n in range(6):
        dealer = n % rules.players
        trace = play_deal(rules, dealer, rng, advisor)
        stages = [order.index(peg.stage) for peg in trace.pegs]
        assert stages == sorted(stages)
        assert sum(p.points for p in trace.pegs if p.stage is Stage.PLAY) >= 1  # a last card
        shown = [p.step for p in trace.pegs if p.stage is Stage.SHOW]
        assert shown == sorted(shown)
        for peg in trace.pegs:
            if peg.stage is Stage.SHOW:  # from the dealer's left round to the dealer
                assert peg.seat == (dealer + 1 + peg.step) % rules.players
            if peg.stage in (Stage.HEELS, Stage.CRIB):
                assert peg.seat == dealer


def test_whose_crib_it_is_from_each_chair() -> None:
    rules = Rules.two_against_one()
    assert [crib_owner(rules, seat, 0) for seat in range(3)] == [
        CribOwner.OWN,
        CribOwner.PARTNER,
        CribOwner.OPPONENT,
    ]


# --- the advised play (issue 25) -------------------------------------------------------------


def test_the_deal_does_not_depend_on_the_play_policies() -> None:
    from pegboard.engine.selfplay import PlayPolicy

    rules = Rules.six_card()
    greedy, advised = PlayPolicy.GREEDY, PlayPolicy.ADVISED
    differ = 0
    for seed in range(6):
        traces = [
            play_deal(rules, seed % 2, random.Random(seed), policies=policies)
            for policies in ((greedy, greedy), (advised, greedy), (greedy, advised))
        ]
        shows = {tuple(p for p in t.pegs if p.stage is not Stage.PLAY) for t in traces}
        assert len(shows) == 1  # the same cards, discards and starter: the same show
        plays = {tuple(p for p in t.pegs if p.stage is Stage.PLAY) for t in traces}
        differ += len(plays) > 1
    assert differ  # the advised play lays other cards in some deal


def test_the_advised_seat_lays_the_advices_first_card() -> None:
    from pegboard.engine.playadvice import advise_play
    from pegboard.engine.selfplay import advised_card

    rules = Rules.six_card()
    hands = [parse_cards("5H 10D 4C 4S"), parse_cards("7C 8C 9H KS")]
    state = PlayState.start(rules, 1, starter=Card.parse("KH"), hands=hands)
    card = advised_card(state, [], parse_cards("QC 9D"))
    best = advise_play(hands[0], [], Card.parse("KH"), dealer=False, seen=parse_cards("QC 9D"))
    assert card == best.options[0].card == Card.parse("4C")
    state, _ = state.play(Card.parse("4C"))
    state, _ = state.play(Card.parse("KS"))
    laid = parse_cards("4C KS")
    after = advised_card(state, laid, parse_cards("QC 9D"))
    advice = advise_play(parse_cards("5H 10D 4S"), laid, Card.parse("KH"), dealer=False,
                         seen=parse_cards("QC 9D"), reads=True)  # fmt: skip
    assert after == advice.options[0].card


def test_the_advised_play_is_for_two_players() -> None:
    from pegboard.engine.selfplay import PlayPolicy

    rules = Rules.three_handed()
    with pytest.raises(ValueError, match="two-player variants only"):
        play_deal(rules, 0, random.Random(1), policies=[PlayPolicy.ADVISED] * 3)
    with pytest.raises(ValueError, match="a play policy per seat"):
        play_deal(Rules.six_card(), 0, random.Random(1), policies=[PlayPolicy.GREEDY])
