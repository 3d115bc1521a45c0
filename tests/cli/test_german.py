"""The command line in German (issue 14): every command's text with ``--lang de``, JSON and CSV
the same in every language, the one-line errors a player meets, and the German score sheet."""

from __future__ import annotations

import io
import socket
import time
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path

import pytest
from PIL import Image

from pegboard.cli.lang import _TEMPLATES, error_text
from pegboard.engine.history import replay_match
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules
from pegboard.errors import PegboardError, quote
from pegboard.i18n import Language
from pegboard.ui.sheet import layout_sheet
from pegboard.ui.sheetfiles import render_png, render_svg
from tests.cli.helpers import assert_like_golden_sheet, cli
from tests.journal.games import SCRIPT, scripted_journal

DE = Language.GERMAN
GOLDEN = Path(__file__).parents[1] / "golden" / "sheet"


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local time is UTC and the locale English: only --lang chooses German here."""
    monkeypatch.setenv("TZ", "UTC")
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return scripted_journal(tmp_path / "g.db")


# --- pegboard game ----------------------------------------------------------------------------


def test_game_new_do_and_show_speak_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "p.db")
    status, out, _ = cli(capsys, "game", "new", "--lang", "de", "--players", "Ann,Bob", "--db", db)
    assert status == 0
    assert out == (
        f"neues Match: sechs Karten, Ann gegen Bob, drei Spiele (Journal {db!r})\n"
        "abheben für die erste Runde: eine Karte je Seite (Ann, Bob), z. B. cut 9H 3C\n"
    )
    commands = ["cut 9C 3D", "starter 5C", "play KS", "play 6H", "play KD", "go", "play 2C"]
    status, out, _ = cli(capsys, "--lang", "de", "game", "do", "--db", db, *commands, "play 2D")
    assert status == 0
    assert out.splitlines()[:4] == [
        "ok cut 9C 3D",
        "  abgehoben 9C 3D: Bob gibt zuerst",
        "  Spiel 1: Bob gibt zuerst",
        "  Runde 1: Bob gibt",
    ]
    assert out.splitlines()[-8:] == [
        "ok go",
        "  Bob sagt Passe",
        "ok play 2C",
        "  Ann legt 2C: 28",
        "ok play 2D",
        "  Ann legt 2D: 30",
        "  Ann steckt 3 (Ann: 2 für Paar, einen fürs Passen) -> 3",
        "Auslegen: Bob legt, Wert 0 (play 5H, go, peg Ann 2); next beendet das Auslegen",
    ]
    status, out, _ = cli(capsys, "game", "show", "--db", db, "--lang", "de")
    assert out == (
        "sechs Karten · Spiel 1 · Runde 1, Bob gibt · drei Spiele: Spielpunkte Ann 0, Bob 0\n"
        "  Ann   3  hinten   0\n"
        "* Bob   0  hinten   0\n"
        "  Startkarte 5C · Wert 0\n"
        "  zuletzt: Ann steckte 3 (Auslegen): 2 für Paar, einen fürs Passen\n"
        "Auslegen: Bob legt, Wert 0 (play 5H, go, peg Ann 2); next beendet das Auslegen\n"
    )


def test_a_finished_game_and_its_match_in_german(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = cli(capsys, "game", "show", "--lang", "de", "--db", str(db))
    assert out == (
        "sechs Karten · Spiel 1 · Runde 3, Bob gibt\n"
        "  Ann 121  hinten  77\n"
        "* Bob  30  hinten  16 (dreifach Schneider)\n"
        "  zuletzt: Ann steckte 44 (von Hand): catch up: vierundvierzig\n"
        "Match vorbei: Ann gewinnt\n"
    )


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["game", "show", "--json"], id="game-show"),
        pytest.param(["history", "--json"], id="history-json"),
        pytest.param(["history", "--csv"], id="history-csv"),
        pytest.param(["stats", "players", "--json"], id="stats-players-json"),
        pytest.param(["stats", "players", "--csv"], id="stats-players-csv"),
    ],
)
def test_json_and_csv_are_the_same_in_german(
    db: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    _, english, _ = cli(capsys, *argv, "--db", str(db))
    _, german, _ = cli(capsys, "--lang", "de", *argv, "--db", str(db))
    assert english and german == english


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["odds", "--json", "100", "110"], id="odds"),
        pytest.param(["odds", "--json", "--table", "--variant", "five-card"], id="odds-table"),
        pytest.param(["score", "--json", "5H", "5D", "JS", "KC", "8C"], id="score"),
        pytest.param(["peg", "--json", "10H", "KH", "9H"], id="peg"),
    ],
)
def test_json_without_a_journal_is_the_same_in_german(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    _, english, _ = cli(capsys, *argv)
    _, german, _ = cli(capsys, *argv, "--lang", "de")
    assert english and german == english


# --- history, stats players, odds, demo, league --------------------------------------------------


def test_history_speaks_german(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "history", "--lang", "de", "--db", str(db))
    day = time.strftime("%Y-%m-%d")
    lines = out.splitlines()
    assert lines[0] == (
        f"Match 1  {day}  sechs Karten  ein Spiel  Ann gegen Bob: Ann gewinnt das Match, "
        "Spiele 1-0, Spielpunkte 3-0"
    )
    assert lines[1].startswith(f"  Spiel 1  {day} ")
    assert lines[1].endswith("  Ann 121  Bob 30  Ann gewinnt mit 3 (Bob dreifach Schneider)")
    _, out, _ = cli(capsys, "history", "--lang", "de", "--db", str(db), "--since", "2999-01-01")
    assert out == "keine Spiele im Journal seit 2999-01-01\n"


def test_best_of_three_is_said_in_german_in_the_history_and_on_the_sheet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "b.db")
    cli(capsys, "game", "new", "--players", "Ann,Bob", "--match", "best-of-three", "--db", db)
    cli(capsys, "game", "do", "--db", db, *SCRIPT)
    _, out, _ = cli(capsys, "history", "--lang", "de", "--db", db)
    assert "  sechs Karten  drei Spiele  Ann gegen Bob: " in out.splitlines()[0]
    _, english, _ = cli(capsys, "history", "--db", db)
    assert "  six-card  best-of-three  Ann v Bob: " in english.splitlines()[0]
    sheet = tmp_path / "b.svg"
    cli(capsys, "sheet", "--lang", "de", "--db", db, "--out", str(sheet))
    svg = sheet.read_text("utf-8")
    assert ">Match 1, Spiel 1, drei Spiele · sechs Karten bis 121<" in svg
    assert "best" not in svg


def test_stats_players_speaks_german(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "stats", "players", "--lang", "de", "--db", str(db))
    lines = out.splitlines()
    assert lines[0].startswith("Punkte je Runde: alles = alles Gesteckte; Auslegen, Hand, Krippe")
    assert lines[1:10] == [
        "Ann: Spiele 1 von 1 gewonnen, Matches 1 von 1 gewonnen, Spielpunkte 3",
        "  Schneider gegeben 0, bekommen 0; dreifach gegeben 1, bekommen 0",
        "  je Runde  Runden   alles  Auslegen        Hand            Krippe",
        "  Geber          1    9,00  1,00 (1 von 1)  6,00 (1 von 1)  2,00 (1 von 1)",
        "  Vorhand        2   56,00  3,00 (1 von 2)  5,00 (1 von 2)",
        "  von Hand gesteckt: Auslegen: catch up 104",
        "  29er 0, 28er 0",
        "  beste Hand  6: 8C 9C 10D JS Startkarte 6H, Spiel 1:1",
        "  beste Hand  5: 3S 2S AS 9D Startkarte 7H, Spiel 1:1",
    ]
    assert lines[-2:] == [
        "gegeneinander",
        "  Ann gegen Bob: Spiele 1-0 von 1, Matches 1-0 von 1, Spielpunkte 3-0",
    ]


def test_points_pegged_by_hand_are_said_in_german_but_a_typed_reason_as_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.journal.games import key_journal

    db = str(key_journal("six-card-lurch", tmp_path, monkeypatch))
    _, out, _ = cli(capsys, "stats", "players", "--lang", "de", "--db", db)
    assert [line for line in out.splitlines() if "von Hand gesteckt" in line] == [
        "  von Hand gesteckt: Krippe (angesagt) 28, Auslegen (ohne Grund) 27, Hand (angesagt) 24",
        "  von Hand gesteckt: Auslegen (ohne Grund) 25, Hand (angesagt) 6",
    ]
    _, english, _ = cli(capsys, "stats", "players", "--db", db)
    assert [line for line in english.splitlines() if "pegged by hand" in line] == [
        "  pegged by hand: crib (told) 28, pegging (no reason) 27, hands (told) 24",
        "  pegged by hand: pegging (no reason) 25, hands (told) 6",
    ]
    _, data, _ = cli(capsys, "stats", "players", "--json", "--db", db)
    assert '"by_hand": {"crib (told)": 28, "pegging (no reason)": 27, "hands (told)": 24}' in data


def test_odds_speak_german(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "odds", "--lang", "de", "100", "110")
    assert out == (
        "sechs Karten: Geber 100 (gibt), Vorhand 110: Geber gewinnt zu 28,5 %, Vorhand zu 71,5 %\n"
    )
    _, out, _ = cli(capsys, "odds", "--lang", "de", "--table", "--variant", "five-card")
    assert out.splitlines()[0] == (
        "fünf Karten: Chance des Gebers (%), Punkte des Gebers nach unten, der Vorhand nach rechts"
    )


def test_the_demo_speaks_german(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "demo", "--seed", "3", "--lang", "de")
    lines = out.splitlines()
    assert lines[0] == "pegboard demo: Cribbage mit sechs Karten, Nord gibt"
    assert lines[3] == "  bester Abwurf 8D 9C (Hand 6,00 + Krippe 5,04 = 11,04)"
    assert "         Nord steckt 2 (einunddreißig macht zwei)" in lines
    assert "         Nord steckt 3 (fünfzehn – zwei, 1 für die Letzte)" in lines
    assert lines[-3] == "  Krippe von Nord 8D 9C 2H 8C + 3S: Ein Paar macht zwei (2)"
    assert lines[-1] == "nach einer Runde: Nord 11, Süd 9"


def test_league_standings_speak_german(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pegboard.league.store import LeagueStore

    LeagueStore(tmp_path / "league.db").close()
    argv = ["league", "standings", "--db", str(tmp_path / "league.db")]
    _, out, _ = cli(capsys, *argv, "--lang", "de")
    assert out == "  #  Spieler   Sp   G   V   MP   Diff.\nnoch keine Spiele\n"
    _, english, _ = cli(capsys, *argv, "--json")
    _, german, _ = cli(capsys, *argv, "--json", "--lang", "de")
    assert german == english == "[]\n"


def test_serve_says_where_the_page_is_in_german(db: Path) -> None:
    from tests.cli.test_serve import Served

    served = Served(
        "serve", "--lang", "de", "--db", db, "--bind", "127.0.0.1", "--port", "0", serve=False
    )
    try:
        assert served.line.startswith(f"Seite für {db} unter http://127.0.0.1:")
    finally:
        assert served.stop() == 0


# --- the one-line errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "german"),
    [
        pytest.param(
            ["score", "5H", "5D", "JS", "KC", "1C"],
            "keine Karte: '1C' (erwartet: Rang A, 2-10, J, Q, K, dann Farbe C, D, H, S, "
            "z. B. '5H'): gemeint ist wohl 'AC'?",
            id="bad-card",
        ),
        pytest.param(
            ["score", "5H", "5H", "JS", "KC", "8C"],
            "Karte 5H doppelt in '5H 5H JS KC 8C'",
            id="duplicate-card",
        ),
        pytest.param(
            ["advise", "5H", "5D", "5S", "JC", "6H"],
            "falsche Kartenzahl für das Blatt (sechs Karten): '5H 5D 5S JC 6H' hat 5, erwartet 6",
            id="wrong-number-of-cards",
        ),
        pytest.param(
            ["peg", "10H", "KH", "9H", "5H"],
            "5H geht nicht: Wert ist 29, mit 5H wären es 34 (über 31)",
            id="over-31",
        ),
        pytest.param(
            ["odds", "100", "x"],
            "Punktzahl von Vorhand 'x' ist keine Zahl (erwartet: ganze Punkte)",
            id="odds-not-a-number",
        ),
    ],
)
def test_the_common_errors_are_one_german_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], german: str
) -> None:
    status, out, err = cli(capsys, *argv, "--lang", "de")
    assert (status, out, err) == (1, "", f"pegboard: Fehler: {german}\n")


@pytest.mark.parametrize(
    ("argv", "german"),
    [
        pytest.param(
            ["sheet", "abc", "--out", "q.png"],
            "Spiel 'abc' ist kein Spiel (erwartet: N für Spiel N des letzten Matches oder "
            "MATCH:SPIEL, wie 'pegboard history' sie auflistet, z. B. 3:2)",
            id="sheet-not-a-game",
        ),
        pytest.param(
            ["sheet", "4", "--out", "q.png"],
            "kein Spiel 4 in Match 1 (Spiele: 1)",
            id="sheet-no-such-game",
        ),
        pytest.param(
            ["sheet", "7:1", "--out", "q.png"],
            "kein Match 7 im Journal (die letzten: 1)",
            id="sheet-no-such-match",
        ),
        pytest.param(
            ["sheet", "--out", "q.jpg"],
            "--out 'q.jpg' hat keine bekannte Endung (erwartet: DATEI.pdf, DATEI.png oder "
            "DATEI.svg)",
            id="sheet-unknown-suffix",
        ),
        pytest.param(
            ["sheet", "--out", "none/q.png"],
            "--out 'none/q.png': kein Ordner 'none'",
            id="sheet-no-folder",
        ),
        pytest.param(
            ["sheet", "--out", "q.png", "--venue", "x\ny"],
            "--venue 'x\\ny' lässt sich nicht drucken: U+000A an Zeichen 2 ist ein Steuerzeichen "
            "(erwartet: eine Zeile druckbarer Text, z. B. 'Zum Roten Löwen')",
            id="sheet-venue",
        ),
        pytest.param(
            ["game", "new", "--players", "A B,C"],
            "ein Seitenname muss ein Wort sein, erhalten: 'A B'",
            id="new-two-words",
        ),
        pytest.param(
            ["game", "new", "--players", "A,B,C"],
            "je Seite ein Name (2) für sechs Karten nötig, erhalten: 'A,B,C'",
            id="new-three-names",
        ),
        pytest.param(
            ["game", "new", "--players", "Ann,ann"],
            "die Seitennamen müssen verschieden sein, erhalten: 'Ann,ann'",
            id="new-same-names",
        ),
        pytest.param(
            ["game", "new", "--players", "A\u200b,B"],
            "ein Seitenname muss druckbarer Text sein, erhalten: 'A\\u200b' (U+200B an Zeichen 2 "
            "ist ein unsichtbares Formatzeichen; erwartet: Buchstaben, Ziffern, Akzente oder "
            "Symbole)",
            id="new-not-printable",
        ),
        pytest.param(
            ["history", "--db", "g.db/x.db"],
            "'g.db/x.db' lässt sich nicht öffnen: 'g.db' ist eine Datei, kein Ordner",
            id="path-through-a-file",
        ),
        pytest.param(
            ["history", "--db", "a" * 300],
            f"{quote('a' * 300)} lässt sich nicht öffnen: der Dateiname ist zu lang",
            id="path-too-long",
        ),
    ],
)
def test_the_sheets_and_a_new_matchs_errors_are_one_german_line(
    argv: list[str],
    german: str,
    db: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(db.parent)
    before = sorted(db.parent.iterdir())
    if "--db" not in argv:
        argv = [*argv, "--db", db.name]
    status, out, err = cli(capsys, *argv, "--lang", "de")
    assert (status, out, err) == (1, "", f"pegboard: Fehler: {german}\n")
    assert sorted(db.parent.iterdir()) == before


def test_a_bad_game_command_is_one_german_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "p.db")
    cli(capsys, "game", "new", "--db", db, "--players", "Ann,Bob")
    status, _, err = cli(capsys, "game", "do", "--lang", "de", "--db", db, "cut 9C 3D", "bogus")
    assert status == 1
    assert err == (
        "pegboard: Fehler: Befehl 2 'bogus' abgelehnt: unbekannter Befehl: 'bogus' (erwartet: "
        "einer von cut, starter, play, go, peg, claim, show, crib, next (or done), deal, undo, "
        "redo); die 1 davor bleiben ausgeführt\n"
    )
    status, _, err = cli(capsys, "game", "do", "--lang", "de", "--db", db, "play 5H")
    assert err == (
        "pegboard: Fehler: Befehl 1 'play 5H' abgelehnt: 'play 5H' geht jetzt nicht (Phase "
        "STARTER; erwartet: deal, next, peg Ann 2, starter 5H, undo oder redo)\n"
    )
    status, _, err = cli(capsys, "game", "do", "--lang", "de", "--db", db, "play 1H")
    assert "abgehoben" not in err and "keine Karte: '1H'" in err


def test_a_missing_journal_and_one_that_is_not_a_journal_in_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.db"
    status, _, err = cli(capsys, "history", "--lang", "de", "--db", str(missing))
    assert (status, err) == (
        1,
        f"pegboard: Fehler: kein Journal unter {str(missing)!r}: eines beginnen mit "
        f"'pegboard game new --db {missing}'\n",
    )
    junk = tmp_path / "junk.db"
    junk.write_text("junk\n")
    status, _, err = cli(capsys, "game", "show", "--lang", "de", "--db", str(junk))
    assert (status, err) == (
        1,
        f"pegboard: Fehler: {str(junk)!r} ist kein pegboard-Journal (sie ist keine "
        "SQLite-Datenbank); die Datei bleibt, wie sie ist (erwartet: ein Journal von pegboard "
        "oder ein Pfad, den es noch nicht gibt)\n",
    )
    status, _, err = cli(capsys, "game", "show", "--db", str(junk))
    assert err.startswith("pegboard: error: ") and "is not a pegboard journal" in err


def test_stdin_scoring_answers_bad_lines_in_german(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b"5H 5D JS KC 8C\nxx\n"))
    monkeypatch.setattr("sys.stdin", stdin)
    status, out, err = cli(capsys, "score", "--lang", "de", "-")
    assert status == 1
    assert out.splitlines()[-1] == (
        "Fehler: Zeile 2: keine Karte: 'xx' (erwartet: Rang A, 2-10, J, Q, K, dann Farbe C, D, "
        "H, S, z. B. '5H')"
    )
    assert err.startswith("pegboard: Fehler: Zeile 2: keine Karte: 'xx'")


def test_an_error_no_template_knows_stays_english_and_english_is_untouched() -> None:
    assert error_text("OLED not found on I2C bus 1", DE) == "OLED not found on I2C bus 1"
    message = "invalid card: '1H' (expected rank A,2-10,J,Q,K then suit C,D,H,S, e.g. '5H')"
    assert error_text(message, Language.ENGLISH) is message


def test_every_template_matches_the_message_it_is_made_for() -> None:
    """Each template, filled in, is said again in German: so a template whose English drifted
    from the engine's would be caught where the engine's real messages are (above)."""
    for template in _TEMPLATES:
        filled = template.format_map({name: "X" for name in _fields(template)})
        said = error_text(filled, DE)
        assert said != filled, template


def _fields(template: str) -> set[str]:
    import string

    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_engine_errors_stay_english() -> None:
    from pegboard.engine.cards import Card

    with pytest.raises(PegboardError, match=r"invalid card: '1H'"):
        Card.parse("1H")


# --- the score sheet -----------------------------------------------------------------------------


def _scripted_match() -> object:
    times = [(text, f"2025-03-01T20:{i:02d}:00+00:00") for i, text in enumerate(SCRIPT)]
    return replay_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE, times, match_id=1)


def _german_png() -> bytes:
    match = _scripted_match()
    game = match.games[0]  # type: ignore[attr-defined]
    drawing = layout_sheet(game, venue="Zum Roten Löwen", match=match, tz=UTC, language=DE)  # type: ignore[arg-type]
    return render_png(drawing)


def test_the_german_sheet_looks_as_it_did(request: pytest.FixtureRequest) -> None:
    """Compared with tests/golden/sheet/six-card-de.png (``--update-golden`` rewrites it): the
    German document's "Cribbage Zählbogen", its umlauts drawn (DejaVu Sans), nothing cut off."""
    image = Image.open(io.BytesIO(_german_png()))
    path = GOLDEN / "six-card-de.png"
    if request.config.getoption("--update-golden", default=False):
        image.save(path, optimize=True)
    assert_like_golden_sheet(image, path)


