"""The engine's enum values as a text shows them: variants, match formats, lurches; and the
sides' default names (the colours of their LED tracks) in the table's language.

The engine names them in English ("six-card", "best-of-three", "double-skunked"), and JSON keeps
those names; a line of text, the score sheet or a screen says them in its language.

>>> from pegboard.i18n import Language, translator
>>> value_words(translator(Language.ENGLISH), "best-of-three")
'best-of-three'
>>> value_words(translator(Language.GERMAN), "six-card")
'sechs Karten'
"""

from __future__ import annotations

from pegboard.engine.rules import DEFAULT_NAMES, Rules, default_names
from pegboard.i18n import N_, NC_, Translator

__all__ = ["local_default_names", "value_words"]

_VALUES = {
    "six-card": N_("six-card"),
    "five-card": N_("five-card"),
    "three-handed": N_("three-handed"),
    "four-handed": N_("four-handed"),
    "two-against-one": N_("two-against-one"),
    "two-in-the-crib": N_("two-in-the-crib"),
    "best-of-three": N_("best-of-three"),
    "first-to-two": N_("first-to-two"),
    "first-to-three": N_("first-to-three"),
    "single": N_("single"),
    "lurched": N_("lurched"),
    "double-skunked": N_("double-skunked"),
}


def value_words(tr: Translator, value: str) -> str:
    """An enum's *value* in *tr*'s language; a value the table does not know, as it is."""
    return tr.gettext(_VALUES[value]) if value in _VALUES else value


_NAMES = dict(
    zip(DEFAULT_NAMES, (NC_("side", "Sky"), NC_("side", "Gold"), NC_("side", "Lilac")), strict=True)
)
"""The default names by colour: at most five letters in every language, as the screens' three
columns hold."""


def local_default_names(tr: Translator, rules: Rules) -> tuple[str, ...]:
    """The sides' names when nobody names them, in *tr*'s language: their tracks' colours.

    >>> from pegboard.i18n import Language, translator
    >>> local_default_names(translator(Language.GERMAN), Rules.three_handed())
    ('Azur', 'Gold', 'Lila')
    >>> local_default_names(translator(Language.ENGLISH), Rules.six_card())
    ('Sky', 'Gold')
    """
    return tuple(tr.pgettext("side", _NAMES[name]) for name in default_names(rules))
