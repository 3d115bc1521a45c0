"""Key files, the keyboard map and ScriptedKeys."""

from __future__ import annotations

import doctest
import queue
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegboard.app import keyscript
from pegboard.app.keyscript import (
    BUTTON_NAMES,
    KEYBOARD_LEGEND,
    KEYPAD_KEYS,
    KeyScriptError,
    LegendRow,
    ScriptedKeys,
    Step,
    Wait,
    format_key_script,
    key_for_char,
    legend_lines,
    parse_key,
    parse_key_script,
    read_key_script,
)
from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent
from pegboard.engine.errors import PegboardError

LONG = KeyAction.LONG_PRESS


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(keyscript).failed == 0


# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "event"),
    [
        pytest.param("7", KeyEvent("7"), id="7"),
        pytest.param("A", KeyEvent("A"), id="A"),
        pytest.param("*", KeyEvent("*"), id="star"),
        pytest.param("#", KeyEvent("#"), id="hash"),
        pytest.param("star", KeyEvent("*"), id="star-word"),
        pytest.param("hash", KeyEvent("#"), id="hash-word"),
        pytest.param("peg0", KeyEvent("peg0"), id="peg0"),
        pytest.param("peg2", KeyEvent("peg2"), id="peg2"),
        pytest.param("undo", KeyEvent("undo"), id="undo"),
        pytest.param("undo:long", KeyEvent("undo", LONG), id="redo"),
        pytest.param("ok:long", KeyEvent("ok", LONG), id="menu"),
        pytest.param("peg1:long", KeyEvent("peg1", LONG), id="peg1-held"),
    ],
)
def test_parse_key_reads_every_kind_of_name(text: str, event: KeyEvent) -> None:
    assert parse_key(text) == event


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("a", r"^unknown key 'a' \(expected 0-9, A-D, \*, #, peg0-peg9", id="a"),
        pytest.param("10", r"^unknown key '10' \(expected", id="10"),
        pytest.param("peg", r"^unknown key 'peg' \(expected", id="peg"),
        pytest.param(":long", r"^unknown key ':long' \(expected", id="no-name"),
        pytest.param(
            "undo:double",
            r"^unknown key action 'double' in 'undo:double' \(expected name:long\)$",
            id="double",
        ),
        pytest.param(
            "undo:", r"^unknown key action '' in 'undo:' \(expected name:long\)$", id="colon"
        ),
        pytest.param(
            "7:long",
            r"^keypad key '7' has no long press in '7:long' "
            r"\(only buttons have one: peg0-peg9, undo, ok\)$",
            id="7-held",
        ),
        pytest.param(
            "hash:long", r"^keypad key '#' has no long press in 'hash:long'", id="hash-held"
        ),
    ],
)
def test_parse_key_refuses_what_is_not_a_key(text: str, message: str) -> None:
    with pytest.raises(KeyScriptError, match=message):
        parse_key(text)


def test_a_key_script_error_is_a_pegboard_error_and_a_value_error() -> None:
    assert issubclass(KeyScriptError, PegboardError)
    assert issubclass(KeyScriptError, ValueError)


SCRIPT = """\
# deal 1: the start card is the jack of hearts
A                # jack: the A key
  hash           # enter (a commented press of the # key)
#
#:long is a comment: a line starting with # and more after it

peg0
wait 0.3   # let the peg commit
undo:long
wait 2
"""


def test_a_key_script_reads_keys_waits_blank_lines_and_comments() -> None:
    assert parse_key_script(SCRIPT) == [
        KeyEvent("A"),
        KeyEvent("#"),
        KeyEvent("#"),
        KeyEvent("peg0"),
        Wait(0.3),
        KeyEvent("undo", LONG),
        Wait(2.0),
    ]


