"""Win probability: the shipped tables against whole games played out, and how fast they answer.

Usage: ``.venv/bin/python bench/bench_odds.py [--games N] [--grid-games N] [--variant NAME ...]
[--play advised|greedy]``
(run it pinned and at low priority on a shared machine: ``taskset -c 1 nice -n 19``). The
default six-card run with ``--play greedy`` takes about ten minutes; with the advised play
(14 ms of CPU a deal, about nine deals a game) the 40,000 games from the start alone take
about 80 minutes of CPU.

1. The engine's own state machine plays ``--check`` whole games (``apply`` with ``Starter``,
   ``Play``, ``Go``, ``Show`` and ``Crib`` commands; the players follow ``selfplay``'s policy,
   the play the tables were made from: ``--play``, advised by default as ``make odds``),
   and the same deals are pegged again from their traces in the game's order: the winners must
   agree game for game. That ties the fast replay below to the engine's rules of who wins when.
2. ``--games`` games from the start of a game (the first dealer's chance; five-card: the pone's
   three for last is pegged first; two against one: the pair's first seat deals, the solo on 60)
   and ``--grid-games`` from each of a grid of positions, played out by the fast replay. Prints
   the table's chance, the games' share, the difference and its standard error (the games'
   share's if the table is right: the table's own, from a million deals, is far smaller).
   Each row then says two things apart: whether the difference is within the issue's target
   (0.5 points from the start, 2 on the grid), and whether it is beyond three standard errors
   (not noise) or within them (it may be noise: with 40,000 games a standard error is about
   0.25 points, with a few thousand about 1). A row beyond its target says so even when that
   is within the noise: more games tell which.
3. The time of a table lookup and of the in-deal updates, and of the first load.
"""

from __future__ import annotations

import argparse
import math
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pegboard.engine import odds
from pegboard.engine.cards import Card
from pegboard.engine.commands import Crib, Cut, Go, NextDeal, Peg, Play, Show, Starter
from pegboard.engine.game import GameState, Phase, apply, show_order
from pegboard.engine.play import PlayState
from pegboard.engine.rules import Rules, Variant
from pegboard.engine.selfplay import (
    Advisor,
    PlayPolicy,
    crib_owner,
    deal_cards,
    lay_card,
    play_deal,
    seat_plays,
)

GRID = [(0, 0), (30, 45), (60, 60), (80, 95), (95, 80), (100, 100), (110, 115), (115, 110)]
GRID += [(118, 118), (119, 120), (120, 119), (120, 120)]


def start_of_game(rules: Rules) -> tuple[int, int, int]:
    """(dealer seat, dealer side's score, other side's score) when a game starts."""
    if rules.variant is Variant.TWO_AGAINST_ONE:
        return 0, 0, 60
    return 0, 0, rules.pone_bonus  # five-card: the pone's three for last


def replay_game(
    rules: Rules,
    dealer: int,
    scores: list[int],
    rng: random.Random,
    advisor: Advisor,
    play: PlayPolicy = PlayPolicy.ADVISED,
) -> int:
    """The winning side of a game from *scores* (per side), *dealer* to deal: each deal's pegs
    in the game's order until a side reaches the target."""
    while True:
        for peg in play_deal(rules, dealer, rng, advisor, seat_plays(rules, play)).pegs:
            side = rules.side_of(peg.seat)
            scores[side] += peg.points
            if scores[side] >= rules.target:
                return side
        dealer = (dealer + 1) % rules.players


