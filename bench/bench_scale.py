"""Cost at scale (issue 21): each reader of "everything so far" at 10x and 100x the games.

Run: ``.venv/bin/python bench/bench_scale.py [--sizes 100,1000,10000]
[--league-sizes 1000,10000,100000] [--runs 3] [--quota 0.1] [--quick]`` (``make bench-scale``).

Journals of 100, 1,000 and 10,000 finished games, and a league of 1,000, 10,000 and 100,000.
Each command runs as its own process, and its CPU (user + system) and peak RSS are that
process's own: the CPU from ``os.wait4``, the peak RSS its VmHWM, written at its end by
``_peak.py``, which runs it (``wait4``'s ``ru_maxrss`` would never be below this process's own
peak: see ``_peak.py``): ``pegboard history``, ``stats players``, ``sheet`` of one game (an
SVG), ``game show``, and ``serve`` until its first event on ``/events`` (then SIGTERM); the
league's ``league standings``; and the CPU of "one new game reaches the page", in a process of
its own: a finished game handed to ``LeagueService.handle`` (the league store's public
``add``), then ``LeagueService.payload()``. The daemon (``pegboard run --simulate --headless
--wait-for-signal``) on a copy of each journal: start -> READY under ``pi_quota.py``'s CPU
quota (10% of a core stands in for a Pi Zero 2 W; without root or a cpu cgroup it says so and
runs without one) and its peak RSS. Every figure is the median of *runs* runs, the sizes
interleaved (run 1 of every size, then run 2 ...), after one untimed run of each at the
smallest size that fills the byte-code cache.

The journals: *base* (20) random legal single-game matches between players of a small roster,
played through ``Journal.new_match`` and ``Journal.do``, then copied with SQL (matches,
journal, games, game_sides, deal_points, shown_hands, the ids moved on) up to each size;
``user_version`` is then set to 0 and a writer opens the journal once, so whatever a writer's
first open does (stored summaries, by ``user_version``) happens before anything is measured. That
first open's CPU and RSS are printed as their own figures. The league: finished-game payloads
stored one by one through ``LeagueStore.add``. Both are built in a temporary folder (in
``/dev/shm`` when there is one, so the commits do not wait on a disk) and cached in
``build/bench-scale/``, keyed by size and a hash of this file and of the code that writes them.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import _peak
import pi_quota

from pegboard.engine.cards import Card, shuffled_deck
from pegboard.engine.commands import Command, Crib, Cut, Go, Next, Play, Show, Starter
from pegboard.engine.game import GameState, Phase, show_order
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules
from pegboard.errors import PegboardError
from pegboard.journal import Journal

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "build" / "bench-scale"
ROSTER = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
JOURNAL_COMMANDS = ["history", "stats players", "sheet", "game show", "serve"]
CPU_SLACK_MS = 50.0  # the target: at most the smallest size's CPU plus 50 ms
RSS_MIB = 60.0
DAEMON_READY_S, DAEMON_RSS_MIB = 1.2, 48.0
START = datetime(2026, 1, 1, tzinfo=UTC)
NEW_GAME_MS, STANDINGS_MS, STANDINGS_MIB = 5.0, 300.0, 80.0


# -- building the journals --------------------------------------------------------------------


def _key() -> str:
    """A hash of this generator and of the code that writes what it builds."""
    digest = hashlib.sha256()
    files = [Path(__file__), *sorted((ROOT / "pegboard" / "journal").glob("*.py"))]
    files += [ROOT / "pegboard" / "league" / "store.py", ROOT / "pegboard" / "engine" / "game.py"]
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _scratch() -> tempfile.TemporaryDirectory[str]:
    shm = Path("/dev/shm")
    return tempfile.TemporaryDirectory(
        prefix="pegboard-scale-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None
    )


class _Dealer:
    """Deals real cards for each deal of a game and picks a legal command for the state."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.deals: dict[tuple[int, int], tuple[list[list[Card]], list[Card], Card]] = {}

    def deal(self, state: GameState) -> tuple[list[list[Card]], list[Card], Card]:
        key = (state.table.game, state.table.deal)
        if key not in self.deals:
            rules, deck = state.rules, shuffled_deck(self.rng)
            size = rules.hand_size
            hands = [deck[i * size : (i + 1) * size] for i in range(rules.players)]
            rest = deck[rules.players * size :]
            self.deals[key] = (hands, rest[: rules.crib_size], rest[rules.crib_size])
        return self.deals[key]

    def command(self, state: GameState) -> Command:
        table, rules = state.table, state.rules
        match table.phase:
            case Phase.CUT:
                return Cut(tuple(shuffled_deck(self.rng)[: rules.sides]))
            case Phase.STARTER:
                return Starter(self.deal(state)[2])
            case Phase.PLAY if table.play is not None and table.play.turn is not None:
                play = table.play
                laid = {card for _, card in play.laid}
                hand = self.deal(state)[0][play.turn]
                fits = [c for c in hand if c not in laid and c.pips + play.count <= 31]
                return Play(self.rng.choice(fits)) if fits else Go()
            case Phase.SHOW if table.dealer is not None:
                hands, crib, _ = self.deal(state)
                up = show_order(rules, table.dealer)[table.show_step]
                return Crib(tuple(crib)) if up is None else Show(tuple(hands[up]))
            case _:
                return Next()


