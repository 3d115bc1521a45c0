"""Shared test settings: one hypothesis profile for every machine, CI and the Pi included.

Golden images for the OLED screens: ``--update-golden`` rewrites them, on purpose only; and a
fake systemd notify socket for the daemon tests.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, settings
from PIL import Image, ImageChops

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


GOLDEN = Path(__file__).parent / "golden"


GoldenCheck = Callable[[Image.Image, str], None]


def compare_golden(
    image: Image.Image, name: str, *, update: bool, directory: Path = GOLDEN
) -> None:
    """Compare *image* pixel for pixel with ``<directory>/<name>.png`` (``tests/golden``).

    A mismatch writes the actual image to ``<directory>/_failed/<name>.png`` and fails.
    """
    path = directory / f"{name}.png"
    failed = directory / "_failed"
    if update:
        image.save(path)
        return
    if not path.exists():
        pytest.fail(f"no golden image {path.name}: run pytest with --update-golden to make it")
    with Image.open(path) as stored:
        golden = stored.copy()
    same = golden.size == image.size and golden.mode == image.mode
    if same:
        same = ImageChops.difference(golden.convert("L"), image.convert("L")).getbbox() is None
    if not same:
        failed.mkdir(exist_ok=True)
        image.save(failed / f"{name}.png")
        pytest.fail(
            f"{name}: the screen differs from {path.name} "
            f"(actual image written to {failed.name}/{name}.png)"
        )


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> GoldenCheck:
    """``golden(image, name)`` compares with (or, with --update-golden, rewrites) a golden PNG."""
    update = bool(request.config.getoption("--update-golden", default=False))

    def check(image: Image.Image, name: str) -> None:
        compare_golden(image, name, update=update)

    return check


@pytest.fixture
def golden_compare() -> Callable[..., None]:
    """``compare_golden`` itself, for the test that makes it fail on purpose."""
    return compare_golden


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A datagram socket bound in a tmp dir, as systemd binds /run/systemd/notify."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    sock.bind(path)
    sock.settimeout(60)  # only a failing test waits this long
    try:
        yield sock, path
    finally:
        sock.close()


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
