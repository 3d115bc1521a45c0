"""The LED animation as a value: the steps from one view to the next, and which one is lit.

A ``LedAnimation`` holds the view the LEDs are heading for, the steps that take them there (a
peg's rear peg travelling past the front peg, an undo running it backwards, a win's flash: the
``LedAnimator``'s ``LedStep`` values, each with how long it stays lit), the step shown and when
the next one is due. ``step(animation, now)`` moves to the latest step that is due, skipping
any a late loop missed; ``finished`` jumps to the last (a key ends an animation at once, so
input never waits on the LEDs). Pure: the controller shows ``frame`` when it changed.

>>> from pegboard.ui.ledtracks import LedStep
>>> steps = (LedStep({"a": ()}, 0.1), LedStep({"b": ()}, 0.1), LedStep({"c": ()}))
>>> moving = LedAnimation().started(None, steps, 0.0)
>>> [step(moving, t).index for t in (0.05, 0.1, 0.25)], step(moving, 0.25).due is None
([0, 1, 2], True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pegboard.engine.view import GameView
from pegboard.frozen import frozen
from pegboard.ui.ledtracks import LedFrame, LedStep

__all__ = ["LedAnimation", "step"]


@frozen
class LedAnimation:
    """The LEDs' way to *view*: its *steps*, the one lit (*index*), and when the next is due
    (*due*; None: the last step is lit, or nothing is)."""

    view: GameView | None = None
    steps: tuple[LedStep, ...] = ()
    index: int = 0
    due: float | None = None

    def started(self, view: GameView | None, steps: Sequence[LedStep], now: float) -> LedAnimation:
        """The animation of *steps* to *view*, its first step lit at *now*.

        Raises:
            ValueError: no steps (an animator always gives at least the still one).
        """
        if not steps:
            name = view.prompt if view is not None else None
            raise ValueError(f"the LED animator gave no steps for {name!r}")
        runs = len(steps) > 1 or steps[-1].again is not None
        due = now + steps[0].hold if runs else None
        return LedAnimation(view, tuple(steps), 0, due)

    def finished(self) -> LedAnimation:
        """The last step lit at once."""
        if self.due is None:
            return self
        return replace(self, index=len(self.steps) - 1, due=None)

    @property
    def frame(self) -> LedFrame | None:
        """The colours lit now (None: nothing animated yet)."""
        return self.steps[self.index].frame if self.steps else None


def step(animation: LedAnimation, now: float) -> LedAnimation:
    """*animation* at *now*: the latest step that is due lit; a last step that says ``again``
    goes round from that step (a blinking peg) until a key finishes it."""
    steps = animation.steps
    index, due, last = animation.index, animation.due, len(steps) - 1
    again = steps[-1].again if steps else None
    while due is not None and now >= due:
        index = index + 1 if index < last else again or 0
        runs = index < last or again is not None
        due = due + steps[index].hold if runs else None
    if index == animation.index and due == animation.due:
        return animation
    return replace(animation, index=index, due=due)
