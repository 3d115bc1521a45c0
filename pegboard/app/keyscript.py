"""Key events from text: key files for the headless simulator, and the computer keyboard.

Key files
=========

``pegboard run --simulate --headless --keys FILE`` replays a key file: one step per line.

``7``, ``A``, ``*``, ``#`` ...
    A key of the keypad: ``0``-``9``, ``A``-``D``, ``*``, ``#``. ``star`` and ``hash`` are
    other names for ``*`` and ``#``.
``peg0``, ``peg1``, ``undo``, ``ok``
    A press of a button: ``peg0``-``peg9`` (the peg button of each side, from 0), ``undo``,
    ``ok``.
``undo:long``, ``ok:long``
    A long press (the button held): ``undo:long`` is redo, ``ok:long`` opens the menu. Any
    button can be held; keypad keys cannot.
``wait SECONDS``
    Let time pass, e.g. ``wait 2`` or ``wait 0.25``. Headless runs do not really wait: they move
    the simulator's clock on.
Blank lines and comments
    Whitespace around a line does not matter. ``#`` is a key, so the rule is: a line that is
    just ``#`` presses the ``#`` key; any other line that starts with ``#`` is a comment; and a
    ``#`` after a space starts a comment at the end of a line (``7  # the seven``). To comment
    a press of ``#`` itself, write it ``hash  # enter``.

Every step has one text form and reads back to itself: ``str(step)`` is the line, and
``format_key_script`` writes a whole file that ``parse_key_script`` reads back unchanged.

The computer keyboard
=====================

In the simulator the computer keyboard stands in for the keypad and the buttons.
``key_for_char`` maps one typed character to a key event, and ``KEYBOARD_LEGEND`` (with
``legend_lines``) is the table the simulator prints next to the board.
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent, KeySink
from pegboard.engine.errors import PegboardError

__all__ = [
    "BUTTON_NAMES",
    "KEYBOARD_LEGEND",
    "KEYPAD_KEYS",
    "KeyScriptError",
    "LegendRow",
    "ScriptedKeys",
    "Step",
    "Wait",
    "format_key_script",
    "key_for_char",
    "legend_lines",
    "parse_key",
    "parse_key_script",
    "read_key_script",
]

log = logging.getLogger(__name__)

KEYPAD_KEYS: frozenset[str] = frozenset("0123456789ABCD*#")
"""The keys of the matrix keypad (a 3x4 keypad has no A-D)."""

BUTTON_NAMES: frozenset[str] = frozenset({"undo", "ok"} | {f"peg{i}" for i in range(10)})
"""The buttons: a peg button per side (``peg0`` for the first side), undo and ok."""

_ALIASES = {"star": "*", "hash": "#"}
_SECONDS = re.compile(r"(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")  # 2, 0.25, 1e-06; no sign
_TRAILING_COMMENT = re.compile(r"\s#.*\Z", re.DOTALL)
_EXPECTED = "expected 0-9, A-D, *, #, peg0-peg9, undo, ok, name:long or wait SECONDS"


class KeyScriptError(PegboardError, ValueError):
    """A key file, or one key name, that cannot be read."""


@dataclass(frozen=True, slots=True)
class Wait:
    """Let *seconds* pass before the next step."""

    seconds: float

    def __str__(self) -> str:
        return f"wait {self.seconds!r}"


Step = KeyEvent | Wait
"""One line of a key file."""


def parse_key(text: str) -> KeyEvent:
    """Parse one key name: ``7``, ``#``, ``hash``, ``peg0``, ``undo`` or ``undo:long``.

    Raises:
        KeyScriptError: not a key name.
    """
    name, sep, action = text.partition(":")
    name = _ALIASES.get(name, name)
    if name not in KEYPAD_KEYS and name not in BUTTON_NAMES:
        raise KeyScriptError(f"unknown key {text!r} ({_EXPECTED})")
    if not sep:
        return KeyEvent(name)
    if action != KeyAction.LONG_PRESS.value:
        raise KeyScriptError(f"unknown key action {action!r} in {text!r} (expected name:long)")
    if name in KEYPAD_KEYS:
        raise KeyScriptError(
            f"keypad key {name!r} has no long press in {text!r} "
            "(only buttons have one: peg0-peg9, undo, ok)"
        )
    return KeyEvent(name, KeyAction.LONG_PRESS)


def _parse_line(line: str) -> Step | None:
    """One line of a key file: a step, or ``None`` for a blank or comment line.

    Raises:
        KeyScriptError: a bad line (the message does not name the line yet).
    """
    text = line.strip()
    if text == "#":
        return KeyEvent("#")  # the # key; '# ...' is a comment
    if not text or text.startswith("#"):
        return None
    text = _TRAILING_COMMENT.sub("", text).rstrip()
    words = text.split()
    if words[0] == "wait":
        if len(words) != 2 or not _SECONDS.fullmatch(words[1]):
            raise KeyScriptError(f"wait needs seconds like 'wait 0.5', got {text!r}")
        seconds = float(words[1])
        if not math.isfinite(seconds):
            raise KeyScriptError(f"wait needs seconds like 'wait 0.5', got {text!r}")
        return Wait(seconds)
    if len(words) != 1:
        raise KeyScriptError(f"one key per line, got {text!r}")
    return parse_key(text)


def parse_key_script(text: str, *, source: str = "key script") -> list[Step]:
    """Parse a key file (see the module notes for the format).

    Args:
        text: the whole file.
        source: how error messages name the file.

    Raises:
        KeyScriptError: a bad line; the message names the source, the line number and the line.
    """
    steps: list[Step] = []
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            step = _parse_line(line)
        except KeyScriptError as e:
            raise KeyScriptError(f"{source} line {number}: {e}") from None
        if step is not None:
            steps.append(step)
    return steps


def read_key_script(path: str | Path) -> list[Step]:
    """Read and parse a key file.

    Raises:
        KeyScriptError: the file cannot be read or has a bad line.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise KeyScriptError(f"cannot read key script {str(path)!r}: {e}") from e
    return parse_key_script(text, source=str(path))