def engine_game(
    rules: Rules,
    dealer: int,
    scores: list[int],
    rng: random.Random,
    advisor: Advisor,
    play: PlayPolicy = PlayPolicy.ADVISED,
) -> int:
    """The same game through the engine's state machine (``apply``): the winning side."""
    state = GameState.new(rules)
    side = rules.side_of(dealer)
    low, high = Card.parse("AH"), Card.parse("KH")
    state, _ = apply(state, Cut(tuple(low if s == side else high for s in range(rules.sides))))
    while state.table.dealer != dealer:  # two against one: the pair's second seat
        state, _ = apply(state, NextDeal())
    for s, score in enumerate(scores):
        while score > state.table.scores[s]:
            points = min(61, score - state.table.scores[s])
            state, _ = apply(state, Peg(s, points))
    while state.phase is not Phase.GAME_OVER:
        seat = state.table.dealer
        assert seat is not None
        dealt, crib, starter = deal_cards(rules, rng)
        hands = []
        discards = []
        for who, cards in enumerate(dealt):
            keep = advisor.best(cards, crib_owner(rules, who, seat))
            hands.append(keep)
            discards.append([card for card in cards if card not in keep])
            crib.extend(discards[-1])
        state, _ = apply(state, Starter(starter))
        known = PlayState.start(rules, seat, starter=starter, hands=hands)
        policies = seat_plays(rules, play)
        actions: list[Card | None] = []
        while state.phase is Phase.PLAY:
            mover = known.turn
            assert mover is not None
            card = lay_card(policies[mover], advisor, known, actions, discards[mover])
            actions.append(card)
            if card is None:
                known, _ = known.go()
                state, _ = apply(state, Go())
            else:
                known, _ = known.play(card)
                state, _ = apply(state, Play(card))
        order = show_order(rules, seat)
        while state.phase is Phase.SHOW:
            up = order[state.table.show_step]
            command = Crib(tuple(crib)) if up is None else Show(hands[up])
            state, _ = apply(state, command)
    return state.table.finished[-1].result.winner


def check_engine(variant: Variant, games: int, play: PlayPolicy = PlayPolicy.ADVISED) -> None:
    rules = Rules.for_variant(variant)
    seat, mine, theirs = start_of_game(rules)
    side = rules.side_of(seat)
    scores = [theirs, theirs]
    scores[side] = mine
    advisor = Advisor(rules)
    started = time.perf_counter()
    agree = 0
    for n in range(games):
        by_engine = engine_game(rules, seat, list(scores), random.Random(n), advisor, play)
        by_replay = replay_game(rules, seat, list(scores), random.Random(n), advisor, play)
        agree += by_engine == by_replay
    took = time.perf_counter() - started
    print(
        f"{variant.value}: the engine's state machine and the replay agree on {agree}/{games} "
        f"games ({took:.0f} s)"
    )
    if agree != games:
        raise SystemExit("the replay does not follow the engine")


START_LIMIT = 0.005
"""The issue's target for the difference from the start of a game (many games)."""
GRID_LIMIT = 0.02
"""The target for the difference at a grid position (fewer games)."""
SIGMAS = 3
"""A difference beyond this many standard errors is not noise."""


def within_target(diff: float, limit: float) -> bool:
    """Whether a difference between the table and the games is within the target *limit*."""
    return abs(diff) <= limit


def beyond_noise(diff: float, error: float) -> bool:
    """Whether a difference is beyond ``SIGMAS`` standard errors *error* of the games' share
    (so not noise)."""
    return abs(diff) > SIGMAS * error


def verdict(diff: float, error: float, limit: float) -> str:
    """What a row says of its difference: the target, then the noise, each in plain words."""
    target = "within" if within_target(diff, limit) else "BEYOND"
    noise = "not noise" if beyond_noise(diff, error) else "may be noise"
    above = "beyond" if beyond_noise(diff, error) else "within"
    return f"{target} the {limit * 100:g}-point target; {above} {SIGMAS} s.e. ({noise})"


