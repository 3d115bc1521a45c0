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
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .figures import (
    BEST_HANDS,
    BestHand,
    ByHand,
    HeadToHead,
    PartFigures,
    PlayerStats,
    RoleFigures,
    Standings,
)
from .history import DealHistory, GameHistory, MatchHistory, Part, members_of
from .rules import Lurch, Variant

__all__ = [
    "BestHand",
    "Book",
    "ByHand",
    "HeadToHead",
    "PartFigures",
    "PlayerStats",
    "RoleFigures",
    "Standings",
    "standings",
]

# --- the tally ---------------------------------------------------------------------------------


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

    def merge(self, other: _Role) -> None:
        self.deals += other.deals
        self.points += other.points
        for part, (deals, points) in other.parts.items():
            self.parts[part][0] += deals
            self.parts[part][1] += points

    def to_list(self) -> list[int]:
        return [self.deals, self.points, *(n for part in _PARTS for n in self.parts[part])]

    @classmethod
    def from_list(cls, data: list[int]) -> _Role:
        deals, points, *parts = (int(n) for n in data)
        if len(parts) != 2 * len(_PARTS):
            raise ValueError(f"a role has {len(data)} numbers (expected {2 + 2 * len(_PARTS)})")
        return cls(deals, points, {p: parts[2 * i : 2 * i + 2] for i, p in enumerate(_PARTS)})


_PARTS = ("pegging", "hand", "crib")

_Hand = tuple[int, int, BestHand]  # (match id, game * 1000 + deal, hand): the best hands' order


def _hand_order(hand: _Hand) -> tuple[int, int, int]:
    return -hand[2].points, hand[0], hand[1]


@dataclass
class _Tally:
    name: str
    kind: str
    members: tuple[str, ...] = ()
    first: tuple[int, int] = (0, 0)  # (match id, order in its book): players' order, merged
    games_played: int = 0
    games_won: int = 0
    matches_played: int = 0
    matches_won: int = 0
    game_points: int = 0
    lurches: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # given, taken; ds ditto
    dealer: _Role = field(default_factory=_Role)
    pone: _Role = field(default_factory=_Role)
    by_hand: dict[ByHand, int] = field(default_factory=dict)
    hands: list[_Hand] = field(default_factory=list)  # the best BEST_HANDS, in order
    nines_eights: list[int] = field(default_factory=lambda: [0, 0])  # 29s and 28s

    def add_hands(self, hands: Iterable[_Hand]) -> None:
        for hand in hands:
            self.hands.append(hand)
            self.nines_eights[0] += hand[2].points == 29
            self.nines_eights[1] += hand[2].points == 28
        # a stable sort: equal hands keep the order they came in, as over all games at once
        self.hands = sorted(self.hands, key=_hand_order)[:BEST_HANDS]

    def freeze(self) -> PlayerStats:
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
            tuple(h[2] for h in self.hands),
            self.nines_eights[0],
            self.nines_eights[1],
        )

    def merge(self, other: _Tally) -> None:
        """Add *other*'s figures (the same player's, from other matches)."""
        if other.first < self.first:  # the name, kind and members of the first game
            self.name, self.kind, self.members, self.first = (
                other.name, other.kind, other.members, other.first
            )  # fmt: skip
        for count in ("games_played", "games_won", "matches_played", "matches_won"):
            setattr(self, count, getattr(self, count) + getattr(other, count))
        self.game_points += other.game_points
        self.lurches = [a + b for a, b in zip(self.lurches, other.lurches, strict=True)]
        self.dealer.merge(other.dealer)
        self.pone.merge(other.pone)
        for why, points in other.by_hand.items():
            self.by_hand[why] = self.by_hand.get(why, 0) + points
        nines_eights = [a + b for a, b in zip(self.nines_eights, other.nines_eights, strict=True)]
        self.add_hands(other.hands)
        self.nines_eights = nines_eights

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "members": list(self.members),
            "first": list(self.first),
            "counts": [
                self.games_played, self.games_won, self.matches_played, self.matches_won,
                self.game_points, *self.lurches, *self.nines_eights,
            ],
            "dealer": self.dealer.to_list(),
            "pone": self.pone.to_list(),
            "by_hand": [[w.part, w.reason, w.told, n] for w, n in self.by_hand.items()],
            "hands": [
                [m, order, h.match_id, h.game, h.deal, h.seat, h.cards, h.starter, h.points,
                 h.is_crib]
                for m, order, h in self.hands
            ],
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> _Tally:
        counts = [int(n) for n in data["counts"]]
        if len(counts) != 11:
            raise ValueError(f"a tally has {len(counts)} counts (expected 11)")
        first = tuple(int(n) for n in data["first"])
        if len(first) != 2:
            raise ValueError(f"a tally's first game is {first!r} (expected 2 numbers)")
        return cls(
            str(data["name"]),
            str(data["kind"]),
            tuple(str(m) for m in data["members"]),
            (first[0], first[1]),
            counts[0],
            counts[1],
            counts[2],
            counts[3],
            counts[4],
            counts[5:9],
            _Role.from_list(data["dealer"]),
            _Role.from_list(data["pone"]),
            {ByHand(str(p), str(r), bool(t)): int(n) for p, r, t, n in data["by_hand"]},
            [
                (int(m), int(order), BestHand(int(a), int(b), int(c), str(d), str(e), str(f),
                                              int(g), bool(h)))
                for m, order, a, b, c, d, e, f, g, h in data["hands"]
            ],
            counts[9:11],
        )  # fmt: skip


