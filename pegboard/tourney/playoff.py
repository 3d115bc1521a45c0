"""The playoff on the boards: which board plays which bracket match, and what each has to play.

Theory of operation
-------------------
The director draws the bracket with the boards the playoff is played on (the night's boards,
in order, unless told otherwise: ``Tourney.playoff_boards``). Each match is given a board
(``match_boards``), going through the bracket round by round, match by match:

- a first-round match that is played (not a bye) takes the next board of the list;
- a later match is played where the first of its two feeding matches was played (that match
  is over before this one is seated, so the board is free and its players are there already);
  when neither feeding match was played on a board (both were byes), it takes the next board;
- a match the director moved (``Tourney.moves``, the last move of a match counts) is played on
  the board it was moved to, and a later match fed by it follows it there; the board it would
  have taken from the list stays unused, so no other match changes board.

So two matches that can be played at the same time never share a board (each board travels up
one line of the bracket), unless the director moves one onto another's board; then the board
plays the earlier (lower round, then match) first. When the list runs out, the rest of the
matches have no board: they are played on paper (``pegboard tourney advance``) or moved to a
board. A bracket drawn before the boards were kept (an old night) has no boards at all: its
matches are counted from any of the night's boards, as they were.

``due`` is what each board is to play now: the match given to it whose two players are known
and which has no winner yet. ``games`` lists a match's games counted so far.

>>> from .bracket import Bracket
>>> from .night import Night
>>> from .steps import Tourney
>>> five = Bracket.seeded(["A", "B", "C", "D", "E"])  # D v E; A, B and C have byes
>>> t = Tourney(Night("club", 3), five, playoff_boards=("v/1", "v/2"))
>>> sorted(match_boards(t).items())
[((1, 1), 'v/1'), ((2, 0), 'v/1'), ((2, 1), 'v/2'), ((3, 0), 'v/1')]
"""

from __future__ import annotations

from .bracket import Match
from .steps import PlayoffGame, Tourney

__all__ = ["due", "games", "match_boards", "score"]


def match_boards(tourney: Tourney) -> dict[tuple[int, int], str]:
    """(round, slot) -> the board the match is played on, for every match that has one (the
    module's notes)."""
    bracket = tourney.bracket
    if bracket is None or not tourney.playoff_boards:
        return {}
    moved = {(number, slot): board for number, slot, board in tourney.moves}
    fresh = iter(tourney.playoff_boards)
    boards: dict[tuple[int, int], str] = {}
    for m in bracket.matches:
        key = (m.round, m.slot)
        if m.is_bye:
            continue
        board = None
        if m.round > 1:
            feeders = ((m.round - 1, 2 * m.slot), (m.round - 1, 2 * m.slot + 1))
            board = next((boards[f] for f in feeders if f in boards), None)
        if board is None:
            board = next(fresh, None)  # taken even when moved: no other match shifts
        board = moved.get(key, board)
        if board is not None:
            boards[key] = board
    return boards


def due(tourney: Tourney) -> dict[str, Match]:
    """Each board's match to play now: seated, not won yet; the earliest when a board has
    two (the module's notes)."""
    if tourney.bracket is None:
        return {}
    boards = match_boards(tourney)
    playing: dict[str, Match] = {}
    for m in tourney.bracket.matches:  # round by round, match by match: the earliest first
        board = boards.get((m.round, m.slot))
        if board and m.high and m.low and m.winner is None:
            playing.setdefault(board, m)
    return playing


def games(tourney: Tourney, number: int, slot: int) -> list[PlayoffGame]:
    """The games counted on the match at round *number*, *slot*, in the order counted."""
    return [g for g in tourney.playoff if (g.round, g.slot) == (number, slot)]


def score(tourney: Tourney, match: Match) -> str:
    """The match's games so far as the director reads them: "Cy 2-1 (Cy 121-100 b2, Bob
    121-95 b2, Cy 121-88 b2)"; empty when none is counted."""
    played = games(tourney, match.round, match.slot)
    if not played or match.high is None or match.low is None:
        return ""
    high = sum(1 for g in played if g.winner == match.high)
    low = len(played) - high
    lead = f"{match.high} {high}-{low}" if high >= low else f"{match.low} {low}-{high}"
    each = []
    for g in played:
        against = "" if g.loser_score is None else f" 121-{g.loser_score}"
        where = f" {g.board}" if g.board else ""
        each.append(f"{g.winner}{against}{where}")
    return f"{lead} ({', '.join(each)})"
