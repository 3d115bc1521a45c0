"""``pegboard odds``: chances from a score, the whole table, and one-line errors."""

from __future__ import annotations

import json

import pytest

from pegboard.engine import odds
from tests.cli.helpers import cli


def test_the_chances_at_a_score_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "odds", "--json", "0", "0")
    assert status == 0
    answer = json.loads(out)
    assert list(answer) == ["variant", "dealer", "pone", "dealer_wins", "pone_wins"]
    assert (answer["variant"], answer["dealer"], answer["pone"]) == ("six-card", 0, 0)
    assert answer["dealer_wins"] == odds.start_of_deal("six-card", 0, 0)
    assert answer["dealer_wins"] + answer["pone_wins"] == 1.0
    assert 0.55 <= answer["dealer_wins"] <= 0.565


def test_the_chances_at_a_score_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "odds", "--variant", "five-card", "50", "55")
    value = odds.start_of_deal("five-card", 50, 55)
    assert status == 0
    assert out == (
        f"five-card: dealer 50 (to deal), pone 55: dealer wins {value:.1%}, "
        f"pone wins {1 - value:.1%}\n"
    )


def test_the_whole_table_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "odds", "--table", "--json")
    assert status == 0
    answer = json.loads(out)
    assert (answer["variant"], answer["target"]) == ("six-card", 121)
    rows = answer["dealer_wins"]
    assert len(rows) == 121 and all(len(row) == 121 for row in rows)
    assert rows[100][90] == round(odds.start_of_deal("six-card", 100, 90), 5)


