"""The tie-break chain, step by step, on nights made by hand (every game 121 to the score
given): game points, games won, net spread, plus points, head to head, a playoff."""

from __future__ import annotations

from pegboard.tourney.night import Correction, Result, correct
from pegboard.tourney.standings import Line, scorecards, standings

from .build import night_of


def table(lines: list[Line]) -> list[tuple[int, str, str]]:
    return [(line.place, line.name, line.decided_by) for line in lines]


def test_a_win_is_2_game_points_a_skunk_3_and_the_spread_is_the_margin() -> None:
    night = night_of([[("Ann", "Bob", 91), ("Cy", "Di", 90)], [("Ann", "Cy", 60)]])
    lines = {line.name: line for line in standings(night)}
    assert (lines["Ann"].game_points, lines["Ann"].spread, lines["Ann"].skunks) == (5, 91, 1)
    assert (lines["Bob"].game_points, lines["Bob"].spread) == (0, -30)
    assert (lines["Cy"].game_points, lines["Cy"].spread, lines["Cy"].plus) == (3, -30, 31)
    assert (lines["Di"].game_points, lines["Di"].spread) == (0, -31)


def test_game_points_come_first() -> None:
    night = night_of([[("Ann", "Bob", 100), ("Cy", "Di", 80)]])
    assert table(standings(night)) == [
        (1, "Cy", ""),
        (2, "Ann", ""),
        (3, "Bob", "spread"),  # both lost: the spread tells them apart
        (4, "Di", "spread"),
    ]


def test_games_won_break_a_tie_on_game_points() -> None:
    # Ann: two skunks (6 points, 2 wins); Bob: three plain wins (6 points, 3 wins)
    night = night_of(
        [
            [("Ann", "X1", 50), ("Bob", "X2", 120)],
            [("Ann", "X3", 50), ("Bob", "X4", 120)],
            [("X5", "Ann", 120), ("Bob", "X6", 120)],
        ]
    )
    top = table(standings(night))[:2]
    assert top == [(1, "Bob", "games won"), (2, "Ann", "games won")]


def test_net_spread_breaks_a_tie_on_games_won() -> None:
    night = night_of([[("Ann", "X1", 100), ("Bob", "X2", 110)]])
    assert table(standings(night))[:2] == [(1, "Ann", "spread"), (2, "Bob", "spread")]


def test_plus_points_break_a_tie_on_net_spread() -> None:
    # Ann won by 30 and lost by 10, Bob won by 25 and lost by 5: both +20 net
    night = night_of(
        [
            [("Ann", "X1", 91), ("Bob", "X2", 96)],
            [("X3", "Ann", 111), ("X4", "Bob", 116)],
        ]
    )
    lines = standings(night)
    assert [(x.name, x.spread, x.plus) for x in lines[:2]] == [("Ann", 20, 30), ("Bob", 20, 25)]
    assert table(lines)[:2] == [(1, "Ann", "plus points"), (2, "Bob", "plus points")]


def test_head_to_head_breaks_a_tie_on_every_sum() -> None:
    night = night_of([[("Bob", "Ann", 100)], [("Ann", "X1", 100)], [("X2", "Bob", 100)]])
    lines = standings(night)
    assert table(lines)[1:3] == [(2, "Bob", "head to head"), (3, "Ann", "head to head")]


def test_a_three_way_tie_is_settled_by_head_to_head() -> None:
    # Ann, Bob and Cy each win two and lose two by 21: Ann beat Bob and Cy, Bob beat Cy.
    night = night_of(
        [
            [("Ann", "Bob", 100), ("Cy", "Di", 100)],
            [("Ann", "Cy", 100), ("Bob", "Fay", 100)],
            [("Bob", "Cy", 100), ("Di", "Ann", 100)],
            [("Eve", "Ann", 100), ("Di", "Bob", 100)],
            [("Cy", "Eve", 100)],
        ]
    )
    lines = standings(night)
    assert [(x.name, x.game_points, x.won, x.spread, x.plus) for x in lines[1:4]] == [
        ("Ann", 4, 2, 0, 42),
        ("Bob", 4, 2, 0, 42),
        ("Cy", 4, 2, 0, 42),
    ]
    assert table(lines) == [
        (1, "Di", "spread"),
        (2, "Ann", "head to head"),
        (3, "Bob", "head to head"),
        (4, "Cy", "head to head"),
        (5, "Eve", ""),
        (6, "Fay", ""),
    ]
    assert not any(x.playoff for x in lines)


