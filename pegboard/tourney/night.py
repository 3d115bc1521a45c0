"""A tournament night as a value: who entered, the rounds seated, the results and corrections.

Theory of operation
-------------------
``Night`` is changed only by the functions here, each returning a new night and leaving the old
one as it was; each checks its input first and raises ``TourneyError`` with one line naming the
input and what was expected. So the store keeps the director's steps and the boards' results,
and the night is those steps applied in order.

- **Entrants** come and go at any round: ``enter`` before a round is seated makes the player
  part of that round's draw (a late arrival misses the rounds already seated); ``drop`` takes a
  player out of every round not yet seated (a game already seated is still played, or the
  director enters its result).
- **Rounds**: ``seat`` adds the next round, drawn (``seating.draw``) or by the movement, for
  the players present. A round is seated only when the one before it is complete, and never
  past the night's number of games.
- **Results**: ``report`` records the game at a round's table: the winner, both scores and
  where it came from (a board and its journal's game id, or the director). The winner's score
  is counted as the target (the peg stops in the game hole). A second result for the same table
  is refused as a duplicate: a result changes only by ``correct``, which keeps who changed it,
  when and why, and the cards and standings show it.
"""

from __future__ import annotations

import random
from dataclasses import replace

from pegboard.engine.names import check_new_names
from pegboard.errors import PegboardError, quote, quote_name
from pegboard.frozen import frozen

from .seating import Pairing, Seating, draw, movement

__all__ = [
    "TARGET",
    "Correction",
    "Entrant",
    "Night",
    "Result",
    "TourneyError",
    "add_round",
    "correct",
    "drop",
    "enter",
    "report",
    "seat",
    "set_boards",
    "set_games",
]

TARGET = 121
"""Two-player six-card cribbage to 121: a tournament night's game."""
MAX_GAMES = 30
"""The most games a night is set up for (a club plays seven to twelve)."""
MAX_NAME = 10
"""The most characters in a player's name: a roster name's (``config.game``), what the boards'
screens show whole."""


class TourneyError(PegboardError, ValueError):
    """A director's input or a board's result the night cannot take (the state is unchanged)."""


@frozen
class Entrant:
    """A player of the night: the first round they could be seated in, and the last round
    before they left (None: still here)."""

    name: str
    joined: int = 1
    left: int | None = None

    def present(self, round_number: int) -> bool:
        """Whether the player is in the draw for *round_number*."""
        return self.joined <= round_number and (self.left is None or round_number <= self.left)


@frozen
class Result:
    """A finished game at a round's table: the winner, both scores (the winner's counted as
    the target), where it came from (``board`` and the journal's ``game_id``; both empty: the
    director entered it) and when it ended."""

    round: int
    table: int
    winner: str
    loser: str
    winner_score: int
    loser_score: int
    board: str = ""
    game_id: str = ""
    ended: str = ""

    @property
    def source(self) -> str:
        """Where the result came from, as the cards show it."""
        if self.board:
            return f"board {self.board}, game {self.game_id}" if self.game_id else self.board
        return "director"


@frozen
class Correction:
    """A recorded change of a table's result: the new result, who changed it, when and why."""

    result: Result
    who: str
    when: str
    why: str


@frozen
class Night:
    """The whole evening (the module's notes). *bye_spread* is the spread a bye scores (its
    game points are a win's)."""

    name: str
    games: int
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Seating, ...] = ()
    results: tuple[Result, ...] = ()
    corrections: tuple[Correction, ...] = ()
    boards: tuple[str, ...] = ()
    bye_spread: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.games <= MAX_GAMES:
            raise TourneyError(
                f"games must be a whole number from 1 to {MAX_GAMES}, got {quote(self.games)}"
            )

    def entrant(self, name: str) -> Entrant | None:
        """The entrant called *name* (None: nobody)."""
        return next((e for e in self.entrants if e.name == name), None)

    @property
    def next_round(self) -> int:
        """The number the next seated round will have."""
        return len(self.rounds) + 1

    def present(self, round_number: int) -> list[str]:
        """The players in the draw for *round_number*, in the order they entered."""
        return [e.name for e in self.entrants if e.present(round_number)]

    def final(self, round_number: int, table: int) -> Result | None:
        """The result standing at *table* of *round_number*: the last correction's, else the
        reported one (None: not played yet)."""
        result = None
        for r in self.results:
            if (r.round, r.table) == (round_number, table):
                result = r
        for c in self.corrections:
            if (c.result.round, c.result.table) == (round_number, table):
                result = c.result
        return result

    def pairing(self, round_number: int, table: int) -> Pairing | None:
        """The pairing at *table* of *round_number* (None: no such table)."""
        if not 1 <= round_number <= len(self.rounds):
            return None
        return next((p for p in self.rounds[round_number - 1].pairings if p.table == table), None)

    def playing(self, round_number: int) -> list[Pairing]:
        """The tables of *round_number* with no result yet."""
        if not 1 <= round_number <= len(self.rounds):
            return []
        seating = self.rounds[round_number - 1]
        return [p for p in seating.pairings if self.final(round_number, p.table) is None]

    def complete(self, round_number: int) -> bool:
        """Whether every table of *round_number* has a result."""
        return not self.playing(round_number)

    def met(self) -> dict[str, set[str]]:
        """Whom each player has been seated against so far."""
        met: dict[str, set[str]] = {}
        for seating in self.rounds:
            for p in seating.pairings:
                met.setdefault(p.first, set()).add(p.second)
                met.setdefault(p.second, set()).add(p.first)
        return met

    def byes(self) -> dict[str, int]:
        """How many byes each player has had."""
        counts: dict[str, int] = {}
        for seating in self.rounds:
            if seating.bye is not None:
                counts[seating.bye] = counts.get(seating.bye, 0) + 1
        return counts