def test_two_against_one_names_the_dealer_seat(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(
        capsys, "odds", "--variant", "two-against-one", "--dealer-seat", "2", "--json", "60", "0"
    )
    answer = json.loads(out)
    assert status == 0 and answer["dealer_seat"] == 2
    assert answer["dealer_wins"] == odds.start_of_deal("two-against-one", 60, 0, position=2)
    status, out, _ = cli(capsys, "odds", "--variant", "two-against-one", "0", "60")
    assert status == 0 and out.startswith("two-against-one: the pair (seat 0) 0 (to deal)")


def test_the_table_as_text_shows_every_tenth_hole(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "odds", "--table", "--variant", "five-card")
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("five-card: the dealer's chance (%)")
    assert lines[1].split() == ["0", "10", "20", "30", "40", "50", "60"]
    assert len(lines) == 2 + 7


@pytest.mark.parametrize(("seat", "solo_deals"), [(0, False), (1, False), (2, True)])
def test_the_two_against_one_table_says_who_deals_and_has_no_impossible_position(
    capsys: pytest.CaptureFixture[str], seat: int, solo_deals: bool
) -> None:
    """The solo starts on 60: a position with the solo below it is '-' (null in JSON)."""
    argv = ["odds", "--table", "--variant", "two-against-one", "--dealer-seat", str(seat)]
    status, out, _ = cli(capsys, *argv, "--json")
    rows = json.loads(out)["dealer_wins"]
    for d in (0, 59, 60, 120):
        for p in (0, 59, 60, 120):
            impossible = (d if solo_deals else p) < 60
            assert (rows[d][p] is None) is impossible, (d, p)
    assert rows[60][60] == round(odds.start_of_deal("two-against-one", 60, 60, position=seat), 5)
    status, out, _ = cli(capsys, *argv)
    lines = out.splitlines()
    dealing = "the solo" if solo_deals else f"the pair (seat {seat})"
    assert status == 0 and lines[0].startswith(f"two-against-one, {dealing} to deal:")
    row0 = lines[2].split()  # the dealer on 0
    assert row0[0] == "0" and (row0[1:] == ["-"] * 13) is solo_deals
    row60 = lines[
        8
    ].split()  # the dealer on 60: the pone below 60 is the solo only when a pair deals
    assert row60[0] == "60" and (row60[1:7] == ["-"] * 6) is not solo_deals and row60[7] != "-"


def test_a_score_of_thousands_of_digits_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cli(capsys, "odds", "9" * 4400, "0")
    assert (status, out, err.count("\n")) == (1, "", 1)
    assert err.startswith("pegboard: error: dealer score '999") and len(err) < 160
    assert err.endswith("is out of range (expected 0 to 120)\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(
            ["0", "121"],
            "pone score 121 is out of range (expected 0 to 120: 121 has been reached)",
            id="past-the-target",
        ),
        pytest.param(
            ["--variant", "five-card", "61", "0"],
            "dealer score 61 is out of range (expected 0 to 60: 61 has been reached)",
            id="five-card",
        ),
        pytest.param(
            ["-1", "0"],
            "dealer score -1 is out of range (expected 0 to 120: a score is never below 0)",
            id="negative",
        ),
        pytest.param(
            ["x", "3"],
            "dealer score 'x' is not a number (expected a whole number of points)",
            id="not-a-number",
        ),
        pytest.param(
            ["1_0", "0"],
            "dealer score '1_0' is not a number (expected a whole number of points)",
            id="underscore",
        ),
        pytest.param(
            ["0", "\u0663"],
            "pone score '\u0663' is not a number (expected a whole number of points)",
            id="arabic-indic-digit",
        ),
        pytest.param(
            ["--variant", "two-against-one", "0", "0"],
            "pone score 0 is the solo's, below 60 (expected 60 or more: in two-against-one the "
            "solo starts on 60)",
            id="solo-below-60",
        ),
        pytest.param(
            ["--variant", "two-against-one", "--dealer-seat", "2", "59", "0"],
            "dealer score 59 is the solo's, below 60 (expected 60 or more: in two-against-one "
            "the solo starts on 60)",
            id="solo-dealing-below-60",
        ),
        pytest.param(
            ["7"], "expected two scores, DEALER_SCORE PONE_SCORE, got 1: '7'", id="one-score"
        ),
        pytest.param(
            ["--variant", "three-handed", "0", "0"],
            "win probability is not computed for 'three-handed' (three separate players need "
            "a programme over three scores; expected one of six-card, five-card, "
            "two-in-the-crib, four-handed, two-against-one)",
            id="three-handed",
        ),
        pytest.param(
            ["--dealer-seat", "1", "0", "0"],
            "--dealer-seat 1 is for two-against-one only (got 'six-card')",
            id="seat",
        ),
        pytest.param(["--table", "1", "2"], "--table takes no scores, got '1 2'", id="table"),
    ],
)
def test_bad_input_gives_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = cli(capsys, "odds", *argv)
    assert (status, out, err) == (1, "", f"pegboard: error: {message}\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(
            ["121", "0"],
            "Punktzahl von Geber 121 liegt außerhalb (erwartet: 0 bis 120; mit 121 ist das Ziel "
            "erreicht)",
            id="out-of-range",
        ),
        pytest.param(
            ["0", "x"],
            "Punktzahl von Vorhand 'x' ist keine Zahl (erwartet: ganze Punkte)",
            id="not-a-number",
        ),
        pytest.param(
            ["7"],
            "zwei Punktzahlen erwartet, DEALER_SCORE PONE_SCORE, erhalten 1: '7'",
            id="one-score",
        ),
        pytest.param(
            ["--variant", "three-handed", "0", "0"],
            "Gewinnchancen sind für 'three-handed' nicht berechnet (drei einzelne Spieler "
            "bräuchten eine Rechnung über drei Punktstände; erwartet: eine von six-card, "
            "five-card, two-in-the-crib, four-handed, two-against-one)",
            id="three-handed",
        ),
        pytest.param(
            ["--dealer-seat", "1", "0", "0"],
            "--dealer-seat 1 gilt nur für two-against-one (zwei gegen einen), nicht für 'six-card'",
            id="seat",
        ),
        pytest.param(
            ["--table", "1", "2"], "--table nimmt keine Punktzahlen, erhalten: '1 2'", id="table"
        ),
        pytest.param(
            ["-1", "0"],
            "Punktzahl von Geber -1 liegt außerhalb (erwartet: 0 bis 120; eine Punktzahl ist nie "
            "unter 0)",
            id="negative",
        ),
        pytest.param(
            ["--variant", "two-against-one", "--dealer-seat", "2", "10", "0"],
            "Punktzahl von Geber 10 ist die des Einzelnen, unter 60 (erwartet: 60 oder mehr; "
            "bei zwei gegen einen beginnt der Einzelne bei 60)",
            id="solo-below-60",
        ),
    ],
)
def test_bad_input_is_said_in_german(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = cli(capsys, "--lang", "de", "odds", *argv)
    assert (status, out, err) == (1, "", f"pegboard: Fehler: {message}\n")
