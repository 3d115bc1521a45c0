"""The show: itemised scores, totals, calls, and the brute-force cross-check."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegboard.engine import (
    DECK,
    Breakdown,
    Card,
    InvalidHandError,
    Rank,
    Rules,
    ScoreItem,
    ScoreKind,
    Suit,
    Variant,
    describe_item,
    format_cards,
    parse_cards,
    score_crib,
    score_hand,
    score_heels,
    score_total,
    show_calls,
)
from tests.engine.brute import BruteCard, BruteItem, brute_card, brute_items, brute_score
from tests.engine.strategies import distinct_cards


def show(hand: str, starter: str, *, crib: bool = False) -> Breakdown:
    return score_hand(parse_cards(hand), Card.parse(starter), crib=crib)


def brute(cards: tuple[Card, ...]) -> list[BruteCard]:
    return [brute_card(str(card)) for card in cards]


def ranks_of(item: ScoreItem) -> list[str]:
    return sorted(card.rank.label for card in item.cards)


# --- the German document's table of common hands ("BLATTWERTE") ------------------------------
# The last card is the starter. Suits are chosen so that no hand is a flush by accident; "B!" in
# the table (the jack of the starter's suit) is the jack that shares the starter's suit here.
BLATTWERTE = [
    ("JH QC QD QS", "KH", 16, "B!-D-D-D-K"),
    ("6C 7D 8H 9S", "9C", 16, "6-7-8-9-9"),
    ("2C 6D 7H 7S", "8C", 16, "2-6-7-7-8"),
    ("AC AD 2H 2S", "3C", 16, "A-A-2-2-3"),
    ("2C 3D 4H 4S", "4C", 17, "2-3-4-4-4"),
    ("5C 5D JH QS", "KC", 17, "5-5-B-D-K"),
    ("3C 3D 3H 6S", "6C", 18, "3-3-3-6-6"),
    ("5C 5D JH QS", "KH", 18, "5-5-B!-D-K"),
    ("3C 3D 4H 5S", "5C", 20, "3-3-4-5-5"),
    ("4C 4D 4H 7S", "7C", 20, "4-4-4-7-7"),
    ("7C 7D 7H AS", "AC", 20, "7-7-7-A-A"),
    ("7C 8D 8H 9S", "9C", 20, "7-8-8-9-9"),
    ("7C 7D 7H 8S", "8C", 20, "7-7-7-8-8"),
    ("6C 6D 9H 9S", "9C", 20, "6-6-9-9-9"),
    ("6C 6D 7H 7S", "8C", 20, "6-6-7-7-8"),
    ("3C 3D 4H 4S", "5C", 20, "3-3-4-4-5"),
    ("3C 3D 6H 6S", "6C", 20, "3-3-6-6-6"),
    ("3C 4D 4H 4S", "4C", 20, "3-4-4-4-4"),
    ("7C 7D 7H 8S", "9C", 21, "7-7-7-8-9"),
    ("3C 3D 3H 4S", "5C", 21, "3-3-3-4-5"),
    ("4C 5D 6H 6S", "6C", 21, "4-5-6-6-6"),
    ("5C JD JH JS", "5S", 21, "5-5-B-B-B!"),
    ("5C 5D 5H 10S", "10C", 22, "5-5-5-10-10"),
    ("4C 5D 5H 5S", "6C", 23, "4-5-5-5-6"),
    ("5C 5D JH JS", "5S", 23, "5-5-5-B-B!"),
    ("7C 7D 7H 7S", "AC", 24, "7-7-7-7-A"),
    ("4C 4D 4H 4S", "7C", 24, "4-4-4-4-7"),
    ("4C 5D 5H 6S", "6C", 24, "4-5-5-6-6"),
    ("6C 7D 7H 8S", "8C", 24, "6-7-7-8-8"),
    ("7C 7D 8H 8S", "9C", 24, "7-7-8-8-9"),
    ("5C 5D 5H 5S", "10C", 28, "5-5-5-5-10"),
    ("5C 5D 5H JS", "5S", 29, "5-5-5-5-B!"),
]


@pytest.mark.parametrize(
    ("hand", "starter", "total"),
    [pytest.param(h, s, t, id=f"{h} {s} ({table})") for h, s, t, table in BLATTWERTE],
)
def test_every_hand_in_the_german_table_counts_as_printed(
    hand: str, starter: str, total: int
) -> None:
    assert show(hand, starter).total == total
    assert score_total(parse_cards(hand), Card.parse(starter)) == total


def test_the_german_table_holds_no_accidental_flush_and_nobs_only_where_marked() -> None:
    for hand, starter, _, table in BLATTWERTE:
        breakdown = show(hand, starter)
        assert not breakdown.of_kind(ScoreKind.FLUSH), hand
        assert bool(breakdown.of_kind(ScoreKind.NOBS)) == ("B!" in table), hand


def test_german_worked_example_3_3_6_6_9_is_five_fifteens_and_two_pairs() -> None:
    # "3-3-6-6-9 = 14 (6+9, 6+9, 3+3+9, 3+3, 6+6, 3+6+6, 3+6+6)"
    breakdown = show("3C 3D 6H 6S", "9C")
    fifteens = sorted(ranks_of(item) for item in breakdown.of_kind(ScoreKind.FIFTEEN))
    assert fifteens == sorted(
        [["6", "9"], ["6", "9"], ["3", "3", "9"], ["3", "6", "6"], ["3", "6", "6"]]
    )
    assert sorted(ranks_of(item) for item in breakdown.of_kind(ScoreKind.PAIR)) == [
        ["3", "3"],
        ["6", "6"],
    ]
    assert breakdown.total == 14


def test_german_worked_example_lists_every_combination_of_9_10_j_5_with_9() -> None:
    # Herz 9, Herz 10, Kreuz Bube, Karo 5; starter Karo 9: 12 points, item by item
    breakdown = show("9H 10H JC 5D", "9D")
    described = [describe_item(item) for item in breakdown.items]
    assert described == [
        "fifteen: 5D 10H (2)",
        "fifteen: 5D JC (2)",
        "pair: 9D 9H (2)",
        "run: 9D 10H JC (3)",
        "run: 9H 10H JC (3)",
    ]
    assert breakdown.total == 12


@pytest.mark.parametrize(
    ("hand", "starter"),
    [
        pytest.param("5D 5H JS KC", "8C", id="5D 5H JS KC 8C (German)"),
        pytest.param("KC JD 5H 5S", "2S", id="KC JD 5H 5S 2S (English)"),
    ],
)
def test_two_fives_with_a_jack_and_a_king_are_four_fifteens_and_a_pair(
    hand: str, starter: str
) -> None:
    breakdown = show(hand, starter)
    assert breakdown.total == 10
    assert show_calls(breakdown) == [
        "fifteen 2",
        "fifteen 4",
        "fifteen 6",
        "fifteen 8",
        "and a pair is 10",
    ]


def test_7_8_8_k_with_a_9_is_twelve_as_both_documents_count_it() -> None:
    breakdown = show("7C 8D 8H KS", "9C")
    assert breakdown.total == 12
    assert show_calls(breakdown) == [
        "fifteen 2",
        "fifteen 4",
        "and a pair is 6",
        "and a double run of 3 is 12",
    ]
    # each 8 is in a fifteen, the pair and a run
    for eight in parse_cards("8D 8H"):
        kinds = {item.kind for item in breakdown.items if eight in item.cards}
        assert kinds == {ScoreKind.FIFTEEN, ScoreKind.PAIR, ScoreKind.RUN}


def test_6_7_7_8_is_a_double_run_two_fifteens_and_a_pair() -> None:
    breakdown = show("6C 7D 7H 8S", "KC")  # the king adds nothing
    assert [ranks_of(item) for item in breakdown.of_kind(ScoreKind.RUN)] == [
        ["6", "7", "8"],
        ["6", "7", "8"],
    ]
    assert len(breakdown.of_kind(ScoreKind.FIFTEEN)) == 2
    assert len(breakdown.of_kind(ScoreKind.PAIR)) == 1
    assert breakdown.total == 12


def test_3_4_4_5_5_is_four_runs_of_three() -> None:
    breakdown = show("3C 4D 4H 5S", "5C")
    runs = breakdown.of_kind(ScoreKind.RUN)
    assert len(runs) == 4
    assert len(set(runs)) == 4  # four distinct card combinations
    assert all(item.points == 3 for item in runs)
    assert breakdown.total == 16
    assert show_calls(breakdown)[-1] == "and a double double run of 3 is 16"


def test_a_run_of_four_never_counts_its_runs_of_three() -> None:
    breakdown = show("9C 10D JH QS", "2C")
    assert [item.points for item in breakdown.of_kind(ScoreKind.RUN)] == [4]
    assert breakdown.total == 4


def test_queen_king_ace_is_not_a_run() -> None:
    assert not show("QC KD AH 7S", "9C").of_kind(ScoreKind.RUN)


def test_ten_and_jack_are_not_a_pair() -> None:
    assert not show("10C JD 2H 4S", "8C").of_kind(ScoreKind.PAIR)


def test_the_29_hand_is_counted_and_called_in_full() -> None:
    breakdown = show("5H 5D 5S JC", "5C")
    assert breakdown.total == 29
    assert [item.kind for item in breakdown.items] == (
        [ScoreKind.FIFTEEN] * 8 + [ScoreKind.PAIR] * 6 + [ScoreKind.NOBS]
    )
    assert show_calls(breakdown) == [
        *(f"fifteen {n}" for n in range(2, 17, 2)),
        "and double pair royal is 28",
        "and nobs is 29",
    ]
    # the starter takes part in the items it makes
    starter = Card.parse("5C")
    assert sum(starter in item.cards for item in breakdown.of_kind(ScoreKind.PAIR)) == 3


def test_pair_royal_and_a_second_pair_are_called_apart() -> None:
    breakdown = show("3C 3D 3H 6S", "6C")
    assert show_calls(breakdown)[-2:] == ["and pair royal is 16", "and another pair is 18"]


def test_a_triple_run_is_called_once_after_the_pair_royal() -> None:
    breakdown = show("7C 7D 7H 8S", "9C")
    assert show_calls(breakdown)[-2:] == ["and pair royal is 12", "and a triple run of 3 is 21"]


def test_an_empty_hand_has_no_calls() -> None:
    breakdown = show("2C 4D 6H 8S", "KC")
    assert breakdown.total == 0
    assert show_calls(breakdown) == []


# --- nobs -------------------------------------------------------------------------------------


def test_nobs_is_the_jack_of_the_starters_suit_in_hand() -> None:
    breakdown = show("JH 2C 4D 6S", "KH")
    assert breakdown.of_kind(ScoreKind.NOBS) == (ScoreItem(ScoreKind.NOBS, (Card.parse("JH"),), 1),)
    assert show_calls(breakdown) == ["nobs is 1"]


@pytest.mark.parametrize(
    ("hand", "starter"),
    [
        pytest.param("2C 4D 6S 9H", "JH", id="2C 4D 6S 9H JH"),
        pytest.param("JC JD JS 2H", "JH", id="JC JD JS 2H JH"),
    ],
)
def test_nobs_never_comes_from_the_starter(hand: str, starter: str) -> None:
    assert not show(hand, starter).of_kind(ScoreKind.NOBS)
    assert not show(hand, starter, crib=True).of_kind(ScoreKind.NOBS)


def test_a_jack_of_another_suit_is_not_nobs() -> None:
    assert not show("JC 2C 4D 6S", "9H").of_kind(ScoreKind.NOBS)


def test_nobs_counts_in_the_crib_too() -> None:
    assert score_crib(parse_cards("JH 2C 4D 6S"), Card.parse("KH")).total == 1


# --- flushes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "flush"),
    [
        pytest.param("2H 4H 6H 8H", "KC", False, 4, id="2H 4H 6H 8H KC hand"),
        pytest.param("2H 4H 6H 8H", "KH", False, 5, id="2H 4H 6H 8H KH hand"),
        pytest.param("2H 4H 6H 8H", "KC", True, 0, id="2H 4H 6H 8H KC crib"),
        pytest.param("2H 4H 6H 8H", "KH", True, 5, id="2H 4H 6H 8H KH crib"),
        pytest.param("2H 4H 6H 8C", "KH", False, 0, id="2H 4H 6H 8C KH hand"),
        pytest.param("2H 4H 6H 8C", "KH", True, 0, id="2H 4H 6H 8C KH crib"),
        pytest.param("2H 6H 8H", "KC", False, 3, id="2H 6H 8H KC five-card"),
        pytest.param("2H 6H 8H", "KH", False, 4, id="2H 6H 8H KH five-card"),
        pytest.param("2H 6H 8C", "KH", False, 0, id="2H 6H 8C KH five-card"),
    ],
)
def test_flush_rules(hand: str, starter: str, crib: bool, flush: int) -> None:
    breakdown = show(hand, starter, crib=crib)
    assert sum(item.points for item in breakdown.of_kind(ScoreKind.FLUSH)) == flush
    assert breakdown.total == flush  # none of these hands scores anything else


@pytest.mark.parametrize(
    ("crib", "starter", "rules", "flush"),
    [
        pytest.param("2H 4H 6H 8H", "KH", Rules.five_card(), 4, id="2H 4H 6H 8H KH five-card"),
        pytest.param("2H 4H 6H 8H", "KC", Rules.five_card(), 0, id="2H 4H 6H 8H KC five-card"),
        pytest.param("2H 4H 6H 8C", "KH", Rules.five_card(), 0, id="2H 4H 6H 8C KH five-card"),
        pytest.param("2H 4H 6H 8H", "KH", Rules.six_card(), 5, id="2H 4H 6H 8H KH six-card"),
        pytest.param("2H 4H 6H 8H", "KH", None, 5, id="2H 4H 6H 8H KH default"),
        pytest.param(
            "2H 4H 6H 8H", "KH", Rules.two_in_the_crib(), 5, id="2H 4H 6H 8H KH two-in-the-crib"
        ),
    ],
)
def test_a_five_card_crib_flush_needs_all_five_cards_and_is_worth_four(
    crib: str, starter: str, rules: Rules | None, flush: int
) -> None:
    # RULES.md: "In the five-card variant likewise only all five, but worth 4" (the German
    # document: "ein Flush in der Crib 4, allerdings nur, wenn alle Karten die gleiche Farbe haben")
    cards, start = parse_cards(crib), Card.parse(starter)
    breakdown = score_crib(cards, start, rules=rules)
    assert sum(item.points for item in breakdown.of_kind(ScoreKind.FLUSH)) == flush
    assert breakdown.total == flush  # none of these cribs scores anything else
    assert score_hand(cards, start, crib=True, rules=rules) == breakdown
    assert score_total(cards, start, crib=True, rules=rules) == flush


def test_a_five_card_crib_flush_lists_all_five_cards_and_is_called_for_four() -> None:
    breakdown = score_crib(parse_cards("2H 4H 6H 8H"), Card.parse("KH"), rules=Rules.five_card())
    (flush,) = breakdown.of_kind(ScoreKind.FLUSH)
    assert format_cards(flush.cards) == "2H 4H 6H 8H KH"
    assert flush.points == 4
    assert show_calls(breakdown) == ["a flush of 4 is 4"]


def test_a_five_card_hand_flush_is_unchanged_by_the_rules() -> None:
    five_card = Rules.five_card()
    assert score_hand(parse_cards("2H 6H 8H"), Card.parse("KC"), rules=five_card).total == 3
    assert score_hand(parse_cards("2H 6H 8H"), Card.parse("KH"), rules=five_card).total == 4
    assert score_total(parse_cards("2H 6H 8H"), Card.parse("KH"), rules=five_card) == 4


def test_a_flush_lists_its_cards_and_is_called_by_its_size() -> None:
    breakdown = show("2H 4H 6H 8H", "KH")
    (flush,) = breakdown.of_kind(ScoreKind.FLUSH)
    assert format_cards(flush.cards) == "2H 4H 6H 8H KH"
    assert show_calls(breakdown) == ["a flush of 5 is 5"]
    (four,) = show("2H 4H 6H 8H", "KC").of_kind(ScoreKind.FLUSH)
    assert format_cards(four.cards) == "2H 4H 6H 8H"


def test_five_card_variant_hands_score_three_cards_with_the_starter() -> None:
    # three fives and the jack of the starter's suit: four fifteens, pair royal, nobs
    assert show("5H 5D JC", "5C").total == 8 + 6 + 1
    # 4-5-6 twice: two fifteens, a pair and a double run
    assert show_calls(show("4H 5D 6S", "6C")) == [
        "fifteen 2",
        "fifteen 4",
        "and a pair is 6",
        "and a double run of 3 is 12",
    ]


# --- heels ------------------------------------------------------------------------------------


@pytest.mark.parametrize("starter", [str(card) for card in DECK if card.rank is Rank.JACK])
def test_a_jack_turned_up_is_two_for_his_heels(starter: str) -> None:
    breakdown = score_heels(Card.parse(starter))
    assert breakdown.items == (ScoreItem(ScoreKind.HEELS, (Card.parse(starter),), 2),)
    assert show_calls(breakdown) == ["two for his heels"]


@pytest.mark.parametrize("starter", ["QH", "10S", "AC", "KD"])
def test_any_other_starter_gives_no_heels(starter: str) -> None:
    assert score_heels(Card.parse(starter)) == Breakdown()


# --- bad input --------------------------------------------------------------------------------


def test_a_hand_of_two_cards_is_rejected() -> None:
    with pytest.raises(
        InvalidHandError,
        match=r"wrong number of cards for a hand: '5H 5D' has 2, expected 3 or 4",
    ):
        score_hand(parse_cards("5H 5D"), Card.parse("5C"))


def test_a_hand_of_five_cards_is_rejected_by_the_fast_total_too() -> None:
    with pytest.raises(
        InvalidHandError,
        match=r"wrong number of cards for a hand: '5H 5D 5S JC 2C' has 5, expected 3 or 4",
    ):
        score_total(parse_cards("5H 5D 5S JC 2C"), Card.parse("5C"))


@pytest.mark.parametrize("scorer", [score_crib, lambda c, s: score_total(c, s, crib=True)])
def test_a_crib_needs_exactly_four_cards(scorer: Callable[..., object]) -> None:
    with pytest.raises(
        InvalidHandError, match=r"wrong number of cards for a crib: '2H 6H 8H' has 3, expected 4"
    ):
        scorer(parse_cards("2H 6H 8H"), Card.parse("KH"))


@pytest.mark.parametrize("scorer", [score_hand, score_total])
def test_a_card_twice_in_the_hand_is_rejected(scorer: Callable[..., object]) -> None:
    hand = [Card.parse(text) for text in ("5H", "5D", "5H", "JC")]
    with pytest.raises(InvalidHandError, match=r"duplicate card 5H in hand '5H 5D 5H JC'"):
        scorer(hand, Card.parse("5C"))


@pytest.mark.parametrize("scorer", [score_hand, score_total])
def test_the_starter_may_not_also_be_in_the_hand(scorer: Callable[..., object]) -> None:
    with pytest.raises(
        InvalidHandError,
        match=r"duplicate card 5H: the starter '5H' is also in the hand '5H 5D 5S JC'",
    ):
        scorer(parse_cards("5H 5D 5S JC"), Card.parse("5H"))


def test_the_starter_may_not_also_be_in_the_crib() -> None:
    with pytest.raises(InvalidHandError, match=r"starter '2H' is also in the crib"):
        score_crib(parse_cards("2H 4H 6H 8H"), Card.parse("2H"))


def test_describe_item_names_kind_cards_and_points() -> None:
    item = ScoreItem(ScoreKind.RUN, parse_cards("3C 4D 5H"), 3)
    assert describe_item(item) == "run: 3C 4D 5H (3)"


# --- properties -------------------------------------------------------------------------------

hands = st.sampled_from([3, 4]).flatmap(lambda n: distinct_cards(n + 1))


@given(hands, st.booleans(), st.randoms(use_true_random=False))
def test_the_breakdown_does_not_depend_on_card_order(
    cards: tuple[Card, ...], crib: bool, rng: random.Random
) -> None:
    *hand, starter = cards
    crib = crib and len(hand) == 4
    shuffled = hand[:]
    rng.shuffle(shuffled)
    assert score_hand(shuffled, starter, crib=crib) == score_hand(hand, starter, crib=crib)


@given(hands, st.booleans(), st.permutations(list(Suit)))
def test_the_score_does_not_change_when_suits_are_swapped_consistently(
    cards: tuple[Card, ...], crib: bool, suits: list[Suit]
) -> None:
    *hand, starter = cards
    crib = crib and len(hand) == 4
    relabel = dict(zip(Suit, suits, strict=True))
    moved = [Card(card.rank, relabel[card.suit]) for card in hand]
    moved_starter = Card(starter.rank, relabel[starter.suit])
    before = score_hand(hand, starter, crib=crib)
    after = score_hand(moved, moved_starter, crib=crib)
    assert after.total == before.total
    assert Counter((i.kind, i.points) for i in after.items) == Counter(
        (i.kind, i.points) for i in before.items
    )


# the crib flush is the one thing the rules change in the show: 5, but 4 in five-card cribbage
variants = st.sampled_from([Rules.six_card(), Rules.five_card()])


@given(hands, st.booleans(), variants)
def test_every_way_of_scoring_agrees_with_the_brute_force_scorer(
    cards: tuple[Card, ...], crib: bool, rules: Rules
) -> None:
    *hand, starter = cards
    crib = crib and len(hand) == 4
    breakdown = score_hand(hand, starter, crib=crib, rules=rules)
    assert breakdown.total == sum(item.points for item in breakdown.items)
    five_card = rules.variant is Variant.FIVE_CARD
    expected = brute_score(brute(tuple(hand)), brute_card(str(starter)), crib, five_card)
    assert breakdown.total == expected
    assert score_total(hand, starter, crib=crib, rules=rules) == expected
    # the calls end on the total
    calls = show_calls(breakdown)
    assert (calls[-1].split()[-1] if calls else "0") == str(expected)


@given(hands, st.booleans(), variants)
def test_every_item_is_made_of_the_shown_cards_and_scores_what_it_says(
    cards: tuple[Card, ...], crib: bool, rules: Rules
) -> None:
    *hand, starter = cards
    crib = crib and len(hand) == 4
    for item in score_hand(hand, starter, crib=crib, rules=rules).items:
        assert set(item.cards) <= set(cards)
        match item.kind:
            case ScoreKind.FIFTEEN:
                assert sum(card.pips for card in item.cards) == 15 and item.points == 2
            case ScoreKind.PAIR:
                assert item.cards[0].rank is item.cards[1].rank and item.points == 2
            case ScoreKind.RUN:
                ranks = sorted(card.rank for card in item.cards)
                assert ranks == list(range(ranks[0], ranks[0] + len(ranks)))
                assert item.points == len(ranks) >= 3
            case ScoreKind.FLUSH:
                assert len({card.suit for card in item.cards}) == 1
                if crib:  # all five cards, worth 5 (five-card cribbage: 4)
                    assert len(item.cards) == 5
                    assert item.points == (4 if rules.variant is Variant.FIVE_CARD else 5)
                else:  # one point per card
                    assert item.points == len(item.cards)
            case ScoreKind.NOBS:
                (jack,) = item.cards
                assert jack.rank is Rank.JACK and jack.suit is starter.suit and jack != starter
            case _:
                pytest.fail(f"unexpected item {item!r} in a show")


# --- every item against the brute-force itemiser ---------------------------------------------


def items_of(breakdown: Breakdown) -> list[BruteItem]:
    """The breakdown in the brute-force itemiser's terms, in its order."""
    return [
        (item.kind.value, tuple((c.rank.value, c.suit.value) for c in item.cards), item.points)
        for item in breakdown.items
    ]


