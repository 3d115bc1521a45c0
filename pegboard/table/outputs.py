"""What the controller draws with: the renderers' types and the LED animator's Protocol.

The wiring makes them (``wiring.screen_renderer``, ``ledtracks.TrackAnimator``); the
controller only calls them, in its own thread, with the values it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from pegboard.engine.view import GameView
from pegboard.ui.ledtracks import LedFrame, LedStep
from pegboard.ui.screens import Screen

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["LedAnimator", "LedRenderer", "PageCounter", "ScreenRenderer", "StillAnimator"]

ScreenRenderer = Callable[[Screen], "Image"]
"""screen -> a Pillow image of the display's size and mode (``screens.render_screen``)."""

PageCounter = Callable[[Screen], int]
"""screen -> how many pages it has on the display (``screens.screen_pages``)."""

LedRenderer = Callable[[GameView], LedFrame]
"""view -> the colours for each LED strip, by the strip's name."""


class LedAnimator(Protocol):
    """Makes the LED steps from one view to the next (``TrackAnimator`` for the tracks)."""

    def animate(self, before: GameView | None, after: GameView) -> Sequence[LedStep]:
        """The steps that take the LEDs from *before* (None: nothing shown yet) to *after*.

        At least one step; the last shows *after* for as long as it lasts.
        """
        ...


class StillAnimator:
    """A plain renderer as an animator: every change is one step."""

    def __init__(self, render: LedRenderer) -> None:
        self._render = render

    def animate(self, before: GameView | None, after: GameView) -> Sequence[LedStep]:
        return (LedStep(self._render(after)),)
