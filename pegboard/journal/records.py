"""The history's tables: finished games written with the command that finished them, and read.

Whenever the set of finished games of a match changes (a game won, or a win taken back by
undo), ``Journal.do_all`` calls ``_write_history`` inside the command's own transaction: the
match's rows in ``games``, ``game_sides``, ``deal_points`` and ``shown_hands`` are written again.
``side_averages``, ``best_hands``, ``lurches`` and ``finished_games`` query them (sides are
stored by name); ``history`` replays every match from its commands instead, so it reads any
journal, however old, and takes seconds on a Pi: the table reads it only in the history
reader's thread (``reader.py``). ``reading`` puts several reads in one read transaction, so
they agree. ``Journal`` takes these methods from ``HistoryTables``.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.engine.cards import format_cards
from pegboard.engine.game import GameState
from pegboard.engine.match import MatchFormat
from pegboard.engine.records import GameRecord
from pegboard.errors import JournalError, PegboardError
from pegboard.frozen import frozen

from .rulesjson import rules_from_json
from .schema import read_error

if TYPE_CHECKING:
    from pegboard.engine.history import MatchHistory

__all__ = ["BestHand", "HistoryTables", "LurchRecord", "SideAverage"]


@frozen
class SideAverage:
    """Average points per deal for one side name in one variant, over finished games."""

    variant: str
    side: str
    deals: int
    pegging: float
    hands: float
    crib: float


@frozen
class BestHand:
    """A counted hand or crib from a finished game."""

    variant: str
    side: str
    seat: str
    cards: str
    starter: str
    points: int
    is_crib: bool


@frozen
class LurchRecord:
    """A finished game in which a side ended behind a line."""

    match_id: int
    game: int
    variant: str
    side: str
    score: int
    lurch: str
    winner: str


class HistoryTables:
    """The history's half of ``Journal``: what it writes with a finishing command, and reads."""

    _conn: sqlite3.Connection
    match_id: int | None
    path: Path

    def _write_history(self, state: GameState) -> None:
        conn, match_id = self._conn, self.match_id
        conn.execute("DELETE FROM games WHERE match_id = ?", (match_id,))
        winner = state.match.winner
        conn.execute(
            "UPDATE matches SET winner = ? WHERE id = ?",
            (state.names[winner] if winner is not None else None, match_id),
        )
        for record in state.table.finished:
            self._write_game(state, record)

    def _write_game(self, state: GameState, record: GameRecord) -> None:
        names, rules, result = state.names, state.rules, record.result
        cur = self._conn.execute(
            "INSERT INTO games (match_id, game, variant, winner, scores, game_points) "
            "VALUES (?,?,?,?,?,?)",
            (
                self.match_id,
                record.game,
                rules.variant.value,
                names[result.winner],
                json.dumps(result.scores),
                result.game_points,
            ),
        )
        game_id = cur.lastrowid
        for side, name in enumerate(names):
            self._conn.execute(
                "INSERT INTO game_sides (game_id, side, score, won, lurch) VALUES (?,?,?,?,?)",
                (
                    game_id,
                    name,
                    result.scores[side],
                    int(side == result.winner),
                    result.lurches[side].value,
                ),
            )
        for deal in record.deals:
            starter = str(deal.starter) if deal.starter is not None else None
            for side, name in enumerate(names):
                self._conn.execute(
                    "INSERT INTO deal_points (game_id, deal, dealer, dealer_side, starter, side, "
                    "pegging, hands, crib, heels, other) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        game_id,
                        deal.number,
                        state.seat_name(deal.dealer),
                        names[rules.side_of(deal.dealer)],
                        starter,
                        name,
                        deal.pegging[side],
                        deal.hands[side],
                        deal.crib[side],
                        deal.heels[side],
                        deal.other[side],
                    ),
                )
            for hand in deal.shown:
                owner = deal.dealer if hand.seat is None else hand.seat
                self._conn.execute(
                    "INSERT INTO shown_hands (game_id, deal, side, seat, is_crib, cards, starter,"
                    " points, claim) VALUES (?,?,?,?,?,?,?,?,?)",
                    (
                        game_id,
                        deal.number,
                        names[hand.side],
                        state.seat_name(owner),
                        int(hand.seat is None),
                        format_cards(hand.cards),
                        str(deal.starter),
                        hand.points,
                        hand.claim,
                    ),
                )

    def side_averages(self, variant: str | None = None) -> list[SideAverage]:
        """Average pegging, hand and crib points per deal, per side name and variant.

        The crib average is over the deals the side dealt.
        """
        rows = self._conn.execute(
            "SELECT g.variant, d.side, COUNT(*), AVG(d.pegging), AVG(d.hands), "
            "COALESCE(SUM(d.crib) * 1.0 / NULLIF(SUM(d.dealer_side = d.side), 0), 0.0) "
            "FROM deal_points d JOIN games g ON g.id = d.game_id "
            "WHERE ? IS NULL OR g.variant = ? "
            "GROUP BY g.variant, d.side ORDER BY g.variant, d.side",
            (variant, variant),
        ).fetchall()
        return [SideAverage(*row) for row in rows]

    def best_hands(self, limit: int = 10, *, variant: str | None = None) -> list[BestHand]:
        """The highest counted hands and cribs of finished games, best first."""
        rows = self._conn.execute(
            "SELECT g.variant, h.side, h.seat, h.cards, h.starter, h.points, h.is_crib "
            "FROM shown_hands h JOIN games g ON g.id = h.game_id "
            "WHERE ? IS NULL OR g.variant = ? ORDER BY h.points DESC, g.id, h.deal LIMIT ?",
            (variant, variant, limit),
        ).fetchall()
        return [
            BestHand(variant, side, seat, cards, starter, points, bool(is_crib))
            for variant, side, seat, cards, starter, points, is_crib in rows
        ]

    def lurches(self) -> list[LurchRecord]:
        """Every losing side of a finished game that ended behind a lurch or skunk line."""
        rows = self._conn.execute(
            "SELECT g.match_id, g.game, g.variant, s.side, s.score, s.lurch, g.winner "
            "FROM game_sides s JOIN games g ON g.id = s.game_id "
            "WHERE s.lurch != 'none' ORDER BY g.match_id, g.game, s.side"
        ).fetchall()
        return [LurchRecord(*row) for row in rows]

    def finished_games(self) -> list[dict[str, Any]]:
        """Every finished game: match, number, variant, the match's side names, winner, scores,
        game points."""
        rows = self._conn.execute(
            "SELECT g.match_id, g.game, g.variant, m.names, g.winner, g.scores, g.game_points "
            "FROM games g JOIN matches m ON m.id = g.match_id ORDER BY g.match_id, g.game"
        ).fetchall()
        keys = ("match_id", "game", "variant", "names", "winner", "scores", "game_points")
        return [
            dict(zip(keys, row, strict=True))
            | {"names": json.loads(row[3])}
            | {"scores": json.loads(row[5])}
            for row in rows
        ]

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """One read transaction around the reads inside it, so they agree with each other
        (a commit by the writer between two of them is not seen by either); reads only.

        Raises:
            JournalError: the database cannot be read.
        """
        if self._conn.in_transaction:  # already inside one
            yield
            return
        try:
            self._conn.execute("BEGIN")
        except sqlite3.Error as e:
            raise JournalError(read_error(self.path, e)) from e
        try:
            yield
        finally:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("COMMIT")

    def history(self, *, after: int = 0) -> list[MatchHistory]:
        """Every match, oldest first, replayed from its commands (``replay_matches``); reads only.

        With *after*, only the matches with a higher id: only the latest match ever takes new
        commands, so a reader that keeps the older ones (the pub page) replays just the rest.

        Raises:
            JournalError: a stored command cannot be replayed, or the database cannot be read.
        """
        from pegboard.engine.history import replay_matches

        try:
            with self.reading():  # a match begun between the two reads is in neither
                matches = self._conn.execute(
                    "SELECT id, created, rules, names, format FROM matches WHERE id > ? "
                    "ORDER BY id",
                    (after,),
                ).fetchall()
                rows = self._conn.execute(
                    "SELECT match_id, command, at FROM journal WHERE match_id > ? "
                    "ORDER BY match_id, seq",
                    (after,),
                ).fetchall()
        except sqlite3.Error as e:
            raise JournalError(read_error(self.path, e)) from e
        try:
            return replay_matches(
                [(m, at, rules_from_json(r), json.loads(n), MatchFormat.parse(f))
                 for m, at, r, n, f in matches],
                rows,
            )  # fmt: skip
        except (PegboardError, ValueError) as e:
            raise JournalError(f"{str(self.path)!r} cannot be replayed: {e}") from e
