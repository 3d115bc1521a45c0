"""The play's calls in the rule documents' words (issue 23, section 1): a pair royal is one
call of 6 and a double pair royal one of 12, in English and German, on the command line, in the
news and on the screen; German play news keeps its words where the whole call is too long."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from pegboard.engine.commands import parse_command
from pegboard.engine.events import Event
from pegboard.engine.game import GameState, apply
from pegboard.engine.rules import Rules
from pegboard.engine.view import render_view
from pegboard.i18n import Language
from pegboard.ui import paint
from pegboard.ui.news import News, news_of
from pegboard.ui.paint import Style
from pegboard.ui.screens import choose_screen, render_screen
from tests.cli.helpers import cli

NAMES = ("Ann", "Bob")
START = ["cut 9H 3C", "starter 5C"]  # Bob deals, Ann leads
RUN = [*START, "play 3H", "play 4D", "play 5S"]  # Ann: a run of 3
ROYAL = [*START, "play 6H", "play 6D", "play 6S"]  # Ann: a pair royal
DOUBLE = [*START, "play 2H", "play 2D", "play 2S", "play 2C"]  # Bob: a double pair royal


def told(commands: Sequence[str], language: Language) -> tuple[News, GameState]:
    state = GameState.new(Rules.six_card(), NAMES)
    events: Sequence[Event] = ()
    before = render_view(state)
    for text in commands:
        before = render_view(state)
        state, events = apply(state, parse_command(text, state.names))
    news = news_of(before, render_view(state), events, language)
    assert news is not None
    return news, state


@pytest.mark.parametrize(
    ("commands", "language", "line"),
    [
        (ROYAL, Language.ENGLISH, "Ann: pair royal for 6"),
        (DOUBLE, Language.ENGLISH, "Bob: double pair royal for 12"),
        (ROYAL, Language.GERMAN, "Ann: 6 für Drilling"),
        (DOUBLE, Language.GERMAN, "Bob: 12 für Vierling"),
    ],
)
def test_a_pair_royal_is_one_call(commands: list[str], language: Language, line: str) -> None:
    assert told(commands, language)[0].line == line


def test_the_views_last_peg_calls_a_pair_royal_once() -> None:
    _, state = told(ROYAL, Language.ENGLISH)
    last = render_view(state).last
    assert last is not None and last.calls == ("pair royal for 6",)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text a screen draws while the test runs."""
    texts: list[str] = []
    text, inverted = paint.Painter.text, paint.Painter.inverted

    def record_text(self: paint.Painter, x: int, y: int, words: str, *args: object) -> None:
        texts.append(words)
        text(self, x, y, words, *args)  # type: ignore[arg-type]

    def record_inverted(self: paint.Painter, x: int, y: int, words: str, *args: object) -> None:
        texts.append(words)
        inverted(self, x, y, words, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(paint.Painter, "text", record_text)
    monkeypatch.setattr(paint.Painter, "inverted", record_inverted)
    yield texts


@pytest.mark.parametrize("style", list(Style))
@pytest.mark.parametrize(
    ("commands", "words"),
    [(RUN, "Ann: Dreierfolge 3"), (ROYAL, "Ann: 6 für Drilling"), (DOUBLE, "Bob: 12 für Vierling")],
)
def test_the_german_play_screen_tells_the_calls_not_only_the_points(
    commands: list[str], words: str, style: Style, drawn: list[str]
) -> None:
    """Where the English screen says "Ann: a run of 3 for 3", the German one said only "Ann +3
    → 3"; now its calls, in fewer words where the whole call is too long."""
    news, state = told(commands, Language.GERMAN)
    screen = choose_screen(render_view(state), news=news)
    render_screen(screen, (128, 64), "1", style, Language.GERMAN)
    assert words in drawn


def test_pegboard_peg_calls_a_pair_royal_once(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "peg", "5H", "5D", "5S", "5C")
    assert out.splitlines()[2:4] == [
        " 5S  count 15   8  fifteen 2, pair royal 6",
        " 5C  count 20  12  double pair royal 12",
    ]
    _, out, _ = cli(capsys, "--lang", "de", "peg", "5H", "5D", "5S", "5C")
    assert out.splitlines()[2:4] == [
        " 5S  Wert 15   8  fünfzehn – zwei, 6 für Drilling",
        " 5C  Wert 20  12  12 für Vierling",
    ]


def test_game_do_calls_a_pair_royal_and_his_heels_in_the_documents_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plays = ["cut 9C 3D", "starter JC", "play 6H", "play 6D", "play 6S"]
    said = {}
    for language in ("en", "de"):
        db = str(tmp_path / f"{language}.db")
        cli(capsys, "game", "new", "--players", "Ann,Bob", "--db", db)
        _, out, _ = cli(capsys, "--lang", language, "game", "do", "--db", db, *plays)
        said[language] = out.splitlines()
    assert "  Bob steckt zwei für die Hacken -> 2" in said["de"]
    assert "  Ann steckt 6 (Ann: 6 für Drilling) -> 6" in said["de"]
    assert "  Bob pegs two for his heels -> 2" in said["en"]
    assert "  Ann pegs 6 for pair royal by Ann -> 6" in said["en"]
