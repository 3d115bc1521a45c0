"""Run every benchmark in this folder, one after another, each in its own process.

Usage: ``.venv/bin/python bench/run_all.py [NAME ...]`` (``make bench``). Benchmarks print their
own figures; this only runs them and reports which failed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    """Run the named benchmarks (all ``bench_*.py`` when none are named)."""
    here = Path(__file__).resolve().parent
    scripts = sorted(here.glob("bench_*.py"))
    if argv:
        scripts = [s for s in scripts if any(name in s.stem for name in argv)]
    failed = []
    for script in scripts:
        print(f"== {script.name}", flush=True)
        if subprocess.run([sys.executable, str(script)], check=False).returncode != 0:
            failed.append(script.name)
        print(flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
