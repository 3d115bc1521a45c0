"""The simulator's terminal: the OLED's frames and the LED tracks drawn as text, the computer
keyboard as a key source, and the picture kept inside the terminal's size.

The OLED's frames are drawn with half-block characters (``render_halfblocks``: each character
is two pixels, one above the other), the LED tracks in 24-bit colour (``render_ansi``). In a
terminal too small for that (80x24) the OLED is drawn in Braille patterns (``render_braille``:
each character a 2x4 block, every pixel still a dot), the tracks two LEDs a character, and the
legend in one line; in one too small even for that, a plain line
says which size it needs. ``simulator.run_terminal`` runs the device on these ports.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import re
import select
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from pegboard.config.settings import Config
from pegboard.devices.leds import RecordingStrip
from pegboard.devices.oled import RecordingDisplay
from pegboard.devices.ports import Color, KeySink, LedStrip
from pegboard.table.keyscript import key_for_char, legend_lines
from pegboard.ui.ledtracks import render_ansi

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "SHORT_LEGEND",
    "TerminalKeys",
    "TerminalView",
    "alternate_screen",
    "logs_into",
    "render_braille",
    "render_halfblocks",
]

_UPPER, _LOWER, _FULL = "\u2580", "\u2584", "\u2588"


def render_halfblocks(image: Image, *, scale: int = 1, color: bool = False) -> str:
    """The image as text: one character per pixel column, two pixel rows per line.

    *scale* 2 takes every second pixel each way (a 128x64 OLED in 64x16 characters). Lit
    pixels are those brighter than half; with *color*, greyscale levels become 24-bit grey.

    >>> from PIL import Image
    >>> im = Image.new("1", (4, 4))
    >>> im.putpixel((0, 0), 1); im.putpixel((1, 1), 1); im.putpixel((2, 0), 1)
    >>> im.putpixel((2, 1), 1)
    >>> print(render_halfblocks(im))
    ▀▄█
    <BLANKLINE>
    """
    grey = image.convert("L")
    if scale != 1:
        grey = grey.resize((max(1, grey.width // scale), max(1, grey.height // scale)))
    width, height = grey.size
    px = grey.load()
    assert px is not None
    lines = []
    for y in range(0, height, 2):
        cells: list[str] = []
        for x in range(width):
            top = int(px[x, y])  # type: ignore[arg-type]
            bottom = int(px[x, y + 1]) if y + 1 < height else 0  # type: ignore[arg-type]
            t, b = top > 127, bottom > 127
            glyph = _FULL if t and b else _UPPER if t else _LOWER if b else " "
            if color and glyph != " ":
                level = max(top, bottom)
                glyph = f"\x1b[38;2;{level};{level};{level}m{glyph}\x1b[0m"
            cells.append(glyph)
        lines.append("".join(cells).rstrip())
    return "\n".join(lines)


# each 2x4 block of pixels as one Braille pattern: the dots' bits by (column, row)
_BRAILLE_BITS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


def render_braille(image: Image, *, color: bool = False) -> str:
    """The image as text at a quarter of the lines and half the columns, every pixel still a
    dot: each character a 2x4 block of pixels as a Braille pattern (square dots), so a 128x64
    OLED takes 64x16 characters, for an 80x24 terminal.

    >>> from PIL import Image
    >>> im = Image.new("1", (4, 4))
    >>> im.putpixel((0, 0), 1); im.putpixel((1, 3), 1); im.putpixel((2, 1), 1)
    >>> render_braille(im)
    '⢁⠂'
    """
    grey = image.convert("L")
    width, height = grey.size
    px = grey.load()
    assert px is not None
    lines = []
    for y in range(0, height, 4):
        cells: list[str] = []
        for x in range(0, width, 2):
            bits, level = 0, 0
            for dx, column in enumerate(_BRAILLE_BITS):
                for dy, bit in enumerate(column):
                    if x + dx < width and y + dy < height:
                        value = int(px[x + dx, y + dy])  # type: ignore[arg-type]
                        if value > 127:
                            bits, level = bits | bit, max(level, value)
            glyph = chr(0x2800 + bits) if bits else " "
            if color and bits:
                glyph = f"\x1b[38;2;{level};{level};{level}m{glyph}\x1b[0m"
            cells.append(glyph)
        lines.append("".join(cells).rstrip())
    return "\n".join(lines)


# -- the terminal ---------------------------------------------------------------------------


class TerminalKeys:
    """The computer keyboard as a ``Keys`` source: one character at a time, cbreak mode.

    The terminal's settings are saved by ``start`` and restored by ``close``.
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream if stream is not None else sys.stdin
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._saved: Any = None

    def start(self, sink: KeySink) -> None:
        """Read keys on a thread and hand each mapped one to *sink*."""
        fd = self._stream.fileno()
        if os.isatty(fd):
            import termios
            import tty

            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        self._thread = threading.Thread(
            target=self._run, args=(fd, sink), name="pegboard-terminal", daemon=True
        )
        self._thread.start()

    def _run(self, fd: int, sink: KeySink) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.1)
            if not ready:
                continue
            data = os.read(fd, 32)
            if not data:
                return
            for ch in data.decode(errors="ignore"):
                event = key_for_char(ch)
                if event is not None:
                    sink(event)

    def close(self) -> None:
        """Stop reading and restore the terminal."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1)
            self._thread = None
        if self._saved is not None:
            import termios

            termios.tcsetattr(self._stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None


class TerminalView:
    """Redraws the terminal whenever the display or a strip gets a new frame.

    Each redraw moves the cursor home and overwrites the previous picture line by line
    (clearing to the end of each line, then below the last), so the screen does not flicker.
    The OLED picture is framed, so its dark parts still read as a screen.
    """

    def __init__(
        self,
        config: Config,
        out: TextIO,
        banner: str = "",
        size: Callable[[], tuple[int, int]] | None = None,
    ) -> None:
        self._config = config
        self._out = out
        self._banner = banner
        self._size = size if size is not None else (lambda: _terminal_size(out))
        self.display = _Screen(self, config)
        self.strips: dict[str, LedStrip] = {
            s.name: _Strip(self, s.count, s.name) for s in config.leds.strips
        }
        self.messages: collections.deque[str] = collections.deque(maxlen=2)

    def frame(self) -> list[str]:
        """The lines of the picture: the framed OLED, the LED tracks, log lines, the legend.

        In a terminal too small for that (80x24), a smaller picture: the OLED in Braille
        patterns (every pixel still a dot, in a quarter of the lines), the tracks two LEDs a
        character, one line of keys for the legend, the log lines if there is room. In one too
        small even for that, a plain line saying which size it needs.
        """
        columns, rows = self._size()
        whole = self._whole()
        if _fits(whole, columns, rows):
            return whole
        small = self._small()
        if _fits(small, columns, rows):
            for message in reversed(self.messages):  # the newest first, where there is room
                if len(small) + 1 < rows:
                    small = [*small, "", f"\x1b[2m{message[:columns]}\x1b[22m"]
            return small
        width = max(_visible_len(line) for line in small)
        return textwrap.wrap(
            f"pegboard's simulator needs a terminal of at least {width}x{len(small) + 1} "
            f"characters; this one is {columns}x{rows}: make it larger (the game goes on, "
            "and is kept)",
            max(20, columns),
        )

    def _whole(self) -> list[str]:
        sim = self._config.simulator
        last = self.display.last
        lines: list[str] = []
        if last is not None:
            picture = render_halfblocks(last, scale=sim.scale, color=sim.color)
            lines = _framed(picture.split("\n"), -(-last.width // sim.scale))
        lines += ["", *self._tracks(narrow=False)]
        if self._banner:
            lines += ["", self._banner]
        if self.messages:
            lines.append("")
            lines += [f"\x1b[2m{m}\x1b[22m" for m in self.messages]
        if sim.legend:
            lines.append("")
            lines += _two_columns([*legend_lines(), "Ctrl-C       quit (the game is kept)"])
        return lines

    def _small(self) -> list[str]:
        last = self.display.last
        lines: list[str] = []
        if last is not None:
            picture = render_braille(last, color=self._config.simulator.color)
            lines = _framed(picture.split("\n"), -(-last.width // 2))  # 4 rows a line
        lines += self._tracks(narrow=True)
        if self._banner:
            lines.append(self._banner)
        if self._config.simulator.legend:
            lines.append(SHORT_LEGEND)
        return lines

    def _tracks(self, *, narrow: bool) -> list[str]:
        pixels = {name: strip.last for name, strip in self.strips.items()}  # type: ignore[attr-defined]
        layout, target = self._config.leds.layout, self._config.game.rules.target
        return render_ansi(pixels, layout, target, narrow=narrow).split("\n")

    def redraw(self) -> None:
        body = "\x1b[K\n".join(self.frame())
        self._out.write("\x1b[H" + body + "\x1b[K\n\x1b[J")
        self._out.flush()


SHORT_LEGEND = "keypad 0-9 a-d * # · pegs q w e · undo u, redo r · ok o, menu O · quit Ctrl-C"
"""The legend in one line, for a small terminal."""


def _framed(picture: Sequence[str], width: int) -> list[str]:
    """*picture*'s lines in a frame *width* characters wide inside."""
    lines = ["\u250c" + "\u2500" * width + "\u2510"]
    for line in picture:
        lines.append("\u2502" + line + " " * (width - _visible_len(line)) + "\u2502")
    lines.append("\u2514" + "\u2500" * width + "\u2518")
    return lines


