"""The errors pegboard raises on purpose.

Each way input can go wrong has one class, and each class also inherits the built-in exception it
resembles, so ``except ValueError`` keeps working for callers that do not know pegboard.
Messages are lower-case: what was wrong, the input as ``repr``, then what was expected.
``quote`` gives that ``repr`` shortened, so a 1 MB value makes a one-line message too.
"""

from __future__ import annotations

import re
import reprlib

__all__ = [
    "ConfigError",
    "GameOverError",
    "HardwareError",
    "IllegalCommandError",
    "IllegalPlayError",
    "InvalidCardError",
    "InvalidHandError",
    "JournalError",
    "JournalInUseError",
    "JournalMovedError",
    "PegboardError",
    "UnreplayableMatchError",
    "quote",
    "quote_name",
]

QUOTE_LIMIT = 60
"""The most characters of a value a message shows (then '...')."""

_PLAIN_NAME = re.compile(r"[A-Za-z0-9_-]+")


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


class UnreplayableMatchError(JournalError):
    """A stored match whose journal cannot be replayed: entry *seq* (its text *entry*) of match
    *match_id* is refused (damaged, or written by a later version). ``pegboard game repair``
    ends the match at its last entry that replays; the table offers a new match and leaves
    the broken one as it is."""

    def __init__(self, message: str, *, match_id: int, seq: int, entry: str) -> None:
        super().__init__(message)
        self.match_id = match_id
        self.seq = seq
        self.entry = entry


class JournalMovedError(JournalError):
    """A command not stored: another writer changed the journal meanwhile, and the command does
    not fit the state it left (this writer has caught up with it)."""


class JournalInUseError(JournalError):
    """A table (``pegboard run``, the simulator) refused: another one holds the journal."""


class HardwareError(PegboardError):
    """A device missing or unusable (raised by ``pegboard.devices`` only)."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """*value* as ``repr`` for a message, at most about *limit* characters: longer ends in '...'.

    A string keeps its quotes (``'xxxx'...``); its ``repr`` escapes what a terminal would not
    show, lone surrogates from undecodable bytes included, so the message always prints.

    >>> quote("5H")
    "'5H'"
    >>> quote("x" * 1_000_000, limit=10)
    "'xxxxx'..."
    >>> quote(list(range(1000)), limit=20)
    '[0, 1, 2, 3, 4, 5...'
    """
    if isinstance(value, str):
        if len(value) <= limit and len(shown := repr(value)) <= limit:
            return shown
        size = min(len(value), limit)
        while size > 0 and len(repr(value[:size])) + 3 > limit:
            size -= 1  # escapes make a character several long: cut one more
        return repr(value[:size]) + "..."
    # reprlib stops at a few items and levels, so a huge or deep value costs little to show
    brief = reprlib.Repr()
    brief.maxlevel, brief.maxstring, brief.maxother = 3, limit, limit
    shown = brief.repr(value)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def quote_name(name: str, limit: int = QUOTE_LIMIT) -> str:
    """A key or name as a message shows it: bare if a short plain word, else ``quote(name)``.

    >>> quote_name("undoo")
    'undoo'
    >>> quote_name("two words")
    "'two words'"
    """
    return name if len(name) <= limit and _PLAIN_NAME.fullmatch(name) else quote(name, limit)
