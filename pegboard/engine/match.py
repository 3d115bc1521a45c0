"""The match: several games, counted by game points or by games won.

A finished game becomes a ``GameResult`` (who won, the final scores, the winner's game points
and who was left behind which line). A ``Match`` is a frozen value holding the results so far and
the format; ``record`` gives the next value.

Formats (``RULES.md``, "The match"):

- ``best-of-three`` (the default for two sides): up to three games; each gives the winner 1, 2 or
  3 game points (plain, lurch, double skunk, as configured in ``Rules``). The match ends as soon
  as no outcome of the remaining games can change the winner, so a side with 4 game points after
  two games has won. After three games the side with more game points wins; a tie goes to the
  side that won more games.
- ``first-to-two``: the first side to win two games (the English document).
- ``first-to-three``: the first side to win three games: a tournament playoff's best of five
  (its best of three is ``first-to-two``: games won, not game points, decide a playoff).
- ``single``: one game.

Three separate players have no game points (``game_points`` is None), so best of three cannot be
played by them: they play ``single`` (their default) or ``first-to-two``.

First dealer of each game: game 1 is cut for; game 2 is dealt first by the other side (the first
seat to the left of game 1's first dealer that is not on that side); game 3 and later are cut for
afresh.

>>> from .rules import Rules
>>> rules = Rules.six_card()
>>> m = Match.start(rules)
>>> m = m.record(GameResult.of(rules, (121, 80), first_dealer=0))
>>> m.points, m.is_over
((2, 0), False)
>>> m = m.record(GameResult.of(rules, (121, 95), first_dealer=1))
>>> m.points, m.is_over, m.winner
((3, 0), True, 0)
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence

from pegboard.choices import parse_choice
from pegboard.errors import ConfigError
from pegboard.frozen import frozen

from .rules import Lurch, Rules, game_points, lurch_of

__all__ = ["GameResult", "Match", "MatchFormat", "next_seat_of_other_side"]


class MatchFormat(enum.Enum):
    """How many games make a match, valued by the names used in the config and the CLI."""

    BEST_OF_THREE = "best-of-three"
    FIRST_TO_TWO = "first-to-two"
    SINGLE = "single"
    FIRST_TO_THREE = "first-to-three"

    @property
    def wins_needed(self) -> int | None:
        """Games a side must win to win the match (None: best of three, by game points)."""
        return {"single": 1, "first-to-two": 2, "first-to-three": 3}.get(self.value)

    @classmethod
    def parse(cls, text: str) -> MatchFormat:
        """Parse a format name ("best-of-three", "first_to_two", "Single").

        Raises:
            ConfigError: not a format name.

        >>> MatchFormat.parse("first_to_two")
        <MatchFormat.FIRST_TO_TWO: 'first-to-two'>
        """
        return parse_choice(cls, text, "match format")

    @classmethod
    def default_for(cls, rules: Rules) -> MatchFormat:
        """Best of three for two sides; a single game for three separate players."""
        return cls.BEST_OF_THREE if rules.sides == 2 else cls.SINGLE


def next_seat_of_other_side(rules: Rules, seat: int) -> int:
    """The first seat to the left of *seat* that pegs for another side.

    In two-player games this is the opponent; four-handed, the next player (an opponent);
    two-against-one, the solo for either of the pair, or the first of the pair for the solo.

    >>> from .rules import Rules
    >>> next_seat_of_other_side(Rules.two_against_one(), 0)
    2
    >>> next_seat_of_other_side(Rules.four_handed(), 3)
    0
    """
    side = rules.side_of(seat)
    for step in range(1, rules.players):
        other = (seat + step) % rules.players
        if rules.side_of(other) != side:
            return other
    raise AssertionError("a game always has at least two sides")  # pragma: no cover


@frozen
class GameResult:
    """One finished game.

    ``game_points`` is None with three separate players (not defined by the rule books);
    ``lurches`` holds every side's line status (the winner's is always ``Lurch.NONE``).
    """

    winner: int
    scores: tuple[int, ...]
    game_points: int | None
    lurches: tuple[Lurch, ...]
    first_dealer: int

    @classmethod
    def of(cls, rules: Rules, scores: Sequence[int], *, first_dealer: int) -> GameResult:
        """The result of a game that ended with *scores* (one per side).

        The winner is the side at or past the target; game points are counted from the loser's
        score (two sides only).

        Raises:
            ValueError: not exactly one side reached the target, or the wrong number of scores.
        """
        scores = tuple(scores)
        if len(scores) != rules.sides:
            raise ValueError(f"need one score per side ({rules.sides}), got {scores!r}")
        winners = [side for side, score in enumerate(scores) if score >= rules.target]
        if len(winners) != 1:
            raise ValueError(
                f"exactly one side must reach the target {rules.target}, got scores {scores!r}"
            )
        winner = winners[0]
        losers = [score for side, score in enumerate(scores) if side != winner]
        points = game_points(rules, losers[0]) if len(losers) == 1 else None
        lurches = tuple(
            Lurch.NONE if side == winner else lurch_of(rules, score)
            for side, score in enumerate(scores)
        )
        return cls(winner, scores, points, lurches, first_dealer)


@frozen
class Match:
    """The games of a match so far, and its format. Immutable: ``record`` returns a new match."""

    format: MatchFormat
    sides: int
    game_values: tuple[int, ...]
    """The game points one game can give the winner (plain, lurch, double skunk as configured)."""
    results: tuple[GameResult, ...] = ()

    @classmethod
    def start(cls, rules: Rules, match_format: MatchFormat | None = None) -> Match:
        """A new match for *rules* (format defaults to ``MatchFormat.default_for(rules)``).

        Raises:
            ConfigError: best of three with three separate players (they have no game points).
        """
        fmt = match_format or MatchFormat.default_for(rules)
        if fmt is MatchFormat.BEST_OF_THREE and rules.sides != 2:
            raise ConfigError(
                f"match: best of three counts game points, which {rules.sides} separate players "
                "do not have (expected first-to-two or single)"
            )
        possible = {rules.win_points}
        if rules.lurch_line is not None:
            possible.add(rules.lurch_points)
        if rules.double_skunk_line is not None:
            possible.add(rules.double_skunk_points)
        return cls(fmt, rules.sides, tuple(sorted(possible)))

    def record(self, result: GameResult) -> Match:
        """The match with one more finished game.

        Raises:
            ValueError: the match is already over.
        """
        if self.is_over:
            raise ValueError("the match is already over")
        return Match(self.format, self.sides, self.game_values, (*self.results, result))

    @property
    def games_played(self) -> int:
        """Finished games so far."""
        return len(self.results)

    @property
    def points(self) -> tuple[int, ...]:
        """Game points per side (three separate players: always zero)."""
        return tuple(
            sum(r.game_points or 0 for r in self.results if r.winner == side)
            for side in range(self.sides)
        )

    @property
    def games_won(self) -> tuple[int, ...]:
        """Games won per side."""
        return tuple(sum(1 for r in self.results if r.winner == side) for side in range(self.sides))

    @property
    def winner(self) -> int | None:
        """The side that has won the match, or None while it is open."""
        match self.format:
            case MatchFormat.SINGLE:
                return self.results[0].winner if self.results else None
            case MatchFormat.FIRST_TO_TWO | MatchFormat.FIRST_TO_THREE:
                needed = self.format.wins_needed or 2
                for side, won in enumerate(self.games_won):
                    if won >= needed:
                        return side
                return None
            case MatchFormat.BEST_OF_THREE:
                return self._best_of_three_winner()

    @property
    def is_over(self) -> bool:
        """True once the match has a winner."""
        return self.winner is not None

    def next_first_dealer(self, rules: Rules) -> int | None:
        """Who deals first in the next game: None means cut for it (games 1 and 3+)."""
        if len(self.results) == 1:
            return next_seat_of_other_side(rules, self.results[0].first_dealer)
        return None

    def _best_of_three_winner(self) -> int | None:
        remaining = 3 - len(self.results)
        if remaining < 0:  # pragma: no cover - record() refuses games after the end
            raise AssertionError("more than three games in a best of three")
        # the match is decided when every way the remaining games can go gives the same winner
        games = itertools.product(range(self.sides), self.game_values)
        outcomes = itertools.product(list(games), repeat=remaining)
        winners: set[int] = set()
        points_now, won_now = self.points, self.games_won  # worked out once, not per outcome
        for outcome in outcomes:
            points, won = list(points_now), list(won_now)
            for side, value in outcome:
                points[side] += value
                won[side] += 1
            winners.add(max(range(self.sides), key=lambda s: (points[s], won[s])))
            if len(winners) > 1:
                return None
        return winners.pop()
