"""The league table, as cribbage tournaments keep it (American Cribbage Congress style).

Theory of operation
-------------------
Every finished game a board reports is one ``FinishedGame``; ``standings`` folds them into one
``Standing`` per side name, best first. Pure functions: the same games give the same table,
in any order.

- **Match points**: a win is worth 2, or 3 when the loser was lurched (finished below the lurch
  line: 91 in six-card, "a win by more than 30"); a loss is worth 0.
- **The lurch line is the variant's**: each side's ``lurch`` comes from the board, and is
  checked against the variant's lines as it is read (``GameSummary.from_payload``): 91 in the
  six-card games, 45 in five-card (the old game's line; 31 in some rule books, also taken). A
  game under other lines is refused, not counted. A variant without a lurch line (two against
  one) never earns 3.
- **Double skunks**: ACC match points know none; a double-skunked loser is lurched as well, so
  the winner earns 3, no more.
- **More than two sides** (three players, or two against one): the winner earns 3 only when
  every loser was lurched (a win by the lurch margin over the runner-up); each loser earns 0.
- **Spread** per game: the winner's margin, counted with the winner's score capped at the target
  (the peg stops in the game hole): the winner gains ``target - runner-up's score``, each loser
  loses ``target - its own score``. Over two sides that is ACC's "points won by minus points
  lost by".
- **Order**: match points, then games won, then spread, then the name (only so that the order is
  fixed).
- **Players** are the side names typed on the boards: "Ann" at two pubs is one player. A
  partnership is its side's name.

>>> game = FinishedGame("g1", "red-lion", "t1", "six-card", 121,
...     (SideResult("Ann", 121, True, "none"), SideResult("Bob", 88, False, "lurched")))
>>> [(s.name, s.match_points, s.spread) for s in standings([game])]
[('Ann', 3, 33), ('Bob', 0, -33)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pegboard.engine.summary import GameSummary, PayloadError
from pegboard.errors import PegboardError
from pegboard.frozen import frozen

__all__ = [
    "FinishedGame",
    "LeagueError",
    "SideResult",
    "Standing",
    "contributions",
    "game_spread",
    "match_points",
    "ranked",
    "read_game",
    "read_summary",
    "standings",
]

WIN_POINTS = 2
LURCH_WIN_POINTS = 3


class LeagueError(PegboardError, ValueError):
    """A league message that cannot be read, or a league that cannot be reached."""


@frozen
class SideResult:
    """One side of a finished game: its name, final score, whether it won, its lurch."""

    name: str
    score: int
    won: bool
    lurch: str = "none"

    @property
    def lurched(self) -> bool:
        """Finished below the lurch line (a double skunk is below it too)."""
        return self.lurch != "none"


@frozen
class FinishedGame:
    """A game a board reported: its id (made on the board), where, the variant and the sides."""

    game_id: str
    venue: str
    board: str
    variant: str
    target: int
    sides: tuple[SideResult, ...]
    ended: str = ""

    @property
    def winner(self) -> SideResult:
        """The side that won."""
        return next(side for side in self.sides if side.won)

    @classmethod
    def of(cls, summary: GameSummary, venue: str, board: str) -> FinishedGame:
        """The league's record of *summary* (a finished game, checked as it was read:
        ``GameSummary.from_payload``), which *board* of *venue* sent."""
        sides = tuple(SideResult(s.name, s.score, s.won, s.lurch) for s in summary.sides)
        return cls(
            summary.game_id, venue, board, summary.variant, summary.target, sides, summary.ended
        )


def read_game(payload: Mapping[str, Any], venue: str, board: str) -> FinishedGame:
    """The finished game in *payload* (the ``finished`` topic's JSON: ``GameSummary``), which
    *board* of *venue* sent.

    Raises:
        LeagueError: as ``read_summary``.
    """
    return FinishedGame.of(read_summary(payload), venue, board)


def read_summary(payload: Mapping[str, Any]) -> GameSummary:
    """The finished game in *payload*, whole (its deals' shows too), checked.

    Raises:
        LeagueError: not a game a board could have finished (``GameSummary.from_payload``), or
            a withdrawn win.
    """
    try:
        summary = GameSummary.from_payload(payload)
    except PayloadError as e:
        raise LeagueError(str(e)) from e
    if summary.withdrawn:
        raise LeagueError(f"not a finished game: {payload!r:.80} (a withdrawn win)")
    return summary


@frozen
class Standing:
    """One side's line in the table."""

    name: str
    played: int = 0
    won: int = 0
    match_points: int = 0
    spread: int = 0
    lurches: int = 0
    """Games won with every loser lurched (the 3-point wins)."""

    @property
    def lost(self) -> int:
        """Games played and not won."""
        return self.played - self.won

    def to_dict(self) -> dict[str, Any]:
        """The line as JSON values."""
        return {
            "name": self.name,
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "match_points": self.match_points,
            "spread": self.spread,
            "lurches": self.lurches,
        }


def match_points(game: FinishedGame, side: SideResult) -> int:
    """*side*'s match points for *game*: 3 for a win with every loser lurched, 2 for another
    win, 0 for a loss.

    >>> g = FinishedGame("g", "v", "b", "six-card", 121,
    ...     (SideResult("Ann", 121, True), SideResult("Bob", 91, False)))
    >>> match_points(g, g.sides[0]), match_points(g, g.sides[1])
    (2, 0)
    """
    if not side.won:
        return 0
    losers = [other for other in game.sides if not other.won]
    return LURCH_WIN_POINTS if all(loser.lurched for loser in losers) else WIN_POINTS


def game_spread(game: FinishedGame, side: SideResult) -> int:
    """*side*'s spread for *game*: the winner's margin (its score capped at the target) over
    the runner-up, gained by the winner; each loser loses its own deficit.

    >>> g = FinishedGame("g", "v", "b", "five-card", 61,
    ...     (SideResult("Ann", 40, False, "lurched"), SideResult("Bob", 63, True)))
    >>> game_spread(g, g.sides[0]), game_spread(g, g.sides[1])
    (-21, 21)
    """
    top = min(game.winner.score, game.target)
    if side.won:
        return top - max(other.score for other in game.sides if not other.won)
    return side.score - top


def contributions(game: FinishedGame) -> list[Standing]:
    """What *game* adds to the table: one line a side, as if it were the side's only game
    (what a withdrawn or replaced game takes away again: ``league.store`` keeps the sums).

    >>> g = FinishedGame("g", "v", "b", "six-card", 121,
    ...     (SideResult("Ann", 121, True), SideResult("Bob", 80, False, "lurched")))
    >>> [(s.name, s.played, s.won, s.match_points, s.spread, s.lurches) for s in contributions(g)]
    [('Ann', 1, 1, 3, 41, 1), ('Bob', 1, 0, 0, -41, 0)]
    """
    lines = []
    for side in game.sides:
        points = match_points(game, side)
        lurches = int(points == LURCH_WIN_POINTS)
        lines.append(
            Standing(side.name, 1, int(side.won), points, game_spread(game, side), lurches)
        )
    return lines


def ranked(lines: Iterable[Standing]) -> list[Standing]:
    """*lines* best first: match points, then games won, then spread, then the name (only so
    that the order is fixed)."""
    return sorted(lines, key=lambda s: (-s.match_points, -s.won, -s.spread, s.name))


def standings(games: Iterable[FinishedGame]) -> list[Standing]:
    """One line per side name over *games*, best first (``ranked``), from scratch.

    A game id seen twice counts once (the first seen).
    """
    seen: set[str] = set()
    lines: dict[str, list[int]] = {}
    for game in games:
        if game.game_id in seen:
            continue
        seen.add(game.game_id)
        for part in contributions(game):
            line = lines.setdefault(part.name, [0, 0, 0, 0, 0])
            line[0] += part.played
            line[1] += part.won
            line[2] += part.match_points
            line[3] += part.spread
            line[4] += part.lurches
    return ranked(Standing(name, *line) for name, line in lines.items())
