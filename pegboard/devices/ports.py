"""The small interfaces between the controller and the hardware.

Each port speaks pegboard's values, never pins or pixels: the controller hands a ``Display`` a
finished image, an ``LedStrip`` a row of colours, and gets ``KeyEvent`` values from ``Keys``.
Every port has a real adapter (the only modules that import gpiozero, luma or an LED library)
and a simulated one, so the daemon, the tests and the simulator run the same controller.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from pegboard.frozen import frozen

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "BUTTON_NAMES",
    "PEG_BUTTONS",
    "Clock",
    "Color",
    "Display",
    "FakeClock",
    "KeyAction",
    "KeyEvent",
    "KeySink",
    "Keys",
    "LedStrip",
    "SleepingDisplay",
    "SystemClock",
    "board_buttons",
]

Color = tuple[int, int, int]
"""An RGB colour, each channel 0..255, before any brightness limit."""


class Clock(Protocol):
    """Monotonic time in seconds. Tests pass a ``FakeClock``."""

    def monotonic(self) -> float:
        """Seconds since an arbitrary start; never goes backwards."""
        ...


class SystemClock:
    """The real clock."""

    def monotonic(self) -> float:
        """``time.monotonic()``."""
        return time.monotonic()


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def monotonic(self) -> float:
        """The current fake time."""
        return self.now

    def advance(self, seconds: float) -> None:
        """Move time forward.

        Raises:
            ValueError: *seconds* is negative.
        """
        if seconds < 0:
            raise ValueError(f"a clock cannot go back: advance({seconds!r})")
        self.now += seconds


class KeyAction(enum.Enum):
    """What happened to a key."""

    PRESS = "press"
    LONG_PRESS = "long"  # held past the long-press time (undo held = redo)


@frozen
class KeyEvent:
    """One key or button event, whatever its source (GPIO button, keypad, USB, keyboard).

    Key names: ``0``-``9``, ``A``-``D``, ``*``, ``#`` for the matrix keypad, and
    ``peg0``, ``peg1``, ... (one peg button per side), ``undo``, ``ok`` for buttons.
    """

    key: str
    action: KeyAction = KeyAction.PRESS

    def __str__(self) -> str:
        return self.key if self.action is KeyAction.PRESS else f"{self.key}:{self.action.value}"


PEG_BUTTONS: tuple[str, ...] = tuple(f"peg{side}" for side in range(10))
"""The peg buttons, one per side from ``peg0``: one digit each, which names the side."""

BUTTON_NAMES: tuple[str, ...] = (*PEG_BUTTONS, "undo", "ok")
"""Every push button a key event can name: the peg buttons, ``undo`` (held: redo) and ``ok``
(held: the menu). Key files take them all; a board wires those of ``board_buttons``."""


def board_buttons(sides: int) -> tuple[str, ...]:
    """The buttons a board for games of up to *sides* sides can wire: a peg button per side,
    then undo and ok.

    >>> board_buttons(3)
    ('peg0', 'peg1', 'peg2', 'undo', 'ok')

    Raises:
        ValueError: *sides* is not 1 to 10.
    """
    if not 1 <= sides <= len(PEG_BUTTONS):
        raise ValueError(f"a board has 1 to {len(PEG_BUTTONS)} sides, got {sides!r}")
    return tuple(name for name in BUTTON_NAMES if name not in PEG_BUTTONS[sides:])


KeySink = Callable[[KeyEvent], None]
"""Where key sources put events: the controller's queue ``put`` (callbacks only enqueue)."""


class Keys(Protocol):
    """A source of key events."""

    def start(self, sink: KeySink) -> None:
        """Begin delivering events to *sink* (from any thread)."""
        ...

    def close(self) -> None:
        """Stop delivering events and release the hardware."""
        ...


class Display(Protocol):
    """A small screen that shows finished Pillow images of its own size and mode."""

    @property
    def size(self) -> tuple[int, int]:
        """Width and height in pixels."""
        ...

    @property
    def mode(self) -> str:
        """Pillow image mode: "1" for monochrome, "L" for greyscale, "RGB"."""
        ...

    def show(self, image: Image) -> None:
        """Draw one frame.

        Raises:
            HardwareError: the display could not be reached.
        """
        ...

    def set_contrast(self, level: int) -> None:
        """Contrast/brightness 0..255."""
        ...

    def close(self) -> None:
        """Clear the screen and release the hardware."""
        ...


@runtime_checkable
class SleepingDisplay(Protocol):
    """A display that can switch its panel off and on (``LumaDisplay``, ``LazyDisplay``).

    Not every ``Display`` can: the controller checks with ``isinstance`` and shows a blank
    frame on one that cannot.
    """

    def sleep(self) -> None:
        """Switch the panel off, keeping the picture."""
        ...

    def wake(self) -> None:
        """Switch the panel back on."""
        ...


class LedStrip(Protocol):
    """One physical chain of addressable LEDs."""

    @property
    def length(self) -> int:
        """Number of LEDs on the strip."""
        ...

    def show(self, pixels: Sequence[Color]) -> None:
        """Light the strip: one colour per LED, in the strip's own order.

        Raises:
            HardwareError: the strip could not be reached.
        """
        ...

    def close(self) -> None:
        """Turn every LED off and release the hardware."""
        ...
