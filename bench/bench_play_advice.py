"""How long one play decision takes: ``advise_play`` on the pone's lead, here and under quotas.

Run: ``.venv/bin/python bench/bench_play_advice.py [--deals 40] [--seed 1] [--no-quota]
[--only SETTING] [--belief uniform|discards]`` (root for the quotas, as ``make bench-pi``).
``--only`` measures one setting (``machine``, ``pi4``, ``zero``); ``--belief discards`` times
the discard belief (``engine/playbelief.py``), whose lead sums over every deal of the
opponent's (8.1 million in six-card): minutes, not seconds (use ``--deals 1 --only machine``).

The lead is the worst case (the most cards left on both sides, the widest belief). Each deal
is dealt at random; the pone keeps the exact discard advice's first choice and asks for its
lead, with its discards as the cards seen. Every decision runs with the advisor's memories
emptied first (as the first decision of a new process), so the figures are cold. Fixed hands
that search the deepest (A-2-3-4: every order stays under 31) are added to the random ones.

Three settings: this machine, a Raspberry Pi 4 stand-in (a CPU quota of 30% of one core: a
Pi 4's Cortex-A72 at 1.5 GHz is about three times a Pi Zero 2 W's A53 at 1 GHz, which
``pi_quota.py`` puts at a tenth of these machines) and the Pi Zero 2 W stand-in (10%, as
``make bench-pi``). The child process measures wall time per decision; the figures printed are
the median and the worst over the positions, per variant, and the worst CPU time (on a shared
machine the wall time also counts the other processes' turns). The targets (issue 25): 1 s on a
Pi 4, 3 s on a Pi Zero 2 W.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

HARD = [
    ("AH 2D 3C 4S", "QC 9D", "KH"),
    ("AH 2H 3H 4H", "QC 9D", "KH"),
    ("AH 2D 3C 5S", "QC 9D", "KH"),
]
"""Hands that keep every order of play open (six-card, pone to lead)."""

VARIANTS = ("six-card", "two-in-the-crib", "five-card")


def _positions(variant: str, deals: int, seed: int) -> list[tuple[list[str], list[str], str]]:
    from pegboard.engine.advice import advise
    from pegboard.engine.cards import DECK
    from pegboard.engine.rules import Rules

    rules = Rules.for_variant(variant)
    rng = random.Random(seed)
    out = []
    for _ in range(deals):
        deck = list(DECK)
        rng.shuffle(deck)
        dealt, starter = deck[: rules.dealt], deck[rules.dealt]
        best = advise(dealt, rules=rules, dealer=False)[0]
        out.append(([str(c) for c in best.keep], [str(c) for c in best.discard], str(starter)))
    if variant == "six-card":
        out += [(h.split(), s.split(), st) for h, s, st in HARD]
    return out


def child(deals: int, seed: int, belief_name: str) -> None:
    """Time every lead cold; print {variant: [seconds, ...]} as JSON."""
    from pegboard.engine import advice
    from pegboard.engine import playadvice as pa
    from pegboard.engine.cards import Card, parse_cards
    from pegboard.engine.rules import Rules

    belief = pa.Belief(belief_name)

    found: dict[str, list[float]] = {}
    for variant in VARIANTS:
        rules = Rules.for_variant(variant)
        times, cpu = [], []
        for keep, seen, starter in _positions(variant, deals, seed):
            pa.forget()
            advice.rank_nets.cache_clear()
            start, used = time.perf_counter(), time.process_time()
            pa.advise_play(
                parse_cards(" ".join(keep)), [], Card.parse(starter), dealer=False,
                rules=rules, seen=parse_cards(" ".join(seen)), belief=belief,
            )  # fmt: skip
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - used)
        found[variant] = times
        found[variant + " cpu"] = cpu
    print(json.dumps(found))


def measure(share: float | None, deals: int, seed: int, belief: str) -> dict[str, list[float]]:
    argv = [sys.executable, __file__, "--child", "--deals", str(deals), "--seed", str(seed),
            "--belief", belief]  # fmt: skip
    if share is None:
        done = subprocess.run(argv, capture_output=True, text=True, check=True)
        return dict(json.loads(done.stdout))
    import pi_quota

    with pi_quota.cpu_quota(share) as procs:
        command = ["sh", "-c", 'echo $$ > "$0" && exec "$@"', str(procs), *argv]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-quota", action="store_true", help="this machine only")
    parser.add_argument(
        "--only", choices=["machine", "pi4", "zero"], help="measure this one setting only"
    )
    parser.add_argument("--belief", choices=["uniform", "discards"], default="uniform")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.deals, args.seed, args.belief)
        return
    named: dict[str, tuple[str, float | None, float | None]] = {
        "machine": ("this machine", None, None),
        "pi4": ("Pi 4 stand-in (30% quota)", 0.3, 1.0),
        "zero": ("Pi Zero 2 W (10% quota)", 0.1, 3.0),
    }
    if args.only:
        settings = [named[args.only]]
    elif args.no_quota:
        settings = [named["machine"]]
    else:
        settings = list(named.values())
    print(f"advise_play on the pone's lead, cold, {args.deals} random deals a variant "
          f"(+{len(HARD)} hard six-card hands), seed {args.seed}, "
          f"belief {args.belief}")  # fmt: skip
    for label, share, target in settings:
        try:
            found = measure(share, args.deals, args.seed, args.belief)
        except Exception as e:  # no root or no cgroup: say so, as pi_quota does
            print(f"{label}: not measured ({e})")
            continue
        for variant in VARIANTS:
            times, cpu = found[variant], found[variant + " cpu"]
            verdict = ""
            if target is not None:
                verdict = "  within" if max(times) <= target else "  BEYOND"
                verdict += f" the {target:g} s target"
            print(
                f"{label:<26} {variant:<16} median {statistics.median(times) * 1000:7.1f} ms  "
                f"worst {max(times) * 1000:7.1f} ms  ({len(times)} leads; CPU worst "
                f"{max(cpu) * 1000:.0f} ms){verdict}"
            )


if __name__ == "__main__":
    main()
