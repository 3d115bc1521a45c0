"""Journals of whole games for the history tests: a ``pegboard game do`` script whose totals are
worked out by hand below, and the repository's key files replayed headless into a journal."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from pegboard.cli.main import main

KEYS = Path(__file__).parents[1] / "keys"

SCRIPT = (
    # Ann v Bob, six-card, a single game. The cut: Bob's 3 is lower, so Bob deals first.
    "cut 9H 3C",
    # --- deal 1: Bob deals. Ann AS 2S 3S 9D, Bob 4D 6C 10H KH, crib 5C 5D JC QH, starter 7H
    "starter 7H",
    "play 3S",  # 3
    "play 4D",  # 7
    "play 2S",  # 9: run 2-3-4, Ann 3
    "play 6C",  # 15: fifteen, Bob 2
    "play AS",  # 16
    "play 10H",  # 26
    "go",  # Ann: 9D would make 35
    "go",  # Bob: KH would make 36; Bob laid last: 1 for the go, Bob 3
    "play 9D",  # Ann leads 9
    "play KH",  # 19, the last card: 1, Bob 4
    "show",  # Ann AS 2S 3S 9D + 7H: 9+3+2+A fifteen 2, run A-2-3 3 = 5
    "show",  # Bob 4D 6C 10H KH + 7H: no fifteen, pair, run or flush = 0
    "crib 5C 5D JC QH",  # + 7H: 5+J twice, 5+Q twice = 8, pair of fives 2 = 10
    # after deal 1: Ann 3 + 5 = 8; Bob 4 + 0 + 10 = 14
    # --- deal 2: Ann deals. Bob 2H 3H 4H 5H, Ann 8C 9C 10D JS, crib KS QS 6D 7D, starter 6H
    "starter 6H",
    "play 2H",  # 2
    "play 8C",  # 10
    "play 3H",  # 13
    "play 9C",  # 22
    "play 4H",  # 26
    "go",  # Ann: 10D or JS would make 36
    "play 5H",  # 31: Bob 2
    "play 10D",  # Ann alone: 10
    "play JS",  # 20, the last card: Ann 1
    "show",  # Bob 2H 3H 4H 5H + 6H: 2+3+4+6 and 4+5+6 fifteens 4, run of 5, flush 5 = 14
    "show",  # Ann 8C 9C 10D JS + 6H: 9+6 fifteen 2, run 8-9-10-J 4 = 6
    "crib KS QS 6D 7D",  # + 6H: pair of sixes 2
    # after deal 2: Ann 8 + 1 + 6 + 2 = 17; Bob 14 + 2 + 14 = 30
    # --- deal 3: Bob deals; the table pegs by hand
    "next",  # no starter: the play is not counted
    "peg Ann 60 catch up",
    "peg Ann 44 catch up",  # Ann 121; Bob 30 is below 61: double skunk, 3 game points
)


def cli(*argv: str | Path) -> None:
    """Run ``pegboard *argv`` and insist that it succeeds."""
    assert main([str(a) for a in argv]) == 0, argv


def pub_journal(db: Path) -> Path:
    """A journal of Ann v Bob just after the cut: what a pub page serves."""
    cli("game", "new", "--db", db, "--players", "Ann,Bob")
    cli("game", "do", "--db", db, "cut 9C 3D")
    return db


def scripted_journal(db: Path) -> Path:
    """A journal holding ``SCRIPT``'s finished game."""
    cli("game", "new", "--players", "Ann,Bob", "--match", "single", "--db", str(db))
    cli("game", "do", "--db", str(db), *SCRIPT)
    return db


def key_journal(keys: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The journal of ``tests/keys/<keys>.keys`` played headless through the real controller."""
    for name in ("PEGBOARD_CONFIG", "PEGBOARD_DB", "STATE_DIRECTORY", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    home = folder / "home"
    home.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    db = folder / f"{keys}.db"
    out = folder / f"out-{keys}"
    cli("run", "--simulate", "--headless", "--keys", str(KEYS / f"{keys}.keys"), "--out", str(out),
        "--db", str(db))  # fmt: skip
    return db


def listing(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file in *folder*: its bytes and modification time (to see that nothing changed)."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()}


READERS = [
    pytest.param(["history"], id="history"),
    pytest.param(["history", "--csv"], id="history --csv"),
    pytest.param(["stats", "players"], id="stats players"),
    pytest.param(["sheet", "--out", "{elsewhere}/s.svg"], id="sheet --out {elsewhere}/s.svg"),
]
"""The commands that only read a journal, as argv (``{elsewhere}``: a folder of the test's)."""


def journal_with_a_log(folder: Path, copy_to: Path, *, shm: bool = False) -> Path:
    """The scripted game finished, then a second match (Cy v Di) begun in the ``-wal`` only:
    copied into the new folder *copy_to* with its ``-wal`` (and, with *shm*, a ``-shm`` nobody
    holds), as a writer that stopped without a checkpoint, or was killed, leaves it."""
    folder.mkdir()
    db = scripted_journal(folder / "p.db")
    holder = sqlite3.connect(db)  # keeps the log from being checkpointed away when cli() closes
    try:
        holder.execute("PRAGMA wal_autocheckpoint=0")
        holder.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # opens the log
        cli("game", "new", "--players", "Cy,Di", "--db", str(db))
        assert Path(f"{db}-wal").stat().st_size > 0
        copy_to.mkdir()
        copy = copy_to / db.name
        for suffix in ("", "-wal", "-shm") if shm else ("", "-wal"):
            shutil.copyfile(f"{db}{suffix}", f"{copy}{suffix}")
        return copy
    finally:
        holder.close()
