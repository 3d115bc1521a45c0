"""Variants as data, game points (lurch and skunk lines) and the cut for first deal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegboard.engine import (
    Card,
    ConfigError,
    Lurch,
    Rules,
    Variant,
    first_dealer,
    game_points,
    lurch_of,
    parse_cards,
)
from tests.engine.strategies import distinct_cards

# variant, players, dealt, discards, pack_to_crib, hand kept, target, sides (RULES.md's table)
PRESETS = [
    pytest.param(Variant.SIX_CARD, 2, 6, 2, 0, 4, 121, 2, id="six-card"),
    pytest.param(Variant.THREE_HANDED, 3, 5, 1, 1, 4, 121, 3, id="three-handed"),
    pytest.param(Variant.FOUR_HANDED, 4, 5, 1, 0, 4, 121, 2, id="four-handed"),
    pytest.param(Variant.TWO_AGAINST_ONE, 3, 5, 1, 1, 4, 121, 2, id="two-against-one"),
    pytest.param(Variant.TWO_IN_THE_CRIB, 2, 5, 1, 2, 4, 121, 2, id="two-in-the-crib"),
    pytest.param(Variant.FIVE_CARD, 2, 5, 2, 0, 3, 61, 2, id="five-card"),
]


@pytest.mark.parametrize(
    ("variant", "players", "dealt", "discards", "pack", "kept", "target", "sides"), PRESETS
)
def test_every_variant_deals_as_the_rules_table_says(
    variant: Variant,
    players: int,
    dealt: int,
    discards: int,
    pack: int,
    kept: int,
    target: int,
    sides: int,
) -> None:
    rules = Rules.for_variant(variant)
    assert rules.variant is variant
    assert (rules.players, rules.dealt, rules.discards, rules.pack_to_crib) == (
        players,
        dealt,
        discards,
        pack,
    )
    assert rules.hand_size == kept
    assert rules.crib_size == 4
    assert rules.target == target
    assert rules.sides == sides


def test_four_handed_partners_sit_opposite() -> None:
    rules = Rules.four_handed()
    assert [rules.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]


def test_two_against_one_solo_starts_on_60_without_lurch() -> None:
    rules = Rules.two_against_one()
    assert [rules.side_of(seat) for seat in range(3)] == [0, 0, 1]
    assert (rules.start_score(0), rules.start_score(1)) == (0, 60)
    assert rules.lurch_line is None and rules.double_skunk_line is None


def test_five_card_plays_one_series_to_61_with_three_for_the_pone() -> None:
    rules = Rules.five_card()
    assert rules.single_series and rules.pone_bonus == 3
    assert (rules.lurch_line, rules.double_skunk_line) == (45, None)


@pytest.mark.parametrize(
    ("variant", "points"),
    [pytest.param(v, 4 if v is Variant.FIVE_CARD else 5, id=v.value) for v in Variant],
)
def test_a_crib_flush_is_worth_five_but_four_in_five_card_cribbage(
    variant: Variant, points: int
) -> None:
    assert Rules.for_variant(variant).crib_flush == points


def test_optional_rules_are_off_by_default() -> None:
    rules = Rules.six_card()
    assert not (rules.muggins or rules.muggins_in_play or rules.starter_counts_in_play)
    assert rules.start_score(0) == rules.start_score(1) == 0


@pytest.mark.parametrize(
    ("name", "variant"),
    [
        pytest.param("six-card", Variant.SIX_CARD, id="six-card"),
        pytest.param("five_card", Variant.FIVE_CARD, id="five_card"),
        pytest.param(" Three-Handed ", Variant.THREE_HANDED, id="Three-Handed"),
        pytest.param("TWO-IN-THE-CRIB", Variant.TWO_IN_THE_CRIB, id="TWO-IN-THE-CRIB"),
    ],
)
def test_variant_names_parse_loosely(name: str, variant: Variant) -> None:
    assert Variant.parse(name) is variant
    assert Rules.for_variant(name).variant is variant


@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.value)
def test_every_variant_name_round_trips(variant: Variant) -> None:
    assert Variant.parse(variant.value) is variant


def test_an_unknown_variant_is_rejected_listing_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown variant: 'seven-card' \(expected one of six-"):
        Variant.parse("seven-card")


def test_an_unknown_option_is_rejected_listing_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"rules: unknown option 'mugins' \(expected one of "):
        Rules.for_variant("six-card", mugins=True)


def test_options_override_the_preset() -> None:
    rules = Rules.for_variant("six-card", muggins=True, double_skunk_points=4)
    assert rules.muggins and rules.double_skunk_points == 4
    assert Rules.five_card(lurch_line=31).lurch_line == 31


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        pytest.param({"target": 0}, r"rules: target must be positive, got 0", id="target-0"),
        pytest.param(
            {"lurch_line": 200},
            r"rules: lurch_line must be between 1 and the target 121, got 200",
            id="lurch-line-200",
        ),
        pytest.param(
            {"win_points": -1}, r"rules: win_points must not be negative, got -1", id="points--1"
        ),
        pytest.param(
            {"discards": 6},
            r"rules: discards must be at least 1 and fewer than the 6 dealt, got 6",
            id="discards-6",
        ),
        pytest.param(
            {"start_scores": (0, 121)},
            r"rules: start_scores \(0, 121\) needs one score below the target per side \(2\)",
            id="start-121",
        ),
        pytest.param({"players": 5}, r"rules: players must be 2, 3 or 4, got 5", id="players-5"),
        pytest.param(
            {"teams": ((0,), (0,))},
            r"rules: teams \(\(0,\), \(0,\)\) must hold each seat 0..1 once",
            id="teams-0-0",
        ),
    ],
)
def test_impossible_settings_are_rejected_with_the_setting_named(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        Rules.six_card().replace(**changes)


def test_a_deal_needing_more_than_52_cards_is_rejected() -> None:
    with pytest.raises(ConfigError, match=r"rules: the deal needs more than 52 cards"):
        Rules.four_handed().replace(dealt=13)


def test_side_of_an_unknown_seat_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"no seat 4 in a 2-player game"):
        Rules.six_card().side_of(4)


# --- game points: lurch (skunk) and double skunk -------------------------------------------


@pytest.mark.parametrize(
    ("loser", "points", "lurch"),
    [
        pytest.param(120, 1, Lurch.NONE, id="120"),
        pytest.param(91, 1, Lurch.NONE, id="91-passed-hole-90"),
        pytest.param(90, 2, Lurch.LURCHED, id="90-lurched"),
        pytest.param(61, 2, Lurch.LURCHED, id="61"),
        pytest.param(60, 3, Lurch.DOUBLE_SKUNKED, id="60-double-skunk"),
        pytest.param(0, 3, Lurch.DOUBLE_SKUNKED, id="0"),
    ],
)
def test_six_card_game_points_follow_the_lurch_lines(loser: int, points: int, lurch: Lurch) -> None:
    rules = Rules.six_card()
    assert game_points(rules, loser) == points
    assert lurch_of(rules, loser) is lurch


def test_a_double_skunk_may_be_worth_four_by_agreement() -> None:
    assert game_points(Rules.six_card(double_skunk_points=4), 60) == 4


@pytest.mark.parametrize(
    ("loser", "points"),
    [
        pytest.param(60, 1, id="60"),
        pytest.param(45, 1, id="45"),
        pytest.param(44, 2, id="44-lurched"),
        pytest.param(0, 2, id="0-no-double-skunk"),
    ],
)
def test_five_card_lurches_below_45(loser: int, points: int) -> None:
    assert game_points(Rules.five_card(), loser) == points


def test_five_card_lurch_line_is_configurable() -> None:
    rules = Rules.five_card(lurch_line=31)
    assert game_points(rules, 40) == 1
    assert game_points(rules, 30) == 2


@pytest.mark.parametrize("loser", [0, 60, 90, 120])
def test_two_against_one_has_no_lurch(loser: int) -> None:
    assert game_points(Rules.two_against_one(), loser) == 1


def test_four_handed_teams_score_game_points_like_two_players() -> None:
    assert game_points(Rules.four_handed(), 80) == 2


@pytest.mark.parametrize("loser", [10, 100])
def test_three_separate_players_get_no_invented_game_points(loser: int) -> None:
    rules = Rules.three_handed()
    assert game_points(rules, loser) is None
    assert lurch_of(rules, 10) is Lurch.DOUBLE_SKUNKED  # still recorded


# --- cutting for first deal ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cuts", "dealer"),
    [
        pytest.param("9H 3C", 1, id="9H 3C"),
        pytest.param("AS 2C", 0, id="AS 2C"),
        pytest.param("KH 9D", 1, id="KH 9D"),
        pytest.param("10H KC", None, id="10H KC-ten-cards-tie"),
        pytest.param("JH QC", None, id="JH QC-ten-cards-tie"),
        pytest.param("5H 5C", None, id="5H 5C-equal-ranks-tie"),
        pytest.param("8H 4C 6D", 1, id="8H 4C 6D-three-players"),
        pytest.param("8H 4C 4D", None, id="8H 4C 4D-tie-for-lowest"),
        pytest.param("4H 9C 9D", 0, id="4H 9C 9D-tie-above-lowest-is-fine"),
    ],
)
def test_the_lower_card_by_pip_value_deals_first(cuts: str, dealer: int | None) -> None:
    assert first_dealer(parse_cards(cuts)) == dealer


@given(distinct_cards(2))
def test_a_cut_is_decided_exactly_when_the_pip_values_differ(cuts: tuple[Card, ...]) -> None:
    dealer = first_dealer(cuts)
    if cuts[0].pips == cuts[1].pips:
        assert dealer is None
    else:
        assert dealer == (0 if cuts[0].pips < cuts[1].pips else 1)


@given(st.integers(min_value=0, max_value=120))
def test_game_points_grow_as_the_loser_falls_behind(loser: int) -> None:
    rules = Rules.six_card()
    points = game_points(rules, loser)
    assert points == (1 if loser >= 91 else 2 if loser >= 61 else 3)


@pytest.mark.parametrize("option", ["dealt", "discards", "pack_to_crib", "players", "teams"])
def test_for_variant_refuses_to_override_what_makes_the_variant(option: str) -> None:
    with pytest.raises(ConfigError, match=rf"rules: unknown option '{option}'"):
        Rules.for_variant("six-card", **{option: 7})
