"""Scorecards and standings of a tournament night, with the American Cribbage Congress's
tie-break chain.

Theory of operation
-------------------
**A scorecard** (``scorecards``) is one player's games in round order, as the paper card has
them: the opponent, both scores, the game points (2 a win, 3 a win with the loser below 91 -- a
skunk, 0 a loss; no double skunk), the spread (the winner gains the target minus the loser's
score, the loser loses as much), and the running totals. A bye is a line with no opponent,
scored as a win: 2 game points and the night's bye spread. A corrected game shows the result
that stands and every correction's who, when and why.

**The standings** (``standings``) add up the cards, so a card's totals are the standings' by
construction, and rank the players:

1. game points, 2. games won, 3. net spread, 4. plus points (the points won by: the sum of the
   spread of the games won), 5. head to head in this round: among players still level, the one
   with more wins in the games between them goes first (a level subgroup of a larger tie is
   looked at again on its own), 6. a one-game playoff (cut for first deal): flagged, and the
   players share the place until the director enters it.

Each line says which step placed it (``decided_by``: the last step that told it from its
neighbours; empty when game points alone did).
"""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.frozen import frozen

from .night import TARGET, Correction, Night, Result

__all__ = [
    "SKUNK_LINE",
    "CardLine",
    "Line",
    "Scorecard",
    "game_points",
    "scorecards",
    "standings",
]

WIN = 2
SKUNK_WIN = 3
SKUNK_LINE = 91
"""A loser below this is skunked (lurched): the winner earns 3 game points."""
STEPS = ("", "games won", "spread", "plus points", "head to head", "playoff")
"""What placed a line, in the chain's order (``Line.decided_by``)."""


def game_points(result: Result) -> int:
    """The winner's game points for *result*: 3 for a skunk, else 2 (the loser earns 0)."""
    return SKUNK_WIN if result.loser_score < SKUNK_LINE else WIN


@frozen
class CardLine:
    """One line of a scorecard: a game (or a bye: *opponent* None) and the totals after it."""

    round: int
    table: int
    opponent: str | None
    won: bool
    score: int
    against: int
    game_points: int
    spread: int
    total_points: int
    total_spread: int
    source: str = ""
    corrections: tuple[Correction, ...] = ()

    def to_payload(self) -> dict[str, object]:
        """The line as JSON values."""
        return {
            "round": self.round,
            "table": self.table,
            "opponent": self.opponent,
            "won": self.won,
            "score": self.score,
            "against": self.against,
            "game_points": self.game_points,
            "spread": self.spread,
            "total_points": self.total_points,
            "total_spread": self.total_spread,
            "source": self.source,
            "corrections": [{"who": c.who, "when": c.when, "why": c.why} for c in self.corrections],
        }


@frozen
class Scorecard:
    """A player's card: the lines and their sums."""

    name: str
    lines: tuple[CardLine, ...]

    @property
    def played(self) -> int:
        """Games played (a bye is not a game)."""
        return sum(1 for line in self.lines if line.opponent is not None)

    @property
    def won(self) -> int:
        """Games won, a bye counted as a win."""
        return sum(1 for line in self.lines if line.won)

    @property
    def game_points(self) -> int:
        """Game points in all."""
        return sum(line.game_points for line in self.lines)

    @property
    def spread(self) -> int:
        """Net spread."""
        return sum(line.spread for line in self.lines)

    @property
    def plus(self) -> int:
        """Plus points: the spread of the games won (a bye's included)."""
        return sum(line.spread for line in self.lines if line.won)

    @property
    def skunks(self) -> int:
        """Games won by a skunk."""
        return sum(1 for line in self.lines if line.game_points == SKUNK_WIN)

    @property
    def byes(self) -> int:
        """Byes had."""
        return sum(1 for line in self.lines if line.opponent is None)


def scorecards(night: Night) -> dict[str, Scorecard]:
    """Every entrant's card, by name, in entry order (the module's notes)."""
    lines: dict[str, list[CardLine]] = {e.name: [] for e in night.entrants}
    for number, seating in enumerate(night.rounds, start=1):
        if seating.bye is not None:
            _add(lines, seating.bye, number, 0, None, True, 0, 0, WIN, night.bye_spread, "bye")
        for pairing in seating.pairings:
            result = night.final(number, pairing.table)
            if result is None:
                continue
            fixes = tuple(
                c
                for c in night.corrections
                if (c.result.round, c.result.table) == (number, pairing.table)
            )
            spread = TARGET - result.loser_score
            points = game_points(result)
            for name, won in ((result.winner, True), (result.loser, False)):
                _add(
                    lines,
                    name,
                    number,
                    pairing.table,
                    result.loser if won else result.winner,
                    won,
                    TARGET if won else result.loser_score,
                    result.loser_score if won else TARGET,
                    points if won else 0,
                    spread if won else -spread,
                    result.source,
                    fixes,
                )
    return {name: Scorecard(name, tuple(card)) for name, card in lines.items()}


