"""The play screen's top row shows every side's score whole: three-handed too, long names cut
first, a score never."""

from __future__ import annotations

import pytest

from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, apply
from pegboard.engine.rules import Rules
from pegboard.engine.view import GameView, render_view
from pegboard.ui import paint
from pegboard.ui.paint import Style
from pegboard.ui.screens import _score_labels, render_play

THREE = ["cut 9H 3C 4D", "starter 5C", "play 5H", "play 10D", "play 5S"]


def _view(names: tuple[str, ...], commands: list[str]) -> GameView:
    state = GameState.new(Rules.three_handed(), names)
    for text in commands:
        state, _ = apply(state, parse_command(text, state.names))
    return render_view(state)


STYLES = [pytest.param(Style.COMPACT, id="compact"), pytest.param(Style.LARGE, id="large")]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(
    ("names", "pegs"),
    [
        pytest.param(("Red", "Blue", "Green"), (), id="colours"),
        pytest.param(
            ("Al", "Bo", "Cy"),
            ("peg Al 50", "peg Al 49", "peg Bo 44", "peg Bo 44", "peg Cy 40"),
            id="two-letter",
        ),
        pytest.param(
            ("Bartholomew", "Maximiliana", "Christopher"),
            (
                "peg Bartholomew 55",
                "peg Bartholomew 55",
                "peg Maximiliana 55",
                "peg Maximiliana 50",
            ),
            id="long-names-big-scores",
        ),
    ],
)
def test_three_handed_play_shows_all_three_scores(
    style: Style, names: tuple[str, ...], pegs: tuple[str, ...], cuts: list[str]
) -> None:
    view = _view(names, [THREE[0], *pegs, *THREE[1:]])
    render_play(view, (128, 64), "1", style)
    scores = {f"{side.name[:n]} {side.score}" for side in view.sides for n in range(12)}
    assert not scores & set(cuts)  # no score cut to fit with "…"
    p = paint.Painter((128, 64), "1", style)
    room = (128 - p.status.width("10") - 7) // 3 - 4  # a column beside the starter's box
    face, labels = _score_labels(view, (p.status, p.small), room)
    assert all(face.width(label) <= room for label in labels)
    for side, label in zip(view.sides, labels, strict=True):
        name, score = label.rsplit(" ", 1)
        assert score == str(side.score) and side.name.startswith(name) and name
