"""Shared test settings: one hypothesis profile for every machine, CI and the Pi included."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

# No per-example deadline: a slow or busy machine must not turn a correct property into a
# failure. pytest-timeout (pyproject) stays the backstop for anything that really hangs.
settings.register_profile("pegboard", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pegboard")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*.png from the current screens instead of comparing",
    )
