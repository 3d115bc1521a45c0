"""What a side's name typed for a new match may hold (``check_new_names``).

A name is drawn on the OLED, on the pub page and on the printed score sheet, so it must be
printable. The game itself (``GameState.new``) holds names only to what the command syntax needs
(one word, no commas), so a journal written before this check still replays.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from pegboard.errors import quote

from .cards import check_text
from .commands import InvalidCommandError

__all__ = ["check_new_names"]

_UNSHOWN = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
"""The kinds of character a side name may not hold (Unicode categories), as a message says them."""


def check_new_names(names: Sequence[str]) -> None:
    """Refuse side names typed for a new match that a screen, a web page or a sheet cannot show.

    A name is drawn on the OLED, the pub page and the printed sheet, so it may not hold a control
    character (U+0001, a tab, a newline), an invisible format character (U+200B), a line or
    paragraph separator, or the noncharacters U+FFFE and U+FFFF; nor undecodable bytes or more
    than 4096 bytes (``check_text``). Only new names are checked: a journal that already holds
    such a name still replays (``GameState.new`` does not ask this).

    Raises:
        InvalidCommandError: the first name that holds such a character, naming it.

    >>> check_new_names(["Ann", "B\\x01b"])
    Traceback (most recent call last):
    ...
    pegboard.engine.commands.InvalidCommandError: a side name must be printable text, got 'B\\x01b' (U+0001 at character 2 is a control character; expected letters, digits, marks or symbols)
    """  # noqa: E501
    for name in names:
        check_text(name, "side name", InvalidCommandError)
        for at, ch in enumerate(name, start=1):
            kind = _UNSHOWN.get(unicodedata.category(ch))
            if kind is None and ch in "\ufffe\uffff":
                kind = "a noncharacter"
            if kind is not None:
                raise InvalidCommandError(
                    f"a side name must be printable text, got {quote(name)} (U+{ord(ch):04X} at "
                    f"character {at} is {kind}; expected letters, digits, marks or symbols)"
                )
