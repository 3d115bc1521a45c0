"""Variants as data: one frozen ``Rules`` value per way of playing.

Every variant in ``RULES.md`` is a preset (``Rules.six_card()``, ``Rules.five_card()``, ...) of
the same dataclass; optional rules (muggins, starter counts in play, skunk values) are fields, so
``dataclasses.replace`` or ``Rules.for_variant(name, **options)`` gives a table's house rules.

Seats are numbered 0, 1, ... going to the left: seat ``i + 1`` sits on seat ``i``'s left, so the
deal and the turn both move to ``i + 1``. A *side* owns a score track: a player, or a team.

>>> r = Rules.for_variant("four-handed")
>>> r.hand_size, r.crib_size, r.sides, r.side_of(2)
(4, 4, 2, 0)
>>> Rules.five_card().target
61
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Any

from pegboard.choices import parse_choice
from pegboard.errors import ConfigError
from pegboard.frozen import frozen

from .cards import Card

__all__ = [
    "DEFAULT_NAMES",
    "Lurch",
    "Rules",
    "Variant",
    "default_names",
    "first_dealer",
    "game_points",
    "lurch_of",
]


class Variant(enum.Enum):
    """The ways of playing that pegboard knows, valued by their command-line names."""

    SIX_CARD = "six-card"
    THREE_HANDED = "three-handed"
    FOUR_HANDED = "four-handed"
    TWO_AGAINST_ONE = "two-against-one"
    TWO_IN_THE_CRIB = "two-in-the-crib"
    FIVE_CARD = "five-card"

    @classmethod
    def parse(cls, text: str) -> Variant:
        """Parse a variant name ("six-card", "five_card", "Three-Handed").

        Raises:
            ConfigError: not a variant name.
        """
        return parse_choice(cls, text, "variant")


class Lurch(enum.Enum):
    """How far behind a losing side finished."""

    NONE = "none"
    LURCHED = "lurched"  # UK "lurched", US "skunked": below the lurch line
    DOUBLE_SKUNKED = "double-skunked"  # below the double-skunk line


@frozen
class Rules:
    """Everything that differs between variants and house rules. Validated on creation.

    Raises:
        ConfigError: an impossible combination of settings.
    """

    variant: Variant
    players: int
    teams: tuple[tuple[int, ...], ...]
    """The sides: which seats peg together. Every seat belongs to exactly one side."""
    dealt: int
    """Cards dealt to each player."""
    discards: int
    """Cards each player lays away to the crib."""
    pack_to_crib: int = 0
    """Cards the dealer puts from the pack straight into the crib."""
    target: int = 121
    start_scores: tuple[int, ...] = ()
    """Each side's score at the start of a game (two-against-one: the solo starts on 60)."""
    lurch_line: int | None = 91
    """A loser below this (who did not pass hole 90) is lurched. None: no lurch."""
    double_skunk_line: int | None = 61
    """A loser below this is double skunked. None: no double skunk."""
    win_points: int = 1
    lurch_points: int = 2
    double_skunk_points: int = 3
    single_series: bool = False
    """Five-card cribbage: only one series to 31 is played; unplayed cards stay in hand."""
    pone_bonus: int = 0
    """Points the first non-dealer pegs at the start of a game (five-card: three for last)."""
    starter_counts_in_play: bool = False
    """Optional rule: the starter's pips open the count of the first series."""
    muggins: bool = False
    muggins_in_play: bool = False

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise ConfigError(f"rules: players must be 2, 3 or 4, got {self.players!r}")
        seats = sorted(seat for team in self.teams for seat in team)
        if seats != list(range(self.players)):
            raise ConfigError(
                f"rules: teams {self.teams!r} must hold each seat 0..{self.players - 1} once"
            )
        if not 1 <= self.discards < self.dealt:
            raise ConfigError(
                f"rules: discards must be at least 1 and fewer than the {self.dealt} dealt, "
                f"got {self.discards!r}"
            )
        if self.players * self.dealt + self.pack_to_crib + 1 > 52:
            raise ConfigError("rules: the deal needs more than 52 cards")
        if self.target < 1:
            raise ConfigError(f"rules: target must be positive, got {self.target!r}")
        if self.start_scores and (
            len(self.start_scores) != len(self.teams)
            or any(not 0 <= s < self.target for s in self.start_scores)
        ):
            raise ConfigError(
                f"rules: start_scores {self.start_scores!r} needs one score below the target "
                f"per side ({len(self.teams)})"
            )
        for name in ("lurch_line", "double_skunk_line"):
            line = getattr(self, name)
            if line is not None and not 0 < line <= self.target:
                raise ConfigError(
                    f"rules: {name} must be between 1 and the target {self.target}, got {line!r}"
                )
        for name in ("win_points", "lurch_points", "double_skunk_points", "pone_bonus"):
            if getattr(self, name) < 0:
                raise ConfigError(f"rules: {name} must not be negative, got {getattr(self, name)}")

    # --- derived ---------------------------------------------------------------------------

    @property
    def hand_size(self) -> int:
        """Cards each player keeps for the play and the show."""
        return self.dealt - self.discards

    @property
    def crib_size(self) -> int:
        """Cards in the crib (four in every variant)."""
        return self.players * self.discards + self.pack_to_crib

    @property
    def crib_flush(self) -> int:
        """Points for a crib flush, which needs all five cards (crib and starter) of one suit.

        It is worth what a hand flush with its starter is worth, one more than the hand size:
        5, but 4 in five-card cribbage, where hands are three cards (the German document: "ein
        Flush in der Crib 4, allerdings nur, wenn alle Karten die gleiche Farbe haben").

        >>> Rules.six_card().crib_flush, Rules.five_card().crib_flush
        (5, 4)
        """
        return self.hand_size + 1

    @property
    def sides(self) -> int:
        """How many score tracks the game has."""
        return len(self.teams)

    def side_of(self, seat: int) -> int:
        """The side (score track) that *seat* pegs for.

        Raises:
            ValueError: no such seat.
        """
        for side, team in enumerate(self.teams):
            if seat in team:
                return side
        raise ValueError(f"no seat {seat!r} in a {self.players}-player game")

    def start_score(self, side: int) -> int:
        """The score *side* starts each game on."""
        return self.start_scores[side] if self.start_scores else 0

    # --- presets ---------------------------------------------------------------------------

    @classmethod
    def six_card(cls, **options: Any) -> Rules:
        """Standard two-player six-card cribbage to 121."""
        return cls(Variant.SIX_CARD, 2, ((0,), (1,)), dealt=6, discards=2, **options)

    @classmethod
    def three_handed(cls, **options: Any) -> Rules:
        """Three players, each on their own; one card from the pack to the crib."""
        return cls(
            Variant.THREE_HANDED, 3, ((0,), (1,), (2,)), dealt=5, discards=1, pack_to_crib=1,
            **options,
        )  # fmt: skip

    @classmethod
    def four_handed(cls, **options: Any) -> Rules:
        """Four players in two partnerships, partners opposite (seats 0+2 and 1+3)."""
        return cls(Variant.FOUR_HANDED, 4, ((0, 2), (1, 3)), dealt=5, discards=1, **options)

    @classmethod
    def two_against_one(cls, **options: Any) -> Rules:
        """Three-handed deal; seats 0 and 1 play as a pair against the solo in seat 2.

        The solo starts on 60 and needs 121; there is no lurch.
        """
        options = {"start_scores": (0, 60), "lurch_line": None, "double_skunk_line": None} | options
        return cls(
            Variant.TWO_AGAINST_ONE, 3, ((0, 1), (2,)), dealt=5, discards=1, pack_to_crib=1,
            **options,
        )  # fmt: skip

    @classmethod
    def two_in_the_crib(cls, **options: Any) -> Rules:
        """Two players dealt five; two cards from the pack and one from each to the crib."""
        return cls(
            Variant.TWO_IN_THE_CRIB, 2, ((0,), (1,)), dealt=5, discards=1, pack_to_crib=2,
            **options,
        )  # fmt: skip

    @classmethod
    def five_card(cls, **options: Any) -> Rules:
        """The old game: five dealt, two to the crib, one series, to 61; lurched below 45."""
        options = {
            "target": 61,
            "lurch_line": 45,
            "double_skunk_line": None,
            "single_series": True,
            "pone_bonus": 3,
        } | options
        return cls(Variant.FIVE_CARD, 2, ((0,), (1,)), dealt=5, discards=2, **options)

    @classmethod
    def for_variant(cls, variant: Variant | str, **options: Any) -> Rules:
        """The preset for *variant* (a ``Variant`` or its name), with optional overrides.

        Raises:
            ConfigError: unknown variant, unknown option or an impossible value.
        """
        if isinstance(variant, str):
            variant = Variant.parse(variant)
        known = {f.name for f in dataclasses.fields(cls)} - _STRUCTURE
        for key in options:
            if key not in known:
                raise ConfigError(
                    f"rules: unknown option {key!r} (expected one of {', '.join(sorted(known))})"
                )
        return _PRESETS[variant](**options)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some settings changed, validated again.

        Raises:
            ConfigError: an impossible value.
        """
        return dataclasses.replace(self, **changes)


_STRUCTURE = frozenset({"variant", "players", "teams", "dealt", "discards", "pack_to_crib"})
"""Settings that make a variant what it is: chosen by the variant, never overridden."""

_PRESETS = {
    Variant.SIX_CARD: Rules.six_card,
    Variant.THREE_HANDED: Rules.three_handed,
    Variant.FOUR_HANDED: Rules.four_handed,
    Variant.TWO_AGAINST_ONE: Rules.two_against_one,
    Variant.TWO_IN_THE_CRIB: Rules.two_in_the_crib,
    Variant.FIVE_CARD: Rules.five_card,
}


def lurch_of(rules: Rules, score: int) -> Lurch:
    """Which line a side's final *score* was left behind.

    >>> lurch_of(Rules.six_card(), 90), lurch_of(Rules.six_card(), 91)
    (<Lurch.LURCHED: 'lurched'>, <Lurch.NONE: 'none'>)
    """
    if rules.double_skunk_line is not None and score < rules.double_skunk_line:
        return Lurch.DOUBLE_SKUNKED
    if rules.lurch_line is not None and score < rules.lurch_line:
        return Lurch.LURCHED
    return Lurch.NONE


def game_points(rules: Rules, loser_score: int) -> int | None:
    """Game points for the winner of a two-sided game; None with three separate players.

    Neither rule document defines game points for three players each on their own, so none
    are invented: the caller still records who was below which line (``lurch_of``).

    >>> game_points(Rules.six_card(), 100), game_points(Rules.six_card(), 75)
    (1, 2)
    >>> game_points(Rules.six_card(double_skunk_points=4), 60)
    4
    >>> game_points(Rules.three_handed(), 10) is None
    True
    """
    if rules.sides != 2:
        return None
    match lurch_of(rules, loser_score):
        case Lurch.DOUBLE_SKUNKED:
            return rules.double_skunk_points
        case Lurch.LURCHED:
            return rules.lurch_points
        case Lurch.NONE:
            return rules.win_points


def first_dealer(cuts: Sequence[Card]) -> int | None:
    """The seat that deals first, from one cut card per seat; None means cut again.

    Cards compare by pip value, so ten-cards (10 J Q K) tie with each other, and so do equal
    ranks. The lowest card deals; a tie for lowest is cut again.

    >>> from .cards import parse_cards
    >>> first_dealer(parse_cards("9H 3C"))
    1
    >>> first_dealer(parse_cards("10H KC")) is None
    True
    """
    lowest = min(card.pips for card in cuts)
    seats = [seat for seat, card in enumerate(cuts) if card.pips == lowest]
    return seats[0] if len(seats) == 1 else None


DEFAULT_NAMES = ("Sky", "Gold", "Lilac")
"""The sides' names when nobody names them: the colours of the default LED tracks, in side
order. Never letters: on the keypad A, B and C are the jack, queen and king (and the sides in
peg mode), so a side called "A" would read "points, then side A=A B=B"."""


def default_names(rules: Rules) -> tuple[str, ...]:
    """ "Sky", "Gold" (and "Lilac"), one per side: the one place the default names live.

    >>> default_names(Rules.three_handed())
    ('Sky', 'Gold', 'Lilac')
    >>> default_names(Rules.four_handed())  # two partnerships are two sides
    ('Sky', 'Gold')
    """
    return DEFAULT_NAMES[: rules.sides]
