"""``pegboard score - --json`` as a process: hands scored a second, one hand per stdin line.

Run: ``.venv/bin/python bench/bench_score_stdin.py``. 100,000 random hands (fixed seed), one a
line, go through ``python -m pegboard score - --json`` from a file to a file; the figure is the
best of 3 runs, wall clock from the start of the process to its exit (its start-up included,
about 0.1 s; an empty stdin is timed too, to show it). Goal: at least 20,000 hands a second.

The answers are checked afterwards, untimed: one JSON line per hand, in order, each with the
total ``score_total`` gives.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pegboard.engine import DECK, Card, score_total

ROOT = Path(__file__).resolve().parents[1]
HANDS = 100_000
SEED = 20240229
ROUNDS = 3
GOAL = 20_000


def make_lines() -> tuple[list[list[Card]], bytes]:
    rng = random.Random(SEED)
    deals = [rng.sample(DECK, 5) for _ in range(HANDS)]
    text = "".join(" ".join(str(card) for card in deal) + "\n" for deal in deals)
    return deals, text.encode()


def run(stdin: Path, stdout: Path) -> float:
    """One ``pegboard score - --json`` from *stdin* to *stdout*: its wall-clock seconds."""
    with open(stdin, "rb") as given, open(stdout, "wb") as answers:
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "pegboard", "score", "-", "--json"],
            stdin=given,
            stdout=answers,
            cwd=ROOT,
            check=True,
        )
        return time.perf_counter() - start


def main() -> int:
    deals, text = make_lines()
    python = sys.version.split()[0]
    print(
        f"{HANDS:,} random hands (seed {SEED}), one a line, best of {ROUNDS} runs, Python {python}"
    )
    with tempfile.TemporaryDirectory() as folder:
        lines, empty, out = (Path(folder) / name for name in ("hands", "empty", "answers"))
        lines.write_bytes(text)
        empty.write_bytes(b"")
        startup = min(run(empty, out) for _ in range(ROUNDS))
        best = min(run(lines, out) for _ in range(ROUNDS))
        answers = [json.loads(line) for line in out.read_bytes().splitlines()]
    rate = HANDS / best
    met = "met" if rate >= GOAL else "NOT met"
    print(f"  start-up alone (empty stdin): {startup:.3f} s")
    print(f"  pegboard score - --json: {best:.3f} s, {best / HANDS * 1e6:.1f} µs a hand")
    print(f"  {rate:,.0f} hands a second (goal: at least {GOAL:,}, {met})")
    wrong = sum(
        answer.get("total") != score_total(deal[:-1], deal[-1])
        for answer, deal in zip(answers, deals, strict=False)
    )
    print(f"  answers: {len(answers):,} for {HANDS:,} lines, {wrong} with a wrong total")
    return 0 if len(answers) == HANDS and not wrong else 1


if __name__ == "__main__":
    sys.exit(main())
