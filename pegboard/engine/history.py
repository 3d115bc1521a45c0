"""A match's history, read back from its journalled commands: games, deals and every peg.

Theory of operation
-------------------
The journal stores every accepted command of a match with its time, undo and redo included.
``replay_match`` folds them through ``apply`` once, keeping a time beside every entry of the
state's undo stack (an undo moves the time to the redo stack, a redo moves it back), so at the
end ``state.past`` is the match as it finally stood: the commands that count, in order, each
with its time. Those are applied once more from the start and their events read: every peg
with its ``Source``, the phase it came in, its reason; every hand shown, with its cards or by
its points; the deals and games as they started and ended. Nothing is stored that the commands
did not say, so old journals give the same figures as new ones.

How each part of a deal was scored (``Part``), per side:

- the play (pegging) is ``COUNTED`` when cards were laid and the play ran to its end on the
  device (not ended with ``next``), and the side pegged nothing by hand during it;
- the hands are ``COUNTED`` when every hand of the side was shown with its cards (``show`` or
  ``show CARDS``) and the side pegged nothing by hand while they were counted;
- the crib (the dealer's side) is ``COUNTED`` when it was shown with its cards.

A part with a manual peg (``peg B 2``) or told by its points (``show 8``, ``crib 8``) is
``BY_HAND``; a part skipped, ended early, or never reached (the game was won first) is
``NONE``. Averages over ``COUNTED`` parts only are what ``players.py`` gives as "counted on the
device"; what was pegged by hand is kept, with its reason, beside them.

Where the points of a deal go (``pegging``, ``hands``, ``crib``, ``heels``, ``other``) follows
the engine's own ``DealRecord`` exactly: a manual peg during the play is pegging, during the
show a hand's (the crib's while the crib is up, for the dealer's side), otherwise other.

>>> from .rules import Rules
>>> from .match import MatchFormat
>>> commands = [("cut 9H 3C", "2025-03-01T20:00:00+00:00"), ("starter JD", "2025-03-01T20:01:00+00:00")]
>>> match = replay_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE, commands)
>>> game = match.current
>>> game.deals[0].heels, game.scores
((0, 2), (0, 2))
"""  # noqa: E501

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from pegboard.errors import PegboardError
from pegboard.frozen import frozen

from .cards import Card, format_cards
from .commands import Command, Next, Redo, Undo, parse_command
from .events import (
    CardPlayed,
    DealStarted,
    Event,
    GameStarted,
    GameWon,
    HandCounted,
    HandSkipped,
    Pegged,
    PlayEnded,
    Source,
    StarterTurned,
)
from .game import GameState, Phase, Table, apply
from .match import GameResult, MatchFormat
from .rules import Rules, Variant

__all__ = [
    "DealHistory",
    "GameHistory",
    "MatchHistory",
    "Part",
    "PegMark",
    "ShownMark",
    "filter_matches",
    "members_of",
    "replay_match",
    "replay_matches",
]


class Part(enum.Enum):
    """How one part of a deal (the play, the hands, the crib) was scored for one side."""

    COUNTED = "counted"  # on the device: the cards laid one by one, the hand entered as cards
    BY_HAND = "by hand"  # a manual peg, or the table's own count given as points
    NONE = "none"  # skipped, ended early, or not reached before the game was won


@frozen
class PegMark:
    """One peg as it happened: *side* moved *points* to *score*.

    *part* is where the points count (``pegging``, ``hands``, ``crib``, ``heels``, ``other``);
    *manual* is True for a peg by hand and for a hand or crib told by its points.
    """

    side: int
    points: int
    score: int
    source: Source
    part: str
    manual: bool
    seat: int | None = None
    reason: str = ""


@frozen
class ShownMark:
    """A hand (seat) or the crib (seat None) in the show: its cards, or only its points when the
    table counted it itself (*cards* empty)."""

    seat: int | None
    side: int
    cards: tuple[Card, ...]
    starter: Card | None
    points: int
    claim: int | None = None

    @property
    def told(self) -> bool:
        """True when the table gave the points instead of the cards."""
        return not self.cards


