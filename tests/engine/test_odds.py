"""Win probability: the shipped tables against the shipped counts and the rules of the race."""

from __future__ import annotations

from dataclasses import replace
from importlib import resources

import pytest

from pegboard.engine import odds
from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, Phase, apply
from pegboard.engine.odds import Model, Moment, OddsError, RaceCounts
from pegboard.engine.rules import Rules, Variant

VARIANTS = [pytest.param(v, id=v.value) for v in odds.VARIANTS]


def shipped_model(variant: Variant) -> Model:
    """The counts as shipped, read straight from the file (no cache)."""
    data = resources.files("pegboard.engine").joinpath("data", f"{variant.value}.dist")
    return Model.from_bytes(variant, data.read_bytes())


def table(variant: Variant, position: int = 0) -> tuple[int, list[float]]:
    target, tables = odds.load_table(variant)
    return target, [v / odds.SCALE for v in tables[position]]


@pytest.mark.parametrize("variant", VARIANTS)
def test_chances_are_the_tables_value_for_the_dealer_and_the_rest_for_the_other_side(
    variant: Variant,
) -> None:
    # the other side's chance is 1 - the dealer's by construction (the table holds one value
    # per position); what can go wrong is reading the wrong cell, which this checks
    target, tables = odds.load_table(variant)
    for position in range(len(tables)):
        for dealer in range(0, target, 7):
            for pone in range(0, target, 5):
                mine, theirs = odds.chances(variant, dealer, pone, position=position)
                assert mine == tables[position][dealer * target + pone] / odds.SCALE
                assert theirs == 1.0 - mine


@pytest.mark.parametrize("variant", VARIANTS)
def test_more_points_never_lower_a_sides_chance(variant: Variant) -> None:
    target, tables = odds.load_table(variant)
    for values in tables:
        for dealer in range(target):
            row = values[dealer * target : (dealer + 1) * target]
            # the pone's points lower the dealer's chance; the dealer's raise it
            assert all(row[p] >= row[p + 1] for p in range(target - 1)), dealer
            if dealer + 1 < target:
                above = values[(dealer + 1) * target : (dealer + 2) * target]
                assert all(above[p] >= row[p] for p in range(target)), dealer


def test_the_first_dealer_wins_about_55_and_a_half_percent() -> None:
    # published: 55.5% over millions of online games, 56% in tournament models
    assert 0.550 <= odds.start_of_deal("six-card", 0, 0) <= 0.565


def test_at_120_all_the_first_point_pegged_wins() -> None:
    race = shipped_model(Variant.SIX_CARD).positions[0].checkpoints["start"]
    # the dealer reached 1 point while the pone had none: (a=1, j=1) in the starts
    dealer_first = sum(n for a, j, n in race.starts if (a, j) == (1, 1))
    _, values = table(Variant.SIX_CARD)
    assert values[120 * 121 + 120] == pytest.approx(dealer_first / race.deals, abs=1 / 65535)
    # nothing like "one side's pegs first": the pone pegs first in a third of the deals
    assert 0.25 < 1 - dealer_first / race.deals < 0.45


def test_at_119_120_heels_and_the_play_decide_before_any_show() -> None:
    model = shipped_model(Variant.SIX_CARD)
    checkpoints = model.positions[0].checkpoints
    jack, other = checkpoints["starter-2"], checkpoints["starter-0"]
    deals = jack.deals + other.deals
    # a jack turned wins at once; else the dealer needs 2 in the play before the pone's 1
    heels_then_play = (jack.deals + other.first(2, 1)) / deals
    _, values = table(Variant.SIX_CARD)
    assert values[119 * 121 + 120] == pytest.approx(heels_then_play, abs=1 / 65535)
    # every play pegs a point, so no deal from here reaches the show
    assert all(x >= 2 or y >= 1 for x, y, _ in other.totals)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_last_20_holes_rebuild_exactly_from_the_counts(variant: Variant) -> None:
    model = shipped_model(variant)
    target = model.target
    low = target - 20
    rebuilt = odds.solve(model, low=low)
    _, tables = odds.load_table(variant)
    for k, values in enumerate(rebuilt):
        for dealer in range(low, target):
            for pone in range(low, target):
                at = dealer * target + pone
                assert round(values[at] * odds.SCALE) == tables[k][at], (k, dealer, pone)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_counts_cover_every_deal_at_every_moment(variant: Variant) -> None:
    rules = Rules.for_variant(variant)
    for position in shipped_model(variant).positions:
        checkpoints = position.checkpoints
        deals = checkpoints["start"].deals
        assert checkpoints["starter-0"].deals + checkpoints["starter-2"].deals == deals
        for shown in range(rules.players + 1):
            assert checkpoints[f"show-{shown}"].deals == deals
        assert sum(n for _, _, n in checkpoints["start"].totals) == deals
        assert all(x + y >= 1 for x, y, _ in checkpoints["start"].totals)  # a last card


