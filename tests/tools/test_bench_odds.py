"""bench/bench_odds.py: each row says apart whether its difference is within the issue's target
and whether it is beyond three standard errors, and prints the table, the games, the difference
and its standard error."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from pegboard.engine.cards import Card
from pegboard.engine.rules import Rules, Variant
from pegboard.engine.selfplay import Advisor, PlayPolicy
from tests.scripts import load_script


@pytest.mark.parametrize(
    ("diff", "error", "limit", "said"),
    [
        pytest.param(
            0.0055,
            0.0025,
            0.005,
            "BEYOND the 0.5-point target; within 3 s.e. (may be noise)",
            id="two-against-one-start-0.55-beyond-the-target-within-noise",
        ),
        pytest.param(
            -0.0075,
            0.0025,
            0.005,
            "BEYOND the 0.5-point target; within 3 s.e. (may be noise)",
            id="negative-0.75-at-3-se-exactly",
        ),
        pytest.param(
            0.0076,
            0.0025,
            0.005,
            "BEYOND the 0.5-point target; beyond 3 s.e. (not noise)",
            id="beyond-both",
        ),
        pytest.param(
            0.004,
            0.0005,
            0.005,
            "within the 0.5-point target; beyond 3 s.e. (not noise)",
            id="within-the-target-beyond-noise",
        ),
        pytest.param(
            -0.0006,
            0.0025,
            0.005,
            "within the 0.5-point target; within 3 s.e. (may be noise)",
            id="within-both",
        ),
        pytest.param(
            0.04,
            0.0285,
            0.02,
            "BEYOND the 2-point target; within 3 s.e. (may be noise)",
            id="grid-beyond-the-target-within-noise",
        ),
        pytest.param(
            -0.09,
            0.0285,
            0.02,
            "BEYOND the 2-point target; beyond 3 s.e. (not noise)",
            id="grid-negative-beyond-both",
        ),
    ],
)
def test_a_row_says_the_target_and_the_noise_apart(
    diff: float, error: float, limit: float, said: str
) -> None:
    bench = load_script("bench/bench_odds.py")
    assert bench.verdict(diff, error, limit) == said
    assert bench.within_target(diff, limit) is said.startswith("within")
    assert bench.beyond_noise(diff, error) is ("not noise" in said)


def test_each_row_prints_both_chances_the_difference_its_standard_error_and_the_verdict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    load_script("bench/bench_odds.py").compare(Variant.FIVE_CARD, 4, 2, seed=1)
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == (
        "  each row: is the difference within the target (0.5 points from the start, 2 on the "
        "grid), and is it beyond 3 standard errors (not noise)?"
    )
    assert lines[2].split() == ["position", "games", "table", "games", "diff", "s.e."]
    row = re.compile(
        r"\s+(\d+-\d+)\s+\d+\s+\d+\.\d\d%\s+\d+\.\d\d%\s+([+-]\d+\.\d\d)\s+\d+\.\d\d  "
        r"(within|BEYOND) the (0\.5|2)-point target; (within|beyond) 3 s\.e\. "
        r"\((may be noise|not noise)\)$"
    )
    rows = [row.match(line) for line in lines[3:-1]]
    assert len(rows) == 6 and all(rows), lines[3:-1]
    found = [m for m in rows if m is not None]
    # the start of the game against the 0.5-point target, the grid against 2
    assert [m[4] for m in found] == ["0.5"] + ["2"] * 5
    for m in found:  # said beyond the target exactly when the difference is
        assert (m[3] == "BEYOND") is (abs(float(m[2])) > float(m[4]))
    beyond = [m[1] for m in found if m[3] == "BEYOND"]
    assert lines[-1].startswith(
        f"  largest difference {max(abs(float(m[2])) for m in found):.2f} points; beyond the "
        f"target: {', '.join(beyond) or 'none'} ("
    )


@pytest.mark.parametrize("play", list(PlayPolicy), ids=lambda p: p.value)
def test_the_engine_and_the_replay_agree_under_either_play(
    play: PlayPolicy, capsys: pytest.CaptureFixture[str]
) -> None:
    # whole games through the engine's state machine and by the fast replay, the same deals
    load_script("bench/bench_odds.py").check_engine(Variant.SIX_CARD, 3, play)
    assert capsys.readouterr().out.startswith(
        "six-card: the engine's state machine and the replay agree on 3/3 games"
    )


class CountingAdvisor(Advisor):
    """An advisor that counts the cards it is asked for."""

    asked = 0

    def lay(self, *args: Any, **kwargs: Any) -> Card | None:
        self.asked += 1
        return super().lay(*args, **kwargs)


@pytest.mark.parametrize("play", list(PlayPolicy), ids=lambda p: p.value)
def test_the_games_through_the_engine_are_played_by_the_play_asked(play: PlayPolicy) -> None:
    bench = load_script("bench/bench_odds.py")
    rules = Rules.six_card()
    advisor = CountingAdvisor(rules)
    bench.engine_game(rules, 0, [100, 100], random.Random(1), advisor, play)
    assert (advisor.asked > 0) is (play is PlayPolicy.ADVISED)
