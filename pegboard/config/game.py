"""``[game]``: the rules and house rules, who plays (the sides' names and the roster), how many
games make a match, where the journal lives, and the language the table speaks.

The sides' names start each new journal's first match (without them, the engine's defaults:
Sky, Gold, Lilac, the default LED tracks' colours). The roster is the house's players: the
device's menu offers its names for each side of a new match (``ui.menu``), and the journal keeps
the names with each match, so a restart resumes them. A roster name must fit a menu line beside
"A side 1", and the list must be short enough to step through one press a name.

``language`` ("en" or "de") is what the screens, the keypad's hints and the calls say; without
it, the locale's (``i18n.Language.from_environment``: German when ``LC_ALL``, ``LC_MESSAGES``
or ``LANG`` starts with "de", English otherwise).

>>> from pegboard.config.fields import Fields
>>> game = parse_game(Fields({"roster": ["Ann", "Bob", "Cy"]}, "game"), None)
>>> game.names, game.roster
(None, ('Ann', 'Bob', 'Cy'))
>>> parse_game(Fields({"roster": ["Ann", "Bartholomew"]}, "game"), None)
Traceback (most recent call last):
...
pegboard.errors.ConfigError: config: game.roster has a name too long for the screen: 'Bartholomew' (expected at most 10 characters)
"""  # noqa: E501

from __future__ import annotations

import os
from dataclasses import field
from pathlib import Path
from typing import Any

from pegboard.config.fields import REQUIRED, Fields
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules, Variant
from pegboard.errors import ConfigError, quote
from pegboard.frozen import frozen
from pegboard.i18n import Language
from pegboard.journal import default_db_path

__all__ = ["ROSTER_NAME_LENGTH", "ROSTER_SIZE", "GameConfig", "parse_game"]

ROSTER_SIZE = 12
"""The most names ``[game] roster`` may hold: a side's menu key steps through them one press
at a time, so a longer list would take too many presses to get round."""

ROSTER_NAME_LENGTH = 10
"""The most characters in a roster name: the menu line "A side 1" and a name of 10 fill the 21
characters of a 128-pixel-wide screen's line."""


@frozen
class GameConfig:
    """``[game]``: the rules, who plays, how many games make a match, where the journal lives."""

    rules: Rules = field(default_factory=Rules.six_card)
    names: tuple[str, ...] | None = None
    """One word per side for the first match; None means the engine's defaults
    (``engine.game.default_names``: Sky, Gold, Lilac)."""
    match_format: MatchFormat = MatchFormat.BEST_OF_THREE
    database: Path = field(default_factory=default_db_path)
    """``pegboard.journal.default_db_path()`` unless ``[game] database`` says otherwise."""
    roster: tuple[str, ...] = ()
    """The house's players: the device's menu offers these names for each side of a new
    match. At most ``ROSTER_SIZE`` names of at most ``ROSTER_NAME_LENGTH`` characters."""
    language: Language = field(default_factory=lambda: Language.from_environment(os.environ))
    """What the table speaks: ``[game] language``, else the locale's (German or English)."""


_GAME_KEYS = (
    "variant",
    "names",
    "roster",
    "target",
    "muggins",
    "muggins_in_play",
    "starter_counts_in_play",
    "win_points",
    "lurch_points",
    "double_skunk_points",
    "lurch_line",
    "double_skunk_line",
    "match",
    "database",
    "language",
)
_MANY = 10**9  # points past any game, small enough to keep the arithmetic exact


def parse_game(f: Fields, base: Path | None) -> GameConfig:
    """``[game]``, read from *f*; a relative ``database`` is taken from *base*.

    Raises:
        ConfigError: an unknown key, or a bad value or combination (best of three for three
            separate players).
    """
    f.known(_GAME_KEYS)
    variant = f.member("variant", Variant, Variant.SIX_CARD)
    options: dict[str, Any] = {}
    for key in ("muggins", "muggins_in_play", "starter_counts_in_play"):
        if key in f:
            options[key] = f.flag(key, False)
    for key in ("target", "win_points", "lurch_points", "double_skunk_points"):
        if key in f:
            options[key] = f.whole(key, REQUIRED, low=1 if key == "target" else 0, high=_MANY)
    for key in ("lurch_line", "double_skunk_line"):
        if key in f:
            value = f.table[key]
            if value is False:
                options[key] = None  # "no such line"
            elif isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise f.error(key, "a hole number like 91, or false for none", value)
            else:
                options[key] = value
    try:
        rules = Rules.for_variant(variant, **options)
    except ConfigError as e:
        raise ConfigError(f"config: game.{str(e).removeprefix('rules: ')}") from e

    names: tuple[str, ...] | None = None
    if "names" in f:
        expected = f"one word per side ({rules.sides} for {variant.value})"
        names = f.names("names", (), expected=expected, count=rules.sides)
    roster = f.names(
        "roster",
        (),
        expected="a list of one-word names like ['Ann', 'Bob', 'Cy']",
        most=ROSTER_SIZE,
        longest=ROSTER_NAME_LENGTH,
    )

    fmt = f.member("match", MatchFormat, MatchFormat.default_for(rules))
    if fmt is MatchFormat.BEST_OF_THREE and rules.sides != 2:
        raise ConfigError(
            f"config: game.match {quote(f.table.get('match', fmt.value))} counts game points, "
            f"which "
            f"{rules.sides} separate players do not have (expected first-to-two or single)"
        )

    if "database" in f:
        db = Path(os.path.expanduser(f.string("database", REQUIRED)))
        if not db.is_absolute() and base is not None:
            db = base / db
    else:
        db = default_db_path()
    language = f.member("language", Language, Language.from_environment(os.environ))
    return GameConfig(rules, names, fmt, db, roster, language)