def test_the_german_sheet_uses_the_documents_words(db: Path, tmp_path: Path) -> None:
    match = _scripted_match()
    svg = render_svg(layout_sheet(match.games[0], match=match, tz=UTC, language=DE))  # type: ignore[attr-defined]
    said = ["Cribbage Zählbogen", "TURNIER / ORT", "DATUM", "SPIELER 1", "SPIELER 2"]
    said += ["Spieler 1", "Spieler 2", "Punkte", "Geber", "Krippe", "Runde"]
    said += ["Ann gewinnt 121 : 30 mit 3 Spielpunkten", "Bob dreifach Schneider (30)"]
    for words in said:
        assert f">{words}<" in svg, words
    assert "score sheet" not in svg and "Player" not in svg


def test_pegboard_sheet_writes_german_and_says_so(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "s.svg"
    status, out, _ = cli(capsys, "sheet", "--lang", "de", "--db", str(db), "--out", str(out_file))
    assert status == 0
    assert out == (
        f"{str(out_file)!r} geschrieben: Match 1 Spiel 1 (beendet), Ann gegen Bob, 3 Runden\n"
    )
    assert ">Cribbage Zählbogen<" in out_file.read_text("utf-8")
    status, _, err = cli(capsys, "sheet", "--lang", "de", "--db", str(db), "--out", str(out_file))
    assert err == (
        f"pegboard: Fehler: --out {quote(str(out_file))} gibt es schon; die Datei bleibt, wie "
        "sie ist (--force ersetzt sie)\n"
    )


@pytest.mark.parametrize(
    "argv",
    [["demo", "--seed", "1"], ["odds", "100", "110"], ["peg", "5H", "10D", "KC"]],
    ids=lambda argv: argv[0],
)
def test_english_commands_read_no_catalogue(argv: list[str]) -> None:
    from tests.cli.test_imports import modules_after

    modules = modules_after(["--lang", "en", *argv])
    assert "pegboard.cli.lang" in modules and "pegboard.i18n.po" not in modules


@pytest.mark.parametrize(
    ("command", "german"),
    [
        pytest.param(
            "peg Ann 200",
            "Punkte müssen zwischen 1 und 61 liegen, nicht 200 (in 'peg Ann 200')",
            id="points-out-of-range",
        ),
        pytest.param("next 5", "next steht allein, nicht 'next 5'", id="no-arguments"),
        pytest.param(
            "play", "nach play kommt eine Karte, nicht 'play' (z. B. 'play 5H')", id="no-card"
        ),
        pytest.param(
            "peg Ann",
            "nach peg kommen eine Seite und Punkte, nicht 'peg Ann' (z. B. 'peg B 2')",
            id="peg-without-points",
        ),
    ],
)
def test_a_wrong_command_is_said_in_natural_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, german: str
) -> None:
    """No "bekam 200": German says what is expected, then "nicht" what came."""
    db = str(tmp_path / "p.db")
    cli(capsys, "game", "new", "--db", db, "--players", "Ann,Bob")
    cli(capsys, "game", "do", "--db", db, "cut 9C 3D")
    status, _, err = cli(capsys, "game", "do", "--lang", "de", "--db", db, command)
    assert (status, err) == (1, f"pegboard: Fehler: Befehl 1 {command!r} abgelehnt: {german}\n")


