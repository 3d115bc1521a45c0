"""Key files, the keyboard map and ScriptedKeys."""

from __future__ import annotations

import doctest
import queue
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegboard.devices.ports import BUTTON_NAMES, FakeClock, KeyAction, KeyEvent
from pegboard.errors import PegboardError
from pegboard.table import keyscript
from pegboard.table.keyscript import (
    KEYBOARD_LEGEND,
    KEYPAD_KEYS,
    KeyScriptError,
    LegendRow,
    ScriptedKeys,
    ScriptLine,
    Step,
    Wait,
    format_key_script,
    key_for_char,
    legend_lines,
    parse_key,
    parse_key_script,
    parse_script,
    read_key_script,
    read_script,
)

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


TUTORIAL = """\
# A three-handed deal (the header says which game the keys are for).
# variant: three-handed
#   names :  Ann, Bob,Cy
# match: single
# muggins: yes
# lurch_line: none   # a trailing comment
# final_scores: 4, 19, 9
# Keypad: 1-9 ace..nine (a capital: a comment, not a header)

9       # note: a colon in a comment after the first key
!hash   # refused: nothing typed yet
wait 1
"""


def test_a_key_script_reads_its_header_and_numbers_its_lines() -> None:
    script = parse_script(TUTORIAL, source="t.keys")
    assert script.source == "t.keys"
    assert [(h.line, h.key, h.text, h.value) for h in script.headers] == [
        (2, "variant", "three-handed", "three-handed"),
        (3, "names", "Ann, Bob,Cy", ("Ann", "Bob", "Cy")),
        (4, "match", "single", "single"),
        (5, "muggins", "yes", True),
        (6, "lurch_line", "none", False),
        (7, "final_scores", "4, 19, 9", (4, 19, 9)),
    ]
    assert script.lines == (
        ScriptLine(10, KeyEvent("9")),
        ScriptLine(11, KeyEvent("#"), refused=True),
        ScriptLine(12, Wait(1.0)),
    )
    assert script.steps == (KeyEvent("9"), KeyEvent("#"), Wait(1.0))
    assert script.game_table() == {
        "variant": "three-handed",
        "names": ["Ann", "Bob", "Cy"],
        "match": "single",
        "muggins": True,
        "lurch_line": False,
    }
    final = script.header("final_scores")
    assert final is not None and final.line == 7
    assert script.header("target") is None


def test_parse_key_script_reads_the_same_steps_and_drops_the_header() -> None:
    assert parse_key_script(TUTORIAL) == list(parse_script(TUTORIAL).steps)


