"""Write the engine's small precomputed tables into ``pegboard/engine/data/`` (``make tables``).

Usage: ``.venv/bin/python tools/make_tables.py [--check]``

- ``rank-points-5.bin``: ``rank_points`` of every multiset of five ranks (6,188 bytes), which
  the discard advice reads instead of computing it at every start.

``--check`` writes nothing and exits 1 if a shipped table differs from a fresh build (the test
suite checks the same).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pegboard.engine import scoring  # noqa: E402


def five_rank_points() -> bytes:
    """The bytes of ``rank-points-5.bin``, from a fresh build."""
    table = scoring.build_five_rank_points()
    multisets = itertools.combinations_with_replacement(range(1, 14), 5)
    return bytes(table[ranks] for ranks in multisets)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    data = five_rank_points()
    path = scoring.FIVE_RANK_POINTS
    if args.check:
        same = path.exists() and path.read_bytes() == data
        print(f"{path.relative_to(ROOT)}: {'up to date' if same else 'differs from a fresh build'}")
        return 0 if same else 1
    path.write_bytes(data)
    took = time.perf_counter() - start
    print(f"{path.relative_to(ROOT)}: {len(data):,} bytes in {took * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
