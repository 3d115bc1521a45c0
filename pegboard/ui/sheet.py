"""A game's score sheet, laid out like a paper cribbage score sheet, as PNG, PDF or SVG.

Theory of operation
-------------------
``layout_sheet`` is pure: it turns a ``GameHistory`` into a ``Drawing``, a page of simple shapes
(``sheetshapes``: lines, boxes, dots, text with an anchor) measured in points (1/72 inch) on A4
or US letter. Two small renderers in ``sheetfiles.py`` draw the same shapes: ``render_png`` and
``render_pdf`` with Pillow (``ImageDraw`` at 150 dpi in greyscale; Pillow writes the PDF page at
that resolution, so the page is exactly the paper's size) and ``render_svg`` as text. Nothing is
measured by a renderer, so both agree: text is placed by its anchor (left, middle or right of
its baseline) and kept short enough by the layout, which measures it with the metrics of the
font the PNG and PDF draw it in (``sheetfiles.text_width``; a capital W is five times an i, so
no average width will do): a name or a line too wide for its place is first drawn smaller
(``_Page.shrink``, down to a least size), and cut with "…" only when it still does not fit
(``_Page.fit``); the drawing lists what was cut (``Drawing.cut``). A column's header in the
deals table that is too wide even at its least size (three sides' narrow hand and crib) is its
initial instead, and a line below the legend says so ("H = hand, C = crib").

The page follows the tournament sheet at the end of the German rules document (the
"Cribbage Zählbogen"): the tournament or venue and the date, player 1 and player 2, for each a
column of holes in fives up to the target with the score after every deal marked, and the
points. Beside the columns a table gives every deal: who dealt, and for each side what the
play, the hand and the crib pegged (the pegs of the play one by one where they are known) and
the score after it. At the foot: the totals, the winner, game points, lurch or double skunk,
the match so far, and lines to sign.

The sheet speaks the language it is given: German in the words of the German document's
"Cribbage Zählbogen" (Turnier, Datum, Spieler 1, Spieler 2, Punkte) and of its rules (Geber,
Krippe, Schneider).

The text font is Pillow's own scalable default (Aileron, in Pillow 10.1 and later), so the
sheet looks the same on every machine; the SVG names it first, then common sans-serif fonts.
Aileron draws ASCII only: a text with other letters (German's ä, ö, ü, ß, a name like "Zoë") is
drawn in DejaVu Sans where the system has it, else spelled as German writes without umlauts
("Zaehlbogen").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, tzinfo

from pegboard.engine.history import GameHistory, MatchHistory
from pegboard.engine.rules import Lurch
from pegboard.i18n import NC_, Language, Translator, translator
from pegboard.i18n.values import value_words
from pegboard.ui.sheetcells import deal_cells
from pegboard.ui.sheetshapes import (
    BLACK,
    DARK,
    DPI,
    LIGHT,
    MID,
    PALE,
    WHITE,
    Dot,
    Drawing,
    Line,
    Paper,
    Rect,
    Shape,
    Text,
)

__all__ = [
    "DPI",
    "Drawing",
    "Line",
    "Paper",
    "Rect",
    "Text",
    "layout_sheet",
]

# --- layout ------------------------------------------------------------------------------------


LABEL_GAP = 7.5
"""The least distance, in points, between two score labels of a hole column: closer ones would
overlap, so the earlier is left out."""

Measure = Callable[[str, float, bool], float]
"""The width in points of a text at a size in points, bold or not: the font's own metrics
(``sheetfiles.text_width``, the font the PNG and PDF draw with)."""


def _fit(text: str, size: float, width: float, measure: Measure, bold: bool = False) -> str:
    """*text* cut (ending in "…") to *width* points at *size*.

    >>> mono: Measure = lambda text, size, bold: len(text) * size * 0.5
    >>> _fit("Ann+Cat", 10, 30, mono), _fit("Ann", 10, 30, mono)
    ('Ann+C…', 'Ann')
    """
    if measure(text, size, bold) <= width:
        return text
    cut = len(text)
    while cut > 0 and measure(text[:cut] + "…", size, bold) > width:
        cut -= 1
    return text[:cut] + "…"


def _shrunk(
    text: str, size: float, width: float, least: float, measure: Measure, bold: bool = False
) -> float:
    """The size, from *size* down to *least* in steps of a tenth, at which *text* fits *width*
    points.

    >>> mono: Measure = lambda text, size, bold: len(text) * size * 0.5
    >>> _shrunk("Bob+Dan1", 9, 30, 6, mono), _shrunk("Bob", 9, 30, 6, mono)
    (7.5, 9)
    >>> _shrunk("x" * 99, 9, 38, 6, mono)
    6
    """
    if not text or measure(text, size, bold) <= width:
        return size
    # the width grows about as the size: start near the answer, then step down to it
    tenths = min(int(size * 10), int(size * width / measure(text, size, bold) * 10) + 1)
    while tenths > least * 10 and measure(text, tenths / 10, bold) > width:
        tenths -= 1
    return max(least, tenths / 10)


def _local(stamp: str | None, tz: tzinfo | None) -> datetime | None:
    return None if stamp is None else datetime.fromisoformat(stamp).astimezone(tz)


@dataclass
class _Page:
    """Shapes being laid out, and how their text is measured."""

    measure: Measure
    shapes: list[Shape] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)

    def line(self, x1: float, y1: float, x2: float, y2: float, **kw: float) -> None:
        self.shapes.append(Line(x1, y1, x2, y2, **kw))  # type: ignore[arg-type]

    def rect(self, x: float, y: float, w: float, h: float, **kw: float | None) -> None:
        self.shapes.append(Rect(x, y, w, h, **kw))  # type: ignore[arg-type]

    def text(self, x: float, y: float, text: str, size: float, **kw: object) -> None:
        if text:
            self.shapes.append(Text(x, y, text, size, **kw))  # type: ignore[arg-type]

    def width(self, text: str, size: float, bold: bool = False) -> float:
        """*text*'s width in points at *size*."""
        return self.measure(text, size, bold)

    def fit(self, text: str, size: float, width: float, bold: bool = False) -> str:
        """*text* cut to *width* points at *size* (``_fit``), noted in ``cut`` if it was."""
        shown = _fit(text, size, width, self.measure, bold)
        if shown != text:
            self.cut.append(text)
        return shown

    def shrink(
        self, text: str, size: float, width: float, least: float, bold: bool = False
    ) -> tuple[str, float]:
        """*text* and the size to draw it at: smaller down to *least* to fit *width* points,
        and only then cut (``fit``)."""
        size = _shrunk(text, size, width, least, self.measure, bold)
        return self.fit(text, size, width, bold), size


