"""German (issue 14): the document's own counting, the catalogue, the locale, the font, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from pegboard.engine.cards import Card, parse_cards
from pegboard.engine.scoring import score_hand
from pegboard.i18n import Language, catalogue_path, translator
from pegboard.i18n.calls import show_calls_in, spoken
from pegboard.i18n.numbers import german_number
from pegboard.i18n.po import parse_po
from pegboard.ui.paint import STRIKES, font_face
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
DE = Language.GERMAN


def say(hand: str, starter: str) -> str:
    breakdown = score_hand(parse_cards(hand), Card.parse(starter))
    return spoken(show_calls_in(breakdown, DE), DE)


@pytest.mark.parametrize(
    ("hand", "starter", "words"),
    [
        pytest.param(
            "5H 5D JS KC",
            "8C",
            "Fünfzehn – zwei, fünfzehn – vier, fünfzehn – sechs, fünfzehn – acht und ein Paar "
            "macht zehn",
            id="first-example-5-5-J-K-8",
        ),
        pytest.param(
            "7H 8S 8D KC",
            "9C",
            # the document's words with its notes on the cards left out: "(7 und 8)", ...
            "Fünfzehn – zwei, fünfzehn – vier, und ein Paar macht sechs, und eine Dreierfolge "
            "macht neun, und noch eine Dreierfolge macht zwölf",
            id="second-example-7-8-8-K-9",
        ),
    ],
)
def test_the_documents_two_counting_examples_are_said_in_its_words(
    hand: str, starter: str, words: str
) -> None:
    assert say(hand, starter) == words


def test_the_documents_29_is_counted_as_it_counts_it() -> None:
    """Four fifteens of the 5s (8) and four of the jack (8 more), a "Vierling" (12), "plus
    einen für den Jack", "macht 29"."""
    calls = show_calls_in(score_hand(parse_cards("5H 5D 5S JC"), Card.parse("5C")), DE)
    assert calls[:8] == [
        "Fünfzehn – zwei",
        *(f"fünfzehn – {german_number(n)}" for n in range(4, 17, 2)),
    ]
    assert calls[7] == "fünfzehn – sechzehn"
    assert calls[8:] == [
        "und ein Vierling macht achtundzwanzig",
        "plus einen für den Jack macht neunundzwanzig",
    ]


def test_english_calls_are_the_engines_own() -> None:
    breakdown = score_hand(parse_cards("7H 8S 8D KC"), Card.parse("9C"))
    assert show_calls_in(breakdown, Language.ENGLISH) == [
        "fifteen 2",
        "fifteen 4",
        "and a pair is 6",
        "and a double run of 3 is 12",
    ]


@pytest.mark.parametrize(
    ("n", "words"),
    [(0, "null"), (1, "eins"), (7, "sieben"), (16, "sechzehn"), (17, "siebzehn"), (21,
     "einundzwanzig"), (30, "dreißig"), (31, "einunddreißig"), (99, "neunundneunzig"),
     (101, "einhunderteins"), (121, "einhunderteinundzwanzig"), (1000, "eintausend")],
)  # fmt: skip
def test_german_numbers_are_one_word(n: int, words: str) -> None:
    assert german_number(n) == words


def test_every_marked_message_is_translated_in_the_german_catalogue() -> None:
    tool = load_script("tools/messages.py")
    used = tool.extract()
    assert len(used) > 150  # the scan sees the code's messages at all
    assert tool.problems(catalogue_path(DE), used) == []


def test_the_catalogue_check_fails_on_a_missing_message(tmp_path: Path) -> None:
    tool = load_script("tools/messages.py")
    po = tmp_path / "pegboard.po"
    po.write_text('msgid "hand"\nmsgstr "Hand"\n\nmsgid "{n} go"\nmsgstr "{m} fehlen"\n')
    used = {(None, "hand"): ["a.py:1"], (None, "{n} go"): ["a.py:2"], (None, "crib"): ["a.py:3"]}
    assert sorted(tool.problems(po, used)) == [
        "missing: 'crib' (used at a.py:3)",
        "unknown placeholders ['m'] in the translation of '{n} go'",
    ]


