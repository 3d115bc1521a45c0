"""bench/bench_speech.py's replay (the part each quota runs): every call of the spoken deal is
timed from its key to its first sound, with eSpeak and with pre-rendered clips alike."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import ROOT, load_script


@pytest.fixture
def bench_speech(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "bench"))  # its own imports (pi_quota)
    return load_script("bench/bench_speech.py")


@pytest.mark.timeout(300)  # a few seconds on an idle 2-core machine
def test_each_call_of_the_deal_is_timed_with_espeak_and_with_clips(
    bench_speech: ModuleType, tmp_path: Path
) -> None:
    spoken = bench_speech.replay("espeak", tmp_path)
    texts = [text for text, _ in spoken]
    assert texts[0] == "Ann, 61" and texts[-1].endswith("Ann wins! lurched!")
    assert len(texts) == 10 and all(ms > 0 for _, ms in spoken)
    bench_speech.render_clips(texts, tmp_path)
    assert len(list(tmp_path.glob("*.wav"))) == 10
    clipped = bench_speech.replay("clips", tmp_path)
    assert [text for text, _ in clipped] == texts and all(ms > 0 for _, ms in clipped)
