"""A night's steps as stored: each the director's or a board's, with its JSON payload.

The store (``league.tourney_store``) keeps one row a step and the night is every step applied
in order (``apply_step``), like a board's journal: the seating a round was drawn with is stored
as drawn, so a replay never draws again. ``Tourney`` is the night with the playoff bracket and
the tournament lock, which are not the night's own. Each payload's reader checks its shape
and raises ``TourneyError`` naming what it found.

>>> t = Tourney(Night("club", 9))
>>> t = apply_step(t, "enter", {"name": "Ann"})
>>> apply_step(t, "lock", {"on": True}).locked, [e.name for e in t.night.entrants]
(True, ['Ann'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pegboard.errors import quote
from pegboard.frozen import frozen

from .bracket import Bracket
from .night import (
    Correction,
    Night,
    Result,
    TourneyError,
    add_round,
    correct,
    drop,
    enter,
    report,
    set_boards,
    set_games,
)
from .pots import Shown, read_shows
from .seating import Pairing, Seating

__all__ = [
    "KINDS",
    "PlayoffFix",
    "PlayoffGame",
    "Tourney",
    "add_playoff_game",
    "apply_step",
    "correction_payload",
    "night_boards",
    "read_correction",
    "read_result",
    "read_seating",
    "result_payload",
    "seating_payload",
]

KINDS = (
    "enter",
    "drop",
    "games",
    "boards",
    "seat",
    "report",
    "correct",
    "bracket",
    "advance",
    "playoff_game",
    "lock",
    "playoff_board",
    "playoff_correct",
)
"""Every kind of step a night's store holds."""


@frozen
class PlayoffGame:
    """A game of a playoff match, from a board: the match (round, slot), its winner, its id,
    the board it came from and the loser's score (a step stored before they were kept: "" and
    None)."""

    round: int
    slot: int
    winner: str
    game_id: str
    board: str = ""
    loser_score: int | None = None


@frozen
class PlayoffFix:
    """A recorded change of a playoff match's winner: the match, the new winner, who changed
    it, when and why."""

    round: int
    slot: int
    winner: str
    who: str
    when: str
    why: str


@frozen
class Tourney:
    """A night, its playoff bracket (None: not drawn yet) and its games, whether the lock
    is on, and the hands shown at its tables (the boards' results carry them: the side pots'
    big hands and fours of a kind)."""

    night: Night
    bracket: Bracket | None = None
    locked: bool = False
    playoff: tuple[PlayoffGame, ...] = ()
    shown: tuple[Shown, ...] = ()
    playoff_boards: tuple[str, ...] = ()
    """The boards the playoff is played on, in order (``tourney.playoff``); a bracket drawn
    before they were kept has none: its matches are played on any of the night's boards."""
    moves: tuple[tuple[int, int, str], ...] = ()
    """Matches the director moved to another board: (round, slot, board), in order."""
    fixes: tuple[PlayoffFix, ...] = ()
    """The director's corrections of playoff matches' winners, in order."""

    def wins(self, number: int, slot: int, name: str) -> int:
        """Games *name* has won in the playoff match at round *number*, *slot*."""
        return sum(1 for g in self.playoff if (g.round, g.slot, g.winner) == (number, slot, name))


def add_playoff_game(tourney: Tourney, game: PlayoffGame) -> Tourney:
    """*tourney* with *game* on its match; the match goes to its winner once they have won
    more than half its games (2 of 3, 3 of 5).

    Raises:
        TourneyError: no bracket, no such match or not seated, decided already, a winner not
            in it, or the game counted already.
    """
    if tourney.bracket is None:
        raise TourneyError("no playoff bracket yet (draw it with 'pegboard tourney bracket')")
    match = tourney.bracket.match(game.round, game.slot)
    if match is None or match.high is None or match.low is None:
        raise TourneyError(f"no playoff round {game.round} match {game.slot + 1} being played")
    if match.winner is not None:
        raise TourneyError(
            f"playoff round {game.round} match {game.slot + 1} was won by {match.winner} already"
        )
    if game.winner not in (match.high, match.low):
        raise TourneyError(
            f"{quote(game.winner)} is not playing round {game.round} match {game.slot + 1} "
            f"({match.high} v {match.low})"
        )
    if game.game_id and any(g.game_id == game.game_id for g in tourney.playoff):
        raise TourneyError(f"duplicate game {quote(game.game_id)}: already counted")
    after = replace(tourney, playoff=(*tourney.playoff, game))
    if after.wins(game.round, game.slot, game.winner) > match.best_of // 2:
        after = replace(after, bracket=tourney.bracket.advance(game.round, game.slot, game.winner))
    return after