def test_the_counts_round_trip_through_their_file() -> None:
    race = RaceCounts.count([[(False, 2), (True, 3)], [(True, 1), (False, 300)], []])
    model = Model(Variant.SIX_CARD, 121, (odds.Position("x", 0, False, {"start": race}),))
    again = Model.from_bytes(Variant.SIX_CARD, model.to_bytes())
    assert again == model
    counts = again.positions[0].checkpoints["start"]
    assert (counts.first(1, 301), counts.first(3, 301), counts.first(3, 2)) == (2, 1, 0)


def test_mixing_the_starters_gives_the_start_of_the_deal() -> None:
    # the chance after the starter, weighed by how often a jack is turned, is the table's
    checkpoints = shipped_model(Variant.SIX_CARD).positions[0].checkpoints
    jack, other = checkpoints["starter-2"].deals, checkpoints["starter-0"].deals
    for dealer, pone in [(0, 0), (60, 75), (100, 110), (117, 119)]:
        mixed = (
            jack * odds.in_deal("six-card", dealer + 2, pone, Moment.STARTER, heels=True)
            + other * odds.in_deal("six-card", dealer, pone, Moment.STARTER)
        ) / (jack + other)
        assert mixed == pytest.approx(odds.start_of_deal("six-card", dealer, pone), abs=2e-4)


def test_before_the_crib_the_dealer_needs_the_crib_or_the_next_deal() -> None:
    race = shipped_model(Variant.SIX_CARD).positions[0].checkpoints["show-2"]
    crib = [sum(n for x, _, n in race.totals if x == points) / race.deals for points in range(30)]
    # a crib of 4 or more wins now; else the pone, on 120, deals next needing one point
    _, values = table(Variant.SIX_CARD)
    later = sum(crib[c] * (1 - values[120 * 121 + 117 + c]) for c in range(4))
    expected = sum(crib[4:]) + later
    assert odds.in_deal("six-card", 117, 120, Moment.SHOW, 2) == pytest.approx(expected, abs=1e-9)
    assert 0.4 < sum(crib[4:]) < 0.8


@pytest.mark.parametrize("variant", VARIANTS)
def test_in_deal_chances_at_every_moment(variant: Variant) -> None:
    rules = Rules.for_variant(variant)
    positions = len(odds.positions_of(rules))
    moments = [(Moment.START, 0), (Moment.STARTER, 0)]
    if rules.players == 2:  # counts per card laid: two-player variants only
        moments += [(Moment.PLAY, k) for k in range(1, 2 * rules.hand_size - 1)]
    moments += [(Moment.SHOW, j) for j in range(rules.players + 1)]
    for position in range(positions):
        for moment, step in moments:
            value = odds.in_deal(variant, 50, 50, moment, step, position=position)
            assert 0.0 < value < 1.0


def test_a_step_past_the_play_is_refused() -> None:
    with pytest.raises(OddsError, match=r"no counts for 'play-8' in six-card"):
        odds.in_deal("six-card", 10, 10, Moment.PLAY, 8)
    with pytest.raises(OddsError, match=r"no counts for 'play-1' in four-handed"):
        odds.in_deal("four-handed", 10, 10, Moment.PLAY, 1)


