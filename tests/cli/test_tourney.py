"""``pegboard tourney``: a director runs a small night from the command line; every bad input
is one line naming it, and the database stays as it was; the commands that look write
nothing."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path

import pytest

from .helpers import cli


def digest(folder: Path) -> dict[str, str]:
    """Every file in *folder* and its content's hash."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A night of 3 games with five players, round 1 seated and played."""
    path = tmp_path / "night" / "tourney.db"
    assert cli(capsys, "tourney", "new", "Club night", "--games", "3", "--db", str(path))[0] == 0
    listing = tmp_path / "players.csv"
    listing.write_text("# our players\nAnn,member\nBob\nCy\n\nDi\nEve\n", encoding="utf-8")
    status, out, err = cli(capsys, "tourney", "import", str(listing), "--db", str(path))
    assert (status, out, err) == (0, "entered 5; 5 in the draw for the next round\n", "")
    assert cli(capsys, "tourney", "boards", "pub/b1", "pub/b2", "--db", str(path))[0] == 0
    status, out, _ = cli(capsys, "tourney", "seat", "--seed", "1", "--db", str(path))
    assert status == 0 and out.startswith("round 1 of 3 (drawn):\n  table 1: ")
    return path


def round_tables(capsys: pytest.CaptureFixture[str], db: Path) -> list[tuple[int, str, str]]:
    status, out, _ = cli(capsys, "tourney", "export", "json", "--db", str(db))
    assert status == 0
    night = json.loads(out)
    return [(p["table"], p["first"], p["second"]) for p in night["rounds"][-1]["pairings"]]


