"""A whole match at a real table as a state machine: commands in, events out.

Theory of operation
-------------------
``apply(state, command)`` is the only way the game moves. It returns a new ``GameState`` and the
``Event`` values (``events.py``) that describe what happened (a card laid, a peg moved, a game
won), and keeps what each deal scored (``records.py``) for statistics and the journal; it never
mutates *state* and does no I/O. A command the game cannot accept raises a ``PegboardError``
subclass and, since nothing was changed, the caller's state is still the valid one.

The phases follow the table (``RULES.md``):

``CUT`` → ``STARTER`` → ``PLAY`` → ``SHOW`` → ``STARTER`` of the next deal → ... → ``GAME_OVER``
→ (``next``) the next game of the match → ... → ``MATCH_OVER``.

- ``CUT``: one card per side (``cut 9H 3C``). The lowest pip value deals first; a tie is cut
  again. A random cut is drawn by the caller (the CLI uses ``random.Random``) and entered as the
  cards it drew, so replaying the journal gives the same game.
- ``STARTER``: the deal has been made (nothing to enter: the dealer is known). Entering the start
  card pegs 2 for his heels when it is a jack, which can win the game. ``next`` skips it: the
  deal is then pegged by hand, and its play is not counted (nor its hands: no starter).
- ``PLAY``: counting mode takes each card as it is laid (``play JC``) and each ``go``; the engine
  checks whose turn it is and the count, and pegs fifteens, pairs, runs, 31, go and last. The play
  ends by itself when every card is laid (five-card: after one series), or at ``next``.
- ``SHOW``: hands are counted in order, from the dealer's left round to the dealer, then the crib
  (``show_order``). ``show`` with no cards counts a hand whose cards were all laid in the play;
  ``show 8`` (``crib 8``) takes the points the table counted itself, no starter needed.
  ``next`` skips the hand up for counting. After the crib the next deal starts, the deal moving
  one seat to the left.
- Manual pegging (``peg B 2``) is accepted in ``STARTER``, ``PLAY`` and ``SHOW``, so a table can
  mix both ways of scoring within one deal; ``deal`` ends a deal at once for tables that only peg.

The game ends the instant a side reaches the target, whatever pegged (``_peg`` is the one place
that checks): the rest of the deal is refused with ``GameOverError``. ``next`` then starts the
next game of the match (``match.py`` decides the first dealer), until the match is over.

Muggins (``rules.muggins``): before a hand or the crib is shown, its owner may ``claim N``. A
short claim pegs the claim, and the points overlooked go to the side of the first seat to the
owner's left that is not on the owner's side (the opponent in two-sided games; with three
separate players, the player on the owner's left, who counts next). A claim that is too high
pegs only the true count. Heels are never subject to muggins. With ``rules.muggins_in_play``
the same holds in the play: the player to lay may ``claim N`` before laying a card, and the
card's points are pegged the same way (a claim before a ``go`` lapses: a go pegs nothing for
the one who says it).

Undo and redo: ``GameState`` keeps the table before every accepted command (``past``) and the
tables taken back (``future``). ``Undo`` and ``Redo`` are commands like the others and are
journalled too, so the state, its undo stack included, is a fold of ``apply`` over the journal.
A new command after an undo drops what could have been redone. Undo reaches back across phases,
deals and games; taking back a winning peg reopens the game.

>>> from .rules import Rules
>>> from .commands import parse_command
>>> state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
>>> for text in ("cut 9H 3C", "starter JD", "peg Ann 4"):
...     state, events = apply(state, parse_command(text, state.names))
>>> state.phase, state.table.scores, state.table.rears, state.table.dealer
(<Phase.PLAY: 'play'>, (4, 2), (0, 0), 1)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import assert_never

from pegboard.errors import GameOverError, IllegalCommandError, InvalidHandError
from pegboard.frozen import frozen, replace

from .cards import Card, check_text, format_cards, parse_cards
from .commands import (
    MAX_PEG,
    Claim,
    Command,
    Crib,
    Cut,
    Go,
    InvalidCommandError,
    Next,
    NextDeal,
    Peg,
    Play,
    Redo,
    Show,
    Starter,
    Undo,
    format_command,
)
from .events import (
    CardPlayed,
    Claimed,
    CutMade,
    DealStarted,
    Event,
    GameStarted,
    GameWon,
    HandCounted,
    HandSkipped,
    MatchWon,
    Pegged,
    PlayEnded,
    Redone,
    SaidGo,
    Source,
    StarterTurned,
    Undone,
)
from .match import GameResult, Match, MatchFormat, next_seat_of_other_side
from .play import PlayScore, PlayState
from .records import DealRecord, GameRecord, ShownHand
from .rules import DEFAULT_NAMES, Rules, default_names, first_dealer
from .scoring import Breakdown, ScoreItem, ScoreKind, score_crib, score_hand, score_heels

__all__ = [
    "ACCEPTS",
    "DEFAULT_NAMES",
    "GameState",
    "Phase",
    "Table",
    "apply",
    "default_names",
    "replay",
    "show_order",
]


class Phase(enum.Enum):
    """Where the table is: what the game expects next."""

    CUT = "cut"
    STARTER = "starter"
    PLAY = "play"
    SHOW = "show"
    GAME_OVER = "game over"
    MATCH_OVER = "match over"


# --- the state -----------------------------------------------------------------------------


@frozen
class Table:
    """Everything on the table at one moment (what undo restores)."""

    phase: Phase
    match: Match
    game: int
    scores: tuple[int, ...]
    """Each side's front peg (its score)."""
    rears: tuple[int, ...]
    """Each side's rear peg (its score before its last peg)."""
    first_dealer: int | None = None
    dealer: int | None = None
    deal: int = 0
    cut: tuple[Card, ...] = ()
    starter: Card | None = None
    play: PlayState | None = None
    show_step: int = 0
    claim: int | None = None
    last: Pegged | None = None
    record: DealRecord | None = None
    deals: tuple[DealRecord, ...] = ()
    finished: tuple[GameRecord, ...] = ()


