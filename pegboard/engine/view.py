"""``GameView``: everything a display needs about a match, as one read-only value.

The OLED screens, the LED tracks and the simulator are built on this view only, never on
``GameState`` itself. ``render_view(state)`` makes it; ``to_dict()`` turns it into plain JSON
types (cards in the notation, enums by value), which is what ``pegboard game show --json`` prints.

Fields, briefly (each class documents its own):

- the match: ``variant``, ``target``, ``names`` (one per side), ``seat_names``, ``match``
  (format, game points, games won, results, winner);
- the board: ``sides`` (``SideView``: front peg ``score``, ``rear`` peg, track position
  ``front`` clamped to the game hole, whether it holds the deal, lurch status once a game ended);
- the moment: ``phase``, ``prompt`` (what is expected next, in words), ``game``, ``deal``,
  ``dealer``, ``starter``, ``turn`` (whose turn in the play), ``count``, ``series`` (cards of
  the current series), ``laid`` (every card of the play with its seat), ``up_for_counting`` in
  the show, the muggins ``claim``;
- the last scoring event with its items and calls (``last``), and the game's ``winner`` and
  ``game_points``; ``can_undo`` / ``can_redo``.

>>> from .rules import Rules
>>> from .game import GameState
>>> view = render_view(GameState.new(Rules.six_card()))
>>> view.phase, view.prompt
(<Phase.CUT: 'cut'>, 'cut for the first deal: one card per side (Red, Blue), e.g. cut 9H 3C')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from pegboard.frozen import frozen

from .cards import Card
from .events import Event, HandCounted, Pegged, Source
from .game import GameState, Phase, show_order
from .match import MatchFormat
from .scoring import Breakdown, ScoreItem, ScoreKind, show_calls

__all__ = [
    "GameView",
    "ItemView",
    "MatchView",
    "ResultView",
    "ScoreView",
    "SideView",
    "play_items",
    "render_pegs",
    "render_view",
]


@frozen
class SideView:
    """One score track.

    ``score`` is the front peg (the side's score, which may pass the target when it pegs out),
    ``front`` the same clamped to the game hole for drawing, ``rear`` the rear peg (the score
    before the last peg). ``lurch`` is filled in once the game is over ("none", "lurched",
    "double-skunked"), and None while it is played.
    """

    side: int
    name: str
    seats: tuple[int, ...]
    score: int
    front: int
    rear: int
    is_dealer: bool
    game_points: int
    games_won: int
    lurch: str | None


@frozen
class ItemView:
    """One scoring combination: its kind's name, its cards and its points."""

    kind: str
    cards: tuple[Card, ...]
    points: int


@frozen
class ScoreView:
    """The last peg: who, how many, from what, with its items and the words players say.

    Under muggins ``points`` is what was pegged, which can be less than the breakdown's total
    (a short claim) or the overlooked points for the caller (``source`` "muggins").
    """

    side: int
    name: str
    points: int
    score: int
    source: str
    seat: int | None
    items: tuple[ItemView, ...]
    calls: tuple[str, ...]
    claim: int | None
    reason: str


@frozen
class ResultView:
    """A finished game of the match."""

    game: int
    winner: int
    winner_name: str
    scores: tuple[int, ...]
    game_points: int | None
    lurches: tuple[str, ...]


@frozen
class MatchView:
    """The match: format, game points and games won per side, results, winner (or None)."""

    format: MatchFormat
    game_points: tuple[int, ...]
    games_won: tuple[int, ...]
    results: tuple[ResultView, ...]
    winner: int | None
    winner_name: str | None


@frozen
class GameView:
    """Everything a display needs about the match right now. Read-only; see the module doc."""

    variant: str
    target: int
    lurch_line: int | None
    """A loser below this hole is lurched (None: no lurch in this game)."""
    double_skunk_line: int | None
    """A loser below this hole is double skunked (None: no double skunk)."""
    names: tuple[str, ...]
    seat_names: tuple[str, ...]
    phase: Phase
    prompt: str
    game: int
    deal: int
    dealer: int | None
    dealer_name: str | None
    cut: tuple[Card, ...]
    starter: Card | None
    turn: int | None
    turn_name: str | None
    count: int
    series: tuple[Card, ...]
    laid: tuple[tuple[int, Card], ...]
    said_go: tuple[int, ...]
    up_for_counting: str | None
    """In the show: "crib" or the seat name of the hand to count next."""
    claim: int | None
    sides: tuple[SideView, ...]
    last: ScoreView | None
    winner: int | None
    winner_name: str | None
    game_points: int | None
    match: MatchView
    can_undo: bool
    can_redo: bool

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON types: cards as "5H", enums by value, tuples as lists."""
        result = _plain(self)
        assert isinstance(result, dict)
        return result


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Phase | MatchFormat):
        return value.value
    if hasattr(value, "__dataclass_fields__"):
        return {name: _plain(getattr(value, name)) for name in value.__dataclass_fields__}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _calls(breakdown: Breakdown, source: Source, reason: str, points: int) -> tuple[str, ...]:
    if source is Source.MANUAL:
        return (f"{reason} for {points}" if reason else f"peg {points}",)
    if source is Source.MUGGINS:
        return (f"muggins for {points}",)
    if source is Source.BONUS:
        return (f"three for last for {points}",)
    if source is Source.PLAY:
        items = play_items(breakdown.items)
        return tuple(_play_call(item.kind, item.points, len(item.cards)) for item in items)
    return tuple(show_calls(breakdown)) or ("nineteen",)


def play_items(items: Sequence[ScoreItem]) -> tuple[ScoreItem, ...]:
    """A play's items as they are called: its pairs (one item per pair of cards) as one item,
    so three of a kind is called "pair royal for 6", not three pairs for 2.

    >>> from .cards import parse_cards
    >>> fives = parse_cards("5H 5C 5D")
    >>> pairs = [ScoreItem(ScoreKind.PAIR, (a, b), 2) for a, b in zip(fives, fives[1:] + fives[:1])]
    >>> [(i.kind.value, i.points, len(i.cards)) for i in play_items(pairs)]
    [('pair', 6, 3)]
    """
    pairs = [item for item in items if item.kind is ScoreKind.PAIR]
    if len(pairs) < 2:
        return tuple(items)
    cards = tuple(dict.fromkeys(card for item in pairs for card in item.cards))
    joined = ScoreItem(ScoreKind.PAIR, cards, sum(item.points for item in pairs))
    first = items.index(pairs[0])
    rest = [item for item in items if item.kind is not ScoreKind.PAIR]
    return (*rest[:first], joined, *rest[first:])


def _play_call(kind: ScoreKind, points: int, cards: int) -> str:
    match kind:
        case ScoreKind.FIFTEEN:
            return "fifteen for 2"
        case ScoreKind.THIRTY_ONE:
            return "thirty-one for 2"
        case ScoreKind.PAIR:
            return {2: "a pair for 2", 6: "pair royal for 6", 12: "double pair royal for 12"}.get(
                points, f"pairs for {points}"
            )
        case ScoreKind.RUN:
            return f"a run of {cards} for {points}"
        case ScoreKind.GO:
            return "one for the go"
        case ScoreKind.LAST:
            return "one for last"
        case _:
            return f"{kind.value} for {points}"


def _score_view(peg: Pegged, names: Sequence[str]) -> ScoreView:
    return ScoreView(
        side=peg.side,
        name=names[peg.side],
        points=peg.points,
        score=peg.score,
        source=peg.source.value,
        seat=peg.seat,
        items=tuple(ItemView(i.kind.value, i.cards, i.points) for i in peg.breakdown.items),
        calls=_calls(peg.breakdown, peg.source, peg.reason, peg.points),
        claim=peg.claim,
        reason=peg.reason,
    )


def render_pegs(events: Iterable[Event], view: GameView) -> tuple[ScoreView, ...]:
    """Every peg among *events* as a ``ScoreView``, in order, named from *view* (the view after
    the events).

    A hand or crib counted that pegged nothing (a "nineteen", or a muggins claim of 0) has no
    ``Pegged`` event; it still comes out, with 0 points, so a screen can show its count. Its
    ``score`` is its side's score in *view* less what that side pegged later in *events*.

    >>> from .rules import Rules
    >>> from .commands import parse_command
    >>> from .game import apply
    >>> state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
    >>> for text in ("cut 9H 3C", "starter 7C", "next"):
    ...     state, _ = apply(state, parse_command(text, state.names))
    >>> state, events = apply(state, parse_command("show AH 3D 9S QC", state.names))
    >>> [(peg.name, peg.points, peg.calls) for peg in render_pegs(events, render_view(state))]
    [('Ann', 0, ('nineteen',))]
    """
    listed = list(events)
    pegs: list[ScoreView] = []
    for n, event in enumerate(listed):
        if isinstance(event, Pegged):
            pegs.append(_score_view(event, view.names))
            continue
        if not isinstance(event, HandCounted):
            continue
        source = Source.CRIB if event.seat is None else Source.HAND
        later = [e for e in listed[n + 1 :] if isinstance(e, Pegged)]
        if later and later[0].source is source:
            continue  # the hand pegged: its Pegged event follows and speaks for it
        side = view.sides[event.side]
        score = side.score - sum(e.points for e in later if e.side == event.side)
        counted = Pegged(event.side, 0, score, score, source, event.breakdown, event.seat)
        pegs.append(_score_view(replace(counted, claim=event.claim), view.names))
    return tuple(pegs)


def render_view(state: GameState) -> GameView:
    """The read-only view of *state* (see ``GameView``)."""
    rules, table, names = state.rules, state.table, state.names
    match = table.match
    # each works the whole match out: once each, not once a side
    match_points, games_won, match_winner = match.points, match.games_won, match.winner
    over = table.phase in (Phase.GAME_OVER, Phase.MATCH_OVER)
    result = table.finished[-1].result if over else None
    dealer_side = rules.side_of(table.dealer) if table.dealer is not None else None
    sides = tuple(
        SideView(
            side=side,
            name=names[side],
            seats=rules.teams[side],
            score=table.scores[side],
            front=min(table.scores[side], rules.target),
            rear=table.rears[side],
            is_dealer=side == dealer_side,
            game_points=match_points[side],
            games_won=games_won[side],
            lurch=result.lurches[side].value if result is not None else None,
        )
        for side in range(rules.sides)
    )
    last = _score_view(table.last, names) if table.last is not None else None
    play = table.play if table.phase is Phase.PLAY else None
    up: str | None = None
    if table.phase is Phase.SHOW and table.dealer is not None:
        seat = show_order(rules, table.dealer)[table.show_step]
        up = "crib" if seat is None else state.seat_name(seat)
    results = tuple(
        ResultView(
            game=record.game,
            winner=record.result.winner,
            winner_name=names[record.result.winner],
            scores=record.result.scores,
            game_points=record.result.game_points,
            lurches=tuple(lurch.value for lurch in record.result.lurches),
        )
        for record in table.finished
    )
    turn = play.turn if play is not None else None
    return GameView(
        variant=rules.variant.value,
        target=rules.target,
        lurch_line=rules.lurch_line,
        double_skunk_line=rules.double_skunk_line,
        names=names,
        seat_names=tuple(state.seat_name(seat) for seat in range(rules.players)),
        phase=table.phase,
        prompt=_prompt(state),
        game=table.game,
        deal=table.deal,
        dealer=table.dealer,
        dealer_name=state.seat_name(table.dealer) if table.dealer is not None else None,
        cut=table.cut,
        starter=table.starter,
        turn=turn,
        turn_name=state.seat_name(turn) if turn is not None else None,
        count=play.count if play is not None else 0,
        series=play.series if play is not None else (),
        laid=play.laid if play is not None else (),
        said_go=tuple(sorted(play.said_go)) if play is not None else (),
        up_for_counting=up,
        claim=table.claim,
        sides=sides,
        last=last,
        winner=result.winner if result is not None else None,
        winner_name=names[result.winner] if result is not None else None,
        game_points=result.game_points if result is not None else None,
        match=MatchView(
            format=match.format,
            game_points=match_points,
            games_won=games_won,
            results=results,
            winner=match_winner,
            winner_name=names[match_winner] if match_winner is not None else None,
        ),
        can_undo=bool(state.past),
        can_redo=bool(state.future),
    )


def _prompt(state: GameState) -> str:
    rules, table, names = state.rules, state.table, state.names
    dealer = state.seat_name(table.dealer) if table.dealer is not None else ""
    match table.phase:
        case Phase.CUT:
            again = "a tie: cut again" if table.cut else "cut for the first deal"
            return f"{again}: one card per side ({', '.join(names)}), e.g. cut 9H 3C"
        case Phase.STARTER:
            return (
                f"deal {table.deal}: {dealer} deals; enter the starter (starter 5H), "
                "or next to skip it"
            )
        case Phase.PLAY:
            if table.play is None or table.play.turn is None:
                return f"the play: peg by hand (peg {names[0]} 2); next ends the play"
            who = state.seat_name(table.play.turn)
            return (
                f"the play: {who} to lay, count {table.play.count} "
                f"(play 5H, go, peg {names[0]} 2); "
                "next ends the play"
            )
        case Phase.SHOW:
            assert table.dealer is not None
            seat = show_order(rules, table.dealer)[table.show_step]
            if seat is None:
                return f"the show: count {dealer}'s crib (crib 5H 5D 5S JC), or next to skip it"
            who = state.seat_name(seat)
            claim = "claim 8, " if rules.muggins and table.claim is None else ""
            return f"the show: count {who}'s hand ({claim}show, show 5H 5D 5S JC), or next to skip"
        case Phase.GAME_OVER:
            result = table.finished[-1].result
            worth = result.game_points
            points = "" if worth is None else f" ({worth} game point{'' if worth == 1 else 's'})"
            return (
                f"game over: {names[result.winner]} won{points}; next starts game {table.game + 1}"
            )
        case Phase.MATCH_OVER:
            winner = table.match.winner
            assert winner is not None
            return f"match over: {names[winner]} won the match"
