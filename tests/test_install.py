"""``systemd/install.sh --dry-run``: the pegboard command goes on PATH, once; the sandbox's
network is opened by a drop-in only when asked (``--web``, ``--league``).

The dry run changes nothing and needs no root, so it runs here as it would on a Pi, with every
path it would write pointed into a temporary folder.
"""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

INSTALL = Path(__file__).resolve().parents[1] / "systemd" / "install.sh"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="install.sh is bash")


def dry_run(tmp_path: Path, *options: str) -> list[str]:
    """install.sh --dry-run with its venv, the PATH link, the units, the config folder and the
    Pi's model file under *tmp_path*; its lines."""
    done = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--prefix", str(tmp_path / "opt"),
         "--bin-dir", str(tmp_path / "bin"), "--boot-config", str(tmp_path / "config.txt"),
         "--unit-dir", str(tmp_path / "units"), "--config-dir", str(tmp_path / "etc"),
         "--model-file", str(tmp_path / "model"), *options],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return (done.stdout + done.stderr).splitlines()


def test_the_dry_run_shows_the_link_that_puts_pegboard_on_path(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    lines = dry_run(tmp_path)
    command, link = tmp_path / "opt/venv/bin/pegboard", tmp_path / "bin/pegboard"
    assert f"would run: ln -sfn {command} {link}" in lines
    assert not link.exists() and not link.is_symlink()  # a dry run changes nothing
    assert lines[-1].startswith("==> test the wiring: sudo pegboard selftest --config ")


def test_a_link_already_in_place_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    command, link = tmp_path / "opt/venv/bin/pegboard", tmp_path / "bin/pegboard"
    link.symlink_to(command)
    lines = dry_run(tmp_path)
    assert f"ok: {link} links to {command}" in lines
    assert not any("ln -sfn" in line for line in lines)


def test_a_stale_link_is_replaced_and_a_file_of_someone_elses_is_kept(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    command, link = tmp_path / "opt/venv/bin/pegboard", tmp_path / "bin/pegboard"
    link.symlink_to(tmp_path / "old/venv/bin/pegboard")
    assert f"would run: ln -sfn {command} {link}" in dry_run(tmp_path)
    link.unlink()
    link.write_text("#!/bin/sh\n")
    lines = dry_run(tmp_path)
    assert f"install.sh: {link} is not a link; left as it is (the command is {command})" in lines
    assert not any("ln -sfn" in line for line in lines)


def test_a_missing_bin_dir_is_made_first(tmp_path: Path) -> None:
    lines = dry_run(tmp_path)
    made = lines.index(f"would run: install -d -m 0755 {tmp_path / 'bin'}")
    assert lines[made + 1].startswith("would run: ln -sfn ")


SYSTEMD = INSTALL.parent


def test_no_drop_in_is_installed_unless_asked(tmp_path: Path) -> None:
    lines = dry_run(tmp_path)
    units = tmp_path / "units" / "pegboard.service.d"
    assert not any(".conf" in line and line.startswith("would run") for line in lines)
    assert f"not installed: {units / 'web.conf'} (for the pub page, [web]: install.sh --web)" in (
        lines
    )
    assert (
        f"not installed: {units / 'league.conf'} (for the league, [league]: install.sh --league)"
        in lines
    )


def test_web_installs_the_pub_pages_drop_in_and_only_that(tmp_path: Path) -> None:
    lines = dry_run(tmp_path, "--web")
    units = tmp_path / "units" / "pegboard.service.d"
    made = lines.index(f"would run: install -d -m 0755 {units}")
    assert lines[made + 1] == (
        f"would run: install -m 0644 {SYSTEMD / 'pegboard-web.conf'} {units / 'web.conf'}"
    )
    assert not any("league.conf" in line and line.startswith("would run") for line in lines)
    assert lines.index("would run: systemctl daemon-reload") > made + 1


def test_league_installs_its_drop_in_and_says_to_set_the_hub(tmp_path: Path) -> None:
    lines = dry_run(tmp_path, "--league", "--web")
    units = tmp_path / "units" / "pegboard.service.d"
    source = SYSTEMD / "pegboard-league-board.conf"
    assert f"would run: install -m 0644 {source} {units / 'league.conf'}" in lines
    assert f"note: set IPAddressAllow= in {units / 'league.conf'} to your hub's address" in lines


ROOT = INSTALL.parents[1]


@pytest.mark.parametrize(
    ("options", "extras"),
    [
        pytest.param((), "pi", id="no-league"),
        pytest.param(("--league",), "pi,league", id="league"),
        pytest.param(("--league", "--extras", "hw"), "hw,league", id="league-own-extras"),
        pytest.param(("--league", "--extras", "pi,league"), "pi,league", id="league-named-once"),
    ],
)
def test_league_installs_the_extra_that_holds_paho_mqtt(
    tmp_path: Path, options: tuple[str, ...], extras: str
) -> None:
    lines = dry_run(tmp_path, *options)
    pip = tmp_path / "opt" / "venv" / "bin" / "pip"
    assert f"would run: {pip} install --quiet --upgrade {ROOT}[{extras}]" in lines


def test_the_league_extra_is_the_one_that_holds_paho_mqtt() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert any(
        d.startswith("paho-mqtt") for d in project["project"]["optional-dependencies"]["league"]
    )


def test_a_drop_in_in_place_is_left_alone_and_one_not_asked_for_is_kept(tmp_path: Path) -> None:
    units = tmp_path / "units" / "pegboard.service.d"
    units.mkdir(parents=True)
    shutil.copy(SYSTEMD / "pegboard-web.conf", units / "web.conf")
    lines = dry_run(tmp_path, "--web")
    assert f"ok: {units / 'web.conf'} is up to date (the pub page, [web])" in lines
    assert not any("web.conf" in line and line.startswith("would run") for line in lines)
    lines = dry_run(tmp_path)
    assert (
        f"kept: {units / 'web.conf'} (the pub page, [web]; remove it to keep the daemon off the "
        "network)"
    ) in lines


def service_settings(path: Path) -> dict[str, str]:
    """The ``[Service]`` settings of a unit or drop-in (the last of each key)."""
    settings = {}
    for line in path.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            settings[key] = value
    return settings


def test_the_web_drop_in_opens_the_lan_only() -> None:
    unit = service_settings(SYSTEMD / "pegboard.service")
    assert (unit["PrivateNetwork"], unit["IPAddressDeny"]) == ("yes", "any")
    web = service_settings(SYSTEMD / "pegboard-web.conf")
    assert web["PrivateNetwork"] == "no"
    assert web["RestrictAddressFamilies"].split() == ["AF_UNIX", "AF_INET", "AF_INET6"]
    assert web["IPAddressAllow"].split() == [
        "localhost",
        "link-local",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "fc00::/7",
    ]
    assert "IPAddressDeny" not in web  # the unit's "any" stays: the rest of the world is dropped


EXAMPLE = ROOT / "hardware" / "pi-zero-2w-ssd1306-ws2812.toml"


def on_a(tmp_path: Path, model: str) -> None:
    """The Pi's model as the firmware writes it (NUL-terminated)."""
    (tmp_path / "model").write_bytes(model.encode() + b"\0")


@pytest.mark.parametrize(
    ("model", "clock"),
    [
        ("Raspberry Pi Zero 2 W Rev 1.0", "core_freq=250"),
        ("Raspberry Pi Zero W Rev 1.1", "core_freq=250"),
        ("Raspberry Pi Model B Plus Rev 1.2", "core_freq=250"),
        ("Raspberry Pi 2 Model B Rev 1.1", "core_freq=250"),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", "core_freq=250"),
        ("Raspberry Pi 4 Model B Rev 1.4", "core_freq_min=500"),
    ],
)
def test_ws2812_over_spi_pins_the_clock_without_being_asked(
    tmp_path: Path, model: str, clock: str
) -> None:
    """The default example drives WS2812 over SPI: on a Pi 0-3 the dry run shows core_freq=250
    going in the firmware config, without --spi-ws2812 (and a Pi 4's own setting)."""
    on_a(tmp_path, model)
    lines = dry_run(tmp_path)
    assert f"WS2812 over SPI ({EXAMPLE}) on a {model}: the clock is pinned ({clock})" in lines
    assert f"would append to {tmp_path / 'config.txt'}: {clock}" in lines


def test_a_pi_5_and_a_config_without_spi_ws2812_need_no_clock_setting(tmp_path: Path) -> None:
    on_a(tmp_path, "Raspberry Pi 5 Model B Rev 1.0")
    lines = dry_run(tmp_path)
    assert "ok: WS2812 over SPI on a Raspberry Pi 5 Model B Rev 1.0 needs no clock setting" in lines
    assert not any("core_freq" in line for line in lines)
    on_a(tmp_path, "Raspberry Pi Zero 2 W Rev 1.0")
    lines = dry_run(tmp_path, "--example", "pi5")  # APA102: its own clock line
    assert not any("core_freq" in line or "WS2812" in line for line in lines)


def test_the_config_in_place_decides_not_the_example(tmp_path: Path) -> None:
    on_a(tmp_path, "Raspberry Pi Zero 2 W Rev 1.0")
    (tmp_path / "etc").mkdir()
    apa102 = (ROOT / "hardware" / "pi5-sh1106-apa102.toml").read_text(encoding="utf-8")
    (tmp_path / "etc" / "config.toml").write_text(apa102, encoding="utf-8")
    assert not any("core_freq" in line for line in dry_run(tmp_path))
    (tmp_path / "etc" / "config.toml").write_text(EXAMPLE.read_text(encoding="utf-8"))
    (tmp_path / "config.txt").write_text("core_freq=250\n")
    lines = dry_run(tmp_path, "--example", "pi5")
    assert f"ok: {tmp_path / 'config.txt'} already has core_freq=250" in lines


def test_an_unknown_model_gets_a_note_not_a_guess(tmp_path: Path) -> None:
    lines = dry_run(tmp_path)
    assert not any(line.startswith("would append") and "core_freq" in line for line in lines)
    assert any(
        line.startswith(f"note: {EXAMPLE} drives WS2812 over SPI, and the Pi's model is unknown")
        for line in lines
    )


def test_the_spoken_calls_packages_are_installed_and_i2s_amp_adds_the_overlay(
    tmp_path: Path,
) -> None:
    plain = dry_run(tmp_path)
    assert not any("max98357a" in line for line in plain)
    assert any(
        line.startswith("would run: usermod -a -G gpio,i2c,spi,input,audio ") for line in plain
    )
    text = INSTALL.read_text(encoding="utf-8")
    assert "python3-lgpio espeak-ng alsa-utils; do" in text  # apt-get installs those missing
    lines = dry_run(tmp_path, "--i2s-amp", "--example", "zero-amp")
    overlay = f"would append to {tmp_path / 'config.txt'}: dtoverlay=max98357a,no-sdmode"
    assert overlay in lines
    example = INSTALL.parents[1] / "hardware" / "pi-zero-2w-ssd1306-ws2812-max98357a.toml"
    assert any(line.startswith(f"would run: install -m 0640 -o root -g pegboard {example} ")
               for line in lines)  # fmt: skip
    (tmp_path / "config.txt").write_text("dtoverlay=max98357a,no-sdmode\n")
    again = dry_run(tmp_path, "--i2s-amp")
    assert f"ok: {tmp_path / 'config.txt'} already has dtoverlay=max98357a,no-sdmode" in again