@frozen
class GameState:
    """A match in progress: the rules, the side names, the table and its undo/redo stacks.

    Make one with ``GameState.new`` and move it with ``apply``.
    """

    rules: Rules
    names: tuple[str, ...]
    table: Table
    past: tuple[tuple[Table, Command], ...] = ()
    """The table before each accepted command, and the command (newest last)."""
    future: tuple[tuple[Table, Command], ...] = ()
    """Steps taken back: the table after each, and its command (next to redo last)."""

    @classmethod
    def new(
        cls,
        rules: Rules,
        names: Sequence[str] | None = None,
        match_format: MatchFormat | None = None,
    ) -> GameState:
        """A match before the cut for the first deal.

        *names* names the sides (score tracks), one word each; defaults from ``default_names``.
        Names typed for a new match are also held to ``names.check_new_names``; this does not
        ask it, so a journal that already holds such a name still replays.

        Raises:
            ConfigError: best of three for three separate players.
            InvalidCommandError: the wrong number of names, a name twice, or a name with
                spaces (names are words in the command syntax), over 4096 bytes or not
                valid Unicode.
        """
        chosen = tuple(names) if names is not None else default_names(rules)
        for name in chosen:  # names are journalled and shown: bounded, valid Unicode
            check_text(name, "side name", InvalidCommandError)
        if len(chosen) != rules.sides:
            raise InvalidCommandError(
                f"need one name per side ({rules.sides}) for {rules.variant.value}, "
                f"got {','.join(chosen)!r}"
            )
        for name in chosen:
            if not name or any(ch.isspace() or ch == "," for ch in name):
                raise InvalidCommandError(f"a side name must be one word, got {name!r}")
        if len({name.lower() for name in chosen}) != len(chosen):
            raise InvalidCommandError(f"side names must differ, got {','.join(chosen)!r}")
        starts = tuple(rules.start_score(side) for side in range(rules.sides))
        table = Table(Phase.CUT, Match.start(rules, match_format), 1, starts, starts)
        return cls(rules, chosen, table)

    @property
    def phase(self) -> Phase:
        """The table's phase."""
        return self.table.phase

    @property
    def match(self) -> Match:
        """The match so far."""
        return self.table.match

    def seat_name(self, seat: int) -> str:
        """A seat's label: its side's name, numbered within a partnership ("A1", "A2")."""
        side = self.rules.side_of(seat)
        team = self.rules.teams[side]
        if len(team) == 1:
            return self.names[side]
        return f"{self.names[side]}{team.index(seat) + 1}"

    def command_text(self, command: Command) -> str:
        """The command in the text syntax, with this match's side names."""
        return format_command(command, self.names)


