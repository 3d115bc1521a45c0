"""Fixtures shared by the screen tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pegboard.ui import count, menuscreen, paint, results, screens, status


@pytest.fixture
def cuts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text a screen cut to fit ("…") while the test runs, in any screen module."""
    found: list[str] = []

    def fit(text: str, face: paint.Face, width: int) -> str:
        fitted = paint.fit(text, face, width)
        if fitted != text:
            found.append(text)
        return fitted

    for module in (screens, status, count, results, menuscreen):
        monkeypatch.setattr(module, "fit", fit)
    yield found
