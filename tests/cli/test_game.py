"""``pegboard game new | do | show`` end to end, against a journal in a temporary folder."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from pegboard.cli.main import main
from pegboard.journal import Journal
from tests.cli.helpers import cli


def test_a_deal_played_from_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "p.db")
    status, out, _ = cli(capsys, "game", "new", "--players", "Ann,Bob", "--db", db)
    assert status == 0 and "Ann v Bob, best-of-three" in out
    commands = ["cut 9C 3D", "starter 5C", "play KS", "play 6H", "play KD", "go", "play 2C"]
    status, out, _ = cli(capsys, "game", "do", "--db", db, *commands, "play 2D")
    assert status == 0
    assert "ok play 2D\n  Ann plays 2D: 30\n  Ann pegs 3 for pair, go by Ann -> 3\n" in out
    status, out, _ = cli(capsys, "game", "show", "--db", db, "--json")
    view = json.loads(out)
    assert view["phase"] == "play" and view["sides"][0]["score"] == 3
    assert view["last"]["calls"] == ["a pair for 2", "one for the go"]
    assert view["turn_name"] == "Bob" and view["count"] == 0


def test_a_bad_command_fails_with_one_line_and_keeps_the_ones_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "p.db")
    cli(capsys, "game", "new", "--db", db)
    status, out, err = cli(capsys, "game", "do", "--db", db, "cut 9C 3D", "play 5H", "go")
    assert status == 1
    assert err.count("\n") == 1
    assert err.startswith("pegboard: error: command 2 'play 5H' failed: cannot accept 'play 5H'")
    assert "the 1 before it stay applied" in err
    _, out, _ = cli(capsys, "game", "show", "--db", db)
    assert "deal 1, Gold deals" in out


def test_a_random_cut_is_journalled_as_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "p.db")
    cli(capsys, "game", "new", "--variant", "three-handed", "--db", db)
    status, out, _ = cli(capsys, "game", "do", "--db", db, "cut")
    assert status == 0
    first = out.splitlines()[0].split()
    assert first[:2] == ["ok", "cut"] and len(first) == 5


def test_show_without_a_match_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "p.db")
    status, _, err = cli(capsys, "game", "show", "--db", str(tmp_path / "none.db"))
    assert status == 1 and "no journal at" in err  # and nothing was created
    assert not (tmp_path / "none.db").exists()
    with Journal(db):  # a journal with no match yet
        pass
    status, _, err = cli(capsys, "game", "show", "--db", db)
    assert status == 1 and "no match in" in err


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(("do", "cut 9C 3D"), id="do"),
        pytest.param(("do", "undo"), id="do-undo"),
        pytest.param(("show",), id="show"),
        pytest.param(("show", "--json"), id="show-json"),
    ],
)
def test_a_game_command_on_a_missing_journal_creates_nothing(
    argv: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "d.db")
    action, *rest = argv
    status, out, err = cli(capsys, "game", action, "--db", db, *rest)
    assert status == 1 and out == ""
    assert err == (
        f"pegboard: error: no journal at {db!r}: start one with 'pegboard game new --db {db}'\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_bad_usage_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["game", "new", "--variant", "seven-card", "--db", str(tmp_path / "p.db")])
    assert exit_info.value.code == 2


def test_the_db_defaults_to_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PEGBOARD_DB", str(tmp_path / "env.db"))
    assert cli(capsys, "game", "new", "--muggins", "--match", "single")[0] == 0
    assert (tmp_path / "env.db").exists()
    status, out, _ = cli(capsys, "game", "do", "cut 3C 9H", "starter 5C", "next", "claim 4")
    assert status == 0 and "claim 4 for Gold's hand" in out


def test_the_db_defaults_to_systemds_state_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PEGBOARD_DB", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    # systemd passes one directory per StateDirectory= entry, colon-separated: the first is ours
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path / 'state'}:{tmp_path / 'other'}")
    (tmp_path / "state").mkdir()
    assert cli(capsys, "game", "new", "--match", "single")[0] == 0
    assert (tmp_path / "state" / "pegboard.db").exists()
    assert not (tmp_path / "home").exists() and not (tmp_path / "other").exists()
    status, out, _ = cli(capsys, "game", "show")
    assert status == 0 and out.startswith("six-card · game 1\n")


def test_a_random_cut_after_the_cut_is_refused_as_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "p.db")
    cli(capsys, "game", "new", "--db", db)
    cli(capsys, "game", "do", "--db", db, "cut 9C 3D")
    status, _, err = cli(capsys, "game", "do", "--db", db, "cut")
    assert status == 1
    assert err == (
        "pegboard: error: command 1 'cut' failed: cannot accept 'cut' in phase STARTER "
        "(expected deal, next, peg Sky 2, starter 5H, undo or redo)\n"
    )


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("peg A ²", id="superscript-points"),
        pytest.param(f"peg A {'9' * 5000}", id="5000-digit-points"),
        pytest.param("claim ³", id="superscript-claim"),
        pytest.param("play 5H 5D", id="two-cards-to-play"),
        pytest.param("show 5H 5H 5D 5S", id="5H-twice"),
        pytest.param("peg Z 2", id="unknown-side"),
        # argv carries an undecodable byte as a lone surrogate, which the journal cannot store
        pytest.param("peg A 2 \udcff", id="undecodable-byte-in-a-reason"),
        pytest.param("peg A 2 " + "x" * 10_000_000, id="ten-megabyte-reason"),
    ],
)
def test_garbage_fails_with_one_line_and_leaves_the_game_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    db = str(tmp_path / "p.db")
    cli(capsys, "game", "new", "--db", db)
    cli(capsys, "game", "do", "--db", db, "cut 9C 3D", "starter 5C")
    before = cli(capsys, "game", "show", "--db", db, "--json")[1]
    status, out, err = cli(capsys, "game", "do", "--db", db, command)
    assert status == 1 and out == ""
    assert err.startswith("pegboard: error: command 1 ") and err.count("\n") == 1
    assert len(err) < 400  # the command is quoted shortened, never echoed whole
    err.encode("utf-8")  # the line prints under a strict UTF-8 locale too
    assert cli(capsys, "game", "show", "--db", db, "--json")[1] == before


@pytest.mark.parametrize(
    ("players", "message"),
    [
        pytest.param(
            "\udcff,B",
            "side name is not valid UTF-8: '\\udcff' (byte 0xFF at character 1 cannot be decoded",
            id="undecodable-byte",
        ),
        pytest.param(
            "A," + "B" * 5000, "side name is too long: 'BBBBBBBB", id="five-thousand-letters"
        ),
    ],
)
def test_a_side_name_that_cannot_be_stored_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], players: str, message: str
) -> None:
    db = tmp_path / "p.db"
    status, out, err = cli(capsys, "game", "new", "--players", players, "--db", str(db))
    assert status == 1 and out == ""
    assert err.startswith(f"pegboard: error: {message}") and err.count("\n") == 1
    assert len(err) < 400


def test_a_folder_as_the_journal_is_an_error_and_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = cli(capsys, "game", "show", "--db", str(tmp_path))
    assert status == 1 and err.count("\n") == 1
    assert err.startswith(f"pegboard: error: cannot open {str(tmp_path)!r}: it is not a file")
    assert tmp_path.is_dir()


@pytest.mark.parametrize(
    ("argv", "status"),
    [
        pytest.param(("--players", "\udcff,B"), 1, id="undecodable-name"),
        pytest.param(("--players", "A," + "B" * 5000), 1, id="name-too-long"),
        pytest.param(("--players", "Ann Lee,Bob"), 1, id="two-word-name"),
        pytest.param(("--players", "A\x01,Bob"), 1, id="control-character-in-a-name"),
        pytest.param(("--players", "Ann"), 1, id="one-name-for-two-sides"),
        pytest.param(("--players", "Ann,ann"), 1, id="a-name-twice"),
        pytest.param(("--variant", "three-handed", "--match", "best-of-three"), 1, id="format"),
        pytest.param(("--variant", "seven-card"), 2, id="unknown-variant"),
        pytest.param(("--match", "best-of-nine"), 2, id="unknown-format"),
        pytest.param(("--target", "61"), 2, id="no-such-option"),
    ],
)
def test_a_refused_new_match_creates_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], status: int
) -> None:
    db = str(tmp_path / "x.db")
    if status == 2:  # bad usage: argparse exits before the command runs
        with pytest.raises(SystemExit) as exit_info:
            main(["game", "new", *argv, "--db", db])
        assert exit_info.value.code == 2
    else:
        assert cli(capsys, "game", "new", *argv, "--db", db)[0] == status
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("players", "shown"),
    [
        pytest.param("A\x01nn,Bob", "'A\\x01nn' (U+0001 at character 2", id="U+0001"),
        pytest.param("Ann,B\nob", "'B\\nob' (U+000A at character 2", id="newline"),
        pytest.param("Ann,B\tob", "'B\\tob' (U+0009 at character 2", id="tab"),
        pytest.param("Ann,Bo\u2028b", "'Bo\\u2028b' (U+2028 at character 3", id="line-separator"),
    ],
)
def test_a_side_name_with_a_control_character_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], players: str, shown: str
) -> None:
    status, out, err = cli(
        capsys, "game", "new", "--players", players, "--db", str(tmp_path / "p.db")
    )
    assert status == 1 and out == ""
    assert err.startswith(f"pegboard: error: a side name must be printable text, got {shown}")
    assert err.endswith("; expected letters, digits, marks or symbols)\n")
    assert err.count("\n") == 1


def test_a_journal_that_holds_a_control_character_in_a_name_still_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "p.db"
    assert cli(capsys, "game", "new", "--players", "Ann,Bob", "--db", str(db))[0] == 0
    with sqlite3.connect(db) as conn:  # a journal written before names were checked
        conn.execute("UPDATE matches SET names = ?", (json.dumps(["A\x01nn", "Bob"]),))
    conn.close()
    assert cli(capsys, "game", "do", "--db", str(db), "cut 9C 3D")[0] == 0
    status, out, _ = cli(capsys, "game", "show", "--db", str(db), "--json")
    assert status == 0 and json.loads(out)["names"] == ["A\x01nn", "Bob"]


@pytest.mark.parametrize(
    ("fmt", "said"),
    [
        ("best-of-three", "best-of-three: game points Ann 3, Bob 0"),
        ("first-to-two", "first-to-two: games won Ann 1, Bob 0"),
    ],
)
def test_show_names_the_match_so_far_apart_from_the_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str, said: str
) -> None:
    """The header's match standing says what it counts ("best-of-three: Ann 2 Bob 0" read
    like the game's score): game points for best of three, games won for first to two. Ann
    wins game 1 by 121 to 0, a double skunk: 3 game points."""
    db = str(tmp_path / "p.db")
    cli(capsys, "game", "new", "--players", "Ann,Bob", "--match", fmt, "--db", db)
    cli(capsys, "game", "do", "--db", db, "cut 9C 3D", "peg Ann 61", "peg Ann 60", "next")
    _, out, _ = cli(capsys, "game", "show", "--db", db)
    assert out.splitlines()[0].endswith(f" · {said}")


def test_show_says_when_the_tournament_lock_holds_and_gives_no_odds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "p.db")
    cli(capsys, "game", "new", "--players", "Ann,Bob", "--db", db)
    cli(capsys, "game", "do", "--db", db, "cut 9C 3D", "starter 5C")
    _, out, _ = cli(capsys, "game", "show", "--db", db, "--json")
    unlocked = json.loads(out)
    assert unlocked["locked"] is False and unlocked["win_probability"] is not None
    _, out, _ = cli(capsys, "game", "show", "--db", db)
    assert "tournament lock" not in out
    with Journal(db) as store:  # what a league board records when the hub's lock comes
        store.load()
        store.mark("lock", "club")
    _, out, _ = cli(capsys, "game", "show", "--db", db, "--json")
    locked = json.loads(out)
    assert locked["locked"] is True and locked["win_probability"] is None
    assert {k: v for k, v in locked.items() if k not in ("locked", "win_probability")} == {
        k: v for k, v in unlocked.items() if k not in ("locked", "win_probability")
    }
    _, out, _ = cli(capsys, "game", "show", "--db", db)
    assert re.search(r"^tournament lock on since \d\d:\d\d \(club\)$", out, re.M)
    _, out, _ = cli(capsys, "game", "show", "--db", db, "--lang", "de")
    assert re.search(r"^Turniersperre seit \d\d:\d\d \(club\)$", out, re.M)
    with Journal(db) as store:
        store.load()
        store.mark("unlock", "club")
    _, out, _ = cli(capsys, "game", "show", "--db", db)
    assert "tournament lock" not in out
