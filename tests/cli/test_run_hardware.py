"""``pegboard run`` on a computer that is not the board: it says so and suggests the simulator,
rather than run on unseen with nothing to press (issue 23)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard.devices.oled import RecordingDisplay
from pegboard.table import daemon, wiring
from pegboard.table.keyscript import ScriptedKeys
from pegboard.table.wiring import Ports
from tests.cli.helpers import cli


@pytest.fixture
def no_systemd(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("INVOCATION_ID", "NOTIFY_SOCKET"):
        monkeypatch.delenv(name, raising=False)


def fake_ports(monkeypatch: pytest.MonkeyPatch, ports: Ports) -> list[Ports]:
    """``open_ports`` gives *ports*; the daemon records what it was given instead of running."""
    ran: list[Ports] = []
    monkeypatch.setattr(wiring, "open_ports", lambda config: ports)
    monkeypatch.setattr(daemon, "run_daemon", lambda config, given: ran.append(given))
    return ran


@pytest.mark.usefixtures("no_systemd")
def test_run_with_no_key_source_says_so_and_suggests_the_simulator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    why = "cannot use GPIO17 for keypad row 0: Unable to load any default pin factory!"
    ran = fake_ports(monkeypatch, Ports(RecordingDisplay(), {}, [], {"keypad": why}))
    status, out, err = cli(capsys, "run", "--db", str(tmp_path / "p.db"))
    assert (status, out, ran) == (1, "", [])
    assert err == (
        f"pegboard: error: no key source opened (keypad: {why}): is this the pegboard's Pi? "
        "To try the table on this computer: pegboard run --simulate\n"
    )


@pytest.mark.usefixtures("no_systemd")
def test_run_with_a_key_source_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ports = Ports(RecordingDisplay(), {}, [ScriptedKeys(())], {"buttons": "GPIO busy"})
    ran = fake_ports(monkeypatch, ports)
    status, _, _ = cli(capsys, "run", "--db", str(tmp_path / "p.db"))
    assert (status, ran) == (0, [ports])


def test_under_systemd_the_board_runs_on_without_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The service keeps the page and the journal up (a restart loop would not bring a key
    source back); the journal says why, as it did."""
    monkeypatch.setenv("INVOCATION_ID", "0123456789abcdef")
    ports = Ports(RecordingDisplay(), {}, [], {"keypad": "no GPIO"})
    ran = fake_ports(monkeypatch, ports)
    status, _, _ = cli(capsys, "run", "--db", str(tmp_path / "p.db"))
    assert (status, ran) == (0, [ports])