def compare(
    variant: Variant,
    games: int,
    grid_games: int,
    seed: int,
    play: PlayPolicy = PlayPolicy.ADVISED,
) -> None:
    rules = Rules.for_variant(variant)
    seat, mine, theirs = start_of_game(rules)
    position = seat if variant is Variant.TWO_AGAINST_ONE else 0
    advisor = Advisor(rules)
    rng = random.Random(seed)
    played = seat_plays(rules, play)[0].value
    print(f"{variant.value}: table against games played out ({played} play; the dealer's side's "
          "chance)")  # fmt: skip
    print(
        f"  each row: is the difference within the target ({START_LIMIT * 100:g} points from "
        f"the start, {GRID_LIMIT * 100:g} on the grid), and is it beyond {SIGMAS} standard "
        "errors (not noise)?"
    )
    print(f"  {'position':>10} {'games':>7} {'table':>8} {'games':>8} {'diff':>7} {'s.e.':>6}")
    grid = [(mine, theirs)] + [(d, p) for d, p in GRID if rules.target == 121 and (d, p) != (0, 0)]
    if rules.target == 61:
        grid += [(30, 30), (50, 55), (55, 50), (59, 60), (60, 60)]
    worst = 0.0
    beyond: list[str] = []
    started = time.perf_counter()
    for n, (d, p) in enumerate(grid):
        if variant is Variant.TWO_AGAINST_ONE and p < 60:
            continue  # the solo never has fewer than 60
        count = games if n == 0 else grid_games
        side = rules.side_of(seat)
        wins = 0
        for _ in range(count):
            scores = [p, p]
            scores[side] = d
            wins += replay_game(rules, seat, scores, rng, advisor, play) == side
        share = wins / count
        table = odds.start_of_deal(variant, d, p, position=position)
        # the games' share's standard error if the table is right (the observed share's own
        # would be 0 when no game, or every game, was won)
        error = math.sqrt(table * (1 - table) / count)
        diff = table - share
        worst = max(worst, abs(diff))
        limit = START_LIMIT if n == 0 else GRID_LIMIT
        if not within_target(diff, limit):
            beyond.append(f"{d}-{p}")
        print(
            f"  {f'{d}-{p}':>10} {count:>7} {table:8.2%} {share:8.2%} {diff * 100:+7.2f} "
            f"{error * 100:6.2f}  {verdict(diff, error, limit)}",
            flush=True,
        )
    print(
        f"  largest difference {worst * 100:.2f} points; beyond the target: "
        f"{', '.join(beyond) or 'none'} ({time.perf_counter() - started:.0f} s)"
    )


FRESH = """
import sys, time
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
from pegboard.engine import odds
odds.start_of_deal("six-card", 0, 0)
t1 = time.perf_counter()
odds.in_deal("six-card", 0, 0, odds.Moment.SHOW, 0)
t2 = time.perf_counter()
print((t1 - t0) * 1e3, (t2 - t1) * 1e3)
"""


def timings() -> None:
    root = str(Path(__file__).resolve().parent.parent)
    out = subprocess.run(
        [sys.executable, "-c", FRESH.format(root=root)], check=True, capture_output=True, text=True
    )
    table_ms, counts_ms = (float(x) for x in out.stdout.split())
    print(
        f"first use in a fresh process: import + table {table_ms:.1f} ms, counts {counts_ms:.1f} ms"
    )
    rng = random.Random(1)
    positions = [(rng.randrange(121), rng.randrange(121)) for _ in range(100_000)]
    started = time.perf_counter()
    for d, p in positions:
        odds.start_of_deal("six-card", d, p)
    took = (time.perf_counter() - started) / len(positions)
    print(f"table lookup (start_of_deal): {took * 1e6:.2f} µs a call")
    moments = [
        ("after the starter", odds.Moment.STARTER, 0),
        ("after 4 cards of the play", odds.Moment.PLAY, 4),
        ("at the end of the play", odds.Moment.SHOW, 0),
        ("after the pone's hand", odds.Moment.SHOW, 1),
        ("before the crib", odds.Moment.SHOW, 2),
    ]
    odds.in_deal("six-card", 0, 0, odds.Moment.SHOW, 0)  # the counts load once, above
    for name, moment, step in moments:
        times = []
        for d, p in positions[:300]:
            begun = time.perf_counter()
            odds.in_deal("six-card", d, p, moment, step)
            times.append(time.perf_counter() - begun)
        mean, most = sum(times) / len(times), max(times)
        print(f"in-deal update, {name}: mean {mean * 1e3:.2f} ms, max {most * 1e3:.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40_000, help="games from the start")
    parser.add_argument("--grid-games", type=int, default=4_000, help="games per grid position")
    parser.add_argument("--check", type=int, default=300, help="games through apply")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--variant", action="append", choices=[v.value for v in odds.VARIANTS])
    parser.add_argument(
        "--play",
        choices=[p.value for p in PlayPolicy],
        default=PlayPolicy.ADVISED.value,
        help="the two-player variants' play (the tables' own: advised, as make odds plays)",
    )
    args = parser.parse_args()
    play = PlayPolicy(args.play)
    variants = [Variant(v) for v in args.variant or ["six-card"]]
    timings()
    for variant in variants:
        check_engine(variant, args.check, play)
        compare(variant, args.games, args.grid_games, args.seed, play)
    return 0


if __name__ == "__main__":
    sys.exit(main())
