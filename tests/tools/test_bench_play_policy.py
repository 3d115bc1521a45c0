"""bench/bench_play_policy.py's reading comparison plays what the advised self-play plays."""

from __future__ import annotations

import random

from pegboard.engine.rules import Rules
from pegboard.engine.selfplay import Advisor, PlayPolicy, Stage, play_deal
from tests.scripts import load_script


def test_both_seats_reading_is_the_advised_self_play() -> None:
    bench = load_script("bench/bench_play_policy.py")
    rules = Rules.six_card()
    advisor = Advisor(rules)
    for seed in range(4):
        trace = play_deal(rules, 1, random.Random(seed), advisor, (PlayPolicy.ADVISED,) * 2)
        net = sum(
            peg.points if peg.seat == 1 else -peg.points
            for peg in trace.pegs
            if peg.stage is Stage.PLAY
        )
        assert bench.advised_net(rules, advisor, seed, (True, True)) == net
