"""The league service's systemd unit, as shipped: what a maker must make by hand, and its
sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "pegboard-league.service"


def read_unit(path: Path) -> dict[str, list[str]]:
    """Each setting's values, in order (continued lines joined; comments and sections left out)."""
    settings: dict[str, list[str]] = {}
    text = path.read_text().replace("\\\n", " ")
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(" ".join(value.split()))
    return settings


def test_the_league_unit_reads_its_password_through_systemd_and_needs_no_group() -> None:
    settings = read_unit(UNIT)
    # nothing makes a group for it (install.sh installs the board's units only), and systemd
    # refuses to start a unit whose SupplementaryGroups= names a group that is not there
    assert "SupplementaryGroups" not in settings
    [credential] = settings["LoadCredential"]
    name, _, source = credential.partition(":")
    assert source == "/etc/pegboard/league-service.password"
    [start] = settings["ExecStart"]
    assert f"--username league --password-file %d/{name}" in start
    header = UNIT.read_text().split("[Unit]")[0]
    assert "/etc/pegboard/league-service.password, root's and mode 0600" in " ".join(
        line.lstrip("# ") for line in header.splitlines()
    )


def test_the_league_unit_keeps_its_sandbox() -> None:
    settings = read_unit(UNIT)
    for key, value in {
        "DynamicUser": "yes",
        "StateDirectory": "pegboard-league",
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "PrivateDevices": "yes",
        "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6",
        "CapabilityBoundingSet": "",
        "SystemCallFilter": "@system-service",
        "UMask": "0027",
    }.items():
        assert settings.get(key) == [value], key


def test_a_receipt_round_trips_and_covers_its_game_up_to_its_revision() -> None:
    from pegboard.league.receipt import Receipt

    receipt = Receipt("g1", 2)
    assert Receipt.from_payload(receipt.to_payload()) == receipt
    assert [receipt.covers("g1", r) for r in (1, 2, 3)] == [True, True, False]
    assert not receipt.covers("g2", 1)


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param(b"nope", id="not-json"),
        pytest.param(b'{"game_id": "g1"}', id="no-revision"),
        pytest.param(b'{"game_id": "", "revision": 1}', id="empty-id"),
        pytest.param(b'{"game_id": "g1", "revision": true}', id="bool-revision"),
        pytest.param(b"[1]", id="not-an-object"),
    ],
)
def test_what_is_not_a_receipt_is_refused(payload: bytes) -> None:
    from pegboard.league.receipt import Receipt
    from pegboard.league.standings import LeagueError

    with pytest.raises(LeagueError, match=r"not a receipt: b'"):
        Receipt.from_payload(payload)
