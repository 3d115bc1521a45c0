"""The play (pegging): the running count, go, last, and the points for each card laid.

Theory of operation
-------------------
Two layers, both pure.

``score_play(series)`` is the rule for one card: given the cards laid since the count was last
reset, in order, it scores the *last* one (fifteen, thirty-one, pairs, a run). It looks only at
the series it is given, so pairs and runs can never reach back across a reset, and a go (which
lays no card) can never break a combination.

``PlayState`` is the whole play of one deal as a value. Every action (``play(card)`` or
``go()``) returns a new state and the points the action pegged; a rejected action raises
``IllegalPlayError`` and, since nothing is ever mutated, the old state is still the valid one.
The state keeps every card laid with its seat and the index where each series began; the count,
the current series and the cards each seat has left are derived from those.

How a series runs (``RULES.md``, "The play"):

* The seat on the dealer's left leads; the turn passes left. A seat with no cards left, or one
  that said go in this series, is passed over.
* When nobody is left to act (every seat with cards has said go, or has no cards), the seat that
  laid the last card pegs 1: ``GO`` if the play goes on, ``LAST`` if that was the end of the
  play. A card that makes exactly 31 pegs 2 (``THIRTY_ONE``, part of the card's own points) and
  ends the series at once, with no point for go or last on top.
* The count then starts again from 0, and the seat to the left of the one who laid the last card
  leads (passing over seats with no cards left).
* Five-card cribbage (``rules.single_series``) stops after the first series; unplayed cards stay
  in hand for the show.

Known and unknown hands: a device at a real table learns each card only as it is laid, so by
default any card not yet seen may be laid (if it fits) and a go is taken on trust, as long as it
is possible at all. Given the hands (a simulation, a test, or a table that entered them), a seat
may lay only a card it holds and may say go only when none of its cards fits. Even then a seat
that cannot play must say ``go()`` itself: the state never says go on a seat's behalf, so the
sequence of actions is the same whether or not the hands are known.

>>> from .cards import parse_cards
>>> score_play(parse_cards("4H 6D 5C")).total  # 5 on 4-6: fifteen 2 and a run of 3
5
>>> hands = [parse_cards("KS KD 2C 2D"), parse_cards("9H 8H 7H 6H")]
>>> state = PlayState.start(Rules.six_card(), dealer=1, hands=hands)
>>> state.turn, state.legal_cards()
(0, (Card.parse('KS'), Card.parse('KD'), Card.parse('2C'), Card.parse('2D')))
>>> state, scores = state.play(Card.parse("KS"))
>>> state, scores = state.play(Card.parse("6H"))
>>> state.count, state.turn, scores
(16, 0, ())
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from pegboard.errors import IllegalPlayError, InvalidHandError

from .cards import DECK, Card, format_cards
from .rules import Rules
from .scoring import Breakdown, ScoreItem, ScoreKind

__all__ = ["PlayScore", "PlayState", "score_play"]

MAX_COUNT = 31
"""The count may never go past this; reaching it exactly pegs 2."""

_FIFTEEN = 15


def _over_31(card: Card, count: int) -> str:
    return (
        f"cannot play {card}: count is {count} and {card} would make {count + card.pips} "
        f"(over {MAX_COUNT})"
    )


def score_play(series: Sequence[Card], *, base_count: int = 0) -> Breakdown:
    """The points for the last card of *series*, the cards laid since the count was reset.

    *base_count* is the count the series started from: 0, except on the first series under
    the optional rule "starter counts in play", where it is the starter's pips. It counts
    toward fifteen, thirty-one and the limit of 31, never toward pairs or runs.

    Items: ``FIFTEEN`` (2) when the count reaches 15, ``THIRTY_ONE`` (2) when it reaches 31,
    one ``PAIR`` (2) for every pair among the trailing cards of the last card's rank (a pair
    royal is 3 items, a double pair royal 6), and one ``RUN`` worth k for the largest k >= 3
    such that the last k cards are k distinct consecutive ranks, in any order.

    Raises:
        IllegalPlayError: the count would go over 31 at some card of the series.
        InvalidHandError: the series is empty, or holds a card twice.
        ValueError: *base_count* is negative.

    >>> from .cards import parse_cards
    >>> [score_play(parse_cards("4S 2D 3C 5H 6S")[:n]).total for n in range(1, 6)]
    [0, 0, 3, 4, 5]
    >>> [item.kind.value for item in score_play(parse_cards("7H 7D 7S")).items]
    ['pair', 'pair', 'pair']
    >>> score_play(parse_cards("KS QD 5H 9S"))
    Traceback (most recent call last):
    ...
    pegboard.errors.IllegalPlayError: cannot play 9S: count is 25 and 9S would make 34 (over 31)
    """
    cards = tuple(series)
    if not cards:
        raise InvalidHandError("no card to score: the series is empty (expected 1 card or more)")
    if base_count < 0:
        raise ValueError(f"base_count must not be negative, got {base_count!r}")
    seen: set[Card] = set()
    count = base_count
    for card in cards:
        if card in seen:
            raise InvalidHandError(f"duplicate card {card} in series {format_cards(cards)!r}")
        seen.add(card)
        if count + card.pips > MAX_COUNT:
            raise IllegalPlayError(_over_31(card, count))
        count += card.pips
    return _score_last(cards, count)


def _score_last(cards: tuple[Card, ...], count: int) -> Breakdown:
    """Score the last of *cards* (a valid, non-empty series) that brought the count to *count*."""
    items: list[ScoreItem] = []
    if count == _FIFTEEN:
        items.append(ScoreItem(ScoreKind.FIFTEEN, cards, 2))
    elif count == MAX_COUNT:
        items.append(ScoreItem(ScoreKind.THIRTY_ONE, cards, 2))
    # pairs: the trailing cards of one rank, each two of them a pair (pair royal = 3 pairs)
    last = cards[-1]
    same = 1
    while same < len(cards) and cards[-same - 1].rank is last.rank:
        same += 1
    tail = cards[len(cards) - same :]
    for i, first in enumerate(tail):
        for second in tail[i + 1 :]:
            items.append(ScoreItem(ScoreKind.PAIR, (first, second), 2))
    # runs: only the longest run ending with this card scores, never the shorter ones inside it
    if same == 1:
        for k in range(min(len(cards), 13), 2, -1):
            run = cards[len(cards) - k :]
            ranks = {card.rank.value for card in run}
            if len(ranks) == k and max(ranks) - min(ranks) == k - 1:
                items.append(ScoreItem(ScoreKind.RUN, run, k))
                break
    return Breakdown(tuple(items))


@dataclass(frozen=True, slots=True)
class PlayScore:
    """Points pegged by one seat for one action in the play (the game maps seats to sides)."""

    seat: int
    breakdown: Breakdown

    @property
    def points(self) -> int:
        """The total of the breakdown."""
        return self.breakdown.total


@dataclass(frozen=True, slots=True, repr=False)
class PlayState:
    """The play of one deal for 2, 3 or 4 players, as an immutable value.

    Make one with ``PlayState.start``; then ``play(card)`` and ``go()`` return new states.
    The fields are the whole state; everything else (count, series, cards left) is derived.

    With known hands a seat that cannot play must still call ``go()``: the state never says go
    for a seat, so the same actions drive a table with known and with unknown hands.
    """

    rules: Rules
    dealer: int
    starter: Card | None
    hands: tuple[tuple[Card, ...], ...] | None
    """The cards each seat still holds, or None when the hands are not known."""
    excluded: frozenset[Card]
    """Cards known to be out of the play (e.g. the discards seen by this device)."""
    laid: tuple[tuple[int, Card], ...]
    """Every card laid this deal with the seat that laid it, in order."""
    series_starts: tuple[int, ...]
    """For each series so far, the index in ``laid`` of its first card."""
    said_go: frozenset[int]
    """The seats that said go in the current series."""
    turn: int | None
    """The seat to act, or None when the play is over."""

    @classmethod
    def start(
        cls,
        rules: Rules,
        dealer: int,
        *,
        starter: Card | None = None,
        hands: Sequence[Sequence[Card]] | None = None,
        excluded: Iterable[Card] = (),
    ) -> PlayState:
        """The play before the first card: the seat on the dealer's left to lead.

        *hands*, when given, holds every seat's hand (``rules.hand_size`` cards each, in seat
        order). *excluded* lists cards that cannot be laid this deal (for instance the
        discards this device has seen). *starter* is needed when ``rules.starter_counts_in_play``.

        Raises:
            InvalidHandError: wrong number of hands or of cards in one, a card in two hands,
                or a hand holding the starter or an excluded card.
            ValueError: no such dealer seat, or the rules need the starter and none was given.
        """
        players = rules.players
        if not 0 <= dealer < players:
            raise ValueError(f"no seat {dealer!r} to deal in a {players}-player game")
        if rules.starter_counts_in_play and starter is None:
            raise ValueError("the starter counts in play under these rules: pass starter=")
        out = frozenset(excluded)
        known: tuple[tuple[Card, ...], ...] | None = None
        if hands is not None:
            known = tuple(tuple(hand) for hand in hands)
            _check_hands(rules, known, starter, out)
        return cls(
            rules=rules,
            dealer=dealer,
            starter=starter,
            hands=known,
            excluded=out,
            laid=(),
            series_starts=(0,),
            said_go=frozenset(),
            turn=(dealer + 1) % players,
        )

    # --- derived values --------------------------------------------------------------------

    @property
    def series_number(self) -> int:
        """1 for the first series of the play, 2 for the second, ..."""
        return len(self.series_starts)

    @property
    def series(self) -> tuple[Card, ...]:
        """The cards laid since the count was last reset, in order."""
        return tuple(card for _, card in self.laid[self.series_starts[-1] :])

    @property
    def base_count(self) -> int:
        """The count the current series started from (the starter's pips, or 0)."""
        first = len(self.series_starts) == 1
        if first and self.rules.starter_counts_in_play and self.starter is not None:
            return self.starter.pips
        return 0

    @property
    def count(self) -> int:
        """The running count of the current series."""
        return self.base_count + sum(card.pips for card in self.series)

    @property
    def cards_left(self) -> tuple[int, ...]:
        """How many cards each seat has not laid yet."""
        left = [self.rules.hand_size] * self.rules.players
        for seat, _ in self.laid:
            left[seat] -= 1
        return tuple(left)

    @property
    def is_over(self) -> bool:
        """Whether the play is over (all cards laid, or the five-card series ended)."""
        return self.turn is None

    def played_by(self, seat: int) -> tuple[Card, ...]:
        """The cards *seat* laid this deal, in order.

        Raises:
            ValueError: no such seat.
        """
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"no seat {seat!r} in a {self.rules.players}-player game")
        return tuple(card for who, card in self.laid if who == seat)

    def legal_cards(self) -> tuple[Card, ...] | None:
        """The cards the seat to act may lay now; None when the hands are not known."""
        if self.hands is None:
            return None
        if self.turn is None:
            return ()
        room = MAX_COUNT - self.count
        return tuple(card for card in self.hands[self.turn] if card.pips <= room)

    def can_go(self) -> bool:
        """Whether the seat to act may say go now.

        With known hands: none of its cards fits. With unknown hands: it could be true, that
        is, there are at least as many unseen cards that would not fit as the seat has left.
        """
        if self.turn is None:
            return False
        legal = self.legal_cards()
        if legal is not None:
            return not legal
        return self._unseen_misfits() >= self.cards_left[self.turn]

    def _unseen_misfits(self) -> int:
        room = MAX_COUNT - self.count
        seen = self._seen()
        return sum(1 for card in DECK if card.pips > room and card not in seen)

    def _seen(self) -> frozenset[Card]:
        seen = set(self.excluded)
        seen.update(card for _, card in self.laid)
        if self.starter is not None:
            seen.add(self.starter)
        return frozenset(seen)

    # --- actions ---------------------------------------------------------------------------

    def play(self, card: Card) -> tuple[PlayState, tuple[PlayScore, ...]]:
        """Lay *card* for the seat to act; the new state and what it pegged.

        The scores hold the card's own points and, when the card closed a series, its 1 for
        go or last, as one ``PlayScore`` for the seat (no score when nothing pegged).

        Raises:
            IllegalPlayError: the play is over, the card was laid already, is the starter or
                excluded, is not in the seat's known hand, or would take the count over 31.
        """
        seat = self.turn
        if seat is None:
            raise IllegalPlayError(f"cannot play {card}: the play is over")
        self._check_card(seat, card)
        hands = self.hands
        if hands is not None:
            hands = tuple(
                tuple(c for c in hand if c != card) if who == seat else hand
                for who, hand in enumerate(hands)
            )
        series = (*self.series, card)
        count = self.count + card.pips
        points = _score_last(series, count)
        moved = replace(self, hands=hands, laid=(*self.laid, (seat, card)))
        if count == MAX_COUNT:
            # 31 ends the series at once; its 2 points are already among the card's points
            return moved._end_series(seat, points, made_31=True)
        nxt = moved._next_to_act(seat)
        if nxt is None:
            return moved._end_series(seat, points, made_31=False)
        return replace(moved, turn=nxt), _scores(seat, points)

    def go(self) -> tuple[PlayState, tuple[PlayScore, ...]]:
        """The seat to act says go; the new state and what it pegged.

        If nobody is left to act, the series ends and the seat that laid the last card pegs 1
        (for go, or for last when the play is over with it).

        Raises:
            IllegalPlayError: the play is over, or the seat cannot say go (a held card fits, or
                with unknown hands a go is impossible).
        """
        seat = self.turn
        if seat is None:
            raise IllegalPlayError("cannot say go: the play is over")
        self._check_go(seat)
        moved = replace(self, said_go=self.said_go | {seat})
        nxt = moved._next_to_act(seat)
        if nxt is not None:
            return replace(moved, turn=nxt), ()
        # a series always has a card: any card fits on a count of 0 (or a starter's 10 at most)
        assert self.series, "a go on an empty series"
        last_seat = self.laid[-1][0]
        return moved._end_series(last_seat, Breakdown(), made_31=False)

    # --- helpers ---------------------------------------------------------------------------

    def _check_card(self, seat: int, card: Card) -> None:
        if any(card == c for _, c in self.laid):
            raise IllegalPlayError(f"cannot play {card}: it was already laid this deal")
        if card == self.starter:
            raise IllegalPlayError(f"cannot play {card}: it is the starter")
        if card in self.excluded:
            raise IllegalPlayError(
                f"cannot play {card}: it is out of the play this deal (a discard or a seen card)"
            )
        if self.hands is not None and card not in self.hands[seat]:
            raise IllegalPlayError(f"cannot play {card}: seat {seat} does not hold it")
        count = self.count
        if count + card.pips > MAX_COUNT:
            raise IllegalPlayError(_over_31(card, count))

    def _check_go(self, seat: int) -> None:
        count = self.count
        legal = self.legal_cards()
        if legal is not None:
            if legal:
                verb = "fits" if len(legal) == 1 else "fit"
                shown = ", ".join(str(card) for card in legal)
                raise IllegalPlayError(f"cannot say go: {shown} {verb} (count is {count})")
            return
        if count <= MAX_COUNT - 10:
            raise IllegalPlayError(f"cannot say go: every card fits (count is {count})")
        misfits, left = self._unseen_misfits(), self.cards_left[seat]
        if misfits < left:
            raise IllegalPlayError(
                f"cannot say go: seat {seat} has {_cards(left)} but only {_cards(misfits)} "
                f"not yet seen would not fit (count is {count})"
            )

    def _next_to_act(self, seat: int) -> int | None:
        """The next seat after *seat* (ending with *seat* itself) that may still lay a card."""
        players = self.rules.players
        left = self.cards_left
        for step in range(1, players + 1):
            who = (seat + step) % players
            if left[who] and who not in self.said_go:
                return who
        return None

    def _end_series(
        self, closer: int, points: Breakdown, *, made_31: bool
    ) -> tuple[PlayState, tuple[PlayScore, ...]]:
        """End the current series; *closer* laid its last card and has *points* so far."""
        left = self.cards_left
        over = self.rules.single_series or not any(left)
        if not made_31:
            # 1 for the last card of a series; never on top of 31 for 2
            kind = ScoreKind.LAST if over else ScoreKind.GO
            points = points + Breakdown((ScoreItem(kind, (self.laid[-1][1],), 1),))
        if over:
            return replace(self, turn=None), _scores(closer, points)
        players = self.rules.players
        # the seat on the left of the one who laid the last card leads, passing over empty hands
        leader = next(
            who
            for who in ((closer + step) % players for step in range(1, players + 1))
            if left[who]
        )
        state = replace(
            self,
            turn=leader,
            said_go=frozenset(),
            series_starts=(*self.series_starts, len(self.laid)),
        )
        return state, _scores(closer, points)

    def __repr__(self) -> str:
        starts = set(self.series_starts[1:])
        laid = " ".join(
            ("| " if i in starts else "") + f"{seat}:{card}"
            for i, (seat, card) in enumerate(self.laid)
        )
        go = ",".join(str(seat) for seat in sorted(self.said_go)) or "-"
        parts = [
            f"<PlayState {self.rules.variant.value} dealer={self.dealer}",
            f"series={self.series_number} count={self.count}",
            f"turn={'over' if self.turn is None else self.turn} go={go}",
            f"left={self.cards_left}",
            f"laid=[{laid}]",
        ]
        if self.starter is not None:
            parts.append(f"starter={self.starter}")
        if self.hands is not None:
            parts.append("hands=[" + " / ".join(format_cards(h) for h in self.hands) + "]")
        return " ".join(parts) + ">"


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _scores(seat: int, points: Breakdown) -> tuple[PlayScore, ...]:
    return (PlayScore(seat, points),) if points.items else ()


def _check_hands(
    rules: Rules,
    hands: tuple[tuple[Card, ...], ...],
    starter: Card | None,
    excluded: frozenset[Card],
) -> None:
    if len(hands) != rules.players:
        raise InvalidHandError(
            f"wrong number of hands: got {len(hands)}, expected one per seat ({rules.players})"
        )
    holder: dict[Card, int] = {}
    for seat, hand in enumerate(hands):
        shown = format_cards(hand)
        if len(hand) != rules.hand_size:
            raise InvalidHandError(
                f"wrong number of cards in seat {seat}'s hand: {shown!r} has {len(hand)}, "
                f"expected {rules.hand_size}"
            )
        for card in hand:
            if card == starter:
                raise InvalidHandError(
                    f"card {card} in seat {seat}'s hand {shown!r} is the starter"
                )
            if card in excluded:
                raise InvalidHandError(
                    f"card {card} in seat {seat}'s hand {shown!r} is excluded from the play"
                )
            if card in holder:
                raise InvalidHandError(
                    f"duplicate card {card}: in seat {holder[card]}'s hand and in seat {seat}'s "
                    f"hand {shown!r}"
                )
            holder[card] = seat
