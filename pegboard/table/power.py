"""The display's power as a value: on, dimmed after ``dim_after`` idle seconds, asleep after
``sleep_after``; and ``ScreenTiming``, the settings the controller's screen and ports keep to.

``step(power, now)`` says what the idle time makes of it; ``pressed(now)`` is a key (it wakes
the display). Pure: the controller compares the value before and after and does what the
change asks of the display (lower the contrast, switch the panel off, switch it on).

>>> power = Power(dim_after=30.0, sleep_after=60.0)
>>> [step(power, t).state.value for t in (29.0, 30.0, 60.0)]
['on', 'dimmed', 'asleep']
>>> step(power, 60.0).pressed(61.0).state.value
'on'
>>> timing = ScreenTiming(dim_after=30.0, contrast=200)
>>> timing.power(5.0), timing.contrast_for(DisplayPower.DIMMED)
(Power(dim_after=30.0, sleep_after=None, state=<DisplayPower.ON: 'on'>, last_key=5.0), 16)
>>> ScreenTiming(contrast=8).contrast_for(DisplayPower.DIMMED)  # dimming never brightens
8
"""

from __future__ import annotations

import enum
from dataclasses import replace

from pegboard.frozen import frozen

__all__ = ["DisplayPower", "Power", "ScreenTiming", "step"]


class DisplayPower(enum.Enum):
    """How awake the display is."""

    ON = "on"
    DIMMED = "dimmed"
    ASLEEP = "asleep"


@frozen
class Power:
    """The display's power: its *state* and when the last key came (*last_key*)."""

    dim_after: float | None = None
    sleep_after: float | None = None
    state: DisplayPower = DisplayPower.ON
    last_key: float = 0.0

    def pressed(self, now: float) -> Power:
        """A key at *now*: the display on, the idle time from now."""
        return replace(self, state=DisplayPower.ON, last_key=now)


def step(power: Power, now: float) -> Power:
    """*power* at *now*: dimmed or asleep once idle long enough (never back on by itself)."""
    idle = now - power.last_key
    if power.sleep_after is not None and idle >= power.sleep_after:
        state = DisplayPower.ASLEEP
    elif power.dim_after is not None and idle >= power.dim_after:
        state = DisplayPower.DIMMED
    else:
        return power
    if state is power.state or power.state is DisplayPower.ASLEEP:
        return power
    return replace(power, state=state)


@frozen
class ScreenTiming:
    """How long the screen tells and pages, when the display dims and sleeps and how bright it
    is, and when a failed port is tried again: the controller's settings (``[display]``).

    *dim_after* and *sleep_after* are idle seconds (None: never); dimming lowers the contrast
    from *contrast* to *dim_contrast*.
    """

    retry_after: float = 5.0
    """Seconds before a display or LED strip that failed is tried again."""
    dim_after: float | None = None
    sleep_after: float | None = None
    contrast: int = 255
    dim_contrast: int = 16
    news_seconds: float = 4.0
    """How long what a press did stays told (``ui.timeline``)."""
    page_seconds: float = 2.5
    """How long each page of a count stays up (``ui.timeline``)."""

    def power(self, now: float) -> Power:
        """The display's power on a table started at *now*: on, idle from *now*."""
        return Power(self.dim_after, self.sleep_after, last_key=now)

    def contrast_for(self, state: DisplayPower) -> int:
        """The contrast to set for *state*: *dim_contrast* when dimmed (never above
        *contrast*), else *contrast*."""
        if state is DisplayPower.DIMMED:
            return min(self.dim_contrast, self.contrast)
        return self.contrast
