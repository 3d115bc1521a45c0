"""Build the advised self-play's lead books, ``pegboard/engine/data/<variant>.openings``.

Usage::

    .venv/bin/python tools/make_openings.py [--variant NAME ...] [--jobs N] [--check N]

For every hand of ranks and every starter rank, the exact play advice's lead for a player who
sees only its hand and the starter (``pegboard.engine.openings``). Six-card is 23,660 leads at
about 50 ms each: about 20 minutes of CPU, shared over ``--jobs`` processes (default: every
core). Two-in-the-crib reads the six-card book (the same hand size and the same play), so it
has no book of its own to build; ``--check`` works its leads out under its own rules. Each file
is written whole under a scratch name and moved into place, so a run that stops leaves the old
book as it was. ``--check N`` writes nothing: it works out N random
entries of each shipped book again and says whether they agree (exit 1 if not).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pegboard.engine.openings import book_name, hands, lead_book, work_out  # noqa: E402
from pegboard.engine.rules import Rules  # noqa: E402

DATA = ROOT / "pegboard" / "engine" / "data"
VARIANTS = ("six-card", "two-in-the-crib", "five-card")


def _row(job: tuple[str, tuple[int, ...]]) -> bytes:
    variant, held = job
    rules = Rules.for_variant(variant)
    return bytes(work_out(held, starter, rules) for starter in range(1, 14))


def build(variant: str, jobs: int) -> None:
    rules = Rules.for_variant(variant)
    name = book_name(rules)
    assert name is not None
    if name != f"{variant}.openings":
        print(f"{variant}: reads {name} (the same hand size and play): nothing to build")
        return
    rows = hands(rules.dealt - rules.discards)
    started = time.monotonic()
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        data = b"".join(pool.imap(_row, [(variant, held) for held in rows], chunksize=8))
    scratch = DATA / f".{name}.part"
    scratch.write_bytes(data)
    os.replace(scratch, DATA / name)
    print(f"{variant}: {13 * len(rows):,} leads in {time.monotonic() - started:.0f} s "
          f"({jobs} process{'es' if jobs > 1 else ''}) -> {DATA / name}")  # fmt: skip


def check(variant: str, n: int, seed: int) -> bool:
    rules = Rules.for_variant(variant)
    book = lead_book(rules)
    if book is None:
        print(f"{variant}: no book ships (the self-play works its leads out as they come)")
        return True
    rng = random.Random(seed)
    rows = hands(rules.dealt - rules.discards)
    wrong = 0
    for _ in range(n):
        held, starter = rng.choice(rows), rng.randrange(1, 14)
        wrong += book.lead(held, starter) != work_out(held, starter, rules)
    print(f"{variant}: {n - wrong} of {n} random leads agree with the advice")
    return not wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=VARIANTS)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--check", type=int, default=0, metavar="N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    variants = args.variant or list(VARIANTS)
    if args.check:
        sys.exit(0 if all([check(v, args.check, args.seed) for v in variants]) else 1)
    for variant in variants:
        build(variant, max(1, args.jobs))


if __name__ == "__main__":
    main()
