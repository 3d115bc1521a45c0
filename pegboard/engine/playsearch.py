"""The play advice's search: exact net pegging over the opponent's holdings, in ranks.

The model is ``playadvice``'s; this is the search behind it.

How it is computed
------------------
Suits never matter in the play, so everything is over ranks. A holding is a multiset of ranks
(at most 1,820 of four cards), weighted by how many card sets have those ranks (the product of
``C(unseen of rank r, held of rank r)``), and packed into one integer (3 bits a rank) so that
"holds a 7" and "lays a 7" are a mask and a subtraction. The greedy policy ranks the cards that
fit by a key that depends only on the card and the table (the series and the count), so at the
opponent's turn the belief splits into one group per rank it would lay (the holdings whose most
preferred card is that rank) and one group that says go. At the player's turn the figure is the
best card's, the same card for every holding still in the belief: the player cannot see which it
is. The search is exhaustive. A series is kept only as far as it can still score (``_tail``:
the run-able suffix spans at most seven ranks), so more orders of play meet in one memo.
Remembered for one decision: the sub-searches at the start of a series and the play-out of each
holding once the player has no cards left, by table then by holding (they recur along many
orders of the same cards); across decisions (a few thousand each, a few MB): the points each
rank makes on a series, the policy's order and the player's legal cards on a count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache

from pegboard.frozen import frozen

from .play import MAX_COUNT

__all__ = ["ONE", "PIPS", "Position", "forget", "greedy_chose", "pack", "rank_points_of"]

ME, OPP = 0, 1
ONE = (0, *(1 << 3 * (rank - 1) for rank in range(1, 14)))
"""ONE[r]: one card of rank r in a packed holding (3 bits a rank)."""
_MASK = (0, *(7 << 3 * (rank - 1) for rank in range(1, 14)))
PIPS = (0, *(min(rank, 10) for rank in range(1, 14)))
_BITS = tuple((rank, _MASK[rank], ONE[rank]) for rank in range(14))
_BONUS = tuple(2 if count in (15, 31) else 0 for count in range(32))
"""_BONUS[c]: the points for making the count c (fifteen or thirty-one)."""
_MEMORY = 1 << 12
"""How many tails (and their scores, the policy's order) the search keeps between decisions."""


@frozen
class Position:
    """A position of the play in ranks, from the player's chair (see ``position_of``)."""

    mine: tuple[int, ...]
    """The player's ranks still held, sorted."""
    belief: tuple[tuple[int, int], ...]
    """(packed holding, weight) for every holding of the opponent's cards left."""
    opp_left: int
    series: tuple[int, ...]
    count: int
    went: int
    """Bit ME: the player said go in this series; bit OPP: the opponent did."""
    last: int
    """Who laid the series' last card (ME, OPP), or -1 for none yet."""
    single_series: bool
    holdings: int = 0
    """How many holdings (sets of cards) are consistent with the cards seen."""
    deals: float = 0.0
    """``Belief.DISCARDS``: the deals the belief counts (see ``PlayAdvice.deals``)."""
    reads: bool = False


def pack(ranks: Iterable[int]) -> int:
    """A multiset of ranks as the search holds a holding: 3 bits a rank, ace lowest."""
    return sum(ONE[rank] for rank in ranks)


def greedy_chose(
    packed: int, choices: Sequence[tuple[tuple[int, ...], int, int, int]], laid: Sequence[int]
) -> bool:
    """Whether the greedy policy, holding *packed* and the ranks it *laid* since each choice,
    would have made every one of *choices* (series, count, rank laid, cards laid before)."""
    for series, count, rank, before in choices:
        hand = packed + pack(laid[before:])
        if next(held for held, mask, _ in _greedy_order(series, count) if hand & mask) != rank:
            return False
    return True


def forget() -> None:
    """Empty every memory of the search (a benchmark's cold start)."""
    for memo in (_fresh, _patterns, _after, _greedy_order, _moves):
        memo.cache_clear()
    _played.clear()


def rank_points_of(position: Position) -> dict[int, tuple[int, int]]:
    """For each legal rank (0 for go when none fits): (points at once, net total over belief).

    The net total is the sum over the belief of weight x net points; divide by the weights' sum.
    """
    try:
        return _figures(position)
    finally:  # these hold beliefs: kept for one decision only
        _fresh.cache_clear()
        _played.clear()


def _figures(p: Position) -> dict[int, tuple[int, int]]:
    belief = dict(p.belief)
    room = MAX_COUNT - p.count
    legal = sorted({rank for rank in p.mine if PIPS[rank] <= room})
    if not legal:
        return {0: (0, _go(p.mine, belief, p.opp_left, p.series, p.count, ME, p.went,
                           p.last, p.single_series))}  # fmt: skip
    out = {}
    for rank in legal:
        after = p.count + PIPS[rank]
        now = _score(p.series, rank, after)
        weight = sum(belief.values())
        rest = _laid(ME, rank, _less(p.mine, rank), belief, p.opp_left, p.series, after, p.went,
                     p.single_series)  # fmt: skip
        out[rank] = (now, now * weight + rest)
    return out


# --- the search ------------------------------------------------------------------------------


@lru_cache(maxsize=_MEMORY)
def _moves(mine: tuple[int, ...], count: int) -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
    """The player's legal ranks on *count*: (rank, count after, 15 or 31 bonus, cards left)."""
    out = []
    for rank in sorted(set(mine)):
        after = count + PIPS[rank]
        if after <= MAX_COUNT:
            out.append((rank, after, _BONUS[after], _less(mine, rank)))
    return tuple(out)


def _less(mine: tuple[int, ...], rank: int) -> tuple[int, ...]:
    i = mine.index(rank)
    return mine[:i] + mine[i + 1 :]


def _score(series: tuple[int, ...], rank: int, count: int) -> int:
    """Points for laying *rank* on *series* (ranks since the reset) making *count*."""
    return (2 if count == 15 or count == MAX_COUNT else 0) + _patterns(series)[rank]


@lru_cache(maxsize=_MEMORY)
def _patterns(series: tuple[int, ...]) -> tuple[int, ...]:
    """For each rank (index 1-13), the pairs and run it would make laid on *series*.

    The last card's rank pairs with the equal cards before it. Another rank makes a run with
    the longest suffix of distinct ranks that it completes: a suffix of L consecutive ranks
    is completed by the rank below or above it, a suffix of L ranks with one gap by the gap.
    """
    out = [0] * 14
    if not series:
        return tuple(out)
    last = series[-1]
    same = 1
    while same < len(series) and series[-same - 1] == last:
        same += 1
    out[last] = (0, 2, 6, 12, 20)[same]  # (a fifth is asked of no holding)
    held: set[int] = set()
    low, high = 14, 0
    for length, rank in enumerate(reversed(series), 1):
        if rank in held:
            break
        held.add(rank)
        low, high = min(low, rank), max(high, rank)
        if length < 2:
            continue
        span = high - low + 1
        if span == length:  # consecutive: the rank below or above makes a run of length + 1
            if low > 1:
                out[low - 1] = length + 1
            if high < 13:
                out[high + 1] = length + 1
        elif span == length + 1:  # one gap: the gap makes it
            out[(low + high) * span // 2 - sum(held)] = length + 1
    return tuple(out)


@lru_cache(maxsize=_MEMORY)
def _after(series: tuple[int, ...], rank: int) -> tuple[int, ...]:
    """The tail (``_tail``) of *series* once *rank* is laid on it."""
    return _tail((*series, rank))


def _tail(series: tuple[int, ...]) -> tuple[int, ...]:
    """The part of a series that can still score: its longest suffix of distinct ranks spanning
    at most seven ranks, with the last card's equal predecessors (for pairs) kept in front.

    A run in the play is at most seven cards (A-2-3-4-5-6-7 makes 28; eight distinct ranks
    make 36 or more), so ranks that spread the suffix over eight ranks or more can never be
    part of a run again: dropping them changes no score and lets more positions share a memo.
    """
    seen: set[int] = set()
    i = len(series)
    low = high = series[-1] if series else 0
    while i and series[i - 1] not in seen:
        rank = series[i - 1]
        low, high = min(low, rank), max(high, rank)
        if high - low >= 7:
            break
        seen.add(rank)
        i -= 1
    j = len(series) - 1
    while j > 0 and series[j - 1] == series[-1] and len(series) - j < 4:
        j -= 1
    return series[min(i, j) :]


@lru_cache(maxsize=_MEMORY)
def _greedy_order(series: tuple[int, ...], count: int) -> tuple[tuple[int, int, int], ...]:
    """The greedy policy's preference over the ranks that fit: (rank, mask, one) best first."""
    room = MAX_COUNT - count
    patterns = _patterns(series)
    keyed = []
    for rank in range(1, 14):
        pips = PIPS[rank]
        if pips <= room:
            after = count + pips
            points = patterns[rank] + (2 if after == 15 or after == MAX_COUNT else 0)
            keyed.append((points, after != 5 and after != 21, pips, rank))
    keyed.sort(reverse=True)
    return tuple(_BITS[key[3]] for key in keyed)


def _turn(
    mine: tuple[int, ...],
    belief: dict[int, int],
    opp_left: int,
    series: tuple[int, ...],
    count: int,
    turn: int,
    went: int,
    last: int,
    single: bool,
) -> int:
    """The net total (sum over the belief of weight x net points) with *turn* to act."""
    if not mine:
        # the player has no cards left: each holding plays out on its own (splitting the
        # belief pays only while the player still has choices to make)
        # (remembered by the table, then by the holding: one small key a holding)
        key = (opp_left, series, count, turn, went, last, single)
        played = _played.get(key)
        if played is None:
            _played[key] = played = {}
        total = 0
        for packed, weight in belief.items():
            value = played.get(packed)
            if value is None:
                played[packed] = value = _playout(
                    packed, opp_left, series, count, turn, went, last, single
                )
            total += weight * value
        return total
    if turn == ME:
        moves = _moves(mine, count)
        if not moves:
            return _go(mine, belief, opp_left, series, count, ME, went, last, single)
        weight = sum(belief.values())
        patterns = _patterns(series)
        best = None
        for rank, after, bonus, rest in moves:
            value = (patterns[rank] + bonus) * weight + _laid(
                ME, rank, rest, belief, opp_left, series, after, went, single
            )
            if best is None or value > best:
                best = value
        assert best is not None
        return best
    groups: dict[int, dict[int, int]] = {}
    stuck: dict[int, int] = {}
    order = _greedy_order(series, count)
    for packed, weight in belief.items():
        for rank, mask, one in order:
            if packed & mask:
                group = groups.get(rank)
                if group is None:
                    groups[rank] = group = {}
                group[packed - one] = weight
                break
        else:
            stuck[packed] = weight
    total = 0
    patterns = _patterns(series)
    for rank, group in groups.items():
        after = count + PIPS[rank]
        total -= (patterns[rank] + _BONUS[after]) * sum(group.values())
        total += _laid(OPP, rank, mine, group, opp_left - 1, series, after, went, single)
    if stuck:
        total += _go(mine, stuck, opp_left, series, count, OPP, went, last, single)
    return total


def _laid(
    who: int,
    rank: int,
    mine: tuple[int, ...],
    belief: dict[int, int],
    opp_left: int,
    before: tuple[int, ...],
    count: int,
    went: int,
    single: bool,
) -> int:
    """After *who* laid *rank* (already counted): the rest, with *mine*/*opp_left* after it."""
    if count == MAX_COUNT:
        return _reset(who, mine, belief, opp_left, 0, single)
    series = _after(before, rank)
    other = 1 - who
    if (opp_left if who == ME else mine) and not went >> other & 1:
        return _turn(mine, belief, opp_left, series, count, other, went, who, single)
    if mine if who == ME else opp_left:
        return _turn(mine, belief, opp_left, series, count, who, went, who, single)
    return _reset(who, mine, belief, opp_left, 1, single)


def _go(
    mine: tuple[int, ...],
    belief: dict[int, int],
    opp_left: int,
    series: tuple[int, ...],
    count: int,
    who: int,
    went: int,
    last: int,
    single: bool,
) -> int:
    """*who* says go."""
    went |= 1 << who
    other = 1 - who
    left = (len(mine), opp_left)
    if left[other] and not went >> other & 1:
        return _turn(mine, belief, opp_left, series, count, other, went, last, single)
    return _reset(last, mine, belief, opp_left, 1, single)


def _reset(
    closer: int,
    mine: tuple[int, ...],
    belief: dict[int, int],
    opp_left: int,
    point: int,
    single: bool,
) -> int:
    """The series ends: *closer* pegs *point* (go or last); a new series or the end."""
    weight = sum(belief.values())
    total = point * weight if closer == ME else -point * weight
    if single or not (mine or opp_left):
        return total
    other = 1 - closer
    leader = other if (mine, opp_left)[other] else closer
    return total + _fresh(mine, frozenset(belief.items()), opp_left, leader, single)


@cache
def _fresh(
    mine: tuple[int, ...], belief: frozenset[tuple[int, int]], opp_left: int, leader: int,
    single: bool,
) -> int:  # fmt: skip
    """A new series from count 0 (remembered: many orders of play reach the same one)."""
    return _turn(mine, dict(belief), opp_left, (), 0, leader, 0, -1, single)


_played: dict[tuple[int, tuple[int, ...], int, int, int, int, bool], dict[int, int]] = {}
"""The play-outs of single holdings once the player has no cards left, by table and holding."""


def _playout(
    packed: int,
    opp_left: int,
    series: tuple[int, ...],
    count: int,
    turn: int,
    went: int,
    last: int,
    single: bool,
) -> int:
    """The player's net points from here against one holding, once the player has no cards
    left: the opponent lays by its policy while it can, the player only says go."""
    total = 0
    left = [0, opp_left]
    while True:
        rank = 0
        if turn == OPP:
            for held, mask, one in _greedy_order(series, count):
                if packed & mask:
                    rank = held
                    packed -= one
                    break
        other = 1 - turn
        if rank:  # the opponent's card
            count += PIPS[rank]
            total -= _score(series, rank, count)
            series = _after(series, rank)
            left[turn] -= 1
            last = turn
            if count == MAX_COUNT:
                closer, point = turn, 0
            elif left[other] and not went >> other & 1:
                turn = other
                continue
            elif left[turn]:
                continue
            else:
                closer, point = turn, 1
        else:
            went |= 1 << turn
            if left[other] and not went >> other & 1:
                turn = other
                continue
            closer, point = last, 1
        total += point if closer == ME else -point
        if single or not (left[ME] or left[OPP]):
            return total
        turn = 1 - closer if left[1 - closer] else closer
        series, count, went, last = (), 0, 0, -1
