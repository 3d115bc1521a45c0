"""docs/spoken-deal.wav: what the simulator says for tests/keys/spoken-deal.keys (``make docs``),
small, and not gone stale: a fresh recording of the same deal says the same calls for as long."""

from __future__ import annotations

import wave
from pathlib import Path

import pytest

from pegboard.config.settings import Config
from pegboard.table.simulator import run_headless
from tests.audio import assert_speech, sox_stat

ROOT = Path(__file__).resolve().parents[1]
WAV = ROOT / "docs" / "spoken-deal.wav"
KEYS = ROOT / "tests" / "keys" / "spoken-deal.keys"

pytestmark = pytest.mark.timeout(300)


def test_the_docs_recording_is_small_mono_16_khz_speech() -> None:
    assert WAV.stat().st_size < 500_000
    with wave.open(str(WAV)) as wav:
        assert (wav.getnchannels(), wav.getframerate()) == (1, 16000)
    assert_speech(WAV, shortest=15, longest=40)


def test_a_fresh_recording_of_the_deal_is_as_long_as_the_docs_one(tmp_path: Path) -> None:
    fresh = tmp_path / "deal.wav"
    run_headless(Config(), keys_file=KEYS, out_dir=tmp_path, speech=fresh)
    length = assert_speech(fresh, shortest=15, longest=40)
    # the same eSpeak NG says the same words: the same length to a few hundredths (make docs
    # records it again when the calls change)
    assert abs(length - sox_stat(WAV)["Length (seconds)"]) < 0.25


def test_speech_needs_a_headless_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.cli.helpers import cli

    with pytest.raises(SystemExit) as stopped:
        cli(capsys, "run", "--simulate", "--speech", str(tmp_path / "s.wav"))
    assert stopped.value.code == 2
    assert "--speech needs --simulate --headless (without --wait-for-signal)" in (
        capsys.readouterr().err
    )
    status, _, _ = cli(
        capsys, "run", "--simulate", "--headless", "--keys", str(KEYS),
        "--out", str(tmp_path / "o"), "--speech", str(tmp_path / "s.wav"),
    )  # fmt: skip
    assert status == 0
    assert_speech(tmp_path / "s.wav", shortest=15, longest=40)
