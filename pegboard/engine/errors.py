"""The errors pegboard raises on purpose.

Each way input can go wrong has one class, and each class also inherits the built-in exception it
resembles, so ``except ValueError`` keeps working for callers that do not know pegboard.
Messages are lower-case: what was wrong, the input as ``repr``, then what was expected.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "GameOverError",
    "HardwareError",
    "IllegalCommandError",
    "IllegalPlayError",
    "InvalidCardError",
    "InvalidHandError",
    "JournalError",
    "PegboardError",
]


class PegboardError(Exception):
    """Base of every error pegboard raises on purpose."""


class InvalidCardError(PegboardError, ValueError):
    """Text that is not a card."""


class InvalidHandError(PegboardError, ValueError):
    """Wrong number of cards, or a duplicate card."""


class IllegalPlayError(PegboardError, ValueError):
    """A real card, or a go, that may not be played now."""


class IllegalCommandError(PegboardError):
    """A command the current phase does not accept."""


class GameOverError(IllegalCommandError):
    """A command that arrived after the game was already won."""


class ConfigError(PegboardError, ValueError):
    """A bad config key or value."""


class JournalError(PegboardError):
    """The game journal could not be read or written."""


class HardwareError(PegboardError):
    """A device missing or unusable (raised by ``pegboard.devices`` only)."""
