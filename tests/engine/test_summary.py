"""The ``finished`` topic's wire format has one type: ``GameSummary`` to and from its payload."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules
from pegboard.engine.summary import LURCHES, DealSummary, GameSummary, PayloadError, SideSummary
from pegboard.journal import Journal
from pegboard.journal.outbox import Outbox

text = st.text(max_size=8)


@st.composite
def summaries(draw: st.DrawFn) -> GameSummary:
    """A game a board could finish (one winner, every loser below it and the target), or a
    withdrawn win."""
    game_id, revision = draw(text), draw(st.integers(1, 50))
    if draw(st.booleans()):
        return GameSummary(game_id, revision, withdrawn=True)
    target = draw(st.sampled_from((121, 61, 31)))
    count = draw(st.integers(2, 3))
    winner = draw(st.integers(0, count - 1))
    top = draw(st.integers(target - 10, target + 10))
    sides = tuple(
        SideSummary(
            draw(text),
            top if i == winner else draw(st.integers(0, min(top, target) - 1)),
            i == winner,
            draw(st.sampled_from(LURCHES)),
            tuple(draw(st.lists(text, max_size=2))),
        )
        for i in range(count)
    )
    deals = tuple(
        DealSummary(
            n, draw(text), draw(st.none() | st.sampled_from(("5C", "JH"))),
            tuple(draw(st.lists(st.integers(0, 60), min_size=count, max_size=count))),
        )
        for n in range(1, draw(st.integers(0, 4)) + 1)
    )  # fmt: skip
    optional = st.none() | st.integers(0, 9)
    return GameSummary(
        game_id, revision, draw(st.sampled_from(("six-card", "five-card"))), target, sides,
        draw(optional), sides[winner].name, draw(optional), deals, draw(text), draw(text),
    )  # fmt: skip


@given(summaries())
def test_finished_game_payload_round_trips(summary: GameSummary) -> None:
    payload = summary.to_payload()
    assert GameSummary.from_payload(payload) == summary
    assert GameSummary.from_payload(json.loads(json.dumps(payload))) == summary


def test_the_boards_real_payload_parses_and_is_sent_as_it_reads(tmp_path: Path) -> None:
    """A real game won on a board, then taken back by undo: the outbox's rows are exactly the
    type's payloads."""
    with Journal(tmp_path / "board.db", outbox=True) as journal:
        state = journal.new_match(Rules.six_card(), ("Ann", "Bob"))
        for line in ("cut 9C 3D", "starter 5C", "peg Bob 50", "peg Ann 60", "peg Ann 61", "undo"):
            journal.do(parse_command(line, state.names))
    outbox = Outbox(tmp_path / "board.db")
    try:
        won, withdrawn = (row.payload for row in outbox.pending())
    finally:
        outbox.close()
    game = GameSummary.from_payload(json.loads(won))
    assert json.dumps(game.to_payload(), separators=(",", ":")) == won
    assert [(s.name, s.score, s.won, s.lurch, s.players) for s in game.sides] == [
        ("Ann", 121, True, "none", ("Ann",)),
        ("Bob", 50, False, "double-skunked", ("Bob",)),
    ]
    assert (game.revision, game.game, game.winner, game.game_points) == (1, 1, "Ann", 3)
    assert game.started and game.ended and game.deals[0].points == (121, 50)
    back = GameSummary.from_payload(json.loads(withdrawn))
    assert back == GameSummary(game.game_id, 2, withdrawn=True)
    assert json.dumps(back.to_payload(), separators=(",", ":")) == withdrawn


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        pytest.param({"withdrawn": True}, r"a game without a game id: \{'withdrawn'", id="no-id"),
        pytest.param({"game_id": "g", "sides": 3}, r"not a finished game: .*TypeError", id="sides"),
    ],
)
def test_a_payload_that_is_not_a_game_is_refused(payload: dict[str, object], message: str) -> None:
    with pytest.raises(PayloadError, match=message):
        GameSummary.from_payload(payload)
