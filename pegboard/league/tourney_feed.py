"""Results from the boards: each finished game the league service receives, onto the night.

``TourneyFeed`` is the league service's ``on_game``: it is told every finished game the
service stored, and every copy of one (QoS 1 delivers at least once, and a board sends a game
again when it missed the receipt), before the service acknowledges it. It ties the game to
the night:

- the board (``venue/board``) must be one of the night's (a board in ``boards``, or one a
  round was seated on): else the game is refused, "a game from a board not in the night";
- a game whose id the night has already counted is a copy, and changes nothing;
- the game must be a tournament game (two players, six-card to 121);
- once the playoff bracket is drawn, a game between the two players of a match still being
  played counts toward that match, when it comes from the match's board
  (``tourney.playoff``; a bracket drawn before the boards were kept: any of the night's
  boards): its winner goes through on winning more than half the match's games (2 of 3, 3 of
  5), and the bracket seats them in the next match, once. A game from another board is
  refused (the director moves the match with ``pegboard tourney move``), and so is a game of a
  match that has its winner already (a duplicate), unless it is a round's pairing still to be
  played there;
- else its two side names must be a pairing seated at that board with no result yet (the
  earliest such round): else it is refused as "a result for a pairing that does not exist" or, when
  that pairing has its result already (another game id), as a duplicate.

A counted game's result is stored with the hands and cribs its deals showed (the payload's
``shown``, with each deal's number and starter): the night's side pots (``tourney.pots``) list
its 24, 28 and 29 hands and fours of a kind from them. A game from an older board has none.

A refused game is logged (one warning line naming the board, the game and the reason) and
kept in the night's ``refused`` table for the director (``pegboard tourney refused``); it is
never counted. A game the night's database failed to store raises ``LeagueStoreError``, so
the service does not acknowledge it and the broker delivers it again. A win taken back by undo
(withdrawn) is logged and left to the director (``pegboard tourney correct``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from pegboard.engine.cards import Card
from pegboard.engine.summary import GameSummary
from pegboard.league.standings import FinishedGame, LeagueError, read_summary
from pegboard.league.store import LeagueStoreError
from pegboard.league.tourney_store import TourneyStore, TourneyStoreError
from pegboard.tourney.night import TARGET, Result, TourneyError
from pegboard.tourney.playoff import match_boards
from pegboard.tourney.pots import Shown, show_payload
from pegboard.tourney.steps import result_payload

__all__ = ["TourneyFeed"]

log = logging.getLogger(__name__)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class TourneyFeed:
    """The night in *store* fed by the boards' finished games (the module's notes); *clock*
    gives the time a refusal or result is stored at."""

    def __init__(
        self,
        store: TourneyStore,
        clock: Callable[[], str] = _now,
        on_counted: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.on_counted = on_counted  # the projector's poke: a game is on the cards
        self.counted = 0  # games put on the cards by this feed
        self.refused = 0  # games refused by this feed
        self._said: set[tuple[str, str]] = set()  # (board, game id) refused: a copy says nothing

    def __call__(self, venue: str, board: str, payload: Mapping[str, Any]) -> str:
        """Take one game *board* of *venue* sent: "counted", "copy", "withdrawn" or
        "refused".

        Raises:
            LeagueStoreError: the night's database failed (the game will come again).
        """
        where = f"{venue}/{board}"
        try:
            return self._take(where, venue, board, payload)
        except TourneyStoreError as e:
            raise LeagueStoreError(str(e)) from e

    def _take(self, where: str, venue: str, board: str, payload: Mapping[str, Any]) -> str:
        game_id = str(payload.get("game_id", ""))[:64]
        if payload.get("withdrawn") is True:
            log.warning("tourney: %s took back game %s by undo: correct it by hand", where, game_id)
            return "withdrawn"
        night = self.store.night
        seated = {p.board for s in night.rounds for p in s.pairings}
        if where not in night.boards and where not in seated:
            return self._refuse(where, game_id, payload, "a game from a board not in the night")
        if any(r.game_id == game_id for r in night.results):
            return "copy"
        try:
            summary = read_summary(payload)
        except LeagueError as e:
            return self._refuse(where, game_id, payload, f"not a finished game: {e}")
        game = FinishedGame.of(summary, venue, board)
        if len(game.sides) != 2 or game.target != TARGET or game.variant != "six-card":
            return self._refuse(
                where, game_id, payload, "not a tournament game (two players, six-card to 121)"
            )
        if game_id and any(g.game_id == game_id for g in self.store.tourney.playoff):
            return "copy"
        names = {side.name for side in game.sides}
        playoff = self._playoff(where, game_id, payload, game)
        if playoff is not None:
            return playoff
        there = [
            (number, p)
            for number, s in enumerate(night.rounds, start=1)
            for p in s.pairings
            if p.board == where and set(p.players) == names
        ]
        shown = " v ".join(side.name for side in game.sides)
        if not there:
            return self._refuse(
                where,
                game_id,
                payload,
                f"a result for a pairing that does not exist: {shown} at {where}",
            )
        open_ = [(n, p) for n, p in there if night.final(n, p.table) is None]
        if not open_:
            number, p = there[-1]
            return self._refuse(
                where,
                game_id,
                payload,
                f"duplicate: round {number} table {p.table} ({shown}) has its result already",
            )
        number, pairing = open_[0]
        winner = game.winner
        loser = next(side for side in game.sides if not side.won)
        result = Result(
            number,
            pairing.table,
            winner.name,
            loser.name,
            TARGET,
            loser.score,
            where,
            game_id,
            game.ended,
        )
        step = result_payload(result)
        shows = _shows(summary, result)
        if shows:
            step["shown"] = [show_payload(hand) for hand in shows]
        said = f"round {number} table {pairing.table}: {winner.name} {TARGET}-{loser.score}"
        return self._count("report", step, said, where, game_id, payload)

    def _playoff(
        self, where: str, game_id: str, payload: Mapping[str, Any], game: FinishedGame
    ) -> str | None:
        """Count the game on the playoff match its players are playing, if there is one
        ("counted", or "refused": from another board than the match's, or the match is won
        already); None: not a playoff game.

        Raises:
            TourneyStoreError: the night's database failed.
        """
        tourney = self.store.tourney
        if tourney.bracket is None:
            return None
        names = {side.name for side in game.sides}
        winner = game.winner.name
        loser = next(side for side in game.sides if not side.won)
        boards = match_boards(tourney)
        for m in tourney.bracket.matches:
            if not (m.high and m.low and {m.high, m.low} == names):
                continue
            said = f"playoff round {m.round} match {m.slot + 1} ({m.high} v {m.low})"
            if m.winner is not None:
                if self._seated_here(where, names):
                    return None  # a round's pairing of the same two, still to be played here
                return self._refuse(
                    where, game_id, payload, f"duplicate: {said} was won by {m.winner} already"
                )
            board = boards.get((m.round, m.slot))
            if board is not None and board != where:
                return self._refuse(
                    where,
                    game_id,
                    payload,
                    f"{said} is played on {board}, not {where} (move it with "
                    f"'pegboard tourney move {m.round} {m.slot + 1} {where}')",
                )
            step = {"round": m.round, "slot": m.slot, "winner": winner, "game_id": game_id,
                    "board": where, "loser_score": loser.score}  # fmt: skip
            said = f"playoff round {m.round} match {m.slot + 1}: {winner} won a game"
            return self._count("playoff_game", step, said, where, game_id, payload)
        return None

    def _count(
        self,
        kind: str,
        step: dict[str, Any],
        said: str,
        where: str,
        game_id: str,
        payload: Mapping[str, Any],
    ) -> str:
        """Store the step *kind* that counts a board's game ("counted"), or refuse the game
        when the night does not take the step ("refused"); *said* is the log's line.

        Raises:
            TourneyStoreError: the night's database failed.
        """
        try:
            self.store.add(kind, step, at=self.clock(), by=where)
        except TourneyError as e:
            return self._refuse(where, game_id, payload, str(e))
        self.counted += 1
        if self.on_counted is not None:
            self.on_counted()
        log.info("tourney: %s (%s, game %s)", said, where, game_id)
        return "counted"

    def _seated_here(self, where: str, names: set[str]) -> bool:
        """Whether a round's pairing of *names* at *where* still has no result."""
        night = self.store.night
        return any(
            p.board == where and set(p.players) == names and night.final(n, p.table) is None
            for n, s in enumerate(night.rounds, start=1)
            for p in s.pairings
        )

    def _refuse(self, where: str, game_id: str, payload: Mapping[str, Any], reason: str) -> str:
        if (where, game_id) in self._said:
            return "refused"
        self._said.add((where, game_id))
        self.refused += 1
        log.warning("tourney: game %s from %s refused: %s", game_id or "?", where, reason)
        self.store.refuse(where, f"game {game_id or '?'}: {reason}", json.dumps(payload)[:2000],
                          at=self.clock())  # fmt: skip
        return "refused"


def _shows(game: GameSummary, result: Result) -> list[Shown]:
    """The hands and cribs *game*'s deals showed (checked by ``from_payload``), at *result*'s
    round and table, each under its side's name (a tournament's sides are one player each)."""
    side_of = {p: side.name for side in game.sides for p in (side.players or (side.name,))}
    return [
        Shown(
            side_of[show.player],
            result.round,
            result.table,
            result.ended,
            tuple(Card.parse(c) for c in show.cards),
            None if deal.starter is None else Card.parse(deal.starter),
            show.points,
            show.crib,
            deal.number,
        )
        for deal in game.deals
        for show in deal.shown
    ]
