"""One kit of TOML field readers: every config key is read, checked and named the same way.

Theory of operation
-------------------
``Fields`` wraps one TOML table together with its place in the file (``display``,
``leds.tracks[1]``). Each reader takes a key and a default (or ``REQUIRED``), checks the value's
type and range, and returns it typed; a bad value stops the daemon with one message in one
style, naming the key by its dotted path from the top of the file, showing the value as
``quote`` gives it (shortened, so a 1 MB value still makes one line), and saying what was
expected::

    config: leds.strips[0].count must be a whole number from 1 to 10000, got 'x'
    config: leds.strips[0].count is required (a whole number from 1 to 10000)
    config: display.interface must be 'i2c', 'spi', 'gpio_cs_spi', 'bitbang' or 'noop', got 'usb'
    config: buttons.undoo is not a known key (did you mean 'undo'?)
    config: game.players is not a known key (expected one of variant, names, ...)

A key that is not a plain word is quoted (``game.'two words'``). TOML's ``true`` and ``false``
are never taken for the numbers 1 and 0.

>>> f = Fields({"count": 244, "kind": "sim"}, "leds.strips[0]")
>>> f.whole("count", REQUIRED, low=1, high=10_000)
244
>>> f.whole("first", 0, low=0, high=10_000)
0
>>> f.string("name", REQUIRED)
Traceback (most recent call last):
...
pegboard.errors.ConfigError: config: leds.strips[0].name is required (a non-empty string)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, TypeVar

from pegboard.choices import parse_choice
from pegboard.devices.ports import Color
from pegboard.engine.cards import MAX_TEXT_BYTES
from pegboard.errors import ConfigError, quote, quote_name

__all__ = [
    "BCM_PINS",
    "REQUIRED",
    "Fields",
    "Required",
    "alternatives",
    "did_you_mean",
]

BCM_PINS = range(28)
"""GPIO0..GPIO27: the BCM numbers on the 40-pin header of every Pi that has one."""

E = TypeVar("E", bound=enum.Enum)
T = TypeVar("T", int, str)


class Required(enum.Enum):
    """The type of ``REQUIRED``: a default that says the key must be given."""

    REQUIRED = "required"


REQUIRED: Final = Required.REQUIRED
"""Pass as a reader's default when the key has none: a missing key is then an error."""


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str:
    """`` (did you mean 'x'?)`` for the choice closest to *word* (in any case), or "" if none
    is as close as *cutoff* (difflib's ratio).

    >>> did_you_mean("undoo", ["undo", "ok"])
    " (did you mean 'undo'?)"
    >>> did_you_mean("key_kp55", ["KEY_KP5", "KEY_KP6"])
    " (did you mean 'KEY_KP5'?)"
    >>> did_you_mean("fps", ["scale", "color"])
    ''
    """
    import difflib  # only when a word is wrong: not on the way to the first frame

    by_lower: dict[str, str] = {}
    for choice in choices:
        by_lower.setdefault(choice.lower(), choice)
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=cutoff)
    return f" (did you mean {quote(by_lower[close[0]])}?)" if close else ""


def alternatives(choices: Sequence[object]) -> str:
    """The choices as a message lists them: ``'a', 'b' or 'c'`` (each one ``quote``-d).

    >>> alternatives([1, -1]), alternatives(["1", "RGB", "RGBA"])
    ('1 or -1', "'1', 'RGB' or 'RGBA'")
    """
    shown = [quote(choice) for choice in choices]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _is_word(name: str) -> bool:
    """One printable word: no spaces, no commas, no control characters.

    >>> _is_word("Ann"), _is_word("Ann Lee"), _is_word("Ann,Bob"), _is_word(""), _is_word("A\\x07")
    (True, False, False, False, False)
    """
    return bool(name) and name.isprintable() and name.split() == [name] and "," not in name


def _same(choice: object, value: object, casefold: bool) -> bool:
    """Whether *value* names *choice*: a bool is never a number, text may ignore case."""
    if isinstance(choice, str):
        if not isinstance(value, str):
            return False
        return value.strip().lower() == choice.lower() if casefold else value == choice
    return not isinstance(value, bool | str) and value == choice