def show_order(rules: Rules, dealer: int) -> tuple[int | None, ...]:
    """The order of the show: each seat from the dealer's left, the dealer last, then the crib.

    >>> from .rules import Rules
    >>> show_order(Rules.three_handed(), 1)
    (2, 0, 1, None)
    """
    seats = tuple((dealer + step) % rules.players for step in range(1, rules.players + 1))
    return (*seats, None)


# --- the phase table -----------------------------------------------------------------------

ACCEPTS: dict[Phase, frozenset[type[Command]]] = {
    Phase.CUT: frozenset({Cut}),
    Phase.STARTER: frozenset({Starter, Peg, Next, NextDeal}),
    Phase.PLAY: frozenset({Play, Go, Claim, Peg, Next, NextDeal}),
    Phase.SHOW: frozenset({Show, Crib, Claim, Peg, Next, NextDeal}),
    Phase.GAME_OVER: frozenset({Next}),
    Phase.MATCH_OVER: frozenset(),
}
"""Which commands each phase accepts. ``Undo`` and ``Redo`` are accepted in every phase."""

_Step = Cut | Starter | Play | Go | Peg | Claim | Show | Crib | Next | NextDeal
"""A command that moves the table: every command but undo and redo, which move the stacks.

``apply`` takes undo and redo itself and hands the rest to ``_handle``, one handler each; mypy
checks that every command has a handler whose signature fits it."""


def apply(state: GameState, command: Command) -> tuple[GameState, list[Event]]:
    """The state after *command*, and the events it caused. Never mutates *state*.

    Raises:
        GameOverError: anything but ``next`` (or undo/redo) after a game was won; anything
            but undo/redo after the match was won.
        IllegalCommandError: a command the phase does not accept, muggins claims with muggins
            off, undo/redo with nothing to take back or put back.
        IllegalPlayError: a card or go the play does not allow.
        InvalidHandError: a hand or crib with the wrong cards.
        InvalidCommandError: a peg for a side that does not exist, or of impossible points.
    """
    if isinstance(command, Undo):
        if not state.past:
            raise IllegalCommandError("nothing to undo: this is the start of the match")
        before, done = state.past[-1]
        future = (*state.future, (state.table, done))
        return replace(state, table=before, past=state.past[:-1], future=future), [Undone(done)]
    if isinstance(command, Redo):
        if not state.future:
            raise IllegalCommandError("nothing to redo")
        after, done = state.future[-1]
        past = (*state.past, (state.table, done))
        return replace(state, table=after, past=past, future=state.future[:-1]), [Redone(done)]
    table = state.table
    if type(command) not in ACCEPTS[table.phase]:
        raise _refusal(state, command)
    events: list[Event] = []
    new = _handle(state, table, command, events)
    past = (*state.past, (table, command))
    return replace(state, table=new, past=past, future=()), events


def replay(state: GameState, commands: Iterable[Command]) -> GameState:
    """Fold ``apply`` over *commands* from *state* (how the journal is read back).

    Raises:
        PegboardError: a command the game refuses (the journal does not match the game).
    """
    for command in commands:
        state, _ = apply(state, command)
    return state