def test_a_small_night_from_entry_to_bracket(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for number in (1, 2, 3):
        if number > 1:
            assert cli(capsys, "tourney", "seat", "--seed", str(number), "--db", str(db))[0] == 0
        for table, first, _ in round_tables(capsys, db):
            score = "80" if table == 1 else "100"
            status, out, err = cli(
                capsys, "tourney", "result", str(number), str(table), first, score, "--db", str(db)
            )
            assert (status, err) == (0, "")
            assert out == f"recorded: round {number} table {table}, {first} 121-{score}\n"
    status, out, _ = cli(capsys, "tourney", "standings", "--json", "--db", str(db))
    lines = json.loads(out)
    assert status == 0 and len(lines) == 5
    assert sum(x["played"] for x in lines) == 2 * 2 * 3  # two tables a round, two players each
    assert sum(x["byes"] for x in lines) == 3
    status, out, _ = cli(capsys, "tourney", "cut", "--db", str(db))
    assert out.splitlines()[0] == "field 5: 2 qualify, 0 bye(s)"
    status, out, _ = cli(capsys, "tourney", "bracket", "--db", str(db))
    top = [x["name"] for x in lines[:2]]
    if status == 0:  # settled at the cut
        assert out.startswith(f"round 1 match 1: {top[0]} v {top[1]} (best of 3)")
        status, out, _ = cli(capsys, "tourney", "advance", "1", "1", top[1], "--db", str(db))
        assert out.endswith(f"champion: {top[1]}\n")


def test_a_correction_is_recorded_with_who_when_why_and_shows(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (table, first, second), *_ = round_tables(capsys, db)
    cli(capsys, "tourney", "result", "1", str(table), first, "95", "--db", str(db))
    status, out, err = cli(
        capsys, "tourney", "correct", "1", str(table), second, "88", "--who", "Pat",
        "--why", "scores swapped", "--db", str(db),
    )  # fmt: skip
    assert (status, err) == (0, "")
    status, out, _ = cli(capsys, "tourney", "card", first, "--db", str(db))
    assert f"  {second}  " in out or f" {second} " in out
    assert "corrected by Pat at " in out and ": scores swapped" in out
    status, out, _ = cli(capsys, "tourney", "standings", "--db", str(db))
    assert "*" in out and "corrected" in out
    status, out, _ = cli(capsys, "tourney", "export", "games", "--db", str(db))
    (row,) = list(csv.DictReader(io.StringIO(out)))
    assert (row["winner"], row["loser_score"], row["game_points"]) == (second, "88", "3")
    assert (row["corrected_by"], row["corrected_why"]) == ("Pat", "scores swapped")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["enter", "Ann"], "cannot enter Ann: already entered", id="twice"),
        pytest.param(
            ["enter", "Al B"], "cannot enter 'Al B': a player's name is one word", id="sp"
        ),
        pytest.param(["enter", "Fay", "Fay"], "cannot enter 'Fay': named twice", id="dup"),
        pytest.param(
            ["drop", "Zed"], "cannot drop Zed: not a player still in the night", id="drop"
        ),
        pytest.param(["games", "0"], "games must be a whole number from 1 (the rounds", id="0"),
        pytest.param(
            ["games", "31"],
            "games must be a whole number from 1 (the rounds seated) to 30, got 31",
            id="31",
        ),
        pytest.param(["boards", "b1"], "a board is named venue/board", id="board"),
        pytest.param(["boards", "a/b", "a/b"], "a board can play one table only", id="boards"),
        pytest.param(
            ["seat"], "cannot seat round 2: round 1 is still playing at table(s) 1, 2", id="seat"
        ),
        pytest.param(
            ["result", "1", "9", "Ann", "90"],
            "result for a pairing that does not exist: round 1 table 9",
            id="table",
        ),
        pytest.param(
            ["result", "4", "1", "Ann", "90"],
            "result for a pairing that does not exist: round 4 table 1",
            id="round",
        ),
        pytest.param(
            ["result", "1", "1", "Zed", "90"], "'Zed' is not at round 1 table 1", id="name"
        ),
        pytest.param(["card", "Zed"], "no player 'Zed' in the night", id="card"),
        pytest.param(["show", "--round", "5"], "no round 5: rounds 1 to 1 are seated", id="show"),
        pytest.param(["advance", "1", "1", "Ann"], "no playoff bracket yet", id="advance"),
        pytest.param(["move", "1", "1", "pub/b2"], "no playoff bracket yet", id="move"),
        pytest.param(
            ["bracket", "--order", "Ann,Zed"],
            "--order must name the 1 qualifier(s), each once, got 'Ann,Zed' (Zed not in it)",
            id="order",
        ),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(
    db: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    before = digest(db.parent)
    status, out, err = cli(capsys, "tourney", *argv, "--db", str(db))
    assert (status, out) == (1, "")
    assert err.startswith(f"pegboard: error: {message}") and err.count("\n") == 1, err
    assert digest(db.parent) == before


def test_bad_scores_are_one_line(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (table, first, _), *_ = round_tables(capsys, db)
    for score, message in (("121", "the loser's score must be 0 to 120, got 121"),
                           ("-1", "the loser's score must be 0 to 120, got -1")):  # fmt: skip
        status, _, err = cli(capsys, "tourney", "result", "1", str(table), first, score,
                             "--db", str(db))  # fmt: skip
        assert (status, err) == (1, f"pegboard: error: result: {message}\n")
    cli(capsys, "tourney", "result", "1", str(table), first, "90", "--db", str(db))
    status, _, err = cli(capsys, "tourney", "result", "1", str(table), first, "90", "--db", str(db))
    assert status == 1 and err.startswith(
        f"pegboard: error: duplicate result for round 1 table {table}"
    )
    status, _, err = cli(capsys, "tourney", "correct", "1", str(table), first, "90", "--who", " ",
                         "--why", "x", "--db", str(db))  # fmt: skip
    assert status == 1 and err.startswith("pegboard: error: a correction needs who made it (e.")


@pytest.mark.parametrize(
    "argv",
    [
        ["show"],
        ["standings"],
        ["standings", "--json"],
        ["card", "Ann"],
        ["cut"],
        ["pots"],
        ["refused"],
        ["export", "json"],
        ["export", "standings"],
        ["export", "pots"],
    ],
    ids=lambda a: "-".join(a),
)
def test_a_command_that_looks_writes_nothing(
    db: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    before = digest(db.parent)
    assert cli(capsys, "tourney", *argv, "--db", str(db))[0] == 0
    assert digest(db.parent) == before


def test_no_night_and_not_a_night_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = cli(capsys, "tourney", "standings", "--db", str(tmp_path / "none.db"))
    assert status == 1 and err.startswith("pegboard: error: no tournament night at ")
    assert not (tmp_path / "none.db").exists()
    other = tmp_path / "other.db"
    other.write_bytes(b"")
    status, _, err = cli(capsys, "tourney", "show", "--db", str(other))
    assert status == 1 and "is not a tournament night's database" in err
    status, _, err = cli(capsys, "tourney", "new", "x", "--games", "3", "--db", str(other))
    assert status == 1 and "exists already" in err
    status, _, err = cli(
        capsys, "tourney", "new", "x", "--games", "40", "--db", str(tmp_path / "n")
    )
    assert (status, err) == (
        1,
        "pegboard: error: games must be a whole number from 1 to 30, got 40\n",
    )
    assert not (tmp_path / "n").exists()


def test_print_writes_the_pdf_and_nothing_else(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (table, first, _), *_ = round_tables(capsys, db)
    cli(capsys, "tourney", "result", "1", str(table), first, "95", "--db", str(db))
    before = digest(db.parent)
    out_pdf = tmp_path / "night.pdf"
    status, out, err = cli(capsys, "tourney", "print", "--out", str(out_pdf), "--db", str(db))
    assert (status, err) == (0, "")
    # the standings and the games, then the cards of the three with a line (two players, a bye)
    assert out == f"{out_pdf}: 5 page(s)\n"
    assert out_pdf.read_bytes().startswith(b"%PDF")
    assert digest(db.parent) == before
    status, out, _ = cli(
        capsys, "tourney", "print", "--out", str(out_pdf), "--player", first, "--lang", "de",
        "--db", str(db),
    )  # fmt: skip
    assert (status, out) == (0, f"{out_pdf}: 1 page(s)\n")
    status, _, err = cli(
        capsys, "tourney", "print", "--out", str(out_pdf), "--player", "Zed", "--db", str(db)
    )
    assert (status, err) == (1, "pegboard: error: no player 'Zed' in the night\n")


def test_a_skunk_entered_from_paper_is_listed_without_an_empty_time(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A paper result has no board's time: its pots line leaves the time out (it printed
    "table 1, : ...")."""
    (table, first, second), *_ = round_tables(capsys, db)
    assert cli(capsys, "tourney", "result", "1", str(table), first, "80", "--db", str(db))[0] == 0
    status, out, err = cli(capsys, "tourney", "pots", "--db", str(db))
    assert (status, err) == (0, "")
    assert out.splitlines()[:2] == [
        "skunk: 1",
        f"  {first}, round 1 table {table}: {first} 121, {second} 80",
    ]


def test_the_movement_says_when_it_cannot_seat_a_round(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--movement falls back to a draw when the field changed (or a round was drawn since
    the first); the director is told so instead of reading "(drawn)" alone."""
    for table, first, _ in round_tables(capsys, db):
        result = ["tourney", "result", "1", str(table), first, "90", "--db", str(db)]
        assert cli(capsys, *result)[0] == 0
    assert cli(capsys, "tourney", "enter", "Zoe", "--db", str(db))[0] == 0
    status, out, err = cli(capsys, "tourney", "seat", "--movement", "--db", str(db))
    assert (status, err) == (0, "")
    assert out.startswith("round 2 of 3 (drawn):\n")
    assert out.endswith(
        "the movement cannot seat round 2 (it follows round 1's seats: the same players, every "
        "round since by the movement, until nobody has a new opponent): drawn instead\n"
    )


def test_the_standings_csv_is_the_standings(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every CSV row is the standings line of its place, figure for figure."""
    for number, score in ((1, "80"), (2, "100")):
        if number > 1:
            assert cli(capsys, "tourney", "seat", "--seed", "2", "--db", str(db))[0] == 0
        for table, first, _ in round_tables(capsys, db):
            result = ["tourney", "result", str(number), str(table), first, score, "--db", str(db)]
            assert cli(capsys, *result)[0] == 0
    status, out, _ = cli(capsys, "tourney", "standings", "--json", "--db", str(db))
    lines = json.loads(out)
    assert status == 0 and len(lines) == 5
    status, out, _ = cli(capsys, "tourney", "export", "standings", "--db", str(db))
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and len(rows) == 5
    assert any(line["spread"] != 0 for line in lines)
    for row, line in zip(rows, lines, strict=True):
        assert row == {key: str(line[key]) for key in row}


def test_the_playoff_is_drawn_onto_the_boards_once_then_shown_read_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Five players, one round on paper, the two winners qualify: the bracket is one match, on
    the night's first board unless --boards says otherwise; once drawn, ``bracket`` only shows
    it and a second draw is refused in one line; ``move`` puts the match on another board."""
    db = tmp_path / "tourney.db"
    for argv in (["new", "Club", "--games", "1"], ["enter", "Ann", "Bob", "Cy", "Di", "Eve"],
                 ["boards", "pub/b1", "pub/b2"], ["seat", "--seed", "1"]):  # fmt: skip
        assert cli(capsys, "tourney", *argv, "--db", str(db))[0] == 0
    winners = [first for _, first, _ in round_tables(capsys, db)]
    for table, first in enumerate(winners, start=1):
        assert (
            cli(capsys, "tourney", "result", "1", str(table), first, "90", "--db", str(db))[0] == 0
        )
    order = ["--order", ",".join(winners)]
    status, _, err = cli(
        capsys, "tourney", "bracket", *order, "--boards", "pub/b9", "--db", str(db)
    )
    assert status == 1 and err.startswith(
        "pegboard: error: the playoff's boards must be the night's, each once (pub/b1, pub/b2)"
    )
    status, out, _ = cli(capsys, "tourney", "bracket", *order, "--db", str(db))
    high, low = winners
    assert (status, out) == (0, f"round 1 match 1: {high} v {low} (best of 3) on pub/b1\n")
    before = digest(tmp_path)
    assert cli(capsys, "tourney", "bracket", "--db", str(db))[1] == out  # shown, nothing written
    status, _, err = cli(capsys, "tourney", "bracket", "--best-of", "5", "--db", str(db))
    assert status == 1 and err.startswith("pegboard: error: the playoff bracket is drawn already")
    assert digest(tmp_path) == before
    status, out, _ = cli(capsys, "tourney", "move", "1", "1", "pub/b2", "--db", str(db))
    assert (status, out) == (0, f"round 1 match 1: {high} v {low} (best of 3) on pub/b2\n")
    status, _, err = cli(capsys, "tourney", "advance", "1", "1", high, "--db", str(db))
    assert status == 0 and err == ""
    status, _, err = cli(capsys, "tourney", "advance", "1", "1", low, "--db", str(db))
    assert status == 1 and err == (
        f"pegboard: error: playoff round 1 match 1 was won by {high} already (change it with "
        "--who and --why: a recorded correction)\n"
    )
    status, out, _ = cli(capsys, "tourney", "advance", "1", "1", low, "--who", "Pat",
                         "--why", "wrong name typed", "--db", str(db))  # fmt: skip
    lines = out.splitlines()
    assert (
        status == 0
        and lines[0].endswith(f"on pub/b2  -> {low}")
        and lines[2] == (f"champion: {low}")
    )
    assert lines[1].startswith(f"  corrected to {low} by Pat at ") and lines[1].endswith(
        ": wrong name typed"
    )
    status, out, _ = cli(capsys, "tourney", "export", "json", "--db", str(db))
    (match,) = json.loads(out)["bracket"]
    assert (match["winner"], match["board"], match["games"]) == (low, "pub/b2", [])
    assert [(c["winner"], c["who"]) for c in match["corrections"]] == [(low, "Pat")]