@frozen
class DealHistory:
    """One deal: who dealt, the starter, every peg, and per side where its points came from.

    The tuples with one value per side: ``pegging``, ``hands``, ``crib``, ``heels``, ``other``
    (points, adding up to what the side pegged in the deal), ``play`` and ``hand`` (``Part``),
    and ``scores`` (each side's score after the deal). ``crib_part`` is how the dealer's crib
    was scored. ``complete`` is False for a deal cut short by the end of the game (or still
    being played).
    """

    number: int
    dealer: int
    dealer_side: int
    starter: Card | None
    scores: tuple[int, ...]
    pegs: tuple[PegMark, ...]
    shown: tuple[ShownMark, ...]
    pegging: tuple[int, ...]
    hands: tuple[int, ...]
    crib: tuple[int, ...]
    heels: tuple[int, ...]
    other: tuple[int, ...]
    play: tuple[Part, ...]
    hand: tuple[Part, ...]
    crib_part: Part
    complete: bool

    def total(self, side: int) -> int:
        """Everything *side* pegged in this deal."""
        return sum(p[side] for p in (self.pegging, self.hands, self.crib, self.heels, self.other))


@frozen
class GameHistory:
    """One game of a match: finished (``result``) or still being played (``result`` None).

    ``started`` and ``finished`` are the journal's times (ISO 8601, UTC) of the cut or first
    deal and of the winning command. ``scores`` are the current (or final) scores.
    """

    match_id: int
    game: int
    variant: Variant
    rules: Rules
    names: tuple[str, ...]
    seat_names: tuple[str, ...]
    first_dealer: int
    started: str
    finished: str | None
    result: GameResult | None
    scores: tuple[int, ...]
    deals: tuple[DealHistory, ...]

    @property
    def ref(self) -> str:
        """``MATCH:GAME``, as ``pegboard history`` and ``pegboard sheet`` name a game."""
        return f"{self.match_id}:{self.game}"


@frozen
class MatchHistory:
    """A match: its finished games, the game being played (``current``), and the result so far.

    ``winner`` is None while the match is open; ``abandoned`` is True for an open match that a
    newer one replaced (set by ``Journal.history``). ``game_points`` is None for three separate
    players (they have none).
    """

    match_id: int
    created: str
    variant: Variant
    format: MatchFormat
    names: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...]
    games: tuple[GameHistory, ...]
    current: GameHistory | None
    winner: int | None
    games_won: tuple[int, ...]
    game_points: tuple[int, ...] | None
    abandoned: bool = False


# --- replay ------------------------------------------------------------------------------------


def _effective(
    state: GameState, commands: Sequence[tuple[str, str]]
) -> tuple[GameState, list[tuple[Command, str]]]:
    """Fold *commands* (text, time) from *state*; the commands that stand, each with its time.

    Raises:
        PegboardError: a command that cannot be parsed or that the game refuses.
    """
    times: list[str] = []  # beside state.past
    undone: list[str] = []  # beside state.future
    for text, at in commands:
        command = parse_command(text, state.names)
        state, _ = apply(state, command)
        if isinstance(command, Undo):
            undone.append(times.pop())
        elif isinstance(command, Redo):
            undone.pop()
            times.append(at)
        else:
            times.append(at)
            undone.clear()
    return state, [(done, at) for (_, done), at in zip(state.past, times, strict=True)]


@dataclass
class _Deal:
    """A deal being read (mutable while its events come in; frozen into ``DealHistory``)."""

    number: int
    dealer: int
    dealer_side: int
    sides: int
    starter: Card | None = None
    pegs: list[PegMark] = field(default_factory=list)
    shown: list[ShownMark] = field(default_factory=list)
    skipped: set[int | None] = field(default_factory=set)
    laid: int = 0
    play_done: bool = False  # the play ran to its end on the device


@dataclass
class _Game:
    number: int
    first_dealer: int
    started: str
    scores: list[int]
    deals: list[DealHistory] = field(default_factory=list)
    deal: _Deal | None = None


def _part_of(rules: Rules, table_phase: Phase, show_step: int, dealer: int, peg: Pegged) -> str:
    """Where the engine's ``DealRecord`` puts *peg*'s points (``game._add_to_record``)."""
    match peg.source:
        case Source.PLAY:
            return "pegging"
        case Source.HAND:
            return "hands"
        case Source.CRIB:
            return "crib"
        case Source.HEELS:
            return "heels"
        case Source.MANUAL if table_phase is Phase.PLAY:
            return "pegging"
        case Source.MANUAL if table_phase is Phase.SHOW:
            crib_up = show_step == rules.players
            return "crib" if crib_up and peg.side == rules.side_of(dealer) else "hands"
        case _:
            return "other"


