"""The command line's language: ``--lang``, the locale's default, and the one-line errors.

Every command takes ``--lang en|de`` (before or after its name; ``add_lang``) and prints its
text in that language, else the locale's (``language_of``). JSON and CSV are the same in every
language.

The errors a player meets are raised in English where they happen: the engine stays pure and
English, and a script's ``except`` sees one message whatever the table speaks. ``error_text``
says one in the user's language at the command line's boundary, from the templates below: each
is an English message with ``{fields}`` for what varies, marked for the catalogue, and an error
whose whole message matches one is said again by its translation (a field called ``error`` is
itself an error, said again the same way; a field called ``what`` is a word from ``_WORDS``, one
called ``variant`` a variant's name).
A message no template matches stays English. English reads nothing: the message is returned as
it was, byte for byte.

>>> error_text("invalid card: '1H' (expected rank A,2-10,J,Q,K then suit C,D,H,S, e.g. '5H')",
...            Language.GERMAN)
"keine Karte: '1H' (erwartet: Rang A, 2-10, J, Q, K, dann Farbe C, D, H, S, z. B. '5H')"
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import string

from pegboard.i18n import N_, Language, Translator, translator
from pegboard.i18n.values import value_words

__all__ = ["add_lang", "error_text", "language_of", "value_words", "words_of"]

_LANGUAGES = [language.value for language in Language]


def add_lang(parser: argparse.ArgumentParser, *, top: bool = False) -> None:
    """``--lang``: on the top parser with its default (None: the locale's), on a command
    without one, so ``pegboard --lang de game show`` and ``pegboard game show --lang de`` both
    work."""
    parser.add_argument(
        "--lang",
        choices=_LANGUAGES,
        default=None if top else argparse.SUPPRESS,
        help="language of the text output (default: the locale's; JSON is always the same)",
    )


def language_of(args: argparse.Namespace) -> Language:
    """The language a command prints in: ``--lang``, else the locale's."""
    lang: str | None = getattr(args, "lang", None)
    return Language(lang) if lang else Language.from_environment(os.environ)


def words_of(args: argparse.Namespace) -> Translator:
    """The words of the language a command prints in (English reads no catalogue)."""
    return translator(language_of(args))


# --- the errors a player meets -----------------------------------------------------------------

_TEMPLATES = (
    # pegboard game do: which command failed (its own error said again inside)
    N_("command {number} {text} failed: {error}; the {before} before it stay applied"),
    N_("command {number} {text} failed: {error}"),
    N_("line {number}: {error}"),
    # cards (pegboard score, peg, advise, game do)
    N_(
        "invalid card: {text} (expected rank A,2-10,J,Q,K then suit C,D,H,S, e.g. '5H'): did you "
        "mean {card}?"
    ),
    N_("invalid card: {text} (expected rank A,2-10,J,Q,K then suit C,D,H,S, e.g. '5H')"),
    N_("invalid rank: {text} (expected A, 2-10 (or T), J, Q or K)"),
    N_("invalid word in the cards laid: {text} (expected a card, e.g. '5H', or go)"),
    N_("duplicate card {card} in {cards}"),
    N_("duplicate card {card} in series {cards}"),
    N_("wrong number of cards for a {what}: {cards} has {n}, expected {expected}"),
    N_("line too long: over {size} bytes (expected one {what} per line)"),
    # the play
    N_("cannot play {card}: count is {count} and {card} would make {total} (over 31)"),
    N_("cannot play {card}: the play is over"),
    N_("cannot play {card}: it was already laid this deal"),
    N_("cannot play {card}: it is the starter"),
    N_("cannot play {card}: it is out of the play this deal (a discard or a seen card)"),
    N_("cannot say go: the play is over"),
    N_("cannot say go: every card fits (count is {count})"),
    # the game's commands (pegboard game do)
    N_("unknown command: {word} (expected one of {words})"),
    N_("empty command: {text} (expected one of {words})"),
    N_("{word} takes no arguments, got {text}"),
    N_("{word} takes one card, got {text} (expected e.g. '{word} 5H')"),
    N_("no side called {text} (expected one of {names})"),
    N_("peg takes a side and points, got {text} (expected e.g. 'peg B 2')"),
    N_("points must be between 1 and {most}, got {points} in {text}"),
    N_("cannot accept {command} in phase {phase} (expected {expected}, undo or redo)"),
    N_(
        "cannot accept {command}: the game is over ({winner} won {scores}); 'next' starts game "
        "{game}, or 'undo'"
    ),
    N_(
        "cannot accept {command}: the match is over ({winner} won it); start a new match, or 'undo'"
    ),
    # a new match's sides (pegboard game new)
    N_("need one name per side ({sides}) for {variant}, got {names}"),
    N_("a side name must be one word, got {name}"),
    N_("side names must differ, got {names}"),
    N_(
        "a side name must be printable text, got {name} (U+{code} at character {at} is {what}; "
        "expected letters, digits, marks or symbols)"
    ),
    # a path the file system refuses (any command)
    N_("cannot open {path}: {part} is a file, not a folder"),
    N_("cannot open {path}: File name too long"),
    # the journal
    N_("no match in {path}: start one with 'pegboard game new'"),
    N_("no journal at {path}: start one with 'pegboard game new --db {db}'"),
    N_(
        "{path} is not a pegboard journal ({what}); it was left as it is (expected a journal "
        "made by pegboard, or a path that does not exist yet)"
    ),
    N_(
        "{path} is not a pegboard journal (a SQLite database without pegboard's tables); it was "
        "left as it is"
    ),
    N_("cannot open {path}: it is not a file (expected a database file, e.g. pegboard.db)"),
    N_("config: {path} is a pegboard journal, not a config: did you mean --db?"),
    N_(
        "config: {path} is a SQLite database, not a config (expected TOML text, as in "
        "hardware/*.toml)"
    ),
    # history, sheet, odds
    N_("--since {text} is not a date (expected YYYY-MM-DD, e.g. 2025-03-02)"),
    N_("no games in the journal yet (start one with 'pegboard game new')"),
    N_("--out {path} exists; it was left as it is (add --force to replace it)"),
    # the score sheet (pegboard sheet)
    N_(
        "game {text} is not a game (expected N for game N of the latest match, or MATCH:GAME "
        "as 'pegboard history' lists them, e.g. 3:2)"
    ),
    N_("no match {match} in the journal (latest: {known})"),
    N_("no game {game} in match {match} (games: {what})"),
    N_("no game in the journal has started yet (no cut was made)"),
    N_("--out {path} has no known suffix (expected FILE.pdf, FILE.png or FILE.svg)"),
    N_("--out {path} is a folder (expected a file name)"),
    N_("--out {path}: no folder {folder}"),
    N_("--out {path} appeared meanwhile; it was left as it is"),
    N_(
        "--venue {text} cannot be printed: U+{code} at character {at} is {what} (expected one "
        "line of printable text, e.g. 'The Red Lion')"
    ),
    # the league's database (pegboard league standings, league serve)
    N_("no league database at {path} (start one with 'pegboard league serve --db {db}')"),
    N_(
        "{path} is not a league database (it has no league games table; expected the --db of "
        "'pegboard league serve', e.g. league.db)"
    ),
    N_("cannot open the league database {path}: {error}"),
    N_("file is not a database"),
    # the pub page (pegboard serve, run --web)
    N_(
        "{option} must be an IP address: '0.0.0.0' (every interface) or '127.0.0.1' (this "
        "machine only), got {text}"
    ),
    N_(
        "cannot serve the page on {where}: {what} (another program on that port? change [web] "
        "port or --port)"
    ),
    N_(
        "cannot serve the page on {where}: {what} ({bind} is not one of this machine's "
        "addresses: change [web] bind or --bind, e.g. to 0.0.0.0 for every interface)"
    ),
    # the same, from a command whose options have other names (pegboard league serve)
    N_("cannot serve the page on {where}: {what} (another program on that port? change {option})"),
    N_(
        "cannot serve the page on {where}: {what} ({bind} is not one of this machine's "
        "addresses: change {option}, e.g. to 0.0.0.0 for every interface)"
    ),
    N_(
        "cannot serve the page on {where}: {what} (no network in this sandbox? under systemd "
        "install systemd/pegboard-web.conf: sudo systemd/install.sh --web)"
    ),
    # the engine's play advice (pegboard lay)
    N_(
        "play advice covers the two-player variants only (six-card, five-card, "
        "two-in-the-crib), not {variant}"
    ),
    N_("the play is over: nothing is left to advise"),
    N_("it is the opponent's turn, not yours (check the cards laid)"),
    N_("card {card} is named twice (hand, starter, laid and seen)"),
    N_(
        "you hold {n} cards ({cards}) but the cards laid leave you {left} to lay (expected "
        "{left} cards held)"
    ),
    N_("cannot say go: {card} fits (count is {count}) and you held it then"),
    N_("no holding of the opponent is consistent with the cards seen"),
    N_(
        "no deal of the opponent's consistent with the cards seen keeps, by the exact discard "
        "advice, the cards it laid (try the uniform belief)"
    ),
    # the engine's win probabilities (pegboard odds; its own errors it says directly)
    N_("{who} score {score} is out of range (expected 0 to {most}: {target} has been reached)"),
    N_("{who} score {score} is out of range (expected 0 to {most}: a score is never below 0)"),
    N_(
        "win probability is not computed for {variant} (three separate players need a "
        "programme over three scores; expected one of {variants})"
    ),
)
"""The messages said again in the user's language, each as its English message with fields."""

_WORDS = {
    "hand and starter": N_("hand and starter"),
    "crib and starter": N_("crib and starter"),
    "series": N_("series"),
    "six-card deal": N_("six-card deal"),
    "five-card deal": N_("five-card deal"),
    "three-handed deal": N_("three-handed deal"),
    "four-handed deal": N_("four-handed deal"),
    "two-against-one deal": N_("two-against-one deal"),
    "two-in-the-crib deal": N_("two-in-the-crib deal"),
    "it is empty": N_("it is empty"),
    "it is not a SQLite database": N_("it is not a SQLite database"),
    "a control character": N_("a control character"),
    "an invisible format character": N_("an invisible format character"),
    "a line separator": N_("a line separator"),
    "a paragraph separator": N_("a paragraph separator"),
    "a noncharacter": N_("a noncharacter"),
    "not printable": N_("not printable"),
    "none started": N_("none started"),
    "Address already in use": N_("Address already in use"),
    "Cannot assign requested address": N_("Cannot assign requested address"),
    "Permission denied": N_("Permission denied"),
    "Operation not permitted": N_("Operation not permitted"),
    "Address family not supported by protocol": N_("Address family not supported by protocol"),
    "dealer": N_("dealer"),
    "pone": N_("pone"),
}
"""The words a ``{what}`` (or ``{who}``) field may hold, said in the user's language."""


def _pattern(template: str) -> re.Pattern[str]:
    """A regular expression matching the whole English message of *template*: each field any
    text (the shortest that fits), a field used twice the same text twice."""
    parts: list[str] = []
    seen: set[str] = set()
    for literal, name, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name is None:
            continue
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
    return re.compile("".join(parts), re.DOTALL)


@functools.cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((template, _pattern(template)) for template in _TEMPLATES)


def error_text(message: str, language: Language) -> str:
    """*message*, an error's English message, in *language*: by the first template it matches
    whole, else as it is (English: always as it is, nothing read)."""
    if language is Language.ENGLISH:
        return message
    tr = translator(language)
    for template, pattern in _patterns():
        found = pattern.fullmatch(message)
        if found is None:
            continue
        values = found.groupdict()
        if "error" in values:
            values["error"] = error_text(values["error"], language)
        for key in ("what", "who"):
            if key in values and values[key] in _WORDS:
                values[key] = tr.gettext(_WORDS[values[key]])
        if "variant" in values:
            values["variant"] = value_words(tr, values["variant"])
        return tr.gettext(template).format(**values)
    return message
