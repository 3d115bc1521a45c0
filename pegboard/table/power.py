"""The display's power as a value: on, dimmed after ``dim_after`` idle seconds, asleep after
``sleep_after``.

``step(power, now)`` says what the idle time makes of it; ``pressed(now)`` is a key (it wakes
the display). Pure: the controller compares the value before and after and does what the
change asks of the display (lower the contrast, switch the panel off, switch it on).

>>> power = Power(dim_after=30.0, sleep_after=60.0)
>>> [step(power, t).state.value for t in (29.0, 30.0, 60.0)]
['on', 'dimmed', 'asleep']
>>> step(power, 60.0).pressed(61.0).state.value
'on'
"""

from __future__ import annotations

import enum
from dataclasses import replace

from pegboard.frozen import frozen

__all__ = ["DisplayPower", "Power", "step"]


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
