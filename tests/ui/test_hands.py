"""The show's one question per hand, and hands told by their points."""

from __future__ import annotations

import pytest

from pegboard.engine.cards import Card, Rank
from pegboard.engine.commands import Crib, Show
from pegboard.ui.hands import (
    MAX_HAND,
    Question,
    answer,
    count_by_points,
    is_whole,
    points_of,
    question_for,
    question_hint,
)
from pegboard.ui.hints import HINT_WIDTH
from pegboard.ui.keypad import rank_of_key


def _ranks(keys: str) -> list[Rank]:
    from pegboard.ui.keypad import Layout

    ranks = [rank_of_key(key, Layout.FOUR_BY_FOUR) for key in keys.split()]
    assert all(rank is not None for rank in ranks)
    return [rank for rank in ranks if rank is not None]


@pytest.mark.parametrize(
    ("keys", "starter", "crib", "question"),
    [
        pytest.param("4 7 8 9", "5H", False, Question.FLUSH, id="ranks-differ"),
        pytest.param("5 5 4 6", "5H", False, None, id="a-pair"),
        pytest.param("5 5 A 0", "5H", False, Question.NOBS, id="a-pair-and-a-jack"),
        pytest.param("4 6 7 A", "5H", False, Question.FLUSH_OR_NOBS, id="both"),
        pytest.param("4 6 7 A", "JH", False, Question.FLUSH, id="a-jack-turned-no-nobs"),
        pytest.param("A 5 0 0", "JH", False, None, id="jack-turned-and-a-pair"),
        pytest.param("4 7 8 9", "9H", False, Question.FLUSH, id="hand-flush-of-four"),
        pytest.param("4 7 8 9", "9H", True, None, id="crib-holds-the-starters-rank"),
        pytest.param("2 3 A B", "4H", True, Question.FLUSH_OR_NOBS, id="crib-both"),
    ],
)
def test_a_hand_is_asked_one_question_only_when_it_could_change_the_count(
    keys: str, starter: str, crib: bool, question: Question | None
) -> None:
    assert question_for(_ranks(keys), Card.parse(starter), crib=crib) is question


@pytest.mark.parametrize(
    ("question", "crib", "key", "facts"),
    [
        pytest.param(None, False, "#", (0, False), id="nothing-asked"),
        pytest.param(None, False, "1", None, id="nothing-to-answer"),
        pytest.param(Question.FLUSH, False, "1", (1, False), id="flush-of-four"),
        pytest.param(Question.FLUSH, False, "2", (2, False), id="flush-of-five"),
        pytest.param(Question.FLUSH, True, "1", (2, False), id="crib-flush-is-five"),
        pytest.param(Question.FLUSH, False, "3", None, id="no-nobs-to-answer"),
        pytest.param(Question.NOBS, False, "1", (0, True), id="nobs-1-yes"),
        pytest.param(Question.NOBS, False, "3", (0, True), id="nobs-3-as-in-both"),
        pytest.param(Question.NOBS, False, "2", None, id="no-flush-to-answer"),
        pytest.param(Question.FLUSH_OR_NOBS, False, "1", (1, False), id="four-leave-the-jack-off"),
        pytest.param(Question.FLUSH_OR_NOBS, False, "2", (2, True), id="five-hold-nobs"),
        pytest.param(Question.FLUSH_OR_NOBS, False, "3", (0, True), id="nobs-alone"),
        pytest.param(Question.FLUSH_OR_NOBS, True, "1", (2, True), id="crib-flush-and-nobs"),
        pytest.param(Question.FLUSH_OR_NOBS, False, "#", (0, False), id="neither"),
    ],
)
def test_the_hands_last_key_answers_its_question(
    question: Question | None, crib: bool, key: str, facts: tuple[int, bool] | None
) -> None:
    assert answer(question, key, crib=crib) == facts


@pytest.mark.parametrize("question", [None, *Question])
@pytest.mark.parametrize("crib", [False, True])
@pytest.mark.parametrize("size", [3, 4])
def test_every_question_fits_two_hint_lines_answers_first(
    question: Question | None, crib: bool, size: int
) -> None:
    hint = question_hint(question, crib=crib, size=size)
    lines = hint.split("\n")
    assert 1 <= len(lines) <= 2 and all(len(line) <= HINT_WIDTH for line in lines)
    assert lines[0].startswith(("flush?", "nobs?", "# "))


def test_a_five_card_hand_is_a_flush_of_three_or_four() -> None:
    assert question_hint(Question.FLUSH, crib=False, size=3).startswith("flush? # no 1=3 2=4")


def test_ranks_typed_as_digits_read_back_as_points() -> None:
    assert points_of(_ranks("8")) == 8
    assert points_of(_ranks("2 0")) == 20
    assert points_of(_ranks("1 2")) == 12  # an ace is the 1 key
    assert points_of(_ranks("2 A")) is None  # a jack is no digit
    assert points_of([]) is None


@pytest.mark.parametrize("points", range(MAX_HAND + 1))
def test_a_count_is_never_whole_before_its_last_digit(points: int) -> None:
    digits = str(points)
    assert is_whole(digits) is (points not in (1, 2))  # 1 and 2 wait for # instead
    assert not any(is_whole(digits[:n]) for n in range(1, len(digits)))


def test_a_count_of_1_or_2_waits_for_a_second_digit() -> None:
    assert not is_whole("1") and not is_whole("2") and not is_whole("")


def test_points_tell_a_hand_or_the_crib() -> None:
    assert count_by_points(8, crib=False) == Show(points=8)
    assert count_by_points(0, crib=True) == Crib(points=0)
