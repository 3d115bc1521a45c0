"""Discard advice: exact expected points against brute force, sanity facts, invariants."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.engine.advice import CribOwner, DiscardOption, advise
from pegboard.engine.cards import DECK, Card, Suit, format_cards, parse_cards
from pegboard.engine.rules import Rules, Variant
from pegboard.engine.scoring import score_total
from pegboard.errors import InvalidHandError

EXACT = 1e-9


def brute_force(
    dealt: Sequence[Card], discard: Sequence[Card], rules: Rules
) -> tuple[Fraction, Fraction]:
    """Mean hand and crib show points of one discard, by scoring every deal there could be.

    Every unseen card may be the starter; for the crib, every set of unknown crib cards drawn
    from the other unseen cards, all equally likely.
    """
    unseen = [card for card in DECK if card not in dealt]
    keep = [card for card in dealt if card not in discard]
    hand = Fraction(sum(score_total(keep, starter) for starter in unseen), len(unseen))
    unknown = rules.crib_size - rules.discards
    total = deals = 0
    for starter in unseen:
        others = [card for card in unseen if card != starter]
        for drawn in itertools.combinations(others, unknown):
            total += score_total((*discard, *drawn), starter, crib=True, rules=rules)
            deals += 1
    return hand, Fraction(total, deals)


def option_for(options: list[DiscardOption], discard: str) -> DiscardOption:
    wanted = set(parse_cards(discard))
    (option,) = [o for o in options if set(o.discard) == wanted]
    return option


def assert_matches_brute_force(
    dealt: str, rules: Rules, discards: Sequence[str] | None, owner: CribOwner
) -> None:
    cards = parse_cards(dealt)
    options = advise(cards, rules=rules, crib_owner=owner)
    chosen = options if discards is None else [option_for(options, discard) for discard in discards]
    sign = -1 if owner is CribOwner.OPPONENT else 1
    for option in chosen:
        hand, crib = brute_force(cards, option.discard, rules)
        shown = format_cards(option.discard)
        assert option.hand_ev == pytest.approx(float(hand), rel=0, abs=EXACT), shown
        assert option.crib_ev == pytest.approx(float(crib), rel=0, abs=EXACT), shown
        assert option.net_ev == pytest.approx(float(hand + sign * crib), rel=0, abs=EXACT), shown


# --- exact against brute force -------------------------------------------------------------


@pytest.mark.parametrize(
    ("dealt", "discard"),
    [
        pytest.param("5H JC JH 4H 6H QD", "JH 4H", id="5H-JC-JH-4H-6H-QD-throw-JH-4H"),
        pytest.param("2C 3C 4C 9C 10D KS", "9C 3C", id="2C-3C-4C-9C-10D-KS-throw-9C-3C"),
    ],
)
def test_one_crib_matches_brute_force_for_the_dealer(dealt: str, discard: str) -> None:
    assert_matches_brute_force(dealt, Rules.six_card(), [discard], CribOwner.OWN)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("dealt", "owner"),
    [
        pytest.param("5H JC JH 4H 6H QD", CribOwner.OWN, id="5H-JC-JH-4H-6H-QD-dealer"),
        pytest.param("AS 2S 3S 7S 8D KD", CribOwner.OPPONENT, id="AS-2S-3S-7S-8D-KD-pone"),
    ],
)
def test_six_card_advice_matches_brute_force_for_every_discard(
    dealt: str, owner: CribOwner
) -> None:
    assert_matches_brute_force(dealt, Rules.six_card(), None, owner)


@pytest.mark.slow
def test_five_card_advice_matches_brute_force_for_every_discard() -> None:
    assert_matches_brute_force("5H JH 4H 6H QD", Rules.five_card(), None, CribOwner.OPPONENT)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "dealt", "owner"),
    [
        pytest.param(
            Variant.THREE_HANDED, "5H JC JH 4H 6H", CribOwner.OPPONENT,
            id="three-handed-5H-JC-JH-4H-6H",
        ),
        pytest.param(
            Variant.FOUR_HANDED, "7C 8C 9D QS KH", CribOwner.PARTNER,
            id="four-handed-partner-7C-8C-9D-QS-KH",
        ),
        pytest.param(
            Variant.TWO_IN_THE_CRIB, "AD 4S 5C JD 10H", CribOwner.OWN,
            id="two-in-the-crib-AD-4S-5C-JD-10H",
        ),
    ],
)  # fmt: skip
def test_five_dealt_variants_match_brute_force_for_every_discard(
    variant: Variant, dealt: str, owner: CribOwner
) -> None:
    assert_matches_brute_force(dealt, Rules.for_variant(variant), None, owner)


@pytest.mark.parametrize(
    ("variant", "dealt"),
    [
        pytest.param(Variant.SIX_CARD, "5H 5D 5S JC 9H KS", id="six-card-5H-5D-5S-JC-9H-KS"),
        pytest.param(Variant.FIVE_CARD, "JS 4S 6S 2D QC", id="five-card-JS-4S-6S-2D-QC"),
        pytest.param(Variant.THREE_HANDED, "3H 3C 9H JH 6H", id="three-handed-3H-3C-9H-JH-6H"),
    ],
)
def test_hand_ev_is_the_mean_show_over_every_starter(variant: Variant, dealt: str) -> None:
    cards = parse_cards(dealt)
    unseen = [card for card in DECK if card not in cards]
    for option in advise(cards, rules=Rules.for_variant(variant), dealer=True):
        mean = Fraction(sum(score_total(option.keep, s) for s in unseen), len(unseen))
        assert option.hand_ev == pytest.approx(float(mean), rel=0, abs=EXACT)


def test_five_five_five_jack_is_worth_its_counted_mean() -> None:
    # 5-5-5-J is 14 before the starter. Of the 46 unseen cards, the last five (5C) makes 28,
    # a ten-card (14 left) adds three fifteens, the jack also a pair, anything else nothing;
    # the 12 unseen clubs add nobs for JC: (28 + 14*31 + 20*11 + 22*3 + 12) / 46.
    option = option_for(advise(parse_cards("5H 5D 5S JC 9H KS"), dealer=False), "9H KS")
    assert option.hand_ev == (28 + 14 * 31 + 20 * 11 + 22 * 3 + 12) / 46


# --- sanity facts ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dealer", [pytest.param(True, id="dealer"), pytest.param(False, id="pone")]
)
def test_three_fives_and_a_ten_card_are_kept(dealer: bool) -> None:
    best = advise(parse_cards("5H 5D 5S JC 9H KS"), dealer=dealer)[0]
    keep = {str(card) for card in best.keep}
    assert {"5H", "5D", "5S"} <= keep
    assert keep & {"JC", "KS"}


def test_the_dealer_lays_the_jack_away_to_his_own_crib_and_the_pone_keeps_it() -> None:
    dealt = parse_cards("5H 5D 5S JC 9H KS")
    assert format_cards(advise(dealt, dealer=True)[0].discard) == "9H JC"
    assert format_cards(advise(dealt, dealer=False)[0].discard) == "9H KS"


def test_the_pone_does_not_give_away_a_pair_of_fives() -> None:
    options = advise(parse_cards("5C 5D 9S 10H QS KD"), dealer=False)
    assert {str(card) for card in options[0].keep} >= {"5C", "5D"}
    assert option_for(options, "5C 5D").net_ev < options[0].net_ev - 5


def test_a_four_card_flush_kept_is_counted_with_its_starter_chance() -> None:
    # 2H 4H 8H QH has no points of its own. Starters by rank (unseen count x points):
    # A 3x4 (two fifteens), 2 3x2, 3 4x7 (two fifteens, run 2-3-4), 4 3x2, 5 4x4, 7 4x2, 8 3x2,
    # 9 4x2, Q 3x2 = 96; the flush is 4 with every starter, 5 with one of the 9 unseen hearts.
    option = option_for(advise(parse_cards("2H 4H 8H QH AC KS"), dealer=True), "AC KS")
    assert option.hand_ev == (96 + 4 * 46 + 9) / 46


def test_a_crib_flush_needs_the_unknown_cards_and_starter_in_the_discards_suit() -> None:
    # Three-handed, 9S or 9H to the crib: the same rank, so only the flush chance differs:
    # 5 points when the 3 unknown cards and the starter are all of the suit (12 spades unseen,
    # but only 9 hearts).
    options = advise(parse_cards("9S 9H 2H 5H 7H"), rules=Rules.three_handed(), dealer=True)
    spade, heart = option_for(options, "9S"), option_for(options, "9H")
    gain = Fraction(5 * (math.comb(12, 4) - math.comb(9, 4)), math.comb(47, 4))
    assert spade.crib_ev - heart.crib_ev == pytest.approx(float(gain), rel=0, abs=1e-12)


def test_a_five_card_crib_flush_is_worth_four_in_the_advice() -> None:
    # Five-card, 2S 9S or 2H 9S to the crib: the same ranks, so only the flush chance differs.
    # The opponent's two discards and the starter must all be spades (11 unseen), and then the
    # flush is worth 4, not 5 (RULES.md, from the German document).
    options = advise(parse_cards("2S 9S 2H KD 5C"), rules=Rules.five_card(), dealer=True)
    suited, mixed = option_for(options, "2S 9S"), option_for(options, "2H 9S")
    gain = Fraction(4 * math.comb(11, 3), math.comb(47, 3))
    assert suited.crib_ev - mixed.crib_ev == pytest.approx(float(gain), rel=0, abs=1e-12)


def test_a_discarded_jack_scores_nobs_with_a_starter_of_its_suit() -> None:
    # JS or JH with 3C: no flush either way; nobs needs a spade (12 unseen) or a heart (9).
    options = advise(parse_cards("JS JH 2H 5H 7H 3C"), dealer=True)
    spade, heart = option_for(options, "JS 3C"), option_for(options, "JH 3C")
    assert spade.crib_ev - heart.crib_ev == pytest.approx(3 / 46, rel=0, abs=1e-12)


@pytest.mark.parametrize(
    ("variant", "count"),
    [pytest.param(v, n, id=v.value) for v, n in [
        (Variant.SIX_CARD, 15), (Variant.THREE_HANDED, 5), (Variant.FOUR_HANDED, 5),
        (Variant.TWO_AGAINST_ONE, 5), (Variant.TWO_IN_THE_CRIB, 5), (Variant.FIVE_CARD, 10),
    ]],
)  # fmt: skip
def test_every_discard_is_offered_once(variant: Variant, count: int) -> None:
    rules = Rules.for_variant(variant)
    dealt = DECK[3 : 3 + 4 * rules.dealt : 4]
    options = advise(dealt, rules=rules, dealer=False)
    assert len(options) == count == math.comb(rules.dealt, rules.discards)
    assert {frozenset(o.discard) for o in options} == {
        frozenset(d) for d in itertools.combinations(dealt, rules.discards)
    }


def test_options_come_best_first_and_ties_in_card_order() -> None:
    # clubs and diamonds are equally used up, so discards that swap them tie exactly
    options = advise(parse_cards("AC AD 7H 7S KC KD"), dealer=True)
    keys = [(-o.net_ev, -o.hand_ev) for o in options]
    assert keys == sorted(keys)
    groups = [list(g) for _, g in itertools.groupby(options, key=lambda o: (o.net_ev, o.hand_ev))]
    assert any(len(group) > 1 for group in groups)
    for group in groups:
        indexes = [tuple(card.index for card in o.discard) for o in group]
        assert indexes == sorted(indexes)


def test_a_partners_crib_counts_for_the_team() -> None:
    rules = Rules.four_handed()
    dealt = parse_cards("7C 8C 9D QS KH")
    assert advise(dealt, rules=rules, crib_owner=CribOwner.PARTNER) == advise(
        dealt, rules=rules, dealer=True
    )
    assert advise(dealt, rules=rules, crib_owner=CribOwner.OPPONENT) == advise(
        dealt, rules=rules, dealer=False
    )


# --- bad input ---------------------------------------------------------------------------------


def test_a_short_hand_is_rejected_with_the_count_expected() -> None:
    with pytest.raises(
        InvalidHandError,
        match=r"wrong number of cards dealt: '5H 5D 5S JC 9H' has 5, expected 6 in six-card",
    ):
        advise(parse_cards("5H 5D 5S JC 9H"), dealer=True)


def test_a_six_card_deal_is_too_many_for_five_card_cribbage() -> None:
    with pytest.raises(InvalidHandError, match=r"has 6, expected 5 in five-card"):
        advise(parse_cards("5H 5D 5S JC 9H KS"), rules=Rules.five_card(), dealer=True)


def test_a_card_dealt_twice_is_rejected() -> None:
    card = Card.parse("5H")
    with pytest.raises(InvalidHandError, match=r"duplicate card 5H in '5H 5D 5H JC 9H KS'"):
        advise([card, Card.parse("5D"), card, *parse_cards("JC 9H KS")], dealer=True)


def test_whose_crib_must_be_said_exactly_once() -> None:
    dealt = parse_cards("5H 5D 5S JC 9H KS")
    with pytest.raises(TypeError, match=r"needs whose crib it is"):
        advise(dealt)
    with pytest.raises(TypeError, match=r"not both"):
        advise(dealt, dealer=True, crib_owner=CribOwner.OWN)


def test_a_partners_crib_needs_partners() -> None:
    with pytest.raises(ValueError, match=r"needs a variant with partners, got 'six-card'"):
        advise(parse_cards("5H 5D 5S JC 9H KS"), crib_owner=CribOwner.PARTNER)


# --- invariants --------------------------------------------------------------------------------

VARIANTS = st.sampled_from(list(Variant))


@st.composite
def deals(draw: st.DrawFn) -> tuple[Rules, tuple[Card, ...], CribOwner]:
    rules = Rules.for_variant(draw(VARIANTS))
    cards = draw(st.permutations(DECK))[: rules.dealt]
    owners = [CribOwner.OWN, CribOwner.OPPONENT]
    if any(len(team) > 1 for team in rules.teams):
        owners.append(CribOwner.PARTNER)
    return rules, tuple(cards), draw(st.sampled_from(owners))


@settings(max_examples=60, deadline=None)
@given(deals())
def test_every_discard_appears_once_with_net_from_hand_and_crib(
    deal: tuple[Rules, tuple[Card, ...], CribOwner],
) -> None:
    rules, dealt, owner = deal
    options = advise(dealt, rules=rules, crib_owner=owner)
    discards = [frozenset(o.discard) for o in options]
    assert sorted(map(sorted, discards)) == sorted(
        map(sorted, itertools.combinations(dealt, rules.discards))
    )
    sign = -1 if owner is CribOwner.OPPONENT else 1
    for o in options:
        assert sorted(o.discard + o.keep) == sorted(dealt)
        assert len(o.keep) == rules.hand_size
        assert o.net_ev == pytest.approx(o.hand_ev + sign * o.crib_ev, rel=0, abs=1e-12)
        assert 0 <= o.hand_ev <= 29
        assert 0 <= o.crib_ev <= 29
    assert [o.net_ev for o in options] == sorted((o.net_ev for o in options), reverse=True)


@settings(max_examples=40, deadline=None)
@given(deals(), st.permutations(list(Suit)))
def test_advice_ignores_the_order_dealt_and_the_names_of_suits(
    deal: tuple[Rules, tuple[Card, ...], CribOwner], suits: list[Suit]
) -> None:
    rules, dealt, owner = deal
    relabel = dict(zip(Suit, suits, strict=True))
    swapped = [Card(card.rank, relabel[card.suit]) for card in dealt]
    swapped.reverse()
    plain = advise(dealt, rules=rules, crib_owner=owner)
    renamed = advise(swapped, rules=rules, crib_owner=owner)
    assert [(o.hand_ev, o.crib_ev, o.net_ev) for o in plain] == [
        (o.hand_ev, o.crib_ev, o.net_ev) for o in renamed
    ]
    by_discard = {frozenset(o.discard): o for o in renamed}
    for o in plain:
        twin = by_discard[frozenset(Card(c.rank, relabel[c.suit]) for c in o.discard)]
        assert (twin.hand_ev, twin.crib_ev, twin.net_ev) == (o.hand_ev, o.crib_ev, o.net_ev)