class Fields:
    """One TOML table and its dotted path in the file, with a reader for each kind of value.

    Every reader takes a key and a default; ``REQUIRED`` as the default makes a missing key an
    error. Each raises ``ConfigError`` for a value that is missing, of the wrong type or out of
    range, in the style of the module notes.
    """

    __slots__ = ("path", "table")

    def __init__(self, table: Mapping[str, Any], path: str = "") -> None:
        self.table = table
        self.path = path

    def __contains__(self, key: object) -> bool:
        return key in self.table

    def name(self, key: str) -> str:
        """The dotted path of *key*: ``display.width``; a key that is not a plain word quoted."""
        return f"{self.path}.{quote_name(key)}" if self.path else quote_name(key)

    def error(self, key: str, expected: str, value: object) -> ConfigError:
        """``config: <path>.<key> must be <expected>, got <value>``, for checks of one's own."""
        return ConfigError(f"config: {self.name(key)} must be {expected}, got {quote(value)}")

    def _get(self, key: str, default: object, expected: str) -> Any:
        value = self.table.get(key, default)
        if value is REQUIRED:
            raise ConfigError(f"config: {self.name(key)} is required ({expected})")
        return value

    def known(
        self, allowed: Sequence[str], *, what: str = "key", expected: str | None = None
    ) -> None:
        """Refuse a key not in *allowed*, suggesting the closest one.

        Without a close one, the message lists *allowed* (in their order), or says *expected*
        when given (for long lists: ``a Linux key name like 'KEY_KP5'``).

        Raises:
            ConfigError: ``config: buttons.undoo is not a known key (did you mean 'undo'?)``.
        """
        for key in self.table:
            if key not in allowed:
                hint = did_you_mean(key, allowed)
                if not hint:
                    hint = f" (expected {expected or 'one of ' + ', '.join(allowed)})"
                raise ConfigError(f"config: {self.name(key)} is not a known {what}{hint}")

    def string(self, key: str, default: str | Required) -> str:
        """Non-empty text, spaces around it removed.

        Raises:
            ConfigError: missing (if required), not text, or blank.
        """
        expected = "a non-empty string"
        value = self._get(key, default, expected)
        if not isinstance(value, str) or not value.strip():
            raise self.error(key, expected, value)
        return value.strip()

    def flag(self, key: str, default: bool) -> bool:
        """``true`` or ``false``.

        Raises:
            ConfigError: anything else.
        """
        value = self.table.get(key, default)
        if not isinstance(value, bool):
            raise self.error(key, "true or false", value)
        return value

    def whole(self, key: str, default: int | Required, *, low: int, high: int) -> int:
        """A whole number from *low* to *high*.

        Raises:
            ConfigError: missing (if required), not a whole number, or out of range.
        """
        expected = f"a whole number from {low} to {high}"
        value = self._get(key, default, expected)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.error(key, expected, value)
        return value

    def number(self, key: str, default: float, *, low: float, high: float) -> float:
        """A number (whole or not) from *low* to *high*.

        Raises:
            ConfigError: not a number, or out of range.
        """
        value = self.table.get(key, default)
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            raise self.error(key, f"a number from {low:g} to {high:g}", value)
        return float(value)

    def seconds(self, key: str, default: float, *, high: float = 86_400.0) -> float:
        """A time in seconds from 0 to *high* (a day unless told).

        Raises:
            ConfigError: not a number, negative, or above *high*.
        """
        value = self.table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= high:
            raise self.error(key, f"a number of seconds from 0 to {high:g}", value)
        return float(value)

    def names(
        self,
        key: str,
        default: tuple[str, ...],
        *,
        expected: str,
        count: int | None = None,
        most: int | None = None,
        longest: int | None = None,
    ) -> tuple[str, ...]:
        """A list of names, each one printable word, no two the same but for case
        (``["Ann", "Bob"]``): the sides' names, or a roster of players.

        A name is a word because names are words in the command syntax (``peg Ann 4``): no
        spaces and no commas. *count* asks for exactly that many names, *most* for at most that
        many, *longest* for at most that many characters each (every name is also held to
        ``MAX_TEXT_BYTES`` bytes); *expected* is what the message says a good value is.

        Raises:
            ConfigError: not a list of one-word names (or not *count* of them), more than
                *most*, a name too long, or a name twice.
        """
        value = self.table.get(key, list(default))
        if (
            not isinstance(value, list)
            or (count is not None and len(value) != count)
            or not all(isinstance(name, str) and _is_word(name) for name in value)
        ):
            raise self.error(key, expected, value)
        if most is not None and len(value) > most:
            raise ConfigError(
                f"config: {self.name(key)} has {len(value)} names (expected at most {most})"
            )
        for name in value:
            if len(name.encode("utf-8")) > MAX_TEXT_BYTES:
                raise ConfigError(
                    f"config: {self.name(key)} has a name too long: {quote(name)} (expected at "
                    f"most {MAX_TEXT_BYTES} bytes)"
                )
            if longest is not None and len(name) > longest:
                raise ConfigError(
                    f"config: {self.name(key)} has a name too long for the screen: {quote(name)} "
                    f"(expected at most {longest} characters)"
                )
        if len({name.lower() for name in value}) != len(value):
            raise ConfigError(f"config: {self.name(key)} must all differ, got {quote(value)}")
        return tuple(value)

    def pin(self, key: str, default: int | Required) -> int:
        """A BCM GPIO number on the header, 0 to 27.

        Raises:
            ConfigError: missing (if required), not a whole number, or not a header GPIO.
        """
        expected = "a BCM GPIO number from 0 to 27"
        value = self._get(key, default, expected)
        if isinstance(value, bool) or not isinstance(value, int) or value not in BCM_PINS:
            raise self.error(key, expected, value)
        return value

    def pins(self, key: str, default: tuple[int, ...]) -> tuple[int, ...]:
        """A list of one to eight BCM GPIO numbers (a keypad's rows or columns).

        Raises:
            ConfigError: not a list, empty or longer than 8, or an item not a header GPIO.
        """
        value = self.table.get(key, list(default))
        if (
            not isinstance(value, list)
            or not 1 <= len(value) <= 8
            or any(
                isinstance(p, bool) or not isinstance(p, int) or p not in BCM_PINS for p in value
            )
        ):
            raise self.error(key, "a list of BCM GPIO numbers from 0 to 27", value)
        return tuple(value)

    def choice(
        self,
        key: str,
        default: T,
        choices: Sequence[T],
        *,
        note: str = "",
        expected: str | None = None,
        casefold: bool = False,
    ) -> T:
        """One of *choices*, returned as the choice itself (with *casefold*, text may differ in
        case and spaces around it).

        The message lists the choices, then *note* in brackets (``quarter turns``), or says
        *expected* instead of the list (``a luma.oled display like 'ssd1306'``); text close to
        a choice gets a did-you-mean.

        Raises:
            ConfigError: not one of *choices*.
        """
        value = self.table.get(key, default)
        for choice in choices:
            if _same(choice, value, casefold):
                return choice
        text = expected or alternatives(choices)
        if note:
            text += f" ({note})"
        hint = ""
        if isinstance(value, str):
            words = [str(c) for c in choices if isinstance(c, str)]
            hint = did_you_mean(value.strip().lower() if casefold else value, words)
        raise ConfigError(f"{self.error(key, text, value)}{hint}")

    def member(self, key: str, kind: type[E], default: E | Required) -> E:
        """The member of the enum *kind* that the text names, as ``parse_choice`` reads it
        (any case, ``_`` for ``-``).

        Raises:
            ConfigError: missing (if required), or not one of the members' names.
        """
        names = [str(member.value) for member in kind]
        expected = alternatives(names)
        value = self._get(key, default, expected)
        if isinstance(value, kind):
            return value
        if isinstance(value, str):
            try:
                return parse_choice(kind, value, key)
            except ConfigError:
                pass
            hint = did_you_mean(value.strip().lower().replace("_", "-"), names)
        else:
            hint = ""
        raise ConfigError(f"{self.error(key, expected, value)}{hint}")

    def color(self, key: str, default: Color) -> Color:
        """A colour: ``[r, g, b]`` of 0..255, or ``"#rrggbb"``.

        Raises:
            ConfigError: anything else.
        """
        value = self.table.get(key, default)
        channels: list[Any] | None = None
        if isinstance(value, str) and len(value) == 7 and value.startswith("#"):
            try:
                channels = [int(value[i : i + 2], 16) for i in (1, 3, 5)]
            except ValueError:
                channels = None
        elif isinstance(value, list | tuple) and len(value) == 3:
            channels = list(value)
        if channels is None or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in channels
        ):
            raise self.error(key, "a colour [r, g, b] of 0..255 or '#rrggbb'", value)
        return (channels[0], channels[1], channels[2])

    def sub(self, key: str) -> Fields:
        """The table under *key* (a section, ``leds.colors``); missing, an empty one.

        Raises:
            ConfigError: the value is not a table.
        """
        value = self.table.get(key, {})
        if not isinstance(value, Mapping):
            raise self.error(key, "a table", value)
        return Fields(value, self.name(key))

    def subs(self, key: str) -> list[Fields]:
        """The tables of the array under *key* (``[[leds.strips]]``), named ``key[0]``, ...

        Raises:
            ConfigError: missing, not a non-empty list, or an item not a table.
        """
        value = self.table.get(key)
        if not isinstance(value, list) or not value:
            raise self.error(key, "a non-empty list of tables", value)
        tables = []
        for index, item in enumerate(value):
            where = f"{self.name(key)}[{index}]"
            if not isinstance(item, Mapping):
                raise ConfigError(f"config: {where} must be a table, got {quote(item)}")
            tables.append(Fields(item, where))
        return tables
