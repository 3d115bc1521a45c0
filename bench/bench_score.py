"""Scoring speed: pegboard's show scorers side by side with the PyPI package cribbage-scorer.

Run: ``.venv/bin/python bench/bench_score.py`` (needs ``.venv/bin/pip install cribbage-scorer``
for the comparison; the engine never depends on it). Both score the same 20,000 random deals
(fixed seed), as hands and as cribs, in two races in one process:

- totals: pegboard's ``score_total`` against cribbage-scorer's ``show_calc_score`` (goal: 10x);
- the itemised breakdown: pegboard's ``score_hand`` (every item with its cards) against the
  same ``show_calc_score``, which gives its total with a text breakdown (goal: 3x).

They must agree on every total, and on the items of every deal: cribbage-scorer's text is read
back into items (each fifteen with its cards, each pair with its rank, each run with its
length, the flush with its points, nobs) and compared with pegboard's items read the same way.
"""

from __future__ import annotations

import ast
import itertools
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence

from pegboard.engine import DECK, Breakdown, Card, score_hand, score_total

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


def ours_itemised(deals: Sequence[Deal], crib: bool) -> Callable[[], list[int]]:
    return lambda: [score_hand(hand, starter, crib=crib).total for hand, starter in deals]


# --- the items, as both breakdowns hold them -----------------------------------------------

Item = tuple[object, ...]
"""One scoring combination as far as both breakdowns tell it: ("fifteen", its cards),
("pair", rank), ("run", length), ("flush", points) or ("nobs",)."""


def our_items(breakdown: Breakdown) -> Counter[Item]:
    items: Counter[Item] = Counter()
    for item in breakdown.items:
        kind = item.kind.value
        if kind == "fifteen":
            items[kind, frozenset((c.rank.value, c.suit.value) for c in item.cards)] += 1
        elif kind == "pair":
            items[kind, item.cards[0].rank.value] += 1
        elif kind in ("run", "flush"):
            items[kind, item.points] += 1
        else:
            items[(kind,)] += 1
    return items


_THEIR_RANKS = {"Ace": 1, "Jack": 11, "Queen": 12, "King": 13}
_THEIR_PAIRS = {"Double": 1, "Three of a kind:": 3, "Four of a kind:": 6}  # pairs in each
_THEIR_PAIR = re.compile(r"(Double|Three of a kind:|Four of a kind:) (\w+)s \(\d+pts\)")
_THEIR_RUN = re.compile(r"Run of (\d+) cards \(\d+pts\)")
_THEIR_MULTI_RUN = re.compile(r"Multi-run: (\[.*\]) \((\d+)pts\)")
_THEIR_FIFTEEN = re.compile(r"Made 15 from (\[.*\]) \(2pts\)")
_THEIR_OTHER: dict[str, Item] = {
    "Five card flush. (5pts)": ("flush", 5),
    "Four card flush (4pts)": ("flush", 4),
    "One for his nobs (1pt)": ("nobs",),
}


def _their_rank(name: str | int) -> int:
    """A rank as cribbage-scorer names it (5, "5", "Ace", "King") as 1..13."""
    return _THEIR_RANKS[name] if name in _THEIR_RANKS else int(name)


def their_items(text: str) -> Counter[Item]:
    """cribbage-scorer's text breakdown read back into items.

    Its parts, split on "|": "Made 15 from [(5, 'H'), (11, 'C')] (2pts)", one fifteen with its
    cards; "Double 5s (2pts)", "Three of a kind: 5s (6pts)", "Four of a kind: 5s (12pts)", one,
    three or six pairs of a rank; "Run of 4 cards (4pts)", one run; "Multi-run: [3, 3, 4, 4, 5]
    (12pts)", that many points of runs as long as the longest stretch of ranks it lists;
    "Five card flush. (5pts)", "Four card flush (4pts)"; "One for his nobs (1pt)".
    """
    items: Counter[Item] = Counter()
    for part in text.split("|") if text else ():
        if match := _THEIR_FIFTEEN.fullmatch(part):
            items["fifteen", frozenset(ast.literal_eval(match[1]))] += 1
        elif match := _THEIR_PAIR.fullmatch(part):
            items["pair", _their_rank(match[2])] += _THEIR_PAIRS[match[1]]
        elif match := _THEIR_RUN.fullmatch(part):
            items["run", int(match[1])] += 1
        elif match := _THEIR_MULTI_RUN.fullmatch(part):
            ranks = sorted({_their_rank(name) for name in ast.literal_eval(match[1])})
            length = longest = 1
            for low, high in itertools.pairwise(ranks):
                length = length + 1 if high == low + 1 else 1
                longest = max(longest, length)
            items["run", longest] += int(match[2]) // longest
        elif part in _THEIR_OTHER:
            items[_THEIR_OTHER[part]] += 1
        else:
            raise ValueError(f"cribbage-scorer said something unknown: {part!r}")
    return items


def main() -> int:
    deals = make_deals()
    python = sys.version.split()[0]
    print(f"{DEALS:,} random deals (seed {SEED}), best of {ROUNDS} rounds, Python {python}")

    # the first round of each fills its cache, by multiset of ranks: the points of fifteens,
    # pairs and runs for score_total, the template of their items for score_hand
    for name, first_round in (
        ("score_total", ours(deals, False)),
        ("score_hand", ours_itemised(deals, False)),
    ):
        start = time.perf_counter()
        first_round()
        took = time.perf_counter() - start
        print(
            f"pegboard {name}, first round (fills its cache of ranks): {took:.3f} s, "
            f"{took / DEALS * 1e6:.2f} µs per deal"
        )

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

        what = "crib" if crib else "hand"
        races = (
            ("totals", "score_total", ours(deals, crib), 10),
            ("itemised breakdown", "score_hand", ours_itemised(deals, crib), 3),
        )
        for race_name, our_name, our_run, goal in races:
            (our_time, our_totals), (their_time, their_totals) = race(ROUNDS, our_run, theirs)
            print(f"\n{race_name}, as a {what}:")
            for name, took in ((f"pegboard {our_name}", our_time), ("cribbage-scorer", their_time)):
                print(f"  {name:20}  {took:8.4f} s  {took / DEALS * 1e6:6.2f} µs per deal")
            ratio = their_time / our_time
            met = "met" if ratio >= goal else "NOT met"
            print(f"  pegboard is {ratio:.1f}x faster (goal: at least {goal}x, {met})")
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

        # the same items, deal by deal (untimed)
        unlike = []
        for (hand, starter), (their_hand, their_starter) in zip(deals, theirs_deals, strict=True):
            mine = our_items(score_hand(hand, starter, crib=crib))
            text = cribbage_scorer.show_calc_score(their_starter, their_hand, crib)[1]
            if mine != (told := their_items(text)):
                unlike.append((hand, starter, mine, told))
        print(f"  breakdowns whose items differ: {len(unlike)} of {DEALS:,}")
        for hand, starter, mine, told in unlike[:5]:
            cards = " ".join(map(str, hand))
            print(f"    {cards} starter {starter}: pegboard {dict(mine)}")
            print(f"    {'':{len(cards) + 10}} cribbage-scorer {dict(told)}")
        if unlike:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