def test_four_handed_in_the_play_gives_the_chance_as_the_play_began() -> None:
    state = play(GameState.new(Rules.four_handed(), ("Ann", "Bob")), "cut 3C 9H", "peg Ann 30")
    state = play(state, "peg Bob 40", "starter 5D", "play 10S", "play 5C")  # Ann's fifteen 2
    assert state.table.dealer == 0 and state.table.scores == (32, 40)
    chances = odds.win_probability(state)
    assert chances is not None
    assert chances[0] == odds.in_deal("four-handed", 30, 40, Moment.STARTER)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(("six-card", 121, 0), r"dealer score 121 is out of range", id="dealer"),
        pytest.param(("six-card", 0, -1), r"pone score -1 is out of range", id="pone"),
        pytest.param(("five-card", 61, 0), r"\(expected 0 to 60", id="five-card"),
        pytest.param(("three-handed", 0, 0), r"not computed for 'three-handed'", id="three"),
        pytest.param(("cribbage", 0, 0), r"no such variant: 'cribbage'", id="unknown"),
    ],
)
def test_positions_outside_the_tables_are_refused(args: tuple[str, int, int], message: str) -> None:
    with pytest.raises(OddsError, match=message):
        odds.start_of_deal(*args)


@pytest.mark.parametrize(
    ("rules", "names"),
    [
        pytest.param(Rules.four_handed(), ("Ann", "Bob"), id="four-handed"),
        pytest.param(Rules.two_against_one(), ("Pair", "Solo"), id="two-against-one"),
    ],
)
def test_a_peg_by_hand_in_the_play_stays_in_the_chance_once_cards_are_laid(
    rules: Rules, names: tuple[str, str]
) -> None:
    # the pair's first seat (or Ann's side) deals; the other side pegs by hand in the play
    state = play(GameState.new(rules, names), "cut 3C 9H", "starter 5D")
    first = state.table.scores[1]  # 0, or the solo's 60
    variant = rules.variant.value

    def began(dealer: int, pone: int) -> float:  # the dealer's side's chance as the play began
        return odds.in_deal(variant, dealer, pone, Moment.STARTER)

    state = play(state, f"peg {names[1]} 30")
    assert odds.win_probability(state) == (began(0, first + 30), 1 - began(0, first + 30))
    state = play(state, "play 2C")  # pegs nothing
    assert state.table.scores == (0, first + 30)
    assert odds.win_probability(state) == (began(0, first + 30), 1 - began(0, first + 30))
    state = play(state, "play 3C", f"peg {names[1]} 20", f"peg {names[0]} 5")
    assert odds.win_probability(state) == (began(5, first + 50), 1 - began(5, first + 50))
    state = play(state, "play 10S")  # fifteen 2 for the side that laid it, as the cards peg
    assert sum(state.table.scores) == 5 + first + 50 + 2
    assert odds.win_probability(state) == (began(5, first + 50), 1 - began(5, first + 50))


def test_muggins_on_a_card_in_the_play_is_taken_off_like_the_card_s_points() -> None:
    rules = replace(Rules.four_handed(), muggins=True, muggins_in_play=True)
    state = play(GameState.new(rules, ("Ann", "Bob")), "cut 3C 9H", "starter 5D", "peg Bob 30")
    # Ann's side lays the fifteen but claims 0: Bob's side takes the 2 (muggins)
    state = play(state, "play 10S", "claim 0", "play 5C")
    assert state.table.scores == (0, 32)
    began = odds.in_deal("four-handed", 0, 30, Moment.STARTER)
    assert odds.win_probability(state) == (began, 1 - began)