@dataclass
class _Pair:
    games: int = 0
    games_won: list[int] = field(default_factory=lambda: [0, 0])
    matches: int = 0
    matches_won: list[int] = field(default_factory=lambda: [0, 0])
    game_points: list[int] = field(default_factory=lambda: [0, 0])
    lurches: list[int] = field(default_factory=lambda: [0, 0])  # games won with the other behind

    def to_list(self) -> list[int]:
        return [self.games, *self.games_won, self.matches, *self.matches_won,
                *self.game_points, *self.lurches]  # fmt: skip

    @classmethod
    def from_list(cls, data: list[int]) -> _Pair:
        n = [int(x) for x in data]
        if len(n) != 10:
            raise ValueError(f"a pair has {len(n)} numbers (expected 10)")
        return cls(n[0], n[1:3], n[3], n[4:6], n[6:8], n[8:10])

    def merge(self, other: _Pair) -> None:
        mine, theirs = self.to_list(), other.to_list()
        merged = _Pair.from_list([a + b for a, b in zip(mine, theirs, strict=True)])
        self.__dict__.update(merged.__dict__)


class Book:
    """The running tallies behind ``standings``: matches added one by one, books of other
    matches merged in, and the whole kept as JSON (the journal stores one per variant).

    A ``Book`` is an accumulator, as a ``hashlib`` object is: ``add_match`` changes it;
    ``merged`` makes a new one and changes neither. ``standings()`` gives what
    ``standings(matches)`` gives over the same matches (players in order of their first game,
    by match id). ``games`` counts the finished games added.

    >>> from .rules import Rules
    >>> from .match import MatchFormat
    >>> from .history import replay_match
    >>> moves = ["cut 9H 3C", "starter 5C", "peg Ann 61", "peg Ann 60"]
    >>> match = replay_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE,
    ...                      [(m, "2025-03-01T20:00:00+00:00") for m in moves], match_id=1)
    >>> book = Book()
    >>> book.add_match(match)
    >>> again = Book.from_json(book.to_json())
    >>> again.standings() == standings([match]), again.games
    (True, 1)
    >>> Book().merged(again).standings().player("Ann").games_won
    1
    """

    def __init__(self) -> None:
        self.tallies: dict[str, _Tally] = {}
        self.pairs: dict[tuple[str, str], _Pair] = {}
        self.games = 0
        self._match = 0  # the match being added, and how many tallies it made
        self._made = 0

    def tally(self, name: str, kind: str, members: tuple[str, ...] = ()) -> _Tally:
        key = name.casefold()
        if key not in self.tallies:
            self.tallies[key] = _Tally(name, kind, members, (self._match, self._made))
            self._made += 1
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

    def add_match(self, match: MatchHistory) -> None:
        """Add *match*'s finished games, and the match itself when it is decided."""
        self._match, self._made = match.match_id, 0
        for game in match.games:
            _add_game(self, game)
            self.games += 1
        if match.winner is None:
            return
        sides = self.sides(match.names, match.teams)
        for side, tally in enumerate(sides):
            for each in (tally, *self.members(match.names, side)):
                each.matches_played += 1
                each.matches_won += side == match.winner
        for pair, first in _pairs(self, sides, match.winner):
            pair.matches += 1
            if first is not None:
                pair.matches_won[first] += 1

    def merged(self, other: Book) -> Book:
        """A new book with this one's figures and *other*'s (of other matches)."""
        book = Book.from_json(self.to_json())
        for key, tally in Book.from_json(other.to_json()).tallies.items():
            mine = book.tallies.get(key)
            if mine is None:
                book.tallies[key] = tally
            else:
                mine.merge(tally)
        for names, pair in other.pairs.items():
            book.pairs.setdefault(names, _Pair()).merge(pair)
        book.games += other.games
        book.tallies = dict(sorted(book.tallies.items(), key=lambda kv: kv[1].first))
        return book

    def lurches_between(self, a: str, b: str) -> tuple[int, int]:
        """How many games *a* won against *b* with *b* behind a line, and the other way round."""
        pair, flip = _pair(self, a, b, add=False)
        if pair is None:
            return 0, 0
        return (pair.lurches[1], pair.lurches[0]) if flip else (pair.lurches[0], pair.lurches[1])

    def to_json(self) -> str:
        """The book as a JSON text (``from_json`` reads it back)."""
        return json.dumps(
            {
                "version": _BOOK_VERSION,
                "games": self.games,
                "tallies": [t.to_dict() for t in self.tallies.values()],
                "pairs": [[a, b, *p.to_list()] for (a, b), p in self.pairs.items()],
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> Book:
        """A book from ``to_json``'s text.

        Raises:
            ValueError: *text* is not a book written by ``to_json`` (of this version).
        """
        try:
            data = json.loads(text)
            if data.get("version") != _BOOK_VERSION:
                raise ValueError(f"version {data.get('version')!r} (expected {_BOOK_VERSION})")
            book = cls()
            book.games = int(data["games"])
            for item in data["tallies"]:
                tally = _Tally.from_dict(item)
                book.tallies[tally.name.casefold()] = tally
            for a, b, *numbers in data["pairs"]:
                book.pairs[(str(a), str(b))] = _Pair.from_list(numbers)
        except (KeyError, TypeError, AttributeError, ValueError) as e:
            raise ValueError(f"not a book of standings: {text[:60]!r}... ({e})") from e
        return book

    def standings(self) -> Standings:
        """Every player's and partnership's record and every pair's head to head so far."""
        names = {key: tally.name for key, tally in self.tallies.items()}
        return Standings(
            tuple(t.freeze() for t in self.tallies.values()),
            tuple(
                HeadToHead(
                    (names[a], names[b]),
                    pair.games,
                    (pair.games_won[0], pair.games_won[1]),
                    pair.matches,
                    (pair.matches_won[0], pair.matches_won[1]),
                    (pair.game_points[0], pair.game_points[1]),
                )
                for (a, b), pair in sorted(self.pairs.items())
            ),
        )


_BOOK_VERSION = 1


def _add_game(book: Book, game: GameHistory) -> None:
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
    hands: list[list[_Hand]] = [[] for _ in sides]
    for deal in game.deals:
        _add_deal(sides, game, deal, hands)
    for tally, found in zip(sides, hands, strict=True):
        tally.add_hands(found)
    for (pair, first), (a, b) in zip(
        _pairs(book, sides, result.winner),
        itertools.combinations(range(len(sides)), 2),
        strict=True,
    ):
        pair.games += 1
        if first is not None:
            pair.games_won[first] += 1
            pair.game_points[first] += result.game_points or 0
            loser = b if result.winner == a else a
            pair.lurches[first] += result.lurches[loser] is not Lurch.NONE


def _pair(book: Book, a: str, b: str, *, add: bool = True) -> tuple[_Pair, int]:
    """The pair's tally (its names in alphabetical order) and 1 if *a* is the second."""
    key = (a.casefold(), b.casefold())
    flip = int(key[0] > key[1])
    ordered = (key[1], key[0]) if flip else key
    if not add:
        return book.pairs.get(ordered), flip  # type: ignore[return-value]
    return book.pairs.setdefault(ordered, _Pair()), flip


def _pairs(
    book: Book, sides: list[_Tally], winner: int | None
) -> Iterator[tuple[_Pair, int | None]]:
    """Each two of *sides*: their pair's tally and the index in it of *winner*, or None."""
    for a, b in itertools.combinations(range(len(sides)), 2):
        pair, flip = _pair(book, sides[a].name, sides[b].name)
        won = 0 if winner == a else 1 if winner == b else None
        yield pair, None if won is None else won ^ flip


def _add_deal(
    sides: list[_Tally], game: GameHistory, deal: DealHistory, hands: list[list[_Hand]]
) -> None:
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
        hands[mark.side].append((game.match_id, game.game * 1000 + deal.number, hand))


def standings(matches: Iterable[MatchHistory], *, variant: Variant | None = None) -> Standings:
    """Every player's and partnership's record and every pair's head to head over *matches*
    (their finished games; only *variant*'s when given). Players in order of their first game.
    """
    book = Book()
    for match in matches:
        if variant is None or match.variant is variant:
            book.add_match(match)
    return book.standings()
