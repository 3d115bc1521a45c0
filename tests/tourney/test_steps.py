"""The stored steps' payloads: each reads back as the value it was written from (the store's
contract), and a payload of the wrong shape is refused in one line."""

from __future__ import annotations

import random

import pytest

from pegboard.tourney.night import Correction, Night, Result, TourneyError, enter, seat
from pegboard.tourney.steps import (
    Tourney,
    apply_step,
    correction_payload,
    read_correction,
    read_result,
    read_seating,
    result_payload,
    seating_payload,
)


def test_payloads_round_trip() -> None:
    night = Night("club", 3, boards=("pub/b1",))
    for name in ("Ann", "Bob", "Cy"):
        night = enter(night, name)
    seating = seat(night, random.Random(1)).rounds[0]
    assert read_seating(seating_payload(seating)) == seating
    result = Result(1, 1, "Ann", "Bob", 121, 77, "pub/b1", "g-1", "20:00")
    assert read_result(result_payload(result)) == result
    fix = Correction(result, "Pat", "21:00", "misread")
    assert read_correction(correction_payload(fix)) == fix


@pytest.mark.parametrize(
    ("kind", "payload", "message"),
    [
        pytest.param("games", {"games": True}, r"^a step's 'games' must be int, got True$", id="b"),
        pytest.param("boards", {"boards": [1]}, r"^a step's 'boards' must be names", id="boards"),
        pytest.param("seat", {"pairings": [{}]}, r"^a step's 'table' must be int", id="seat"),
        pytest.param("lock", {"on": "yes"}, r"^a step's 'on' must be bool", id="lock"),
        pytest.param("advance", {}, r"^no playoff bracket yet", id="advance"),
    ],
)
def test_a_payload_of_the_wrong_shape_is_refused(
    kind: str, payload: dict[str, object], message: str
) -> None:
    with pytest.raises(TourneyError, match=message):
        apply_step(Tourney(Night("club", 3)), kind, payload)


def test_a_playoff_match_goes_to_who_wins_more_than_half_its_games() -> None:
    from pegboard.tourney.bracket import Bracket
    from pegboard.tourney.steps import PlayoffGame, add_playoff_game

    tourney = Tourney(Night("club", 3), Bracket.seeded(["Ann", "Bob", "Cy", "Di"], best_of=3))
    # round 1: Ann v Di (slot 0), Bob v Cy (slot 1)
    tourney = add_playoff_game(tourney, PlayoffGame(1, 0, "Di", "g1"))
    tourney = add_playoff_game(tourney, PlayoffGame(1, 0, "Ann", "g2"))
    assert tourney.bracket is not None and tourney.bracket.match(1, 0).winner is None  # type: ignore[union-attr]
    tourney = add_playoff_game(tourney, PlayoffGame(1, 0, "Ann", "g3"))
    assert tourney.bracket.match(1, 0).winner == "Ann"  # type: ignore[union-attr]
    assert tourney.bracket.match(2, 0).high == "Ann"  # type: ignore[union-attr]
    for bad, message in (
        (PlayoffGame(1, 0, "Ann", "g4"), r"^playoff round 1 match 1 was won by Ann already$"),
        (PlayoffGame(1, 1, "Ann", "g4"), r"^'Ann' is not playing round 1 match 2 \(Bob v Cy\)$"),
        (PlayoffGame(1, 1, "Bob", "g3"), r"^duplicate game 'g3': already counted$"),
        (PlayoffGame(2, 0, "Ann", "g5"), r"^no playoff round 2 match 1 being played$"),
    ):
        with pytest.raises(TourneyError, match=message):
            add_playoff_game(tourney, bad)
    with pytest.raises(TourneyError, match=r"^no playoff bracket yet"):
        add_playoff_game(Tourney(Night("club", 3)), PlayoffGame(1, 0, "Ann", "g"))
