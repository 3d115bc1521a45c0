"""A tournament night on a real Mosquitto: from a board's last game to the projector.

    .venv/bin/python bench/bench_tourney.py [--players 60] [--boards 18] [--rounds 5]

A night of *players* players (tables past the *boards* boards are played on paper and
entered by the director) is served by ``pegboard league serve --tourney`` in its own process;
the boards (a journal with its outbox and the league publisher each, in this process) play
each round's games on their tables under the pairings' names. In each round every board
finishes its game but one; then the last one finishes, and the time is taken from the
moment its winning peg is committed (``Journal.do`` returns) to the moment the projector's
event stream carries standings that count it (every table of the round done); with
``--browser``, to the moment Chromium has drawn that payload (the page's ``data-version``).
Printed: each round's time, and the median and worst.

Loopback only; mosquitto must be installed (``make test`` installs it).
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_league import Stream, start_broker

from pegboard.config.league import LeagueConfig
from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules
from pegboard.engine.view import render_view
from pegboard.journal import Journal
from pegboard.league.publisher import LeaguePublisher
from pegboard.league.tourney_store import TourneyStore
from pegboard.tourney.night import Result, seat
from pegboard.tourney.seating import Pairing
from pegboard.tourney.steps import result_payload, seating_payload

ROOT = Path(__file__).resolve().parents[1]


def play(board: tuple[Journal, LeaguePublisher], pairing: Pairing, rng: random.Random) -> float:
    """The pairing's game to its winning peg, and the view handed to the publisher (as the
    table's controller does after every command); when the winning peg was committed."""
    journal, publisher = board
    state = journal.new_match(Rules.six_card(), pairing.players)
    winner, loser = pairing.players if rng.random() < 0.5 else pairing.players[::-1]
    score = rng.randint(60, 120)
    texts = ["cut 9C 3D", "starter 5C"]
    while score:
        texts.append(f"peg {loser} {min(score, 60)}")
        score -= min(score, 60)
    texts += [f"peg {winner} 60", f"peg {winner} 61"]
    for text in texts:
        journal.do(parse_command(text, state.names))
    ended = time.perf_counter()
    assert journal.state is not None
    publisher.on_change(journal.state, render_view(journal.state))
    return ended


def open_page(url: str):  # type: ignore[no-untyped-def]
    """The projector page in the system's Chromium at 1920x1080 (Playwright)."""
    import shutil

    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(
        executable_path=shutil.which("chromium"), args=["--no-sandbox"]
    )
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(url)
    return page


def round_done(payload: dict[str, object], number: int) -> bool:
    tables = payload.get("tables")
    return (
        payload.get("round") == number
        and isinstance(tables, list)
        and all(not t["playing"] for t in tables)
    )


def wait_for(stream: Stream, check: object, timeout: float = 60.0) -> float:
    deadline = time.monotonic() + timeout
    with stream.cond:
        while True:
            for at, payload in reversed(stream.payloads):
                if check(payload):  # type: ignore[operator]
                    return at
            left = deadline - time.monotonic()
            if left <= 0:
                raise SystemExit("the projector never showed it")
            stream.cond.wait(left)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--boards", type=int, default=18)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--browser", action="store_true", help="time it drawn in Chromium too")
    args = parser.parse_args()
    page = None
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        broker, port = start_broker(folder)
        night = TourneyStore.create(folder / "tourney.db", "bench", args.rounds)
        for i in range(1, args.players + 1):
            night.add("enter", {"name": f"P{i}"}, at="t", by="director")
        names = [f"club/b{i}" for i in range(1, args.boards + 1)]
        night.add("boards", {"boards": names}, at="t", by="director")
        serve = subprocess.Popen(
            [sys.executable, "-m", "pegboard", "league", "serve", "--broker",
             f"127.0.0.1:{port}", "--db", str(folder / "league.db"), "--web-port", "0",
             "--tourney", str(folder / "tourney.db"), "--projector-port", "0"],
            stdout=subprocess.PIPE, text=True, cwd=ROOT,
        )  # fmt: skip
        boards: list[tuple[Journal, LeaguePublisher]] = []
        try:
            assert serve.stdout is not None
            line = serve.stdout.readline()
            while "projector at " not in line:
                line = serve.stdout.readline()
            url = line.split("projector at ")[1].split()[0]
            stream = Stream(url)
            if args.browser:
                page = open_page(url)
            for i in range(1, args.boards + 1):
                db = folder / f"b{i}.db"
                journal = Journal(db, outbox=True)
                config = LeagueConfig("127.0.0.1", "club", f"b{i}", port=port)
                publisher = LeaguePublisher(config, db)
                publisher.start()
                boards.append((journal, publisher))
            while not all(p.connected for _, p in boards):
                time.sleep(0.05)
            times = []
            for number in range(1, args.rounds + 1):
                drawn = seat(night.night, rng).rounds[-1]
                night.add("seat", seating_payload(drawn), at="t", by="director")
                on_boards = [p for p in drawn.pairings if p.board]
                for p in drawn.pairings:
                    if not p.board:  # a paper table: the director enters it
                        result = Result(number, p.table, p.first, p.second, 121, 100)
                        night.add("report", result_payload(result), at="t", by="director")
                for p in on_boards[:-1]:
                    play(boards[p.table - 1], p, rng)
                last = on_boards[-1]
                wait_for(
                    stream,
                    lambda v, n=number: (
                        v.get("round") == n and sum(t["playing"] for t in v["tables"]) == 1
                    ),  # type: ignore[index]
                )
                ended = play(boards[last.table - 1], last, rng)
                shown = wait_for(stream, lambda v, n=number: round_done(v, n))
                drawn_at = shown
                if page is not None:
                    version = next(
                        v["version"] for _, v in stream.payloads if round_done(v, number)
                    )
                    page.wait_for_function(
                        f"Number(document.body.dataset.version) >= {version}", polling="raf"
                    )
                    drawn_at = time.perf_counter()
                times.append(drawn_at - ended)
                print(
                    f"round {number}: last game to the projector's stream "
                    f"{1000 * (shown - ended):.0f} ms"
                    + (f", drawn in Chromium {1000 * (drawn_at - ended):.0f} ms" if page else "")
                )
            print(
                f"{args.players} players, {args.boards} boards, {len(times)} rounds: median "
                f"{1000 * statistics.median(times):.0f} ms, worst {1000 * max(times):.0f} ms"
            )
        finally:
            for journal, publisher in boards:
                publisher.close()
                journal.close()
            night.close()
            serve.send_signal(signal.SIGTERM)
            serve.wait(10)
            broker.terminate()
            broker.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
