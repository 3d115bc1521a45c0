"""``pegboard sheet``: the paper score sheet as PNG (golden image), PDF (page size) and SVG."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from bisect import bisect
from datetime import UTC
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from PIL import Image

from pegboard.cli.main import main
from pegboard.cli.sheet import SheetCommandError, check_venue
from pegboard.engine.history import GameHistory, MatchHistory, replay_match
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules
from pegboard.errors import quote
from pegboard.journal import Journal
from pegboard.ui.sheet import Drawing, Line, Paper, Text, layout_sheet
from pegboard.ui.sheetfiles import render_png, render_svg
from tests.cli.helpers import assert_like_golden_sheet, cli
from tests.journal.games import SCRIPT, key_journal, scripted_journal
from tests.journal.games import cli as ok

GOLDEN = Path(__file__).parents[1] / "golden" / "sheet"
DOCS = Path(__file__).parents[2] / "docs" / "sheet-example.png"


def _scripted_png() -> bytes:
    """The scripted game's sheet, at fixed times in UTC (the golden image and the README's)."""
    times = [(text, f"2025-03-01T20:{i:02d}:00+00:00") for i, text in enumerate(SCRIPT)]
    match = replay_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE, times, match_id=1)
    drawing = layout_sheet(match.games[0], venue="The Red Lion", match=match, tz=UTC)
    return render_png(drawing)


def test_the_sheet_looks_as_it_did(request: pytest.FixtureRequest) -> None:
    """Compared with tests/golden/sheet/six-card.png, with a small tolerance for font rendering
    (``--update-golden`` rewrites it, and the README's docs/sheet-example.png)."""
    image = Image.open(io.BytesIO(_scripted_png()))
    path = GOLDEN / "six-card.png"
    if request.config.getoption("--update-golden", default=False):
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, optimize=True)
        image.save(DOCS, optimize=True)
    assert_like_golden_sheet(image, path)


def test_the_golden_check_fails_on_a_changed_sheet() -> None:
    """The tolerance is not blind: a sheet with another venue and score differs too much."""
    times = [(text, "2025-03-01T20:00:00+00:00") for text in SCRIPT[:-1]]
    times.append(("peg Ann 61", "2025-03-01T21:00:00+00:00"))
    match = replay_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE, times)
    other = Image.open(io.BytesIO(render_png(layout_sheet(match.games[0], venue="Elsewhere"))))
    with pytest.raises(AssertionError, match="pixels differ"):
        assert_like_golden_sheet(other, GOLDEN / "six-card.png")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return scripted_journal(tmp_path / "g.db")


def _media_box(pdf: bytes) -> tuple[float, float]:
    found = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    assert found is not None
    return float(found[1]), float(found[2])


@pytest.mark.parametrize(
    ("paper", "size"),
    [
        pytest.param("a4", (595.28, 841.89), id="a4"),
        pytest.param("letter", (612.0, 792.0), id="letter"),
    ],
)
def test_the_pdf_is_one_page_of_the_paper_size(
    db: Path, tmp_path: Path, paper: str, size: tuple[float, float]
) -> None:
    out = tmp_path / "sheet.pdf"
    ok("sheet", "--db", str(db), "--out", str(out), "--paper", paper)
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF-1.") and pdf.rstrip().endswith(b"%%EOF")
    assert pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") + pdf.count(b"/Type/Page") >= 1
    width, height = _media_box(pdf)
    assert abs(width - size[0]) < 1 and abs(height - size[1]) < 1


