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
``!6``, ``!hash``
    A key the device is expected to refuse (a card over 31, a fifth five): ``!`` then the
    key, no space. A headless run stops with an error, naming the line, at any refused key
    that is not marked so, and at a marked key that is accepted. Only keys can be marked.
Blank lines and comments
    Whitespace around a line does not matter. ``#`` is a key, so the rule is: a line that is
    just ``#`` presses the ``#`` key; any other line that starts with ``#`` is a comment; and a
    ``#`` after a space starts a comment at the end of a line (``7  # the seven``). To comment
    a press of ``#`` itself, write it ``hash  # enter``.

Every step has one text form and reads back to itself: ``str(step)`` is the line, and
``format_key_script`` writes a whole file that ``parse_key_script`` reads back unchanged.

The header: the game a key file is for
--------------------------------------
Keys only make sense for one game: the same presses mean other things three-handed, or with
muggins. So a key file says which game it plays in header lines, comments of the form
``# key: value`` before its first key::

    # A three-handed deal (any comment may come first).
    # variant: three-handed
    # names: Ann, Bob, Cy
    # final_scores: 4, 19, 9

The keys are those of the config's ``[game]`` section, with the same values: ``variant``
(``six-card``, ``five-card``, ``three-handed`` ...), ``names`` (one word per side, separated
by commas), ``roster`` (the names the menu offers, separated by commas), ``match``
(``best-of-three``, ``first-to-two``, ``single``), ``target``, ``muggins``,
``muggins_in_play``, ``starter_counts_in_play`` (``yes`` or ``no``),
``win_points``, ``lurch_points``, ``double_skunk_points`` (whole numbers), ``lurch_line`` and
``double_skunk_line`` (a hole number, or ``none``), ``language`` (``en`` or ``de``). A file
with any of them plays exactly the game they describe, whatever the config's ``[game]`` says;
a setting left out takes its default (six-card for two, the variant's own match format, no
muggins), except the language: the table speaks the config's unless the header says
``language`` itself. A file with none of them plays the config's game. One more key is a
check, not a setting: ``final_scores``, one score per side, which the game must end on (a
headless run that ends elsewhere is an error).

