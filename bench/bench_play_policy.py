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

**Reading** (``--reading N``, 0 by default). The advised play reads the other seat's cards as
greedy's choices. Against another advised seat (the odds self-play) that model is wrong, so
this asks what reading is worth there: each deck is played three times with both seats
advised, the other seat always reading (as the self-play plays): both reading, the dealer not
reading, the pone not reading. The gain from reading is the reading seat's net pegging minus
the plain seat's on the same deck, with its standard error.
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

from pegboard.engine.cards import Card  # noqa: E402
from pegboard.engine.play import PlayState  # noqa: E402
from pegboard.engine.playadvice import advise_play  # noqa: E402
from pegboard.engine.rules import Rules  # noqa: E402
from pegboard.engine.selfplay import (  # noqa: E402
    Advisor,
    DealTrace,
    PlayPolicy,
    Stage,
    crib_owner,
    deal_cards,
    play_deal,
)

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


def advised_net(rules: Rules, advisor: Advisor, seed: int, reads: tuple[bool, bool]) -> int:
    """The dealer's (seat 1's) net pegging on the deck of *seed*, both seats advised, seat *s*
    reading the other's cards when reads[s] (the lead from the book either way)."""
    dealer = 1
    dealt, _, starter = deal_cards(rules, random.Random(seed))
    hands = [advisor.best(cards, crib_owner(rules, seat, dealer)) for seat, cards in
             enumerate(dealt)]  # fmt: skip
    discards = [[c for c in cards if c not in hands[s]] for s, cards in enumerate(dealt)]
    state = PlayState.start(rules, dealer, starter=starter, hands=hands)
    actions: list[Card | None] = []
    net = 0
    while not state.is_over:
        seat = state.turn
        assert seat is not None and state.hands is not None
        if actions:
            advice = advise_play(tuple(state.hands[seat]), actions, starter,
                                 dealer=seat == dealer, rules=rules, seen=discards[seat],
                                 reads=reads[seat])  # fmt: skip
            card = advice.options[0].card
        else:
            card = advisor.lay(state, actions, discards[seat])
        actions.append(card)
        state, scores = state.go() if card is None else state.play(card)
        net += sum(s.points if s.seat == dealer else -s.points for s in scores)
    return net


def reading(rules: Rules, n: int, seed: int, advisor: Advisor, every: int) -> None:
    dealer_gain: list[float] = []
    pone_gain: list[float] = []
    started = time.process_time()
    for i in range(n):
        deck_seed = seed * 1_000_003 + 900_000 + i
        both = advised_net(rules, advisor, deck_seed, (True, True))
        dealer_plain = advised_net(rules, advisor, deck_seed, (True, False))
        pone_plain = advised_net(rules, advisor, deck_seed, (False, True))
        dealer_gain.append(both - dealer_plain)
        pone_gain.append(pone_plain - both)  # the pone's net is minus the dealer's
        if (i + 1) % every == 0 or i + 1 == n:
            cpu = time.process_time() - started
            print(f"six-card, {i + 1:,} duplicate decks, both seats advised, the other seat "
                  f"reading (seed {seed}), {cpu / (i + 1) * 1000:.0f} ms CPU a deck")  # fmt: skip
            for label, values in (("as dealer", dealer_gain), ("as pone", pone_gain)):
                mean, se = mean_se(values)
                print(f"  gain from reading {label:<9} {mean:+.3f} a deal (standard error "
                      f"{se:.3f})", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="duplicate decks")
    parser.add_argument("--games", type=int, default=200, help="pairs of duplicate games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reading", type=int, default=0, help="decks for the reading's worth")
    parser.add_argument("--every", type=int, default=1000, help="print the figures so far")
    args = parser.parse_args()
    rules = Rules.six_card()
    advisor = Advisor(rules)
    if args.deals:
        deals(rules, args.deals, args.seed, advisor, args.every)
    if args.games:
        games(rules, args.games, args.seed, advisor, max(1, args.every // 10))
    if args.reading:
        reading(rules, args.reading, args.seed, advisor, args.every)


if __name__ == "__main__":
    main()
