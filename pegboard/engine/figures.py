"""The values ``players.standings`` gives: a player's record, a pair's head to head, the whole.

They are plain frozen values with a ``to_dict`` for JSON; ``players.py`` adds them up.
"""

from __future__ import annotations

from typing import Any

from pegboard.frozen import frozen

__all__ = [
    "BEST_HANDS",
    "BestHand",
    "ByHand",
    "HeadToHead",
    "PartFigures",
    "PlayerStats",
    "RoleFigures",
    "Standings",
]

BEST_HANDS = 5
"""How many best hands (and cribs) a player's record keeps."""


@frozen
class ByHand:
    """Where and why points were pegged by hand: the *part* they count in (``pegging``,
    ``hands``, ``crib``, ``heels``, ``other``), the *reason* the players typed (as typed; empty
    for none), and whether a hand or crib was *told* by its points instead.

    ``str()`` is its English key, as JSON shows it; a text in another language says the part
    and "no reason" in its own words.

    >>> str(ByHand("other", "for his heels")), str(ByHand("hands", told=True))
    ('other: for his heels', 'hands (told)')
    """

    part: str
    reason: str = ""
    told: bool = False

    def __str__(self) -> str:
        if self.reason:
            return f"{self.part}: {self.reason}"
        return f"{self.part} (told)" if self.told else f"{self.part} (no reason)"


@frozen
class PartFigures:
    """One part of a deal (pegging, hand or crib) in one role: *points* over *deals* in which it
    was counted on the device."""

    deals: int
    points: int

    @property
    def average(self) -> float | None:
        """Points per deal, or None with no deal counted on the device."""
        return self.points / self.deals if self.deals else None


@frozen
class RoleFigures:
    """A player's deals in one role (dealer or pone): how many, everything pegged in them, and
    the parts counted on the device (``crib`` is None for the pone)."""

    deals: int
    points: int
    pegging: PartFigures
    hand: PartFigures
    crib: PartFigures | None

    @property
    def average(self) -> float | None:
        """Everything pegged per deal, or None with no deal."""
        return self.points / self.deals if self.deals else None


@frozen
class BestHand:
    """A hand or crib from the show; *cards* empty when the table gave only its points."""

    match_id: int
    game: int
    deal: int
    seat: str
    cards: str
    starter: str
    points: int
    is_crib: bool


@frozen
class PlayerStats:
    """One player's or partnership's record (see the module's docstring for what counts)."""

    name: str
    kind: str
    """``player`` or ``partnership``."""
    members: tuple[str, ...]
    games_played: int
    games_won: int
    matches_played: int
    matches_won: int
    game_points: int
    lurches_given: int
    lurches_taken: int
    double_skunks_given: int
    double_skunks_taken: int
    dealer: RoleFigures
    pone: RoleFigures
    by_hand: tuple[tuple[ByHand, int], ...]
    """Points pegged by hand, by where and why: ``(ByHand("hands", told=True), 14)``,
    ``(ByHand("pegging"), 8)``, ``(ByHand("other", "for his heels"), 2)``; largest first
    (then by the English key)."""
    best_hands: tuple[BestHand, ...]
    twenty_nines: int
    twenty_eights: int


@frozen
class HeadToHead:
    """Two players' games and matches against each other (*names* in alphabetical order; the
    other tuples follow it)."""

    names: tuple[str, str]
    games: int
    games_won: tuple[int, int]
    matches: int
    matches_won: tuple[int, int]
    game_points: tuple[int, int]


@frozen
class Standings:
    """Every player's record and every pair's head to head."""

    players: tuple[PlayerStats, ...]
    head_to_head: tuple[HeadToHead, ...]

    def player(self, name: str) -> PlayerStats | None:
        """The record of the player or partnership called *name* (any case), or None."""
        key = name.strip().casefold()
        return next((p for p in self.players if p.name.casefold() == key), None)

    def between(self, a: str, b: str) -> HeadToHead | None:
        """*a* against *b* (any case), in that order, or None if they never met.

        The OLED's page and the pub page show this: the two players' records against each
        other.
        """
        ka, kb = a.strip().casefold(), b.strip().casefold()
        for pair in self.head_to_head:
            first, second = (n.casefold() for n in pair.names)
            if (first, second) == (ka, kb):
                return pair
            if (first, second) == (kb, ka):
                return HeadToHead(
                    (pair.names[1], pair.names[0]),
                    pair.games,
                    (pair.games_won[1], pair.games_won[0]),
                    pair.matches,
                    (pair.matches_won[1], pair.matches_won[0]),
                    (pair.game_points[1], pair.game_points[0]),
                )
        return None

    def to_dict(self) -> dict[str, Any]:
        """The standings as JSON-ready values (averages rounded to 4 places)."""
        return {
            "players": [_player_dict(p) for p in self.players],
            "head_to_head": [
                {
                    "names": list(h.names),
                    "games": h.games,
                    "games_won": list(h.games_won),
                    "matches": h.matches,
                    "matches_won": list(h.matches_won),
                    "game_points": list(h.game_points),
                }
                for h in self.head_to_head
            ],
        }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _part_dict(part: PartFigures | None) -> dict[str, Any] | None:
    if part is None:
        return None
    return {"deals": part.deals, "points": part.points, "average": _rounded(part.average)}


def _role_dict(role: RoleFigures) -> dict[str, Any]:
    return {
        "deals": role.deals,
        "points": role.points,
        "average": _rounded(role.average),
        "pegging": _part_dict(role.pegging),
        "hand": _part_dict(role.hand),
        "crib": _part_dict(role.crib),
    }


def _player_dict(p: PlayerStats) -> dict[str, Any]:
    return {
        "name": p.name,
        "kind": p.kind,
        "members": list(p.members),
        "games_played": p.games_played,
        "games_won": p.games_won,
        "matches_played": p.matches_played,
        "matches_won": p.matches_won,
        "game_points": p.game_points,
        "lurches_given": p.lurches_given,
        "lurches_taken": p.lurches_taken,
        "double_skunks_given": p.double_skunks_given,
        "double_skunks_taken": p.double_skunks_taken,
        "dealer": _role_dict(p.dealer),
        "pone": _role_dict(p.pone),
        "by_hand": {str(why): points for why, points in p.by_hand},
        "best_hands": [
            {
                "match": h.match_id,
                "game": h.game,
                "deal": h.deal,
                "seat": h.seat,
                "cards": h.cards or None,
                "starter": h.starter or None,
                "points": h.points,
                "crib": h.is_crib,
            }
            for h in p.best_hands
        ],
        "twenty_nines": p.twenty_nines,
        "twenty_eights": p.twenty_eights,
    }
