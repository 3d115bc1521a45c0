"""The play (pegging): points for each card, go and last, turns, resets and variants."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.engine import (
    DECK,
    Card,
    IllegalPlayError,
    InvalidHandError,
    Rules,
    Suit,
    parse_cards,
)
from pegboard.engine.play import PlayScore, PlayState, score_play
from pegboard.engine.scoring import Breakdown, ScoreItem, ScoreKind


def card(text: str) -> Card:
    return Card.parse(text)


def hands(*texts: str) -> list[tuple[Card, ...]]:
    return [parse_cards(text) for text in texts]


def run(state: PlayState, script: str) -> tuple[PlayState, str]:
    """Apply the actions in *script* ("KS 6H go 2C") and describe what each pegged.

    The description repeats the script with ``=seat:points`` after every action that pegged,
    e.g. "KS 6H KD go 2C 2D=0:3".
    """
    words = []
    for word in script.split():
        state, scores = state.go() if word == "go" else state.play(card(word))
        words.append(word + "".join(f"={s.seat}:{s.points}" for s in scores))
    return state, " ".join(words)


def kinds(state: PlayState, script: str) -> list[list[str]]:
    """The kinds of the items each scoring action in *script* pegged, in order."""
    found: list[list[str]] = []
    for word in script.split():
        state, scores = state.go() if word == "go" else state.play(card(word))
        found.extend([item.kind.value for item in s.breakdown.items] for s in scores)
    return found


def points(series: str) -> list[int]:
    cards = parse_cards(series)
    return [score_play(cards[:n]).total for n in range(1, len(cards) + 1)]


# --- score_play: the card just laid ---------------------------------------------------------


@pytest.mark.parametrize(
    ("series", "expected"),
    [
        pytest.param("4S 2D 3C 5H 6S", [0, 0, 3, 4, 5], id="4-2-3-5-6"),
        pytest.param("4S 2D 3C 4H 3S", [0, 0, 3, 3, 0], id="4-2-3-4-3"),
        pytest.param("4S 2D 6C 5H 3S", [0, 0, 0, 0, 5], id="4-2-6-5-3"),
        pytest.param("AS 2D 3C 4H 5S 6D 7C", [0, 0, 3, 4, 7, 6, 7], id="AS-2D-3C-4H-5S-6D-7C"),
        pytest.param("3S 3D 3C", [0, 2, 6], id="3S-3D-3C-pair-royal"),
        pytest.param("2S 2D 2C 2H", [0, 2, 6, 12], id="2S-2D-2C-2H-double-pair-royal"),
        pytest.param("7S 7D 7C 7H", [0, 2, 6, 12], id="7S-7D-7C-7H-double-pair-royal-28"),
        pytest.param("5S 5D 5C", [0, 2, 8], id="5S-5D-5C-pair-royal-and-fifteen"),
        pytest.param("4H 6D 5C", [0, 0, 5], id="4H-6D-5C-fifteen-and-run"),
        pytest.param("KS QD AH", [0, 0, 0], id="KS-QD-AH-ace-is-low"),
        pytest.param("10S JD", [0, 0], id="10S-JD-not-a-pair"),
        pytest.param("KS QD JH", [0, 0, 3], id="KS-QD-JH"),
        pytest.param("KS 6H KD 2C 2D", [0, 0, 0, 0, 2], id="KS-6H-KD-2C-2D"),
        pytest.param("KS QD 5H 6C", [0, 0, 0, 2], id="KS-QD-5H-6C-thirty-one"),
        pytest.param("3S 4D 3C 4H", [0, 0, 0, 0], id="3S-4D-3C-4H-pairs-need-adjacent-cards"),
        pytest.param("6S 7D 7C 8H", [0, 0, 2, 0], id="6S-7D-7C-8H-no-run-with-a-repeat"),
    ],
)
def test_points_for_each_card_laid(series: str, expected: list[int]) -> None:
    assert points(series) == expected


def test_a_run_of_seven_scores_seven_on_the_seventh_card() -> None:
    breakdown = score_play(parse_cards("AS 2D 3C 4H 5S 6D 7C"))
    assert [(item.kind, item.points) for item in breakdown.items] == [(ScoreKind.RUN, 7)]
    assert breakdown.items[0].cards == parse_cards("AS 2D 3C 4H 5S 6D 7C")


def test_a_run_out_of_order_scores_its_length() -> None:
    breakdown = score_play(parse_cards("4S 2D 5C 3H"))
    assert [(item.kind, item.points) for item in breakdown.items] == [(ScoreKind.RUN, 4)]


def test_a_five_on_four_and_six_is_fifteen_two_and_a_run_of_three() -> None:
    breakdown = score_play(parse_cards("4H 6D 5C"))
    assert [(item.kind, item.points) for item in breakdown.items] == [
        (ScoreKind.FIFTEEN, 2),
        (ScoreKind.RUN, 3),
    ]


@pytest.mark.parametrize(
    ("series", "pairs"),
    [
        pytest.param("9S 9D", [("9S", "9D")], id="9S-9D"),
        pytest.param("9S 9D 9C", [("9S", "9D"), ("9S", "9C"), ("9D", "9C")], id="9S-9D-9C"),
        pytest.param(
            "AS AD AC AH",
            [
                ("AS", "AD"),
                ("AS", "AC"),
                ("AS", "AH"),
                ("AD", "AC"),
                ("AD", "AH"),
                ("AC", "AH"),
            ],
            id="AS-AD-AC-AH",
        ),
    ],
)
def test_pairs_are_one_item_per_pair_with_their_cards(
    series: str, pairs: list[tuple[str, str]]
) -> None:
    items = score_play(parse_cards(series)).of_kind(ScoreKind.PAIR)
    assert [tuple(str(c) for c in item.cards) for item in items] == pairs
    assert all(item.points == 2 for item in items)


def test_thirty_one_is_one_item_of_two() -> None:
    breakdown = score_play(parse_cards("KS QD 5H 6C"))
    assert [(item.kind, item.points) for item in breakdown.items] == [(ScoreKind.THIRTY_ONE, 2)]


def test_base_count_counts_toward_fifteen_and_thirty_one() -> None:
    assert score_play(parse_cards("5H"), base_count=10).of_kind(ScoreKind.FIFTEEN)
    assert score_play(parse_cards("KS 6H 5C"), base_count=10).of_kind(ScoreKind.THIRTY_ONE)
    assert not score_play(parse_cards("5H")).items


def test_score_play_rejects_a_count_over_31() -> None:
    with pytest.raises(
        IllegalPlayError, match=r"^cannot play 9S: count is 25 and 9S would make 34 \(over 31\)$"
    ):
        score_play(parse_cards("KS QD 5H 9S"))


def test_score_play_rejects_going_over_31_from_the_base_count() -> None:
    with pytest.raises(IllegalPlayError, match=r"cannot play 9S: count is 24 and 9S would make 33"):
        score_play(parse_cards("KS 4H 9S"), base_count=10)


def test_score_play_rejects_an_empty_series() -> None:
    with pytest.raises(InvalidHandError, match=r"^no card to score: the series is empty"):
        score_play(())


def test_score_play_rejects_a_card_laid_twice() -> None:
    with pytest.raises(InvalidHandError, match=r"^duplicate card 5H in series '5H 6C 5H'$"):
        score_play([card("5H"), card("6C"), card("5H")])


def test_score_play_rejects_a_negative_base_count() -> None:
    with pytest.raises(ValueError, match=r"^base_count must not be negative, got -1$"):
        score_play(parse_cards("5H"), base_count=-1)


# --- the seed documents' examples ------------------------------------------------------------

SIX = Rules.six_card()


def test_english_example_kings_and_twos_against_nine_to_six() -> None:
    # A (seat 0, non-dealer) has K-K-2-2; B (seat 1, dealer) has 9-8-7-6
    state = PlayState.start(SIX, dealer=1, hands=hands("KS KD 2C 2D", "9H 8H 7H 6H"))
    state, said = run(state, "KS 6H KD go 2C 2D")
    assert said == "KS 6H KD go 2C 2D=0:3"  # "30 for 3": the pair of twos and one for the go
    assert state.series_number == 2 and state.count == 0 and state.turn == 1
    state, said = run(state, "8H 7H 9H")
    assert said == "8H 7H=1:2 9H=1:4"  # fifteen two; "24 for 3 and 1 for last"
    assert state.is_over


def test_english_example_kings_and_twos_score_kinds() -> None:
    state = PlayState.start(SIX, dealer=1, hands=hands("KS KD 2C 2D", "9H 8H 7H 6H"))
    assert kinds(state, "KS 6H KD go 2C 2D 8H 7H 9H") == [
        ["pair", "go"],
        ["fifteen"],
        ["run", "last"],
    ]


def test_english_example_1() -> None:
    # A has 10, 10, 9, 6 and leads; B has 7, 6, 5, 4
    state = PlayState.start(SIX, dealer=1, hands=hands("10S 10D 9C 6S", "7H 6H 5H 4H"))
    state, said = run(state, "9C 6H 6S 5H go 4H go")
    # B: fifteen two; A: a pair; B: a run of three, then one for last when B cannot go on either
    assert said == "9C 6H=1:2 6S=0:2 5H go 4H=1:3 go=1:1"
    assert state.turn == 0  # "then A begins again"
    state, said = run(state, "10S 7H 10D")
    assert said == "10S 7H 10D=0:1"
    assert state.is_over


def test_english_example_2_no_run_across_a_reset() -> None:
    # A has 10, 8, 7, 5 and leads; B has 7, 6, 5, 4; the German document plays it out
    state = PlayState.start(SIX, dealer=1, hands=hands("10S 8S 7S 5S", "7H 6H 5H 4H"))
    state, said = run(state, "8S 7H 7S 6H go go")
    assert said == "8S 7H=1:2 7S=0:2 6H go go=1:1"  # 28: neither can play, one for last to B
    state, said = run(state, "5S")
    assert said == "5S"  # no run: the 7 and 6 were in the previous series
    state, said = run(state, "5H 10S 4H")
    assert said == "5H=1:2 10S 4H=1:1"
    assert state.is_over


def test_german_beispiel_1_thirty_one_then_last_card() -> None:
    # Geber (seat 1): K, D, 3, A; Nichtgeber (seat 0): 10, 8, 4, 7
    state = PlayState.start(SIX, dealer=1, hands=hands("10S 8S 4S 7S", "KH QH 3H AH"))
    state, said = run(state, "10S KH 8S 3H")
    assert said == "10S KH 8S 3H=1:2"  # 31: two, and no point for last on top
    assert state.turn == 0 and state.count == 0
    state, said = run(state, "7S QH 4S AH")
    assert said == "7S QH 4S AH=1:1"  # 22 and the last card
    assert state.is_over


def test_german_beispiel_2_go_then_the_dealer_plays_out() -> None:
    # Geber (seat 1): 6, 9, 7, 8; Nichtgeber (seat 0): 5, 5, A, 2
    state = PlayState.start(SIX, dealer=1, hands=hands("5S 5D AS 2S", "6H 9H 7H 8H"))
    state, said = run(state, "5S 9H 5D 8H 2S go AS")
    assert said == "5S 9H 5D 8H 2S go AS=0:1"  # 30 and one for the go
    assert state.turn == 1
    state, said = run(state, "6H 7H")
    assert said == "6H 7H=1:1"  # the dealer plays 6 and 7: one for the last card
    assert kinds(
        PlayState.start(SIX, dealer=1, hands=hands("5S 5D AS 2S", "6H 9H 7H 8H")),
        "5S 9H 5D 8H 2S go AS 6H 7H",
    ) == [["go"], ["last"]]


def test_german_exemplarische_spielrunde_1() -> None:
    # A has 2-2-K-K, B has 6-7-8-9; A leads
    state = PlayState.start(SIX, dealer=1, hands=hands("2C 2D KS KD", "6H 7H 8H 9H"))
    state, said = run(state, "KS 6H KD go 2C 2D 8H 7H 9H")
    assert said == "KS 6H KD go 2C 2D=0:3 8H 7H=1:2 9H=1:4"
    assert state.is_over


def test_german_exemplarische_spielrunde_2() -> None:
    # A has 5-7-8-10, B has 4-5-6-7; A leads
    state = PlayState.start(SIX, dealer=1, hands=hands("5S 7S 8S 10S", "4H 5H 6H 7H"))
    state, said = run(state, "8S 7H 7S 6H go go 5S 5H 10S 4H")
    assert said == "8S 7H=1:2 7S=0:2 6H go go=1:1 5S 5H=1:2 10S 4H=1:1"
    assert state.is_over


# --- go, last, thirty-one ------------------------------------------------------------------


def test_a_go_does_not_break_a_run() -> None:
    # after K-Q-2 (22) seat 1 holds only ten-cards and says go; seat 0 lays 3 and 4: 2-3-4
    deal = hands("KS 2S 3S 4S", "QH 10H JH KD")
    _, said = run(PlayState.start(SIX, dealer=1, hands=deal), "KS QH 2S go 3S 4S")
    assert said == "KS QH 2S go 3S 4S=0:4"
    assert kinds(PlayState.start(SIX, dealer=1, hands=deal), "KS QH 2S go 3S 4S") == [["run", "go"]]


def test_pairs_never_reach_across_a_reset() -> None:
    state = PlayState.start(SIX, dealer=1, hands=hands("KS 9S QS JS", "KH 9H QH JH"))
    state, said = run(state, "KS KH 9S go go")
    assert said == "KS KH=1:2 9S go go=0:1"
    # seat 1 leads the nine of hearts right after the nine of spades: a new series, no pair
    state, said = run(state, "9H")
    assert said == "9H"
    assert state.series == parse_cards("9H")
    state, said = run(state, "QS QH go go JS JH")
    assert said == "QS QH=1:2 go go=1:1 JS JH=1:3"


def test_thirty_one_on_the_last_card_of_the_play_never_also_gives_last() -> None:
    state = PlayState.start(SIX, dealer=1, hands=hands("2C 3C 4C 5C", "2D 3D 4D 8D"))
    state, said = run(state, "2C 2D 3C 3D 4C 4D 5C 8D")
    assert said == "2C 2D=1:2 3C 3D=1:2 4C 4D=1:2 5C 8D=1:2"
    assert kinds(
        PlayState.start(SIX, dealer=1, hands=hands("2C 3C 4C 5C", "2D 3D 4D 8D")),
        "2C 2D 3C 3D 4C 4D 5C 8D",
    )[-1] == ["thirty-one"]
    assert state.is_over


def test_the_go_point_goes_to_the_last_layer_not_to_the_seat_saying_go() -> None:
    state = PlayState.start(SIX, dealer=1, hands=hands("KS QS JS 9S", "5H 5D 10H 10D"))
    state, said = run(state, "KS 5H QS 5D go go")
    assert said == "KS 5H=1:2 QS 5D go go=1:1"
    state, said = run(state, "JS 10H 9S")  # seat 0 lays its last card: a run of three
    assert said == "JS 10H 9S=0:3"
    assert state.turn == 1
    state, scores = state.go()  # seat 1 cannot lay 10D on 29; seat 0 has nothing left
    assert scores == (PlayScore(0, Breakdown((ScoreItem(ScoreKind.GO, (card("9S"),), 1),))),)
    assert state.turn == 1 and state.series_number == 3  # seat 0's left leads
    state, said = run(state, "10D")
    assert said == "10D=1:1"
    assert state.is_over


def test_the_seat_left_of_the_last_layer_leads_the_next_series() -> None:
    three = Rules.three_handed()
    state = PlayState.start(
        three, dealer=0, hands=hands("KS QS 2S 3S", "KH QH 4H 5H", "KD QD 6D 7D")
    )
    assert state.turn == 1  # the dealer's left
    state, said = run(state, "KH KD QS go go")  # seat 0 laid the last card, at 30
    assert said == "KH KD=2:2 QS go go"
    assert state.turn == 0
    state, said = run(state, "go")
    assert said == "go=0:1"
    assert state.turn == 1 and state.series_number == 2


# --- three and four players ------------------------------------------------------------------


def test_three_handed_all_but_one_say_go_and_empty_hands_are_skipped() -> None:
    three = Rules.three_handed()
    state = PlayState.start(
        three, dealer=2, hands=hands("KS 9C 8C 7C", "QH 9D 8D 7D", "9S AS 10H JH")
    )
    state, said = run(state, "KS QH 9S go go AS go")
    assert said == "KS QH 9S go go AS go=2:1"  # seat 2 plays on alone, then pegs for the go
    assert state.turn == 0
    state, said = run(state, "9C 9D 10H go go go")
    assert said == "9C 9D=1:2 10H go go go=2:1"
    state, said = run(state, "8C 8D JH go go")
    # seat 2 is out of cards after JH and the others said go: it pegs without a go of its own
    assert said == "8C 8D=1:2 JH go go=2:1"
    assert state.cards_left == (1, 1, 0)
    state, said = run(state, "7C 7D")  # seat 2 has no cards and is passed over
    assert said == "7C 7D=1:3"  # a pair and one for last
    assert state.is_over


def test_three_handed_the_one_left_can_make_thirty_one() -> None:
    three = Rules.three_handed()
    state = PlayState.start(
        three, dealer=2, hands=hands("KS QS JS 10S", "KH QH JH 10H", "9S AS AD 2D")
    )
    state, said = run(state, "KS KH 9S go go AS AD")
    assert said == "KS KH=1:2 9S go go AS AD=2:4"  # a pair and 31
    assert state.turn == 0 and state.count == 0


FOUR_HANDS = ("KS 4C 5C 6C", "9D 4D 5D 6D", "8H 4H 5H 6H", "AS 2S KC QC")


def test_four_handed_three_say_go_and_the_fourth_plays_on() -> None:
    state = PlayState.start(Rules.four_handed(), dealer=3, hands=hands(*FOUR_HANDS))
    assert state.turn == 0
    state, said = run(state, "KS 9D 8H AS go go go 2S go")
    assert said == "KS 9D 8H AS go go go 2S go=3:1"  # seat 3 plays on alone, then pegs 1
    assert state.turn == 0  # the seat on seat 3's left
    state, said = run(state, "4C 4D 4H KC 5C go go go go")
    assert said == "4C 4D=1:2 4H=2:6 KC 5C go go go go=0:1"
    assert state.turn == 1
    state, said = run(state, "5D 5H QC 6C go go")
    # seat 0 laid its last card; seats 1 and 2 said go, seat 3 has nothing left
    assert said == "5D 5H=2:2 QC 6C go go=0:1"
    assert state.cards_left == (0, 1, 1, 0)
    assert state.turn == 1  # seat 0's left
    state, said = run(state, "6D 6H")
    assert said == "6D 6H=2:3"  # a pair and one for last
    assert state.is_over


def test_four_handed_records_every_seats_cards() -> None:
    state = PlayState.start(Rules.four_handed(), dealer=3, hands=hands(*FOUR_HANDS))
    script = "KS 9D 8H AS go go go 2S go 4C 4D 4H KC 5C go go go go 5D 5H QC 6C go go 6D 6H"
    state, _ = run(state, script)
    assert [sorted(state.played_by(seat)) for seat in range(4)] == [
        sorted(hand) for hand in hands(*FOUR_HANDS)
    ]
    assert state.hands == ((), (), (), ())
    assert [str(c) for _, c in state.laid] == [w for w in script.split() if w != "go"]


# --- five-card and starter counts in play --------------------------------------------------


def test_five_card_plays_one_series_and_leaves_cards_in_hand() -> None:
    five = Rules.five_card()
    state = PlayState.start(five, dealer=1, hands=hands("KS QS JS", "KH QH 5H"))
    state, said = run(state, "KS KH QS go go")
    assert said == "KS KH=1:2 QS go go=0:1"
    assert state.is_over
    assert state.cards_left == (1, 2)
    assert state.hands == (parse_cards("JS"), parse_cards("QH 5H"))
    assert kinds(
        PlayState.start(five, dealer=1, hands=hands("KS QS JS", "KH QH 5H")),
        "KS KH QS go go",
    ) == [["pair"], ["last"]]


def test_five_card_ends_at_thirty_one_without_a_point_for_last() -> None:
    five = Rules.five_card()
    state = PlayState.start(five, dealer=0, hands=hands("AS KC 3S", "KH QH AH"))
    assert state.turn == 1
    state, said = run(state, "KH AS QH KC")
    assert said == "KH AS QH KC=0:2"
    assert state.is_over and state.cards_left == (1, 1)
    assert kinds(
        PlayState.start(five, dealer=0, hands=hands("AS KC 3S", "KH QH AH")), "KH AS QH KC"
    ) == [["thirty-one"]]


STARTER_HANDS = ("5S 9S 8S 4S", "6H 7H 9H 3H")


def test_starter_counts_in_play_opens_the_first_series() -> None:
    rules = Rules.six_card(starter_counts_in_play=True)
    state = PlayState.start(rules, dealer=1, starter=card("KD"), hands=hands(*STARTER_HANDS))
    assert state.count == 10 and state.base_count == 10
    state, said = run(state, "5S")
    assert said == "5S=0:2"  # "fifteen two" off the king turned up
    state, _ = run(state, "6H 8S")
    with pytest.raises(
        IllegalPlayError, match=r"^cannot play 7H: count is 29 and 7H would make 36 \(over 31\)$"
    ):
        state.play(card("7H"))


def test_starter_counts_only_in_the_first_series() -> None:
    rules = Rules.six_card(starter_counts_in_play=True)
    state = PlayState.start(rules, dealer=1, starter=card("KD"), hands=hands(*STARTER_HANDS))
    state, said = run(state, "5S 6H 8S go go")
    assert said == "5S=0:2 6H 8S go go=0:1"  # 10 + 5 + 6 + 8 = 29
    assert state.series_number == 2 and state.count == 0 and state.base_count == 0
    state, said = run(state, "7H 9S 9H 4S go 3H")
    assert said == "7H 9S 9H=1:2 4S go=0:1 3H=1:1"
    assert state.is_over


def test_starter_counts_in_play_needs_the_starter() -> None:
    with pytest.raises(ValueError, match=r"^the starter counts in play under these rules"):
        PlayState.start(Rules.six_card(starter_counts_in_play=True), dealer=0)


# --- unknown hands ---------------------------------------------------------------------------


def test_with_unknown_hands_any_unseen_card_may_be_laid() -> None:
    state = PlayState.start(SIX, dealer=1, starter=card("5C"), excluded=parse_cards("2H 3H"))
    assert state.legal_cards() is None and state.hands is None
    state, said = run(state, "KS 6H KD go 2C 2D 8H 7H 9H")
    assert said == "KS 6H KD go 2C 2D=0:3 8H 7H=1:2 9H=1:4"
    assert state.is_over
    assert state.played_by(0) == parse_cards("KS KD 2C 2D")


def test_with_unknown_hands_a_go_is_taken_on_trust_when_possible() -> None:
    state = PlayState.start(SIX, dealer=1)
    state, _ = run(state, "KS QD 5H")
    assert state.can_go()
    state, scores = state.go()
    assert scores == () and state.turn == 0 and state.said_go == frozenset({1})


# --- illegal actions: every message, and nothing changes ------------------------------------

KK = hands("KS KD 2C 2D", "9H 8H 7H 6H")


def known(script: str = "") -> PlayState:
    return run(PlayState.start(SIX, dealer=1, hands=KK), script)[0]


def blind(script: str = "", *, excluded: str = "2H 3H") -> PlayState:
    start = PlayState.start(SIX, dealer=1, starter=card("5C"), excluded=parse_cards(excluded))
    return run(start, script)[0]


# every card worth 7 to 9 is out of the play: on 25 no card not yet seen is too big but tens
SEVEN_TO_NINE = " ".join(str(c) for c in DECK if 7 <= c.pips <= 9)
TENS_GONE = " ".join(str(c) for c in DECK if c.pips >= 7 and str(c) not in ("KS", "QD"))


@pytest.mark.parametrize(
    ("state", "word", "message"),
    [
        pytest.param(
            known("KS 6H KD"),
            "2H",
            r"^cannot play 2H: seat 1 does not hold it$",
            id="2H-not-held",
        ),
        pytest.param(
            known("KS 6H"),
            "KS",
            r"^cannot play KS: it was already laid this deal$",
            id="KS-laid-twice",
        ),
        pytest.param(
            known("KS 6H KD go 2C 2D"),
            "6H",
            r"^cannot play 6H: it was already laid this deal$",
            id="6H-laid-in-an-earlier-series",
        ),
        pytest.param(blind(), "5C", r"^cannot play 5C: it is the starter$", id="5C-starter"),
        pytest.param(
            blind(),
            "3H",
            r"^cannot play 3H: it is out of the play this deal \(a discard or a seen card\)$",
            id="3H-excluded",
        ),
        pytest.param(
            blind("KS QD 5H"),
            "9S",
            r"^cannot play 9S: count is 25 and 9S would make 34 \(over 31\)$",
            id="9S-over-31",
        ),
        pytest.param(
            known("KS 6H KD"),
            "9H",
            r"^cannot play 9H: count is 26 and 9H would make 35 \(over 31\)$",
            id="9H-over-31-known",
        ),
        pytest.param(
            known("KS"),
            "go",
            r"^cannot say go: 9H, 8H, 7H, 6H fit \(count is 10\)$",
            id="go-with-cards-that-fit",
        ),
        pytest.param(
            known("KS 6H KD go"),
            "go",
            r"^cannot say go: 2C, 2D fit \(count is 26\)$",
            id="go-with-twos",
        ),
        pytest.param(blind(), "go", r"^cannot say go: every card fits \(count is 0\)$", id="go-0"),
        pytest.param(
            blind("KS 6H"), "go", r"^cannot say go: every card fits \(count is 16\)$", id="go-16"
        ),
        pytest.param(
            blind("KS QD 5H", excluded=TENS_GONE),
            "go",
            r"^cannot say go: seat 1 has 3 cards but only 0 cards not yet seen would not fit "
            r"\(count is 25\)$",
            id="go-impossible-unseen",
        ),
        pytest.param(
            known("KS 6H KD go 2C 2D 8H 7H 9H"),
            "go",
            r"^cannot say go: the play is over$",
            id="go-after-the-play",
        ),
        pytest.param(
            known("KS 6H KD go 2C 2D 8H 7H 9H"),
            "AS",
            r"^cannot play AS: the play is over$",
            id="AS-after-the-play",
        ),
    ],
)
def test_illegal_actions_are_rejected_and_change_nothing(
    state: PlayState, word: str, message: str
) -> None:
    before = repr(state)
    copy = dataclasses.replace(state)
    with pytest.raises(IllegalPlayError, match=message):
        run(state, word)
    assert state == copy and repr(state) == before


def test_a_go_is_allowed_when_only_one_card_not_yet_seen_is_too_big() -> None:
    state = blind("KS QD 5H", excluded=SEVEN_TO_NINE)  # tens remain: plenty do not fit on 25
    assert state.can_go()


@pytest.mark.parametrize(
    ("state", "possible"),
    [
        pytest.param(blind(), False, id="count-0"),
        pytest.param(blind("KS 6H"), False, id="KS-6H-count-16"),
        pytest.param(blind("KS QD"), False, id="KS-QD-count-20"),
        pytest.param(blind("KS QD 2C"), True, id="KS-QD-2C-count-22"),
        pytest.param(blind("KS QD 5H", excluded=TENS_GONE), False, id="KS-QD-5H-tens-gone"),
        pytest.param(known("KS 6H KD go"), False, id="known-2C-2D-fit"),
        pytest.param(known("KS 6H"), False, id="known-KD-fits"),
        pytest.param(known("KS 6H KD go 2C 2D 8H 7H 9H"), False, id="over"),
    ],
)
def test_can_go_only_when_a_go_is_possible(state: PlayState, possible: bool) -> None:
    assert state.can_go() is possible


def test_a_single_fitting_card_is_named_in_the_go_message() -> None:
    state = PlayState.start(SIX, dealer=1, hands=hands("KS 5S 9S 8S", "QH 4C JH KH"))
    state, _ = run(state, "KS QH 5S")
    with pytest.raises(IllegalPlayError, match=r"^cannot say go: 4C fits \(count is 25\)$"):
        state.go()


@pytest.mark.parametrize(
    ("deal", "kwargs", "message"),
    [
        pytest.param(
            ["KS KD 2C 2D"],
            {},
            r"^wrong number of hands: got 1, expected one per seat \(2\)$",
            id="one-hand",
        ),
        pytest.param(
            ["KS KD 2C", "9H 8H 7H 6H"],
            {},
            r"^wrong number of cards in seat 0's hand: 'KS KD 2C' has 3, expected 4$",
            id="KS-KD-2C-short",
        ),
        pytest.param(
            ["KS KD 2C 2D", "9H 8H 7H 2C"],
            {},
            r"^duplicate card 2C: in seat 0's hand and in seat 1's hand '9H 8H 7H 2C'$",
            id="2C-twice",
        ),
        pytest.param(
            ["KS KD 2C 2D", "9H 8H 7H 6H"],
            {"starter": "6H"},
            r"^card 6H in seat 1's hand '9H 8H 7H 6H' is the starter$",
            id="6H-starter",
        ),
        pytest.param(
            ["KS KD 2C 2D", "9H 8H 7H 6H"],
            {"excluded": "KD"},
            r"^card KD in seat 0's hand 'KS KD 2C 2D' is excluded from the play$",
            id="KD-excluded",
        ),
    ],
)
def test_start_rejects_impossible_hands(
    deal: list[str], kwargs: dict[str, str], message: str
) -> None:
    starter = card(kwargs["starter"]) if "starter" in kwargs else None
    excluded = parse_cards(kwargs.get("excluded", ""))
    with pytest.raises(InvalidHandError, match=message):
        PlayState.start(SIX, dealer=1, starter=starter, hands=hands(*deal), excluded=excluded)


def test_start_rejects_a_dealer_who_is_not_at_the_table() -> None:
    with pytest.raises(ValueError, match=r"^no seat 2 to deal in a 2-player game$"):
        PlayState.start(SIX, dealer=2)


def test_played_by_rejects_a_seat_that_is_not_at_the_table() -> None:
    with pytest.raises(ValueError, match=r"^no seat 3 in a 2-player game$"):
        known().played_by(3)


def test_the_summary_shows_series_turn_and_cards() -> None:
    state = known("KS 6H KD go 2C 2D 8H")
    assert repr(state) == (
        "<PlayState six-card dealer=1 series=2 count=8 turn=1 go=- left=(0, 2) "
        "laid=[0:KS 1:6H 0:KD 0:2C 0:2D | 1:8H] hands=[ / 9H 7H]>"
    )
    state, _ = run(state, "7H 9H")
    assert "turn=over" in repr(state)


# --- properties ------------------------------------------------------------------------------


def oracle(series: tuple[Card, ...], base_count: int = 0) -> int:
    """Points for the last card, worked out independently and plainly."""
    total = base_count + sum(c.pips for c in series)
    points = 2 if total in (15, 31) else 0
    same = 0
    for c in reversed(series):
        if c.rank != series[-1].rank:
            break
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for k in range(len(series), 2, -1):
        ranks = sorted(c.rank.value for c in series[-k:])
        if ranks == list(range(ranks[0], ranks[0] + k)):
            points += k
            break
    return points


LOW = [c for c in DECK if c.rank.value <= 7]


def fitting_prefix(cards: list[Card], base_count: int = 0) -> tuple[Card, ...]:
    count, kept = base_count, []
    for c in cards:
        if count + c.pips > 31:
            break
        count += c.pips
        kept.append(c)
    return tuple(kept)


@settings(max_examples=400, deadline=None)
@given(
    cards=st.one_of(
        st.lists(st.sampled_from(DECK), min_size=1, max_size=12, unique=True),
        st.lists(st.sampled_from(LOW), min_size=1, max_size=12, unique=True),
    ),
    base_count=st.sampled_from([0, 0, 0, 1, 5, 10]),
)
def test_score_play_agrees_with_a_plain_oracle(cards: list[Card], base_count: int) -> None:
    series = fitting_prefix(cards, base_count)
    if not series:
        return
    breakdown = score_play(series, base_count=base_count)
    assert breakdown.total == oracle(series, base_count)
    assert breakdown.total == sum(item.points for item in breakdown.items)
    assert all(set(item.cards) <= set(series) for item in breakdown.items)


@settings(max_examples=200, deadline=None)
@given(
    cards=st.lists(st.sampled_from(LOW), min_size=1, max_size=10, unique=True),
    suits=st.permutations(list(Suit)),
)
def test_score_play_does_not_change_with_a_consistent_swap_of_suits(
    cards: list[Card], suits: list[Suit]
) -> None:
    series = fitting_prefix(cards)
    swap = dict(zip(Suit, suits, strict=True))
    swapped = tuple(Card(c.rank, swap[c.suit]) for c in series)
    assert [(i.kind, i.points) for i in score_play(swapped).items] == [
        (i.kind, i.points) for i in score_play(series).items
    ]


VARIANTS = [
    pytest.param(Rules.six_card(), id="six-card"),
    pytest.param(Rules.three_handed(), id="three-handed"),
    pytest.param(Rules.four_handed(), id="four-handed"),
    pytest.param(Rules.two_against_one(), id="two-against-one"),
    pytest.param(Rules.two_in_the_crib(), id="two-in-the-crib"),
    pytest.param(Rules.five_card(), id="five-card"),
    pytest.param(Rules.six_card(starter_counts_in_play=True), id="six-card-starter-counts"),
    pytest.param(Rules.four_handed(starter_counts_in_play=True), id="four-handed-starter-counts"),
    pytest.param(Rules.five_card(starter_counts_in_play=True), id="five-card-starter-counts"),
]


@pytest.mark.parametrize("rules", VARIANTS)
@settings(max_examples=60, deadline=None)
@given(deck=st.permutations(DECK), dealer=st.integers(0, 3), rng=st.randoms(use_true_random=False))
def test_random_legal_plays_follow_the_rules(
    rules: Rules, deck: list[Card], dealer: int, rng: random.Random
) -> None:
    dealer %= rules.players
    size = rules.hand_size
    deal = [tuple(deck[seat * size : (seat + 1) * size]) for seat in range(rules.players)]
    starter = deck[rules.players * size]
    state = PlayState.start(rules, dealer, starter=starter, hands=deal)
    table = PlayState.start(rules, dealer, starter=starter)  # the same play, hands unknown
    expected = pegged = 0
    awards: Counter[ScoreKind] = Counter()
    final: tuple[PlayScore, ...] = ()
    while not state.is_over:
        assert state.turn is not None and state.cards_left[state.turn] > 0
        assert state.count <= 31 and (state.turn, state.count) == (table.turn, table.count)
        legal = state.legal_cards()
        assert legal is not None
        outsider = rng.choice([c for c in DECK if c not in deal[state.turn]])
        with pytest.raises(IllegalPlayError):
            state.play(outsider)  # rejected, and the state is still the one we hold
        if legal:
            assert not state.can_go()
            laid = rng.choice(legal)
            expected += score_play((*state.series, laid), base_count=state.base_count).total
            state, scores = state.play(laid)
            table, seen = table.play(laid)
        else:
            assert table.can_go()  # a true go is always believable
            state, scores = state.go()
            table, seen = table.go()
        assert scores == seen
        for score in scores:
            pegged += score.points
            awards.update(item.kind for item in score.breakdown.items)
        final = scores
    assert table.is_over and table.cards_left == state.cards_left
    assert pegged == expected + awards[ScoreKind.GO] + awards[ScoreKind.LAST]
    if rules.single_series:
        assert state.series_number == 1
    else:
        assert state.cards_left == (0,) * rules.players
        assert all(state.played_by(seat) for seat in range(rules.players))
    made_31 = state.count == 31
    assert awards[ScoreKind.LAST] == (0 if made_31 else 1)
    final_kinds = [item.kind for score in final for item in score.breakdown.items]
    assert (ScoreKind.THIRTY_ONE if made_31 else ScoreKind.LAST) in final_kinds
    assert final[0].seat == state.laid[-1][0]
    # every series ends once: with 31, or with one point for go or last
    ends = awards[ScoreKind.GO] + awards[ScoreKind.LAST] + awards[ScoreKind.THIRTY_ONE]
    assert ends == state.series_number
    for seat in range(rules.players):
        assert set(state.played_by(seat)) <= set(deal[seat])
