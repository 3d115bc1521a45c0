"""The pub's broker as the repository ships it: ``hardware/mosquitto/pub.conf`` and ``acl``, on
a real Mosquitto, with only the paths, the port and the passwords swapped for the test's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.league.conftest import Mosquitto, free_port
from tests.league.test_broker import make_passwords
from tests.league.test_tls import render

Make = Callable[..., Mosquitto]

BOARDS = ("t1", "t2", "t3", "t4")


def shipped_pub_broker(
    tmp_path: Path, mosquitto: Make, queue: bool = True, drop: tuple[str, ...] = ()
) -> Mosquitto:
    """The pub's broker as ``pub.conf`` and ``acl`` ship (venue red-lion), with a password for
    the league (``l-secret``) and each of ``BOARDS`` (``<board>-secret``); *queue* False leaves
    out the shipped queue limits (Mosquitto's defaults, as before they were set), and so does
    *drop* for the lines it names."""
    passwords = make_passwords(
        tmp_path / "secure", {"league": "l-secret", **{b: f"{b}-secret" for b in BOARDS}}
    )
    acl = tmp_path / "pegboard.acl"
    acl.write_text(render("acl", {}))
    port = free_port()
    conf = render(
        "pub.conf",
        {
            "/etc/mosquitto/pegboard.passwd": str(passwords),
            "/etc/mosquitto/pegboard.acl": str(acl),
            "listener 1883 127.0.0.1": f"listener {port} 127.0.0.1",
        },
        drop=("listener 1883 192.168.1.10", *(() if queue else ("max_queued_",)), *drop),
    )
    return mosquitto("pub", conf, port=port, own_listener=False).start()