def test_a_head_to_head_circle_needs_a_one_game_playoff() -> None:
    # Ann beat Bob, Bob beat Cy, Cy beat Ann, each by 21: level on everything
    night = night_of([[("Ann", "Bob", 100)], [("Bob", "Cy", 100)], [("Cy", "Ann", 100)]])
    lines = standings(night)
    assert [(x.place, x.name, x.decided_by, x.playoff) for x in lines] == [
        (1, "Ann", "playoff", True),
        (1, "Bob", "playoff", True),
        (1, "Cy", "playoff", True),
    ]


def test_two_who_never_met_and_are_level_need_a_playoff() -> None:
    night = night_of([[("Ann", "X1", 100), ("Bob", "X2", 100)]])
    lines = standings(night)
    assert [(x.place, x.name, x.playoff) for x in lines[:3]] == [
        (1, "Ann", True),
        (1, "Bob", True),
        (3, "X1", True),
    ]


def test_a_level_part_of_a_tie_is_looked_at_again_on_its_own() -> None:
    # four level on every sum (1 win 1 loss by 21): Ann beat Bob, Bob beat Cy; Cy and Di did
    # not meet: Ann 1, Bob 1, Cy 0, Di 0 among the four; then Ann beat Bob on their own, and
    # Cy and Di stay level
    night = night_of(
        [
            [("Ann", "Bob", 100), ("Di", "X1", 100)],
            [("Bob", "Cy", 100), ("X2", "Di", 100)],
            [("Cy", "X3", 100), ("X4", "Ann", 100)],
        ]
    )
    lines = [x for x in standings(night) if not x.name.startswith("X")]
    assert [(x.place, x.name, x.decided_by) for x in lines] == [
        (3, "Ann", "head to head"),
        (4, "Bob", "head to head"),
        (5, "Cy", "playoff"),
        (5, "Di", "playoff"),
    ]


def test_a_bye_is_a_win_with_the_nights_bye_spread() -> None:
    night = night_of([[("Ann", "Bob", 100)]], byes=["Cy"], bye_spread=15)
    cy = scorecards(night)["Cy"]
    assert [(x.opponent, x.won, x.game_points, x.spread) for x in cy.lines] == [(None, True, 2, 15)]
    line = next(x for x in standings(night) if x.name == "Cy")
    assert (line.played, line.byes, line.won, line.lost, line.game_points) == (0, 1, 1, 0, 2)


def test_cards_keep_running_totals() -> None:
    night = night_of([[("Ann", "Bob", 100)], [("Cy", "Ann", 80)], [("Ann", "Di", 30)]])
    card = scorecards(night)["Ann"]
    assert [(x.opponent, x.total_points, x.total_spread) for x in card.lines] == [
        ("Bob", 2, 21),
        ("Cy", 2, -20),
        ("Di", 5, 71),
    ]


def test_a_correction_changes_the_cards_and_standings_and_shows_who_when_why() -> None:
    night = night_of([[("Ann", "Bob", 100)]])
    fixed = correct(
        night,
        Correction(Result(1, 1, "Bob", "Ann", 121, 85), "Pat", "21:40", "players swapped"),
    )
    assert [x.name for x in standings(night)] == ["Ann", "Bob"]
    lines = standings(fixed)
    assert [(x.name, x.game_points, x.corrected) for x in lines] == [
        ("Bob", 3, True),
        ("Ann", 0, True),
    ]
    (line,) = scorecards(fixed)["Ann"].lines
    assert (line.won, line.against, line.spread) == (False, 121, -36)
    assert [(c.who, c.when, c.why) for c in line.corrections] == [
        ("Pat", "21:40", "players swapped")
    ]
    assert line.to_payload()["corrections"] == [
        {"who": "Pat", "when": "21:40", "why": "players swapped"}
    ]
