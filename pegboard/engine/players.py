"""Player statistics over matches read back from the journal: records, points per deal, hands.

``standings(matches)`` takes ``MatchHistory`` values (``Journal.history()``) and gives one
``PlayerStats`` per player and per partnership, and one ``HeadToHead`` per pair that met. It is
pure: the command line (``pegboard stats players``), the pub page and the OLED's menu page all
call it and only format what it returns. Every figure is an exact sum; averages are sums over
counts (``PartFigures.average``) so a caller can show them as it likes.

What counts:

- Finished games only (a game still being played, or left unfinished, adds nothing); matches
  played and won count decided matches.
- A player is a side's name, matched without regard to case. A side of several seats is a
  partnership; when its name lists its members joined by ``+`` (``Ann+Cat``), each member also
  gets the partnership's games, matches, game points and lurches in their own record (the
  points per deal stay with the partnership, which pegs them).
- Points per deal, as dealer (the side that owns the crib) and as pone: ``points`` is
  everything the side pegged in those deals, however it was scored. ``pegging``, ``hand`` and
  ``crib`` are averaged only over the deals in which that part was counted on the device from
  start to end (``history.Part.COUNTED``: the cards laid one by one, the hand entered as
  cards), and say in how many. Points pegged by hand are listed by their reason.
- Best hands, 29s and 28s: hands and cribs in the show, those counted by the table itself
  (``show 29``) included, without their cards.

>>> from .rules import Rules
>>> from .match import MatchFormat
>>> from .history import replay_match
>>> moves = ["cut 9H 3C", "starter 5C", "peg Ann 61", "peg Ann 60"]
>>> match = replay_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE,
...                      [(m, "2025-03-01T20:00:00+00:00") for m in moves])
>>> table = standings([match])
>>> ann = table.player("ann")
>>> ann.games_won, ann.lurches_given, ann.by_hand
(1, 0, ((ByHand(part='pegging', reason='', told=False), 121),))
>>> str(ann.by_hand[0][0])
'pegging (no reason)'
>>> table.between("Bob", "Ann").games_won
(0, 1)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pegboard.frozen import frozen

from .history import DealHistory, GameHistory, MatchHistory, Part, members_of
from .rules import Lurch, Variant

__all__ = [
    "BestHand",
    "ByHand",
    "HeadToHead",
    "PartFigures",
    "PlayerStats",
    "RoleFigures",
    "Standings",
    "standings",
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


# --- the tally -------------------------------------------------------------------------------


@dataclass
class _Role:
    deals: int = 0
    points: int = 0
    parts: dict[str, list[int]] = field(
        default_factory=lambda: {"pegging": [0, 0], "hand": [0, 0], "crib": [0, 0]}
    )

    def add(self, part: str, counted: bool, points: int) -> None:
        if counted:
            self.parts[part][0] += 1
            self.parts[part][1] += points

    def freeze(self, *, dealer: bool) -> RoleFigures:
        def figures(part: str) -> PartFigures:
            deals, points = self.parts[part]
            return PartFigures(deals, points)

        crib = figures("crib") if dealer else None
        return RoleFigures(self.deals, self.points, figures("pegging"), figures("hand"), crib)


@dataclass
class _Tally:
    name: str
    kind: str
    members: tuple[str, ...] = ()
    games_played: int = 0
    games_won: int = 0
    matches_played: int = 0
    matches_won: int = 0
    game_points: int = 0
    lurches: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # given, taken; ds ditto
    dealer: _Role = field(default_factory=_Role)
    pone: _Role = field(default_factory=_Role)
    by_hand: dict[ByHand, int] = field(default_factory=dict)
    hands: list[tuple[int, int, BestHand]] = field(default_factory=list)

    def freeze(self) -> PlayerStats:
        ordered = sorted(self.hands, key=lambda h: (-h[2].points, h[0], h[1]))
        points = [h[2].points for h in self.hands]
        by_hand = tuple(sorted(self.by_hand.items(), key=lambda kv: (-kv[1], str(kv[0]))))
        return PlayerStats(
            self.name,
            self.kind,
            self.members,
            self.games_played,
            self.games_won,
            self.matches_played,
            self.matches_won,
            self.game_points,
            self.lurches[0],
            self.lurches[1],
            self.lurches[2],
            self.lurches[3],
            self.dealer.freeze(dealer=True),
            self.pone.freeze(dealer=False),
            by_hand,
            tuple(h[2] for h in ordered[:BEST_HANDS]),
            points.count(29),
            points.count(28),
        )


@dataclass
class _Pair:
    games: int = 0
    games_won: list[int] = field(default_factory=lambda: [0, 0])
    matches: int = 0
    matches_won: list[int] = field(default_factory=lambda: [0, 0])
    game_points: list[int] = field(default_factory=lambda: [0, 0])


class _Book:
    """The tallies being added up, by player key (the name in lower case)."""

    def __init__(self) -> None:
        self.tallies: dict[str, _Tally] = {}
        self.pairs: dict[tuple[str, str], _Pair] = {}

    def tally(self, name: str, kind: str, members: tuple[str, ...] = ()) -> _Tally:
        key = name.casefold()
        if key not in self.tallies:
            self.tallies[key] = _Tally(name, kind, members)
        return self.tallies[key]

    def sides(self, names: tuple[str, ...], teams: tuple[tuple[int, ...], ...]) -> list[_Tally]:
        """The tally of each side (a partnership's own when it has several seats)."""
        return [
            self.tally(name, "partnership" if len(team) > 1 else "player", members_of(name))
            for name, team in zip(names, teams, strict=True)
        ]

    def members(self, names: tuple[str, ...], side: int) -> list[_Tally]:
        """The tallies that share a side's game results: its members' when it lists them."""
        return [self.tally(member, "player") for member in members_of(names[side])]


def _add_game(book: _Book, game: GameHistory) -> None:
    result = game.result
    assert result is not None
    rules = game.rules
    sides = book.sides(game.names, rules.teams)
    for side, tally in enumerate(sides):
        won = side == result.winner
        for each in (tally, *book.members(game.names, side)):
            each.games_played += 1
            each.games_won += won
            if won:
                each.game_points += result.game_points or 0
                for lurch in result.lurches:
                    each.lurches[0] += lurch is Lurch.LURCHED
                    each.lurches[2] += lurch is Lurch.DOUBLE_SKUNKED
            own = result.lurches[side]
            each.lurches[1] += own is Lurch.LURCHED
            each.lurches[3] += own is Lurch.DOUBLE_SKUNKED
    for deal in game.deals:
        _add_deal(sides, game, deal)
    for pair, first in _pairs(book, sides, result.winner):
        pair.games += 1
        if first is not None:
            pair.games_won[first] += 1
            pair.game_points[first] += result.game_points or 0


def _pair(book: _Book, a: str, b: str) -> tuple[_Pair, int]:
    """The pair's tally (its names in alphabetical order) and 1 if *a* is the second."""
    key = (a.casefold(), b.casefold())
    flip = int(key[0] > key[1])
    ordered = (key[1], key[0]) if flip else key
    return book.pairs.setdefault(ordered, _Pair()), flip


def _pairs(
    book: _Book, sides: list[_Tally], winner: int | None
) -> Iterator[tuple[_Pair, int | None]]:
    """Each two of *sides*: their pair's tally and the index in it of *winner*, or None."""
    for a, b in itertools.combinations(range(len(sides)), 2):
        pair, flip = _pair(book, sides[a].name, sides[b].name)
        won = 0 if winner == a else 1 if winner == b else None
        yield pair, None if won is None else won ^ flip


def _add_deal(sides: list[_Tally], game: GameHistory, deal: DealHistory) -> None:
    for side, tally in enumerate(sides):
        dealer = side == deal.dealer_side
        role = tally.dealer if dealer else tally.pone
        role.deals += 1
        role.points += deal.total(side)
        role.add("pegging", deal.play[side] is Part.COUNTED, deal.pegging[side])
        role.add("hand", deal.hand[side] is Part.COUNTED, deal.hands[side])
        if dealer:
            role.add("crib", deal.crib_part is Part.COUNTED, deal.crib[side])
        for peg in deal.pegs:
            if peg.side == side and peg.manual:
                told = not peg.reason and peg.source.value in ("hand", "crib")
                why = ByHand(peg.part, peg.reason, told)
                tally.by_hand[why] = tally.by_hand.get(why, 0) + peg.points
    for mark in deal.shown:
        owner = deal.dealer if mark.seat is None else mark.seat
        hand = BestHand(
            game.match_id,
            game.game,
            deal.number,
            game.seat_names[owner],
            " ".join(str(c) for c in mark.cards),
            str(mark.starter) if mark.cards and mark.starter is not None else "",
            mark.points,
            mark.seat is None,
        )
        sides[mark.side].hands.append((game.match_id, game.game * 1000 + deal.number, hand))


def standings(matches: Iterable[MatchHistory], *, variant: Variant | None = None) -> Standings:
    """Every player's and partnership's record and every pair's head to head over *matches*
    (their finished games; only *variant*'s when given). Players in order of their first game.
    """
    book = _Book()
    for match in matches:
        if variant is not None and match.variant is not variant:
            continue
        for game in match.games:
            _add_game(book, game)
        if match.winner is None:
            continue
        sides = book.sides(match.names, match.teams)
        for side, tally in enumerate(sides):
            for each in (tally, *book.members(match.names, side)):
                each.matches_played += 1
                each.matches_won += side == match.winner
        for pair, first in _pairs(book, sides, match.winner):
            pair.matches += 1
            if first is not None:
                pair.matches_won[first] += 1
    names = {key: tally.name for key, tally in book.tallies.items()}
    return Standings(
        tuple(t.freeze() for t in book.tallies.values()),
        tuple(
            HeadToHead(
                (names[a], names[b]),
                pair.games,
                (pair.games_won[0], pair.games_won[1]),
                pair.matches,
                (pair.matches_won[0], pair.matches_won[1]),
                (pair.game_points[0], pair.game_points[1]),
            )
            for (a, b), pair in sorted(book.pairs.items())
        ),
    )