def test_a_file_without_a_header_has_no_game_settings() -> None:
    script = parse_script(SCRIPT)
    assert script.headers == () and script.game_table() == {}
    assert list(script.steps) == parse_key_script(SCRIPT)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        pytest.param("!7", ScriptLine(1, KeyEvent("7"), refused=True), id="7"),
        pytest.param("!#", ScriptLine(1, KeyEvent("#"), refused=True), id="hash"),
        pytest.param("  !hash  # go", ScriptLine(1, KeyEvent("#"), refused=True), id="hash-word"),
        pytest.param("!undo:long", ScriptLine(1, KeyEvent("undo", LONG), refused=True), id="redo"),
        pytest.param("7", ScriptLine(1, KeyEvent("7")), id="plain"),
    ],
)
def test_a_bang_marks_a_key_the_device_should_refuse(text: str, line: ScriptLine) -> None:
    assert parse_script(text).lines == (line,)
    assert parse_script(str(line)).lines == (line,)  # the line's text reads back


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "!wait 1",
            r"^k\.keys line 1: a key marked refused is '!' then the key, like '!7' or "
            r"'!hash', got '!wait 1'$",
            id="wait",
        ),
        pytest.param("!", r"^k\.keys line 1: a key marked refused is '!' then the key", id="bare"),
        pytest.param("! 7", r"^k\.keys line 1: a key marked refused is '!' then", id="space"),
        pytest.param("!!7", r"^k\.keys line 1: a key marked refused is '!' then", id="twice"),
        pytest.param("!x", r"^k\.keys line 1: unknown key 'x' \(expected", id="not-a-key"),
    ],
)
def test_a_bad_refused_mark_is_refused_with_its_line(text: str, message: str) -> None:
    with pytest.raises(KeyScriptError, match=message):
        parse_script(text, source="k.keys")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "5\n# variant: six-card\n",
            r"^k\.keys line 2: header 'variant' must come before the first key$",
            id="after-a-key",
        ),
        pytest.param(
            "# variant: six-card\n# variant: five-card\n",
            r"^k\.keys line 2: header 'variant' is given twice \(first on line 1\)$",
            id="twice",
        ),
        pytest.param(
            "# note: the rest of this file\n",
            r"^k\.keys line 1: unknown header 'note' \(expected one of variant, names, roster, "
            r"match, .*final_scores; a comment before the first key may not start with "
            r"'word:'\)$",
            id="unknown",
        ),
        pytest.param(
            "# final-scores: 1, 2\n",
            r"^k\.keys line 1: unknown header 'final-scores' \(did you mean 'final_scores'\?\)",
            id="did-you-mean",
        ),
        pytest.param(
            "# variant: four-card\n",
            r"^k\.keys line 1: unknown variant: 'four-card' \(expected one of six-card, ",
            id="variant",
        ),
        pytest.param(
            "# variant:\n",
            r"^k\.keys line 1: unknown variant: '' \(expected one of six-card, ",
            id="no-variant",
        ),
        pytest.param(
            "# match: best-of-five\n",
            r"^k\.keys line 1: unknown match format: 'best-of-five' \(expected one of ",
            id="match",
        ),
        pytest.param(
            "# muggins: maybe\n",
            r"^k\.keys line 1: muggins must be yes or no, got 'maybe'$",
            id="flag",
        ),
        pytest.param(
            "# target: lots\n",
            r"^k\.keys line 1: target must be a whole number like 121, got 'lots'$",
            id="target",
        ),
        pytest.param(
            "# win_points: -1\n",
            r"^k\.keys line 1: win_points must be a whole number like 2, got '-1'$",
            id="points",
        ),
        pytest.param(
            "# lurch_line: x\n",
            r"^k\.keys line 1: lurch_line must be a hole number like 91, or none, got 'x'$",
            id="line",
        ),
        pytest.param(
            "# names: Ann, , Bob\n",
            r"^k\.keys line 1: names must be one word per side, separated by commas like "
            r"'Ann, Bob', got 'Ann, , Bob'$",
            id="empty-name",
        ),
        pytest.param(
            "# names: Ann Marie, Bob\n",
            r"^k\.keys line 1: names must be one word per side, .* got 'Ann Marie, Bob'$",
            id="two-words",
        ),
        pytest.param(
            "# names: Ann, ann\n",
            r"^k\.keys line 1: names must all differ, got 'Ann, ann'$",
            id="same-name",
        ),
        pytest.param(
            "# variant: three-handed\n# names: Ann, Bob\n",
            r"^k\.keys line 2: names 'Ann, Bob' are 2 names, and three-handed has 3 sides "
            r"\(expected one name per side, like 'Ann, Bob, Cy'\)$",
            id="names-for-the-variant",
        ),
        pytest.param(
            "# names: Ann, Bob, Cy\n",
            r"^k\.keys line 1: names 'Ann, Bob, Cy' are 3 names, and six-card has 2 sides "
            r"\(expected one name per side, like 'Ann, Bob'\)$",
            id="names-for-six-card",
        ),
        pytest.param(
            "# final_scores: 121, x\n",
            r"^k\.keys line 1: final_scores must be whole numbers separated by commas like "
            r"'121, 73', got '121, x'$",
            id="scores",
        ),
        pytest.param(
            "# variant: five-card\n# final_scores: 61\n",
            r"^k\.keys line 2: final_scores '61' are 1 scores, and five-card has 2 sides "
            r"\(expected one score per side, like '121, 73'\)$",
            id="scores-for-the-variant",
        ),
    ],
)
def test_a_bad_header_is_refused_with_its_line_and_what_was_expected(
    text: str, message: str
) -> None:
    with pytest.raises(KeyScriptError, match=message):
        parse_script(text, source="k.keys")


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("5\n# note: after the first key, any comment\n", id="unknown-later"),
        pytest.param("# Keypad: 1-9 ace..nine\n5\n", id="capital"),
        pytest.param("# the show: two words\n5\n", id="two-words"),
        pytest.param("#:long is a comment\n5\n", id="no-word"),
    ],
)
def test_other_comments_with_a_colon_stay_comments(text: str) -> None:
    script = parse_script(text)
    assert script.headers == () and script.steps == (KeyEvent("5"),)


def test_the_repository_key_files_all_have_a_header() -> None:
    for path in sorted((Path(__file__).parents[1] / "keys").glob("*.keys")):
        script = read_script(path)
        assert script.header("variant") is not None, path.name
        assert script.header("final_scores") is not None, path.name


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


@pytest.mark.parametrize(
    "line",
    [pytest.param("5 " * 300_000, id="keys"), pytest.param("wait " + "9" * 100_000, id="wait")],
)
def test_a_huge_bad_line_is_quoted_shortened(line: str) -> None:
    with pytest.raises(KeyScriptError) as error:
        keyscript.parse_script(f"{line}\n", source="big.keys")
    message = str(error.value)
    assert message.startswith("big.keys line 1: ") and len(message) < 300