def night_boards(night: Night) -> list[str]:
    """The night's boards: those of ``boards``, then any other a round was seated on."""
    seated = [p.board for s in night.rounds for p in s.pairings if p.board]
    return list(dict.fromkeys([*night.boards, *seated]))


def _boards(tourney: Tourney, boards: object) -> tuple[str, ...]:
    """*boards* (a step's list) checked: each one of the night's, none twice."""
    known = night_boards(tourney.night)
    if not isinstance(boards, list) or not all(isinstance(b, str) for b in boards):
        raise TourneyError(f"a step's 'boards' must be names, got {quote(boards)}")
    wrong = [b for b in boards if b not in known]
    if wrong or len(set(boards)) != len(boards):
        raise TourneyError(
            f"the playoff's boards must be the night's, each once ({', '.join(known) or 'none'}"
            f"), got {quote(boards)}"
        )
    return tuple(boards)


def _move(tourney: Tourney, payload: Mapping[str, Any]) -> Tourney:
    """*tourney* with a playoff match moved to another of the night's boards."""
    number, slot = _field(payload, "round", int), _field(payload, "slot", int)
    board = _field(payload, "board", str)
    if tourney.bracket is None:
        raise TourneyError("no playoff bracket yet (draw it with 'pegboard tourney bracket')")
    match = tourney.bracket.match(number, slot)
    if match is None or match.is_bye:
        raise TourneyError(f"no playoff round {number} match {slot + 1} to play")
    if match.winner is not None:
        raise TourneyError(
            f"playoff round {number} match {slot + 1} was won by {match.winner} already"
        )
    _boards(tourney, [board])
    return replace(tourney, moves=(*tourney.moves, (number, slot, board)))


