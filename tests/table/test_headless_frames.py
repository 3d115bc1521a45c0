"""A headless run's frames: none kept but the one on the screen, however many keys it replays,
and with ``--gif`` at most ``GIF_FRAMES`` distinct ones, from the session's start."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import pytest
from PIL import Image

from pegboard.cli.main import main as pegboard_main
from pegboard.config.settings import Config, parse_config
from pegboard.devices.oled import RecordingDisplay
from pegboard.devices.ports import Keys
from pegboard.table import simulator
from pegboard.table.sdnotify import Notifier
from pegboard.table.wiring import Ports

PRESSES = 2000  # the menu opened and closed a thousand times: 2,000 distinct frames


def _long_key_file(folder: Path, presses: int = PRESSES) -> Path:
    """A cut, a starter, then *presses* presses of ok:long (the menu, opened and closed)."""
    path = folder / "long.keys"
    path.write_text("# variant: six-card\n# names: Ann, Bob\n5\n3\n4\n" + "ok:long\n" * presses)
    return path


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[Ports]:
    """The ports each headless run makes, to look at after the run."""
    made: list[Ports] = []
    original = simulator.sim_ports

    def recorded(config: Config, keys: Sequence[Keys] = (), history: int | None = None) -> Ports:
        ports = original(config, keys, history)
        made.append(ports)
        return ports

    monkeypatch.setattr(simulator, "sim_ports", recorded)
    return made


def _run(tmp_path: Path, keys: Path, gif: Path | None = None, **bound: int) -> None:
    config = parse_config("")
    out = tmp_path / "out"
    simulator.run_headless(
        config, keys_file=keys, out_dir=out, gif=gif, notifier=Notifier(env={}), **bound
    )


def test_a_long_headless_run_keeps_only_the_frame_on_the_screen(
    tmp_path: Path, made: list[Ports]
) -> None:
    _run(tmp_path, _long_key_file(tmp_path))
    display = made[0].display
    assert isinstance(display, RecordingDisplay) and len(display.shown) == 1
    with Image.open(tmp_path / "out" / "oled.png") as png:  # the outputs still show the last
        assert png.tobytes() == display.shown[0].tobytes()


def test_a_long_runs_gif_keeps_its_first_frames_up_to_the_bound(
    tmp_path: Path, made: list[Ports], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="pegboard.table.reel")
    gif = tmp_path / "long.gif"
    _run(tmp_path, _long_key_file(tmp_path), gif, gif_frames=40)
    display = made[0].display
    assert isinstance(display, RecordingDisplay) and len(display.shown) == 1
    reel = getattr(display, "reel", None)
    assert reel is not None and len(reel) == 40
    with Image.open(gif) as written:
        assert written.n_frames == 40
    dropped = getattr(display, "dropped", 0)
    assert dropped >= PRESSES - 40  # every press drew a new frame
    assert f"the {dropped} after them were left out" in caplog.text


def test_the_gif_starts_where_the_session_starts(tmp_path: Path) -> None:
    short, long = tmp_path / "short.gif", tmp_path / "long.gif"
    _run(tmp_path, _long_key_file(tmp_path, presses=4), short)
    _run(tmp_path, _long_key_file(tmp_path, presses=200), long, gif_frames=6)
    with Image.open(short) as a, Image.open(long) as b:
        assert (a.n_frames, b.n_frames) == (8, 6)
        for frame in range(6):  # the cut, the starter ... the menu opened and closed
            a.seek(frame)
            b.seek(frame)
            assert a.tobytes() == b.tobytes()


def test_a_gif_within_the_bound_keeps_every_distinct_frame(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="pegboard.table.reel")
    keys = Path(__file__).parents[1] / "keys" / "readme-session.keys"
    _run(tmp_path, keys, tmp_path / "s.gif")
    with Image.open(tmp_path / "s.gif") as gif:
        assert gif.n_frames == 17  # ... the count's two pages, then the scoreboard: what is next
    assert "wrote 17 frames" in caplog.text and "left out" not in caplog.text


def test_the_help_says_how_many_frames_a_gif_keeps(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        pegboard_main(["run", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"at most its first {simulator.GIF_FRAMES} distinct frames" in help_text
