"""A night's steps: entering, dropping out, seating, results and corrections, each refused in
one line (naming the input and what was expected) with the night unchanged."""

from __future__ import annotations

import random

import pytest

from pegboard.tourney.night import (
    Correction,
    Night,
    Result,
    TourneyError,
    correct,
    drop,
    enter,
    report,
    seat,
)
from pegboard.tourney.standings import scorecards


def with_players(*names: str, games: int = 9, boards: tuple[str, ...] = ()) -> Night:
    night = Night("club", games, boards=boards)
    for name in names:
        night = enter(night, name)
    return night


def finish(night: Night) -> Night:
    """Every table of the last round won by its first-named player, 121-100."""
    number = len(night.rounds)
    for p in night.playing(number):
        night = report(night, Result(number, p.table, p.first, p.second, 121, 100))
    return night


def test_tables_are_played_on_the_nights_boards_in_order() -> None:
    night = seat(with_players(*"ABCDEF", boards=("pub/b1", "pub/b2")), random.Random(3))
    assert [(p.table, p.board) for p in night.rounds[0].pairings] == [
        (1, "pub/b1"),
        (2, "pub/b2"),
        (3, ""),
    ]


def test_a_late_arrival_joins_the_next_round_and_a_drop_out_leaves_it() -> None:
    night = finish(seat(with_players("Ann", "Bob", "Cy", "Di"), random.Random(1)))
    night = drop(enter(night, "Eve"), "Bob")
    assert night.present(2) == ["Ann", "Cy", "Di", "Eve"]
    night = finish(seat(night, random.Random(1)))
    seated = {n for p in night.rounds[1].pairings for n in p.players}
    assert seated == {"Ann", "Cy", "Di", "Eve"}
    cards = scorecards(night)
    assert [x.round for x in cards["Eve"].lines] == [2]
    assert [x.round for x in cards["Bob"].lines] == [1]


def test_an_odd_number_gives_one_bye_and_nobody_a_second_while_others_have_none() -> None:
    for seed in range(20):
        night = with_players("Ann", "Bob", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ida", games=7)
        byes = []
        for _ in range(7):
            night = finish(seat(night, random.Random(seed * 7 + len(byes))))
            byes.append(night.rounds[-1].bye)
        assert len(set(byes)) == 7 and None not in byes


def test_the_movement_seats_new_opponents_for_as_many_games_as_tables() -> None:
    night = with_players(*[f"P{i}" for i in range(11)], games=6)
    night = finish(seat(night, random.Random(5)))
    for _ in range(5):
        night = finish(seat(night, random.Random(5), by_movement=True))
    assert [s.movement for s in night.rounds] == [False] + [True] * 5
    met = [frozenset(p.players) for s in night.rounds for p in s.pairings]
    assert len(met) == len(set(met)) == 6 * 5
    assert len({s.bye for s in night.rounds}) == 6


def test_the_movement_gives_way_to_the_draw_when_the_field_changes() -> None:
    night = finish(seat(with_players(*"ABCDEF"), random.Random(2)))
    night = seat(enter(night, "G"), random.Random(2), by_movement=True)
    assert night.rounds[-1].movement is False


@pytest.mark.parametrize(
    ("name", "message"),
    [
        pytest.param("Ann", r"^cannot enter Ann: already entered$", id="twice"),
        pytest.param("Ann B", r"^cannot enter 'Ann B': a player's name is one word", id="space"),
        pytest.param("A,B", r"^cannot enter 'A,B': a player's name is one word", id="comma"),
        pytest.param("", r"^cannot enter '': ", id="empty"),
        pytest.param(
            "Bartholomew", r"^cannot enter 'Bartholomew': a name has at most 10 ", id="long"
        ),
        pytest.param("An\x07n", r"^cannot enter 'An\\x07n': ", id="control"),
    ],
)
def test_a_name_a_board_cannot_show_is_refused(name: str, message: str) -> None:
    night = with_players("Ann")
    with pytest.raises(TourneyError, match=message):
        enter(night, name)


def test_bad_steps_are_refused_in_one_line_and_change_nothing() -> None:
    night = seat(with_players("Ann", "Bob", "Cy", "Di", games=1), random.Random(1))
    before = night
    first = night.rounds[0].pairings[0]
    steps = [
        (lambda: drop(night, "Zed"), r"^cannot drop Zed: not a player still in the night"),
        (lambda: seat(night, random.Random(1)), r"^cannot seat round 2: the night has 1 games$"),
        (lambda: enter(night, "Eve"), r"^cannot enter Eve: all 1 games are seated$"),
        (
            lambda: report(night, Result(1, 9, "Ann", "Bob", 121, 90)),
            r"^result for a pairing that does not exist: round 1 table 9 \(1 round\(s\) "
            r"seated, round 1 has tables 1-2\)$",
        ),
        (
            lambda: report(night, Result(1, first.table, "Ann", "Zed", 121, 90)),
            r"^result for round 1 table \d names Ann v Zed, but that table is ",
        ),
        (
            lambda: report(night, Result(1, 1, first.first, first.second, 120, 90)),
            r"^result: the winner's score must reach 121, got 120$",
        ),
        (
            lambda: report(night, Result(1, 1, first.first, first.second, 121, 121)),
            r"^result: the loser's score must be 0 to 120, got 121$",
        ),
        (
            lambda: correct(
                night, Correction(Result(1, 1, first.first, first.second, 121, 9), "", "t", "w")
            ),
            r"^a correction needs who made it",
        ),
        (
            lambda: correct(
                night, Correction(Result(1, 1, first.first, first.second, 121, 9), "Pat", "t", " ")
            ),
            r"^a correction needs a reason",
        ),
    ]
    for step, message in steps:
        with pytest.raises(TourneyError, match=message):
            step()
        assert night == before
    with pytest.raises(TourneyError, match=r"^games must be a whole number from 1 to 30, got 0$"):
        Night("club", 0)


def test_a_duplicate_result_is_refused_and_a_round_is_seated_only_when_the_last_is_done() -> None:
    night = seat(with_players("Ann", "Bob", "Cy", "Di"), random.Random(1))
    p = night.rounds[0].pairings[0]
    night = report(night, Result(1, p.table, p.first, p.second, 121, 100, "pub/b1", "g-1"))
    with pytest.raises(TourneyError, match=r"^duplicate result for round 1 table 1: it already "):
        report(night, Result(1, p.table, p.second, p.first, 121, 100))
    with pytest.raises(TourneyError, match=r"^cannot seat round 2: round 1 is still playing at "):
        seat(night, random.Random(1))
    q = night.rounds[0].pairings[1]
    with pytest.raises(TourneyError, match=r"^duplicate game 'g-1': already counted$"):
        report(night, Result(1, q.table, q.first, q.second, 121, 100, "pub/b1", "g-1"))
    assert night.final(1, p.table) is not None
    assert night.final(1, p.table).source == "board pub/b1, game g-1"  # type: ignore[union-attr]
