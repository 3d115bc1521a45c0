"""The command text syntax: anything a player types parses or is refused with a clear error."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.engine.cards import MAX_TEXT_BYTES, parse_cards, shuffled_deck
from pegboard.engine.commands import (
    Command,
    Crib,
    Cut,
    InvalidCommandError,
    Peg,
    Show,
    format_command,
    parse_command,
    random_cut,
)
from pegboard.engine.game import GameState, apply, replay
from pegboard.engine.rules import Rules, Variant
from pegboard.errors import InvalidCardError, PegboardError

NAMES = ("A", "B")


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("peg A ²", id="superscript-two"),
        pytest.param("peg A ２", id="fullwidth-two"),
        pytest.param("peg A ١", id="arabic-indic-one"),
        pytest.param("peg A -2", id="negative"),
        pytest.param("peg A +2", id="plus-sign"),
        pytest.param("peg A 2.0", id="decimal"),
        pytest.param("claim ³", id="superscript-claim"),
    ],
)
def test_points_must_be_plain_digits(text: str) -> None:
    with pytest.raises(InvalidCommandError, match=r"must be a whole number, got '.+' in"):
        parse_command(text, NAMES)


@pytest.mark.parametrize("word", ["peg A", "claim"])
def test_a_number_with_thousands_of_digits_is_refused_not_a_crash(word: str) -> None:
    with pytest.raises(
        InvalidCommandError, match=r"must be a whole number of at most 6 digits, got 4000 digits"
    ):
        parse_command(f"{word} {'9' * 4000}", NAMES)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        # argv and a surrogateescape stdin turn an undecodable byte into U+DC80..U+DCFF
        pytest.param("peg A 2 \udcff", "byte 0xFF at character 9", id="byte-in-a-reason"),
        pytest.param("peg A 2 caf\udce9", "byte 0xE9 at character 12", id="latin-1-e-acute"),
        pytest.param("\udcffplay 5H", "byte 0xFF at character 1", id="byte-first"),
        pytest.param("show 5H \ud800", "lone surrogate U+D800 at character 9", id="surrogate"),
    ],
)
def test_text_that_is_not_valid_unicode_is_refused(text: str, where: str) -> None:
    with pytest.raises(InvalidCommandError) as info:
        parse_command(text, NAMES)
    message = str(info.value)
    assert message == (
        f"command is not valid UTF-8: {text!r} ({where} cannot be decoded; expected UTF-8 text)"
    )
    message.encode("utf-8")  # the message itself prints under a strict UTF-8 locale


def test_a_ten_megabyte_command_is_refused_at_once_with_a_short_message() -> None:
    with pytest.raises(InvalidCommandError) as info:
        parse_command("peg A 2 " + "x" * 10_000_000, NAMES)
    assert str(info.value) == (
        f"command is too long: {'peg A 2 ' + 'x' * 47!r}... has 10,000,008 characters "
        f"(expected at most {MAX_TEXT_BYTES} bytes)"
    )


def test_a_command_may_be_4096_bytes_counted_in_utf8() -> None:
    assert MAX_TEXT_BYTES == 4096
    longest = "peg A 2 " + "x" * (MAX_TEXT_BYTES - 8)
    assert parse_command(longest, NAMES) == Peg(0, 2, "x" * (MAX_TEXT_BYTES - 8))
    with pytest.raises(InvalidCommandError, match=r"has 4,097 characters \(expected at most 4096"):
        parse_command(longest + "x", NAMES)
    # 2,053 characters, but 'é' is two bytes in UTF-8: 4,098 bytes
    with pytest.raises(InvalidCommandError, match=r"has 4,098 bytes \(expected at most 4096"):
        parse_command("peg A 2 " + "é" * 2045, NAMES)


def test_a_random_cut_is_written_as_a_bare_word() -> None:
    assert format_command(Cut(()), NAMES) == "cut"
    assert parse_command("cut", NAMES) == Cut(())


def test_a_random_cut_is_one_card_per_side_from_a_shuffled_pack() -> None:
    cut = random_cut(random.Random(7), 3)
    assert cut == Cut(tuple(shuffled_deck(random.Random(7))[:3]))
    assert len(set(cut.cards)) == 3


def test_a_peg_round_trips_with_its_reason() -> None:
    command = parse_command("peg b 12 muggins", NAMES)
    assert command == Peg(1, 12, "muggins")
    assert parse_command(format_command(command, NAMES), NAMES) == command


@pytest.mark.parametrize(
    ("text", "command"),
    [
        pytest.param("show 8", Show(points=8), id="show-8"),
        pytest.param("crib 0", Crib(points=0), id="crib-0"),
        pytest.param("show 5H 5D 5S JC", Show(parse_cards("5H 5D 5S JC")), id="show-cards"),
    ],
)
def test_a_hand_is_told_by_its_cards_or_by_its_points(text: str, command: Command) -> None:
    assert parse_command(text, NAMES) == command
    assert format_command(command, NAMES) == text


def test_a_hand_told_by_points_takes_one_number() -> None:
    with pytest.raises(InvalidCardError, match=r"invalid card: '8'"):
        parse_command("show 8 9", NAMES)


_WORDS = st.sampled_from(
    (
        *("cut", "starter", "play", "go", "peg", "claim", "show", "crib", "next", "done"),
        *("deal", "undo", "redo", "A", "b", "C", "5H", "10d", "TD", "j♠", "1H", "2", "0"),
        *("99", "-1", "²", "２"),
    )
)


@given(st.lists(st.one_of(_WORDS, st.text(max_size=6)), max_size=6).map(" ".join))
def test_any_text_parses_or_is_refused_with_a_pegboard_error(text: str) -> None:
    try:
        command = parse_command(text, NAMES)
    except PegboardError:
        return
    assert parse_command(format_command(command, NAMES), NAMES) == command


_TEXTS = st.sampled_from(
    (
        "cut",
        "cut 5H",
        "cut 9C 3D",
        "cut 5H 5H",
        "starter 5C",
        "starter JD",
        "play 5C",
        "play KS",
        "play 2D 3D",
        "go",
        "peg A 2",
        "peg B 61",
        "claim 0",
        "claim 29",
        "show",
        "show 5H 5D 5S JC",
        "show 5H 5H 5D 5S",
        "show 8",
        "show 30",
        "crib",
        "crib AS 3S 4C QH",
        "crib 12",
        "next",
        "deal",
        "undo",
        "redo",
    )
)


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(list(Variant)),
    muggins=st.booleans(),
    texts=st.lists(_TEXTS, min_size=1, max_size=40),
)
def test_typed_commands_apply_or_are_refused_leaving_the_state_equal(
    variant: Variant, muggins: bool, texts: list[str]
) -> None:
    rules = Rules.for_variant(variant, muggins=muggins, muggins_in_play=muggins)
    start = state = GameState.new(rules)
    accepted: list[Command] = []
    for text in texts:
        before = state
        try:
            command = parse_command(text, state.names)
            state, _ = apply(state, command)
        except PegboardError:
            assert state == before
            continue
        accepted.append(command)
    assert replay(start, accepted) == state
