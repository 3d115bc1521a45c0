"""The Pi Zero 2 W figures, measured here under a CPU quota that stands in for its slower core.

Run as root: ``.venv/bin/python bench/pi_quota.py [--quota 0.1] [--games 5] [--before REF]``
(``make bench-pi``).

A Pi Zero 2 W is about 10x slower per core than the development machines, so every process is
run in a cgroup with a CPU quota of 1 ms in every 10 ms (cgroup v2 ``cpu.max``, or v1
``cpu.cfs_quota_us``/``cpu.cfs_period_us``). The figures:

- key event -> frame handed to the display, p50 / p99, over whole games (``bench_daemon.py``'s
  replay of ``six-card-lurch.keys``, run under the quota);
- daemon start -> READY (``pegboard run --simulate --headless``, a fake notify socket), best of 3;
- ``pegboard advise`` of a six-card hand and ``pegboard score`` of one hand, as processes,
  best of 3;
- the daemon's peak RSS over a whole game (VmHWM of a headless replay).

The Pi's pip compiles every module at install, while these machines set
``PYTHONDONTWRITEBYTECODE=1``; so the processes get a byte-code cache (``PYTHONPYCACHEPREFIX``
in a temporary folder), filled by one untimed run of each command first, as on the Pi.

The Pi installs pegboard into its venv as files (``pip install``, not editable), so the
processes run in a plain venv made for the run, whose one ``.pth`` line reaches this venv's
packages (Pillow, gpiozero, luma) and which finds pegboard on ``PYTHONPATH``: the development
install's editable finder (about 30 ms here at every start, from its own imports) is left out,
as it is not on the Pi.

``--before REF`` measures the same figures on a checkout of REF (a temporary ``git worktree``,
removed afterwards) in the same run, and prints both with their ratio.

``--ready RUNS [--db JOURNAL] [--before REF]`` measures start -> READY alone: RUNS runs of each
tree, interleaved (this tree's run 1, REF's run 1, this tree's run 2 ...) so a machine that
others load weighs on both alike, each on a new journal or on a fresh copy of JOURNAL, and
prints the medians and their ratio. Without root, or without
a writable cgroup, it says so and stops: figures without the quota would not stand for the Pi.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import _peak

ROOT = Path(__file__).resolve().parents[1]
HAND = ["5H", "5D", "5S", "JC", "6H", "QD"]
SCORE = ["5H", "5D", "5S", "JC", "5C"]


class NoQuota(Exception):
    """The CPU quota cannot be set up on this machine (not root, or no cpu cgroup)."""


@contextlib.contextmanager
def cpu_quota(share: float) -> Iterator[Path]:
    """A new cgroup limited to *share* of one CPU; yields the file a pid is written to.

    Raises:
        NoQuota: no writable cgroup with the cpu controller.
    """
    period = 10_000  # microseconds: 1 ms of CPU in every 10 ms at a share of 0.1
    quota = max(1000, round(period * share))
    name = f"pegboard-bench-{os.getpid()}"
    v2 = Path("/sys/fs/cgroup")
    v1 = Path("/sys/fs/cgroup/cpu")
    if (v2 / "cgroup.controllers").exists() and "cpu" in (v2 / "cgroup.controllers").read_text():
        group = v2 / name
        limits = {"cpu.max": f"{quota} {period}"}
    elif (v1 / "cpu.cfs_quota_us").exists():
        group = v1 / name
        limits = {"cpu.cfs_period_us": str(period), "cpu.cfs_quota_us": str(quota)}
    else:
        raise NoQuota("no cpu cgroup (neither v2 cpu.max nor v1 cpu.cfs_quota_us) is mounted")
    try:
        group.mkdir()
        for file, value in limits.items():
            (group / file).write_text(value)
    except OSError as e:
        raise NoQuota(f"cannot make a cgroup at {group}: {e.strerror} (run as root)") from e
    try:
        yield group / "cgroup.procs"
    finally:
        with contextlib.suppress(OSError):
            group.rmdir()


@dataclass
class Tree:
    """A checkout of pegboard to measure: its root, and how its command line is started."""

    root: Path
    label: str

    @property
    def module(self) -> str:
        # the house moved the command line: python -m pegboard, before it pegboard.app.cli
        return (
            "pegboard" if (self.root / "pegboard" / "__main__.py").exists() else "pegboard.app.cli"
        )

    @property
    def keys(self) -> Path:
        for folder in ("tests/keys", "tests/app/keys"):
            path = self.root / folder / "six-card-lurch.keys"
            if path.exists():
                return path
        raise FileNotFoundError("six-card-lurch.keys")


def plain_venv(folder: Path) -> Path:
    """A venv in *folder* like the Pi's (no editable finder) that sees this venv's packages;
    returns its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    site = next(folder.glob("lib/python3*/site-packages"))
    ours = next(p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir())
    (site / "pegboard-bench-deps.pth").write_text(ours + "\n")
    return folder / "bin" / "python"


