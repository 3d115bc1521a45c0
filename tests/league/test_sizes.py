"""The league's size limit at the broker: the shipped ``pub.conf`` (``message_size_limit``, the
league's own ``MAX_MESSAGE_BYTES``) turns away a message past it, so a 20 MB finished game or a
30 MB retained live view is never kept, retained or sent to the league service (a 30 MB live
view raised the service to 273 MiB and was sent to it again at each resubscription).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore
from pegboard.league.topics import MAX_MESSAGE_BYTES
from tests.league.conftest import Mosquitto, wait_until
from tests.league.shipped import shipped_pub_broker
from tests.league.test_service import game

Make = Callable[..., Mosquitto]

BIG = 1024 * 1024  # four times the limit: the 20 and 30 MB fail the same way


def test_the_shipped_broker_turns_away_a_message_past_the_leagues_size_limit(
    tmp_path: Path, mosquitto: Make, caplog: pytest.LogCaptureFixture
) -> None:
    broker = shipped_pub_broker(tmp_path, mosquitto)
    (tmp_path / "league.pw").write_text("l-secret\n")
    service = LeagueService(
        LeagueStore(tmp_path / "league.db"),
        Broker("127.0.0.1", broker.port, "league", tmp_path / "league.pw"),
    )
    caplog.set_level(logging.WARNING, logger="pegboard.league")
    acks: list[int] = []
    # MQTT 3.1.1: Mosquitto 2.0.11 answers an MQTT 5 client's oversize message with a PUBACK
    # that paho cannot read, and paho reconnects and sends it again, over and over
    board = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="t1", protocol=mqtt.MQTTv311)
    board.username_pw_set("t1", "t1-secret")
    board.on_publish = lambda c, u, mid, reason, props: acks.append(mid)
    try:
        service.start()
        assert service.wait_connected(30.0)
        board.connect("127.0.0.1", broker.port)
        board.loop_start()
        live = json.dumps({"view": {"pad": "x" * BIG}}).encode()
        finished = json.dumps({**json.loads(game(1)), "pad": "y" * BIG}).encode()
        # in this order on one connection, so the broker passes on in this order what it takes
        board.publish("pegboard/v1/red-lion/t1/live", live, qos=1, retain=True)
        board.publish("pegboard/v1/red-lion/t1/finished", finished, qos=1)
        board.publish("pegboard/v1/red-lion/t1/finished", game(2), qos=1)  # a real one
        wait_until(lambda: len(acks) == 3, 30.0, "the broker's three PUBACKs")
        wait_until(lambda: service.store.count() == 1, 30.0, "the real game")
    finally:
        board.disconnect()
        board.loop_stop()
        service.close()
        service.store.close()
    said = [r.getMessage() for r in caplog.records if r.name.startswith("pegboard")]
    log = (broker.folder / "mosquitto.log").read_text(errors="replace")
    dropped = re.findall(r"Dropped too large PUBLISH from t1 \(d0, q1, (r[01])", log)
    print(
        f"\n{BIG} B messages on the shipped pub.conf (limit {MAX_MESSAGE_BYTES} B): the broker "
        f"dropped {len(dropped)} ({dropped}); the service said {said}"
    )
    assert dropped == ["r1", "r0"]  # the retained live view and the game: neither kept
    assert said == []  # nothing past the limit reached the service (it would have said so)
    assert [g.game_id for g in LeagueStore(tmp_path / "league.db").games()] == ["g2"]


@pytest.mark.parametrize("name", ["pub.conf", "central.conf"])
def test_the_example_brokers_limit_a_message_to_the_leagues_own_limit_and_say_why(
    name: str,
) -> None:
    lines = (Path(__file__).resolve().parents[2] / "hardware" / "mosquitto" / name).read_text()
    said = lines.splitlines()
    [(i, line)] = [(i, x) for i, x in enumerate(said) if x.startswith("message_size_limit ")]
    assert int(line.split()[1]) == MAX_MESSAGE_BYTES
    assert said[i - 1].startswith("#") and "256 KiB" in " ".join(said[i - 3 : i])
