"""What the controller draws with: the renderers' types, the LED animator's Protocol, and the
sound switch the menu turns.

The wiring makes them (``wiring.screen_renderer``, ``ledtracks.TrackAnimator``,
``wiring.start_speaker``); the controller only calls them, in its own thread, with the values
it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from pegboard.engine.view import GameView
from pegboard.i18n import Language, translator
from pegboard.ui.ledtracks import LedFrame, LedStep
from pegboard.ui.screens import Screen

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "LedAnimator",
    "LedRenderer",
    "PageCounter",
    "ScreenRenderer",
    "SoundSwitch",
    "StillAnimator",
    "toggle_sound",
]

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


class SoundSwitch(Protocol):
    """The board's voice as the menu sees it (``table.speaker.Speaker``)."""

    def toggle(self) -> bool:
        """Mute when speaking, unmute when muted; True: now muted. Never blocks."""
        ...


def toggle_sound(sound: SoundSwitch | None, language: Language) -> str:
    """Turn the sound off or on (the menu's held ``ok``) and say which, in *language*.

    >>> toggle_sound(None, Language.ENGLISH)
    'no sound: [sound] is off'
    """
    tr = translator(language)
    if sound is None:
        return tr.gettext("no sound: [sound] is off")
    return tr.gettext("sound off") if sound.toggle() else tr.gettext("sound on")
