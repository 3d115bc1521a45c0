"""Suits for cards typed by rank alone: the keypad's suit search. Pure, like the keypad.

Suits are never typed. They matter only for a flush and for nobs, so the show asks exactly
that ("flush?", "nobs?") when the ranks allow it, and ``choose_suits`` then picks concrete
suits for every card of the deal that are consistent with every card already known and with
every answer, so the engine's count is exact. Until then cards get suits that keep the common
answer ("no flush, no nobs") true: never the starter's suit when another is free, and a
different suit for each card a seat lays (``play_suit``). When an answer needs a card already
entered to change suit (a flush in a hand laid in the play), ``reenter`` takes the deal back
with ``Undo`` and enters it again with the new suits before the show; no score changes,
because the play and the other hands' counts do not depend on the suits chosen.
"""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.engine.cards import Card, Rank, Suit
from pegboard.engine.commands import Command, Crib, Play, Show, Starter, Undo
from pegboard.frozen import frozen

__all__ = [
    "HandFacts",
    "choose_suits",
    "facts_of",
    "pick",
    "play_suit",
    "reenter",
    "suit_hand",
]

_SUITS = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)  # the order suits are handed out


def pick(ranks: Sequence[Rank], taken: Sequence[Card]) -> tuple[Card, ...]:
    """Cards of *ranks* with suits handed out in turn, avoiding *taken* (a cut, a starter).

    >>> [str(card) for card in pick([Rank.NINE, Rank.THREE, Rank.NINE], [Card.parse("3D")])]
    ['9H', '3C', '9C']
    """
    chosen: list[Card] = []
    for i, rank in enumerate(ranks):
        for step in range(4):
            card = Card(rank, _SUITS[(i + step) % 4])
            if card not in taken and card not in chosen:
                chosen.append(card)
                break
    return tuple(chosen)


def play_suit(
    rank: Rank, known: Sequence[Card], starter: Card | None, laid: Sequence[Card]
) -> Card:
    """A suit for a card laid in the play: never the starter's when another is free, and one
    the seat has not laid yet (*laid*), so the common answers at the show (no flush, no nobs)
    hold. *known* are the deal's cards so far; the caller has checked one of *rank* is free.
    """
    used = [c.suit for c in laid]

    def cost(suit: Suit) -> tuple[int, int, int]:
        return (starter is not None and suit is starter.suit, used.count(suit), _SUITS.index(suit))

    for suit in sorted(_SUITS, key=cost):
        if Card(rank, suit) not in known:
            return Card(rank, suit)
    raise AssertionError("no free suit: checked by the caller")


@frozen
class HandFacts:
    """What a hand's suits must give: its flush (0 none, 1 the hand, 2 with the starter) and
    whether it has nobs. ``slots`` index the cards of the deal (``choose_suits``)."""

    slots: tuple[int, ...]
    crib: bool
    flush: int
    nobs: bool

    def holds(self, cards: Sequence[Card], starter: Card) -> bool:
        """Whether these concrete *cards* (with *starter*) give exactly these facts."""
        return facts_of(cards, starter, self.crib) == (self.flush, self.nobs)


def facts_of(cards: Sequence[Card], starter: Card, crib: bool) -> tuple[int, bool]:
    """The flush (0, 1 or 2, as in ``HandFacts``) and nobs of concrete *cards* with *starter*."""
    same = len({c.suit for c in cards}) == 1
    with_starter = same and cards[0].suit is starter.suit
    flush = 2 if with_starter else (1 if same and not crib else 0)
    nobs = any(c.rank is Rank.JACK and c.suit is starter.suit for c in cards)
    return flush, nobs