def _fits(lines: Sequence[str], columns: int, rows: int) -> bool:
    """Whether *lines* fit a terminal of *columns* x *rows* (a line left for the cursor)."""
    return len(lines) < rows and all(_visible_len(line) <= columns for line in lines)


def _terminal_size(out: TextIO) -> tuple[int, int]:
    """The size of the terminal *out* writes to; not a terminal: no limit."""
    try:
        size = os.get_terminal_size(out.fileno())
    except (AttributeError, OSError, ValueError):
        return 10**6, 10**6
    return size.columns, size.lines


def _two_columns(lines: Sequence[str], gap: int = 4) -> list[str]:
    """*lines* in two columns, down the first then the second (the legend in half the height).

    >>> _two_columns(["a", "bb", "c"])
    ['a     c', 'bb']
    """
    half = -(-len(lines) // 2)
    left, right = lines[:half], lines[half:]
    width = max((len(line) for line in left), default=0) + gap
    return [f"{line:<{width}}{right[i]}" if i < len(right) else line for i, line in enumerate(left)]


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _visible_len(text: str) -> int:
    """Characters on screen: *text* without its colour escapes."""
    return len(_ANSI.sub("", text))


class _LogLines(logging.Handler):
    """Keeps the last log messages for the terminal view (stderr would scribble on it)."""

    def __init__(self, view: TerminalView) -> None:
        super().__init__(logging.INFO)
        self._view = view
        self.setFormatter(logging.Formatter("%(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self._view.messages.append(self.format(record).splitlines()[0][:150])


@contextlib.contextmanager
def logs_into(view: TerminalView) -> Iterator[None]:
    """Send log records to *view* instead of a terminal on stderr, for the session."""
    root = logging.getLogger()
    muted = [
        h
        for h in root.handlers
        if isinstance(h, logging.StreamHandler) and _is_tty(getattr(h, "stream", None))
    ]
    for handler in muted:
        root.removeHandler(handler)
    mine = _LogLines(view)
    root.addHandler(mine)
    try:
        yield
    finally:
        root.removeHandler(mine)
        for handler in muted:
            root.addHandler(handler)


def _is_tty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except ValueError:  # a closed stream
        return False


class _Screen(RecordingDisplay):
    def __init__(self, view: TerminalView, config: Config) -> None:
        # an interactive session keeps only the frame on screen
        super().__init__(config.display.frame_size, config.display.frame_mode, history=1)
        self._view = view

    def show(self, image: Image) -> None:
        super().show(image)
        self._view.redraw()


class _Strip(RecordingStrip):
    def __init__(self, view: TerminalView, length: int, name: str) -> None:
        super().__init__(length, name=name, history=2)
        self._view = view

    def show(self, pixels: Sequence[Color]) -> None:
        super().show(pixels)
        self._view.redraw()


@contextlib.contextmanager
def alternate_screen(out: TextIO) -> Iterator[None]:
    out.write("\x1b[?1049h\x1b[?25l")
    try:
        yield
    finally:
        out.write("\x1b[?25h\x1b[?1049l")
        out.flush()
