"""The engine's enum values as a text shows them: variants, match formats, lurches.

The engine names them in English ("six-card", "best-of-three", "double-skunked"), and JSON keeps
those names; a line of text, the score sheet or a screen says them in its language.

>>> from pegboard.i18n import Language, translator
>>> value_words(translator(Language.ENGLISH), "best-of-three")
'best-of-three'
>>> value_words(translator(Language.GERMAN), "six-card")
'sechs Karten'
"""

from __future__ import annotations

from pegboard.i18n import N_, Translator

__all__ = ["value_words"]

_VALUES = {
    "six-card": N_("six-card"),
    "five-card": N_("five-card"),
    "three-handed": N_("three-handed"),
    "four-handed": N_("four-handed"),
    "two-against-one": N_("two-against-one"),
    "two-in-the-crib": N_("two-in-the-crib"),
    "best-of-three": N_("best-of-three"),
    "first-to-two": N_("first-to-two"),
    "single": N_("single"),
    "lurched": N_("lurched"),
    "double-skunked": N_("double-skunked"),
}


def value_words(tr: Translator, value: str) -> str:
    """An enum's *value* in *tr*'s language; a value the table does not know, as it is."""
    return tr.gettext(_VALUES[value]) if value in _VALUES else value
