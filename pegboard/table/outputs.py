"""What the controller draws with: the renderers' types, the LED animator's Protocol,
``Outputs`` (the display and the strips as the controller's thread drives them) and the
sound switch the menu turns.

The wiring makes the renderers and the voice (``wiring.screen_renderer``,
``ledtracks.TrackAnimator``, ``wiring.start_speaker``); the controller only calls them, in its
own thread, with the values it holds. ``Outputs`` remembers what the ports show, so an equal
screen or an unchanged strip is not sent again, and turns a port's failure
(``HardwareError``, ``OSError``) into a logged ``False`` for the controller to retry later:
the game goes on meanwhile.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from pegboard.devices.ports import Color, Display, LedStrip, SleepingDisplay
from pegboard.engine.view import GameView
from pegboard.errors import HardwareError
from pegboard.i18n import Language, translator
from pegboard.ui.ledtracks import LedFrame, LedStep
from pegboard.ui.screens import Screen

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "LedAnimator",
    "LedRenderer",
    "Outputs",
    "PageCounter",
    "ScreenRenderer",
    "SoundSwitch",
    "StillAnimator",
    "toggle_sound",
]

log = logging.getLogger(__name__)

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


class Outputs:
    """The *display* (drawn with *render_screen*, a screen's pages counted with *count_pages*)
    and the LED *strips*, driven by one thread.

    Either may be missing (a controller without them still keeps the game).
    """

    def __init__(
        self,
        display: Display | None,
        strips: Mapping[str, LedStrip] | None,
        render_screen: ScreenRenderer | None,
        count_pages: PageCounter | None = None,
    ) -> None:
        self.display = display
        self.strips = dict(strips or {})
        self.render = render_screen
        self._count_pages = count_pages
        self.drawn: Screen | None = None
        """The screen the display shows (None: not known, dark or blank)."""
        self.frames = 0
        """Frames handed to the display so far (for benchmarks and the headless trace)."""
        self._shown: dict[str, tuple[Color, ...]] = {}  # each strip's colours as last written

    @property
    def draws(self) -> bool:
        """True when there is a display and a renderer to draw on it."""
        return self.display is not None and self.render is not None

    def pages(self, screen: Screen) -> int:
        """How many pages *screen* takes on the display (1 without a page counter)."""
        return self._count_pages(screen) if self._count_pages is not None else 1

    def show_screen(self, screen: Screen) -> bool:
        """Draw *screen* unless it is up already; False when the display failed."""
        if screen == self.drawn:  # an equal screen draws an equal image
            return True
        assert self.display is not None and self.render is not None
        image = self.render(screen)
        try:
            self.display.show(image)
        except (HardwareError, OSError) as e:
            log.warning("display failed, retrying: %s", e)
            self.drawn = None  # what the panel shows now is not known
            return False
        self.frames += 1
        self.drawn = screen
        return True

    def show_leds(self, colours: LedFrame) -> bool:
        """Write each strip whose colours changed; False when one failed."""
        ok = True
        for name, strip in self.strips.items():
            if name not in colours:
                continue
            pixels = tuple(colours[name])
            if self._shown.get(name) == pixels:
                continue
            try:
                strip.show(pixels)
                self._shown[name] = pixels
            except (HardwareError, OSError) as e:
                log.warning("LED strip %r failed, retrying: %s", name, e)
                self._shown.pop(name, None)
                ok = False
        return ok

    def sleep(self) -> None:
        """Switch the panel off (a display without a switch is shown a blank frame)."""
        self.drawn = None  # dark or blank: waking draws the screen again
        display = self.display
        if display is None:
            return
        try:
            if isinstance(display, SleepingDisplay):
                display.sleep()
            else:  # no panel switch: a blank frame is the next best thing
                from PIL import Image

                display.show(Image.new(display.mode, display.size))
        except (HardwareError, OSError) as e:
            log.warning("display sleep failed: %s", e)

    def wake(self) -> None:
        """Switch the panel on again (the caller draws the screen)."""
        if isinstance(self.display, SleepingDisplay):
            try:
                self.display.wake()
            except (HardwareError, OSError) as e:
                log.warning("display wake failed: %s", e)

    def set_contrast(self, level: int) -> None:
        """Set the display's contrast (a failure is logged, and the screen drawn again)."""
        if self.display is None:
            return
        try:
            self.display.set_contrast(level)
        except (HardwareError, OSError) as e:
            log.warning("display contrast failed: %s", e)
            self.drawn = None  # a display that failed may come back blank: draw it again


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
