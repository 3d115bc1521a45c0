"""Plays a scripted match into a journal and acknowledges each command after its commit.

Run as ``python crash_worker.py DB SEED COUNT``: it opens (or resumes) the journal at DB, then
applies COUNT more commands chosen from the state by a seeded generator, printing
``ack <n> <command>`` after each commit (n = the journal length). The crash test and the soak
benchmark kill it with SIGKILL at random moments and check every acknowledged command is kept.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from pegboard.engine.cards import shuffled_deck
from pegboard.engine.commands import Command, Cut, Go, Next, Peg, Play, Redo, Starter, Undo
from pegboard.engine.game import GameState, Phase
from pegboard.engine.rules import Rules
from pegboard.journal import Journal


def next_command(state: GameState, rng: random.Random) -> Command:
    """A legal command for *state*: pegs, counting-mode plays, undo/redo, moving on."""
    table = state.table
    roll = rng.random()
    if roll < 0.1 and state.past:
        return Undo()
    if roll < 0.15 and state.future:
        return Redo()
    match table.phase:
        case Phase.CUT:
            return Cut(tuple(shuffled_deck(rng)[: state.rules.sides]))
        case Phase.STARTER:
            if roll < 0.5:
                return Peg(rng.randrange(state.rules.sides), rng.randint(1, 9))
            seen = {card for _, card in table.play.laid} if table.play else set()
            return Starter(next(c for c in shuffled_deck(rng) if c not in seen))
        case Phase.PLAY:
            play = table.play
            if play is None or roll < 0.3:
                return Next()
            seen = {card for _, card in play.laid} | set(filter(None, [table.starter]))
            fits = [c for c in shuffled_deck(rng) if c not in seen and play.count + c.pips <= 31]
            if play.can_go() and roll < 0.6:
                return Go()
            return Play(fits[0])
        case Phase.SHOW:
            if roll < 0.6:
                return Peg(rng.randrange(state.rules.sides), rng.randint(1, 16))
            return Next()
        case _:
            return Next()


def crash_trial(db: Path, rng: random.Random) -> tuple[int, list[str]]:
    """Run the worker, SIGKILL it after a random number of acks, and check the journal.

    Returns the number of acknowledged commands and a list of problems (lost or changed
    commands, a failed integrity check, a journal that does not replay); empty means none.
    """
    worker = subprocess.Popen(
        [sys.executable, __file__, str(db), str(rng.randrange(2**32)), "400"],
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    assert worker.stdout is not None
    acks: list[str] = []
    wanted = rng.randrange(0, 80)
    while len(acks) < wanted:
        line = worker.stdout.readline()
        if not line:
            break
        acks.append(line)
    worker.send_signal(signal.SIGKILL)  # lands at a random point of the next transaction
    acks.extend(worker.stdout.read().splitlines(keepends=True))
    worker.wait()
    worker.stdout.close()
    problems: list[str] = []
    conn = sqlite3.connect(db)
    try:
        check = conn.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            problems.append(f"integrity check: {check}")
        for ack in acks:
            _, match_id, seq, text = ack.rstrip("\n").split(" ", 3)
            row = conn.execute(
                "SELECT command FROM journal WHERE match_id = ? ORDER BY seq LIMIT 1 OFFSET ?",
                (int(match_id), int(seq) - 1),
            ).fetchone()
            if row is None or row[0] != text:
                problems.append(f"acknowledged {ack.strip()!r} but the journal has {row!r}")
    finally:
        conn.close()
    with Journal(db) as store:
        if store.notice:
            problems.append(store.notice)
        store.load()  # replays the whole journal; raises JournalError if it does not
    return len(acks), problems


def main(argv: list[str]) -> int:
    path, seed, count = argv[0], int(argv[1]), int(argv[2])
    rng = random.Random(seed)
    store = Journal(path)
    state = store.load()
    if state is None:
        state = store.new_match(Rules.six_card())
    done = len(store.commands())
    for _ in range(count):
        if state.phase is Phase.MATCH_OVER:
            state = store.new_match(Rules.six_card())
            done = 0
        command = next_command(state, rng)
        state, _ = store.do(command)
        done += 1
        print(f"ack {store.match_id} {done} {state.command_text(command)}", flush=True)
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