def test_the_po_reader_reads_contexts_plurals_and_skips_fuzzy_entries() -> None:
    text = (
        'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgctxt "play"\nmsgid "go"\nmsgstr "Passe"\n\n'
        'msgid "{n} pt"\nmsgid_plural "{n} pts"\nmsgstr[0] "{n} Punkt"\nmsgstr[1] "{n} Punkte"\n\n'
        '#, fuzzy\nmsgid "crib"\nmsgstr "Krib"\n\n'
        'msgid "long"\nmsgstr ""\n"two "\n"lines"\n'
    )
    from pegboard.i18n.po import catalogue

    cat = catalogue(parse_po(text))
    assert cat.pgettext("play", "go") == "Passe"
    assert [cat.ngettext("{n} pt", "{n} pts", n) for n in (1, 2)] == ["{n} Punkt", "{n} Punkte"]
    assert cat.gettext("crib") == "crib"  # fuzzy: not used
    assert cat.gettext("long") == "two lines"


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, Language.ENGLISH),
        ({"LANG": "de_DE.UTF-8"}, DE),
        ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "de_AT"}, DE),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "C.UTF-8"}, Language.ENGLISH),
        ({"LC_ALL": "de_CH.UTF-8"}, DE),
        ({"LANG": "fr_FR.UTF-8"}, Language.ENGLISH),
    ],
)
def test_the_default_language_comes_from_the_locale(
    environ: dict[str, str], language: Language
) -> None:
    assert Language.from_environment(environ) is language


MISSING = "\uffff"  # a code point no font has: the font's missing-glyph box


@pytest.mark.parametrize("size", STRIKES)
def test_the_oled_font_has_the_german_letters_and_the_dashes(size: int) -> None:
    face = font_face(size)

    def ink(char: str) -> bytes:
        image = Image.new("1", (size * 2, size * 2))
        draw = ImageDraw.Draw(image)
        draw.fontmode = "1"
        draw.text((0, 0), char, font=face.font, fill=1)
        assert image.getbbox() is not None, f"no ink for {char!r} at {size} px"
        return image.tobytes()

    missing = ink(MISSING)
    letters = {char: ink(char) for char in "äöüßÄÖÜaouAOUs"}
    assert all(shape != missing for shape in letters.values())
    assert len(set(letters.values())) == len(letters)  # ä is not a, ß is not s
    # the en dash of the calls ("Fünfzehn – zwei") has its glyph; Terminus draws it like the
    # hyphen at most sizes, which reads the same on the OLED
    assert ink("–") != missing


def run(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    code = "import sys; from pegboard.cli.main import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", **(env or {})},
    )


def test_pegboard_score_speaks_german_with_lang_de() -> None:
    out = run("score", "--lang", "de", "5H", "5D", "JC", "KS", "8C").stdout
    assert out == (
        "Hand 5H 5D JC KS  Startkarte 8C\n"
        "Fünfzehn – zwei, fünfzehn – vier, fünfzehn – sechs, fünfzehn – acht, und ein Paar "
        "macht zehn, plus einen für den Jack macht elf\n"
        "insgesamt 11\n"
    )


def test_the_locale_chooses_german_and_json_stays_english() -> None:
    german = run("score", "5H", "5D", "JS", "KC", "8C", env={"LANG": "de_DE.UTF-8"}).stdout
    assert "fünfzehn – acht und ein Paar macht zehn" in german
    english = run("--lang", "en", "score", "5H", "5D", "JS", "KC", "8C").stdout
    assert english.splitlines()[1] == "fifteen 2, fifteen 4, fifteen 6, fifteen 8, and a pair is 10"
    payload = run("score", "--json", "--lang", "de", "5H", "5D", "JS", "KC", "8C").stdout
    assert json.loads(payload)["calls"][-1] == "and a pair is 10"


def test_english_never_loads_gettext_or_the_catalogue() -> None:
    """An English screen loads neither; the command line, whose argparse imports gettext
    itself, never reads the catalogue."""
    code = (
        "import sys, contextlib, io\n"
        "from pegboard.engine.game import GameState\n"
        "from pegboard.engine.rules import Rules\n"
        "from pegboard.engine.view import render_view\n"
        "from pegboard.ui.screens import choose_screen, render_screen\n"
        "render_screen(choose_screen(render_view(GameState.new(Rules.six_card()))))\n"
        "print('gettext' in sys.modules, 'pegboard.i18n.po' in sys.modules)\n"
        "from pegboard.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--lang', 'en', 'score', '5H', '5D', '5S', 'JC', '5C'])\n"
        "print('pegboard.i18n.po' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "False", "False"]


def test_the_german_catalogue_is_read_once() -> None:
    assert translator(DE) is translator(DE)
    assert translator(DE).pgettext("play", "go") == "Passe"
