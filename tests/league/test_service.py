"""The league service without a broker: its messages handed in, its page's payload."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.league.service import Broker, LeagueService
from pegboard.league.store import LeagueStore


@pytest.fixture
def service(tmp_path: Path) -> Iterator[LeagueService]:
    made = LeagueService(LeagueStore(tmp_path / "league.db"), Broker("127.0.0.1", 1))
    yield made
    made.store.close()


def test_the_live_views_lags_kept_are_the_latest_only(service: LeagueService) -> None:
    for number in range(2000):
        live = {"view": {"n": number}, "sent": time.time() - number}
        service.handle("pegboard/v1/red-lion/t1/live", json.dumps(live).encode())
    assert service.counts.messages == 2000
    assert len(service.counts.lag) == 1000  # service.LAGS_KEPT
    assert min(service.counts.lag) > 999  # the later views, sent longer ago