def enter(night: Night, name: str) -> Night:
    """*night* with *name* entered for the next round to be seated (a late arrival misses the
    rounds already seated); a player who dropped out comes back the same way.

    Raises:
        TourneyError: the name is not one a board can show, or is already playing, or the
            night's games are all seated.
    """
    try:
        check_new_names([name])
    except ValueError as e:
        raise TourneyError(f"cannot enter {quote(name)}: {e}") from e
    if " " in name.strip() or "," in name or name != name.strip() or not name:
        raise TourneyError(
            f"cannot enter {quote(name)}: a player's name is one word with no comma "
            "(the boards' side names), e.g. 'Ann' or 'Ann_B'"
        )
    if len(name) > MAX_NAME:
        raise TourneyError(
            f"cannot enter {quote(name)}: a name has at most {MAX_NAME} characters (the "
            "boards' screens show no more), e.g. 'Bartholome' or 'Bart_W'"
        )
    if night.next_round > night.games:
        raise TourneyError(f"cannot enter {quote_name(name)}: all {night.games} games are seated")
    there = night.entrant(name)
    if there is not None and there.left is None:
        raise TourneyError(f"cannot enter {quote_name(name)}: already entered")
    entrants = tuple(e for e in night.entrants if e.name != name)
    if there is not None:  # back after dropping out: the rounds missed stay missed
        return replace(night, entrants=(*entrants, Entrant(name, night.next_round)))
    return replace(night, entrants=(*night.entrants, Entrant(name, night.next_round)))


def drop(night: Night, name: str) -> Night:
    """*night* with *name* out of every round not seated yet.

    Raises:
        TourneyError: no such player playing.
    """
    there = night.entrant(name)
    if there is None or there.left is not None:
        raise TourneyError(
            f"cannot drop {quote_name(name)}: not a player still in the night "
            f"({_names(night.present(night.next_round))})"
        )
    left = night.next_round - 1
    entrants = tuple(replace(e, left=left) if e.name == name else e for e in night.entrants)
    if left < there.joined:  # entered and left before playing: as if never entered
        entrants = tuple(e for e in entrants if e.name != name)
    return replace(night, entrants=entrants)


def _names(names: list[str], limit: int = 6) -> str:
    if not names:
        return "nobody"
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def seat(night: Night, rng: random.Random, *, by_movement: bool = False) -> Night:
    """*night* with its next round seated: drawn (nobody meets an opponent again while that
    can be avoided), or by the movement when *by_movement* and the movement can seat it (the
    same players as in round 1, and fewer games so far than tables; else it is drawn).

    Raises:
        TourneyError: all the games are seated, the round before is not complete, or fewer
            than two players are present.
    """
    number = night.next_round
    if number > night.games:
        raise TourneyError(f"cannot seat round {number}: the night has {night.games} games")
    if number > 1 and not night.complete(number - 1):
        tables = ", ".join(str(p.table) for p in night.playing(number - 1))
        raise TourneyError(
            f"cannot seat round {number}: round {number - 1} is still playing at table(s) "
            f"{tables} (enter or wait for their results)"
        )
    players = night.present(number)
    if len(players) < 2:
        raise TourneyError(f"cannot seat round {number}: {len(players)} player(s) present, need 2")
    seating = None
    if by_movement:
        seating = _moved(night, number, players)
    if seating is None:
        seating = draw(players, night.met(), night.byes(), night.boards, rng)
    return add_round(night, seating)


def add_round(night: Night, seating: Seating) -> Night:
    """*night* with *seating* as its next round (a seating ``seat`` drew, read back from the
    store): it must seat exactly the players present, each once, with a bye only for an odd
    number, at distinct tables.

    Raises:
        TourneyError: all the games are seated, the round before is not complete, or the
            seating is not one of the players present.
    """
    number = night.next_round
    if number > night.games:
        raise TourneyError(f"cannot seat round {number}: the night has {night.games} games")
    if number > 1 and not night.complete(number - 1):
        raise TourneyError(f"cannot seat round {number}: round {number - 1} is still playing")
    seated = [n for p in seating.pairings for n in p.players]
    seated += [seating.bye] if seating.bye is not None else []
    tables = [p.table for p in seating.pairings]
    present = night.present(number)
    if (
        sorted(seated) != sorted(present)
        or len(set(tables)) != len(tables)
        or (seating.bye is not None) != (len(present) % 2 == 1)
    ):
        raise TourneyError(
            f"cannot seat round {number}: the seating {quote(seated)} is not the players "
            f"present ({_names(present)})"
        )
    return replace(night, rounds=(*night.rounds, seating))


