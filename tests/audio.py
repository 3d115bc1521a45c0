"""Audio checks with sox (Debian's ``sox``, installed by ``make test``): a WAV's length and
loudness, as ``sox FILE -n stat`` measures them."""

from __future__ import annotations

import subprocess
from pathlib import Path


def sox_stat(path: Path) -> dict[str, float]:
    """``sox PATH -n stat``'s figures by name ("Length (seconds)", "RMS amplitude", ...)."""
    done = subprocess.run(
        ["sox", str(path), "-n", "stat"], capture_output=True, text=True, check=True, timeout=60
    )
    figures = {}
    for line in done.stderr.splitlines():
        name, _, value = line.partition(":")
        try:
            figures[" ".join(name.split())] = float(value)
        except ValueError:
            continue
    return figures


def assert_speech(path: Path, *, shortest: float, longest: float) -> float:
    """Assert that *path* holds sound, not silence, lasting *shortest* to *longest* seconds;
    returns its length."""
    stat = sox_stat(path)
    length = stat["Length (seconds)"]
    assert shortest <= length <= longest, f"{path.name}: {length:.2f} s of audio"
    # speech from eSpeak at its normal amplitude peaks above 0.3 with an RMS above 0.03;
    # silence (or a click) stays far below both
    assert stat["Maximum amplitude"] > 0.2, f"{path.name} is silent: {stat}"
    assert stat["RMS amplitude"] > 0.02, f"{path.name} is nearly silent: {stat}"
    return length
