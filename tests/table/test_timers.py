"""The LED animation and the display's power as values, stepped on a fake clock alone."""

from __future__ import annotations

import pytest

from pegboard.devices.ports import FakeClock
from pegboard.table import animation, power
from pegboard.table.animation import LedAnimation
from pegboard.table.power import DisplayPower, Power
from pegboard.ui.ledtracks import LedStep

STEPS = tuple(LedStep({"board": ((n, 0, 0),)}, 0.04) for n in range(5))


def test_an_animation_lights_each_step_when_it_is_due() -> None:
    clock = FakeClock(10.0)
    moving = LedAnimation().started(None, STEPS, clock.monotonic())
    lit = []
    while moving.due is not None:
        clock.advance(0.01)
        moving = animation.step(moving, clock.monotonic())
        lit.append(moving.index)
    assert sorted(set(lit)) == [0, 1, 2, 3, 4] and moving.frame == STEPS[-1].frame


def test_a_late_step_skips_to_the_latest_step_due() -> None:
    moving = LedAnimation().started(None, STEPS, 0.0)
    assert animation.step(moving, 0.125).index == 3
    assert animation.step(moving, 9.0) == moving.finished()


def test_a_key_finishes_an_animation_at_once() -> None:
    done = LedAnimation().started(None, STEPS, 0.0).finished()
    assert (done.index, done.due) == (4, None) and done.finished() is done


def test_one_step_is_still() -> None:
    still = LedAnimation().started(None, STEPS[:1], 0.0)
    assert still.due is None and animation.step(still, 5.0) is still


def test_an_animator_that_gives_no_steps_is_a_bug() -> None:
    with pytest.raises(ValueError, match="the LED animator gave no steps"):
        LedAnimation().started(None, (), 0.0)


def test_the_display_dims_then_sleeps_when_idle_and_a_key_wakes_it() -> None:
    clock = FakeClock(0.0)
    now = Power(dim_after=60.0, sleep_after=600.0, last_key=0.0)
    states = []
    for _ in range(700):
        clock.advance(1.0)
        now = power.step(now, clock.monotonic())
        states.append(now.state)
    assert states.index(DisplayPower.DIMMED) == 59 and states.index(DisplayPower.ASLEEP) == 599
    assert now.pressed(701.0) == Power(60.0, 600.0, DisplayPower.ON, 701.0)


def test_a_display_without_idle_times_stays_on() -> None:
    assert power.step(Power(), 1e9).state is DisplayPower.ON
