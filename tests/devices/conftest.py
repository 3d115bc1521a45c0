"""Fixtures for the device adapters: gpiozero's mock pins instead of a real Pi."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def mock_pins() -> Iterator[MockFactory]:
    """Swap in gpiozero's ``MockFactory`` for one test, then put the old factory back."""
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved
