"""The score sheet's match line says where the match stands: "after game 1" only once game 1
is finished, "game 1 in progress" while it is played (English and German)."""

from __future__ import annotations

from datetime import UTC

import pytest

from pegboard.engine.history import replay_match
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules
from pegboard.i18n import Language
from pegboard.ui.sheet import Text, layout_sheet
from tests.journal.games import SCRIPT


def match_line(commands: tuple[str, ...], language: Language) -> str:
    """The sheet's match line for the latest game (running, else finished) of a best-of-three
    after *commands*."""
    times = [(text, f"2025-03-01T20:{i:02d}:00+00:00") for i, text in enumerate(commands)]
    match = replay_match(
        Rules.six_card(), ("Ann", "Bob"), MatchFormat.BEST_OF_THREE, times, match_id=1
    )
    game = match.current or match.games[-1]
    drawing = layout_sheet(game, match=match, tz=UTC, language=language)
    lines = [s.text for s in drawing.shapes if isinstance(s, Text) and s.text.startswith("Match (")]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(
    ("language", "running", "finished"),
    [
        pytest.param(
            Language.ENGLISH,
            "Match (best-of-three), game 1 in progress: game points Ann 0, Bob 0",
            "Match (best-of-three) after game 1: game points Ann 3, Bob 0",
            id="english",
        ),
        pytest.param(
            Language.GERMAN,
            "Match (drei Spiele), Spiel 1 läuft: Spielpunkte Ann 0, Bob 0",
            "Match (drei Spiele) nach Spiel 1: Spielpunkte Ann 3, Bob 0",
            id="german",
        ),
    ],
)
def test_the_match_line_says_game_1_is_in_progress_until_it_is_finished(
    language: Language, running: str, finished: str
) -> None:
    assert match_line(SCRIPT[:5], language) == running
    assert match_line(SCRIPT, language) == finished
