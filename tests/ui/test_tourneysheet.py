"""The night on paper: a player's scorecard and the results, as the sheet's pages. Golden
images (tests/golden/sheet/tourney-*.png, looked at when made) pin the look; the shapes' text
pins what must be on them: every game, the running totals, a bye, every correction's who,
when and why, and the side pots."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from pegboard.engine.cards import Card, parse_cards
from pegboard.i18n import Language
from pegboard.tourney.night import Correction, Result, correct
from pegboard.tourney.pots import Shown
from pegboard.tourney.standings import scorecards
from pegboard.tourney.steps import Tourney
from pegboard.ui.sheet import Drawing, Text
from pegboard.ui.sheetfiles import render_pdf_pages, render_png
from pegboard.ui.tourneysheet import layout_card, night_pages
from tests.cli.helpers import assert_like_golden_sheet
from tests.tourney.build import night_of

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "sheet"


def a_night() -> Tourney:
    night = night_of(
        [
            [("Ann", "Bob", 100), ("Cy", "Di", 80)],
            [("Ann", "Cy", 110), ("Di", "Bob", 95)],
            [("Bob", "Ann", 70)],
        ],
        byes=[None, None, "Cy"],
        bye_spread=0,
    )
    night = correct(
        night, Correction(Result(2, 2, "Bob", "Di", 121, 115), "Pat", "21:40", "scores swapped")
    )
    shown = (
        Shown("Ann", 1, 1, "20:41", parse_cards("5H 5D 5S JC"), Card.parse("5C"), 29, deal=3),
        Shown("Bob", 1, 1, "20:41", (), Card.parse("2D"), 12, deal=4),  # no pot
        Shown("Di", 2, 2, "21:15", (), Card.parse("7C"), 28, deal=6),  # told by points
        Shown(
            "Cy",
            1,
            2,
            "2026-11-27T20:55:03.120",
            parse_cards("4H 4D 4S 4C"),
            Card.parse("6H"),
            20,
            deal=2,
        ),  # a board's stamp: the time of day is shown
    )
    return Tourney(night, shown=shown)


def texts(drawing: Drawing) -> list[str]:
    return [s.text for s in drawing.shapes if isinstance(s, Text)]


def test_a_card_has_every_game_its_totals_a_bye_and_every_correction() -> None:
    pages = night_pages(a_night(), ["Bob", "Cy"], results=False)
    bob, cy = (texts(p) for p in pages)
    assert "Bob" in bob and [t for t in bob if t in ("Ann", "Di")] == ["Ann", "Di", "Ann"]
    assert "corrected by Pat at 21:40: scores swapped" in bob
    assert all(score in bob for score in ("100-121", "121-115", "121-70"))
    # each line its spread, then the running total: -21 -21, +6 -15, +51 +36
    assert [t for t in bob if t[0] in "+-" and t[1:].isdigit()] == [
        "-21",
        "-21",
        "+6",
        "-15",
        "+51",
        "+36",
    ]
    assert "bye" in cy
    assert any(t.startswith("Place ") and "game points 5" in t for t in cy)


def test_the_results_list_the_standings_and_every_game_with_its_source() -> None:
    pages = night_pages(a_night())
    assert len(pages) == 3 + 4  # the standings, the games, the side pots, then the four cards
    standings, games = texts(pages[0]), texts(pages[1])
    # Bob 5 (+36), Cy 5 (+30, a bye), Ann 4, Di 0
    assert [t for t in standings if t in ("Ann", "Bob", "Cy", "Di")] == ["Bob", "Cy", "Ann", "Di"]
    assert "Bob 121-115 Di" in games and "corrected by Pat at 21:40: scores swapped" in games
    assert "bye: Cy" in games and "director" in games
    pots = texts(pages[2])
    assert "Side pots" in pots
    assert [t for t in pots if t in ("skunk", "28", "29", "four of a kind")] == [
        "skunk",
        "skunk",
        "28",
        "29",
        "four of a kind",
        "four of a kind",
    ]
    assert "deal 3: 5H 5D 5S JC, starter 5C" in pots
    assert "deal 6: by points (cards not entered), starter 7C" in pots
    assert "deal 4: by points (cards not entered), starter 2D" not in pots  # a 12 is no pot
    assert pots.count("20:55") == 1


def test_no_side_pots_no_page() -> None:
    night = night_of([[("Ann", "Bob", 100)]])
    assert [p.title for p in night_pages(Tourney(night))] == ["test: Tournament results"] * 2 + [
        "test: Ann",
        "test: Bob",
    ]


@pytest.mark.parametrize(
    ("name", "language", "page"),
    [
        pytest.param("tourney-card", Language.ENGLISH, "Bob", id="card"),
        pytest.param("tourney-card-de", Language.GERMAN, "Bob", id="card-de"),
        pytest.param("tourney-results", Language.ENGLISH, "", id="results"),
        pytest.param("tourney-pots", Language.ENGLISH, "pots", id="pots"),
        pytest.param("tourney-pots-de", Language.GERMAN, "pots", id="pots-de"),
    ],
)
def test_the_pages_look_as_they_did(
    request: pytest.FixtureRequest, name: str, language: Language, page: str
) -> None:
    if page == "pots":
        drawing = night_pages(a_night(), [], language=language)[2]
    elif page:
        drawing = night_pages(a_night(), [page], results=False, language=language)[0]
    else:
        drawing = night_pages(a_night(), language=language)[0]
    assert drawing.cut == ()
    image = Image.open(io.BytesIO(render_png(drawing)))
    path = GOLDEN / f"{name}.png"
    if request.config.getoption("--update-golden", default=False):
        image.save(path, optimize=True)
    assert_like_golden_sheet(image, path)


def test_the_pdf_has_a_page_for_each_drawing() -> None:
    pages = night_pages(a_night())
    pdf = render_pdf_pages(pages)
    assert pdf.startswith(b"%PDF")
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == len(pages)
    with pytest.raises(ValueError, match="no pages to print"):
        render_pdf_pages([])


def test_a_long_name_is_drawn_smaller_not_cut() -> None:
    night = a_night().night
    card = layout_card(
        scorecards(night)["Ann"],
        None,
        "The Red Lion and Royal Oak Free House at Little Snoring, Norfolk: winter league night 9",
    )
    assert card.cut == ()
