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