@pytest.mark.parametrize(
    ("line", "steps"),
    [
        pytest.param("#", [KeyEvent("#")], id="hash-alone"),
        pytest.param("   #\t", [KeyEvent("#")], id="hash-with-spaces"),
        pytest.param("# 7", [], id="comment"),
        pytest.param("#7", [], id="comment-no-space"),
        pytest.param("##", [], id="two-hashes"),
        pytest.param("7 # # #", [KeyEvent("7")], id="trailing-comment"),
        pytest.param("7\t#tab", [KeyEvent("7")], id="tab-comment"),
        pytest.param("*", [KeyEvent("*")], id="star"),
        pytest.param("wait 0", [Wait(0.0)], id="wait-0"),
        pytest.param("wait .5", [Wait(0.5)], id="wait-.5"),
        pytest.param("wait 12.", [Wait(12.0)], id="wait-12."),
        pytest.param("wait 1e-06", [Wait(1e-06)], id="wait-1e-06"),
        pytest.param("", [], id="blank"),
    ],
)
def test_hash_is_a_key_alone_and_a_comment_otherwise(line: str, steps: list[Step]) -> None:
    assert parse_key_script(line) == steps


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "7\n\nundo\nfoo\n",
            r"^keys\.txt line 4: unknown key 'foo' \(expected 0-9, A-D, \*, #, peg0-peg9, "
            r"undo, ok, name:long or wait SECONDS\)$",
            id="unknown",
        ),
        pytest.param(
            "7#", r"^keys\.txt line 1: unknown key '7#' \(expected", id="hash-without-space"
        ),
        pytest.param("7 8", r"^keys\.txt line 1: one key per line, got '7 8'$", id="two-keys"),
        pytest.param(
            "wait",
            r"^keys\.txt line 1: wait needs seconds like 'wait 0\.5', got 'wait'$",
            id="wait-alone",
        ),
        pytest.param(
            "wait -1",
            r"^keys\.txt line 1: wait needs seconds like 'wait 0\.5', got 'wait -1'$",
            id="wait-negative",
        ),
        pytest.param(
            "wait 2s",
            r"^keys\.txt line 1: wait needs seconds like 'wait 0\.5', got 'wait 2s'$",
            id="wait-unit",
        ),
        pytest.param(
            "wait inf", r"^keys\.txt line 1: wait needs seconds .* got 'wait inf'$", id="wait-inf"
        ),
        pytest.param(
            "wait 1 2", r"^keys\.txt line 1: wait needs seconds .* got 'wait 1 2'$", id="wait-two"
        ),
        pytest.param(
            "#\n  7:long  # no",
            r"^keys\.txt line 2: keypad key '7' has no long press in '7:long'",
            id="keypad-held",
        ),
        pytest.param(
            "ok:longer",
            r"^keys\.txt line 1: unknown key action 'longer' in 'ok:longer'",
            id="action",
        ),
    ],
)
def test_a_bad_line_is_refused_with_its_number_and_text(text: str, message: str) -> None:
    with pytest.raises(KeyScriptError, match=message):
        parse_key_script(text, source="keys.txt")


def test_the_default_source_name() -> None:
    with pytest.raises(KeyScriptError, match=r"^key script line 1: one key per line"):
        parse_key_script("1 2")


def test_read_key_script_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "hand.keys"
    path.write_text("5\n5\nbad\n", encoding="utf-8")
    with pytest.raises(KeyScriptError, match=r"hand\.keys line 3: unknown key 'bad'"):
        read_key_script(path)
    path.write_text("5\nwait 1\n", encoding="utf-8")
    assert read_key_script(path) == [KeyEvent("5"), Wait(1.0)]


def test_a_missing_key_file_is_a_key_script_error(tmp_path: Path) -> None:
    with pytest.raises(KeyScriptError, match=r"^cannot read key script '.*nope\.keys': "):
        read_key_script(tmp_path / "nope.keys")


def test_a_key_file_that_is_not_text_is_a_key_script_error(tmp_path: Path) -> None:
    path = tmp_path / "binary.keys"
    path.write_bytes(b"\xff\xfe7\n")
    with pytest.raises(KeyScriptError, match=r"^cannot read key script '.*binary\.keys': "):
        read_key_script(path)


NAMES = sorted(KEYPAD_KEYS) + sorted(BUTTON_NAMES)
steps_strategy = st.lists(
    st.one_of(
        st.sampled_from(NAMES).map(KeyEvent),
        st.sampled_from(sorted(BUTTON_NAMES)).map(lambda n: KeyEvent(n, LONG)),
        st.floats(0, 1e6, allow_nan=False).map(Wait),
    )
)


@given(steps_strategy)
def test_a_formatted_script_reads_back_the_same(steps: list[Step]) -> None:
    assert parse_key_script(format_key_script(steps)) == steps


@given(st.sampled_from(NAMES))
def test_every_key_name_reads_back_from_its_text(name: str) -> None:
    assert str(parse_key(name)) == name


# --------------------------------------------------------------------------- keyboard


@pytest.mark.parametrize(
    ("ch", "event"),
    [
        pytest.param("0", "0", id="0"),
        pytest.param("9", "9", id="9"),
        pytest.param("a", "A", id="a"),
        pytest.param("D", "D", id="D"),
        pytest.param("*", "*", id="star"),
        pytest.param("\x7f", "*", id="backspace"),
        pytest.param("#", "#", id="hash"),
        pytest.param("\r", "#", id="enter"),
        pytest.param("\n", "#", id="newline"),
        pytest.param("q", "peg0", id="q"),
        pytest.param("w", "peg1", id="w"),
        pytest.param("e", "peg2", id="e"),
        pytest.param("u", "undo", id="u"),
        pytest.param("U", "undo:long", id="U"),
        pytest.param("r", "undo:long", id="r"),
        pytest.param("o", "ok", id="o"),
        pytest.param(" ", "ok", id="space"),
        pytest.param("m", "ok:long", id="m"),
    ],
)
def test_computer_keys_stand_for_keypad_keys_and_buttons(ch: str, event: str) -> None:
    assert str(key_for_char(ch)) == event


@pytest.mark.parametrize("ch", [pytest.param(c, id=repr(c)) for c in "xz!\x1b\t"])
def test_other_characters_mean_nothing(ch: str) -> None:
    assert key_for_char(ch) is None