def layout_sheet(
    game: GameHistory,
    *,
    venue: str = "",
    paper: Paper = Paper.A4,
    match: MatchHistory | None = None,
    tz: tzinfo | None = None,
    language: Language = Language.ENGLISH,
    measure: Measure | None = None,
) -> Drawing:
    """The score sheet of *game* as a page of shapes, its words in *language*.

    *venue* is printed in the header (empty: a line to fill in by hand); *match* adds the
    match's format and standing; times are shown in *tz* (None: this machine's local time).
    Text is measured with *measure* (None: the metrics of the font the PNG and PDF draw with,
    ``sheetfiles.text_width``).
    """
    if measure is None:
        from .sheetfiles import text_width  # the fonts' metrics live with the fonts

        measure = text_width
    tr = translator(language)
    t = tr.gettext
    page = _Page(measure)
    width, height = paper.size
    margin = 36.0
    left, right = margin, width - margin
    inner = right - left
    names = game.names
    sides = len(names)
    rules = game.rules

    # --- title and header: venue, date, game ---------------------------------------------
    y = margin + 20
    page.text(left, y, t("Cribbage score sheet"), 20, bold=True)
    page.text(right, y, "pegboard", 9, align="r", grey=MID)
    y += 12
    page.line(left, y, right, y, width=1.2)
    when = _local(game.finished or game.started, tz)
    date = when.strftime("%Y-%m-%d") if when else ""
    header = y + 8
    page.rect(left, header, inner, 52, outline=BLACK, width=0.8)
    split = left + inner * 0.62
    page.line(split, header, split, header + 52)
    page.line(left, header + 26, right, header + 26, grey=LIGHT)
    page.text(left + 6, header + 9, t("TOURNAMENT / VENUE"), 6.5, grey=MID)
    page.text(left + 6, header + 21, *page.shrink(venue, 11, split - left - 12, 8))
    page.text(split + 6, header + 9, t("DATE"), 6.5, grey=MID)
    page.text(split + 6, header + 21, date, 11)
    fmt = f", {value_words(tr, match.format.value)}" if match is not None else ""
    page.text(left + 6, header + 35, t("GAME"), 6.5, grey=MID)
    which = t("match {match}, game {game}{format} · {variant} to {target}").format(
        match=game.match_id,
        game=game.game,
        format=fmt,
        variant=value_words(tr, rules.variant.value),
        target=rules.target,
    )
    page.text(left + 6, header + 47, *page.shrink(which, 10, split - left - 12, 7))
    times = ""
    start = _local(game.started, tz)
    end = _local(game.finished, tz)
    if start is not None:
        times = (
            f"{start:%H:%M} - {end:%H:%M}"
            if end is not None
            else t("from {time}").format(time=f"{start:%H:%M}")
        )
    page.text(split + 6, header + 35, t("TIME"), 6.5, grey=MID)
    page.text(split + 6, header + 47, times, 10)

    # --- the players ----------------------------------------------------------------------
    y = header + 52 + 10
    box = inner / sides
    for side, name in enumerate(names):
        x = left + side * box
        page.rect(x, y, box - (0 if side == sides - 1 else 6), 30, width=0.8)
        label = t("PLAYER {n}").format(n=side + 1)
        seats = rules.teams[side]
        if len(seats) > 1:  # a partnership's seats go on the small line, its name stays large
            label += f" · {', '.join(game.seat_names[s] for s in seats)}"
        page.text(x + 6, y + 9, *page.shrink(label, 6.5, box - 20, 5), grey=MID)
        first = t(" · deals first") if rules.side_of(game.first_dealer) == side else ""
        first = first.strip(" ·")
        room = box - 26 - (page.width(first, 7) + 8 if first else 0)
        page.text(x + 6, y + 24, *page.shrink(name, 13, room, 8, bold=True), bold=True)
        page.text(x + box - 14, y + 24, first, 7, align="r", grey=MID)
    y += 30 + 12

    # --- the hole columns and the deals table ---------------------------------------------
    foot = height - margin - 118
    top, bottom = y, foot
    column = 44.0 if sides == 2 else 36.0
    holes_w = sides * (column + 28)
    table_right = right - holes_w - 8
    shortened = _deals_table(page, game, left, table_right, top, bottom, tr)
    for side in range(sides):
        x = table_right + 8 + side * (column + 28) + 22
        _hole_column(page, game, side, x, column, top, bottom, tr)

    # --- totals -----------------------------------------------------------------------------
    _totals(page, game, match, left, right, foot + 10, tr)
    legend = t(
        "Pegs: * pegged by hand or counted by the table · h his heels · m muggins · "
        "b three for last. Play: each peg in order; hand, crib: their points."
    )
    page.text(left, height - margin + 6, *page.shrink(legend, 6.5, inner, 5), grey=MID)
    # a header too wide for its column is its initial; the line below the legend says so
    key = ", ".join(f"{short} = {word}" for short, word in shortened)
    page.text(left, height - margin + 14, *page.shrink(key, 6.5, inner, 5), grey=MID)
    title = t("{sides}, match {match} game {game}").format(
        sides=tr.pgettext("sides", " v ").join(names), match=game.match_id, game=game.game
    )
    return Drawing(paper, tuple(page.shapes), title, tuple(page.cut))


