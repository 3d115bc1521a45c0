"""Discard advice: the exact expected show points of every way to lay away cards to the crib.

Theory of operation
-------------------
For a dealt hand, every discard is scored by two exact means over the cards the player cannot
see (the *unseen* cards: the pack minus the dealt hand, all equally likely to be anywhere):

* ``hand_ev``, the mean show of the kept cards over every possible starter;
* ``crib_ev``, the mean show of the crib over every starter and every set of unknown crib cards
  (the other players' discards and any cards from the pack: ``crib_size - discards`` of them).

Brute force would score the crib 683,100 times for one six-card hand. Instead the score is split
the way ``rank_points`` splits it:

* Fifteens, pairs and runs depend on ranks only, and in the crib they do not care which of the
  unknown cards is the starter. So the crib's rank points are averaged over the *multisets of
  ranks* of (unknown crib cards + starter): a multiset with ``m_r`` cards of rank ``r`` stands for
  ``prod C(n_r, m_r)`` card sets, where ``n_r`` is how many cards of rank ``r`` are unseen. There
  are only 455 multisets of three ranks (1,820 of four), and the rank points of the discard plus
  each multiset are cached, so one discard costs one dot product.
* The flush and nobs are counted from suits alone: a crib flush needs the discards to share a suit
  and every unknown card and the starter to be of that suit, and is worth ``rules.crib_flush``
  (5, but 4 in five-card cribbage); nobs from a discarded jack needs a starter of its suit; nobs
  from an unknown card needs the jack of the starter's suit among the unknown crib cards.

Everything is summed as integers over one common denominator, so the means are exact up to the
final division and equal options compare equal.

>>> from .cards import parse_cards
>>> dealt = parse_cards("5H 5D 5S JC KS 9H")
>>> pone = advise(dealt, dealer=False)[0]
>>> format_cards(pone.keep), round(pone.hand_ev, 3), round(pone.crib_ev, 3), round(pone.net_ev, 3)
('5D 5H 5S JC', 16.522, 3.08, 13.442)
>>> format_cards(advise(dealt, dealer=True)[0].discard)  # a jack in your own crib may be nobs
'9H JC'
>>> len(advise(parse_cards("AC 4D 6H 9S KC"), rules=Rules.three_handed(), dealer=False))
5
"""

from __future__ import annotations

import enum
import itertools
import math
import operator
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from pegboard.errors import InvalidHandError
from pegboard.frozen import frozen

from .cards import DECK, Card, Rank, Suit, format_cards
from .rules import Rules
from .scoring import rank_points

__all__ = [
    "CribOwner",
    "DiscardOption",
    "NetUnits",
    "advise",
    "best_keep_positions",
    "best_keeps",
    "net_units",
    "rank_nets",
]


class CribOwner(enum.Enum):
    """Whose crib the discards go to, seen from the player asking for advice."""

    OWN = "own"
    """The player deals: the crib's points are theirs (net = hand + crib)."""
    PARTNER = "partner"
    """The player's partner deals (four-handed, two-against-one): the crib counts for the team."""
    OPPONENT = "opponent"
    """Someone on another side deals: the crib's points go against the player (hand - crib)."""


@frozen
class DiscardOption:
    """One way to lay away cards, with its exact expected show points.

    ``discard`` and ``keep`` are in card order. ``net_ev`` is ``hand_ev + crib_ev`` when the crib
    is the player's or their partner's, and ``hand_ev - crib_ev`` when it is an opponent's.
    """

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand_ev: float
    crib_ev: float
    net_ev: float


