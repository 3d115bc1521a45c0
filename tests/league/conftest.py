"""A real Mosquitto for the league's tests, on 127.0.0.1 at a free port.

Mosquitto started as root drops to the ``mosquitto`` user, which then cannot write a
persistence folder under pytest's ``tmp_path`` (root's, mode 0700): saved messages would be
lost without a word. So the test configs say ``user root`` when the tests run as root (a test
broker on loopback, in a throwaway folder); as anyone else Mosquitto keeps the user it was
started as. Real configs (``hardware/mosquitto/``) keep Debian's ``mosquitto`` user, which
owns ``/var/lib/mosquitto``.

Without ``mosquitto`` the tests skip, saying so, except in CI (``CI=true``), where they fail:
``make test`` installs it (``tools/need_system_packages.sh``).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pegboard.engine.commands import parse_command
from pegboard.engine.game import Phase
from pegboard.engine.rules import Rules
from pegboard.journal import Journal
from pegboard.league.tourney_store import TourneyStore
from pegboard.tourney.night import seat
from pegboard.tourney.steps import seating_payload
from tests.web.conftest import browser  # noqa: F401  (the league page's tests use it)


def mosquitto_binary() -> str:
    """The ``mosquitto`` program: on PATH or in /usr/sbin (outside a user's PATH on Debian)."""
    found = shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/sbin/mosquitto") if os.access(p, os.X_OK)), None
    )
    if found is None:
        reason = "mosquitto is not installed (make test installs it: apt-get install mosquitto)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; in CI the league's tests never skip")
        pytest.skip(reason)
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(check: Callable[[], bool], timeout: float = 30.0, what: str = "it") -> None:
    """Poll *check* every 20 ms until true; fail after *timeout* seconds (generous: a TLS test
    once ran out of 10 s on a loaded machine, and passed alone)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(0.02)


class Mosquitto:
    """One broker: ``start`` (and again after ``stop``, on the same port and folder).

    Its config is a loopback listener on ``port`` then *extra*; with *own_listener* False,
    *extra* must open ``port`` itself (a config rendered from ``hardware/mosquitto``).
    """

    def __init__(
        self, folder: Path, extra: str = "", port: int | None = None, *, own_listener: bool = True
    ) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.extra = extra
        self.own_listener = own_listener
        self.process: subprocess.Popen[bytes] | None = None
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "data").mkdir(exist_ok=True)
        self.conf = folder / "mosquitto.conf"

    def write_conf(self) -> None:
        user = "user root\n" if os.geteuid() == 0 else ""
        listener = f"listener {self.port} 127.0.0.1\n" if self.own_listener else ""
        saving = "persistence true\nautosave_interval 1\n" if self.own_listener else ""
        self.conf.write_text(
            f"{user}{listener}{saving}persistence_location {self.folder / 'data'}/\n"
            f"log_dest file {self.folder / 'mosquitto.log'}\nlog_type all\n" + self.extra
        )

    def start(self) -> Mosquitto:
        self.write_conf()
        self.process = subprocess.Popen(
            [mosquitto_binary(), "-c", str(self.conf)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

        def accepts() -> bool:
            assert self.process is not None
            if self.process.poll() is not None:
                log = (self.folder / "mosquitto.log").read_text(errors="replace")[-2000:]
                raise AssertionError(f"mosquitto exited {self.process.returncode}:\n{log}")
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
            except OSError:
                return False
            return True

        wait_until(accepts, 10.0, f"mosquitto on port {self.port}")
        return self

    def kill(self) -> None:
        """SIGKILL: whatever Mosquitto has not saved is gone (a power cut, an OOM kill)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
        self.process = None

    def save(self) -> None:
        """SIGUSR1: Mosquitto writes its persistence file now; returns once it is written."""
        assert self.process is not None
        saved = self.folder / "data" / "mosquitto.db"
        before = saved.stat().st_mtime_ns if saved.exists() else None
        self.process.send_signal(signal.SIGUSR1)
        log = self.folder / "mosquitto.log"
        wait_until(
            lambda: (
                saved.exists()
                and saved.stat().st_mtime_ns != before
                and "Saving in-memory database" in log.read_text(errors="replace")
            ),
            10.0,
            "mosquitto's save",
        )

    def stop(self) -> None:
        """SIGTERM: Mosquitto saves its persistence file and exits."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)
        self.process = None


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Callable[..., Mosquitto]]:
    """Make brokers (``make(name, extra_conf, port=, own_listener=)``, not started); all are
    stopped at the end."""
    made: list[Mosquitto] = []
    mosquitto_binary()

    def make(
        name: str = "broker",
        extra: str = "allow_anonymous true\n",
        *,
        port: int | None = None,
        own_listener: bool = True,
    ) -> Mosquitto:
        broker = Mosquitto(tmp_path / name, extra, port, own_listener=own_listener)
        made.append(broker)
        return broker

    yield make
    for broker in made:
        broker.stop()


def finish_games(store: Journal, games: int, loser: int = 50) -> None:
    """Play *games* games to the end on *store* (hand pegs; a new match whenever one ends)."""
    for _ in range(games):
        state = store.state
        if state is None or state.phase is Phase.MATCH_OVER:
            state = store.new_match(Rules.six_card(), ("Ann", "Bob"))

        def do(text: str, names: tuple[str, ...] = state.names) -> None:
            store.do(parse_command(text, names))

        if state.phase is Phase.GAME_OVER:
            do("next")
        if store.state is not None and store.state.phase is Phase.CUT:
            do("cut 9C 3D")
        do("starter 5C")
        for points in [60] * (loser // 60) + ([loser % 60] if loser % 60 else []):
            do(f"peg Bob {points}")
        do("peg Ann 60")
        do("peg Ann 61")


@pytest.fixture
def night(tmp_path: Path) -> Iterator[TourneyStore]:
    """A tournament night of four (Ann, Bob, Cy, Di) on boards pub/b1 and pub/b2, round 1
    seated (drawn with seed 2)."""
    store = TourneyStore.create(tmp_path / "tourney.db", "club", 3)
    for name in ("Ann", "Bob", "Cy", "Di"):
        store.add("enter", {"name": name}, at="t", by="director")
    store.add("boards", {"boards": ["pub/b1", "pub/b2"]}, at="t", by="director")
    drawn = seat(store.night, random.Random(2)).rounds[-1]
    store.add("seat", seating_payload(drawn), at="t", by="director")
    yield store
    store.close()
