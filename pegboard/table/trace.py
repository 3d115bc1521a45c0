"""The headless run's text trace: ``screens.jsonl``, one line a frame the display was handed.

Each line is a JSON object: ``t`` (seconds since the run started, on its clock), ``kind``,
``title``, ``lines``, ``footer`` and ``page`` (a count's "i/N", else null), the frame's words as
``ui.screentext`` reads them off the ``Screen`` the controller drew. The replay notes the
controller after every key and every tick (``note``); a frame is written when the controller
handed the display a new one, so the file says what the table saw, and for how long: until the
next line's ``t``.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import TracebackType
from typing import TextIO

from pegboard.config.settings import Config
from pegboard.table.controller import Controller
from pegboard.ui.screentext import screen_text

__all__ = ["TRACE_NAME", "ScreenTrace"]

TRACE_NAME = "screens.jsonl"


class ScreenTrace:
    """Writes each new frame of a controller to *path* (see the module doc)."""

    def __init__(self, path: Path, config: Config, start: float) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._out: TextIO = path.open("w", encoding="utf-8")
        self._display = config.display
        self._language = config.game.language
        self._start = start
        self._frames = -1  # the controller's frame count last noted

    def note(self, controller: Controller, now: float) -> None:
        """Write the frame the controller last drew, if it drew one since the last note."""
        screen = controller.drawn
        if controller.frames == self._frames or screen is None:
            return
        self._frames = controller.frames
        display = self._display
        text = screen_text(screen, display.frame_size, display.screen_style, self._language)
        line = {"t": round(now - self._start, 3), **text.to_dict()}
        self._out.write(json.dumps(line, ensure_ascii=False) + "\n")

    def close(self) -> None:
        """Flush and close the file."""
        self._out.close()

    def __enter__(self) -> ScreenTrace:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