def _refusal(state: GameState, command: Command) -> IllegalCommandError:
    table = state.table
    text = state.command_text(command)
    if table.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
        result = table.finished[-1].result
        winner = state.names[result.winner]
        scores = " to ".join(str(s) for s in sorted(result.scores, reverse=True))
        if table.phase is Phase.MATCH_OVER:
            return GameOverError(
                f"cannot accept {text!r}: the match is over ({state.names[_match_winner(table)]} "
                "won it); start a new match, or 'undo'"
            )
        return GameOverError(
            f"cannot accept {text!r}: the game is over ({winner} won {scores}); "
            f"'next' starts game {table.game + 1}, or 'undo'"
        )
    accepted = sorted(state.command_text(_EXAMPLES[kind]) for kind in ACCEPTS[table.phase])
    return IllegalCommandError(
        f"cannot accept {text!r} in phase {table.phase.name} "
        f"(expected {', '.join(accepted)}, undo or redo)"
    )


def _match_winner(table: Table) -> int:
    winner = table.match.winner
    assert winner is not None, "the match is over without a winner"
    return winner


_EXAMPLES: dict[type[Command], Command] = {
    Cut: Cut(()),
    Starter: Starter(Card.parse("5H")),
    Play: Play(Card.parse("5H")),
    Go: Go(),
    Peg: Peg(0, 2),
    Claim: Claim(8),
    Show: Show(),
    Crib: Crib(),
    Next: Next(),
    NextDeal: NextDeal(),
}


# --- the one place that moves pegs -----------------------------------------------------------


def _is_over(table: Table) -> bool:
    return table.phase in (Phase.GAME_OVER, Phase.MATCH_OVER)


def _peg(
    state: GameState,
    table: Table,
    events: list[Event],
    side: int,
    points: int,
    source: Source,
    breakdown: Breakdown,
    *,
    seat: int | None = None,
    claim: int | None = None,
    reason: str = "",
) -> Table:
    """Move *side*'s pegs and, if that reached the target, end the game there and then."""
    if points <= 0:
        return table
    rules = state.rules
    scores, rears = list(table.scores), list(table.rears)
    rears[side] = scores[side]
    scores[side] += points
    pegged = Pegged(side, points, scores[side], rears[side], source, breakdown, seat, claim, reason)
    events.append(pegged)
    record = table.record
    if record is not None:
        record = _add_to_record(rules, record, table, side, points, source)
    table = replace(table, scores=tuple(scores), rears=tuple(rears), last=pegged, record=record)
    if scores[side] < rules.target:
        return table
    # the game ends the instant a side reaches the target, whatever pegged
    assert table.first_dealer is not None, "a game is won before it started"
    result = GameResult.of(rules, table.scores, first_dealer=table.first_dealer)
    deals = (*table.deals, record) if record is not None else table.deals
    finished = (*table.finished, GameRecord(table.game, result, deals))
    match = table.match.record(result)
    events.append(GameWon(table.game, result))
    phase = Phase.GAME_OVER
    if match.winner is not None:
        events.append(MatchWon(match.winner, match))
        phase = Phase.MATCH_OVER
    return replace(
        table, phase=phase, match=match, finished=finished, deals=deals, record=None, claim=None
    )


