"""The board's side without a broker: the outbox, the config, paho only when asked, the store,
the command line."""

from __future__ import annotations

import json
import re
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.cli.main import main
from pegboard.config.settings import parse_config
from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules
from pegboard.errors import ConfigError
from pegboard.journal import Journal
from pegboard.league.service import Broker, parse_broker
from pegboard.league.standings import LeagueError
from pegboard.league.store import LeagueStore
from pegboard.league.topics import Kind, parse_topic, topic
from tests.league.conftest import finish_games


def outbox(db: Path) -> list[dict[str, object]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT payload FROM outbox ORDER BY id").fetchall()
    return [json.loads(p) for (p,) in rows]


def test_a_finished_game_is_in_the_outbox_with_everything_the_league_needs(tmp_path: Path) -> None:
    with Journal(tmp_path / "b.db", outbox=True) as store:
        finish_games(store, 2, loser=89)
    first, second = outbox(tmp_path / "b.db")
    assert first["game_id"] != second["game_id"] and first["revision"] == 1
    assert first["winner"] == "Ann" and first["game_points"] == 2 and first["variant"] == "six-card"
    assert [(s["name"], s["score"], s["lurch"]) for s in first["sides"]] == [  # type: ignore[attr-defined]
        ("Ann", 121, "none"),
        ("Bob", 89, "lurched"),
    ]
    assert first["deals"][0]["points"] == [121, 89]  # type: ignore[index]
    assert str(first["started"]) <= str(first["ended"]) <= str(second["started"])


def test_a_win_taken_back_is_withdrawn_and_won_again_under_the_same_id(tmp_path: Path) -> None:
    with Journal(tmp_path / "b.db", outbox=True) as store:
        finish_games(store, 1)
        for text in ("undo", "peg Ann 61"):
            store.do(parse_command(text, ("Ann", "Bob")))
    won, withdrawn, again = outbox(tmp_path / "b.db")
    assert won["game_id"] == withdrawn["game_id"] == again["game_id"]
    assert [won["revision"], withdrawn["revision"], again["revision"]] == [1, 2, 3]
    assert withdrawn == {"game_id": won["game_id"], "revision": 2, "withdrawn": True}
    league = LeagueStore(tmp_path / "league.db")
    assert league.add("red-lion", "t1", won) and league.count() == 1
    assert league.add("red-lion", "t1", withdrawn) and league.count() == 0
    assert league.add("red-lion", "t1", again) and league.count() == 1
    # a late copy of an older revision changes nothing: the highest revision stands
    assert not league.add("red-lion", "t1", withdrawn) and league.count() == 1
    league.close()


def test_the_outbox_is_only_kept_when_asked_and_a_reader_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    with Journal(db) as store:
        finish_games(store, 1)
    with sqlite3.connect(db) as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    assert "outbox" not in tables
    before = db.read_bytes()
    with Journal(db, readonly=True, outbox=True) as reader:
        reader.load()
    assert db.read_bytes() == before  # the older journal gains the table from a writer only
    with Journal(db, outbox=True) as store:
        store.load()
        finish_games(store, 1)
    assert len(outbox(db)) == 1


def test_a_game_from_another_board_cannot_overwrite_a_game_id(tmp_path: Path) -> None:
    with Journal(tmp_path / "b.db", outbox=True) as store:
        finish_games(store, 1)
    [payload] = outbox(tmp_path / "b.db")
    league = LeagueStore(tmp_path / "league.db")
    assert league.add("red-lion", "t1", payload)
    assert not league.add("red-lion", "t1", payload)  # the same again: nothing changes
    assert not league.add("crown", "t9", {**payload, "revision": 9, "withdrawn": True})
    assert [g.board for g in league.games()] == ["t1"]
    with pytest.raises(LeagueError, match="a game without a game id"):
        league.add("red-lion", "t1", {"withdrawn": True})
    league.close()


def test_league_config_is_optional_and_each_bad_value_is_one_line() -> None:
    assert parse_config("").league is None
    good = parse_config('[league]\nbroker = "hub"\nvenue = "red-lion"\nboard = "t1"\ntls = true')
    assert good.league is not None and (good.league.port, good.league.user) == (8883, "t1")
    ipv6 = parse_config('[league]\nbroker = "fd00::10"\nvenue = "red-lion"\nboard = "t1"')
    assert ipv6.league is not None and ipv6.league.broker == "fd00::10"
    for text, message in [
        ('broker = "hub"\nvenue = "red/lion"\nboard = "t1"', r"league\.venue must be a word"),
        ('venue = "v"\nboard = "t1"', r"league\.broker is required"),
        ('broker = "h"\nvenue = "v"\nboard = "t1"\nport = 0', r"league\.port must be a whole"),
        ('broker = "h"\nvenue = "v"\nboard = "t1"\ntls = "yes"', r"league\.tls must be true"),
        ('brokr = "h"', r"league\.brokr is not a known key \(did you mean 'broker'\?\)"),
        (
            'broker = "127.0.0.1:19883"\nvenue = "v"\nboard = "t1"',
            r"^config: league\.broker must be a host name or address, without a port \(the port "
            r"is \[league\] port, e\.g\. port = 19883\), got '127\.0\.0\.1:19883'$",
        ),
        ('broker = "[::1]"\nvenue = "v"\nboard = "t1"', r"league\.broker must be a host name"),
        (
            'broker = "h"\nvenue = "v"\nboard = "t1"\nca_file = "/etc/pegboard/ca.crt"',
            r"^config: league\.ca_file needs league\.tls = true \(without TLS no CA is used; "
            r"set tls = true, or remove ca_file\)$",
        ),
        ('broker = "mqtt://hub"\nvenue = "v"\nboard = "t1"', r"league\.broker must be a host"),
    ]:
        with pytest.raises(ConfigError, match=message):
            parse_config("[league]\n" + text)


def test_topics_round_trip_and_foreign_topics_are_ignored() -> None:
    for kind in Kind:
        assert parse_topic(topic("red-lion", "t1", kind)) == ("red-lion", "t1", kind)
    for name in ("pegboard/v2/a/b/live", "pegboard/v1/a/b/c/live", "pegboard/v1/a b/c/live"):
        assert parse_topic(name) is None


@pytest.mark.parametrize(
    "text", ["", ":1883", "hub:0", "hub:x", "a:b:c", "[::1]x", "a b:1", "hub\t:1", "[hub]:1"]
)
def test_a_bad_broker_address_is_refused(text: str) -> None:
    with pytest.raises(LeagueError, match=r"--broker must be HOST or HOST:PORT"):
        parse_broker(text)


def test_a_password_file_without_a_user_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path / "league.pw"
    secret.write_text("l-secret\n")
    message = f"--password-file '{secret}' needs --username (the broker's user that password is for"
    with pytest.raises(LeagueError, match=re.escape(message)):
        Broker("127.0.0.1", password_file=secret)
    db = tmp_path / "league.db"
    assert main(["league", "serve", "--password-file", str(secret), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"pegboard: error: {message}") and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        pytest.param(
            ["--username", "league", "--password-file", "{missing}"],
            "cannot read the league password from --password-file '{missing}': No such file or "
            "directory",
            id="password-file",
        ),
        pytest.param(
            ["--ca-file", "{missing}"],
            "cannot load the broker's CA from --ca-file '{missing}': No such file or directory",
            id="ca-file",
        ),
        pytest.param(
            ["--ca-file", "{text}"],
            "cannot load the broker's CA from --ca-file '{text}': not a certificate (",
            id="ca-file-not-a-certificate",
        ),
        pytest.param(
            ["--web-port", "{busy}"],
            "127.0.0.1:{busy}: Address already in use (another program on that port? change "
            "--web-port)",
            id="web-port-in-use",
        ),
        pytest.param(
            ["--bind", "1.2.3.4.5"],
            "--bind must be an IP address: '0.0.0.0' (every interface) or '127.0.0.1' (this "
            "machine only), got '1.2.3.4.5'",
            id="bind",
        ),
        pytest.param(
            ["--broker", "a b:1"],
            "--broker must be HOST or HOST:PORT, got 'a b:1' (e.g. hub.local:1883)",
            id="broker-with-a-space",
        ),
        pytest.param(
            ["--client-id", ""],
            "--client-id must be a name without spaces, got '' (e.g. pegboard-league; each "
            "league service its own)",
            id="client-id-empty",
        ),
        pytest.param(
            ["--client-id", "my league"],
            "--client-id must be a name without spaces, got 'my league'",
            id="client-id-with-a-space",
        ),
    ],
)
def test_league_serve_checks_every_input_before_it_makes_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        text = tmp_path / "notes.txt"
        text.write_text("not a certificate\n")
        fill = {
            "missing": str(tmp_path / "missing"),
            "busy": str(busy.getsockname()[1]),
            "text": str(text),
        }
        options = [option.format(**fill) for option in options]
        db = tmp_path / "league.db"
        assert main(["league", "serve", "--db", str(db), *options]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pegboard: error: ") and err.count("\n") == 1, err
    assert message.format(**fill) in err
    assert "[Errno" not in err and "config:" not in err and "[web]" not in err
    for path in (fill["missing"], fill["text"]):
        assert err.count(path) <= 1, f"{path} named more than once: {err}"
    assert not db.exists()


def test_the_port_in_use_hint_names_the_league_option_in_german_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        db = tmp_path / "league.db"
        assert main(["league", "serve", "--db", str(db), "--web-port", port, "--lang", "de"]) == 1
    err = capsys.readouterr().err
    assert "(ein anderes Programm an diesem Port? --web-port ändern)" in err, err
    assert not db.exists()


def test_a_board_without_a_league_never_loads_paho(tmp_path: Path) -> None:
    code = (
        "import sys, threading\n"
        "from pegboard.config.settings import parse_config\n"
        "from pegboard.table.daemon import run_daemon\n"
        "from pegboard.table.wiring import sim_ports\n"
        "from pegboard.table.sdnotify import Notifier\n"
        f"config = parse_config('[game]\\ndatabase = \"{tmp_path / 'b.db'}\"')\n"
        "stop = threading.Event()\n"
        "run_daemon(config, sim_ports(config), notifier=Notifier(env={}), stop=stop,\n"
        "           install_signals=False, on_ready=lambda c: stop.set())\n"
        "print(sorted(m for m in sys.modules if m.startswith(('paho', 'pegboard.league'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_league_standings_prints_the_table_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal(tmp_path / "b.db", outbox=True) as store:
        finish_games(store, 2, loser=100)
    league = LeagueStore(tmp_path / "league.db")
    for payload in outbox(tmp_path / "b.db"):
        league.add("red-lion", "t1", payload)
    league.close()
    assert main(["league", "standings", "--db", str(tmp_path / "league.db")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["1", "Ann", "2", "2", "0", "4", "+42"]
    assert lines[2].split() == ["2", "Bob", "2", "0", "2", "0", "-42"]
    assert main(["league", "standings", "--db", str(tmp_path / "league.db"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["match_points"] == 4
    assert main(["league", "standings", "--db", str(tmp_path / "none.db")]) == 1
    assert "no league database at" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_league_standings_reads_without_leaving_a_file_and_refuses_a_game_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = LeagueStore(tmp_path / "league.db")
    league.close()  # the service stopped: its -wal and -shm are gone
    with Journal(tmp_path / "p.db") as store:
        finish_games(store, 1, loser=100)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert main(["league", "standings", "--db", str(tmp_path / "league.db")]) == 0
    capsys.readouterr()
    assert main(["league", "standings", "--db", str(tmp_path / "p.db")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'" + str(tmp_path / "p.db") + "' is not a league" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_rules_are_the_journals_own() -> None:
    assert Rules.five_card().lurch_line == 45  # the five-card line the standings inherit
