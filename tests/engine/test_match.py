"""The match: best of three by game points, first to two, single; who deals first."""

from __future__ import annotations

import pytest

from pegboard.engine.match import GameResult, Match, MatchFormat
from pegboard.engine.rules import Rules
from pegboard.errors import ConfigError

SIX = Rules.six_card()


def played(rules: Rules, fmt: MatchFormat, *games: tuple[int, int]) -> Match:
    """A match after games given as (winner, loser's score)."""
    match = Match.start(rules, fmt)
    for number, (winner, loser) in enumerate(games):
        scores = [loser, loser]
        scores[winner] = rules.target
        match = match.record(GameResult.of(rules, scores, first_dealer=number % 2))
    return match


@pytest.mark.parametrize(
    ("games", "over", "winner"),
    [
        pytest.param([(0, 50), (0, 100)], True, 0, id="4-0-after-two-games"),
        pytest.param([(0, 100), (0, 80)], True, 0, id="3-0-a-tie-would-lose-on-games"),
        pytest.param([(0, 100), (0, 100)], False, None, id="2-0-plain-wins-play-on"),
        pytest.param([(0, 50)], False, None, id="3-0-after-one-game"),
        pytest.param([(0, 80), (1, 100), (1, 100)], True, 1, id="2-2-tie-broken-by-games-won"),
        pytest.param([(0, 50), (1, 80), (1, 100)], True, 1, id="3-3-goes-to-two-games-won"),
    ],
)
def test_best_of_three_by_game_points(
    games: list[tuple[int, int]], over: bool, winner: int | None
) -> None:
    match = played(SIX, MatchFormat.BEST_OF_THREE, *games)
    assert match.is_over is over and match.winner == winner


def test_a_tie_on_points_goes_to_more_games_won() -> None:
    match = played(SIX, MatchFormat.BEST_OF_THREE, (0, 80), (1, 100), (1, 100))
    assert match.points == (2, 2) and match.games_won == (1, 2) and match.winner == 1


def test_a_fourth_double_skunk_point_keeps_the_match_open_longer() -> None:
    rules = Rules.six_card(double_skunk_points=4)
    match = played(rules, MatchFormat.BEST_OF_THREE, (0, 80), (0, 100))
    assert match.points == (3, 0) and not match.is_over  # 0 + 4 would still beat 3


def test_first_to_two_games_ignores_game_points() -> None:
    match = played(SIX, MatchFormat.FIRST_TO_TWO, (0, 10), (1, 100))
    assert not match.is_over
    assert played(SIX, MatchFormat.FIRST_TO_TWO, (0, 10), (1, 100), (1, 100)).winner == 1


def test_first_to_three_is_a_playoffs_best_of_five_by_games_won() -> None:
    """Five games at most: the first side to win three, whatever the game points (a double
    skunk counts as one game won, as the tournament's playoff counts it)."""
    games = [(0, 10), (0, 10), (1, 100), (1, 100)]
    match = played(SIX, MatchFormat.FIRST_TO_THREE, *games)
    assert match.games_won == (2, 2) and match.points == (6, 2) and not match.is_over
    assert played(SIX, MatchFormat.FIRST_TO_THREE, *games, (1, 100)).winner == 1
    assert played(SIX, MatchFormat.FIRST_TO_THREE, (0, 100), (0, 100), (0, 100)).winner == 0
    assert MatchFormat.parse("first-to-three").wins_needed == 3
    assert MatchFormat.BEST_OF_THREE.wins_needed is None


def test_a_single_game_is_a_match() -> None:
    assert played(SIX, MatchFormat.SINGLE, (1, 100)).winner == 1


def test_no_more_games_after_the_end() -> None:
    match = played(SIX, MatchFormat.SINGLE, (1, 100))
    with pytest.raises(ValueError, match="already over"):
        match.record(GameResult.of(SIX, (121, 3), first_dealer=0))


def test_game_two_is_dealt_by_the_other_side_and_game_three_is_cut() -> None:
    match = played(SIX, MatchFormat.BEST_OF_THREE)
    assert match.next_first_dealer(SIX) is None
    match = match.record(GameResult.of(SIX, (121, 100), first_dealer=1))
    assert match.next_first_dealer(SIX) == 0
    match = match.record(GameResult.of(SIX, (100, 121), first_dealer=0))
    assert match.next_first_dealer(SIX) is None


def test_three_players_have_no_game_points() -> None:
    rules = Rules.three_handed()
    assert Match.start(rules).format is MatchFormat.SINGLE
    result = GameResult.of(rules, (121, 40, 95), first_dealer=0)
    assert result.game_points is None
    assert [lurch.value for lurch in result.lurches] == ["none", "double-skunked", "none"]
    with pytest.raises(ConfigError, match="best of three counts game points"):
        Match.start(rules, MatchFormat.BEST_OF_THREE)


def test_a_result_needs_exactly_one_winner() -> None:
    with pytest.raises(ValueError, match="exactly one side must reach the target 121"):
        GameResult.of(SIX, (100, 110), first_dealer=0)


def test_format_names_parse_and_unknown_ones_are_refused() -> None:
    assert MatchFormat.parse("Best_of_Three") is MatchFormat.BEST_OF_THREE
    with pytest.raises(ConfigError, match="unknown match format: 'bo5'"):
        MatchFormat.parse("bo5")
