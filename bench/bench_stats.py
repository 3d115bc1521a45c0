"""Exact show statistics: how long ``show_distribution`` takes for hands, cribs and five-card
(its three-card hands and its crib, whose flush is worth 4).

Run: ``.venv/bin/python bench/bench_stats.py``. Each case is timed cold in a fresh interpreter
(the honest number: no cache warmed by an earlier case) and then warm, best of 5, in this one.
"""

from __future__ import annotations

import subprocess
import sys
import time

from pegboard.engine import Rules, show_distribution

CASES = {
    "hand": {"crib": False, "hand_size": 4},
    "crib": {"crib": True, "hand_size": 4},
    "five-card": {"crib": False, "hand_size": 3},
    "five-crib": {"crib": True, "hand_size": 4, "rules": Rules.five_card()},
}


def time_case(name: str) -> float:
    start = time.perf_counter()
    show_distribution(**CASES[name])  # type: ignore[arg-type]
    return time.perf_counter() - start


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--cold":
        print(time_case(sys.argv[2]))
        return 0
    print(f"show_distribution, Python {sys.version.split()[0]} (goal: under 1 s, limit 2 s)")
    for name, options in CASES.items():
        cold = float(
            subprocess.run(
                [sys.executable, __file__, "--cold", name],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        warm = min(time_case(name) for _ in range(5))
        d = show_distribution(**options)  # type: ignore[arg-type]
        print(
            f"  {name:10} {d.combinations:>10,} combinations  cold {cold * 1000:6.1f} ms  "
            f"warm {warm * 1000:6.1f} ms  mean {d.mean:.6f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