def play_matches(path: Path, count: int, seed: int = 21) -> None:
    """*count* single-game six-card matches of random legal play into the journal *path*."""
    rng = random.Random(seed)
    with Journal(path) as journal:
        for _ in range(count):
            state = journal.new_match(Rules.six_card(), rng.sample(ROSTER, 2), MatchFormat.SINGLE)
            dealer = _Dealer(rng)
            while state.phase is not Phase.MATCH_OVER:
                command = dealer.command(state)
                try:
                    state, _ = journal.do(command)
                except PegboardError:  # a tied cut is cut again
                    if state.phase is not Phase.CUT:
                        raise


def _copy_matches(path: Path, copies: int) -> None:
    """The journal's matches, their commands and their history rows, *copies* more times."""
    import sqlite3

    conn = sqlite3.connect(path, isolation_level=None)
    try:
        (matches,) = conn.execute("SELECT MAX(id) FROM matches").fetchone()
        (games,) = conn.execute("SELECT MAX(id) FROM games").fetchone()

        def columns(table: str) -> list[str]:
            return [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]

        def copy(table: str, moved: dict[str, str], order: str) -> None:
            names = [c for c in columns(table) if c not in moved or moved[c]]
            picked = [moved.get(c) or f"t.{c}" for c in names]
            conn.execute(
                f"WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?) "
                f"INSERT INTO {table} ({', '.join(names)}) SELECT {', '.join(picked)} "
                f"FROM k, {table} t WHERE {order.split(',')[0]} IS NOT NULL ORDER BY k.n, {order}",
                (copies,),
            )

        conn.execute("BEGIN")
        copy("matches", {"id": f"t.id + k.n * {matches}"}, "t.id")
        copy("journal", {"seq": "", "match_id": f"t.match_id + k.n * {matches}"}, "t.seq")
        gid = f"t.game_id + k.n * {games}"
        copy(
            "games",
            {"id": f"t.id + k.n * {games}", "match_id": f"t.match_id + k.n * {matches}"},
            "t.id",
        )
        for table in ("game_sides", "deal_points", "shown_hands"):
            copy(table, {"game_id": gid}, "t.game_id, t.rowid")
        conn.execute("COMMIT")
        conn.execute("PRAGMA user_version = 0")
    finally:
        conn.close()


@dataclass
class Usage:
    """A process's CPU (user + system, seconds) and peak RSS (MiB)."""

    cpu: float
    rss: float