def test_german_numbers_use_a_decimal_comma_and_points_between_thousands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As ``stats players`` ("43,50") and ``odds`` ("28,5 %") write them; English as before."""
    _, out, _ = cli(capsys, "stats", "distribution", "--variant", "five-card", "--lang", "de")
    lines = out.splitlines()
    assert lines[0] == "jede Hand aus 3 Karten mit jeder Startkarte: 1.082.900 Kombinationen"
    assert lines[1] == "  0     260.220  24,02992 %"
    assert lines[-1] == "Mittelwert 2,592350"
    _, out, _ = cli(capsys, "stats", "distribution", "--variant", "five-card")
    assert out.splitlines()[:2] == [
        "every 3-card hand with every starter: 1,082,900 combinations",
        "  0     260,220  24.02992%",
    ]
    _, out, _ = cli(capsys, "advise", "5H", "5D", "5S", "JC", "6H", "2C", "--lang", "de")
    assert out.splitlines()[1] == "2C 6H       5D 5H 5S JC       16,63   4,19   20,82"
    _, out, _ = cli(capsys, "advise", "5H", "5D", "5S", "JC", "6H", "2C")
    assert out.splitlines()[1] == "2C 6H       5D 5H 5S JC       16.63   4.19   20.82"


# --- the league's database and the pub page's address ----------------------------------------


def test_the_league_databases_errors_are_one_german_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing, journal, bad = tmp_path / "x.db", scripted_journal(tmp_path / "j2.db"), tmp_path / "b"
    bad.write_text("hello, this text file is long enough to be taken for a database page\n" * 2)
    capsys.readouterr()  # what making the journal printed
    said = {}
    for path in (missing, journal, bad):
        status, out, err = cli(capsys, "league", "standings", "--db", str(path), "--lang", "de")
        assert (status, out) == (1, "")
        said[path] = err
    assert said == {
        missing: f"pegboard: Fehler: keine Ligadatenbank unter {str(missing)!r} (eine neue "
        f"beginnt 'pegboard league serve --db {missing}')\n",
        journal: f"pegboard: Fehler: {str(journal)!r} ist keine Ligadatenbank (ihr fehlt die "
        "Tabelle der Ligaspiele; erwartet: die --db von 'pegboard league serve', z. B. "
        "league.db)\n",
        bad: f"pegboard: Fehler: die Ligadatenbank {str(bad)!r} lässt sich nicht öffnen: die "
        "Datei ist keine Datenbank\n",
    }


def test_serves_bad_bind_and_port_in_use_are_one_german_line(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = cli(capsys, "serve", "--db", str(db), "--bind", "pub.local", "--lang", "de")
    assert (status, out, err) == (
        1,
        "",
        "pegboard: Fehler: --bind muss eine IP-Adresse sein: '0.0.0.0' (jede Schnittstelle) "
        "oder '127.0.0.1' (nur dieser Rechner), nicht 'pub.local'\n",
    )
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        argv = ["serve", "--db", str(db), "--bind", "127.0.0.1", "--port", str(port)]
        status, out, err = cli(capsys, *argv, "--lang", "de")
    assert (status, out, err) == (
        1,
        "",
        f"pegboard: Fehler: die Seite lässt sich nicht unter 127.0.0.1:{port} anbieten: die "
        "Adresse ist schon belegt (ein anderes Programm an diesem Port? [web] port oder --port "
        "ändern)\n",
    )
