"""What ``pegboard history`` lists of a match, as a value the journal can keep: no replay needed.

A ``MatchListing`` is made once from a ``MatchHistory`` (``of``), when the match becomes final
(a newer match was started), and kept as JSON (``to_payload``/``from_payload``); the latest
match, which still takes commands, is listed from its replay every time.

>>> from .rules import Rules
>>> from .match import MatchFormat
>>> from .history import replay_match
>>> moves = ["cut 9H 3C", "starter 5C", "peg Ann 61", "peg Ann 60"]
>>> match = replay_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE,
...                      [(m, "2025-03-01T20:00:00+00:00") for m in moves], match_id=4)
>>> listing = MatchListing.of(match)
>>> listing.games[0].result.game_points, listing.games[0].deals
(3, 1)
>>> MatchListing.from_payload(listing.to_payload()) == listing
True
"""

from __future__ import annotations

from typing import Any

from pegboard.frozen import frozen

from .history import GameHistory, MatchHistory
from .match import GameResult, MatchFormat
from .rules import Lurch, Variant

__all__ = ["GameListing", "MatchListing", "RunningGame"]


@frozen
class GameListing:
    """A finished game as the history lists it: its times, sides, result and number of deals."""

    match_id: int
    game: int
    variant: Variant
    names: tuple[str, ...]
    started: str
    finished: str
    result: GameResult
    deals: int

    @classmethod
    def of(cls, game: GameHistory) -> GameListing:
        """The listing of a finished *game*.

        Raises:
            ValueError: *game* is not finished.
        """
        if game.result is None or game.finished is None:
            raise ValueError(f"game {game.ref} is not finished (expected a finished game)")
        return cls(
            game.match_id, game.game, game.variant, game.names, game.started, game.finished,
            game.result, len(game.deals),
        )  # fmt: skip

    @property
    def ref(self) -> str:
        """``MATCH:GAME``."""
        return f"{self.match_id}:{self.game}"

    def to_payload(self) -> dict[str, Any]:
        """The listing as JSON values (``from_payload`` reads it back)."""
        r = self.result
        return {
            "match_id": self.match_id,
            "game": self.game,
            "variant": self.variant.value,
            "names": list(self.names),
            "started": self.started,
            "finished": self.finished,
            "winner": r.winner,
            "scores": list(r.scores),
            "game_points": r.game_points,
            "lurches": [lurch.value for lurch in r.lurches],
            "first_dealer": r.first_dealer,
            "deals": self.deals,
        }

    @classmethod
    def from_payload(cls, data: dict[str, Any]) -> GameListing:
        """A listing from ``to_payload``'s values.

        Raises:
            ValueError: *data* is not a game listing.
        """
        try:
            result = GameResult(
                int(data["winner"]),
                tuple(int(s) for s in data["scores"]),
                None if data["game_points"] is None else int(data["game_points"]),
                tuple(Lurch(v) for v in data["lurches"]),
                int(data["first_dealer"]),
            )
            return cls(
                int(data["match_id"]), int(data["game"]), Variant(data["variant"]),
                tuple(str(n) for n in data["names"]), str(data["started"]),
                str(data["finished"]), result, int(data["deals"]),
            )  # fmt: skip
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not a game listing: {data!r} ({e})") from e


@frozen
class RunningGame:
    """A game begun and not finished: its number, sides and scores so far."""

    game: int
    names: tuple[str, ...]
    scores: tuple[int, ...]


@frozen
class MatchListing:
    """A match as the history lists it (``MatchHistory``'s fields, its games as listings)."""

    match_id: int
    created: str
    variant: Variant
    format: MatchFormat
    names: tuple[str, ...]
    games: tuple[GameListing, ...]
    current: RunningGame | None
    winner: int | None
    games_won: tuple[int, ...]
    game_points: tuple[int, ...] | None
    abandoned: bool = False

    @classmethod
    def of(cls, match: MatchHistory) -> MatchListing:
        """The listing of *match*."""
        current = match.current
        return cls(
            match.match_id,
            match.created,
            match.variant,
            match.format,
            match.names,
            tuple(GameListing.of(g) for g in match.games),
            None if current is None else RunningGame(current.game, current.names, current.scores),
            match.winner,
            match.games_won,
            match.game_points,
            match.abandoned,
        )

    def to_payload(self) -> dict[str, Any]:
        """The listing as JSON values (``from_payload`` reads it back)."""
        current = self.current
        return {
            "match_id": self.match_id,
            "created": self.created,
            "variant": self.variant.value,
            "format": self.format.value,
            "names": list(self.names),
            "games": [g.to_payload() for g in self.games],
            "current": None
            if current is None
            else {
                "game": current.game,
                "names": list(current.names),
                "scores": list(current.scores),
            },
            "winner": self.winner,
            "games_won": list(self.games_won),
            "game_points": None if self.game_points is None else list(self.game_points),
            "abandoned": self.abandoned,
        }

    @classmethod
    def from_payload(cls, data: dict[str, Any]) -> MatchListing:
        """A listing from ``to_payload``'s values.

        Raises:
            ValueError: *data* is not a match listing.
        """
        try:
            current = data["current"]
            points = data["game_points"]
            return cls(
                int(data["match_id"]),
                str(data["created"]),
                Variant(data["variant"]),
                MatchFormat(data["format"]),
                tuple(str(n) for n in data["names"]),
                tuple(GameListing.from_payload(g) for g in data["games"]),
                None
                if current is None
                else RunningGame(
                    int(current["game"]),
                    tuple(str(n) for n in current["names"]),
                    tuple(int(s) for s in current["scores"]),
                ),
                None if data["winner"] is None else int(data["winner"]),
                tuple(int(n) for n in data["games_won"]),
                None if points is None else tuple(int(n) for n in points),
                bool(data["abandoned"]),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not a match listing: {str(data)[:60]!r}... ({e})") from e
