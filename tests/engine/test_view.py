"""The read-only view: the words it carries for the screens."""

from __future__ import annotations

import pytest

from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, apply
from pegboard.engine.rules import Rules
from pegboard.engine.view import render_pegs, render_view

NAMES = ("Ann", "Bob")


def _state(commands: list[str]) -> GameState:
    state = GameState.new(Rules.six_card(), NAMES)
    for text in commands:
        state, _ = apply(state, parse_command(text, state.names))
    return state


@pytest.mark.parametrize(
    ("bob", "words"),
    [
        pytest.param(95, "(1 game point)", id="a-plain-win-is-1-point"),
        pytest.param(75, "(2 game points)", id="a-lurch-is-2-points"),
    ],
)
def test_game_over_says_game_point_in_the_singular_for_one(bob: int, words: str) -> None:
    pegs = ["cut 9H 3C", f"peg Bob {bob - 61}", "peg Bob 61", "peg Ann 61", "peg Ann 60"]
    view = render_view(_state(pegs))
    assert words in view.prompt


def test_a_hand_that_pegs_nothing_still_has_its_count() -> None:
    state = _state(["cut 9H 3C", "starter 7C", "next"])
    state, events = apply(state, parse_command("show AH 3D 9S QC", NAMES))
    (hand,) = render_pegs(events, render_view(state))
    assert (hand.name, hand.points, hand.score, hand.source) == ("Ann", 0, 0, "hand")
    assert hand.calls == ("nineteen",)