def assert_items_as_brute_force(hand: list[BruteCard], starter: BruteCard) -> None:
    """score_hand lists exactly the brute-force items of the show, as a hand and as a crib
    (a crib of four cards: under six-card and five-card rules, whose crib flushes differ)."""
    cards = [Card(Rank(rank), Suit(suit)) for rank, suit in hand]
    start = Card(Rank(starter[0]), Suit(starter[1]))
    shown = f"{format_cards(cards)} starter {start}"
    assert items_of(score_hand(cards, start)) == brute_items(hand, starter), shown
    if len(hand) == 4:
        for rules, five_card in ((Rules.six_card(), False), (Rules.five_card(), True)):
            expected = brute_items(hand, starter, crib=True, five_card=five_card)
            assert items_of(score_hand(cards, start, crib=True, rules=rules)) == expected, shown


def suited(ranks: tuple[int, ...], shift: int) -> list[BruteCard]:
    """Cards of the sorted *ranks*: the k-th card of a rank gets suit k (C, D, H, S), moved on
    by *shift* for each rank before it (shift 0: distinct ranks are all clubs, a flush)."""
    cards: list[BruteCard] = []
    group = -1
    for i, rank in enumerate(ranks):
        if i == 0 or rank != ranks[i - 1]:
            group, k = group + 1, 0
        else:
            k += 1
        cards.append((rank, "CDHS"[(k + shift * group) % 4]))
    return cards


