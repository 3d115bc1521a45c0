"""Win probability at moments of a game: pegs by hand, points still to come in the play."""

from __future__ import annotations

import pytest

from pegboard.engine import odds
from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, Phase, apply
from pegboard.engine.rules import Rules


def play(state: GameState, *texts: str) -> GameState:
    for text in texts:
        state, _ = apply(state, parse_command(text, state.names))
    return state


def chances(state: GameState) -> tuple[float, ...]:
    found = odds.win_probability(state)
    assert found is not None, state.phase
    return found


@pytest.mark.parametrize(
    ("rules", "cut"),
    [
        pytest.param(Rules.six_card(), "cut 9C 3D", id="six-card"),
        pytest.param(Rules.four_handed(), "cut 9C 3D", id="four-handed"),
    ],
)
def test_a_peg_by_hand_before_the_first_card_counts(rules: Rules, cut: str) -> None:
    start = play(GameState.new(rules, ("Ann", "Bob")), cut, "starter JC")
    assert start.phase is Phase.PLAY and start.table.play is not None
    assert not start.table.play.laid
    before = chances(start)
    for side, name in enumerate(("Ann", "Bob")):
        mine = [chances(play(start, f"peg {name} {n}"))[side] for n in range(1, 31)]
        # more points for a side at the same moment never lower its chance
        assert all(a <= b for a, b in zip([before[side], *mine], mine, strict=False)), name
        assert mine[9] > before[side] + 0.05, name  # a peg of 10 raises it