def advise(
    dealt: Sequence[Card],
    *,
    rules: Rules | None = None,
    dealer: bool | None = None,
    crib_owner: CribOwner | None = None,
) -> list[DiscardOption]:
    """Every possible discard from *dealt* with its exact expected points, best first.

    Say whose crib it is with exactly one of *dealer* (``True``: your own crib, ``False``: an
    opponent's) or *crib_owner* (which can also be ``CribOwner.PARTNER``). *rules* defaults to
    six-card cribbage. The options are sorted by ``net_ev``, then ``hand_ev`` (both descending),
    then by the discarded cards in card order. His heels is not included: the starter pegs it
    whatever is discarded.

    Raises:
        InvalidHandError: *dealt* does not hold ``rules.dealt`` cards, or holds one twice.
        TypeError: neither or both of *dealer* and *crib_owner* were given.
        ValueError: ``CribOwner.PARTNER`` in a variant without partners.

    >>> from .cards import parse_cards
    >>> advise(parse_cards("5H 5D"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: advise() needs whose crib it is: dealer=True/False or crib_owner=CribOwner...
    >>> try:
    ...     advise(parse_cards("5H 5D"), dealer=False)
    ... except InvalidHandError as error:
    ...     print(error)
    wrong number of cards dealt: '5H 5D' has 2, expected 6 in six-card
    """
    rules = Rules.six_card() if rules is None else rules
    owner = _crib_owner(dealer, crib_owner, rules)
    cards = _checked(dealt, rules)

    seen = set(cards)
    unseen = [card for card in DECK if card not in seen]
    units = net_units(rules)
    n = units.n  # possible starters: the unseen cards
    rank_left = [0] * 14  # rank_left[1..13]: unseen cards of each rank
    suit_left = dict.fromkeys(Suit, 0)
    for card in unseen:
        rank_left[card.rank] += 1
        suit_left[card.suit] += 1
    unseen_set = set(unseen)

    unknown = rules.crib_size - rules.discards  # crib cards the player does not know
    # drawn: the unknown crib cards together with the starter; sets: equally likely such sets.
    # One denominator for every crib term (``NetUnits``): rank points and flushes are counted
    # per set of drawn cards, nobs per (starter, unknown cards) pair, which brings in n and n - 1.
    drawn, sets, crib_den = units.drawn, units.sets, units.den
    per_set, per_starter = units.per_set, units.per_starter
    weights = _weights(rank_left, drawn)
    starter_weights = rank_left[1:]
    sign = -1 if owner is CribOwner.OPPONENT else 1

    # nobs from an unknown crib card: the jack of the starter's suit among the unknown cards.
    # For each suit whose jack is unseen, any of the other unseen cards of that suit may be the
    # starter, and then the jack is one of the `unknown` cards drawn from the other n - 1.
    unknown_nobs = unknown * sum(
        suit_left[suit] - 1 for suit in Suit if Card(Rank.JACK, suit) in unseen_set
    )

    crib_rank_cache: dict[tuple[int, ...], int] = {}
    ranked: list[tuple[int, int, tuple[int, ...], DiscardOption]] = []
    for discard in itertools.combinations(sorted(cards), rules.discards):
        keep = tuple(card for card in sorted(cards) if card not in discard)

        # the hand: n starters, each equally likely
        hand = sum(map(operator.mul, _hand_rank_row(_ranks(keep)), starter_weights))
        hand += _hand_flush(keep, suit_left, n) + _nobs_starters(keep, suit_left)

        # the crib
        discard_ranks = _ranks(discard)
        crib_rank = crib_rank_cache.get(discard_ranks)
        if crib_rank is None:
            crib_rank = sum(map(operator.mul, _crib_rank_row(discard_ranks, drawn), weights))
            crib_rank_cache[discard_ranks] = crib_rank
        crib = (crib_rank + _crib_flush(discard, suit_left, drawn, rules)) * per_set
        crib += unknown_nobs * sets + _nobs_starters(discard, suit_left) * per_starter

        net = hand * per_starter + sign * crib
        option = DiscardOption(
            discard=discard,
            keep=keep,
            hand_ev=hand / n,
            crib_ev=crib / crib_den,
            net_ev=net / crib_den,
        )
        ranked.append((-net, -hand, tuple(card.index for card in discard), option))
    ranked.sort(key=operator.itemgetter(0, 1, 2))
    return [entry[3] for entry in ranked]


@frozen
class NetUnits:
    """The integer units ``advise`` sums a net in (one common denominator, ``den``).

    A discard's net in these units is ``rank_nets``' rank part of its split plus what the
    suits make (``best_keeps``) plus a part the same for every discard of one hand (nobs from
    an unknown crib card).
    """

    n: int
    """Possible starters (the pack less the dealt cards)."""
    drawn: int
    """Unknown crib cards plus the starter."""
    sets: int
    per_set: int
    per_starter: int
    den: int


@cache
def net_units(rules: Rules) -> NetUnits:
    """``advise``'s units for *rules* (they depend on how many cards are dealt and drawn)."""
    n = 52 - rules.dealt
    drawn = rules.crib_size - rules.discards + 1
    sets = math.comb(n, drawn)
    return NetUnits(
        n=n, drawn=drawn, sets=sets, per_set=n * (n - 1), per_starter=sets * (n - 1),
        den=sets * n * (n - 1),
    )  # fmt: skip


