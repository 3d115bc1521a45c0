"""What the opponent may hold in the play: every holding equally likely, or as its discards left it.

Two beliefs for the play advice (``playadvice``), both over the opponent's cards still held,
consistent with what the player has seen (their own cards, the starter, the cards laid, cards
named as seen, and the opponent's goes):

* ``Belief.UNIFORM``: every such holding equally likely.
* ``Belief.DISCARDS``: the opponent kept what the exact discard advice keeps. Each of the
  opponent's possible deals (its cards laid, plus ``dealt - laid`` cards the player has not
  seen, all deals equally likely) counts for the four cards (three in five-card) that
  ``advice.advise`` keeps from it, and for nothing else; when the advice ties between keeps, the
  deal counts equally for each. A holding's weight is the sum over its deals; deals whose
  advised keep is not the cards laid plus the holding count for nothing. The advice is the
  opponent's: for its seat, knowing only its own deal.

``discard_weights`` is exact: it sums over every deal. To stay affordable at the lead (8.1 million
six-card deals), deals are taken by their ranks first. The net of a split (``advice.rank_nets``)
is a part that depends on ranks plus a part the suits make (flushes, nobs: ``advice.best_keeps``);
when the best split on ranks beats every other by more than the suits could ever make up, every
deal of those ranks keeps the same ranks and counts at once (the product of ``C(unseen of rank
r, dealt of rank r)``). The other rank sets are dealt out card by card; when the best split is
sure but for a hand flush, only the deals with a suit long enough for one (about a tenth) are
asked of the advice (``advice.best_keep_positions``), the others counted; and deals whose suits
are the same up to renaming the suits (the advice cannot tell them apart) are asked once.
"""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Sequence

from .advice import NetUnits, best_keep_positions, net_units, rank_nets
from .cards import Card
from .playsearch import ONE, PIPS
from .rules import Rules

__all__ = ["Belief", "DiscardWeights", "discard_weights", "uniform_holdings"]

_JACK = 11
_SUIT_BIT = tuple(1 << 8 * (index & 3) for index in range(52))
"""A card (by index) counted in its suit's byte: summed over a deal, the cards of each suit."""


class Belief(enum.Enum):
    """How likely each of the opponent's possible holdings is taken to be."""

    UNIFORM = "uniform"
    """Every holding consistent with the cards seen, equally likely."""
    DISCARDS = "discards"
    """Each holding as often as the opponent's possible deals lead to it by the exact discard
    advice (ties shared equally)."""


class DiscardWeights:
    """The discard belief: integer weights by the opponent's ranks held, and its deals.

    ``weights`` maps the sorted ranks held to ``share`` times the number of deals (ties counted
    as fractions) that lead to them; ``deals`` is the number of deals the advice keeps the
    cards laid and some holding from (an integer times 1 / ``share``).
    """

    __slots__ = ("dealt_out", "share", "sure", "weights")

    def __init__(
        self, weights: dict[tuple[int, ...], int], share: int, sure: int, dealt_out: int
    ) -> None:
        self.weights = weights
        self.share = share
        self.sure = sure
        """How many rank sets were counted at once (sure of their keep on ranks alone)."""
        self.dealt_out = dealt_out
        """How many rank sets were dealt out card by card (a measure of the work)."""

    @property
    def deals(self) -> float:
        return sum(self.weights.values()) / self.share


def uniform_holdings(counts: tuple[int, ...], size: int, limit: int) -> tuple[tuple[int, int], ...]:
    """The uniform belief: every multiset of *size* ranks drawn from *counts* (unseen cards of
    each rank), packed (``pack``), with its number of card sets; only ranks of more than
    *limit* pips."""
    out: list[tuple[int, int]] = []

    def walk(rank: int, left: int, packed: int, weight: int) -> None:
        if left == 0:
            out.append((packed, weight))
            return
        if rank > 13:
            return
        walk(rank + 1, left, packed, weight)
        if PIPS[rank] > limit:
            for take in range(1, min(left, counts[rank]) + 1):
                walk(rank + 1, left - take, packed + take * ONE[rank],
                     weight * math.comb(counts[rank], take))  # fmt: skip

    walk(1, size, 0, 1)
    return tuple(out)


