"""What a headless run leaves behind: the state, the last frame, the LEDs, and the GIF.

``write_outputs`` writes ``state.json`` (``GameView.to_dict()``), ``oled.png`` (the last frame)
and ``leds.json`` (the last colour of every LED, per track and per strip). With ``--gif`` the
run's display is a ``ReelDisplay``, which keeps the session's first ``GIF_FRAMES`` distinct
frames as it goes, and ``write_reel`` writes them; without it a run keeps no frames but the
one on the screen, however long its key file.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.devices.leds import RecordingStrip
from pegboard.devices.oled import RecordingDisplay
from pegboard.devices.ports import Color
from pegboard.table.controller import Controller
from pegboard.table.wiring import Ports
from pegboard.ui.ledtracks import LedLayout

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "GIF_FRAMES",
    "ReelDisplay",
    "leds_to_dict",
    "write_gif",
    "write_outputs",
    "write_reel",
]

log = logging.getLogger(__name__)


def leds_to_dict(layout: LedLayout, strips: dict[str, Sequence[Color]]) -> dict[str, Any]:
    """The last colour of every LED: per track (in track order, from its start) and per strip."""
    tracks = []
    for side, track in enumerate(layout.tracks):
        pixels = strips[track.strip]
        tracks.append(
            {
                "side": side,
                "strip": track.strip,
                "leds": [list(pixels[i]) for i in track.strip_leds],
            }
        )
    return {
        "tracks": tracks,
        "strips": {name: [list(c) for c in px] for name, px in strips.items()},
    }


def _last_pixels(ports: Ports) -> dict[str, Sequence[Color]]:
    out: dict[str, Sequence[Color]] = {}
    for name, strip in ports.strips.items():
        if isinstance(strip, RecordingStrip):
            out[name] = strip.last
    return out


def write_outputs(out_dir: Path, controller: Controller, ports: Ports, layout: LedLayout) -> None:
    """``state.json``, ``oled.png`` and ``leds.json`` in *out_dir* (created if needed)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "state.json").write_text(json.dumps(controller.view.to_dict(), indent=2) + "\n")
    display = ports.display
    if isinstance(display, RecordingDisplay) and display.last is not None:
        display.last.save(out_dir / "oled.png")
    leds = leds_to_dict(layout, _last_pixels(ports))
    (out_dir / "leds.json").write_text(json.dumps(leds) + "\n")


GIF_FRAMES = 500
"""The most frames ``--gif`` writes: the session's first 500 distinct frames, about six minutes
at 0.7 s a frame (a whole six-card game takes under 100). A README animation starts where its
key file starts; a longer session's GIF ends at this many, and the log says how many were
left out. Kept as small images while the session runs, so a run's memory does not grow."""


class ReelDisplay(RecordingDisplay):
    """The headless display with ``--gif``: the frame on the screen, as in every headless run,
    and the session's first *limit* distinct frames (each unlike the one before it) in ``reel``;
    ``dropped`` counts the distinct frames after those."""

    def __init__(self, size: tuple[int, int], mode: str, limit: int) -> None:
        super().__init__(size, mode, history=1)
        self.limit = limit
        self.reel: list[Image] = []
        self.dropped = 0
        self._previous = b""  # the last frame's pixels: a frame drawn again is not a new one

    def show(self, image: Image) -> None:
        super().show(image)
        pixels = image.tobytes()
        if pixels == self._previous:
            return
        self._previous = pixels
        if len(self.reel) < self.limit:
            self.reel.append(self.shown[-1])
        else:
            self.dropped += 1


def write_gif(path: Path, frames: Sequence[Image], *, ms: int = 500, scale: int = 2) -> int:
    """Every distinct consecutive frame as an animated GIF; returns the frames written."""
    kept: list[Image] = []
    for frame in frames:
        if not kept or frame.tobytes() != kept[-1].tobytes():
            kept.append(frame)
    if not kept:
        return 0
    big = [f.convert("L").resize((f.width * scale, f.height * scale), 0) for f in kept]
    path.parent.mkdir(parents=True, exist_ok=True)
    big[0].save(path, save_all=True, append_images=big[1:], duration=ms, loop=0)
    return len(big)


def write_reel(path: Path, ports: Ports) -> None:
    """The ``--gif`` of a headless run whose display is a ``ReelDisplay`` (else nothing), and a
    log line saying how many frames were left out past ``GIF_FRAMES``."""
    display = ports.display
    if isinstance(display, ReelDisplay):
        count = write_gif(path, display.reel, ms=700, scale=3)
        log.info("wrote %d frames to %s", count, path)
        if display.dropped:
            log.warning(
                "the GIF shows the session's first %d distinct frames; the %d after them were "
                "left out (a GIF keeps at most %d: split the key file to show the rest)",
                count,
                display.dropped,
                display.limit,
            )