def test_two_against_one_has_a_table_per_dealer_seat() -> None:
    # the solo starts on 60. At 0-60 the pair is ahead when one of its seats deals (65.6%
    # with its first seat dealing, 50.7% with its second), but when the solo deals, the solo
    # is ahead (59.8%: `pegboard odds --variant two-against-one --dealer-seat 2 60 0`)
    target, tables = odds.load_table("two-against-one")
    cells = [tables[k][d * target + p] for k, (d, p) in enumerate([(0, 60), (0, 60), (60, 0)])]
    assert cells == [42973, 33204, 39170]
    pair_deals = [odds.chances("two-against-one", 0, 60, position=k) for k in (0, 1)]
    solo_deals = odds.chances("two-against-one", 60, 0, position=2)
    assert [round(pair, 3) for pair, _ in pair_deals] == [0.656, 0.507]
    assert solo_deals[0] == 39170 / odds.SCALE and round(solo_deals[0], 3) == 0.598
    with pytest.raises(OddsError, match=r"no dealer position 3"):
        odds.start_of_deal("two-against-one", 0, 60, position=3)


def play(state: GameState, *texts: str) -> GameState:
    for text in texts:
        state, _ = apply(state, parse_command(text, state.names))
    return state


def test_win_probability_follows_a_game() -> None:
    state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
    assert odds.win_probability(state) is None  # before the cut
    state = play(state, "cut 9H 3C")  # Bob deals
    ann, bob = odds.win_probability(state) or (0.0, 0.0)
    assert bob == pytest.approx(odds.start_of_deal("six-card", 0, 0), abs=1e-9)
    assert ann + bob == 1.0
    state = play(state, "starter JD")  # two for his heels
    assert state.phase is Phase.PLAY
    after = odds.win_probability(state)
    assert after is not None and after[1] == odds.in_deal(
        "six-card", 2, 0, Moment.STARTER, heels=True
    )
    state = play(state, "play 5H")
    laid = odds.win_probability(state)
    assert laid is not None and laid[1] == odds.in_deal("six-card", 2, 0, Moment.PLAY, 1)
    state = play(state, "next")  # the rest of the play pegged by hand: the show
    shown = odds.win_probability(state)
    assert shown is not None and shown[1] == odds.in_deal("six-card", 2, 0, Moment.SHOW, 0)


def test_win_probability_is_none_for_three_players_and_after_the_game() -> None:
    three = play(GameState.new(Rules.three_handed()), "cut 9H 3C KD")
    assert three.phase is Phase.STARTER and odds.win_probability(three) is None
    state = play(GameState.new(Rules.six_card(), ("Ann", "Bob")), "cut 9H 3C", "peg Ann 61")
    state = play(state, "peg Ann 60")
    assert state.phase is Phase.GAME_OVER and odds.win_probability(state) is None


@pytest.mark.parametrize(
    ("commands", "seat"),
    [
        pytest.param(("cut 3C 9H", "deal"), 1, id="the-pairs-second-seat"),
        pytest.param(("cut 9H 3C",), 2, id="the-solo"),
    ],
)
def test_win_probability_reads_the_dealer_seats_table_in_two_against_one(
    commands: tuple[str, ...], seat: int
) -> None:
    rules = Rules.two_against_one()
    state = play(GameState.new(rules, ("Pair", "Solo")), *commands)
    assert state.phase is Phase.STARTER and state.table.dealer == seat
    side = rules.side_of(seat)
    dealer, pone = state.table.scores[side], state.table.scores[1 - side]
    chances = odds.win_probability(state)
    expected = odds.start_of_deal("two-against-one", dealer, pone, position=seat)
    assert chances is not None and chances[side] == expected
    assert expected != odds.start_of_deal("two-against-one", dealer, pone, position=0)


def test_win_probability_in_the_show_counts_the_hands_shown() -> None:
    state = play(GameState.new(Rules.six_card(), ("Ann", "Bob")), "cut 9H 3C", "starter 5D")
    state = play(state, "next", "show 8")  # Bob deals: Ann's hand is shown first
    assert state.phase is Phase.SHOW and state.table.show_step == 1
    assert state.table.scores == (8, 0)
    chances = odds.win_probability(state)
    expected = odds.in_deal("six-card", 0, 8, Moment.SHOW, 1)
    assert chances is not None and chances[1] == expected
    assert expected != odds.in_deal("six-card", 0, 8, Moment.SHOW, 0)