def choose_suits(
    ranks: Sequence[Rank],
    current: Sequence[Suit | None],
    hands: Sequence[HandFacts],
    starter: int,
    *,
    keep: bool,
) -> tuple[Suit, ...] | None:
    """Suits for the deal's cards: all cards different, every hand's facts true.

    *ranks*/*current* describe each card of the deal (slot); ``current`` is None for a card
    not entered yet. *starter* is the starter's slot. With *keep*, entered cards keep their
    suits; otherwise they may change (current suits are tried first). Cards not entered yet
    avoid the starter's suit when they can and vary their suits. None: no such suits exist.

    >>> five = [Rank.FIVE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.SIX]
    >>> facts = HandFacts((1, 2, 3, 4), crib=False, flush=2, nobs=False)
    >>> suits = choose_suits(five, [Suit.HEARTS, None, None, None, None], [facts], 0, keep=True)
    >>> [s.value for s in suits]
    ['H', 'H', 'H', 'H', 'H']
    """
    if starter != 0:
        raise ValueError(f"the starter must be slot 0, got {starter!r}")
    n = len(ranks)
    member: dict[int, list[HandFacts]] = {}
    for hand in hands:
        for i in hand.slots:
            member.setdefault(i, []).append(hand)
    # the starter, then the cards of hands (constrained), then free cards (laid, not shown)
    in_hands = sorted({i for hand in hands for i in hand.slots} - {0})
    order = [0, *in_hands, *(i for i in range(1, n) if i not in member)]
    position = {slot: k for k, slot in enumerate(order)}
    last = {id(hand): max(position[i] for i in hand.slots) for hand in hands}
    chosen: list[Suit | None] = [None] * n
    budget = [_SEARCH_BUDGET]

    def domain(i: int) -> list[Suit]:
        cur = current[i]
        if cur is not None:
            return [cur] if keep else [cur, *(s for s in _SUITS if s is not cur)]
        first = chosen[0] if i != 0 else None
        spin = [_SUITS[(i + k) % 4] for k in range(4)]
        return sorted(spin, key=lambda s: s is first)

    def ok(k: int, i: int) -> bool:
        suit = chosen[i]
        if any(ranks[j] is ranks[i] and chosen[j] is suit for j in order[:k]):
            return False
        for hand in member.get(i, ()):
            if hand.flush:  # every card of a flush shares the suit (the starter's for 2)
                lead = chosen[0] if hand.flush == 2 else chosen[hand.slots[0]]
                if lead is not None and suit is not lead:
                    return False
            if not hand.nobs and ranks[i] is Rank.JACK and suit is chosen[0]:
                return False
            if last[id(hand)] == k:
                cards = [Card(ranks[j], _suit(chosen[j])) for j in hand.slots]
                if not hand.holds(cards, Card(ranks[0], _suit(chosen[0]))):
                    return False
        return True

    def search(k: int) -> bool:
        if k == n:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        i = order[k]
        for suit in domain(i):
            chosen[i] = suit
            if ok(k, i) and search(k + 1):
                return True
        chosen[i] = None
        return False

    if not search(0):
        return None
    return tuple(_suit(s) for s in chosen)


def suit_hand(
    deal: Sequence[Card],
    shown: Sequence[tuple[int | None, Sequence[Card]]],
    held: Sequence[Card],
    typed: Sequence[Rank],
    wanted: HandFacts,
) -> tuple[tuple[Card, ...], dict[Card, Card]] | None:
    """The hand up for counting with suits that give *wanted*'s flush and nobs (its slots are
    ignored), and the deal's cards whose suits had to change for it (old -> new card).

    *deal* is every card entered this deal, the starter first; *shown* the hands (seat; None
    for the crib) counted already, whose facts must stay true; *held* the hand's cards known
    from the play; *typed* the ranks typed for the rest. None: no suits fit.
    """
    starter = deal[0]
    slots_of = {card: i for i, card in enumerate(deal)}
    facts = []
    for seat, counted in shown:
        flush, nobs = facts_of(counted, starter, seat is None)
        facts.append(HandFacts(tuple(slots_of[c] for c in counted), seat is None, flush, nobs))
    new_slots = range(len(deal), len(deal) + len(typed))
    hand_slots = (*(slots_of[c] for c in held), *new_slots)
    facts.append(HandFacts(hand_slots, wanted.crib, wanted.flush, wanted.nobs))
    ranks = [c.rank for c in deal] + list(typed)
    current: list[Suit | None] = [c.suit for c in deal] + [None] * len(typed)
    suits = choose_suits(ranks, current, facts, 0, keep=True)
    if suits is None:  # the answer needs a card already entered in another suit
        suits = choose_suits(ranks, current, facts, 0, keep=False)
    if suits is None:
        return None
    cards = [Card(rank, suit) for rank, suit in zip(ranks, suits, strict=True)]
    changes = {old: new for old, new in zip(deal, cards, strict=False) if old != new}
    return tuple(cards[i] for i in hand_slots), changes


_SEARCH_BUDGET = 20_000
"""Search steps before ``choose_suits`` gives up (only contradictory answers get near it)."""


def _suit(suit: Suit | None) -> Suit:
    assert suit is not None
    return suit


def reenter(commands: Sequence[Command], changes: dict[Card, Card]) -> tuple[Command, ...]:
    """Undo back to the first command holding a changed card, then the same with new suits.

    *commands* are the deal's commands so far; *changes* maps each card to its new suit's card.
    """
    first = next(i for i, c in enumerate(commands) if any(x in changes for x in _cards_of(c)))
    again = tuple(_resuit(c, changes) for c in commands[first:])
    return (*(Undo() for _ in commands[first:]), *again)


def _cards_of(command: Command) -> tuple[Card, ...]:
    match command:
        case Starter(card) | Play(card):
            return (card,)
        case Show(cards) | Crib(cards):
            return cards
        case _:
            return ()


def _resuit(command: Command, changes: dict[Card, Card]) -> Command:
    match command:
        case Starter(card):
            return Starter(changes.get(card, card))
        case Play(card):
            return Play(changes.get(card, card))
        case Show(cards):
            return Show(tuple(changes.get(c, c) for c in cards))
        case Crib(cards):
            return Crib(tuple(changes.get(c, c) for c in cards))
        case _:
            return command