def _deals_table(
    page: _Page,
    game: GameHistory,
    left: float,
    right: float,
    top: float,
    bottom: float,
    tr: Translator,
) -> list[tuple[str, str]]:
    """The table of deals between *left* and *right*; returns each column header that had to be
    shortened to its initial, with its word: [("H", "hand"), ("C", "crib")]."""
    names = game.names
    sides = len(names)
    deals = game.deals
    head = 30.0
    room = bottom - top - head - 22
    rows = max(len(deals), int(room / 20))  # blank rows below, as on a paper sheet
    row = min(20.0, room / rows)
    size = min(9.0, row * 0.5)
    deal_label = tr.gettext("Deal")
    # the deal number's column is as wide as its header needs ("Runde" is wider than "Deal"),
    # with room on both sides: the header's width and 3 points a side
    deal_w = max(22.0, page.width(deal_label, 7, True) + 6)
    # the dealer's column fits the longest dealer's name ("Bob+Dan1"), within bounds: a longer
    # one is drawn smaller
    longest = max((page.width(game.seat_names[d.dealer], size) for d in deals), default=0.0)
    dealer_w = min(72.0, max(44.0, longest + 10))
    group = (right - left - deal_w - dealer_w) / sides
    parts = (0.46, 0.16, 0.16, 0.22)  # play, hand, crib, score
    page.rect(left, top, right - left, head, fill=PALE, outline=None)
    page.text(left + deal_w / 2, top + 19, deal_label, 7, align="m", bold=True)
    shortened: list[tuple[str, str]] = []
    page.text(left + deal_w + 4, top + 19, tr.gettext("Dealer"), 7, bold=True)
    for side, name in enumerate(names):
        x = left + deal_w + dealer_w + side * group
        page.text(
            x + group / 2,
            top + 11,
            *page.shrink(name, 8, group - 6, 6, bold=True),
            align="m",
            bold=True,
        )
        offs = x
        for label, share in zip(_COLUMNS, parts, strict=True):
            word, room = tr.pgettext("sheet", label), group * share - 4
            small = _shrunk(word, 6.5, room, HEADER_LEAST, page.measure)
            shown = word
            if page.width(word, small) > room:
                shown = word[0].upper()
                if (shown, word) not in shortened:
                    shortened.append((shown, word))
                small = _shrunk(shown, 6.5, room, HEADER_LEAST, page.measure)
            page.text(
                offs + group * share / 2,
                top + 25,
                page.fit(shown, small, room),
                small,
                align="m",
                grey=DARK,
            )
            offs += group * share
    y = top + head
    for index in range(rows):
        if index % 2:
            page.rect(left, y, right - left, row, fill=PALE, outline=None)
        if index < len(deals):
            deal = deals[index]
            base = y + row * 0.68
            page.text(left + deal_w / 2, base, str(deal.number), size, align="m")
            dealer = game.seat_names[deal.dealer]
            page.text(left + deal_w + 4, base, *page.shrink(dealer, size, dealer_w - 6, 5.5))
            for side in range(sides):
                x = left + deal_w + dealer_w + side * group
                cells = (*deal_cells(deal, side), str(deal.scores[side]))
                offs = x
                for n, (cell, share) in enumerate(zip(cells, parts, strict=True)):
                    w = group * share
                    if n == 0:
                        shown = cell if page.width(cell, size) <= w - 6 else _play_sum(cell, tr)
                        page.text(offs + 3, base, page.fit(shown, size, w - 6), size, grey=DARK)
                    elif n == 3:  # three digits in three sides' narrow column: smaller
                        fitted = page.shrink(cell, size, w - 6, 5.5, bold=True)
                        page.text(offs + w - 4, base, *fitted, align="r", bold=True)
                    else:
                        page.text(offs + w / 2, base, cell, size, align="m", grey=DARK)
                    offs += w
        y += row
    # the grid: group borders, then the totals row
    page.rect(left, top, right - left, y - top, width=0.8)
    page.line(left + deal_w, top, left + deal_w, y, grey=LIGHT)
    for side in range(sides):
        x = left + deal_w + dealer_w + side * group
        page.line(x, top, x, y + 20, width=0.8 if side else 0.6)
        offs = x
        for share in parts[:-1]:
            offs += group * share
            page.line(offs, top + 16, offs, y, grey=LIGHT)
    page.line(left, top + head, right, top + head, width=0.8)
    page.rect(left, y, right - left, 20, width=0.8)
    page.text(left + 4, y + 14, tr.gettext("Total"), 8, bold=True)
    for side in range(sides):
        x = left + deal_w + dealer_w + (side + 1) * group
        page.text(x - 4, y + 14, str(game.scores[side]), 10, align="r", bold=True)
    return shortened