@cache
def rank_nets(
    ranks: tuple[int, ...], rules: Rules, dealer: bool
) -> tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]:
    """For sorted dealt *ranks* in a two-player game: each split into kept and discarded ranks,
    with the part of its net (``NetUnits``) that depends on ranks only (fifteens, pairs, runs).

    ``advise`` sums the same terms; the suits add flushes and nobs (``best_keeps``).
    """
    units = net_units(rules)
    rank_left = [4] * 14
    for rank in ranks:
        rank_left[rank] -= 1
    weights = _weights(rank_left, units.drawn)
    starter_weights = rank_left[1:]
    sign = 1 if dealer else -1
    out = []
    for discard in sorted(set(itertools.combinations(ranks, rules.discards))):
        keep = list(ranks)
        for rank in discard:
            keep.remove(rank)
        hand = sum(map(operator.mul, _hand_rank_row(tuple(keep)), starter_weights))
        crib = sum(map(operator.mul, _crib_rank_row(discard, units.drawn), weights))
        out.append((tuple(keep), discard, hand * units.per_starter + sign * crib * units.per_set))
    return tuple(out)


def best_keeps(dealt: Sequence[Card], rules: Rules, dealer: bool) -> tuple[tuple[Card, ...], ...]:
    """The keeps (sorted cards) with the highest net of ``advise`` (two players: *dealer* says
    whose crib): its first choice and every keep it ties with on net.

    The net is ``rank_nets``' part plus what the suits make, summed as ``advise`` sums them:
    a hand flush (every kept card of one suit: ``len(keep) * n`` starters plus those of the
    suit), a crib flush (``crib_flush * C(unseen of the suit, drawn)`` sets), nobs (a starter
    of each jack's suit); in integers here, over card indices, for speed (the discard belief
    asks it of millions of deals).
    """
    cards = sorted(dealt)  # by rank first, so each keep's ranks come sorted
    ranks = tuple(card.rank.value for card in cards)
    suits = tuple(_SUIT_INDEX[card.suit] for card in cards)
    best = best_keep_positions(ranks, suits, rules, dealer)
    return tuple(tuple(cards[i] for i in keep) for keep in best)


def best_keep_positions(
    ranks: tuple[int, ...], suits: tuple[int, ...], rules: Rules, dealer: bool
) -> tuple[tuple[int, ...], ...]:
    """``best_keeps`` for cards given as sorted *ranks* and their suits (0-3, any numbering):
    the positions of each best keep."""
    units = net_units(rules)
    suit_left = [13, 13, 13, 13]
    for suit in suits:
        suit_left[suit] -= 1
    jacks = _JACK in ranks
    nobs = tuple(
        suit_left[suit] if rank == _JACK else 0 for rank, suit in zip(ranks, suits, strict=True)
    )
    crib_flush = [rules.crib_flush * math.comb(left, units.drawn) for left in suit_left]
    parts = {keep: net for keep, _, net in rank_nets(ranks, rules, dealer)}
    n, per_set, per_starter = units.n, units.per_set, units.per_starter
    sign = 1 if dealer else -1
    best: list[tuple[int, ...]] = []
    top = 0
    for keep, kept, laid_away in _splits(len(ranks), rules.discards):
        hand = crib = 0
        kept_suits = kept(suits)
        if kept_suits.count(kept_suits[0]) == len(kept_suits):
            hand = len(kept_suits) * n + suit_left[kept_suits[0]]
        away = laid_away(suits)
        if away.count(away[0]) == len(away):
            crib = crib_flush[away[0]] * per_set
        if jacks:
            hand += sum(kept(nobs))
            crib += sum(laid_away(nobs)) * per_starter
        net = parts[kept(ranks)] + hand * per_starter + sign * crib
        if not best or net > top:
            best, top = [keep], net
        elif net == top:
            best.append(keep)
    return tuple(best)


@cache
def _splits(
    size: int, discards: int
) -> tuple[tuple[tuple[int, ...], Callable[..., Any], Callable[..., Any]], ...]:
    """Each way to lay *discards* of *size* cards away: the kept positions, and getters that
    pick the kept and the discarded from a tuple (always as tuples)."""
    out = []
    for discard in itertools.combinations(range(size), discards):
        keep = tuple(i for i in range(size) if i not in discard)
        out.append((keep, _getter(keep), _getter(discard)))
    return tuple(out)