class Runner:
    """Runs commands in the quota's cgroup (with *procs* None: without a quota), with a
    byte-code cache per tree."""

    def __init__(self, procs: Path | None, cache: Path) -> None:
        self.procs = procs
        self.cache = cache
        self.python = str(plain_venv(cache / "venv"))

    def env(self, tree: Tree, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.pop("PEGBOARD_DB", None)
        env.pop("PEGBOARD_CONFIG", None)
        env |= {
            "PYTHONPATH": str(tree.root),
            "PYTHONPYCACHEPREFIX": str(self.cache / tree.label),
            "HOME": str(self.cache / "home"),
        }
        return env | extra

    def command(self, argv: Sequence[str]) -> list[str]:
        if self.procs is None:
            return list(argv)
        # the shell joins the cgroup, then becomes the command: every byte of its CPU counts
        return ["sh", "-c", 'echo $$ > "$0" && exec "$@"', str(self.procs), *argv]

    def timed(self, tree: Tree, argv: Sequence[str], runs: int = 3) -> float:
        """Best wall time of *runs* runs (after one untimed run that fills the cache)."""
        times = []
        for run in range(runs + 1):
            start = time.perf_counter()
            done = subprocess.run(
                self.command(argv), env=self.env(tree), cwd=tree.root, capture_output=True,
                check=False,
            )  # fmt: skip
            if done.returncode != 0:
                raise RuntimeError(f"{' '.join(argv)}: {done.stderr.decode()[-400:]}")
            if run:
                times.append(time.perf_counter() - start)
        return min(times)

    def ready(self, tree: Tree, runs: int = 3) -> float:
        """Best time from starting the daemon (simulated ports) to its READY=1."""
        return min(seconds for seconds, _ in self.ready_runs(tree, runs))

    def ready_runs(
        self, tree: Tree, runs: int, db: Path | None = None, *, warm: bool = True
    ) -> list[tuple[float, float]]:
        """Start -> READY=1 (s) and the daemon's peak RSS (MiB, its VmHWM as it stops, written
        by ``_peak.py``, which runs it) of *runs* runs, after one untimed run when *warm*; each on
        a new journal, or on a fresh copy of *db*."""
        found = []
        for run in range(runs + 1 if warm else runs):
            with tempfile.TemporaryDirectory() as tmp, _peak.PeakPipe() as peak:
                if db is not None:
                    shutil.copyfile(db, f"{tmp}/g.db")
                    # on disk before the start: else the daemon's first commit (its fsync)
                    # waits for the copy's pages to be written, 60 ms at 10,000 games here
                    fd = os.open(f"{tmp}/g.db", os.O_RDONLY)
                    try:
                        os.fsync(fd)
                    finally:
                        os.close(fd)
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                path = str(Path(tmp) / "notify")
                sock.bind(path)
                sock.settimeout(120)
                args = ["-m", tree.module, "run", "--simulate", "--headless",
                        "--wait-for-signal", "--out", f"{tmp}/out", "--db", f"{tmp}/g.db",
                        "--log-level", "WARNING"]  # fmt: skip
                start = time.perf_counter()
                proc = subprocess.Popen(
                    self.command(peak.argv(self.python, args)),
                    env=self.env(tree, NOTIFY_SOCKET=path), cwd=tree.root, pass_fds=(peak.fd,),
                )  # fmt: skip
                peak.started()
                try:
                    while b"READY=1" not in sock.recv(4096):
                        pass
                    seconds = time.perf_counter() - start
                finally:
                    proc.send_signal(signal.SIGTERM)
                    proc.wait()
                    sock.close()
                if run or not warm:
                    # not ru_maxrss from wait4: on Linux it is never below this process's own
                    found.append((seconds, peak.mib()))
        return found

    def peak_rss(self, tree: Tree) -> float:
        """The daemon's peak RSS (VmHWM, MiB) over a whole game replayed headless."""
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            argv = [self.python, "-m", tree.module, "run", "--simulate", "--headless",
                    "--wait-for-signal", "--keys", str(tree.keys), "--out", str(out),
                    "--db", f"{tmp}/g.db", "--log-level", "WARNING"]  # fmt: skip
            proc = subprocess.Popen(self.command(argv), env=self.env(tree), cwd=tree.root)
            try:
                deadline = time.monotonic() + 600
                while not (out / "state.json").exists():  # written when the replay is done
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"the headless replay stopped: {proc.returncode}")
                    time.sleep(0.1)
                time.sleep(0.5)
                peak = _peak.vm_hwm_kib(proc.pid)
            finally:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=120)
        return peak / 1024

    def latency(self, tree: Tree, games: int) -> tuple[float, float]:
        """p50 and p99 (ms) of key -> frame, from the tree's own bench_daemon.py under quota."""
        argv = [self.python, str(tree.root / "bench" / "bench_daemon.py"), "--games", str(games)]
        done = subprocess.run(
            self.command(argv), env=self.env(tree), cwd=tree.root, capture_output=True,
            text=True, check=True,
        )  # fmt: skip
        found = re.search(r"p50 ([\d.]+) ms\s+p99 ([\d.]+) ms", done.stdout)
        if found is None:
            raise RuntimeError(f"bench_daemon printed no p50/p99: {done.stdout[-400:]}")
        return float(found.group(1)), float(found.group(2))