def _close(rules: Rules, deal: _Deal, scores: tuple[int, ...], *, complete: bool) -> DealHistory:
    sides = deal.sides
    sums = {part: [0] * sides for part in ("pegging", "hands", "crib", "heels", "other")}
    manual = {part: [False] * sides for part in sums}
    for peg in deal.pegs:
        sums[peg.part][peg.side] += peg.points
        manual[peg.part][peg.side] |= peg.manual
    shown = {mark.seat: mark for mark in deal.shown}
    play: list[Part] = []
    hand: list[Part] = []
    for side in range(sides):
        if manual["pegging"][side]:
            play.append(Part.BY_HAND)
        elif deal.laid and deal.play_done:
            play.append(Part.COUNTED)
        else:
            play.append(Part.NONE)
        seats = [shown.get(seat) for seat in rules.teams[side]]
        if manual["hands"][side] or any(m is not None and m.told for m in seats):
            hand.append(Part.BY_HAND)
        elif all(m is not None and not m.told for m in seats):
            hand.append(Part.COUNTED)
        else:
            hand.append(Part.NONE)
    crib = shown.get(None)
    if manual["crib"][deal.dealer_side] or (crib is not None and crib.told):
        crib_part = Part.BY_HAND
    elif crib is not None:
        crib_part = Part.COUNTED
    else:
        crib_part = Part.NONE
    return DealHistory(
        deal.number,
        deal.dealer,
        deal.dealer_side,
        deal.starter,
        scores,
        tuple(deal.pegs),
        tuple(deal.shown),
        tuple(sums["pegging"]),
        tuple(sums["hands"]),
        tuple(sums["crib"]),
        tuple(sums["heels"]),
        tuple(sums["other"]),
        tuple(play),
        tuple(hand),
        crib_part,
        complete,
    )


def replay_match(
    rules: Rules,
    names: Sequence[str],
    match_format: MatchFormat,
    commands: Sequence[tuple[str, str]],
    *,
    match_id: int = 0,
    created: str = "",
) -> MatchHistory:
    """The history of one match from its journalled commands, each ``(text, time)``.

    Raises:
        PegboardError: a command that cannot be parsed or that the game refuses (the commands
            are not a journal of this match).
    """
    start = GameState.new(rules, names, match_format)
    final, effective = _effective(start, commands)
    seat_names = tuple(start.seat_name(seat) for seat in range(rules.players))
    games: list[GameHistory] = []
    game: _Game | None = None
    state = start
    for command, at in effective:
        before = state.table
        state, events = apply(state, command)
        game = _read_events(state, before, command, events, at, game, games, match_id, seat_names)
    current = None
    if game is not None:
        deals = list(game.deals)
        if game.deal is not None:
            deals.append(_close(rules, game.deal, state.table.scores, complete=False))
        current = GameHistory(
            match_id,
            game.number,
            rules.variant,
            rules,
            tuple(names),
            seat_names,
            game.first_dealer,
            game.started,
            None,
            None,
            state.table.scores,
            tuple(deals),
        )
    match = final.match
    return MatchHistory(
        match_id,
        created,
        rules.variant,
        match.format,
        tuple(names),
        rules.teams,
        tuple(games),
        current,
        match.winner,
        match.games_won,
        None if rules.sides > 2 else match.points,
    )


