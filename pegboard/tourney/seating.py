"""A round's seating: who plays whom at which table, on which board, and who has the bye.

Theory of operation
-------------------
**The draw** (``draw``): seats are drawn at random, as a club draws them, but nobody meets an
opponent again while that can be avoided. The players who have not met are joined in a graph and
a largest matching of it (``matching.largest_matching``) seats as many tables as possible with
new opponents; the few it cannot seat (they have all met each other) play again, and there are
as few of them as there can be. The players and their neighbours are shuffled first, so the
matching is a random one of the largest.

**The bye**: with an odd number of players one of them sits out, and the bye is scored as a win
(``standings``). It goes to a player with the fewest byes so far, unless every such choice
would make someone meet an opponent again while another choice would not: no repeat comes
first, then fairness of the byes. (A "bye" vertex joined to the fewest-byes players is matched
with the rest; only when joining it to everyone seats more new pairs is that done.) In a small
field playing nearly a round robin (seven players, six games) a round may so have to give a
second bye, as it may have to seat a repeat when the rounds before left no other way: each
round is seated as well as can be, not the night as a whole.

**The movement** (``movement``): the pub way. After the first draw one side of the tables (the
second-named players) moves one table to the right after each game for half the games, then the
other side moves to its own right (the other way along the row). Either way each player's next
opponent is the one a seat further along, so nobody meets anyone twice for as many games as
there are tables. A player left without an opponent (an odd number) has the bye.

**Tables and boards**: tables are numbered from 1; table *t* is played on the night's *t*-th
board, if there is one (the rest play on wooden boards and the director enters their results).
The first-named player of a pairing cuts first.

>>> import random
>>> seats = draw(["Ann", "Bob", "Cy"], {}, {}, ["hall/b1"], random.Random(1))
>>> len(seats.pairings), seats.bye is not None, seats.pairings[0].board
(1, True, 'hall/b1')
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from pegboard.frozen import frozen

from .matching import largest_matching

__all__ = ["Pairing", "Seating", "draw", "movement"]


@frozen
class Pairing:
    """One table of a round: its number, the two players (*first* cuts first), its board
    (``""``: a board not in the night; the director enters the result)."""

    table: int
    first: str
    second: str
    board: str = ""

    @property
    def players(self) -> tuple[str, str]:
        """Both players, the one who cuts first first."""
        return (self.first, self.second)

    def to_payload(self) -> dict[str, object]:
        """The pairing as JSON values."""
        return {
            "table": self.table,
            "first": self.first,
            "second": self.second,
            "board": self.board,
        }


@frozen
class Seating:
    """A round's tables, its bye (None: an even number), whether it was seated by the
    movement, and how many of its pairs met before (only ever when unavoidable)."""

    pairings: tuple[Pairing, ...]
    bye: str | None = None
    movement: bool = False
    repeats: int = 0

    def table_of(self, player: str) -> Pairing | None:
        """*player*'s table this round (None: the bye, or not seated)."""
        return next((p for p in self.pairings if player in p.players), None)


def _board(boards: Sequence[str], table: int) -> str:
    return boards[table - 1] if table <= len(boards) else ""


def draw(
    players: Sequence[str],
    met: Mapping[str, Collection[str]],
    byes: Mapping[str, int],
    boards: Sequence[str],
    rng: random.Random,
) -> Seating:
    """A random seating of *players* (the module's notes): *met* gives whom each has played,
    *byes* how many byes each has had, *boards* the boards in table order."""
    order = list(players)
    rng.shuffle(order)
    n = len(order)
    index = {name: i for i, name in enumerate(order)}
    adjacent: list[list[int]] = [[] for _ in order]
    for i, name in enumerate(order):
        seen = met.get(name, ())
        adjacent[i] = [j for j, other in enumerate(order) if j != i and other not in seen]
        adjacent[i] = [j for j in adjacent[i] if order[i] not in met.get(order[j], ())]
        rng.shuffle(adjacent[i])
    bye: str | None = None
    if n % 2:
        fewest = min(byes.get(name, 0) for name in order)
        fair = [i for i, name in enumerate(order) if byes.get(name, 0) == fewest]
        anyone = fair + [i for i in range(n) if i not in set(fair)]
        partner = _with_bye(adjacent, fair)
        if _size(partner) < _size(everyone := _with_bye(adjacent, anyone)):
            partner = everyone
        bye = order[partner[0] - 1]
        partner = [p - 1 if p > 0 else -1 for p in partner[1:]]
        partner[index[bye]] = -1
    else:
        partner = largest_matching(adjacent)
    pairs: list[tuple[str, str]] = []
    left: list[str] = []
    for i, name in enumerate(order):
        if name == bye:
            continue
        if partner[i] == -1:
            left.append(name)
        elif partner[i] > i:
            pairs.append((name, order[partner[i]]))
    repeats = len(left) // 2
    pairs += [(left[k], left[k + 1]) for k in range(0, len(left), 2)]
    rng.shuffle(pairs)
    pairings = []
    for table, (a, b) in enumerate(pairs, start=1):
        first, second = (a, b) if rng.random() < 0.5 else (b, a)
        pairings.append(Pairing(table, first, second, _board(boards, table)))
    return Seating(tuple(pairings), bye, False, repeats)


def _with_bye(adjacent: list[list[int]], takers: list[int]) -> list[int]:
    """A largest matching with a bye vertex (index 0, the rest shifted by one) joined to
    *takers*; the bye vertex comes first, so it is matched whenever it can be."""
    graph = [[t + 1 for t in takers]]
    graph += [
        [j + 1 for j in adjacent[i]] + ([0] if i in takers else []) for i in range(len(adjacent))
    ]
    return largest_matching(graph)


def _size(partner: list[int]) -> int:
    return sum(1 for p in partner if p != -1) // 2


def movement(
    seats: Sequence[tuple[str | None, str | None]],
    game: int,
    games: int,
    boards: Sequence[str],
) -> Seating:
    """The seating of the movement's *game* (0: the first, the draw's own seats) of *games*:
    *seats* holds each table's (first, second) player at the first game, None for an empty
    seat (an odd number: its neighbour has the bye). The second-named players move right after
    each of the first half of the games, the first-named ones move left after each of the rest.

    >>> seats = [("Ann", "Bob"), ("Cy", "Di"), ("Ed", None)]
    >>> moved = movement(seats, 1, 4, [])
    >>> [(p.table, p.first, p.second) for p in moved.pairings], moved.bye
    ([(2, 'Cy', 'Bob'), (3, 'Ed', 'Di')], 'Ann')
    """
    tables = len(seats)
    half = games // 2
    moved_second = min(game, half)
    moved_first = game - moved_second
    pairings = []
    bye = None
    for u in range(tables):
        first = seats[(u + moved_first) % tables][0]
        second = seats[(u - moved_second) % tables][1]
        if first is None or second is None:
            bye = first if second is None else second
            continue
        pairings.append(Pairing(u + 1, first, second, _board(boards, u + 1)))
    return Seating(tuple(pairings), bye, True, 0)
