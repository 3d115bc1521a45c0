"""Exact show statistics, pinned and cross-checked against straightforward enumeration."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from pegboard.engine import (
    DECK,
    InvalidHandError,
    Rules,
    ScoreDistribution,
    score_total,
    show_distribution,
)
from tests.engine.brute import brute_card, brute_score

# counts[score] for score 0..29, over all 12,994,800 (four cards, starter) combinations
HAND_COUNTS = (
    1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236, 361224,
    388740, 51680, 317340, 19656, 90100, 9168, 58248, 11196, 2708, 0,
    8068, 2496, 444, 356, 3680, 0, 0, 0, 76, 4,
)  # fmt: skip
CRIB_COUNTS = (
    1022208, 99792, 2839800, 508908, 2868960, 703496, 1787176, 755320, 1118336, 358368,
    378240, 43880, 310956, 16548, 88132, 9072, 57288, 11196, 2264, 0,
    7828, 2472, 444, 356, 3680, 0, 0, 0, 76, 4,
)  # fmt: skip
# the five-card variant's crib: the same 12,994,800 combinations as CRIB_COUNTS, but a flush (all
# five cards) is worth 4, not 5; counted by the brute-force scorer (tests/engine/brute.py) over
# every combination, once, apart from the engine
FIVE_CARD_CRIB_COUNTS = (
    1022208, 99792, 2839800, 508908, 2871776, 702264, 1789248, 753284, 1122428, 356184,
    376496, 44576, 309808, 15912, 87932, 8592, 57276, 11208, 2248, 0,
    7828, 2472, 444, 356, 3680, 0, 0, 0, 76, 4,
)  # fmt: skip
# the five-card variant: all 1,082,900 (three cards, starter) combinations
FIVE_CARD_COUNTS = (
    260220, 18180, 403032, 63288, 144716, 69300, 72928, 16832, 18668, 5964,
    4044, 824, 4372, 164, 268, 96, 0, 0, 0, 0,
    4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
)  # fmt: skip


def test_the_published_facts_about_hands_hold() -> None:
    hands = show_distribution()
    assert hands.combinations == 12_994_800
    assert hands.counts[0] == 1_009_008
    assert hands.counts[28] == 76
    assert hands.counts[29] == 4
    assert [score for score in (19, 25, 26, 27) if hands.counts[score]] == []
    assert hands.mean == pytest.approx(4.769152, abs=5e-7)
    assert round(hands.mean, 4) == 4.7692


@pytest.mark.parametrize(
    ("crib", "hand_size", "rules", "combinations", "counts"),
    [
        pytest.param(False, 4, None, 12_994_800, HAND_COUNTS, id="hand"),
        pytest.param(True, 4, None, 12_994_800, CRIB_COUNTS, id="crib"),
        pytest.param(True, 4, Rules.six_card(), 12_994_800, CRIB_COUNTS, id="six-card-crib"),
        pytest.param(False, 3, None, 1_082_900, FIVE_CARD_COUNTS, id="five-card"),
        pytest.param(
            True, 4, Rules.five_card(), 12_994_800, FIVE_CARD_CRIB_COUNTS, id="five-card-crib"
        ),
    ],
)
def test_the_full_distributions_are_pinned(
    crib: bool,
    hand_size: int,
    rules: Rules | None,
    combinations: int,
    counts: tuple[int, ...],
) -> None:
    distribution = show_distribution(crib=crib, hand_size=hand_size, rules=rules)
    assert distribution == ScoreDistribution(combinations, counts)


def test_the_five_card_crib_mean_is_pinned() -> None:
    # 61,502,280 points over 12,994,800 cribs; the six-card crib's 61,528,020 are 25,740 more
    five_card = show_distribution(crib=True, rules=Rules.five_card())
    assert five_card.mean == pytest.approx(61_502_280 / 12_994_800, abs=1e-12)
    assert round(five_card.mean, 6) == 4.732838
    assert round(show_distribution(crib=True).mean, 6) == 4.734819


def test_a_five_card_crib_differs_from_a_six_card_crib_only_by_its_flushes() -> None:
    # a five-card crib flush is worth 4, not 5: one point less on every five-card flush, that is
    # 4 suits, C(13, 5) = 1,287 five-card sets each, any one of the five as the starter
    pairs = enumerate(zip(CRIB_COUNTS, FIVE_CARD_CRIB_COUNTS, strict=True))
    lost = sum(score * (six - five) for score, (six, five) in pairs)
    assert lost == 1 * (4 * 1287 * 5)
    assert sum(FIVE_CARD_CRIB_COUNTS) == sum(CRIB_COUNTS)
    assert show_distribution(crib=True, rules=Rules.five_card()).mean < (
        show_distribution(crib=True).mean
    )


def test_a_crib_differs_from_a_hand_only_by_the_four_card_flushes() -> None:
    # a crib loses 4 points on exactly the four-card flushes with a starter of another suit:
    # 4 suits, C(13, 4) = 715 flushes each, 39 starters each
    pairs = enumerate(zip(HAND_COUNTS, CRIB_COUNTS, strict=True))
    lost = sum(score * (hand - crib) for score, (hand, crib) in pairs)
    assert lost == 4 * (4 * 715 * 39)
    assert show_distribution(crib=True).mean < show_distribution().mean


def test_a_five_card_crib_still_has_four_cards() -> None:
    with pytest.raises(InvalidHandError, match=r"a crib always has 4 cards, got hand_size=3"):
        show_distribution(crib=True, hand_size=3, rules=Rules.five_card())


@pytest.mark.parametrize("hand_size", [2, 5, 6])
def test_only_three_and_four_card_hands_have_a_distribution(hand_size: int) -> None:
    with pytest.raises(InvalidHandError, match=rf"hand_size must be 3 or 4, got {hand_size}"):
        show_distribution(hand_size=hand_size)


def test_as_dict_lists_all_thirty_scores_zeros_included() -> None:
    data = show_distribution().as_dict()
    assert data["combinations"] == 12_994_800
    assert data["counts"] == {str(score): n for score, n in enumerate(HAND_COUNTS)}
    assert data["mean"] == pytest.approx(4.769152276)


def test_a_distribution_must_list_every_score_from_0_to_29() -> None:
    with pytest.raises(ValueError, match=r"lists scores 0..29, got 2 counts"):
        ScoreDistribution(3, (1, 2))


def test_a_distribution_must_add_up_to_its_combinations() -> None:
    with pytest.raises(ValueError, match=r"counts add up to 1, not the 2 combinations"):
        ScoreDistribution(2, (1,) + (0,) * 29)


def test_the_five_card_count_matches_scoring_every_three_card_hand() -> None:
    counts = [0] * 30
    for hand in itertools.combinations(DECK, 3):
        for starter in DECK:
            if starter not in hand:
                counts[score_total(hand, starter)] += 1
    assert tuple(counts) == FIVE_CARD_COUNTS


@pytest.mark.slow
@pytest.mark.timeout(600)  # a hang guard: 24-58 s each with -n 2 beside other work
@pytest.mark.parametrize(
    ("crib", "rules", "expected"),
    [
        pytest.param(False, Rules.six_card(), HAND_COUNTS, id="hand"),
        pytest.param(True, Rules.six_card(), CRIB_COUNTS, id="crib"),
        pytest.param(True, Rules.five_card(), FIVE_CARD_CRIB_COUNTS, id="five-card-crib"),
    ],
)
def test_scoring_all_12994800_deals_one_by_one_gives_the_same_distribution(
    crib: bool, rules: Rules, expected: tuple[int, ...]
) -> None:
    # the clever count never scores a hand; here every hand is scored, ~20 s each
    counts = [0] * 30
    for hand in itertools.combinations(DECK, 4):
        for starter in DECK:
            if starter not in hand:
                counts[score_total(hand, starter, crib=crib, rules=rules)] += 1
    assert tuple(counts) == expected


@pytest.mark.slow
@pytest.mark.timeout(600)  # a hang guard: 34 s with -n 2 beside other work
def test_the_brute_force_scorer_agrees_on_all_five_card_deals() -> None:
    deck = [brute_card(str(card)) for card in DECK]
    counts = [0] * 30
    for hand in itertools.combinations(deck, 3):
        for starter in deck:
            if starter not in hand:
                counts[brute_score(hand, starter)] += 1
    assert tuple(counts) == FIVE_CARD_COUNTS


@pytest.mark.slow
@pytest.mark.timeout(300)  # a hang guard: 17 s with -n 2 beside other work
def test_the_brute_force_scorer_agrees_with_score_total_on_200000_random_deals() -> None:
    rng = random.Random(20240229)
    disagreements: Counter[str] = Counter()
    six_card, five_card_rules = Rules.six_card(), Rules.five_card()
    for i in range(200_000):
        *hand, starter = rng.sample(DECK, 5)
        crib = i % 2 == 1
        five_card = i % 4 == 3  # every other crib is a five-card crib (its flush is 4)
        rules = five_card_rules if five_card else six_card
        brute_hand = [brute_card(str(c)) for c in hand]
        expected = brute_score(brute_hand, brute_card(str(starter)), crib, five_card)
        if score_total(hand, starter, crib=crib, rules=rules) != expected:
            disagreements[f"{' '.join(map(str, hand))} {starter} crib={crib} {rules.variant}"] += 1
    assert not disagreements
