"""The pub page's players figures on a journal of 200 finished games (issue 14).

Run: ``.venv/bin/python bench/bench_pub_players.py [GAMES]`` (pin it: ``taskset -c 0``). It
plays ``tests/keys/six-card-lurch.keys`` once through the simulator, then stores its commands
as GAMES single-game matches (200; four players in turn, every deal counted on the device), and
times, best of 5: ``Journal.history()`` (every match replayed), ``standings`` over it, the
publisher's first look (nothing kept: everything replayed) and a later look when the evening
changes (the older matches kept: only the latest replayed).
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pegboard.engine.commands import parse_command
from pegboard.engine.match import MatchFormat
from pegboard.engine.players import standings
from pegboard.engine.rules import Rules
from pegboard.journal import Journal
from pegboard.web.players import PlayerFigures

ROOT = Path(__file__).resolve().parents[1]


def best(fn: object, n: int = 5) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def build(folder: Path, games: int) -> Path:
    keys = ROOT / "tests" / "keys" / "six-card-lurch.keys"
    one = folder / "one.db"
    env = {**os.environ, "HOME": str(folder), "PEGBOARD_CONFIG": "", "PEGBOARD_DB": ""}
    subprocess.run(
        [sys.executable, "-m", "pegboard", "run", "--simulate", "--headless", "--keys", str(keys),
         "--out", str(folder / "out"), "--db", str(one)],
        check=True, capture_output=True, env=env, cwd=ROOT,
    )  # fmt: skip
    with Journal(one, readonly=True) as source:
        source.load()
        commands = source.commands()
    db = folder / "many.db"
    pairs = list(itertools.permutations(["Ann", "Bob", "Cat", "Dan"], 2))
    with Journal(db) as store:
        for n in range(games):
            a, b = pairs[n % len(pairs)]
            state = store.new_match(Rules.six_card(), (a, b), MatchFormat.SINGLE)
            named = [" ".join({"Ann": a, "Bob": b}.get(w, w) for w in c.split()) for c in commands]
            store.do_all([parse_command(text, state.names) for text in named])
    return db


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    with tempfile.TemporaryDirectory() as folder:
        db = build(Path(folder), games)
        with Journal(db, readonly=True) as journal:
            journal.load()
            history = journal.history()
            rows = journal._conn.execute("SELECT count(*) FROM journal").fetchone()[0]
            print(f"{len(history)} matches, {sum(len(m.games) for m in history)} finished games, "
                  f"{rows} journal rows; Python {sys.version.split()[0]}")  # fmt: skip
            print(f"  Journal.history()            {best(journal.history) * 1000:7.1f} ms")
            tally = best(lambda: standings(history))
            print(f"  standings(history)           {tally * 1000:7.1f} ms")
            cold = best(lambda: PlayerFigures().payload(journal))
            print(f"  first look (all replayed)    {cold * 1000:7.1f} ms")
            figures = PlayerFigures()
            figures.payload(journal)
            warm = best(lambda: figures.payload(journal))
            print(f"  evening change (latest only) {warm * 1000:7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
