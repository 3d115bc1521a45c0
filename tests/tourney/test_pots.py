"""Side pots: skunks from the results that stand, the 24/28/29 hands and four of a kind."""

from __future__ import annotations

from pegboard.engine.cards import Card, parse_cards
from pegboard.tourney.night import Correction, Result, correct
from pegboard.tourney.pots import Shown, hand_pots, side_pots, skunks

from .build import night_of


def shown(player: str, cards: str, starter: str, points: int, crib: bool = False) -> Shown:
    return Shown(
        player, 1, 2, "20:15", tuple(parse_cards(cards)), Card.parse(starter), points, crib
    )


def test_skunks_follow_the_results_that_stand() -> None:
    night = night_of([[("Ann", "Bob", 90), ("Cy", "Di", 91)]])
    assert [(e.pot, e.player, e.detail) for e in skunks(night)] == [
        ("skunk", "Ann", "Ann 121, Bob 90")
    ]
    fixed = correct(night, Correction(Result(1, 2, "Cy", "Di", 121, 70), "Pat", "21:00", "misread"))
    assert [e.player for e in skunks(fixed)] == ["Ann", "Cy"]


def test_big_hands_and_four_of_a_kind_with_who_and_when() -> None:
    hands = [
        shown("Ann", "4H 5C 5D 6H", "6S", 24),
        shown("Bob", "5H 5D 5S JC", "5C", 29),
        shown("Cy", "5H 5D 5S 5C", "JD", 28),
        shown("Di", "7H 7D 7S 8C", "7C", 20),  # four of a kind with the starter
        shown("Eve", "9H 9D 9S 9C", "2C", 28, crib=True),  # a crib: a big hand, not a four
        shown("Flo", "2H 3D 9S KC", "QC", 4),
    ]
    got = [(e.pot, e.player, e.round, e.table, e.when) for e in hand_pots(hands)]
    assert got == [
        ("24", "Ann", 1, 2, "20:15"),
        ("29", "Bob", 1, 2, "20:15"),
        ("four of a kind", "Bob", 1, 2, "20:15"),
        ("28", "Cy", 1, 2, "20:15"),
        ("four of a kind", "Cy", 1, 2, "20:15"),
        ("four of a kind", "Di", 1, 2, "20:15"),
        ("28", "Eve", 1, 2, "20:15"),
    ]
    assert hand_pots(hands)[-1].detail == "crib 9H 9D 9S 9C, starter 2C"
    assert [e.pot for e in side_pots(night_of([[("Ann", "Bob", 60)]]), hands[:1])] == [
        "skunk",
        "24",
    ]


def test_a_hand_told_by_its_points_is_a_big_hand_but_never_four_of_a_kind() -> None:
    """The table said "show 29": the pot for 29 takes it; four of a kind needs the cards."""
    told = Shown("Ann", 2, 3, "21:10", (), Card.parse("5C"), 29, deal=6)
    crib = Shown("Bob", 2, 3, "21:10", (), None, 24, crib=True, deal=7)
    assert [(e.pot, e.player, e.detail) for e in hand_pots([told, crib])] == [
        ("29", "Ann", "deal 6: by points (cards not entered), starter 5C"),
        ("24", "Bob", "deal 7: crib by points (cards not entered)"),
    ]
