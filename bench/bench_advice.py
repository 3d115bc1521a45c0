"""How fast is exact discard advice? Prints figures; the target is 25 ms for a six-card hand.

Usage: ``.venv/bin/python bench/bench_advice.py [--hands N] [--seed S]``

1. A fresh interpreter imports the engine and advises one hand (the caches start empty).
2. This process advises N random hands per variant (fixed seed): every call on first sight,
   caches filling as they go, then the same hands again with warm caches.
3. One brute-force computation of the same advice (every starter and every set of unknown crib
   cards scored with ``score_total``), timed in this process, for the speed ratio.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pegboard.engine.advice import advise
from pegboard.engine.cards import DECK, Card, format_cards
from pegboard.engine.rules import Rules, Variant
from pegboard.engine.scoring import score_total

TARGET_MS = 25.0

FRESH = """
import sys, time
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
from pegboard.engine.advice import advise
from pegboard.engine.cards import parse_cards
from pegboard.engine.rules import Rules
t1 = time.perf_counter()
advise(parse_cards({hand!r}), rules=Rules.for_variant({variant!r}), dealer=True)
t2 = time.perf_counter()
advise(parse_cards({hand!r}), rules=Rules.for_variant({variant!r}), dealer=True)
t3 = time.perf_counter()
print((t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3)
"""


def fresh_process(hand: str, variant: Variant) -> tuple[float, float, float]:
    """Import time, first advice and the same advice again, in a new interpreter (ms)."""
    root = str(Path(__file__).resolve().parent.parent)
    code = FRESH.format(root=root, hand=hand, variant=variant.value)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    imported, first, again = (float(x) for x in out.stdout.split())
    return imported, first, again


def brute_force(dealt: Sequence[Card], rules: Rules) -> list[tuple[float, float]]:
    """Mean hand and crib points of every discard, by scoring every possible deal."""
    unseen = [card for card in DECK if card not in dealt]
    unknown = rules.crib_size - rules.discards
    results = []
    for discard in itertools.combinations(dealt, rules.discards):
        keep = [card for card in dealt if card not in discard]
        hand = sum(score_total(keep, starter) for starter in unseen) / len(unseen)
        total = deals = 0
        for starter in unseen:
            others = [card for card in unseen if card is not starter]
            for drawn in itertools.combinations(others, unknown):
                total += score_total((*discard, *drawn), starter, crib=True, rules=rules)
                deals += 1
        results.append((hand, total / deals))
    return results


def time_hands(hands: list[list[Card]], rules: Rules) -> list[float]:
    """Milliseconds for each hand's full advice."""
    times = []
    for i, hand in enumerate(hands):
        start = time.perf_counter()
        advise(hand, rules=rules, dealer=i % 2 == 0)
        times.append((time.perf_counter() - start) * 1e3)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    median = statistics.median(ordered)
    return (
        f"median {median:6.2f} ms  p90 {p90:6.2f} ms  max {ordered[-1]:6.2f} ms  "
        f"(median is {median / TARGET_MS:.3f} of the {TARGET_MS:g} ms target)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="random hands per variant")
    parser.add_argument("--seed", type=int, default=2024, help="seed for the random hands")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(
        f"python {sys.version.split()[0]}, {args.hands} random hands per variant, seed {args.seed}"
    )

    # four-handed, two-against-one and two-in-the-crib deal like three-handed: five cards, one
    # to the crib, three crib cards unknown, so they cost exactly the same
    variants = [Variant.SIX_CARD, Variant.FIVE_CARD, Variant.THREE_HANDED]
    print("\nfresh interpreter (import / first advice / same advice again):")
    for variant in variants:
        rules = Rules.for_variant(variant)
        shown = format_cards(random.Random(args.seed).sample(DECK, rules.dealt))
        imported, first, again = fresh_process(shown, variant)
        print(
            f"  {variant.value:14} import {imported:6.1f} ms  first {first:6.2f} ms  "
            f"again {again:6.2f} ms  ({shown})"
        )

    print("\nrandom hands in this process (first sight, then warm):")
    for variant in variants:
        rules = Rules.for_variant(variant)
        hands = [rng.sample(DECK, rules.dealt) for _ in range(args.hands)]
        print(f"  {variant.value:14} first {summary(time_hands(hands, rules))}")
        print(f"  {'':14} warm  {summary(time_hands(hands, rules))}")

    rules = Rules.six_card()
    hand = rng.sample(DECK, rules.dealt)
    start = time.perf_counter()
    brute_force(hand, rules)
    brute = time.perf_counter() - start
    start = time.perf_counter()
    runs = 20
    for _ in range(runs):
        advise(hand, rules=rules, dealer=True)
    fast = (time.perf_counter() - start) / runs
    print(
        f"\nbrute force, six-card {format_cards(hand)}: {brute * 1e3:.0f} ms "
        f"(683,100 crib scorings) vs advise {fast * 1e3:.3f} ms: {brute / fast:,.0f}x faster"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