def discard_weights(
    pool: Sequence[Card],
    laid: Sequence[Card],
    held: int,
    limit: int,
    rules: Rules,
    *,
    dealer: bool,
) -> DiscardWeights:
    """The discard belief over the opponent's *held* cards, drawn from *pool* (the cards the
    player has not seen), after it laid *laid*; every card held has more than *limit* pips (its
    goes). *dealer*: whether the opponent deals."""
    share = math.lcm(*range(1, math.comb(rules.dealt, rules.discards) + 1))
    # cards by their index (0-51, rank first: index // 4 + 1 is the rank, index % 4 the suit)
    by_rank: list[list[int]] = [[] for _ in range(14)]
    for card in sorted(pool):
        by_rank[card.rank.value].append(card.index)
    laid_ranks = tuple(card.rank.value for card in laid)
    laid_cards = tuple(card.index for card in laid)
    units = net_units(rules)
    weights: dict[tuple[int, ...], int] = {}
    big = rules.hand_size
    sure = dealt_out = 0
    for ranks in _rank_sets(tuple(len(cards) for cards in by_rank), held + rules.discards):
        dealt = tuple(sorted(laid_ranks + ranks))
        splits = rank_nets(dealt, rules, dealer)
        keep = _sure_keep(splits, laid_ranks, rules, dealer, units, flush=True)
        if keep is not None:
            sure += 1
            deals = math.prod(
                math.comb(len(by_rank[rank]), ranks.count(rank)) for rank in set(ranks)
            )
            _add(weights, keep, laid_ranks, limit, deals * share)
            continue
        dealt_out += 1
        # sure for every deal without a hand flush (no suit with hand_size cards)?
        plain = _sure_keep(splits, laid_ranks, rules, dealer, units, flush=False)
        plain_deals = 0
        # the advice cares which cards share a suit, not which suit: deals of these ranks
        # whose suits are the same up to renaming keep the same places (remembered)
        known: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
        choices = [itertools.combinations(by_rank[r], ranks.count(r)) for r in sorted(set(ranks))]
        for parts in itertools.product(*choices):
            deal = sorted((*laid_cards, *itertools.chain.from_iterable(parts)))
            if plain is not None:
                bits = sum(map(_SUIT_BIT.__getitem__, deal))
                if max(bits & 255, bits >> 8 & 255, bits >> 16 & 255, bits >> 24) < big:
                    plain_deals += 1
                    continue
            names: dict[int, int] = {}
            suits = tuple(names.setdefault(card & 3, len(names)) for card in deal)
            keeps = known.get(suits)
            if keeps is None:
                known[suits] = keeps = best_keep_positions(dealt, suits, rules, dealer)
            each = share // len(keeps)
            for keep in keeps:
                kept = [deal[i] for i in keep]
                if not all(card in kept for card in laid_cards):
                    continue
                rest = [card // 4 + 1 for card in kept if card not in laid_cards]
                if all(PIPS[rank] > limit for rank in rest):
                    key = tuple(rest)
                    weights[key] = weights.get(key, 0) + each
        if plain is not None:
            _add(weights, plain, laid_ranks, limit, plain_deals * share)
    return DiscardWeights(weights, share, sure, dealt_out)


def _add(
    weights: dict[tuple[int, ...], int],
    keep: tuple[int, ...],
    laid: tuple[int, ...],
    limit: int,
    weight: int,
) -> None:
    """Count *weight* for the ranks held when *keep* is kept, if it keeps the ranks *laid* and
    what it holds fits the goes (more than *limit* pips)."""
    rest = list(keep)
    for rank in laid:
        if rank not in rest:
            return
        rest.remove(rank)
    if weight and all(PIPS[rank] > limit for rank in rest):
        key = tuple(rest)
        weights[key] = weights.get(key, 0) + weight


def _rank_sets(have: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    """Every sorted multiset of *size* ranks with at most have[r] of rank r."""
    out: list[tuple[int, ...]] = []

    def walk(rank: int, left: int, ranks: tuple[int, ...]) -> None:
        if left == 0:
            out.append(ranks)
            return
        if rank > 13:
            return
        for take in range(min(left, have[rank]), -1, -1):
            walk(rank + 1, left - take, ranks + (rank,) * take)

    walk(1, size, ())
    return out


def _sure_keep(
    splits: tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...],
    laid: tuple[int, ...],
    rules: Rules,
    dealer: bool,
    units: NetUnits,
    *,
    flush: bool,
) -> tuple[int, ...] | None:
    """The kept ranks every deal of these ranks keeps, whatever its suits, if there is one
    (*flush* False: every deal with no hand flush, no suit with ``hand_size`` cards).

    Bounds on what the suits add to each split (``advice.best_keeps``): a hand flush (every kept
    card of one suit) at most ``len(keep) * n + 13`` starters' worth, a crib flush at most
    ``crib_flush * C(13, drawn)``, nobs from a jack dealt between ``13 - dealt`` and 12
    starters. A split is sure when its worst beats every other's best. Its ranks held are then
    the same in every deal; and whether it keeps the cards *laid* too, unless it keeps one card
    of a rank laid and discards another (then which is kept may depend on the suits).
    """
    per_starter = units.per_starter
    hand_flush = (rules.hand_size * units.n + 13) * per_starter if flush else 0
    crib_flush = rules.crib_flush * math.comb(13, units.drawn) * units.per_set
    nobs_low, nobs_high = (13 - rules.dealt) * per_starter, 12 * per_starter
    bounds = []
    for keep, discard, net in splits:
        low = high = net
        if len(set(keep)) == len(keep):
            high += hand_flush
        jacks = keep.count(_JACK)
        low += jacks * nobs_low
        high += jacks * nobs_high
        crib_low, crib_high = 0, 0
        if len(set(discard)) == len(discard):
            crib_high += crib_flush
        jacks = discard.count(_JACK)
        crib_low += jacks * nobs_low
        crib_high += jacks * nobs_high
        if dealer:
            low, high = low + crib_low, high + crib_high
        else:
            low, high = low - crib_high, high - crib_low
        bounds.append((low, high, keep, discard))
    bounds.sort(reverse=True)
    low, _, keep, discard = bounds[0]
    if any(high >= low for _, high, _, _ in bounds[1:]):
        return None
    if set(keep) & set(discard) & set(laid):
        return None
    return keep
