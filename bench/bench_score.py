"""Scoring speed: pegboard's show totals side by side with the PyPI package cribbage-scorer.

Run: ``.venv/bin/python bench/bench_score.py`` (needs ``.venv/bin/pip install cribbage-scorer``
for the comparison; the engine never depends on it). Both score the same 20,000 random deals
(fixed seed), as hands and as cribs, and must agree on every total.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence

from pegboard.engine import DECK, Card, score_hand, score_total

DEALS = 20_000
SEED = 20240229
ROUNDS = 5

Deal = tuple[list[Card], Card]


def make_deals() -> list[Deal]:
    rng = random.Random(SEED)
    deals = []
    for _ in range(DEALS):
        *hand, starter = rng.sample(DECK, 5)
        deals.append((hand, starter))
    return deals


def race(rounds: int, *runs: Callable[[], list[int]]) -> list[tuple[float, list[int]]]:
    """The fastest of *rounds* runs of each, in seconds, with the totals it returned.

    The runs take turns round by round, so a busy machine slows them alike.
    """
    best = [float("inf")] * len(runs)
    totals: list[list[int]] = [[] for _ in runs]
    for _ in range(rounds):
        for i, run in enumerate(runs):
            start = time.perf_counter()
            totals[i] = run()
            best[i] = min(best[i], time.perf_counter() - start)
    return list(zip(best, totals, strict=True))


def ours(deals: Sequence[Deal], crib: bool) -> Callable[[], list[int]]:
    return lambda: [score_total(hand, starter, crib=crib) for hand, starter in deals]


def main() -> int:
    deals = make_deals()
    python = sys.version.split()[0]
    print(f"{DEALS:,} random deals (seed {SEED}), best of {ROUNDS} rounds, Python {python}")

    start = time.perf_counter()
    ours(deals, False)()
    first = time.perf_counter() - start
    print(f"pegboard score_total, first round (fills its rank cache): {first:.3f} s")

    start = time.perf_counter()
    itemised = [score_hand(hand, starter).total for hand, starter in deals]
    per_hand = (time.perf_counter() - start) / DEALS * 1e6
    print(f"pegboard score_hand (itemised breakdown): {per_hand:.1f} µs per hand")

    try:
        from cribbage_scorer import cribbage_scorer  # type: ignore[import-untyped]
    except ImportError:
        print(
            "cribbage-scorer is not installed, so there is nothing to compare with:\n"
            "    .venv/bin/pip install cribbage-scorer",
            file=sys.stderr,
        )
        return 1

    # cribbage-scorer takes cards as (rank 1..13, suit letter) and the starter first
    theirs_deals = [
        ([(c.rank.value, c.suit.value) for c in hand], (starter.rank.value, starter.suit.value))
        for hand, starter in deals
    ]
    status = 0
    for crib in (False, True):

        def theirs(crib: bool = crib) -> list[int]:
            return [
                cribbage_scorer.show_calc_score(starter, hand, crib)[0]
                for hand, starter in theirs_deals
            ]

        (our_time, our_totals), (their_time, their_totals) = race(ROUNDS, ours(deals, crib), theirs)
        what = "crib" if crib else "hand"
        print(f"\nas a {what}:")
        for name, took in (("pegboard score_total", our_time), ("cribbage-scorer", their_time)):
            print(f"  {name:20}  {took:8.4f} s  {took / DEALS * 1e6:6.2f} µs per deal")
        print(f"  pegboard is {their_time / our_time:.1f}x faster (goal: at least 10x)")
        differ = [
            (hand, starter, a, b)
            for (hand, starter), a, b in zip(deals, our_totals, their_totals, strict=True)
            if a != b
        ]
        print(f"  totals that differ: {len(differ)} of {DEALS:,}")
        for hand, starter, a, b in differ[:5]:
            cards = " ".join(map(str, hand))
            print(f"    {cards} starter {starter}: pegboard {a}, cribbage-scorer {b}")
        if differ:
            status = 1
    if itemised != ours(deals, False)():
        print("score_hand and score_total disagree!", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