def set_games(night: Night, games: int) -> Night:
    """*night* to be *games* games long.

    Raises:
        TourneyError: not 1 to ``MAX_GAMES``, or fewer than the rounds already seated.
    """
    if (
        isinstance(games, bool)
        or not isinstance(games, int)
        or not max(1, len(night.rounds)) <= games <= MAX_GAMES
    ):
        raise TourneyError(
            f"games must be a whole number from {max(1, len(night.rounds))} (the rounds "
            f"seated) to {MAX_GAMES}, got {quote(games)}"
        )
    return replace(night, games=games)


def set_boards(night: Night, boards: tuple[str, ...]) -> Night:
    """*night* with tables 1, 2, ... played on *boards* ("venue/board", as the league names
    them) from the next round seated on.

    Raises:
        TourneyError: a board named twice, or a name that is not venue/board.
    """
    for board in boards:
        venue, _, name = board.partition("/")
        if not venue or not name or "/" in name or any(c in board for c in " +#\n"):
            raise TourneyError(
                f"a board is named venue/board as the league knows it, e.g. 'red-lion/table-1', "
                f"got {quote(board)}"
            )
    if len(set(boards)) != len(boards):
        raise TourneyError(f"a board can play one table only, got {quote(list(boards))}")
    return replace(night, boards=boards)


def _moved(night: Night, number: int, players: list[str]) -> Seating | None:
    """The movement's seating of round *number*, or None when the movement cannot seat it."""
    if number == 1:
        return None  # the first round is drawn; the movement starts from its seats
    first = night.rounds[0]
    if not all(s.movement for s in night.rounds[1:]):
        return None
    seats: list[tuple[str | None, str | None]] = [(p.first, p.second) for p in first.pairings]
    if first.bye is not None:
        seats.append((first.bye, None))
    if sorted(players) != sorted(n for pair in seats for n in pair if n is not None):
        return None
    if number > len(seats):
        return None  # every seat further along has been met: the draw takes over
    return movement(seats, number - 1, night.games, night.boards)


def report(night: Night, result: Result) -> Night:
    """*night* with *result* recorded at its round's table.

    Raises:
        TourneyError: no such pairing, the players are not that table's, the scores are not a
            finished game's, or the table already has a result (a duplicate: change a result
            by ``correct``).
    """
    _check(night, result, "result")
    if night.final(result.round, result.table) is not None:
        existing = night.final(result.round, result.table)
        assert existing is not None
        raise TourneyError(
            f"duplicate result for round {result.round} table {result.table}: it already has "
            f"{existing.winner} {existing.winner_score}-{existing.loser_score} from "
            f"{existing.source} (change it with a correction)"
        )
    if result.game_id and any(r.game_id == result.game_id for r in night.results):
        raise TourneyError(f"duplicate game {quote(result.game_id)}: already counted")
    return replace(night, results=(*night.results, replace(result, winner_score=TARGET)))


def correct(night: Night, correction: Correction) -> Night:
    """*night* with a table's result changed by *correction* (it may also give a table with no
    result its first one, as the director's).

    Raises:
        TourneyError: as ``report`` for the new result, or no name of who changed it, or no
            reason.
    """
    _check(night, correction.result, "correction")
    if not correction.who.strip():
        raise TourneyError("a correction needs who made it (e.g. --who 'Pat, director')")
    if not correction.why.strip():
        raise TourneyError("a correction needs a reason (e.g. --why 'scores swapped on the card')")
    fixed = replace(correction, result=replace(correction.result, winner_score=TARGET))
    return replace(night, corrections=(*night.corrections, fixed))


def _check(night: Night, result: Result, what: str) -> None:
    pairing = night.pairing(result.round, result.table)
    if pairing is None:
        seated = f"{len(night.rounds)} round(s) seated"
        if 1 <= result.round <= len(night.rounds):
            seated += f", round {result.round} has tables 1-"
            seated += str(len(night.rounds[result.round - 1].pairings))
        raise TourneyError(
            f"{what} for a pairing that does not exist: round {result.round} table "
            f"{result.table} ({seated})"
        )
    if {result.winner, result.loser} != set(pairing.players) or result.winner == result.loser:
        raise TourneyError(
            f"{what} for round {result.round} table {result.table} names "
            f"{quote_name(result.winner)} v {quote_name(result.loser)}, but that table is "
            f"{pairing.first} v {pairing.second}"
        )
    if result.winner_score < TARGET:
        raise TourneyError(
            f"{what}: the winner's score must reach {TARGET}, got {quote(result.winner_score)}"
        )
    if not 0 <= result.loser_score < TARGET:
        raise TourneyError(
            f"{what}: the loser's score must be 0 to {TARGET - 1}, got {quote(result.loser_score)}"
        )
