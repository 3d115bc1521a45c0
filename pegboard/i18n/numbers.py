"""Numbers as words, the way the calls say them ("fünfzehn – zwei ... macht zwölf").

German writes a number below a million as one word: the units before the tens joined by
"und" ("einundzwanzig"), "eins" alone but "ein" inside a word ("einhundert", "einundzwanzig"),
and the irregular "sechzehn", "siebzehn", "dreißig".

>>> [number_words(n, "de") for n in (1, 12, 16, 21, 29, 31, 100, 121)]  # doctest: +NORMALIZE_WHITESPACE
['eins', 'zwölf', 'sechzehn', 'einundzwanzig', 'neunundzwanzig', 'einunddreißig', 'einhundert',
 'einhunderteinundzwanzig']
>>> number_words(12, "en")
'12'

Numbers in digits are written as the language writes them (``decimal``, ``percent``): English
"12,994,800", "12.43" and "7.76471%"; German "12.994.800", "12,43" and "7,76471 %". The marks
come from the catalogue, so English reads nothing.

>>> from pegboard.i18n import Language, translator
>>> de = translator(Language.GERMAN)
>>> decimal(12_994_800, 0, de), decimal(12.4321, 2, de), percent(0.0776471, 5, de)
('12.994.800', '12,43', '7,76471 %')
>>> en = translator(Language.ENGLISH)
>>> decimal(12_994_800, 0, en), decimal(12.4321, 2, en), percent(0.0776471, 5, en)
('12,994,800', '12.43', '7.76471%')
"""  # noqa: E501

from __future__ import annotations

from typing import Protocol

__all__ = ["Marks", "decimal", "german_number", "number_words", "percent"]


class Marks(Protocol):
    """Where a number's marks come from: a language's catalogue (``i18n.Translator``), which
    this module does not import, as ``i18n`` imports this one for its numbers in words."""

    def pgettext(self, context: str, message: str) -> str: ...


_UNITS = ("null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun")
_TEENS = (
    "zehn",
    "elf",
    "zwölf",
    "dreizehn",
    "vierzehn",
    "fünfzehn",
    "sechzehn",
    "siebzehn",
    "achtzehn",
    "neunzehn",
)
_TENS = (
    "",
    "",
    "zwanzig",
    "dreißig",
    "vierzig",
    "fünfzig",
    "sechzig",
    "siebzig",
    "achtzig",
    "neunzig",
)


def german_number(n: int) -> str:
    """*n* (0 to 999,999) as a German word; a negative *n* starts with "minus".

    Raises:
        ValueError: *n* is a million or more.
    """
    if n < 0:
        return f"minus {german_number(-n)}"
    if n >= 1_000_000:
        raise ValueError(f"number too large for words: {n!r} (expected below 1000000)")
    if n == 0:
        return "null"
    thousands, rest = divmod(n, 1000)
    words = ""
    if thousands:
        words = _below_thousand(thousands, alone=False) + "tausend"
    if rest:
        words += _below_thousand(rest, alone=True)
    return words


def _below_thousand(n: int, *, alone: bool) -> str:
    """1..999 as a word; *alone*: the number ends here ("eins", not "ein")."""
    hundreds, rest = divmod(n, 100)
    words = f"{_unit(hundreds, alone=False)}hundert" if hundreds else ""
    if rest >= 20:
        tens, units = divmod(rest, 10)
        words += f"{_unit(units, alone=False)}und{_TENS[tens]}" if units else _TENS[tens]
    elif rest >= 10:
        words += _TEENS[rest - 10]
    elif rest:
        words += _unit(rest, alone=alone)
    return words


def _unit(n: int, *, alone: bool) -> str:
    return "ein" if n == 1 and not alone else _UNITS[n]


def number_words(n: int, language: str) -> str:
    """*n* as the calls of *language* (an ISO 639-1 code) say it: words in German, digits
    otherwise."""
    if language == "de":
        return german_number(n)
    return str(n)


def decimal(value: float, places: int, tr: Marks) -> str:
    """*value* with *places* decimals, its digits grouped in thousands, as *tr*'s language
    writes a number ("12,994,800" and "12.43"; German "12.994.800" and "12,43")."""
    point = tr.pgettext("decimal point", ".")
    thousands = tr.pgettext("thousands separator", ",")
    return f"{value:,.{places}f}".translate(str.maketrans(",.", thousands + point))


def percent(share: float, places: int, tr: Marks) -> str:
    """*share* (0.5 is half) in percent with *places* decimals, as *tr*'s language writes it
    ("7.76471%"; German "7,76471 %", with a space before the sign)."""
    return tr.pgettext("number", "{percent}%").format(percent=decimal(share * 100, places, tr))
