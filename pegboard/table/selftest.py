"""``pegboard selftest``: what a maker runs after soldering.

1. The OLED shows a test card: a frame round the edge (every edge pixel row and column must be
   visible), both diagonals, the size and the I2C address.
2. Every LED of every strip lights in turn, dim white, then the strip goes dark, so a dead or
   swapped LED, or a strip wired from the wrong end, shows at once.
3. Every key and button pressed is echoed, on the OLED and on stdout, for *seconds*.

Each step reports "ok" or the error and the test goes on: a missing display must not hide a
working strip. The exit status is 0 when every part opened and worked, 1 otherwise.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pegboard.config.settings import Config
from pegboard.devices.ports import Display, KeyEvent
from pegboard.errors import HardwareError
from pegboard.table.wiring import Ports, open_ports, sim_ports

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["render_test_card", "run_selftest"]

SWEEP_COLOUR = (64, 64, 64)
"""Dim white: all three channels, well inside any supply's limit for a single LED."""


def render_test_card(size: tuple[int, int], mode: str, lines: list[str]) -> Image:
    """A frame, both diagonals and a few lines of text, for checking a display."""
    from PIL import Image, ImageDraw

    image = Image.new(mode, size)
    draw = ImageDraw.Draw(image)
    ink = 1 if mode == "1" else 255 if mode == "L" else (255, 255, 255)
    w, h = size
    draw.rectangle((0, 0, w - 1, h - 1), outline=ink)
    draw.line((0, 0, w - 1, h - 1), fill=ink)
    draw.line((0, h - 1, w - 1, 0), fill=ink)
    y = 3
    for line in lines:
        box = draw.textbbox((0, 0), line)
        tw, th = int(box[2] - box[0]), int(box[3] - box[1])
        draw.rectangle(((w - tw) // 2 - 2, y - 1, (w + tw) // 2 + 2, y + th + 2), fill=0)
        draw.text(((w - tw) // 2, y), line, fill=ink)
        y += th + 4
    return image


def run_selftest(
    config: Config,
    out: TextIO,
    *,
    simulate: bool = False,
    seconds: float = 60.0,
    keys_file: Path | None = None,
    sleep: Callable[[float], None] = time.sleep,
    sweep_delay: float = 0.02,
) -> int:
    """Test the display, every LED and every key; returns the exit status.

    Raises:
        KeyScriptError: *keys_file* cannot be read.
    """
    if simulate:
        from pegboard.table.keyscript import ScriptedKeys

        scripted = [ScriptedKeys.from_file(keys_file)] if keys_file is not None else []
        ports = sim_ports(config, scripted)
        sleep, sweep_delay = (lambda s: None), 0.0
    else:
        ports = open_ports(config)
    failures = 0
    d = config.display
    where = f"I2C{d.i2c_port} 0x{d.i2c_address:02X}" if d.interface == "i2c" else d.interface
    failures += _show(
        ports.display,
        [f"{d.display} {d.width}x{d.height}", where, "selftest"],
        out,
        "display",
    )
    for name, strip in ports.strips.items():
        dark = [(0, 0, 0)] * strip.length
        try:
            for i in range(strip.length):
                pixels = list(dark)
                pixels[i] = SWEEP_COLOUR
                strip.show(pixels)
                sleep(sweep_delay)
            strip.show(dark)
            out.write(f"LED strip {name!r}: {strip.length} LEDs lit in turn: ok\n")
        except (HardwareError, OSError) as e:
            out.write(f"LED strip {name!r}: FAILED: {e}\n")
            failures += 1
    events: queue.Queue[KeyEvent] = queue.Queue()
    started = []
    for keys in ports.keys:
        try:
            keys.start(events.put)
            started.append(keys)
        except (HardwareError, OSError) as e:
            out.write(f"keys {type(keys).__name__}: FAILED: {e}\n")
            failures += 1
    out.write(f"press keys and buttons for {seconds:g} s\n")
    out.flush()
    deadline = time.monotonic() + seconds
    count = 0
    while True:
        timeout = deadline - time.monotonic()
        try:
            event = events.get(timeout=max(0.0, timeout)) if not simulate else events.get_nowait()
        except queue.Empty:
            break
        count += 1
        out.write(f"key {event}\n")
        out.flush()
        _show(ports.display, ["key", str(event), f"{count} pressed"], out, None)
    for keys in started:
        keys.close()
    _close(ports, out)
    out.write(f"{count} key presses; {'all ok' if not failures else f'{failures} FAILED'}\n")
    return 0 if not failures else 1


def _show(display: Display | None, lines: list[str], out: TextIO, label: str | None) -> int:
    if display is None:
        if label:
            out.write(f"{label}: disabled in the config\n")
        return 0
    try:
        display.show(render_test_card(display.size, display.mode, lines))
    except (HardwareError, OSError) as e:
        if label:
            out.write(f"{label}: FAILED: {e}\n")
        return 1
    if label:
        out.write(f"{label}: test card shown: ok\n")
    return 0


def _close(ports: Ports, out: TextIO) -> None:
    for name, strip in ports.strips.items():
        try:
            strip.close()
        except (HardwareError, OSError) as e:
            out.write(f"LED strip {name!r}: could not turn off: {e}\n")
