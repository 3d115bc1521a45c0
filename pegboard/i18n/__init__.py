"""The table's language: English, or German in the German rules document's own words.

Theory of operation
-------------------
A ``Language`` is a setting like the screen style: ``[game] language`` in the config, ``--lang``
on the command line, and without either the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: one
starting with "de" means German). It is passed down as a value, never kept in a global: a
screen renderer, the keypad's entry and the command line each take the language they draw or
print in, English by default.

``translator(language)`` gives the words of a language. English is the message itself: no
catalogue is read and ``gettext`` is never imported, so an English table (and every English
command) pays nothing. German reads ``pegboard/locale/de/LC_MESSAGES/pegboard.po`` once per
process at first use, builds the compiled catalogue in memory and hands it to the standard
library's ``gettext.GNUTranslations`` (``i18n.po``); nothing is written anywhere.

Code marks each user-facing English string where it is used: ``tr.gettext("...")``,
``tr.ngettext(...)``, ``tr.pgettext(context, "...")``, and ``N_("...")`` (``NC_(context,
"...")``) for a string kept in a table and translated later. ``tools/messages.py`` reads those
calls with ``ast``, and a test fails when the German catalogue lacks one. Placeholders are
named (``"{name}: hand"``) and filled with ``str.format`` after translation, so a translation
may move them.

The calls (the itemised count in words) are grammar as much as words: ``i18n.calls`` renders
a breakdown's items in a language, German numbers as words (``i18n.numbers``).

>>> Language.from_environment({"LANG": "de_AT.UTF-8"}), Language.from_environment({})
(<Language.GERMAN: 'de'>, <Language.ENGLISH: 'en'>)
>>> translator(Language.ENGLISH).gettext("the count")
'the count'
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import gettext

__all__ = ["LOCALE_DIR", "NC_", "N_", "Language", "Translator", "translator"]

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""The catalogues, beside the package's modules: ``locale/<code>/LC_MESSAGES/pegboard.po``."""

DOMAIN = "pegboard"


class Language(enum.Enum):
    """A language the table speaks, by its ISO 639-1 code."""

    ENGLISH = "en"
    GERMAN = "de"

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> Language:
        """The language of the locale in *environ*: the first of ``LC_ALL``, ``LC_MESSAGES``
        and ``LANG`` that is set (POSIX's order) names it; German when it starts with "de",
        English otherwise (also for "C", "POSIX" or nothing set).

        >>> Language.from_environment({"LC_ALL": "C", "LANG": "de_DE.UTF-8"})
        <Language.ENGLISH: 'en'>
        >>> Language.from_environment({"LC_MESSAGES": "de_CH", "LANG": "en_GB"})
        <Language.GERMAN: 'de'>
        """
        for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
            value = environ.get(key, "")
            if value:
                return cls.GERMAN if value.lower().startswith("de") else cls.ENGLISH
        return cls.ENGLISH


def N_(message: str) -> str:
    """Mark *message* for the catalogue where it is defined; it is translated where used."""
    return message


def NC_(context: str, message: str) -> str:
    """Mark *message* in *context* for the catalogue; ``pgettext(context, ...)`` translates it
    where it is used."""
    return message


class Translator:
    """The words of one language. This base is English: every message is itself and numbers
    are digits; ``translator(Language.GERMAN)`` reads the German catalogue.

    >>> tr = Translator()
    >>> tr.ngettext("{n} game point", "{n} game points", 2).format(n=tr.number(2))
    '2 game points'
    """

    language = Language.ENGLISH

    def gettext(self, message: str) -> str:
        """*message* in this language."""
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """*singular* or *plural*, as *n* asks in this language."""
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        """*message* in this language, where *context* tells it apart from the same words
        elsewhere."""
        return message

    def number(self, n: int) -> str:
        """*n* as the calls say it: digits in English ("fifteen 2"), words in German."""
        return str(n)


class CatalogueTranslator(Translator):
    """A language read from its gettext catalogue (see ``translator``)."""

    def __init__(self, language: Language, catalogue: gettext.GNUTranslations) -> None:
        self.language = language
        self._catalogue = catalogue

    def gettext(self, message: str) -> str:
        return self._catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._catalogue.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self._catalogue.pgettext(context, message)

    def number(self, n: int) -> str:
        from pegboard.i18n.numbers import number_words

        return number_words(n, self.language.value)


def catalogue_path(language: Language, base: Path = LOCALE_DIR) -> Path:
    """Where the ``.po`` catalogue of *language* is kept."""
    return base / language.value / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translator(language: Language) -> Translator:
    """The words of *language*; English reads nothing, another language its catalogue once.

    Raises:
        OSError: the catalogue of a language other than English cannot be read (a broken
            install: the ``.po`` files are package data).
    """
    if language is Language.ENGLISH:
        return Translator()
    from pegboard.i18n.po import load_catalogue

    return CatalogueTranslator(language, load_catalogue(catalogue_path(language)))
