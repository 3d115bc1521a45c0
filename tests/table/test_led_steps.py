"""Whole games from ``tests/keys`` through the wiring: the LED steps, drawn lazily, are the ones
the animator used to draw up front (``tests/ui/ledreference.py``), frame for frame and hold for
hold; and the strips are only ever written frames of those steps.

The players here press some keys in the middle of an animation and wait out others, so both a
finished animation and one cut short by a key are seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from pegboard.config.settings import parse_config
from pegboard.devices.leds import RecordingStrip
from pegboard.devices.ports import FakeClock, KeyEvent
from pegboard.engine.view import GameView
from pegboard.journal import Journal
from pegboard.table.keyscript import read_script
from pegboard.table.simulator import config_for_script
from pegboard.table.wiring import build_controller, sim_ports
from pegboard.ui.ledtracks import BLINK_OFF, BLINK_ON, FRAME_SECONDS, LedStep, TrackAnimator
from tests.ui.ledreference import reference_steps

KEYS = Path(__file__).parents[1] / "keys"
KEY_FILES = sorted(KEYS.glob("*.keys"))


@dataclass
class Animation:
    before: GameView | None
    after: GameView
    steps: Sequence[LedStep]


class RecordingAnimator:
    """The wiring's ``TrackAnimator``, keeping every animation it was asked for."""

    def __init__(self, inner: TrackAnimator) -> None:
        self.inner = inner
        self.animations: list[Animation] = []

    def animate(self, before: GameView | None, after: GameView) -> Sequence[LedStep]:
        steps = self.inner.animate(before, after)
        self.animations.append(Animation(before, after, steps))
        return steps


def replay(keys: Path, tmp_path: Path) -> tuple[RecordingAnimator, dict[str, RecordingStrip]]:
    script = read_script(keys)
    config = config_for_script(parse_config(f'[game]\ndatabase = "{tmp_path / "g.db"}"\n'), script)
    clock = FakeClock(1000.0)
    ports = sim_ports(config)
    with Journal(config.game.database) as store:
        ctl = build_controller(config, store, ports, clock=clock)
        animator = ctl._animator
        assert isinstance(animator, TrackAnimator)
        recorder = RecordingAnimator(animator)
        ctl._animator = recorder
        ctl.tick()
        for n, step in enumerate(script.steps):
            if not isinstance(step, KeyEvent):
                continue
            ctl.handle(step)
            # every third key waits the animation out; the others cut it short after two steps
            ticks = 200 if n % 3 == 0 else 2
            for _ in range(ticks):
                clock.advance(FRAME_SECONDS)
                ctl.tick()
    strips = {}
    for name, strip in ports.strips.items():
        assert isinstance(strip, RecordingStrip)
        strips[name] = strip
    return recorder, strips


@pytest.mark.parametrize("keys", KEY_FILES, ids=[p.stem for p in KEY_FILES])
def test_every_animation_of_a_whole_game_is_the_eager_one_step_for_step(
    keys: Path, tmp_path: Path
) -> None:
    recorder, strips = replay(keys, tmp_path)
    assert len(recorder.animations) > 10
    assert any(len(a.steps) > 1 for a in recorder.animations), "some peg travels"
    drawn: set[tuple[object, ...]] = set()
    for animation in recorder.animations:
        expected = list(reference_steps(recorder.inner, animation.before, animation.after))
        steps = [(dict(step.frame), step.hold) for step in animation.steps]
        if animation.steps[-1].again is not None:  # three sides: then the third front peg blinks
            (lit, on), (dark, off), (again, _) = steps[-3:]
            assert (again, on, off) == (lit, BLINK_ON, BLINK_OFF)
            assert animation.steps[-1].again == len(steps) - 2
            steps = [*steps[:-3], (lit, expected[-1][1])]
            drawn.update(tuple(dark[name]) for name in dark)
        assert steps == expected
        drawn.update(tuple(frame[name]) for frame, _ in expected for name in frame)
    for strip in strips.values():
        assert strip.frames, "the strips were written"
        assert all(tuple(frame) in drawn for frame in strip.frames)