def _add(
    lines: dict[str, list[CardLine]],
    name: str,
    number: int,
    table: int,
    opponent: str | None,
    won: bool,
    score: int,
    against: int,
    points: int,
    spread: int,
    source: str,
    fixes: tuple[Correction, ...] = (),
) -> None:
    card = lines.setdefault(name, [])
    before_points = card[-1].total_points if card else 0
    before_spread = card[-1].total_spread if card else 0
    card.append(
        CardLine(
            number,
            table,
            opponent,
            won,
            score,
            against,
            points,
            spread,
            before_points + points,
            before_spread + spread,
            source,
            fixes,
        )
    )


@frozen
class Line:
    """A player's line in the standings: the place (shared by a playoff's players), the sums
    the chain ranks by, and the step that placed it (``STEPS``)."""

    place: int
    name: str
    played: int
    won: int
    game_points: int
    spread: int
    plus: int
    skunks: int
    byes: int
    decided_by: str = ""
    playoff: bool = False
    corrected: bool = False

    @property
    def lost(self) -> int:
        """Games played and lost."""
        return self.played + self.byes - self.won

    def to_payload(self) -> dict[str, object]:
        """The line as JSON values."""
        return {
            "place": self.place,
            "name": self.name,
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "game_points": self.game_points,
            "spread": self.spread,
            "plus": self.plus,
            "skunks": self.skunks,
            "byes": self.byes,
            "decided_by": self.decided_by,
            "playoff": self.playoff,
            "corrected": self.corrected,
        }


def standings(night: Night) -> list[Line]:
    """The night's standings, best first (the module's notes). Players who have played no
    game and had no bye are not in them."""
    cards = [c for c in scorecards(night).values() if c.lines]
    wins = _wins_between(night)
    groups = _rank(cards, wins)
    lines: list[Line] = []
    place = 1
    for index, group in enumerate(groups):
        step = _step_between(groups, index, wins)
        for card in group:
            corrected = any(line.corrections for line in card.lines)
            lines.append(
                Line(
                    place,
                    card.name,
                    card.played,
                    card.won,
                    card.game_points,
                    card.spread,
                    card.plus,
                    card.skunks,
                    card.byes,
                    "playoff" if len(group) > 1 else step,
                    len(group) > 1,
                    corrected,
                )
            )
        place += len(group)
    return lines


def _key(card: Scorecard) -> tuple[int, int, int, int]:
    return (card.game_points, card.won, card.spread, card.plus)


def _wins_between(night: Night) -> dict[tuple[str, str], int]:
    """How often each player beat each other (winner, loser) -> games."""
    wins: dict[tuple[str, str], int] = {}
    for number, seating in enumerate(night.rounds, start=1):
        for pairing in seating.pairings:
            result = night.final(number, pairing.table)
            if result is not None:
                key = (result.winner, result.loser)
                wins[key] = wins.get(key, 0) + 1
    return wins


def _rank(cards: Sequence[Scorecard], wins: dict[tuple[str, str], int]) -> list[list[Scorecard]]:
    """*cards* in groups, best first: each group is one player, or players the whole chain
    leaves level (a playoff)."""
    ordered = sorted(cards, key=lambda c: (tuple(-k for k in _key(c)), c.name))
    groups: list[list[Scorecard]] = []
    for card in ordered:
        if groups and _key(groups[-1][0]) == _key(card):
            groups[-1].append(card)
        else:
            groups.append([card])
    out: list[list[Scorecard]] = []
    for group in groups:
        out.extend(_head_to_head(group, wins))
    return out


def _head_to_head(
    group: list[Scorecard], wins: dict[tuple[str, str], int]
) -> list[list[Scorecard]]:
    """A level *group* split by wins in the games among its players; a level part smaller
    than the group is split again among itself; what stays level is one playoff group."""
    if len(group) == 1:
        return [group]
    names = {c.name for c in group}
    score = {c.name: sum(wins.get((c.name, o), 0) for o in names if o != c.name) for c in group}
    parts: dict[int, list[Scorecard]] = {}
    for card in group:
        parts.setdefault(score[card.name], []).append(card)
    if len(parts) == 1:
        return [sorted(group, key=lambda c: c.name)]
    out: list[list[Scorecard]] = []
    for value in sorted(parts, reverse=True):
        out.extend(_head_to_head(parts[value], wins))
    return out


def _step_between(
    groups: list[list[Scorecard]], index: int, wins: dict[tuple[str, str], int]
) -> str:
    """The chain's step that tells group *index* from its neighbours (the later of the two)."""
    steps = [
        _first_difference(groups[index][0], groups[other][0])
        for other in (index - 1, index + 1)
        if 0 <= other < len(groups)
    ]
    return STEPS[max(steps, default=0)]


def _first_difference(a: Scorecard, b: Scorecard) -> int:
    for step, (x, y) in enumerate(zip(_key(a), _key(b), strict=True)):
        if x != y:
            return step
    return 4  # level on every sum: head to head told them apart