def measure(runner: Runner, tree: Tree, games: int) -> dict[str, float]:
    """Every figure of the table for *tree*."""
    cli = [runner.python, "-m", tree.module]
    p50, p99 = runner.latency(tree, games)
    return {
        "key -> frame p50 (ms)": p50,
        "key -> frame p99 (ms)": p99,
        "start -> READY (s)": runner.ready(tree),
        "pegboard advise, a process (s)": runner.timed(tree, [*cli, "advise", *HAND]),
        "pegboard score, a process (s)": runner.timed(tree, [*cli, "score", *SCORE]),
        "daemon peak RSS over a game (MiB)": runner.peak_rss(tree),
    }


@contextlib.contextmanager
def worktree(ref: str) -> Iterator[Path]:
    """A temporary checkout of *ref* beside this repository."""
    folder = Path(tempfile.mkdtemp(prefix="pegboard-before-"))
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(folder), ref], cwd=ROOT,
                   check=True)  # fmt: skip
    try:
        yield folder
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT,
                       check=False)  # fmt: skip


def ready_medians(runner: Runner, trees: Sequence[Tree], runs: int, db: Path | None) -> None:
    """Print each tree's median start -> READY over *runs* interleaved runs, and the ratio of
    the first tree's to the last's."""
    for tree in trees:
        runner.ready_runs(tree, 0, db)  # one untimed run each: the byte-code cache
    found: dict[str, list[float]] = {tree.label: [] for tree in trees}
    for _ in range(runs):
        for tree in trees:
            found[tree.label] += [
                seconds for seconds, _ in runner.ready_runs(tree, 1, db, warm=False)
            ]
    where = "a new journal" if db is None else f"a copy of {db}"
    print(f"start -> READY on {where}, {runs} interleaved runs each:")
    for tree in trees:
        times = found[tree.label]
        shown = " ".join(f"{t:.2f}" for t in times)
        print(f"  {tree.label:<7} median {statistics.median(times):.3f} s  (runs: {shown})")
    if len(trees) > 1:
        first, last = (statistics.median(found[t.label]) for t in (trees[0], trees[-1]))
        print(f"  {trees[0].label}/{trees[-1].label}: {first / last:.3f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quota", type=float, default=0.1, help="share of one CPU")
    parser.add_argument("--games", type=int, default=5, help="whole games for the key latency")
    parser.add_argument("--before", metavar="REF", help="also measure this git ref, side by side")
    parser.add_argument(
        "--ready", type=int, metavar="RUNS", help="only start -> READY: RUNS interleaved runs"
    )
    parser.add_argument(
        "--db", type=Path, metavar="JOURNAL", help="with --ready: start on copies of JOURNAL"
    )
    args = parser.parse_args(argv)
    if args.db is not None and args.ready is None:
        parser.error("--db needs --ready")
    try:
        if args.ready is not None:
            with contextlib.ExitStack() as stack:
                cache = stack.enter_context(tempfile.TemporaryDirectory())
                procs = stack.enter_context(cpu_quota(args.quota))
                runner = Runner(procs, Path(cache))
                print(f"CPU quota: {args.quota:.0%} of one core ({procs.parent}); byte-code cached")
                trees = [Tree(ROOT, "after")]
                if args.before:
                    trees.append(Tree(stack.enter_context(worktree(args.before)), "before"))
                ready_medians(runner, trees, args.ready, args.db)
            return 0
        with tempfile.TemporaryDirectory() as cache, cpu_quota(args.quota) as procs:
            runner = Runner(procs, Path(cache))
            print(f"CPU quota: {args.quota:.0%} of one core ({procs.parent}); byte-code cached")
            after = measure(runner, Tree(ROOT, "after"), args.games)
            before = None
            if args.before:
                with worktree(args.before) as folder:
                    before = measure(runner, Tree(folder, "before"), args.games)
    except NoQuota as e:
        print(f"bench_pi: cannot measure under a CPU quota here: {e}")
        return 1
    width = max(map(len, after))
    if before is None:
        for name, value in after.items():
            print(f"  {name:<{width}}  {value:8.2f}")
        return 0
    print(f"  {'':<{width}}  {'before':>8}  {'after':>8}  after/before   (before: {args.before})")
    for name, value in after.items():
        old = before[name]
        ratio = value / old if old else float("nan")
        print(f"  {name:<{width}}  {old:8.2f}  {value:8.2f}  {ratio:8.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