def _getter(positions: tuple[int, ...]) -> Callable[..., Any]:
    if len(positions) == 1:
        (only,) = positions
        return lambda values: (values[only],)
    return operator.itemgetter(*positions)


_SUIT_INDEX = {suit: index for index, suit in enumerate(Suit)}
_JACK = Rank.JACK.value


def _crib_owner(dealer: bool | None, crib_owner: CribOwner | None, rules: Rules) -> CribOwner:
    if (dealer is None) == (crib_owner is None):
        raise TypeError(
            "advise() needs whose crib it is: dealer=True/False or crib_owner=CribOwner..., "
            "not both"
        )
    if crib_owner is None:
        return CribOwner.OWN if dealer else CribOwner.OPPONENT
    if crib_owner is CribOwner.PARTNER and all(len(team) < 2 for team in rules.teams):
        raise ValueError(
            f"crib_owner=CribOwner.PARTNER needs a variant with partners, "
            f"got {rules.variant.value!r} (use dealer=True or dealer=False)"
        )
    return crib_owner


def _checked(dealt: Sequence[Card], rules: Rules) -> tuple[Card, ...]:
    cards = tuple(dealt)
    shown = format_cards(cards)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InvalidHandError(f"duplicate card {card} in {shown!r}")
        seen.add(card)
    if len(cards) != rules.dealt:
        raise InvalidHandError(
            f"wrong number of cards dealt: {shown!r} has {len(cards)}, expected {rules.dealt} "
            f"in {rules.variant.value}"
        )
    return cards


def _ranks(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple(sorted(card.rank.value for card in cards))


def _hand_flush(keep: Sequence[Card], suit_left: dict[Suit, int], n: int) -> int:
    """Hand flush points summed over the n starters: every kept card one suit scores
    len(hand), and one more when the starter matches."""
    suits = {card.suit for card in keep}
    if len(suits) != 1:
        return 0
    (suit,) = suits
    return len(keep) * n + suit_left[suit]


def _crib_flush(
    discard: Sequence[Card], suit_left: dict[Suit, int], drawn: int, rules: Rules
) -> int:
    """Crib flush points summed over the sets of *drawn* unknown cards + starter: only when
    every crib card and the starter share one suit, ``rules.crib_flush`` each time."""
    suits = {card.suit for card in discard}
    if len(suits) != 1:
        return 0
    (suit,) = suits
    return rules.crib_flush * math.comb(suit_left[suit], drawn)


def _nobs_starters(cards: Sequence[Card], suit_left: dict[Suit, int]) -> int:
    """Nobs from the jacks among *cards*, summed over the starters: a starter of the jack's suit
    (never the jack itself, which is not among the unseen cards)."""
    return sum(suit_left[card.suit] for card in cards if card.rank is Rank.JACK)


@cache
def _multisets(size: int) -> tuple[tuple[tuple[int, ...], tuple[tuple[int, int], ...]], ...]:
    """Every multiset of *size* ranks: its sorted ranks and its (rank, multiplicity) parts."""
    out = []
    for ranks in itertools.combinations_with_replacement(range(1, 14), size):
        parts = tuple((rank, ranks.count(rank)) for rank in sorted(set(ranks)))
        out.append((ranks, parts))
    return tuple(out)


def _weights(rank_left: Sequence[int], size: int) -> list[int]:
    """How many sets of *size* unseen cards have each multiset of ranks (in `_multisets` order)."""
    comb = [[math.comb(have, take) for take in range(size + 1)] for have in range(5)]
    weights = []
    for _, parts in _multisets(size):
        weight = 1
        for rank, take in parts:
            weight *= comb[rank_left[rank]][take]
        weights.append(weight)
    return weights


@cache
def _crib_rank_row(discard_ranks: tuple[int, ...], size: int) -> tuple[int, ...]:
    """Rank points of the discards plus each multiset of *size* ranks, in `_multisets` order."""
    return tuple(rank_points(discard_ranks + ranks) for ranks, _ in _multisets(size))


@cache
def _hand_rank_row(keep_ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Rank points of the kept cards with a starter of each rank, ace to king."""
    return tuple(rank_points((*keep_ranks, rank)) for rank in range(1, 14))