HEADER_LEAST = 5.5
"""The least size, in points, of a column's header in the deals table; a header that does not
fit even so is its initial ("H" for hand), and the line below the legend says so."""

_COLUMNS = (NC_("sheet", "play"), NC_("sheet", "hand"), NC_("sheet", "crib"), NC_("sheet", "score"))
"""Each side's columns in the deals table."""


def _play_sum(cell: str, tr: Translator) -> str:
    """A play cell too long to list: the sum, marked if any peg was by hand."""
    total = sum(int("".join(ch for ch in word if ch.isdigit())) for word in cell.split())
    said = tr.gettext("{total} ({pegs} pegs)")
    return said.format(total=f"{total}{'*' if '*' in cell else ''}", pegs=len(cell.split()))


def _hole_column(
    page: _Page,
    game: GameHistory,
    side: int,
    x: float,
    w: float,
    top: float,
    bottom: float,
    tr: Translator,
) -> None:
    """A column of holes in fives from the start to the target, the score after every deal
    marked with its deal number, as on a paper score sheet."""
    target = game.rules.target
    cells = (target - 1) // 5 + 1  # 5, 10, ..., 120 and the last hole (121)
    head = 30.0
    cell_h = (bottom - top - head) / cells
    page.rect(x, top, w, head, fill=PALE, outline=BLACK, width=0.8)
    player = tr.gettext("Player {n}").format(n=side + 1)
    name = game.names[side]
    first, plus, rest = name.partition("+")
    if plus and _shrunk(name, 8, w - 4, 5, page.measure, True) < 6.5:
        # a partnership too long for the narrow column: wrapped after its "+", as written
        page.text(x + w / 2, top + 9, *page.shrink(player, 6.5, w - 4, 5), align="m", grey=DARK)
        size = min(_shrunk(line, 7, w - 4, 5, page.measure, True) for line in (first + plus, rest))
        for line, base in ((first + plus, 18.5), (rest, 27.0)):
            shown = page.fit(line, size, w - 4, bold=True)
            page.text(x + w / 2, top + base, shown, size, align="m", bold=True)
    else:
        page.text(x + w / 2, top + 12, *page.shrink(player, 6.5, w - 4, 5), align="m", grey=DARK)
        page.text(
            x + w / 2, top + 24, *page.shrink(name, 8, w - 4, 5, bold=True), align="m", bold=True
        )
    y0 = top + head
    for cell in range(cells):
        y = y0 + cell * cell_h
        hole = min((cell + 1) * 5, target)
        page.rect(x, y, w, cell_h, outline=LIGHT, width=0.5)
        # each cell is five holes, the fifth on its lower edge; the last is the target alone
        page.text(x - 3, y + cell_h - 1, str(hole), 6.5, align="r", grey=MID)
        if hole % 5 == 0:
            for dot in range(1, 5):
                page.shapes.append(Dot(x + 5, y + cell_h * dot / 5, 0.7, grey=LIGHT))
    page.rect(x, y0, w, cells * cell_h, outline=BLACK, width=0.8)
    # the score after each deal: a tick at its place, and beside it the score and the deal's
    # number. The latest label sits by its tick; an earlier one too close to the label below
    # it moves up, at most two holes, joined to its tick by a short line (two scores a hole
    # apart both show). Where even that would overlap (many small deals) a label is left out,
    # the latest kept first, so the score reached last always shows. Each is drawn on white,
    # so no grid line strikes through it; a score and its deal's tag too wide for the column
    # (three sides, "105" after deal 11) are drawn smaller to fit
    deal_mark = tr.gettext("d{deal}")  # "d3": the score after deal 3
    reached: dict[int, int] = {}  # each score and the first deal that reached it
    for deal in game.deals:
        if deal.scores[side] > 0:
            reached.setdefault(deal.scores[side], deal.number)
    for score in reached:
        place = _hole_y(score, target, y0, cell_h)
        page.line(x + 1, place, x + 13, place, width=1.6)
    above = math.inf  # the highest label drawn so far (the page's y grows downward)
    for score, number in sorted(reached.items(), reverse=True):
        place = _hole_y(score, target, y0, cell_h)
        at = min(place, above - LABEL_GAP)
        if place - at > 2 * cell_h / 5 or at - 3.4 < y0:
            continue
        if at < place:  # moved up: a line from the tick's end to the label
            page.line(x + 13, place, x + 15, at, width=0.6)
        page.rect(x + 14.5, at - 3.4, w - 15.5, 6.8, fill=WHITE, outline=None)
        shown, mark = str(score), deal_mark.format(deal=number)
        room = w - 19 - 1.5  # from x + 16 to x + w - 3, a gap between score and tag
        score_size, mark_size = 7.0, 5.5  # the tag gives way first, down to 4.5 points
        while page.width(shown, score_size, True) + page.width(mark, mark_size) > room:
            if mark_size > 4.5:
                mark_size -= 0.25
            elif score_size > 5:
                score_size -= 0.25
            else:
                break
        page.text(x + 16, at + 2.4, shown, score_size, bold=True)
        page.text(x + w - 3, at + 2.4, mark, mark_size, align="r", grey=DARK)
        above = at


