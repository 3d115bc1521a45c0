"""pegboard's cribbage engine: pure, standard library only.

Glossary (the rule books' words, used everywhere in the code):

dealer, pone
    The player who deals this hand and owns the crib; a non-dealer.
crib (box)
    The cards laid away by the players, scored for the dealer after the hands.
starter
    The start card, cut after the discards; it counts with every hand and the crib.
the play, series, go, last
    Laying cards one at a time with a running count up to 31. A series ends when nobody can
    play; a player who cannot play says "go"; the last card of a series pegs 1 (2 on 31).
the show
    Counting the hands, then the crib, each with the starter: fifteens, pairs, runs, flush, nobs.
nobs, heels
    The jack of the starter's suit in hand or crib (1); a jack turned as starter (2 to the dealer).
pair royal, double pair royal
    Three (6) and four (12) of a rank.
lurch, skunk
    A loser below hole 91 (lurched/skunked) or 61 (double skunk) gives the winner more game points.
side
    A player or team that owns a score track.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names below, for type checkers; at run time they load on first use
    from pegboard.errors import (
        ConfigError,
        GameOverError,
        HardwareError,
        IllegalCommandError,
        IllegalPlayError,
        InvalidCardError,
        InvalidHandError,
        JournalError,
        PegboardError,
    )

    from .advice import CribOwner, DiscardOption, advise
    from .cards import DECK, Card, Rank, Suit, format_cards, parse_cards, shuffled_deck
    from .commands import Command, InvalidCommandError, format_command, parse_command
    from .events import Event, Source
    from .game import GameState, Phase, apply, replay
    from .match import GameResult, Match, MatchFormat
    from .play import PlayScore, PlayState, score_play
    from .rules import Lurch, Rules, Variant, first_dealer, game_points, lurch_of
    from .scoring import (
        Breakdown,
        ScoreItem,
        ScoreKind,
        describe_item,
        rank_points,
        score_crib,
        score_hand,
        score_heels,
        score_total,
        show_calls,
    )
    from .stats import ScoreDistribution, show_distribution
    from .view import GameView, render_view

_EXPORTS: dict[str, tuple[str, ...]] = {
    "pegboard.errors": (
        "ConfigError",
        "GameOverError",
        "HardwareError",
        "IllegalCommandError",
        "IllegalPlayError",
        "InvalidCardError",
        "InvalidHandError",
        "JournalError",
        "PegboardError",
    ),
    ".advice": ("CribOwner", "DiscardOption", "advise"),
    ".cards": ("DECK", "Card", "Rank", "Suit", "format_cards", "parse_cards", "shuffled_deck"),
    ".commands": ("Command", "InvalidCommandError", "format_command", "parse_command"),
    ".events": ("Event", "Source"),
    ".game": ("GameState", "Phase", "apply", "replay"),
    ".match": ("GameResult", "Match", "MatchFormat"),
    ".play": ("PlayScore", "PlayState", "score_play"),
    ".rules": ("Lurch", "Rules", "Variant", "first_dealer", "game_points", "lurch_of"),
    ".scoring": (
        "Breakdown",
        "ScoreItem",
        "ScoreKind",
        "describe_item",
        "rank_points",
        "score_crib",
        "score_hand",
        "score_heels",
        "score_total",
        "show_calls",
    ),
    ".stats": ("ScoreDistribution", "show_distribution"),
    ".view": ("GameView", "render_view"),
}
"""Each module and the names it gives the package: they load on first use, so a command that
needs only the cards does not import the game."""

_HOME = {name: module for module, names in _EXPORTS.items() for name in names}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value  # once loaded, a plain module attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "DECK",
    "Breakdown",
    "Card",
    "Command",
    "ConfigError",
    "CribOwner",
    "DiscardOption",
    "Event",
    "GameOverError",
    "GameResult",
    "GameState",
    "GameView",
    "HardwareError",
    "IllegalCommandError",
    "IllegalPlayError",
    "InvalidCardError",
    "InvalidCommandError",
    "InvalidHandError",
    "JournalError",
    "Lurch",
    "Match",
    "MatchFormat",
    "PegboardError",
    "Phase",
    "PlayScore",
    "PlayState",
    "Rank",
    "Rules",
    "ScoreDistribution",
    "ScoreItem",
    "ScoreKind",
    "Source",
    "Suit",
    "Variant",
    "advise",
    "apply",
    "describe_item",
    "first_dealer",
    "format_cards",
    "format_command",
    "game_points",
    "lurch_of",
    "parse_cards",
    "parse_command",
    "rank_points",
    "render_view",
    "replay",
    "score_crib",
    "score_hand",
    "score_heels",
    "score_play",
    "score_total",
    "show_calls",
    "show_distribution",
    "shuffled_deck",
]
