"""``pegboard history`` and ``pegboard stats players``: read only, filters, text, JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.cli.main import main
from tests.cli.helpers import cli
from tests.journal.games import cli as ok
from tests.journal.games import scripted_journal


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local time is UTC, so the dates printed are the journal's own."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Two matches: the scripted single game (Ann v Bob), then a four-handed one in game 2."""
    path = scripted_journal(tmp_path / "g.db")
    ok("game", "new", "--variant", "four-handed", "--players", "Ann+Cat,Bob+Dan", "--db",
       str(path))  # fmt: skip
    ok(
        "game",
        "do",
        "--db",
        str(path),
        "cut 5H 3C",
        "next",
        "peg Bob+Dan 61",
        "peg Bob+Dan 60",
        "next",
    )
    return path


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def test_history_lists_matches_and_games_newest_first(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = cli(capsys, "history", "--db", str(db))
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("match 2  ")
    assert (
        "four-handed  best-of-three  Ann+Cat v Bob+Dan: in progress, games 0-1, game points 0-3"
        in lines[0]
    )
    assert lines[1].startswith("  game 2  in progress") and "Ann+Cat 0  Bob+Dan 0" in lines[1]
    assert "Bob+Dan won for 3 (Ann+Cat double-skunked)" in lines[2]
    assert "single  Ann v Bob: Ann won the match, games 1-0, game points 3-0" in lines[3]
    assert lines[4].endswith("Ann 121  Bob 30  Ann won for 3 (Bob double-skunked)")


def test_history_json_and_csv(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "history", "--db", str(db), "--json")
    matches = json.loads(out)
    assert [m["match"] for m in matches] == [2, 1]
    game = matches[1]["games"][0]
    assert game["scores"] == [121, 30] and game["winner"] == "Ann" and game["game_points"] == 3
    assert game["lurches"] == {"Bob": "double-skunked"} and game["deals"] == 3
    assert matches[1]["winner"] == "Ann" and matches[0]["in_progress"] == {
        "game": 2,
        "scores": [0, 0],
    }
    _, out, _ = cli(capsys, "history", "--db", str(db), "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["match"], r["game"], r["winner"], r["scores"], r["status"]) for r in rows] == [
        ("2", "2", "", "0 0", "in progress"),
        ("2", "1", "Bob+Dan", "0 121", "finished"),
        ("1", "1", "Ann", "121 30", "finished"),
    ]


def test_history_csv_has_the_games_the_text_shows(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game in progress is a row too, with its current scores and no finish yet; --since
    (finished games by day) leaves it out, as the text does."""
    _, text, _ = cli(capsys, "history", "--db", str(db))
    _, out, _ = cli(capsys, "history", "--db", str(db), "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    shown = [line.split()[1] for line in text.splitlines() if line.startswith("  game ")]
    assert [r["game"] for r in rows] == shown == ["2", "1", "1"]
    running = rows[0]
    assert running["finished"] == running["lurches"] == running["game_points"] == ""
    assert (running["sides"], running["match_games_won"]) == ("Ann+Cat Bob+Dan", "0 1")
    today = time.strftime("%Y-%m-%d")
    _, out, _ = cli(capsys, "history", "--db", str(db), "--csv", "--since", today)
    assert [r["status"] for r in csv.DictReader(io.StringIO(out))] == ["finished", "finished"]


@pytest.mark.parametrize(
    ("player", "matches"),
    [
        pytest.param("ann", [2, 1], id="a-side-and-a-partnership-member"),
        pytest.param("Dan", [2], id="a-partnership-member"),
        pytest.param("bob+dan", [2], id="a-partnership"),
        pytest.param("Zed", [], id="nobody"),
    ],
)
def test_history_player_filter(
    db: Path, player: str, matches: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = cli(capsys, "history", "--db", str(db), "--json", "--player", player)
    assert [m["match"] for m in json.loads(out)] == matches


def test_history_since(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    today = time.strftime("%Y-%m-%d")
    _, out, _ = cli(capsys, "history", "--db", str(db), "--json", "--since", today)
    assert len(json.loads(out)) == 2
    _, out, _ = cli(capsys, "history", "--db", str(db), "--since", "2999-01-01")
    assert out == "no games in the journal since 2999-01-01\n"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        pytest.param(["--player", "Zed"], "no games of 'Zed' in the journal", id="player"),
        pytest.param(
            ["--player", "Zed", "--since", "2026-01-01"],
            "no games of 'Zed' in the journal since 2026-01-01",
            id="player-since",
        ),
        pytest.param(
            ["--lang", "de", "--player", "Zed", "--since", "2026-01-01"],
            "keine Spiele von 'Zed' im Journal seit 2026-01-01",
            id="german",
        ),
    ],
)
def test_history_with_no_games_names_the_filter(
    db: Path, argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(capsys, "history", "--db", str(db), *argv)[:2] == (0, f"{said}\n")


@pytest.mark.parametrize("since", ["2025-13-01", "yesterday", "2025-3-1", "20250301"])
def test_a_bad_since_is_one_line_naming_it(
    db: Path, since: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = cli(capsys, "history", "--db", str(db), "--since", since)
    assert status == 1 and out == ""
    assert err == (
        f"pegboard: error: --since {since!r} is not a date (expected YYYY-MM-DD, e.g. 2025-03-02)\n"
    )


def test_stats_players_text(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "stats", "players", "--db", str(db))
    assert status == 0
    assert "Ann: games 1 of 2 won, matches 1 of 1 won, game points 3\n" in out
    assert "  as dealer      1    9.00  1.00 (1 of 1)   6.00 (1 of 1)   2.00 (1 of 1)\n" in out
    assert "  as pone        2   56.00  3.00 (1 of 2)   5.00 (1 of 2)\n" in out
    assert "  pegged by hand: pegging: catch up 104\n" in out
    assert "Bob+Dan (partnership of Bob, Dan): games 1 of 1 won" in out
    assert "counted on the device" in out.splitlines()[0]
    assert "  Ann v Bob: games 1-0 of 1, matches 1-0 of 1, game points 3-0\n" in out


def test_stats_players_json_csv_and_variant(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "stats", "players", "--db", str(db), "--json")
    data = json.loads(out)
    bob = next(p for p in data["players"] if p["name"] == "Bob")
    assert bob["dealer"] == {
        "deals": 2,
        "points": 14,
        "average": 7.0,
        "pegging": {"deals": 1, "points": 4, "average": 4.0},
        "hand": {"deals": 1, "points": 0, "average": 0.0},
        "crib": {"deals": 1, "points": 10, "average": 10.0},
    }
    assert bob["best_hands"][0]["cards"] == "2H 3H 4H 5H" and bob["double_skunks_taken"] == 1
    _, out, _ = cli(capsys, "stats", "players", "--db", str(db), "--csv")
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(out))}
    assert rows["Ann"]["pone_points"] == "112" and rows["Dan"]["games_won"] == "1"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        pytest.param("en", "no finished five-card games in the journal", id="en"),
        pytest.param("de", "keine beendeten Spiele mit fünf Karten im Journal", id="de"),
    ],
)
def test_stats_players_with_no_games_of_the_variant_names_it(
    db: Path, lang: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ("stats", "players", "--db", str(db), "--variant", "five-card", "--lang", lang)
    assert cli(capsys, *argv) == (0, f"{said}\n", "")


@pytest.mark.parametrize(
    "argv",
    [
        ["history"],
        ["history", "--json"],
        ["history", "--csv", "--player", "Ann"],
        ["stats", "players"],
        ["stats", "players", "--json"],
    ],
    ids=" ".join,
)
def test_the_commands_only_read(db: Path, argv: list[str]) -> None:
    """Bytes unchanged, nothing created or renamed: no -wal or -shm appears."""
    before = _files(db.parent)
    stamp = os.stat(db).st_mtime_ns
    assert main([*argv, "--db", str(db)]) == 0
    assert _files(db.parent) == before and os.stat(db).st_mtime_ns == stamp


@pytest.mark.parametrize("argv", [["history"], ["stats", "players"]], ids=" ".join)
def test_a_missing_or_foreign_journal_is_the_same_one_line_as_game_show(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.db"
    text = tmp_path / "notes.txt"
    text.write_text("not a journal\n")
    for path in (missing, text):
        _, _, shown = cli(capsys, "game", "show", "--db", str(path))
        status, out, err = cli(capsys, *argv, "--db", str(path))
        assert (status, out, err) == (1, "", shown)
        assert err.count("\n") == 1
    assert not missing.exists() and text.read_text() == "not a journal\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_player_that_is_not_utf8_is_one_line(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An undecodable byte (U+DCFF from the command line) is refused as other commands do."""
    status, out, err = cli(capsys, "history", "--db", str(db), "--player", "\udcff")
    assert (status, out) == (1, "")
    assert err == (
        "pegboard: error: --player is not valid UTF-8: '\\udcff' (byte 0xFF at character 1 "
        "cannot be decoded; expected UTF-8 text)\n"
    )


def test_stats_players_text_in_german_writes_a_decimal_comma(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = cli(capsys, "stats", "players", "--db", str(db), "--lang", "de")
    assert status == 0
    assert "  Geber          1    9,00  1,00 (1 von 1)  6,00 (1 von 1)  2,00 (1 von 1)\n" in out
    assert "  Vorhand        2   56,00  3,00 (1 von 2)  5,00 (1 von 2)\n" in out
    assert "  Geber          2    7,00  4,00 (1 von 2)  0,00 (1 von 2)  10,00 (1 von 2)\n" in out


def long_game(db: Path) -> Path:
    """A single game of 41 deals, each with the hands and the crib counted on the device."""
    from pegboard.engine.commands import parse_command
    from pegboard.engine.game import Phase
    from pegboard.engine.match import MatchFormat
    from pegboard.engine.rules import Rules
    from pegboard.journal import Journal

    deal = ["starter KS", "next", "show AC 2D 4H 6S", "show 3C 5D 7H 9C", "crib 8D 10H QC AH"]
    with Journal(db) as store:
        state = store.new_match(Rules.six_card(), ["Ann", "Bob"], MatchFormat.SINGLE)
        state, _ = store.do(parse_command("cut 9H 3C", state.names))
        while state.phase is not Phase.MATCH_OVER:
            for text in deal:
                if state.phase is not Phase.MATCH_OVER:
                    state, _ = store.do(parse_command(text, state.names))
    return db


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        pytest.param(
            "en",
            [
                "  a deal     deals     all  pegging         hand             crib",
                "  as dealer     20    4.00                  4.00 (20 of 20)  0.00 (20 of 20)",
                "  as pone       21    2.00                  2.00 (21 of 21)",
            ],
            id="en",
        ),
        pytest.param(
            "de",
            [
                "  je Runde  Runden   alles  Auslegen        Hand              Krippe",
                "  Geber         20    4,00                  4,00 (20 von 20)  0,00 (20 von 20)",
                "  Vorhand       21    2,00                  2,00 (21 von 21)",
            ],
            id="de",
        ),
    ],
)
def test_stats_players_columns_stay_apart_from_ten_deals_on(
    lang: str, lines: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = long_game(tmp_path / "long.db")
    status, out, _ = cli(capsys, "stats", "players", "--db", str(db), "--lang", lang)
    assert status == 0
    ann = out.split("\nBob:")[0].splitlines()
    start = ann.index(lines[0])
    assert ann[start : start + 3] == lines
    for line in ann[start + 1 : start + 3]:
        assert ")0" not in line and ")4" not in line  # every cell two spaces from the next
        assert "(0 " not in line  # no deal counted the pegging: an empty cell, as the pone's crib


def test_stats_players_lists_the_same_best_hand_of_a_game_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The long game shows the same 3C 5D 7H 9C with the starter KS deal after deal."""
    db = long_game(tmp_path / "long.db")
    status, out, _ = cli(capsys, "stats", "players", "--db", str(db))
    assert status == 0
    ann = out.split("\nBob:")[0].splitlines()
    assert [line for line in ann if "best" in line] == [
        "  best hand  4: 3C 5D 7H 9C starter KS, game 1:1"
    ]
    status, out, _ = cli(capsys, "stats", "players", "--db", str(db), "--json")
    [ann_json, _] = json.loads(out)["players"]
    assert len(ann_json["best_hands"]) == 5  # the record keeps each deal's; the text lists one


def test_stats_players_csv_gives_the_best_hands_cards_in_new_last_columns(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = cli(capsys, "stats", "players", "--db", str(db), "--csv")
    header, *rows = list(csv.reader(io.StringIO(out)))
    assert header[-5:] == [
        "twenty_nines",
        "twenty_eights",
        "best_hand",
        "best_hand_cards",
        "best_hand_starter",
    ]
    best = {row[0]: row[-3:] for row in rows}
    assert best["Ann"] == ["6", "8C 9C 10D JS", "6H"]
    assert best["Bob"] == ["14", "2H 3H 4H 5H", "6H"]
