"""TLS for the league, for real: throwaway certificates (``certs.py``, Debian's openssl), a real
Mosquitto with a TLS listener on 127.0.0.1, and the example configs of ``hardware/mosquitto``.

- A board with ``[league] tls = true`` and ``ca_file`` sends its game over TLS, and
  ``pegboard league serve --ca-file`` (over TLS too) stores it.
- A board that trusts another CA is refused: one clear error line, however often it retries,
  and the game stays in its outbox.
- The pub's broker bridges to the centre's TLS listener as ``bridge.conf`` says
  (``bridge_cafile``, ``bridge_insecure false``), and the game reaches the central standings:
  ``central.conf``, ``pub.conf``, ``bridge.conf`` and ``acl`` are used as they are, with only
  their paths, ports, addresses and the password swapped for the test's; the league's receipt
  comes back across the bridge to the board, which then empties its outbox.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from pegboard.config.settings import parse_config
from pegboard.journal import Journal
from pegboard.league.publisher import LeaguePublisher
from pegboard.league.service import Broker, LeagueService
from pegboard.league.standings import LeagueError
from pegboard.league.store import LeagueStore
from tests.league.certs import ServerCert, make_ca, make_server
from tests.league.conftest import Mosquitto, finish_games, free_port, wait_until

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "hardware" / "mosquitto"

Make = Callable[..., Mosquitto]


def outbox_rows(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])


def tls_broker(make: Make, server: ServerCert) -> tuple[Mosquitto, int]:
    """A broker with a plain loopback listener (for its start-up check) and a TLS one."""
    port = free_port()
    broker = make(
        "tls",
        "allow_anonymous true\n"
        f"listener {port} 127.0.0.1\n"
        f"cafile {server.ca.cert}\ncertfile {server.cert}\nkeyfile {server.key}\n",
    ).start()
    return broker, port


def board_config(tmp_path: Path, port: int, ca_file: Path) -> str:
    return (
        f'[game]\ndatabase = "{tmp_path / "board.db"}"\n'
        f'[league]\nbroker = "127.0.0.1"\nport = {port}\nvenue = "red-lion"\nboard = "t1"\n'
        f'tls = true\nca_file = "{ca_file}"\n'
    )


def test_a_board_sends_its_game_over_tls_to_a_league_served_over_tls(
    tmp_path: Path, mosquitto: Make
) -> None:
    server = make_server(make_ca(tmp_path / "pki"), tmp_path / "pki")
    broker, tls_port = tls_broker(mosquitto, server)
    serve = subprocess.Popen(
        [sys.executable, "-m", "pegboard", "league", "serve", "--broker",
         f"127.0.0.1:{tls_port}", "--ca-file", str(server.ca.cert),
         "--db", str(tmp_path / "league.db"), "--web-port", "0"],
        stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    config = parse_config(board_config(tmp_path, tls_port, server.ca.cert))
    assert config.league is not None and config.league.tls
    store = Journal(config.game.database, outbox=True)
    publisher = LeaguePublisher(config.league, config.game.database, poll=0.05)
    try:
        assert serve.stdout is not None
        url = serve.stdout.readline().split("standings at ")[1].split()[0]

        def view() -> dict[str, object]:
            with urllib.request.urlopen(url + "view.json", timeout=5) as answer:
                return dict(json.loads(answer.read()))

        publisher.start()
        # the service has subscribed once it has the board's (retained) status: a game
        # finished before its first subscription would have no session to wait in
        wait_until(lambda: bool(view().get("boards")), 30.0, "the service's subscription")
        finish_games(store, 1)
        wait_until(lambda: outbox_rows(config.game.database) == 0, 30.0, "the broker's ack")
        wait_until(lambda: view().get("games") == 1, 30.0, "the game in the standings")
        assert [s["name"] for s in view()["standings"]] == ["Ann", "Bob"]  # type: ignore[attr-defined]
        assert publisher.failures.count == 0
    finally:
        publisher.close()
        store.close()
        serve.terminate()
        assert serve.wait(10) == 0
    log = (broker.folder / "mosquitto.log").read_text(errors="replace")
    assert "pegboard-red-lion-t1" in log and "pegboard-league" in log


def test_a_board_that_trusts_another_ca_is_refused_in_one_line_and_keeps_its_game(
    tmp_path: Path, mosquitto: Make, caplog: pytest.LogCaptureFixture
) -> None:
    server = make_server(make_ca(tmp_path / "pki"), tmp_path / "pki")
    stranger = make_ca(tmp_path / "elsewhere", "other-ca")
    _, tls_port = tls_broker(mosquitto, server)
    config = parse_config(board_config(tmp_path, tls_port, stranger.cert))
    assert config.league is not None
    db = config.game.database
    with Journal(db, outbox=True) as store:
        finish_games(store, 1)
    publisher = LeaguePublisher(config.league, db, poll=0.05)
    caplog.set_level(logging.INFO, logger="pegboard.league")
    try:
        publisher.start()
        wait_until(lambda: publisher.failures.count >= 2, 10.0, "a second attempt")
    finally:
        publisher.close()
    assert not publisher.connected
    assert outbox_rows(db) == 1  # the game waits for a broker the board trusts
    said = [(r.levelno, r.getMessage()) for r in caplog.records if r.name.startswith("pegboard")]
    assert said == [
        (
            logging.ERROR,
            f"league: the broker 127.0.0.1:{tls_port} failed the TLS check: self-signed "
            f"certificate in certificate chain (check [league] ca_file '{stranger.cert}': it must "
            "be the CA that signed the broker's certificate)",
        )
    ]


def test_a_ca_file_that_is_not_there_is_one_line_before_anything_starts(tmp_path: Path) -> None:
    config = parse_config(board_config(tmp_path, 8883, tmp_path / "missing.crt"))
    assert config.league is not None
    board = r"cannot load the broker's CA from \[league\] ca_file '[^']*missing\.crt': No such file"
    with pytest.raises(LeagueError, match=board + r" or directory$"):
        LeaguePublisher(config.league, config.game.database)
    service = r"cannot load the broker's CA from --ca-file '[^']*missing\.crt': No such file"
    with pytest.raises(LeagueError, match=service + r" or directory$"):
        LeagueService(
            LeagueStore(tmp_path / "league.db"),
            Broker("127.0.0.1", 8883, ca_file=tmp_path / "missing.crt"),
        )


# -- the example configs, across a TLS bridge --------------------------------------------------


def render(name: str, swaps: dict[str, str], drop: tuple[str, ...] = ()) -> str:
    """``hardware/mosquitto/<name>`` with each swap made (each must be found) and the lines
    starting with a *drop* left out."""
    text = (EXAMPLES / name).read_text()
    for old, new in swaps.items():
        assert old in text, f"{name} no longer says {old!r}: update this test with it"
        text = text.replace(old, new)
    lines = [line for line in text.splitlines() if not line.startswith(drop)]
    return "\n".join(lines) + "\n"


def test_the_example_configs_bridge_a_pub_to_the_centre_over_tls(
    tmp_path: Path, mosquitto: Make
) -> None:
    pki = tmp_path / "pki"
    server = make_server(make_ca(pki), pki, "central")
    passwords = tmp_path / "pegboard.passwd"
    for user, password in (("league", "l-secret"), ("t1", "t1-secret"), ("red-lion", "r-l")):
        subprocess.run(
            ["mosquitto_passwd", "-b", *(["-c"] if not passwords.exists() else []),
             str(passwords), user, password],
            check=True, capture_output=True,
        )  # fmt: skip
    acl = tmp_path / "pegboard.acl"
    acl.write_text(render("acl", {}))  # as it is: venue red-lion
    common = {
        "/etc/mosquitto/pegboard.passwd": str(passwords),
        "/etc/mosquitto/pegboard.acl": str(acl),
    }
    central_port, central_tls = free_port(), free_port()
    central_conf = render(
        "central.conf",
        {
            **common,
            "listener 1883 127.0.0.1": f"listener {central_port} 127.0.0.1",
            "listener 8883 0.0.0.0": f"listener {central_tls} 127.0.0.1",
            "/etc/mosquitto/certs/central.crt": str(server.cert),
            "/etc/mosquitto/certs/central.key": str(server.key),
            "/etc/mosquitto/certs/ca.crt": str(server.ca.cert),
        },
    )
    central = mosquitto("central", central_conf, port=central_port, own_listener=False).start()
    pub_port = free_port()
    pub_conf = render(
        "pub.conf",
        {**common, "listener 1883 127.0.0.1": f"listener {pub_port} 127.0.0.1"},
        drop=("listener 1883 192.168.1.10",),  # the pub's LAN address is not this machine's
    )
    bridge_conf = render(
        "bridge.conf",
        {
            "address league.example.org:8883": f"address 127.0.0.1:{central_tls}",
            "remote_password CHANGE-ME": "remote_password r-l",
            "/etc/mosquitto/certs/ca.crt": str(server.ca.cert),
            "restart_timeout 5 60": "restart_timeout 1 2",  # the test's patience, not TLS
        },
    )
    assert "bridge_insecure false" in bridge_conf  # the centre's name is checked
    mosquitto("pub", pub_conf + bridge_conf, port=pub_port, own_listener=False).start()
    (tmp_path / "league.pw").write_text("l-secret\n")
    (tmp_path / "t1.pw").write_text("t1-secret\n")
    service = LeagueService(
        LeagueStore(tmp_path / "league.db"),
        Broker("127.0.0.1", central_port, "league", tmp_path / "league.pw"),
    )
    config = parse_config(
        f'[game]\ndatabase = "{tmp_path / "board.db"}"\n'
        f'[league]\nbroker = "127.0.0.1"\nport = {pub_port}\nvenue = "red-lion"\n'
        f'board = "t1"\npassword_file = "{tmp_path / "t1.pw"}"\n'
    )
    assert config.league is not None
    store = Journal(config.game.database, outbox=True)
    publisher = LeaguePublisher(config.league, config.game.database, poll=0.05)
    try:
        service.start()
        assert service.wait_connected(10.0)
        publisher.start()
        finish_games(store, 1)
        wait_until(lambda: service.store.count() == 1, 15.0, "the game at the centre")
        [game] = service.store.games()
        assert (game.venue, game.board, game.winner.name) == ("red-lion", "t1", "Ann")
        # the league's receipt comes back over the bridge, and the board lets the game go
        wait_until(lambda: outbox_rows(config.game.database) == 0, 15.0, "the receipt")
    finally:
        publisher.close()
        store.close()
        service.close()
        service.store.close()
    log = (central.folder / "mosquitto.log").read_text(errors="replace")
    assert "bridge-red-lion" in log and "u'red-lion'" in log, log[-2000:]