def _hole_y(score: int, target: int, y0: float, cell_h: float) -> float:
    """Where hole *score* is in a column of cells of five holes (the target has its own).

    >>> _hole_y(5, 121, 0, 10), _hole_y(7, 121, 0, 10), _hole_y(121, 121, 0, 10)
    (10.0, 14.0, 245.0)
    """
    if score >= target:
        return y0 + ((target - 1) // 5) * cell_h + cell_h / 2
    return y0 + score / 5 * cell_h


def _totals(
    page: _Page,
    game: GameHistory,
    match: MatchHistory | None,
    left: float,
    right: float,
    y: float,
    tr: Translator,
) -> None:
    t = tr.gettext
    names = game.names
    result = game.result
    inner = right - left
    page.rect(left, y, inner, 64, width=0.8)
    page.text(left + 6, y + 10, t("RESULT"), 6.5, grey=MID)
    if result is None:
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, game.scores, strict=True))
        running = t("In progress: {scores}").format(scores=scores)
        page.text(left + 6, y + 28, *page.shrink(running, 12, inner - 12, 8, bold=True), bold=True)
    else:
        winner = names[result.winner]
        worth = ""
        if result.game_points is not None:
            points = result.game_points
            worth = tr.ngettext(" for {n} game point", " for {n} game points", points)
            worth = worth.format(n=points)
        scores = tr.pgettext("score", " to ").join(
            str(s) for s in sorted(result.scores, reverse=True)
        )
        won = t("{name} wins {scores}{worth}").format(name=winner, scores=scores, worth=worth)
        page.text(left + 6, y + 28, *page.shrink(won, 13, inner - 12, 8, bold=True), bold=True)
        lurched = [
            (
                t("{name} double-skunked ({score})")
                if lurch is Lurch.DOUBLE_SKUNKED
                else t("{name} lurched ({score})")
            ).format(name=names[side], score=result.scores[side])
            for side, lurch in enumerate(result.lurches)
            if lurch is not Lurch.NONE
        ]
        page.text(left + 6, y + 42, "; ".join(lurched) or t("no lurch"), 9, grey=DARK)
    if match is not None:
        standing = _match_line(match, game, tr)
        page.text(left + 6, y + 56, *page.shrink(standing, 8, inner - 12, 6), grey=DARK)
    # lines to sign, as a tournament sheet has
    sign = y + 64 + 30
    each = inner / len(names)
    for side, name in enumerate(names):
        x = left + side * each
        page.line(x, sign, x + each - 24, sign, grey=DARK)
        signed = t("signed: {name}").format(name=name)
        page.text(x, sign + 9, *page.shrink(signed, 7, each - 24, 5.5), grey=MID)


