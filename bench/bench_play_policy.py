"""How much stronger the advised play is than greedy: duplicate deals and duplicate whole games.

Run: ``nice -n 19 .venv/bin/python bench/bench_play_policy.py [--deals N] [--games N]
[--seed S]`` (six-card). Issue 25 asks for 200,000 deals and 40,000 games (20,000 pairs); at
about 21 ms of CPU a deck (the advised seat searches every card it lays but the lead, which
comes from the shipped lead book, and reads greedy's choices) and 0.2 s a pair of games, that
is about 70 minutes each on one core: run the two as two processes (``--games 0``,
``--deals 0``) to use two.

**Deals.** Each deck is played three times from the same shuffle (the deck, the discards and
the starter do not depend on the play, and the discards are the exact advice's in every
case): greedy against greedy, the advised play dealing against greedy, and greedy dealing
against the advised play. A seat's *net pegging* is its points in the play minus the other
seat's. The gain as dealer is the advised dealer's net minus the greedy dealer's on the same
deck; as pone, likewise; each with the standard error of its mean over the decks.

**Games.** Each seed is a pair of whole games to 121 with the same sequence of decks: the
advised play in seat 0 (who deals first) and greedy in seat 1, then the seats swapped. The
advised play's share of the games won, with the standard error over the pairs.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pegboard.engine.rules import Rules  # noqa: E402
from pegboard.engine.selfplay import Advisor, DealTrace, PlayPolicy, Stage, play_deal  # noqa: E402

G, A = PlayPolicy.GREEDY, PlayPolicy.ADVISED


def net_play(trace: DealTrace, seat: int) -> int:
    """*seat*'s points in the play minus the other seat's."""
    return sum(
        peg.points if peg.seat == seat else -peg.points
        for peg in trace.pegs
        if peg.stage is Stage.PLAY
    )


def mean_se(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return statistics.fmean(values), math.nan
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))


def deals(rules: Rules, n: int, seed: int, advisor: Advisor, every: int) -> None:
    dealer_gain: list[int] = []
    pone_gain: list[int] = []
    base_dealer: list[int] = []
    adv_dealer: list[int] = []
    adv_pone: list[int] = []
    started = time.process_time()
    for i in range(n):
        deck_seed = seed * 1_000_003 + i

        def play(policies: tuple[PlayPolicy, PlayPolicy], seed: int = deck_seed) -> DealTrace:
            return play_deal(rules, 0, random.Random(seed), advisor, policies)

        base = net_play(play((G, G)), 0)  # seat 0 deals
        as_dealer = net_play(play((A, G)), 0)
        as_pone = net_play(play((G, A)), 1)
        base_dealer.append(base)
        adv_dealer.append(as_dealer)
        adv_pone.append(as_pone)
        dealer_gain.append(as_dealer - base)
        pone_gain.append(as_pone - (-base))
        if (i + 1) % every == 0 or i + 1 == n:
            cpu = time.process_time() - started
            _print_deals(i + 1, seed, cpu, base_dealer, adv_dealer, adv_pone, dealer_gain,
                         pone_gain)  # fmt: skip


def _print_deals(
    n: int,
    seed: int,
    cpu: float,
    base_dealer: list[int],
    adv_dealer: list[int],
    adv_pone: list[int],
    dealer_gain: list[int],
    pone_gain: list[int],
) -> None:
    print(f"six-card, {n:,} duplicate deals (seed {seed}), {cpu / n * 1000:.0f} ms CPU a deck")
    for label, values in (
        ("greedy dealer's net pegging against greedy", base_dealer),
        ("advised dealer's net pegging against greedy", adv_dealer),
        ("advised pone's net pegging against greedy", adv_pone),
        ("gain as dealer (advised - greedy, same deck)", dealer_gain),
        ("gain as pone (advised - greedy, same deck)", pone_gain),
    ):
        mean, se = mean_se([float(v) for v in values])
        print(f"  {label:<46} {mean:+.3f} a deal (standard error {se:.3f})")
    both = [(d + p) / 2 for d, p in zip(dealer_gain, pone_gain, strict=True)]
    mean, se = mean_se(both)
    print(f"  {'gain, the two seats averaged':<46} {mean:+.3f} a deal (standard error {se:.3f})")
    sys.stdout.flush()


def game(rules: Rules, seed: int, policies: tuple[PlayPolicy, PlayPolicy], advisor: Advisor) -> int:
    """The seat that wins a game to the target, seat 0 dealing first; decks from *seed*."""
    rng = random.Random(seed)
    scores = [0, 0]
    dealer = 0
    while True:
        trace = play_deal(rules, dealer, rng, advisor, policies)
        for peg in trace.pegs:
            scores[peg.seat] += peg.points
            if scores[peg.seat] >= rules.target:
                return peg.seat
        dealer = 1 - dealer


def games(rules: Rules, n: int, seed: int, advisor: Advisor, every: int) -> None:
    pairs = []
    started = time.process_time()
    for i in range(n):
        game_seed = seed * 1_000_003 + 500_000 + i
        first = game(rules, game_seed, (A, G), advisor) == 0
        second = game(rules, game_seed, (G, A), advisor) == 1
        pairs.append((first + second) / 2)
        if (i + 1) % every == 0 or i + 1 == n:
            cpu = time.process_time() - started
            mean, se = mean_se(pairs)
            print(
                f"six-card, {i + 1:,} pairs of duplicate games ({2 * (i + 1):,} games, seed "
                f"{seed}), {cpu / (i + 1):.1f} s CPU a pair"
            )
            print(f"  advised play's share of the games won against greedy: {mean:.2%} "
                  f"(standard error {se:.2%})", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="duplicate decks")
    parser.add_argument("--games", type=int, default=200, help="pairs of duplicate games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=1000, help="print the figures so far")
    args = parser.parse_args()
    rules = Rules.six_card()
    advisor = Advisor(rules)
    if args.deals:
        deals(rules, args.deals, args.seed, advisor, args.every)
    if args.games:
        games(rules, args.games, args.seed, advisor, max(1, args.every // 10))


if __name__ == "__main__":
    main()