def _add_to_record(
    rules: Rules, record: DealRecord, table: Table, side: int, points: int, source: Source
) -> DealRecord:
    def plus(values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(v + points if i == side else v for i, v in enumerate(values))

    if table.phase is Phase.PLAY and source in (Source.PLAY, Source.MUGGINS):
        record = replace(record, played=plus(record.played))  # the cards', not the hand pegs
    match source:
        case Source.PLAY:
            return replace(record, pegging=plus(record.pegging))
        case Source.HAND:
            return replace(record, hands=plus(record.hands))
        case Source.CRIB:
            return replace(record, crib=plus(record.crib))
        case Source.HEELS:
            return replace(record, heels=plus(record.heels))
        case Source.MANUAL if table.phase is Phase.PLAY:
            return replace(record, pegging=plus(record.pegging))
        case Source.MANUAL if table.phase is Phase.SHOW:
            # a hand peg during the show; the crib's while the crib is up (dealer's side)
            crib_up = table.show_step == rules.players  # the crib comes after every hand
            if crib_up and side == rules.side_of(record.dealer):
                return replace(record, crib=plus(record.crib))
            return replace(record, hands=plus(record.hands))
        case _:
            return replace(record, other=plus(record.other))


# --- starting games and deals --------------------------------------------------------------


def _start_game(state: GameState, table: Table, dealer: int, events: list[Event]) -> Table:
    rules = state.rules
    starts = tuple(rules.start_score(side) for side in range(rules.sides))
    events.append(GameStarted(table.game, dealer))
    events.append(DealStarted(1, dealer))
    table = replace(
        table,
        phase=Phase.STARTER,
        scores=starts,
        rears=starts,
        first_dealer=dealer,
        dealer=dealer,
        deal=1,
        starter=None,
        play=None,
        show_step=0,
        claim=None,
        last=None,
        record=DealRecord.empty(1, dealer, rules.sides),
        deals=(),
    )
    if rules.pone_bonus:
        # five-card cribbage: the first non-dealer pegs three for last at the start of the game
        pone = next_seat_of_other_side(rules, dealer)
        bonus = Breakdown((ScoreItem(ScoreKind.PONE_BONUS, (), rules.pone_bonus),))
        table = _peg(
            state, table, events, rules.side_of(pone), bonus.total, Source.BONUS, bonus, seat=pone
        )
    return table


def _next_deal(state: GameState, table: Table, events: list[Event]) -> Table:
    rules = state.rules
    assert table.dealer is not None and table.record is not None, "no deal in progress"
    dealer = (table.dealer + 1) % rules.players  # the deal passes to the left
    deal = table.deal + 1
    events.append(DealStarted(deal, dealer))
    return replace(
        table,
        phase=Phase.STARTER,
        dealer=dealer,
        deal=deal,
        starter=None,
        play=None,
        show_step=0,
        claim=None,
        record=DealRecord.empty(deal, dealer, rules.sides),
        deals=(*table.deals, table.record),
    )


def _enter_play(state: GameState, table: Table) -> Table:
    assert table.dealer is not None
    play = None  # no starter: the deal is pegged by hand, and its play is not counted
    if table.starter is not None:
        play = PlayState.start(state.rules, table.dealer, starter=table.starter)
    return replace(table, phase=Phase.PLAY, play=play)


def _end_play(table: Table, events: list[Event]) -> Table:
    events.append(PlayEnded())
    return replace(table, phase=Phase.SHOW, show_step=0, claim=None)


def _advance_show(state: GameState, table: Table, events: list[Event]) -> Table:
    step = table.show_step + 1
    if step > state.rules.players:  # the crib was the last thing to count
        return _next_deal(state, table, events)
    return replace(table, show_step=step, claim=None)


def _up_for_counting(state: GameState, table: Table) -> int | None:
    assert table.dealer is not None
    return show_order(state.rules, table.dealer)[table.show_step]


def _hand_name(state: GameState, seat: int | None) -> str:
    return "the crib" if seat is None else f"{state.seat_name(seat)}'s hand"


# --- handlers, one per command ---------------------------------------------------------------


def _on_cut(state: GameState, table: Table, command: Cut, events: list[Event]) -> Table:
    rules = state.rules
    cards = command.cards
    if len(cards) != rules.sides:
        raise InvalidHandError(
            f"wrong number of cards for a cut: {format_cards(cards)!r} has {len(cards)}, "
            f"expected one per side ({', '.join(state.names)})"
        )
    parse_cards([str(c) for c in cards], what="cut")  # rejects a card given twice
    side = first_dealer(cards)
    dealer = None if side is None else rules.teams[side][0]
    events.append(CutMade(cards, dealer))
    table = replace(table, cut=cards)
    if dealer is None:  # a tie for lowest: cut again
        return table
    return _start_game(state, table, dealer, events)


def _on_starter(state: GameState, table: Table, command: Starter, events: list[Event]) -> Table:
    dealer = table.dealer
    assert dealer is not None and table.record is not None
    card = command.card
    table = replace(table, starter=card, record=replace(table.record, starter=card))
    events.append(StarterTurned(card))
    heels = score_heels(card)
    table = _peg(
        state,
        table,
        events,
        state.rules.side_of(dealer),
        heels.total,
        Source.HEELS,
        heels,
        seat=dealer,
    )
    if _is_over(table):  # his heels can win the game
        return table
    return _enter_play(state, table)


def _counting_play(table: Table) -> PlayState:
    if table.play is None:
        raise IllegalCommandError(
            "cannot count the play: no starter was entered this deal, so it is pegged by hand "
            "(e.g. 'peg <side> 2'; 'next' ends the play)"
        )
    return table.play


def _after_play(
    state: GameState,
    table: Table,
    play: PlayState,
    scores: Iterable[PlayScore],
    events: list[Event],
    *,
    claimant: int | None = None,
) -> Table:
    claim = table.claim  # muggins in the play: the claim of the seat that laid this card
    table = replace(table, play=play, claim=None)
    for score in scores:
        claimed = claim if score.seat == claimant else None
        table = _peg_claimed(
            state, table, events, score.seat, score.points, Source.PLAY, score.breakdown, claimed
        )
        if _is_over(table):
            return table
    if play.is_over:
        return _end_play(table, events)
    return table


def _on_play(state: GameState, table: Table, command: Play, events: list[Event]) -> Table:
    play = _counting_play(table)
    seat = play.turn
    assert seat is not None, "the play is over but the phase is PLAY"
    count = play.count + command.card.pips
    new, scores = play.play(command.card)
    events.append(CardPlayed(seat, command.card, count))
    return _after_play(state, table, new, scores, events, claimant=seat)


def _on_go(state: GameState, table: Table, command: Go, events: list[Event]) -> Table:
    play = _counting_play(table)
    seat = play.turn
    assert seat is not None, "the play is over but the phase is PLAY"
    new, scores = play.go()
    events.append(SaidGo(seat))
    return _after_play(state, table, new, scores, events)


def _on_peg(state: GameState, table: Table, command: Peg, events: list[Event]) -> Table:
    if not 0 <= command.side < state.rules.sides:
        raise InvalidCommandError(
            f"no side {command.side!r} (expected 0..{state.rules.sides - 1}: "
            f"{', '.join(state.names)})"
        )
    if not 1 <= command.points <= MAX_PEG:
        raise InvalidCommandError(f"points must be between 1 and {MAX_PEG}, got {command.points!r}")
    manual = Breakdown((ScoreItem(ScoreKind.MANUAL, (), command.points),))
    return _peg(
        state,
        table,
        events,
        command.side,
        command.points,
        Source.MANUAL,
        manual,
        reason=command.reason,
    )


def _on_claim(state: GameState, table: Table, command: Claim, events: list[Event]) -> Table:
    if table.phase is Phase.PLAY:
        if not state.rules.muggins_in_play:
            raise IllegalCommandError(
                f"cannot claim {command.points} in the play: muggins in the play is off for "
                "this match"
            )
        up = _counting_play(table).turn
        what = f"{state.seat_name(up)}'s next card" if up is not None else "the play"
    else:
        if not state.rules.muggins:
            raise IllegalCommandError(
                f"cannot claim {command.points}: muggins is off for this match (start one with "
                "--muggins)"
            )
        up = _up_for_counting(state, table)
        what = _hand_name(state, up)
    if table.claim is not None:
        raise IllegalCommandError(
            f"cannot claim {command.points}: {what} was already claimed at {table.claim}"
        )
    if not 0 <= command.points <= 29:
        raise InvalidCommandError(
            f"a claim must be between 0 and 29 (the best hand), got {command.points!r}"
        )
    events.append(Claimed(up, command.points))
    return replace(table, claim=command.points)


def _on_show(state: GameState, table: Table, command: Show | Crib, events: list[Event]) -> Table:
    rules = state.rules
    assert table.dealer is not None and table.record is not None
    up = _up_for_counting(state, table)
    order = show_order(rules, table.dealer)
    if isinstance(command, Crib) and up is not None:
        names = ", ".join(_hand_name(state, seat) for seat in order)
        raise IllegalCommandError(
            f"cannot count the crib yet: {_hand_name(state, up)} comes first (order: {names})"
        )
    if command.points is not None:
        return _show_points(state, table, up, command, events)
    starter = table.starter
    if starter is None:
        raise IllegalCommandError(
            f"cannot count {_hand_name(state, up)}: no starter was entered this deal "
            f"(give its points instead, e.g. '{'crib' if up is None else 'show'} 8')"
        )
    cards = _cards_to_count(state, table, up, command.cards)
    owner = table.dealer if up is None else up
    side = rules.side_of(owner)
    if up is None:
        breakdown = score_crib(cards, starter, rules=rules)  # the crib flush depends on the rules
    else:
        breakdown = score_hand(cards, starter, rules=rules)
    total, claim = breakdown.total, table.claim
    events.append(HandCounted(up, side, cards, breakdown, claim))
    shown = ShownHand(up, side, cards, total, claim)
    table = replace(table, record=replace(table.record, shown=(*table.record.shown, shown)))
    source = Source.CRIB if up is None else Source.HAND
    table = _peg_claimed(state, table, events, owner, total, source, breakdown, claim)
    if _is_over(table):
        return table
    return _advance_show(state, table, events)


def _show_points(
    state: GameState, table: Table, up: int | None, command: Show | Crib, events: list[Event]
) -> Table:
    """The hand (or crib) up, counted by the table: its owner's side pegs the points given."""
    name, points = _hand_name(state, up), command.points
    assert points is not None and table.dealer is not None and table.record is not None
    if command.cards or not 0 <= points <= 29:
        raise InvalidCommandError(
            f"cannot count {name} by points {points!r}: a hand is worth 0 to 29, given alone"
        )
    if table.claim is not None:  # muggins weighs a claim against the true count
        raise IllegalCommandError(
            f"cannot count {name} by its points after a claim of {table.claim}: enter its "
            "cards, or undo the claim"
        )
    owner = table.dealer if up is None else up
    side = state.rules.side_of(owner)
    told = Breakdown((ScoreItem(ScoreKind.MANUAL, (), points),) if points else ())
    events.append(HandCounted(up, side, (), told, None))
    hand = ShownHand(up, side, (), points)  # by points: the cards are not known
    table = replace(table, record=replace(table.record, told=(*table.record.told, hand)))
    source = Source.CRIB if up is None else Source.HAND
    table = _peg(state, table, events, side, points, source, told, seat=owner)
    if _is_over(table):  # the game ends the instant a side reaches the target
        return table
    return _advance_show(state, table, events)


def _peg_claimed(
    state: GameState,
    table: Table,
    events: list[Event],
    owner: int,
    total: int,
    source: Source,
    breakdown: Breakdown,
    claim: int | None,
) -> Table:
    """Peg *owner*'s *total* under muggins: the owner pegs what was claimed, never more than
    the true count, and what a short claim overlooked goes to the next seat on another side."""
    rules = state.rules
    owner_points = total if claim is None else min(claim, total)
    table = _peg(
        state,
        table,
        events,
        rules.side_of(owner),
        owner_points,
        source,
        breakdown,
        seat=owner,
        claim=claim,
    )
    if _is_over(table) or claim is None or claim >= total:
        return table
    taker = next_seat_of_other_side(rules, owner)
    overlooked = Breakdown((ScoreItem(ScoreKind.MUGGINS, (), total - claim),))
    return _peg(
        state,
        table,
        events,
        rules.side_of(taker),
        overlooked.total,
        Source.MUGGINS,
        overlooked,
        seat=taker,
        claim=claim,
    )


def _cards_to_count(
    state: GameState, table: Table, up: int | None, given: tuple[Card, ...]
) -> tuple[Card, ...]:
    """The cards of the hand or crib up for counting, checked against what the deal has shown."""
    rules = state.rules
    assert table.record is not None
    name = _hand_name(state, up)
    laid = table.play.played_by(up) if table.play is not None and up is not None else ()
    size = rules.crib_size if up is None else rules.hand_size
    example = (
        "crib 5H 5D 5S JC" if up is None else "show " + " ".join(("5H", "5D", "5S", "JC")[:size])
    )
    if not given:
        if len(laid) != size:
            what = (
                "its cards are never laid in the play"
                if up is None
                else f"{len(laid)} of its {size} cards were laid in the play"
            )
            raise InvalidHandError(
                f"cannot count {name} without its cards: {what} (enter them, e.g. {example!r})"
            )
        return laid
    shown = format_cards(given)
    if len(given) != size:
        raise InvalidHandError(
            f"wrong number of cards for {name}: {shown!r} has {len(given)}, expected {size}"
        )
    parse_cards([str(c) for c in given], what="hand")  # rejects a card given twice
    for card in laid:
        if card not in given:
            raise InvalidHandError(f"{name} laid {card} in the play, but {shown!r} lacks it")
    elsewhere: dict[Card, str] = {}
    if table.play is not None:
        for seat in range(rules.players):
            if seat != up:
                for card in table.play.played_by(seat):
                    elsewhere[card] = f"{state.seat_name(seat)}'s hand (laid in the play)"
    for hand in table.record.shown:
        for card in hand.cards:
            elsewhere[card] = _hand_name(state, hand.seat)
    for card in given:
        if card == table.starter:
            raise InvalidHandError(f"card {card} in {shown!r} is the starter")
        if card in elsewhere:
            raise InvalidHandError(f"card {card} in {shown!r} is already in {elsewhere[card]}")
    return given


def _on_next(state: GameState, table: Table, command: Next, events: list[Event]) -> Table:
    match table.phase:
        case Phase.STARTER:
            return _enter_play(state, table)
        case Phase.PLAY:
            return _end_play(table, events)
        case Phase.SHOW:
            events.append(HandSkipped(_up_for_counting(state, table)))
            return _advance_show(state, table, events)
        case _:
            return _next_game(state, table, events)


def _next_game(state: GameState, table: Table, events: list[Event]) -> Table:
    rules = state.rules
    starts = tuple(rules.start_score(side) for side in range(rules.sides))
    table = replace(
        table,
        phase=Phase.CUT,
        game=table.game + 1,
        scores=starts,
        rears=starts,
        first_dealer=None,
        dealer=None,
        deal=0,
        cut=(),
        starter=None,
        play=None,
        show_step=0,
        claim=None,
        last=None,
        record=None,
        deals=(),
    )
    dealer = table.match.next_first_dealer(rules)
    if dealer is None:  # game 3 (and later): a fresh cut
        return table
    return _start_game(state, table, dealer, events)


def _on_next_deal(state: GameState, table: Table, command: NextDeal, events: list[Event]) -> Table:
    return _next_deal(state, table, events)


def _handle(state: GameState, table: Table, command: _Step, events: list[Event]) -> Table:
    """The handler table: each command to its handler (``apply`` has checked the phase)."""
    match command:
        case Cut():
            return _on_cut(state, table, command, events)
        case Starter():
            return _on_starter(state, table, command, events)
        case Play():
            return _on_play(state, table, command, events)
        case Go():
            return _on_go(state, table, command, events)
        case Peg():
            return _on_peg(state, table, command, events)
        case Claim():
            return _on_claim(state, table, command, events)
        case Show() | Crib():
            return _on_show(state, table, command, events)
        case Next():
            return _on_next(state, table, command, events)
        case NextDeal():
            return _on_next_deal(state, table, command, events)
        case _:
            assert_never(command)