def _read_events(
    state: GameState,
    before: Table,
    command: Command,
    events: list[Event],
    at: str,
    game: _Game | None,
    games: list[GameHistory],
    match_id: int,
    seat_names: tuple[str, ...],
) -> _Game | None:
    """Add what one command's *events* say to the game being read; the game read after them."""
    rules = state.rules
    phase, show_step = before.phase, before.show_step  # where the command found the table
    told = any(isinstance(e, HandCounted) and not e.cards for e in events)
    for event in events:
        match event:
            case GameStarted(game=number, dealer=dealer):
                starts = [rules.start_score(side) for side in range(rules.sides)]
                game = _Game(number, dealer, at, starts)
            case DealStarted(deal=number, dealer=dealer):
                assert game is not None
                if game.deal is not None:
                    scores = tuple(game.scores)
                    game.deals.append(_close(rules, game.deal, scores, complete=True))
                game.deal = _Deal(number, dealer, rules.side_of(dealer), rules.sides)
                phase, show_step = Phase.STARTER, 0  # pegs after this belong to the new deal
            case StarterTurned(card=card):
                assert game is not None and game.deal is not None
                game.deal.starter = card
            case CardPlayed():
                assert game is not None and game.deal is not None
                game.deal.laid += 1
            case PlayEnded():
                assert game is not None and game.deal is not None
                game.deal.play_done = not isinstance(command, Next)
            case Pegged() as peg:
                assert game is not None and game.deal is not None
                deal = game.deal
                game.scores[peg.side] = peg.score
                part = _part_of(rules, phase, show_step, deal.dealer, peg)
                manual = peg.source is Source.MANUAL or (
                    told and peg.source in (Source.HAND, Source.CRIB)
                )
                deal.pegs.append(
                    PegMark(
                        peg.side, peg.points, peg.score, peg.source, part, manual, peg.seat,
                        peg.reason,
                    )
                )  # fmt: skip
            case HandCounted(seat=seat, side=side, cards=cards, breakdown=b, claim=claim):
                assert game is not None and game.deal is not None
                deal = game.deal
                deal.shown.append(ShownMark(seat, side, cards, deal.starter, b.total, claim))
            case HandSkipped(seat=seat):
                assert game is not None and game.deal is not None
                game.deal.skipped.add(seat)
            case GameWon(game=number, result=result):
                assert game is not None and game.deal is not None
                scores = result.scores
                game.deals.append(_close(rules, game.deal, scores, complete=False))
                games.append(
                    GameHistory(
                        match_id,
                        number,
                        rules.variant,
                        rules,
                        state.names,
                        seat_names,
                        game.first_dealer,
                        game.started,
                        at,
                        result,
                        scores,
                        tuple(game.deals),
                    )
                )
                game = None
            case _:
                pass
    return game


def replay_matches(
    matches: Sequence[tuple[int, str, Rules, Sequence[str], MatchFormat]],
    commands: Iterable[tuple[int, str, str]],
) -> list[MatchHistory]:
    """The history of every match, oldest first: *matches* as (id, created, rules, names,
    format) and *commands* as (match id, text, time) in journal order. An open match that a
    newer one followed is marked ``abandoned``.

    Raises:
        PegboardError: a match's commands cannot be replayed (the message names the match).
    """
    by_match: dict[int, list[tuple[str, str]]] = {}
    for match_id, text, at in commands:
        by_match.setdefault(match_id, []).append((text, at))
    history = []
    for index, (match_id, created, rules, names, fmt) in enumerate(matches):
        try:
            match = replay_match(
                rules, names, fmt, by_match.get(match_id, []), match_id=match_id, created=created
            )
        except PegboardError as e:
            raise type(e)(f"match {match_id}: {e}") from e
        if match.winner is None and index < len(matches) - 1:
            match = replace(match, abandoned=True)
        history.append(match)
    return history


# --- selection -------------------------------------------------------------------------------


def members_of(name: str) -> tuple[str, ...]:
    """The players a partnership's side name lists, joined by ``+`` (``Ann+Cat``); else none.

    >>> members_of("Ann+Cat"), members_of("Ann")
    (('Ann', 'Cat'), ())
    """
    members = tuple(part for part in name.split("+") if part)
    return members if len(members) > 1 else ()


def _plays(match: MatchHistory, player: str) -> bool:
    key = player.strip().casefold()
    return any(
        name.casefold() == key or key in (m.casefold() for m in members_of(name))
        for name in match.names
    )


def filter_matches(
    matches: Iterable[MatchHistory], *, player: str | None = None, since: datetime | None = None
) -> list[MatchHistory]:
    """The matches *player* took part in (a side's name or a member of a partnership, any case)
    with a game finished at or after *since* (an aware time); the games before *since* stay in
    the match (a caller showing games filters them itself).
    """
    chosen = []
    for match in matches:
        if player is not None and not _plays(match, player):
            continue
        if since is not None and not any(
            g.finished is not None and datetime.fromisoformat(g.finished) >= since
            for g in match.games
        ):
            continue
        chosen.append(match)
    return chosen


def cards_text(cards: Sequence[Card]) -> str:
    """The cards in the notation (``"5H 5D 5S JC"``)."""
    return format_cards(cards)
