"""``pegboard run --web``: the page's address is said only once it is served, after the inputs
were checked; ``run --help`` says each default once."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from pegboard.config.web import WebConfig
from tests.cli.helpers import cli

WEB = ("--web", "--bind", "127.0.0.1", "--port", "0")


def test_a_missing_key_file_is_refused_before_the_page_is_said_to_serve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = tmp_path / "nope.keys"
    out = tmp_path / "o"
    args = ("--simulate", "--headless", "--wait-for-signal", "--keys", str(keys))
    status, said, err = cli(capsys, "run", *args, *WEB, "--out", str(out))
    assert (status, said) == (1, "")
    assert err.startswith(f"pegboard: error: cannot read key script {str(keys)!r}: ")
    assert not out.exists()


def test_the_terminal_simulator_without_a_terminal_is_refused_before_serving(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status, said, err = cli(capsys, "run", "--simulate", *WEB)
    assert (status, said) == (2, "")
    assert err.startswith("pegboard: error: the simulator reads keys from a terminal")


def test_run_help_says_each_default_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli(capsys, "run", "--help")
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: None)" not in text
    web = WebConfig()  # the config's own defaults, which the help reads
    assert (web.bind, web.port) == ("0.0.0.0", 8121)
    assert "the address to listen on (default: [web] bind, 0.0.0.0) --port" in text
    assert "the port (default: [web] port, 8121; 0: any free port)" in text
