"""A deliberately simple show scorer, written apart from the engine, to check it against.

It knows nothing of ``pegboard``: a card is a ``(rank, suit)`` pair with rank 1 (ace) to 13
(king) and any suit label. Every rule is tried the slow, obvious way, over all subsets.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

BruteCard = tuple[int, str]

_RANKS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}


def brute_card(text: str) -> BruteCard:
    """'5H' -> (5, 'H'); '10D' and 'TD' -> (10, 'D'); 'QS' -> (12, 'S')."""
    label, suit = text[:-1].upper(), text[-1].upper()
    return (_RANKS[label] if label in _RANKS else int(label)), suit


def pip_value(rank: int) -> int:
    return 10 if rank > 10 else rank


def brute_fifteens(cards: Sequence[BruteCard]) -> int:
    points = 0
    for size in range(1, len(cards) + 1):
        for subset in combinations(cards, size):
            if sum(pip_value(rank) for rank, _ in subset) == 15:
                points += 2
    return points


def brute_pairs(cards: Sequence[BruteCard]) -> int:
    return sum(2 for a, b in combinations(cards, 2) if a[0] == b[0])


def brute_runs(cards: Sequence[BruteCard]) -> int:
    # the longest runs win: try five cards, then four, then three, and stop at the first
    # length that has any run (shorter runs inside a longer one never count)
    for size in range(len(cards), 2, -1):
        found = 0
        for subset in combinations(cards, size):
            ranks = sorted(rank for rank, _ in subset)
            if all(ranks[i + 1] == ranks[i] + 1 for i in range(size - 1)):
                found += size
        if found:
            return found
    return 0


def brute_flush(
    hand: Sequence[BruteCard], starter: BruteCard, crib: bool, five_card: bool = False
) -> int:
    if crib:
        # a crib flush needs all five cards (crib and starter) of one suit; it is worth 5, but
        # 4 in five-card cribbage ("ein Flush in der Crib 4", the German document)
        if len({suit for _, suit in [*hand, starter]}) != 1:
            return 0
        return 4 if five_card else 5
    # a hand flush: every hand card of one suit, one point each, and one more for the starter
    hand_suits = {suit for _, suit in hand}
    if len(hand_suits) != 1:
        return 0
    if starter[1] in hand_suits:
        return len(hand) + 1
    return len(hand)


def brute_nobs(hand: Sequence[BruteCard], starter: BruteCard) -> int:
    return 1 if (11, starter[1]) in hand else 0


def brute_score(
    hand: Sequence[BruteCard], starter: BruteCard, crib: bool = False, five_card: bool = False
) -> int:
    """The show total of *hand* with *starter*, the slow and obvious way.

    *five_card*: the hand or crib is from five-card cribbage (it changes only the crib flush).
    """
    cards = [*hand, starter]
    return (
        brute_fifteens(cards)
        + brute_pairs(cards)
        + brute_runs(cards)
        + brute_flush(hand, starter, crib, five_card)
        + brute_nobs(hand, starter)
    )


BruteItem = tuple[str, tuple[BruteCard, ...], int]
"""One scoring combination: its kind ("fifteen", "pair", "run", "flush", "nobs"), its cards and
its points."""


def brute_items(
    hand: Sequence[BruteCard], starter: BruteCard, crib: bool = False, five_card: bool = False
) -> list[BruteItem]:
    """Every scoring combination of *hand* with *starter*, the slow and obvious way.

    The order is the one players count in: fifteens (two cards, then three, ...), pairs, runs,
    flush, nobs; within a kind the combinations come as ``itertools.combinations`` takes them
    from the cards sorted by rank then suit letter (C, D, H, S), and so do each item's cards.
    """
    cards = sorted([*hand, starter])
    items: list[BruteItem] = []
    for size in range(2, len(cards) + 1):
        for subset in combinations(cards, size):
            if sum(pip_value(rank) for rank, _ in subset) == 15:
                items.append(("fifteen", subset, 2))
    for a, b in combinations(cards, 2):
        if a[0] == b[0]:
            items.append(("pair", (a, b), 2))
    # the longest runs win, as in brute_runs: every run of that length, none shorter
    for size in range(len(cards), 2, -1):
        runs = [
            subset
            for subset in combinations(cards, size)
            if all(subset[i + 1][0] == subset[i][0] + 1 for i in range(size - 1))
        ]
        if runs:
            items.extend(("run", run, size) for run in runs)
            break
    flush = brute_flush(hand, starter, crib, five_card)
    if flush:
        # the starter belongs to the flush when it has the hand's suit
        with_starter = all(suit == starter[1] for _, suit in hand)
        items.append(("flush", tuple(cards) if with_starter else tuple(sorted(hand)), flush))
    items.extend(("nobs", (card,), 1) for card in hand if card == (11, starter[1]))
    return items