def _fix(tourney: Tourney, payload: Mapping[str, Any]) -> Tourney:
    """*tourney* with a playoff match's winner changed by the director, recorded."""
    number, slot = _field(payload, "round", int), _field(payload, "slot", int)
    winner, who, when, why = (_field(payload, k, str) for k in ("winner", "who", "when", "why"))
    if tourney.bracket is None:
        raise TourneyError("no playoff bracket yet (draw it with 'pegboard tourney bracket')")
    if not who.strip():
        raise TourneyError("a correction needs who made it (e.g. --who 'Pat, director')")
    if not why.strip():
        raise TourneyError("a correction needs a reason (e.g. --why 'scores swapped on the card')")
    nxt = (number + 1, slot // 2)
    if any((g.round, g.slot) == nxt for g in tourney.playoff):
        raise TourneyError(
            f"cannot correct round {number} match {slot + 1}: round {nxt[0]} match "
            f"{nxt[1] + 1} has games counted already"
        )
    bracket = tourney.bracket.correct(number, slot, winner)
    fix = PlayoffFix(number, slot, winner, who, when, why)
    return replace(tourney, bracket=bracket, fixes=(*tourney.fixes, fix))


def _field(payload: Mapping[str, Any], key: str, kind: type) -> Any:
    value = payload.get(key) if isinstance(payload, Mapping) else None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TourneyError(f"a step's {key!r} must be {kind.__name__}, got {quote(value)}")
    return value


def result_payload(result: Result) -> dict[str, Any]:
    """*result* as JSON values (``read_result`` reads it back)."""
    return {
        "round": result.round,
        "table": result.table,
        "winner": result.winner,
        "loser": result.loser,
        "winner_score": result.winner_score,
        "loser_score": result.loser_score,
        "board": result.board,
        "game_id": result.game_id,
        "ended": result.ended,
    }


def read_result(payload: Mapping[str, Any]) -> Result:
    """The result in *payload*.

    Raises:
        TourneyError: a field missing or of the wrong type.
    """
    ints = {k: _field(payload, k, int) for k in ("round", "table", "winner_score", "loser_score")}
    texts = {k: _field(payload, k, str) for k in ("winner", "loser", "board", "game_id", "ended")}
    return Result(**ints, **texts)


def correction_payload(correction: Correction) -> dict[str, Any]:
    """*correction* as JSON values."""
    return {
        "result": result_payload(correction.result),
        "who": correction.who,
        "when": correction.when,
        "why": correction.why,
    }


def read_correction(payload: Mapping[str, Any]) -> Correction:
    """The correction in *payload*.

    Raises:
        TourneyError: a field missing or of the wrong type.
    """
    result = read_result(_field(payload, "result", dict))
    who, when, why = (_field(payload, k, str) for k in ("who", "when", "why"))
    return Correction(result, who, when, why)


def seating_payload(seating: Seating) -> dict[str, Any]:
    """*seating* as JSON values."""
    return {
        "pairings": [p.to_payload() for p in seating.pairings],
        "bye": seating.bye,
        "movement": seating.movement,
        "repeats": seating.repeats,
    }


def read_seating(payload: Mapping[str, Any]) -> Seating:
    """The seating in *payload*.

    Raises:
        TourneyError: a field missing or of the wrong type.
    """
    pairings = []
    for item in _field(payload, "pairings", list):
        table = _field(item, "table", int)
        first, second, board = (_field(item, k, str) for k in ("first", "second", "board"))
        pairings.append(Pairing(table, first, second, board))
    bye = payload.get("bye")
    if bye is not None and not isinstance(bye, str):
        raise TourneyError(f"a step's 'bye' must be a name or null, got {quote(bye)}")
    movement = _field(payload, "movement", bool)
    return Seating(tuple(pairings), bye, movement, _field(payload, "repeats", int))


def apply_step(tourney: Tourney, kind: str, payload: Mapping[str, Any]) -> Tourney:
    """*tourney* after the step *kind* with *payload* (``KINDS``).

    Raises:
        TourneyError: an unknown kind, a payload of the wrong shape, or a step the night
            refuses (as ``night``'s functions say).
    """
    night = tourney.night
    if kind == "enter":
        return replace(tourney, night=enter(night, _field(payload, "name", str)))
    if kind == "drop":
        return replace(tourney, night=drop(night, _field(payload, "name", str)))
    if kind == "games":
        return replace(tourney, night=set_games(night, _field(payload, "games", int)))
    if kind == "boards":
        boards = _field(payload, "boards", list)
        if not all(isinstance(b, str) for b in boards):
            raise TourneyError(f"a step's 'boards' must be names, got {quote(boards)}")
        return replace(tourney, night=set_boards(night, tuple(boards)))
    if kind == "seat":
        return replace(tourney, night=add_round(night, read_seating(payload)))
    if kind == "report":  # a board's result carries its game's shows ("shown"); an old one none
        result = read_result(payload)
        shows = read_shows(payload.get("shown", []), result)
        return replace(tourney, night=report(night, result), shown=(*tourney.shown, *shows))
    if kind == "correct":
        return replace(tourney, night=correct(night, read_correction(payload)))
    if kind == "bracket":  # "boards" since the boards play the playoff; an older one has none
        names = _field(payload, "qualifiers", list)
        best_of = _field(payload, "best_of", int)
        boards = _boards(tourney, payload.get("boards", []))
        bracket = Bracket.seeded([str(n) for n in names], best_of)
        return replace(tourney, bracket=bracket, playoff_boards=boards, moves=())
    if kind == "playoff_board":
        return _move(tourney, payload)
    if kind == "playoff_correct":
        return _fix(tourney, payload)
    if kind == "advance":
        if tourney.bracket is None:
            raise TourneyError("no playoff bracket yet (draw it with 'pegboard tourney bracket')")
        number, slot = _field(payload, "round", int), _field(payload, "slot", int)
        winner = _field(payload, "winner", str)
        return replace(tourney, bracket=tourney.bracket.advance(number, slot, winner))
    if kind == "playoff_game":  # "board" and "loser_score" since they are kept
        number, slot = _field(payload, "round", int), _field(payload, "slot", int)
        winner, game_id = _field(payload, "winner", str), _field(payload, "game_id", str)
        board = _field(payload, "board", str) if "board" in payload else ""
        score = _field(payload, "loser_score", int) if "loser_score" in payload else None
        return add_playoff_game(tourney, PlayoffGame(number, slot, winner, game_id, board, score))
    if kind == "lock":
        return replace(tourney, locked=_field(payload, "on", bool))
    raise TourneyError(f"unknown step {quote(kind)} (expected one of {', '.join(KINDS)})")
