"""Counting the stored games the league reads back: cost follows new work, not history."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from pegboard.engine.summary import GameSummary


def count_parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, the id of every finished game parsed (``GameSummary.from_payload``), in
    order, in the list returned."""
    read: list[str] = []
    parse = GameSummary.from_payload

    def counted(payload: Mapping[str, Any]) -> GameSummary:
        read.append(str(payload["game_id"]))
        return parse(payload)

    monkeypatch.setattr(GameSummary, "from_payload", staticmethod(counted))
    return read
