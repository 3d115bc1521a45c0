"""The qualifier cut (a quarter of the field, rounded up) and the seeded bracket with byes to
the top qualifiers, so the second round is full."""

from __future__ import annotations

import pytest

from pegboard.tourney.bracket import Bracket, bracket_order, byes_for, cut, cut_size
from pegboard.tourney.night import TourneyError
from pegboard.tourney.standings import Line


def field(size: int, level: tuple[int, ...] = ()) -> list[Line]:
    """*size* standings lines P1..Pn, best first; the places in *level* share one place with
    the next line (a playoff)."""
    lines = []
    for i in range(size):
        place = i if i in level else i + 1
        shared = i in level or i + 1 in level
        lines.append(Line(place, f"P{i + 1}", 9, 5, 10, 0, 0, 0, 0, "", shared))
    return lines


@pytest.mark.parametrize(
    ("entrants", "qualifiers", "byes"),
    [
        pytest.param(8, 2, 0, id="8"),
        pytest.param(27, 7, 1, id="27"),
        pytest.param(108, 27, 5, id="108"),
        pytest.param(121, 31, 1, id="121"),
        pytest.param(132, 33, 31, id="132"),
    ],
)
def test_the_cut_and_the_byes(entrants: int, qualifiers: int, byes: int) -> None:
    assert cut_size(entrants) == qualifiers
    assert byes_for(qualifiers) == byes
    the_cut = cut(field(entrants))
    assert the_cut.qualifiers == tuple(f"P{i}" for i in range(1, qualifiers + 1))
    assert the_cut.playoff == ()
    bracket = Bracket.seeded(the_cut.qualifiers)
    first = [m for m in bracket.matches if m.round == 1]
    with_bye = sorted(int(str(m.high or m.low)[1:]) for m in first if m.is_bye)
    assert with_bye == list(range(1, byes + 1))  # the byes go to the top qualifiers
    played = [m for m in first if not m.is_bye]
    assert len(played) * 2 + byes == qualifiers
    second = [m for m in bracket.matches if m.round == 2]
    if qualifiers > 2:
        # a full second round: its seats are the byes and the first round's winners
        assert 2 * len(second) == byes + len(played)
        assert (
            sum(m.high is not None for m in second) + sum(m.low is not None for m in second) == byes
        )


def test_121_to_124_entrants_give_31_qualifiers() -> None:
    assert [cut_size(n) for n in range(120, 126)] == [30, 31, 31, 31, 31, 32]


def test_seeds_meet_in_the_usual_order() -> None:
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_a_bracket_is_played_to_a_champion_and_the_top_seeds_meet_only_in_the_final() -> None:
    bracket = Bracket.seeded([f"P{i}" for i in range(1, 28)], best_of=5)
    while bracket.champion is None:
        match = next(m for m in bracket.matches if m.winner is None and m.high and m.low)
        assert match.best_of == 5
        bracket = bracket.advance(match.round, match.slot, str(match.high))  # the seed wins
    assert bracket.champion == "P1"
    final = bracket.matches[-1]
    assert (final.round, final.high, final.low) == (5, "P1", "P2")


def test_a_tie_at_the_cut_line_needs_a_playoff() -> None:
    # 27 entrants: 7 qualify; the 7th and 8th are level after the whole chain
    the_cut = cut(field(27, level=(7,)))
    assert the_cut.playoff == ("P7", "P8")
    assert cut(field(27, level=(8,))).playoff == ()


def test_bad_reports_and_brackets_are_refused_in_one_line() -> None:
    bracket = Bracket.seeded(["Ann", "Bob", "Cy"])
    with pytest.raises(TourneyError, match=r"^Zed is not playing round 1 match 2 \(Bob v Cy\)$"):
        bracket.advance(1, 1, "Zed")
    with pytest.raises(TourneyError, match=r"^playoff round 2 match 1 is not seated yet$"):
        bracket.advance(2, 0, "Ann")
    with pytest.raises(TourneyError, match=r"^playoff round 1 match 1 was won by Ann already$"):
        bracket.advance(1, 0, "Ann")
    with pytest.raises(TourneyError, match=r"best of 3 or 5, got 4"):
        Bracket.seeded(["Ann", "Bob"], best_of=4)
    with pytest.raises(TourneyError, match=r"distinct qualifiers"):
        Bracket.seeded(["Ann", "Ann"])
    assert Bracket.seeded(["Ann"]).champion == "Ann"