Before the first key, a comment that starts with a lower-case word and a colon is a header,
so an unknown or misspelt key is an error rather than a setting silently lost; write other
comments there some other way (``# Note: ...``, ``# the plan: ...``). After the first key, only
a known key is taken for a misplaced header (an error); any other comment is a comment.

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pegboard.config.fields import did_you_mean
from pegboard.devices.ports import (
    BUTTON_NAMES,
    PEG_BUTTONS,
    FakeClock,
    KeyAction,
    KeyEvent,
    KeySink,
)
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules, Variant
from pegboard.errors import ConfigError, PegboardError, quote
from pegboard.frozen import frozen
from pegboard.i18n import Language

__all__ = [
    "HEADER_KEYS",
    "KEYBOARD_LEGEND",
    "KEYPAD_KEYS",
    "Header",
    "HeaderValue",
    "KeyScript",
    "KeyScriptError",
    "LegendRow",
    "ScriptLine",
    "ScriptedKeys",
    "Step",
    "Wait",
    "format_key_script",
    "key_for_char",
    "legend_lines",
    "parse_key",
    "parse_key_script",
    "parse_script",
    "read_key_script",
    "read_script",
]

log = logging.getLogger(__name__)

KEYPAD_KEYS: frozenset[str] = frozenset("0123456789ABCD*#")
"""The keys of the matrix keypad (a 3x4 keypad has no A-D)."""

_ALIASES = {"star": "*", "hash": "#"}
_SECONDS = re.compile(r"(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")  # 2, 0.25, 1e-06; no sign
_TRAILING_COMMENT = re.compile(r"\s#.*\Z", re.DOTALL)
_PEGS = f"{PEG_BUTTONS[0]}-{PEG_BUTTONS[-1]}"  # peg0-peg9
_EXPECTED = f"expected 0-9, A-D, *, #, {_PEGS}, undo, ok, name:long or wait SECONDS"


class KeyScriptError(PegboardError, ValueError):
    """A key file, or one key name, that cannot be read."""


@frozen
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
        raise KeyScriptError(f"unknown key {quote(text)} ({_EXPECTED})")
    if not sep:
        return KeyEvent(name)
    if action != KeyAction.LONG_PRESS.value:
        raise KeyScriptError(
            f"unknown key action {quote(action)} in {quote(text)} (expected name:long)"
        )
    if name in KEYPAD_KEYS:
        raise KeyScriptError(
            f"keypad key {name!r} has no long press in {quote(text)} "
            f"(only buttons have one: {_PEGS}, undo, ok)"
        )
    return KeyEvent(name, KeyAction.LONG_PRESS)


def _parse_line(line: str) -> tuple[Step, bool] | None:
    """One line of a key file: a step and whether it is marked refused (``!``), or ``None``
    for a blank or comment line.

    Raises:
        KeyScriptError: a bad line (the message does not name the line yet).
    """
    text = line.strip()
    if text == "#":
        return KeyEvent("#"), False  # the # key; '# ...' is a comment
    if not text or text.startswith("#"):
        return None
    text = _TRAILING_COMMENT.sub("", text).rstrip()
    refused = text.startswith("!")
    if refused:
        key = text[1:]
        if not key or key[0].isspace() or key.startswith("!") or key.split()[0] == "wait":
            raise KeyScriptError(
                f"a key marked refused is '!' then the key, like '!7' or '!hash', got {quote(text)}"
            )
        text = key
    words = text.split()
    if words[0] == "wait":
        if len(words) != 2 or not _SECONDS.fullmatch(words[1]):
            raise KeyScriptError(f"wait needs seconds like 'wait 0.5', got {quote(text)}")
        seconds = float(words[1])
        if not math.isfinite(seconds):
            raise KeyScriptError(f"wait needs seconds like 'wait 0.5', got {quote(text)}")
        return Wait(seconds), False
    if len(words) != 1:
        raise KeyScriptError(f"one key per line, got {quote(text)}")
    return parse_key(text), refused


# -- the header -----------------------------------------------------------------------------

HeaderValue = str | bool | int | tuple[str, ...] | tuple[int, ...]
"""A header's value: text, a flag, a whole number, names or scores."""

_HEADER = re.compile(r"#\s*([a-z][a-z0-9_-]*)\s*:(.*)", re.DOTALL)
_WHOLE = re.compile(r"[0-9]+")
_FLAGS = {"yes": True, "true": True, "on": True, "no": False, "false": False, "off": False}
_EXAMPLE_NAMES = ("Ann", "Bob", "Cy", "Di")


def _variant(text: str) -> str:
    try:
        return Variant.parse(text).value
    except ConfigError as e:
        raise KeyScriptError(str(e)) from None


def _language(text: str) -> str:
    codes = [language.value for language in Language]
    if text not in codes:
        raise KeyScriptError(
            f"language must be one of {', '.join(codes)}, got {quote(text)} (e.g. 'de')"
        )
    return text


def _match(text: str) -> str:
    try:
        return MatchFormat.parse(text).value
    except ConfigError as e:
        raise KeyScriptError(str(e)) from None


def _names(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(","))
    if not all(name and len(name.split()) == 1 for name in names):
        raise KeyScriptError(
            "names must be one word per side, separated by commas like 'Ann, Bob', "
            f"got {quote(text)}"
        )
    if len({name.lower() for name in names}) != len(names):
        raise KeyScriptError(f"names must all differ, got {quote(text)}")
    return names


def _roster(text: str) -> tuple[str, ...]:
    """The names separated by commas; the config checks them (``[game] roster``)."""
    return tuple(name.strip() for name in text.split(","))


def _flag(key: str) -> Callable[[str], bool]:
    def parse(text: str) -> bool:
        flag = _FLAGS.get(text.lower())
        if flag is None:
            raise KeyScriptError(f"{key} must be yes or no, got {quote(text)}")
        return flag

    return parse


def _whole(key: str, example: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not _WHOLE.fullmatch(text):
            raise KeyScriptError(f"{key} must be a whole number like {example}, got {quote(text)}")
        return int(text)

    return parse


def _hole(key: str) -> Callable[[str], int | bool]:
    def parse(text: str) -> int | bool:
        if text.lower() in ("none", "no", "false"):
            return False  # as the config writes "no such line"
        if not _WHOLE.fullmatch(text) or int(text) < 1:
            raise KeyScriptError(f"{key} must be a hole number like 91, or none, got {quote(text)}")
        return int(text)

    return parse


def _scores(text: str) -> tuple[int, ...]:
    scores = [score.strip() for score in text.split(",")]
    if not all(_WHOLE.fullmatch(score) for score in scores):
        raise KeyScriptError(
            "final_scores must be whole numbers separated by commas like '121, 73', "
            f"got {quote(text)}"
        )
    return tuple(int(score) for score in scores)


HEADER_KEYS: Mapping[str, Callable[[str], HeaderValue]] = {
    "variant": _variant,
    "names": _names,
    "roster": _roster,
    "match": _match,
    "target": _whole("target", 121),
    "muggins": _flag("muggins"),
    "muggins_in_play": _flag("muggins_in_play"),
    "starter_counts_in_play": _flag("starter_counts_in_play"),
    "win_points": _whole("win_points", 2),
    "lurch_points": _whole("lurch_points", 2),
    "double_skunk_points": _whole("double_skunk_points", 3),
    "lurch_line": _hole("lurch_line"),
    "double_skunk_line": _hole("double_skunk_line"),
    "language": _language,
    "final_scores": _scores,
}
"""The header keys, each with the function that reads its value: the config's ``[game]`` keys
(but ``database``), then ``final_scores``, the check."""

_CHECKS = frozenset({"final_scores"})  # header keys that are not game settings


@frozen
class Header:
    """One header line, ``# key: value``: where it is, its key, the value as written and read."""

    line: int
    key: str
    text: str
    value: HeaderValue

    def __str__(self) -> str:
        return f"# {self.key}: {self.text}"


@frozen
class ScriptLine:
    """One step of a key file, with its line number; *refused*: marked ``!``."""

    number: int
    step: Step
    refused: bool = False

    def __str__(self) -> str:
        return f"!{self.step}" if self.refused else str(self.step)


@frozen
class KeyScript:
    """A whole key file: its header and its steps, each with its line number.

    *source* names the file in error messages.
    """

    source: str
    headers: tuple[Header, ...]
    lines: tuple[ScriptLine, ...]

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every step, in order, without line numbers or marks."""
        return tuple(line.step for line in self.lines)

    def header(self, key: str) -> Header | None:
        """The header line for *key*, or None."""
        return next((h for h in self.headers if h.key == key), None)

    def game_table(self) -> dict[str, Any]:
        """The header's game settings as the config's ``[game]`` table (as ``tomllib`` reads
        it): empty when the file has none, and then the config's game is played."""
        return {
            h.key: list(h.value) if isinstance(h.value, tuple) else h.value
            for h in self.headers
            if h.key not in _CHECKS
        }

    def error(self, line: int, message: str) -> KeyScriptError:
        """A ``KeyScriptError`` that names this file and *line*."""
        return KeyScriptError(f"{self.source} line {line}: {message}")


def _header_error(key: str) -> KeyScriptError:
    # 0.7, not difflib's 0.6: a comment word like 'note' is not a misspelt 'roster'
    hint = did_you_mean(key, HEADER_KEYS, cutoff=0.7)
    return KeyScriptError(
        f"unknown header {key!r}{hint} (expected one of {', '.join(HEADER_KEYS)}; "
        "a comment before the first key may not start with 'word:')"
    )


def _check_sides(script: KeyScript) -> None:
    """Names and final scores, one per side of the header's variant.

    Raises:
        KeyScriptError: another count; the message names the line.
    """
    variant = script.header("variant")
    rules = Rules.for_variant(str(variant.value) if variant is not None else "six-card")
    name = rules.variant.value
    for key, example, what in (
        ("names", ", ".join(_EXAMPLE_NAMES[: rules.sides]), "name"),
        ("final_scores", "121, 73", "score"),
    ):
        header = script.header(key)
        if header is None or not isinstance(header.value, tuple):
            continue
        if len(header.value) != rules.sides:
            raise script.error(
                header.line,
                f"{key} {quote(header.text)} are {len(header.value)} {key.split('_')[-1]}, and "
                f"{name} has {rules.sides} sides (expected one {what} per side, like "
                f"{example!r})",
            )


def parse_script(text: str, *, source: str = "key script") -> KeyScript:
    """Parse a key file with its header and line numbers (see the module notes).

    Args:
        text: the whole file.
        source: how error messages name the file.

    Raises:
        KeyScriptError: a bad line or header; the message names the source, the line number
            and what was expected.
    """
    headers: list[Header] = []
    lines: list[ScriptLine] = []
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            found = _HEADER.fullmatch(line.strip())
            if found is not None and (not lines or found[1] in HEADER_KEYS):
                headers.append(_parse_header(found[1], found[2], number, headers, lines))
                continue
            parsed = _parse_line(line)
        except KeyScriptError as e:
            raise KeyScriptError(f"{source} line {number}: {e}") from None
        if parsed is not None:
            lines.append(ScriptLine(number, *parsed))
    script = KeyScript(source, tuple(headers), tuple(lines))
    _check_sides(script)
    return script


def _parse_header(
    key: str, rest: str, number: int, headers: Sequence[Header], lines: Sequence[ScriptLine]
) -> Header:
    """One ``# key: value`` line.

    Raises:
        KeyScriptError: an unknown key, one given twice or after the first key, or a bad value.
    """
    if key not in HEADER_KEYS:
        raise _header_error(key)
    if lines:
        raise KeyScriptError(f"header {key!r} must come before the first key")
    first = next((h for h in headers if h.key == key), None)
    if first is not None:
        raise KeyScriptError(f"header {key!r} is given twice (first on line {first.line})")
    value_text = _TRAILING_COMMENT.sub("", rest).strip()
    return Header(number, key, value_text, HEADER_KEYS[key](value_text))


def read_script(path: str | Path) -> KeyScript:
    """Read and parse a key file with its header.

    Raises:
        KeyScriptError: the file cannot be read, or has a bad line or header.
    """
    shown = repr(str(path))
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        from pegboard.journal.paths import path_kind

        # a name too long, or a file where a folder should be: one line, as for any path
        path_kind(Path(path), KeyScriptError, what="key script ")
        raise KeyScriptError(f"cannot read key script {shown}: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise KeyScriptError(f"cannot read key script {shown}: {e}") from e
    return parse_script(text, source=str(path))


def parse_key_script(text: str, *, source: str = "key script") -> list[Step]:
    """Parse a key file (see the module notes for the format): its steps only.

    Args:
        text: the whole file.
        source: how error messages name the file.

    Raises:
        KeyScriptError: a bad line or header; the message names the source, the line number
            and the line.
    """
    return list(parse_script(text, source=source).steps)


def read_key_script(path: str | Path) -> list[Step]:
    """Read and parse a key file: its steps only.

    Raises:
        KeyScriptError: the file cannot be read or has a bad line.
    """
    return list(read_script(path).steps)


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


@frozen
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