def _python_env(cache: Path) -> dict[str, str]:
    """This environment, with a byte-code cache of the bench's own (as a Pi's install has)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for name in ("PEGBOARD_DB", "PEGBOARD_CONFIG"):
        env.pop(name, None)
    return env | {"PYTHONPYCACHEPREFIX": str(cache / "pycache"), "LANG": "C.UTF-8"}


def run_process(args: Sequence[str], env: dict[str, str], serve: bool = False) -> Usage:
    """Run ``python ARGS`` to its end (with *serve*: until its first event on /events, then
    SIGTERM), under ``_peak.py``; its own CPU (``wait4``) and peak RSS (``_peak.py``'s VmHWM).

    Raises:
        RuntimeError: the command failed.
    """
    out = subprocess.PIPE if serve else subprocess.DEVNULL
    with _peak.PeakPipe() as peak:
        argv = peak.argv(sys.executable, list(args))
        proc = subprocess.Popen(
            argv, env=env, cwd=ROOT, stdout=out, stderr=subprocess.PIPE, pass_fds=(peak.fd,)
        )
        peak.started()
        try:
            if serve:
                assert proc.stdout is not None
                line = proc.stdout.readline().decode()
                url = next((w for w in line.split() if w.startswith("http://")), None)
                if url is None:
                    raise RuntimeError(f"serve printed no address: {line!r}")
                host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
                with socket.create_connection((host, int(port)), timeout=600) as sock:
                    sock.sendall(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
                    reader = sock.makefile("rb")
                    while not reader.readline().startswith(b"data: "):
                        pass
                proc.terminate()
        finally:
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
        assert proc.stderr is not None
        err = proc.stderr.read().decode()
        if proc.returncode not in (0, -15):
            raise RuntimeError(f"{' '.join(args)}: exit {proc.returncode}: {err[-400:]}")
        # not usage.ru_maxrss: on Linux it never falls below this process's own peak (_peak.py)
        return Usage(usage.ru_utime + usage.ru_stime, peak.mib())


def build_journal(size: int, base: int, cache: Path) -> tuple[Path, Usage]:
    """The journal of *size* finished games (cached) and its first open by a writer."""
    if size % base:
        raise SystemExit(f"bench_scale: {size} is not a multiple of the {base} games played")
    path = cache / f"journal-{size}-{base}-{_key()}.db"
    note = path.with_suffix(".first-open.json")
    if not (path.exists() and note.exists()):
        cache.mkdir(parents=True, exist_ok=True)
        with _scratch() as tmp:
            built = Path(tmp) / "j.db"
            played = cache / f"played-{base}-{_key()}.db"
            if not played.exists():
                play_matches(Path(tmp) / "p.db", base)
                shutil.copyfile(Path(tmp) / "p.db", played)
            shutil.copyfile(played, built)
            _copy_matches(built, size // base - 1)
            code = "import sys; from pegboard.journal import Journal; Journal(sys.argv[1]).close()"
            opener = ["-c", code]
            shutil.copyfile(played, Path(tmp) / "warm.db")  # fills the byte-code cache, untimed
            run_process([*opener, str(Path(tmp) / "warm.db")], _python_env(cache))
            first = run_process([*opener, str(built)], _python_env(cache))
            shutil.copyfile(built, path)
        note.write_text(json.dumps({"cpu": first.cpu, "rss": first.rss}))
    first = Usage(**json.loads(note.read_text()))
    return path, first


def stored_game(number: int) -> dict[str, object]:
    """A finished game's payload, as a board publishes it."""
    rng = random.Random(number)
    winner, loser = rng.sample(ROSTER, 2)
    return {
        "game_id": f"scale-{number}",
        "revision": 1,
        "variant": "six-card",
        "target": 121,
        "game_points": 1 + (number % 3 == 0),
        "winner": winner,
        "sides": [
            {"name": winner, "players": [winner], "score": 121, "won": True, "lurch": "none"},
            {
                "name": loser,
                "players": [loser],
                "score": 80 + number % 40,
                "won": False,
                "lurch": "lurched" if 80 + number % 40 < 91 else "none",  # the lurch line
            },
        ],
        "deals": [
            {"number": i, "dealer": (winner, loser)[i % 2], "starter": "5C", "points": [12, 9]}
            for i in range(1, 10)
        ],
        "started": (START + timedelta(minutes=number)).isoformat(),
        "ended": (START + timedelta(minutes=number + 20)).isoformat(),
    }


def build_league(size: int, cache: Path) -> Path:
    """The league database of *size* finished games, stored one by one (cached)."""
    from pegboard.league.store import LeagueStore

    path = cache / f"league-{size}-{_key()}.db"
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        with _scratch() as tmp:
            built = Path(tmp) / "league.db"
            store = LeagueStore(built)
            try:
                boards = [("red-lion", f"t{i}") for i in range(1, 5)]
                for number in range(size):
                    store.add(*boards[number % len(boards)], stored_game(number))
            finally:
                store.close()
            shutil.copyfile(built, path)
    return path


def new_game_cpu(league: Path, games: int) -> list[float]:
    """CPU (s) of each of *games* new games reaching the page, on a copy of *league*."""
    from pegboard.league.service import Broker, LeagueService
    from pegboard.league.store import LeagueStore

    with _scratch() as tmp:
        copy = Path(tmp) / "league.db"
        shutil.copyfile(league, copy)
        store = LeagueStore(copy)
        service = LeagueService(store, Broker("127.0.0.1", 1))
        try:
            service.payload()  # the page as it stands, before the new games
            found = []
            for n in range(games):
                finished = json.dumps(stored_game(10_000_000 + n)).encode()
                start = time.process_time()
                service.handle("pegboard/v1/red-lion/t1/finished", finished)
                service.payload()
                found.append(time.process_time() - start)
        finally:
            store.close()
    return found


# -- measuring ----------------------------------------------------------------------------------


def journal_argv(command: str, db: Path, tmp: Path, run: int) -> list[str]:
    """The arguments to ``python`` of *command* on the journal *db*."""
    cli = ["-m", "pegboard", *command.split()]
    if command == "sheet":
        return [*cli, "--db", str(db), "--out", str(tmp / f"sheet-{run}.svg"), "--force"]
    if command == "serve":
        return [*cli, "--db", str(db), "--bind", "127.0.0.1", "--port", "0"]
    return [*cli, "--db", str(db)]


@contextlib.contextmanager
def daemon_runner(quota: float, cache: Path) -> Iterator[tuple[pi_quota.Runner | None, str]]:
    """``pi_quota``'s runner under the CPU quota (or without one, said), or None for none."""
    if quota <= 0:
        with tempfile.TemporaryDirectory() as tmp:
            yield pi_quota.Runner(None, Path(tmp)), "no CPU quota (--quota 0)"
        return
    try:
        with tempfile.TemporaryDirectory() as tmp, pi_quota.cpu_quota(quota) as procs:
            yield pi_quota.Runner(procs, Path(tmp)), f"under a CPU quota of {quota:.0%} of a core"
    except pi_quota.NoQuota as e:
        print(f"bench_scale: no CPU quota here ({e}); the daemon is measured without one")
        with tempfile.TemporaryDirectory() as tmp:
            yield pi_quota.Runner(None, Path(tmp)), "NO CPU quota (unavailable)"


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def row(name: str, values: list[float], target: str, ok: bool | None, fmt: str = "8.1f") -> str:
    """One line of the table: the figure at each size, the last over the first, the target."""
    cells = "".join(f"{v:{fmt}}" for v in values)
    ratio = values[-1] / values[0] if values and values[0] else float("nan")
    verdict = "" if ok is None else ("  ok" if ok else "  OVER")
    return f"  {name:<34}{cells}  {ratio:6.1f}x  {target}{verdict}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000", help="finished games per journal")
    parser.add_argument("--league-sizes", default="1000,10000,100000", help="games in the league")
    parser.add_argument("--runs", type=int, default=3, help="runs of each figure (median)")
    parser.add_argument("--base", type=int, default=20, help="games played; the rest are copies")
    parser.add_argument("--quota", type=float, default=0.1, help="the daemon's CPU share (0: none)")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where built databases are kept")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 8 and 16 games, league 20 and 40, 1 run"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.league_sizes, args.runs, args.base, args.quota = "8,16", "20,40", 1, 4, 0
    sizes = [int(s) for s in args.sizes.split(",") if s]
    league_sizes = [int(s) for s in args.league_sizes.split(",") if s]
    cache, env = args.cache, _python_env(args.cache)

    started = time.monotonic()
    journals = {n: build_journal(n, args.base, cache) for n in sizes}
    leagues = {n: build_league(n, cache) for n in league_sizes}
    print(f"built or found the databases in {cache} ({time.monotonic() - started:.0f} s)")

    cpu: dict[tuple[str, int], list[float]] = {}
    rss: dict[tuple[str, int], list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        for run in range(args.runs + 1):  # run 0 fills the byte-code cache, untimed
            for n in sizes if run else sizes[:1]:
                for command in JOURNAL_COMMANDS:
                    argv_ = journal_argv(command, journals[n][0], tmp, run)
                    used = run_process(argv_, env, serve=command == "serve")
                    if run:
                        cpu.setdefault((command, n), []).append(used.cpu)
                        rss.setdefault((command, n), []).append(used.rss)
            for n in league_sizes if run else league_sizes[:1]:
                argv_ = ["-m", "pegboard", "league", "standings"]
                used = run_process([*argv_, "--db", str(leagues[n])], env)
                if run:
                    cpu.setdefault(("league standings", n), []).append(used.cpu)
                    rss.setdefault(("league standings", n), []).append(used.rss)
                one = [sys.executable, __file__, "--new-game-cpu", str(leagues[n])]
                done = subprocess.run(one, env=env, capture_output=True, text=True, check=True)
                if run:
                    cpu.setdefault(("new game", n), []).append(float(done.stdout))
        with daemon_runner(args.quota, cache) as (runner, how):
            assert runner is not None
            tree = pi_quota.Tree(ROOT, "after")
            ready: dict[int, list[tuple[float, float]]] = {}
            runner.ready_runs(tree, 0, journals[sizes[0]][0])  # the untimed run
            for _ in range(args.runs):
                for n in sizes:
                    ready.setdefault(n, []).extend(
                        runner.ready_runs(tree, 1, journals[n][0], warm=False)
                    )

    head = "".join(f"{n:>8,}" for n in sizes)
    print(f"\nCost at scale: medians of {args.runs} interleaved runs, each a process of its own")
    print(f"\n  journal of N finished games      {head}  last/first  target (at the last size)")
    print(
        row("first open by a writer, CPU ms", [1000 * journals[n][1].cpu for n in sizes], "", None)
    )
    print(row("first open by a writer, RSS MiB", [journals[n][1].rss for n in sizes], "", None))
    for command in JOURNAL_COMMANDS:
        ms = [1000 * median(cpu[command, n]) for n in sizes]
        mib = [median(rss[command, n]) for n in sizes]
        label = "serve, first view" if command == "serve" else command
        limit = ms[0] + CPU_SLACK_MS
        print(row(f"{label}, CPU ms", ms, f"<= {limit:.0f} ms (first + 50)", ms[-1] <= limit))
        print(row(f"{label}, peak RSS MiB", mib, f"<= {RSS_MIB:.0f} MiB", mib[-1] <= RSS_MIB))
    ready_s = [median([s for s, _ in ready[n]]) for n in sizes]
    ready_mib = [median([m for _, m in ready[n]]) for n in sizes]
    print(f"  (the daemon: {how})")
    target, ok = f"<= {DAEMON_READY_S} s", ready_s[-1] <= DAEMON_READY_S
    print(row("daemon start -> READY, s", ready_s, target, ok, "8.2f"))
    target, ok = f"<= {DAEMON_RSS_MIB:.0f} MiB", ready_mib[-1] <= DAEMON_RSS_MIB
    print(row("daemon peak RSS MiB", ready_mib, target, ok))
    head = "".join(f"{n:>8,}" for n in league_sizes)
    print(f"\n  league of N finished games       {head}  last/first  target (at the last size)")
    ms = [1000 * median(cpu["new game", n]) for n in league_sizes]
    target, ok = f"<= {NEW_GAME_MS:.0f} ms", ms[-1] <= NEW_GAME_MS
    print(row("one new game -> page, CPU ms", ms, target, ok, "8.2f"))
    ms = [1000 * median(cpu["league standings", n]) for n in league_sizes]
    mib = [median(rss["league standings", n]) for n in league_sizes]
    print(row("league standings, CPU ms", ms, f"<= {STANDINGS_MS:.0f} ms", ms[-1] <= STANDINGS_MS))
    target, ok = f"<= {STANDINGS_MIB:.0f} MiB", mib[-1] <= STANDINGS_MIB
    print(row("league standings, peak RSS MiB", mib, target, ok))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--new-game-cpu"]:
        print(statistics.median(new_game_cpu(Path(sys.argv[2]), 3)))
        sys.exit(0)
    sys.exit(main())
