"""Exact show statistics, pinned and cross-checked against straightforward enumeration."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from pegboard.engine import (
    DECK,
    InvalidHandError,
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
    ("crib", "hand_size", "combinations", "counts"),
    [
        pytest.param(False, 4, 12_994_800, HAND_COUNTS, id="hand"),
        pytest.param(True, 4, 12_994_800, CRIB_COUNTS, id="crib"),
        pytest.param(False, 3, 1_082_900, FIVE_CARD_COUNTS, id="five-card"),
    ],
)
def test_the_full_distributions_are_pinned(
    crib: bool, hand_size: int, combinations: int, counts: tuple[int, ...]
) -> None:
    distribution = show_distribution(crib=crib, hand_size=hand_size)
    assert distribution == ScoreDistribution(combinations, counts)


def test_a_crib_differs_from_a_hand_only_by_the_four_card_flushes() -> None:
    # a crib loses 4 points on exactly the four-card flushes with a starter of another suit:
    # 4 suits, C(13, 4) = 715 flushes each, 39 starters each
    pairs = enumerate(zip(HAND_COUNTS, CRIB_COUNTS, strict=True))
    lost = sum(score * (hand - crib) for score, (hand, crib) in pairs)
    assert lost == 4 * (4 * 715 * 39)
    assert show_distribution(crib=True).mean < show_distribution().mean


def test_the_five_card_crib_is_the_standard_crib() -> None:
    with pytest.raises(InvalidHandError, match=r"a crib always has 4 cards, got hand_size=3"):
        show_distribution(crib=True, hand_size=3)


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
@pytest.mark.parametrize("crib", [pytest.param(False, id="hand"), pytest.param(True, id="crib")])
def test_scoring_all_12994800_deals_one_by_one_gives_the_same_distribution(crib: bool) -> None:
    # the clever count never scores a hand; here every hand is scored, ~20 s each
    counts = [0] * 30
    for hand in itertools.combinations(DECK, 4):
        for starter in DECK:
            if starter not in hand:
                counts[score_total(hand, starter, crib=crib)] += 1
    assert tuple(counts) == (CRIB_COUNTS if crib else HAND_COUNTS)


@pytest.mark.slow
def test_the_brute_force_scorer_agrees_on_all_five_card_deals() -> None:
    deck = [brute_card(str(card)) for card in DECK]
    counts = [0] * 30
    for hand in itertools.combinations(deck, 3):
        for starter in deck:
            if starter not in hand:
                counts[brute_score(hand, starter)] += 1
    assert tuple(counts) == FIVE_CARD_COUNTS


@pytest.mark.slow
def test_the_brute_force_scorer_agrees_with_score_total_on_200000_random_deals() -> None:
    rng = random.Random(20240229)
    disagreements: Counter[str] = Counter()
    for i in range(200_000):
        *hand, starter = rng.sample(DECK, 5)
        crib = i % 2 == 1
        expected = brute_score([brute_card(str(c)) for c in hand], brute_card(str(starter)), crib)
        if score_total(hand, starter, crib=crib) != expected:
            disagreements[f"{' '.join(map(str, hand))} {starter} crib={crib}"] += 1
    assert not disagreements
