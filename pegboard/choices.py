"""Names from config files and command lines that choose one member of an enum.

>>> from pegboard.engine.rules import Variant
>>> parse_choice(Variant, " Five_Card ", "variant")
<Variant.FIVE_CARD: 'five-card'>
"""

from __future__ import annotations

import enum
from typing import TypeVar

from pegboard.errors import ConfigError, quote

__all__ = ["parse_choice"]

E = TypeVar("E", bound=enum.Enum)


def parse_choice(cls: type[E], text: str, what: str) -> E:
    """The member of *cls* whose value is *text*, ignoring case, spaces around it, and ``_``
    written for ``-``. *what* names the setting in the message.

    Raises:
        ConfigError: no member has that name; the message lists the names there are.
    """
    key = text.strip().lower().replace("_", "-")
    for member in cls:
        if member.value == key:
            return member
    names = ", ".join(str(member.value) for member in cls)
    raise ConfigError(f"unknown {what}: {quote(text)} (expected one of {names})")