def _match_line(match: MatchHistory, game: GameHistory, tr: Translator) -> str:
    """The match after this game: game points (or games) per side, and who won it if over."""
    upto = [g for g in match.games if g.game <= game.game]
    won = [
        sum(1 for g in upto if g.result and g.result.winner == s) for s in range(len(game.names))
    ]
    points = [
        sum((g.result.game_points or 0) for g in upto if g.result and g.result.winner == s)
        for s in range(len(game.names))
    ]
    t = tr.gettext
    fmt = value_words(tr, match.format.value)
    running = game.result is None  # "after game 1" only once game 1 is finished
    if match.game_points is None:
        standing = ", ".join(f"{n} {w}" for n, w in zip(game.names, won, strict=True))
        said = t("Match ({format}) after game {game}: games won {standing}")
        if running:
            said = t("Match ({format}), game {game} in progress: games won {standing}")
    else:
        standing = ", ".join(f"{n} {p}" for n, p in zip(game.names, points, strict=True))
        said = t("Match ({format}) after game {game}: game points {standing}")
        if running:
            said = t("Match ({format}), game {game} in progress: game points {standing}")
    text = said.format(format=fmt, game=game.game, standing=standing)
    last = match.games[-1].game if match.games else 0
    if match.winner is not None and game.game == last:
        text += t("; {name} wins the match").format(name=match.names[match.winner])
    return text
