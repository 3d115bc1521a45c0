"""The league table: known answers for match points, spread and the order."""

from __future__ import annotations

import pytest

from pegboard.league.standings import (
    FinishedGame,
    LeagueError,
    SideResult,
    game_spread,
    match_points,
    read_game,
    standings,
)


def game(game_id: str, *sides: tuple[str, int, str], target: int = 121) -> FinishedGame:
    top = max(score for _, score, _ in sides)
    results = tuple(SideResult(n, s, s == top, lurch) for n, s, lurch in sides)
    variant = "six-card" if target == 121 else "five-card"
    return FinishedGame(game_id, "red-lion", "t1", variant, target, results, game_id)


@pytest.mark.parametrize(
    ("loser", "lurch", "points", "spread"),
    [
        pytest.param(91, "none", 2, 30, id="at-the-lurch-line-a-plain-win"),
        pytest.param(90, "lurched", 3, 31, id="lurched-by-more-than-30"),
        pytest.param(50, "double-skunked", 3, 71, id="double-skunk-counts-as-a-lurch"),
        pytest.param(120, "none", 2, 1, id="by-one"),
    ],
)
def test_match_points_and_spread_of_one_game(
    loser: int, lurch: str, points: int, spread: int
) -> None:
    g = game("g", ("Ann", 121, "none"), ("Bob", loser, lurch))
    assert (match_points(g, g.sides[0]), match_points(g, g.sides[1])) == (points, 0)
    assert (game_spread(g, g.sides[0]), game_spread(g, g.sides[1])) == (spread, -spread)


def test_the_winners_score_past_the_game_hole_does_not_count() -> None:
    g = game("g", ("Ann", 125, "none"), ("Bob", 100, "none"))
    assert game_spread(g, g.sides[0]) == 21


def test_five_card_uses_the_boards_own_lurch_verdict() -> None:
    g = game("g", ("Ann", 61, "none"), ("Bob", 44, "lurched"), target=61)
    assert match_points(g, g.sides[0]) == 3 and game_spread(g, g.sides[0]) == 17


def test_three_players_earn_three_only_when_both_losers_are_lurched() -> None:
    one = game("a", ("Ann", 121, "none"), ("Bob", 95, "none"), ("Cat", 60, "double-skunked"))
    both = game("b", ("Ann", 121, "none"), ("Bob", 80, "lurched"), ("Cat", 60, "double-skunked"))
    assert match_points(one, one.sides[0]) == 2 and match_points(both, both.sides[0]) == 3
    assert [game_spread(one, s) for s in one.sides] == [26, -26, -61]


def test_a_known_table_in_the_order_match_points_games_won_spread_name() -> None:
    games = [
        game("1", ("Ann", 121, "none"), ("Bob", 80, "lurched")),  # Ann 3, +41
        game("2", ("Bob", 121, "none"), ("Cat", 100, "none")),  # Bob 2, +21
        game("3", ("Cat", 121, "none"), ("Dan", 119, "none")),  # Cat 2, +2
        game("4", ("Dan", 121, "none"), ("Eve", 120, "none")),  # Dan 2, +1
        game("5", ("Eve", 121, "none"), ("Ann", 110, "none")),  # Eve 2, +11
        game("5", ("Eve", 121, "none"), ("Ann", 110, "none")),  # the same game again
    ]
    table = [(s.name, s.played, s.won, s.match_points, s.spread) for s in standings(games)]
    assert table == [
        ("Ann", 2, 1, 3, 30),  # the lurch's third point puts Ann first
        ("Eve", 2, 1, 2, 10),  # the rest tie on points and games won: spread decides
        ("Dan", 2, 1, 2, -1),
        ("Cat", 2, 1, 2, -19),
        ("Bob", 2, 1, 2, -20),
    ]
    assert standings(reversed(games)) == standings(games)


def test_a_bad_payload_is_refused_with_what_was_expected() -> None:
    with pytest.raises(LeagueError, match=r"not a finished game: .*exactly one of them won"):
        read_game(
            {"game_id": "g", "variant": "six-card", "target": 121,
             "sides": [{"name": "A", "score": 121, "won": True, "lurch": "none"},
                       {"name": "B", "score": 121, "won": True, "lurch": "none"}]},
            "v", "b",
        )  # fmt: skip
    with pytest.raises(LeagueError, match=r"not a finished game: \{'game_id': 'g'\}"):
        read_game({"game_id": "g"}, "v", "b")


def test_games_won_comes_before_spread_where_they_disagree() -> None:
    games = [
        *(game(f"x{i}", ("Xia", 121, "none"), ("Pat", 120, "none")) for i in range(3)),
        *(game(f"y{i}", ("Yan", 121, "none"), ("Quy", 50, "double-skunked")) for i in range(2)),
    ]
    table = [(s.name, s.won, s.match_points, s.spread) for s in standings(games)]
    assert table[:2] == [
        ("Xia", 3, 6, 3),  # three plain wins by a point: 6 match points, 3 games won
        ("Yan", 2, 6, 142),  # two 3-point wins: 6 too, and far the better spread, but 2 won
    ]


def finished(*sides: tuple[str, int, bool]) -> dict[str, object]:
    return {
        "game_id": "g",
        "variant": "six-card",
        "target": 121,
        "sides": [{"name": n, "score": s, "won": w, "lurch": "none"} for n, s, w in sides],
    }


@pytest.mark.parametrize(
    ("sides", "why"),
    [
        pytest.param(
            (("Ann", 121, True), ("Bob", 121, False)),
            "the loser 'Bob' scored 121, the target 121 or more",
            id="loser-at-the-target",
        ),
        pytest.param(
            (("Ann", 121, True), ("Bob", 130, False)),
            "the loser 'Bob' scored 130, the target 121 or more",
            id="loser-past-the-target",
        ),
        pytest.param(
            (("Ann", 100, True), ("Bob", 110, False)),
            "the loser 'Bob' scored 110, as much as the winner 'Ann' (100) or more",
            id="loser-above-the-winner",
        ),
        pytest.param(
            (("Ann", 121, True), ("Bob", 90, False), ("Cat", 125, False)),
            "the loser 'Cat' scored 125, the target 121 or more",
            id="three-sides-second-loser",
        ),
        pytest.param(
            (("Ann", 121, True), ("Bob", -3, False)),
            "'Bob' scored -3, below 0",
            id="below-zero",
        ),
    ],
)
def test_a_game_no_board_could_finish_is_refused(
    sides: tuple[tuple[str, int, bool], ...], why: str
) -> None:
    with pytest.raises(LeagueError, match=r"not a finished game: .*") as raised:
        read_game(finished(*sides), "v", "b")
    assert f"({why}; expected every loser below the target and below the winner)" in str(
        raised.value
    )


def test_a_close_game_stands() -> None:
    game = read_game(finished(("Ann", 121, True), ("Bob", 120, False)), "v", "b")
    assert [s.score for s in game.sides] == [121, 120]