def shows_of(ranks: tuple[int, ...], seed: int) -> Iterator[tuple[list[BruteCard], BruteCard]]:
    """Two shows of the sorted *ranks*: all of a suit where the ranks allow it, and suits mixed
    rank by rank; each time a different card (by *seed*) is the starter."""
    for shift, turn in ((0, seed), (1, seed + 2)):
        cards = suited(ranks, shift)
        starter = cards.pop(turn % len(cards))
        yield cards, starter


def five_rank_multisets(lowest: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of five ranks a deal can hold (no rank five times) starting at *lowest*."""
    for ranks in itertools.combinations_with_replacement(range(lowest, 14), 5):
        if ranks[0] == lowest and ranks[0] != ranks[4]:
            yield ranks


@pytest.mark.slow
@pytest.mark.parametrize("lowest", range(1, 14))
def test_every_five_rank_multiset_itemises_as_the_brute_force_scorer(lowest: int) -> None:
    # 6,175 multisets in all (13 parts, one per lowest rank), each in two suit patterns with a
    # different starter, as a hand and as a crib under both crib flush rules
    for seed, ranks in enumerate(five_rank_multisets(lowest)):
        for hand, starter in shows_of(ranks, seed):
            assert_items_as_brute_force(hand, starter)


def test_every_four_rank_multiset_itemises_as_the_brute_force_scorer() -> None:
    # five-card cribbage: three cards in hand with the starter, all 1,820 multisets of ranks
    for seed, ranks in enumerate(itertools.combinations_with_replacement(range(1, 14), 4)):
        for hand, starter in shows_of(ranks, seed):
            assert_items_as_brute_force(hand, starter)


@pytest.mark.slow
@pytest.mark.parametrize(
    "ranks",
    [
        pytest.param((1, 4, 7, 11, 13), id="A-4-7-J-K"),  # distinct ranks: every flush, nobs
        pytest.param((5, 10, 11, 11, 12), id="5-10-J-J-Q"),  # two jacks, a double run
        pytest.param((3, 3, 3, 4, 5), id="3-3-3-4-5"),  # a triple run: three cards of a rank
    ],
)
def test_every_suit_pattern_and_starter_itemises_as_the_brute_force_scorer(
    ranks: tuple[int, ...],
) -> None:
    # flush and nobs depend on the suits and on which card is the starter: all of them
    for suits in itertools.product("CDHS", repeat=5):
        cards = list(zip(ranks, suits, strict=True))
        if len(set(cards)) < 5:
            continue
        for turn in range(5):
            hand = cards[:turn] + cards[turn + 1 :]
            assert_items_as_brute_force(hand, cards[turn])
            assert_items_as_brute_force(hand[1:], cards[turn])  # five-card cribbage's hand


@given(hands, st.booleans(), variants)
def test_every_item_and_its_place_agree_with_the_brute_force_itemiser(
    cards: tuple[Card, ...], crib: bool, rules: Rules
) -> None:
    *hand, starter = cards
    crib = crib and len(hand) == 4
    five_card = rules.variant is Variant.FIVE_CARD
    expected = brute_items(brute(tuple(hand)), brute_card(str(starter)), crib, five_card)
    assert items_of(score_hand(hand, starter, crib=crib, rules=rules)) == expected


# --- the calls of any breakdown against the plain grouping --------------------------------------

_PAIR_WORDS = {1: "a pair", 3: "pair royal", 6: "double pair royal"}
_RUN_WORDS = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double double run"}


def calls_by_groupby(breakdown: Breakdown) -> list[str]:
    """show_calls as its docstring reads, straightforwardly: ``itertools.groupby`` makes the
    groups (items of one kind in a row; pairs of one rank, runs of one set of ranks)."""

    def key(item: ScoreItem) -> tuple[ScoreKind, frozenset[Rank]]:
        if item.kind in (ScoreKind.PAIR, ScoreKind.RUN):
            return item.kind, frozenset(card.rank for card in item.cards)
        return item.kind, frozenset()

    calls: list[str] = []
    running = pairs_called = 0
    for (kind, _), group in itertools.groupby(breakdown.items, key=key):
        items = list(group)
        if kind is ScoreKind.FIFTEEN:
            for item in items:
                running += item.points
                calls.append(f"fifteen {running}")
            continue
        running += sum(item.points for item in items)
        if kind is ScoreKind.PAIR:
            words = _PAIR_WORDS.get(len(items), f"{len(items)} pairs")
            if words == "a pair" and pairs_called:
                words = "another pair"
            pairs_called += 1
            calls.append(f"{words} is {running}")
        elif kind is ScoreKind.RUN:
            words = _RUN_WORDS.get(len(items), f"{len(items)} runs")
            calls.append(f"{words} of {len(items[0].cards)} is {running}")
        elif kind is ScoreKind.FLUSH:
            calls.extend(f"a flush of {item.points} is {running}" for item in items)
        elif kind is ScoreKind.NOBS:
            calls.append(f"nobs is {running}")
        elif kind is ScoreKind.HEELS:
            calls.extend("two for his heels" for _ in items)
        else:
            calls.append(f"{kind.value} is {running}")
    return [
        f"and {call}" if i and not call.startswith(("fifteen ", "two for his heels")) else call
        for i, call in enumerate(calls)
    ]


# items of every kind, mostly of the show's, on few ranks so that pairs and runs group often
any_items = st.lists(
    st.builds(
        ScoreItem,
        st.sampled_from([*ScoreKind, *[ScoreKind.PAIR, ScoreKind.RUN, ScoreKind.FLUSH] * 3]),
        st.lists(st.sampled_from(DECK[:16]), max_size=4, unique=True).map(tuple),
        st.integers(0, 12),
    ),
    max_size=12,
)


@given(any_items)
def test_the_calls_of_any_breakdown_group_its_items_as_groupby_does(
    items: list[ScoreItem],
) -> None:
    breakdown = Breakdown(tuple(items))
    assert show_calls(breakdown) == calls_by_groupby(breakdown)


@given(hands, st.booleans())
def test_the_calls_of_every_show_group_its_items_as_groupby_does(
    cards: tuple[Card, ...], crib: bool
) -> None:
    *hand, starter = cards
    breakdown = score_hand(hand, starter, crib=crib and len(hand) == 4)
    assert show_calls(breakdown) == calls_by_groupby(breakdown)