def test_every_keyboard_key_reads_back_as_a_key_script_name() -> None:
    for row in KEYBOARD_LEGEND:
        for _, event in row.pairs():
            assert parse_key(str(event)) == event


def test_no_character_appears_twice_in_the_legend() -> None:
    chars = "".join(row.chars for row in KEYBOARD_LEGEND)
    assert len(chars) == len(set(chars))


def test_the_legend_prints_as_aligned_lines() -> None:
    lines = legend_lines()
    assert len(lines) == len(KEYBOARD_LEGEND)
    assert lines[4] == "q w e        peg button, side 1 2 3"
    assert {
        len(line) - len(row.meaning) for line, row in zip(lines, KEYBOARD_LEGEND, strict=True)
    } == {13}


def test_a_legend_row_needs_one_event_or_one_per_character() -> None:
    with pytest.raises(ValueError, match=r"^legend row 'x y': one event, or one per character$"):
        LegendRow("x y", "broken", "xyz", (KeyEvent("1"), KeyEvent("2")))


# --------------------------------------------------------------------------- ScriptedKeys


def test_scripted_keys_feed_the_sink_and_move_the_clock_at_waits() -> None:
    clock = FakeClock(10.0)
    seen: list[tuple[str, float]] = []
    keys = ScriptedKeys(parse_key_script(SCRIPT), clock=clock)
    keys.start(lambda e: seen.append((str(e), clock.monotonic())))
    assert seen == [
        ("A", 10.0),
        ("#", 10.0),
        ("#", 10.0),
        ("peg0", 10.0),
        ("undo:long", 10.3),
    ]
    assert clock.monotonic() == pytest.approx(12.3)
    assert keys.played == len(keys.steps) == 7
    assert keys.wait_done(0)
    keys.close()


def test_on_wait_runs_after_the_clock_moved() -> None:
    clock = FakeClock()
    ticks: list[tuple[float, float]] = []
    keys = ScriptedKeys(
        [Wait(0.5), KeyEvent("1"), Wait(1.5)],
        clock=clock,
        on_wait=lambda s: ticks.append((s, clock.monotonic())),
    )
    keys.start(lambda e: None)
    assert ticks == [(0.5, 0.5), (1.5, 2.0)]


def test_scripted_keys_without_a_clock_just_deliver() -> None:
    q: queue.Queue[KeyEvent] = queue.Queue()
    ScriptedKeys([KeyEvent("1"), Wait(3600), KeyEvent("2")]).start(q.put)
    assert [q.get_nowait(), q.get_nowait()] == [KeyEvent("1"), KeyEvent("2")]


def test_closing_from_the_sink_stops_the_script() -> None:
    seen: list[KeyEvent] = []
    keys = ScriptedKeys([KeyEvent("1"), KeyEvent("2"), KeyEvent("3")])

    def sink(event: KeyEvent) -> None:
        seen.append(event)
        keys.close()

    keys.start(sink)
    assert seen == [KeyEvent("1")]
    assert keys.played == 1
    assert keys.wait_done(0)


def test_an_error_from_the_sink_reaches_the_caller() -> None:
    def sink(event: KeyEvent) -> None:
        raise PegboardError(f"cannot take {event}")

    keys = ScriptedKeys([KeyEvent("1"), KeyEvent("2")])
    with pytest.raises(PegboardError, match=r"^cannot take 1$"):
        keys.start(sink)
    assert keys.played == 0


def test_real_time_scripted_keys_play_on_a_thread() -> None:
    q: queue.Queue[KeyEvent] = queue.Queue()
    clock = FakeClock()
    keys = ScriptedKeys(
        [KeyEvent("1"), Wait(0.001), KeyEvent("undo", LONG)], clock=clock, real_time=True
    )
    keys.start(q.put)
    assert keys.wait_done(10)
    keys.close()
    assert [q.get_nowait(), q.get_nowait()] == [KeyEvent("1"), KeyEvent("undo", LONG)]
    assert clock.monotonic() == 0.0  # real waits leave the fake clock alone


def test_closing_real_time_keys_cuts_a_long_wait_short() -> None:
    q: queue.Queue[KeyEvent] = queue.Queue()
    keys = ScriptedKeys([KeyEvent("1"), Wait(3600), KeyEvent("2")], real_time=True)
    keys.start(q.put)
    assert q.get(timeout=10) == KeyEvent("1")
    keys.close()
    assert keys.wait_done(0)
    assert q.empty()
    assert keys.played == 1


def test_scripted_keys_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "k.keys"
    path.write_text("peg1\npeg1\nwait 1\n", encoding="utf-8")
    clock = FakeClock()
    q: queue.Queue[KeyEvent] = queue.Queue()
    ScriptedKeys.from_file(path, clock=clock).start(q.put)
    assert [q.get_nowait(), q.get_nowait()] == [KeyEvent("peg1")] * 2
    assert clock.monotonic() == 1.0