def format_key_script(steps: Iterable[Step]) -> str:
    """The key file for *steps*, one line each; ``parse_key_script`` reads it back."""
    return "".join(f"{step}\n" for step in steps)


class ScriptedKeys:
    """The ``Keys`` port fed from a key script, for headless runs and tests.

    By default ``start(sink)`` plays every step at once in the caller's thread: each key goes
    to the sink, and each ``wait`` moves *clock* on and then calls *on_wait*, so a run is
    deterministic and takes no real time. With ``real_time=True`` a thread plays the steps
    and really waits (the clock is left alone).

    Args:
        steps: what to play.
        clock: a fake clock to move on at each ``wait``.
        on_wait: called with the seconds after each ``wait``, e.g. to let the controller run
            its timers.
        real_time: play on a thread with real waits.
    """

    def __init__(
        self,
        steps: Iterable[Step],
        *,
        clock: FakeClock | None = None,
        on_wait: Callable[[float], None] | None = None,
        real_time: bool = False,
    ) -> None:
        self._steps = tuple(steps)
        self._clock = clock
        self._on_wait = on_wait
        self._real_time = real_time
        self._stop = threading.Event()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._played = 0

    @classmethod
    def from_file(
        cls,
        path: str | Path,
        *,
        clock: FakeClock | None = None,
        on_wait: Callable[[float], None] | None = None,
        real_time: bool = False,
    ) -> ScriptedKeys:
        """Keys played from a key file.

        Raises:
            KeyScriptError: the file cannot be read or has a bad line.
        """
        steps = read_key_script(path)
        return cls(steps, clock=clock, on_wait=on_wait, real_time=real_time)

    @property
    def steps(self) -> tuple[Step, ...]:
        """Everything this source will play."""
        return self._steps

    @property
    def played(self) -> int:
        """How many steps have been played so far."""
        return self._played

    def start(self, sink: KeySink) -> None:
        """Play the steps into *sink*: now, or on a thread with ``real_time``.

        Raises:
            PegboardError: whatever the sink raises, in the default mode (the rest of the
                script is not played).
        """
        if self._real_time:
            self._thread = threading.Thread(
                target=self._play_logged, args=(sink,), name="pegboard-keyscript", daemon=True
            )
            self._thread.start()
        else:
            self._play(sink)

    def wait_done(self, timeout: float | None = None) -> bool:
        """Wait until every step was played (or the keys were closed); False on timeout."""
        return self._done.wait(timeout)

    def close(self) -> None:
        """Stop playing. Calling it twice is fine."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
            self._thread = None

    def _play(self, sink: KeySink) -> None:
        try:
            for step in self._steps[self._played :]:
                if self._stop.is_set():
                    return
                if isinstance(step, Wait):
                    if self._real_time:
                        if self._stop.wait(step.seconds):
                            return
                    elif self._clock is not None:
                        self._clock.advance(step.seconds)
                    if self._on_wait is not None:
                        self._on_wait(step.seconds)
                else:
                    sink(step)
                self._played += 1
        finally:
            self._done.set()

    def _play_logged(self, sink: KeySink) -> None:
        try:
            self._play(sink)
        except Exception:
            log.exception("key script stopped after %d steps", self._played)


# --------------------------------------------------------------------------- the keyboard


@dataclass(frozen=True, slots=True)
class LegendRow:
    """One line of the simulator's keyboard legend, and the characters behind it.

    *events* holds one event per character of *chars*, or a single event for all of them.
    """

    keys: str  # the computer keys, as printed
    meaning: str  # what they stand for on the device
    chars: str  # the characters the terminal delivers for them
    events: tuple[KeyEvent, ...]

    def __post_init__(self) -> None:
        if len(self.events) not in (1, len(self.chars)):
            raise ValueError(f"legend row {self.keys!r}: one event, or one per character")

    def pairs(self) -> Iterable[tuple[str, KeyEvent]]:
        """(character, event) for every character of the row."""
        events = self.events * len(self.chars) if len(self.events) == 1 else self.events
        return zip(self.chars, events, strict=True)


def _press(*names: str) -> tuple[KeyEvent, ...]:
    return tuple(KeyEvent(n) for n in names)


KEYBOARD_LEGEND: tuple[LegendRow, ...] = (
    LegendRow("0-9", "keypad 0-9", "0123456789", _press(*"0123456789")),
    LegendRow("a b c d", "keypad A B C D", "abcdABCD", _press(*"ABCDABCD")),
    LegendRow("* Backspace", "keypad * (back)", "*\x7f\b", _press("*")),
    LegendRow("# Enter", "keypad # (enter)", "#\r\n", _press("#")),
    LegendRow("q w e", "peg button, side 1 2 3", "qwe", _press("peg0", "peg1", "peg2")),
    LegendRow("u", "undo", "u", _press("undo")),
    LegendRow("U r", "redo (undo held)", "Ur", (KeyEvent("undo", KeyAction.LONG_PRESS),)),
    LegendRow("o Space", "ok", "o ", _press("ok")),
    LegendRow("O m", "menu (ok held)", "Om", (KeyEvent("ok", KeyAction.LONG_PRESS),)),
)
"""The simulator's keyboard map, as the legend shows it; ``key_for_char`` reads it."""

_BY_CHAR: dict[str, KeyEvent] = {ch: ev for row in KEYBOARD_LEGEND for ch, ev in row.pairs()}


def key_for_char(ch: str) -> KeyEvent | None:
    """The key event a typed character stands for, or ``None`` if it means nothing.

    >>> key_for_char("7")
    KeyEvent(key='7', action=<KeyAction.PRESS: 'press'>)
    >>> str(key_for_char("U"))
    'undo:long'
    >>> key_for_char("x") is None
    True
    """
    return _BY_CHAR.get(ch)


def legend_lines(rows: Sequence[LegendRow] = KEYBOARD_LEGEND) -> list[str]:
    """The legend as aligned text lines, ready to print.

    >>> legend_lines()[0]
    '0-9          keypad 0-9'
    """
    width = max(len(row.keys) for row in rows)
    return [f"{row.keys:<{width}}  {row.meaning}" for row in rows]