def test_the_svg_is_xml_of_a4_with_the_players_and_scores(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "sheet.svg"
    ok("sheet", "--db", str(db), "--out", str(out), "--venue", "Bar & <Grill>")
    root = ET.fromstring(out.read_text())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert (root.get("width"), root.get("height")) == ("210mm", "297mm")
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert {"Ann", "Bob", "Bar & <Grill>", "121", "30"} <= set(texts)
    assert "Ann wins 121 to 30 for 3 game points" in texts
    assert "Bob double-skunked (30)" in texts


def test_the_png_and_what_the_command_says(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sheet.PNG"
    status, said, err = cli(capsys, "sheet", "--db", str(db), "--out", str(out))
    assert status == 0 and err == ""
    assert said == f"wrote {str(out)!r}: match 1 game 1 (finished), Ann v Bob, 3 deals\n"
    with Image.open(out) as image:
        assert image.size == Paper.A4.pixels and image.format == "PNG"


def test_the_game_chosen(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ok("game", "new", "--players", "Cy,Di", "--db", str(db))
    ok("game", "do", "--db", str(db), "cut 9H 3C", "starter 5H")
    # the default is the last finished game: match 1's, though match 2 is being played
    _, said, _ = cli(capsys, "sheet", "--db", str(db), "--out", str(tmp_path / "a.svg"))
    assert "match 1 game 1 (finished), Ann v Bob" in said
    _, said, _ = cli(capsys, "sheet", "--db", str(db), "1", "--out", str(tmp_path / "b.svg"))
    assert said.endswith("match 2 game 1 (in progress), Cy v Di, 1 deal\n")  # one: singular
    _, said, _ = cli(
        capsys, "sheet", "--db", str(db), "1", "--out", str(tmp_path / "d.svg"), "--lang", "de"
    )
    assert said.endswith("Match 2 Spiel 1 (läuft noch), Cy gegen Di, 1 Runde\n")
    _, said, _ = cli(capsys, "sheet", "--db", str(db), "1:1", "--out", str(tmp_path / "c.svg"))
    assert "match 1 game 1 (finished)" in said


@pytest.mark.parametrize(
    ("game", "message"),
    [
        pytest.param("7", "no game 7 in match 1 (games: 1)", id="no-such-game"),
        pytest.param("9:1", "no match 9 in the journal (latest: 1)", id="no-such-match"),
        pytest.param(
            "last",
            "game 'last' is not a game (expected N for game N of the latest match, or "
            "MATCH:GAME as 'pegboard history' lists them, e.g. 3:2)",
            id="not-a-game",
        ),
    ],
)
def test_an_unknown_game_is_one_line(
    db: Path, tmp_path: Path, game: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s.png"
    status, said, err = cli(capsys, "sheet", "--db", str(db), game, "--out", str(out))
    assert (status, said, err) == (1, "", f"pegboard: error: {message}\n")
    assert not out.exists()


def test_an_unknown_suffix_and_an_existing_file_are_refused(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sheet.jpg"
    status, _, err = cli(capsys, "sheet", "--db", str(db), "--out", str(out))
    assert status == 1 and err == (
        f"pegboard: error: --out {quote(str(out))} has no known suffix "
        "(expected FILE.pdf, FILE.png or FILE.svg)\n"
    )
    mine = tmp_path / "mine.png"
    mine.write_bytes(b"my holiday picture")
    status, _, err = cli(capsys, "sheet", "--db", str(db), "--out", str(mine))
    assert status == 1 and err == (
        f"pegboard: error: --out {quote(str(mine))} exists; it was left as it is (add --force to "
        "replace it)\n"
    )
    assert mine.read_bytes() == b"my holiday picture"
    assert main(["sheet", "--db", str(db), "--out", str(mine), "--force"]) == 0
    assert mine.read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db", "mine.png"]


def test_the_sheet_only_reads_the_journal(db: Path, tmp_path: Path) -> None:
    before = db.read_bytes()
    ok("sheet", "--db", str(db), "--out", str(tmp_path / "s.svg"))
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db", "s.svg"]


def test_a_missing_journal_is_the_same_one_line_as_game_show(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.db"
    _, _, shown = cli(capsys, "game", "show", "--db", str(missing))
    status, _, err = cli(capsys, "sheet", "--db", str(missing), "--out", str(tmp_path / "s.pdf"))
    assert (status, err) == (1, shown)
    assert list(tmp_path.iterdir()) == []


def test_three_sides_and_a_long_game_fit_the_page() -> None:
    rules = Rules.three_handed()
    texts = ["cut 9H 3C 7D"]
    for _ in range(30):  # thirty deals pegged by hand, a point or two each
        texts += ["next", "peg Ann 1", "peg Bob 2", "peg Cy 1", "deal"]
    times = [(t, "2025-03-01T20:00:00+00:00") for t in texts]
    match = replay_match(rules, ("Ann", "Bob", "Cy"), MatchFormat.SINGLE, times)
    assert match.current is not None
    drawing = layout_sheet(match.current, paper=Paper.LETTER)
    width, height = Paper.LETTER.size
    for shape in drawing.shapes:
        x, y = (
            getattr(shape, "x", getattr(shape, "x1", 0)),
            getattr(shape, "y", getattr(shape, "y1", 0)),
        )
        assert 0 <= x <= width and 0 <= y <= height, shape
    assert "In progress: Ann 30, Bob 60, Cy 30" in render_svg(drawing)


@pytest.mark.parametrize(
    ("venue", "message"),
    [
        pytest.param(
            "\udcff",
            "--venue is not valid UTF-8: '\\udcff' (byte 0xFF at character 1 cannot be decoded; "
            "expected UTF-8 text)",
            id="undecodable-byte",
        ),
        pytest.param(
            "Red\x01Lion",
            "--venue 'Red\\x01Lion' cannot be printed: U+0001 at character 4 is a control "
            "character (expected one line of printable text, e.g. 'The Red Lion')",
            id="control-character",
        ),
        pytest.param(
            "Red\nLion",
            "--venue 'Red\\nLion' cannot be printed: U+000A at character 4 is a control "
            "character (expected one line of printable text, e.g. 'The Red Lion')",
            id="newline",
        ),
        pytest.param(
            "Red\u2028Lion",
            "--venue 'Red\\u2028Lion' cannot be printed: U+2028 at character 4 is not printable "
            "(expected one line of printable text, e.g. 'The Red Lion')",
            id="line-separator",
        ),
    ],
)
@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_a_venue_that_cannot_be_printed_is_one_line(
    db: Path,
    tmp_path: Path,
    venue: str,
    message: str,
    suffix: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / f"s{suffix}"
    status, said, err = cli(capsys, "sheet", "--db", str(db), "--out", str(out), "--venue", venue)
    assert (status, said, err) == (1, "", f"pegboard: error: {message}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"]


_NAME = st.text(
    st.characters(blacklist_categories=("Cs",)).filter(lambda ch: not ch.isspace() and ch != ","),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(venue=st.text(max_size=40), names=st.lists(_NAME, min_size=2, max_size=2))
def test_the_svg_is_xml_whatever_the_names_and_venue(venue: str, names: list[str]) -> None:
    """Every accepted venue and every name the game takes (control characters included: a name
    is one word, and U+0001 is no space) give an SVG that parses, the venue shown as it is."""
    assume(names[0].lower() != names[1].lower())
    try:
        check_venue(venue)
    except SheetCommandError:
        venue = "".join(ch for ch in venue if ch.isprintable()) or "The Red Lion"
        check_venue(venue)
    times = [(text, "2025-03-01T20:00:00+00:00") for text in SCRIPT[:2]]
    match = replay_match(Rules.six_card(), tuple(names), MatchFormat.SINGLE, times)
    assert match.current is not None
    svg = render_svg(layout_sheet(match.current, venue=venue, match=match))
    root = ET.fromstring(svg.encode("utf-8"))
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert venue == "" or venue in texts  # 40 letters fit the header uncut


def _four_handed(names: tuple[str, str]) -> tuple[MatchHistory, GameHistory]:
    """A four-handed game of *names* (partnerships), a deal pegged by hand, finished."""
    b = names[1]
    texts = ["cut 5H 3C", "next", f"peg {b} 61", f"peg {b} 60"]
    times = [(t, "2025-03-01T20:00:00+00:00") for t in texts]
    match = replay_match(Rules.four_handed(), names, MatchFormat.SINGLE, times, match_id=1)
    return match, match.games[0]


@pytest.mark.parametrize(
    "names",
    [
        pytest.param(("Ann+Cat", "Bob+Dan"), id="partners"),
        pytest.param(("Annabel+Catriona", "Bartholomew+Dan"), id="long-partners"),
    ],
)
def test_four_handed_names_are_not_cut_off(names: tuple[str, str]) -> None:
    """The players' boxes, the dealer's column and the hole columns hold every name and seat
    whole: smaller where they must be, never ending in "…"."""
    match, game = _four_handed(names)
    drawing = layout_sheet(game, match=match, tz=UTC)
    texts = [s.text for s in drawing.shapes if isinstance(s, Text)]
    assert drawing.cut == () and not any("…" in text for text in texts)
    for side, name in enumerate(names):
        # the player's box, the deals table, and the narrow hole column (whole, or wrapped
        # after the "+" when long)
        first, plus, rest = name.partition("+")
        wrapped = first + plus in texts and rest in texts
        assert texts.count(name) == (2 if wrapped else 3)
        seats = ", ".join(game.seat_names[s] for s in game.rules.teams[side])
        assert f"PLAYER {side + 1} · {seats}" in texts
    assert game.seat_names[game.deals[0].dealer] in texts


def test_a_name_too_long_for_any_size_is_cut_and_said_so() -> None:
    """The check above can fail: a name that does not fit even small is listed in ``cut``."""
    long = "Bartholomew" * 4
    match, game = _four_handed(("Ann+Cat", long))
    drawing = layout_sheet(game, match=match, tz=UTC)
    assert long in drawing.cut
    assert any(s.text.endswith("…") for s in drawing.shapes if isinstance(s, Text))


# --- every cell of the sheet, against the game -------------------------------------------------


def _rows(drawing: Drawing) -> list[dict[str, str]]:
    """The deals table as drawn: a dict a row, column ("deal", "dealer", "play0", "hand0",
    "crib0", "score0", "play1", ...) to text, the totals row last. The table's vertical lines
    split it into columns; each text is drawn inside its column (at its left, middle or right),
    and the column is named by the header drawn inside it."""
    texts = [s for s in drawing.shapes if isinstance(s, Text)]
    heads = sorted((t for t in texts if t.text in _PARTS), key=lambda t: t.x)
    total = next(t for t in texts if t.text == "Total")
    right = heads[-1].x + 40  # the hole columns begin further right
    edges = sorted(
        {s.x1 for s in drawing.shapes if isinstance(s, Line) and s.x1 == s.x2 and s.x1 < right}
    )
    names = {bisect(edges, next(t for t in texts if t.text == w).x): w.lower() for w in _LEFT}
    names |= {bisect(edges, h.x): f"{h.text}{n // 4}" for n, h in enumerate(heads)}
    assert len(names) == 2 + len(heads), "one header a column"
    rows: dict[float, dict[str, str]] = {}
    for text in texts:
        if heads[0].y < text.y <= total.y and text.x <= right:
            column = names[bisect(edges, text.x)]
            assert column not in rows.get(text.y, {}), text  # one text a cell
            rows.setdefault(text.y, {})[column] = text.text
    return [rows[y] for y in sorted(rows)]


_PARTS = ("play", "hand", "crib", "score")
_LEFT = ("Deal", "Dealer")


def _marks(drawing: Drawing, names: tuple[str, ...]) -> list[list[tuple[str, str]]]:
    """Each side's hole column's marks, top down: (score, "dN") for the score after deal N."""
    texts = [s for s in drawing.shapes if isinstance(s, Text)]
    heads = [t for t in texts if re.fullmatch(r"Player \d", t.text)]
    marks: list[list[tuple[float, str, str]]] = [[] for _ in names]
    for deal in (t for t in texts if re.fullmatch(r"d\d+", t.text)):
        side = min(range(len(heads)), key=lambda n: abs(heads[n].x - deal.x))
        score = max(
            (t for t in texts if t.y == deal.y and t.bold and t.x < deal.x), key=lambda t: t.x
        )
        marks[side].append((deal.y, score.text, deal.text))
    return [[(score, deal) for _, score, deal in sorted(side)] for side in marks]


def _lines(drawing: Drawing) -> list[str]:
    return [s.text for s in drawing.shapes if isinstance(s, Text)]


# deal, dealer, then per side: play (its pegs), hand, crib, score after the deal. Worked out by
# hand from the key file's comments (tests/keys/six-card-lurch.keys), not from the program:
# * pegged by hand or counted by the table, h his heels. Deal 3's pegs by hand (the keypad's
# peg mode: points and a side, no part) come in the play, so they are listed as its pegs, in
# order; its hands and crib were never counted, so those cells stay blank.
LURCH_DEALS = [
    ("1", "Bob", ("1 4 1", "5", "", "11"), ("3 1", "14", "7", "25")),
    ("2", "Ann", ("1 1", "20", "9", "42"), ("3", "12", "", "40")),
    ("3", "Bob", ("3* 20*", "", "", "65"), ("2h 8* 15*", "", "", "65")),
    ("4", "Ann", ("4*", "24*", "28*", "121"), ("2*", "6*", "", "73")),
]

# The four-handed game of FOUR_HANDED below, by hand: the show pegs each seat's hand to its
# side (two hands a side) and the table counted them (show POINTS: *).
FOUR_DEALS = [
    ("1", "Bob+Dan1", ("3*", "18*", "", "21"), ("2*", "10*", "12*", "24")),
    ("2", "Ann+Cat2", ("2h 1*", "36*", "9*", "69"), ("5*", "19*", "", "48")),
    ("3", "Bob+Dan2", ("20*", "36*", "", "125"), ("2*", "2*", "", "52")),
]
FOUR_HANDED = (
    "cut 5H 3C",  # Bob+Dan's 3 is lower: Bob+Dan1 deals; the show: Ann+Cat2, Bob+Dan2, ...
    *("starter 7H", "peg Ann+Cat 3", "peg Bob+Dan 2", "next"),
    *("show 8", "show 6", "show 10", "show 4", "crib 12"),  # Ann+Cat 21, Bob+Dan 24
    *("starter JS", "peg Bob+Dan 5", "peg Ann+Cat 1 go", "next"),  # heels: 2 to Ann+Cat
    *("show 12", "show 16", "show 7", "show 20", "crib 9"),  # Ann+Cat 69, Bob+Dan 48
    *("starter 2C", "peg Ann+Cat 20", "peg Bob+Dan 2", "next"),
    *("show 24", "show 2", "show 12"),  # Ann+Cat 125: out, Bob+Dan 52 (double skunk)
)


def _expected_rows(
    deals: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]], totals: tuple[str, str]
) -> list[dict[str, str]]:
    rows = []
    for number, dealer, *sides in deals:
        row = {"deal": number, "dealer": dealer}
        for side, cells in enumerate(sides):
            row |= {f"{part}{side}": cell for part, cell in zip(_PARTS, cells, strict=True) if cell}
        rows.append(row)
    rows.append({"deal": "Total", "score0": totals[0], "score1": totals[1]})
    return rows


def test_every_cell_of_the_lurch_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key file's game: each deal's pegs, hand, crib and running score per side, the
    totals, the hole columns, the winner and the lurch, as its comments work them out."""
    with Journal(key_journal("six-card-lurch", tmp_path, monkeypatch), readonly=True) as store:
        (match,) = store.history()
    drawing = layout_sheet(match.games[0], match=match, tz=UTC)
    assert _rows(drawing) == _expected_rows(LURCH_DEALS, ("121", "73"))
    assert _marks(drawing, ("Ann", "Bob")) == [
        [("11", "d1"), ("42", "d2"), ("65", "d3"), ("121", "d4")],
        [("25", "d1"), ("40", "d2"), ("65", "d3"), ("73", "d4")],
    ]
    lines = _lines(drawing)
    assert "Ann wins 121 to 73 for 2 game points" in lines and "Bob lurched (73)" in lines


def test_every_cell_of_a_four_handed_game() -> None:
    times = [(t, f"2025-03-01T20:{i:02d}:00+00:00") for i, t in enumerate(FOUR_HANDED)]
    names = ("Ann+Cat", "Bob+Dan")
    match = replay_match(Rules.four_handed(), names, MatchFormat.SINGLE, times, match_id=1)
    drawing = layout_sheet(match.games[0], match=match, tz=UTC)
    assert _rows(drawing) == _expected_rows(FOUR_DEALS, ("125", "52"))
    assert _marks(drawing, names) == [
        [("21", "d1"), ("69", "d2"), ("125", "d3")],
        [("24", "d1"), ("48", "d2"), ("52", "d3")],
    ]
    lines = _lines(drawing)
    assert "Ann+Cat wins 125 to 52 for 3 game points" in lines
    assert "Bob+Dan double-skunked (52)" in lines


def test_the_cell_check_sees_a_changed_peg() -> None:
    """One peg changed by a point moves two cells: the check above fails on it (the golden
    image's tolerance would not)."""
    script = list(FOUR_HANDED)
    script[script.index("peg Bob+Dan 5")] = "peg Bob+Dan 4"
    times = [(t, f"2025-03-01T20:{i:02d}:00+00:00") for i, t in enumerate(script)]
    names = ("Ann+Cat", "Bob+Dan")
    match = replay_match(Rules.four_handed(), names, MatchFormat.SINGLE, times, match_id=1)
    rows = _rows(layout_sheet(match.games[0], match=match, tz=UTC))
    expected = _expected_rows(FOUR_DEALS, ("125", "52"))
    assert rows != expected
    assert [k for k in expected[1] if rows[1].get(k) != expected[1][k]] == ["play1", "score1"]


def test_hole_column_labels_sit_by_their_marks_when_deals_are_many() -> None:
    # 61 deals of one point for Ann: labels pushed apart used to drift 30 holes from their marks
    deal = ["next", "peg Ann 1", "next", "next", "next", "next"]
    commands = ["cut 9H 3C", *deal * 61]
    times = [(text, "2025-03-01T20:00:00+00:00") for text in commands]
    match = replay_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE, times)
    game = match.current if match.current is not None else match.games[-1]
    drawing = layout_sheet(game)
    ticks = sorted({s.y1 for s in drawing.shapes if isinstance(s, Line) and s.width == 1.6})
    assert len(ticks) == 61  # one mark for each score 1..61, in order down the column
    hole = ticks[1] - ticks[0]
    labels = sorted(
        (s.y, int(s.text))
        for s in drawing.shapes
        if isinstance(s, Text) and s.bold and s.size == 7 and s.text.isdigit()
    )
    assert labels[-1][1] == 61  # the score reached last is always labelled
    assert len(labels) >= 20  # thinned, not emptied
    for y, score in labels:
        assert abs(y - 2.4 - ticks[score - 1]) <= 2 * hole, (score, y)
    gaps = [b[0] - a[0] for a, b in pairwise(labels)]
    assert min(gaps) >= 7  # and no two labels overlap


def test_a_pegs_typed_reason_puts_it_in_that_column() -> None:
    """``peg Ann 3 hand`` is the hand's, ``peg Bob 4 crib`` the crib's (the dealer's), heels and
    go the play's, each still marked * (by hand); a reason naming no part, or the crib for the
    pone, who has none, leaves the peg where the game put it (in the play, here)."""
    commands = ["cut 9H 3C", "next"]  # Bob deals; no starter: the table pegs by hand
    commands += ["peg Ann 1 go", "peg Ann 3 hand", "peg Bob 5 Hand", "peg Bob 4 crib"]
    commands += ["peg Ann 2 his heels", "peg Bob 1 catch up", "peg Ann 6 crib"]
    times = [(t, "2025-03-01T20:00:00+00:00") for t in commands]
    match = replay_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE, times)
    assert match.current is not None
    rows = _rows(layout_sheet(match.current, tz=UTC))
    assert rows[0] == {
        "deal": "1",
        "dealer": "Bob",
        **{"play0": "1* 2* 6*", "hand0": "3*", "score0": "12"},
        **{"play1": "1*", "hand1": "5*", "crib1": "4*", "score1": "10"},
    }
